"""What the SageMaker SDK v2 does silently that changes Debugger settings (hook dropped, ...).

The check that the installed botocore knows every field we send lives in
:mod:`sm_debug_config.validation.installed_botocore`.
"""
from __future__ import annotations

from typing import Any, Dict, Optional

from sm_debug_config.variables import is_pipeline_variable

_ONE_INSTANCE = " — its PyTorch/TensorFlow Estimators count as distributed even on one instance"


def hook_dropped_by_sdk(framework: Optional[str], estimator: Any) -> Optional[str]:
    """Why the SDK v2 Estimator (of ``framework``) would silently turn the hook off (else None).

    * checkpointing (S3 URI and local path) with distributed training for MXNet, PyTorch and
      TensorFlow: smdebug does not support it. PyTorch and TensorFlow Estimators store
      ``distribution`` as ``{}`` by default, so the SDK drops their hook even on one instance;
    * TensorFlow ``parameter_server`` distribution: smdebug does not support it (hook and
      debugger rules are dropped).
    """

    names = ("instance_count", "distribution", "checkpoint_s3_uri", "checkpoint_local_path")
    count, distribution, checkpoint_s3_uri, checkpoint_local_path = (getattr(estimator, n, None) for n in names)
    if framework == "tensorflow" and isinstance(distribution, dict):
        server = distribution.get("parameter_server")
        if isinstance(server, dict) and server.get("enabled"):
            return (
                "TensorFlow parameter_server distribution is not supported by the Debugger hook (the SDK v2 silently "
                "drops the hook and debugger rules)"
            )
    if framework in ("mxnet", "pytorch", "tensorflow") and checkpoint_s3_uri and checkpoint_local_path:
        distributed = is_pipeline_variable(count) or (isinstance(count, int) and count > 1) or distribution is not None
        if distributed:
            why = "multi-instance" if isinstance(count, int) and count > 1 else "distributed"
            return (
                f"checkpointing (checkpoint_s3_uri and checkpoint_local_path) with a {why} {framework} job is not "
                "supported by the Debugger hook (the SDK v2 silently turns the hook "
                f"off{_ONE_INSTANCE if framework in ('pytorch', 'tensorflow') and why == 'distributed' else ''})"
            )
    return None


def request_hook_conflicts(request: Dict[str, Any]) -> Optional[str]:
    """The same check for a raw ``CreateTrainingJob`` request (checkpointing + several instances)."""
    checkpoint, resource = (
        value if isinstance(value, dict) else {}
        for value in (request.get("CheckpointConfig"), request.get("ResourceConfig"))
    )
    count = resource.get("InstanceCount")
    groups = resource.get("InstanceGroups") or []
    total = count if isinstance(count, int) else sum(g.get("InstanceCount", 0) for g in groups if isinstance(g, dict))
    if checkpoint.get("S3Uri") and checkpoint.get("LocalPath") and isinstance(total, int) and total > 1:
        return (
            f"checkpointing (CheckpointConfig) with {total} instances: the Debugger hook does not support distributed "
            "training with checkpointing, and the SageMaker SDK turns it off in this case"
        )
    return None
