"""Public import path of the SageMaker Python SDK v2 integration (``sm_debug_config.sagemaker.fit``);
it lives in :mod:`sm_debug_config.integrations.sagemaker_v2` and imports no SDK until called."""
from sm_debug_config.integrations.sagemaker_v2 import (
    ESTIMATOR_ATTRIBUTES,
    MergedDebuggerHookConfig,
    SageMakerActions,
    estimator_settings,
    fit,
    prepare,
    to_sagemaker,
    to_sagemaker_object,
)

__all__ = [
    "ESTIMATOR_ATTRIBUTES", "MergedDebuggerHookConfig", "SageMakerActions", "estimator_settings", "fit", "prepare",
    "to_sagemaker", "to_sagemaker_object",
]
