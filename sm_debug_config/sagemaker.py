"""Public import path of the SDK v2 integration: the same module object as :mod:`sm_debug_config.integrations.sagemaker_v2`."""
import sys

from sm_debug_config.integrations.sagemaker_v2 import *  # noqa: F401,F403  (for type checkers)

sys.modules[__name__] = sys.modules["sm_debug_config.integrations.sagemaker_v2"]
