"""A launcher that exits with a status of its own."""

import sys

sys.exit(3)
