"""Public import path of the SDK v2 integration: the same module object as :mod:`sm_debug_config.integrations.sagemaker_v2`."""
import sys

from sm_debug_config.integrations.sagemaker_v2 import *  # noqa: F401,F403  (for type checkers)
from sm_debug_config.integrations import sagemaker_v2 as _module

sys.modules[__name__] = _module
