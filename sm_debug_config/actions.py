"""Public import path of the action classes: the same module object as :mod:`sm_debug_config.model.actions`."""
import sys

from sm_debug_config.model.actions import *  # noqa: F401,F403  (for type checkers)

sys.modules[__name__] = sys.modules["sm_debug_config.model.actions"]
