"""Public import path of the sagemaker-core (SDK v3) integration: the same module object as :mod:`sm_debug_config.integrations.sagemaker_core`."""
import sys

from sm_debug_config.integrations.sagemaker_core import *  # noqa: F401,F403  (for type checkers)
from sm_debug_config.integrations import sagemaker_core as _module

sys.modules[__name__] = _module
