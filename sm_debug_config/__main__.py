"""``python -m sm_debug_config`` runs the ``sm-debug-config`` command."""
import sys

from sm_debug_config.cli import main

sys.exit(main())
