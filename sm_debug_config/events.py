"""Public import path of rule events and the Lambda handler (``sm_debug_config.events.lambda_handler``): the same module object as :mod:`sm_debug_config.operations.events`."""
import sys

from sm_debug_config.operations.events import *  # noqa: F401,F403  (for type checkers)

sys.modules[__name__] = sys.modules["sm_debug_config.operations.events"]
