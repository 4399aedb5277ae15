"""Public import path of rule job status: the same module object as :mod:`sm_debug_config.operations.status`."""
import sys

from sm_debug_config.operations.status import *  # noqa: F401,F403  (for type checkers)
from sm_debug_config.operations import status as _module

sys.modules[__name__] = _module
