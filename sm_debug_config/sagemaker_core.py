"""Public import path of the sagemaker-core (SDK v3) integration (``to_sagemaker_core``);
it lives in :mod:`sm_debug_config.integrations.sagemaker_core`."""
from sm_debug_config.integrations.sagemaker_core import (
    ARGUMENTS,
    fields_to_sagemaker_core,
    shapes_module,
    to_sagemaker_core,
)

__all__ = ["ARGUMENTS", "fields_to_sagemaker_core", "shapes_module", "to_sagemaker_core"]
