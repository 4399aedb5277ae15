"""Public import path of rule job status: the same module object as :mod:`sm_debug_config.operations.status`."""
import sys

from sm_debug_config.operations.status import *  # noqa: F401,F403  (for type checkers)

sys.modules[__name__] = sys.modules["sm_debug_config.operations.status"]
