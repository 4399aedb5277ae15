"""Public import path of the API-limits check: the same module object as :mod:`sm_debug_config.validation.api`."""
import sys

from sm_debug_config.validation.api import *  # noqa: F401,F403  (for type checkers)

sys.modules[__name__] = sys.modules["sm_debug_config.validation.api"]
