"""Public import path of the sagemaker-core (SDK v3) integration: the same module object as :mod:`sm_debug_config.integrations.sagemaker_core`."""
import sys

from sm_debug_config.integrations.sagemaker_core import *  # noqa: F401,F403  (for type checkers)

sys.modules[__name__] = sys.modules["sm_debug_config.integrations.sagemaker_core"]
