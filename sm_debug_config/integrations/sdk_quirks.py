"""Is the installed botocore new enough for the fields we send?

An old botocore fails with a ``ParamValidationError`` ("Unknown parameter in input:
ProfilerConfig.DisableProfiler") that does not say what to do. :func:`check_botocore` walks
the request against the installed SageMaker service model first and names the version to
install: the one the shipped API schema was generated from, which is known to have every field.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional

from sm_debug_config.errors import ConfigError


def _schema_botocore_version() -> str:
    from sm_debug_config import datafiles as data

    schema = data.load("api_schema")
    return str(schema.get("x-botocore-version") or schema.get("x_botocore_version") or "the latest")


def missing_fields(request: Dict[str, Any], operation: str = "CreateTrainingJob", service_model: Any = None) -> List[str]:
    """Dotted names of keys in ``request`` that the installed SageMaker model does not define."""
    if service_model is None:
        import botocore.session

        service_model = botocore.session.get_session().get_service_model("sagemaker")
    shape = service_model.operation_model(operation).input_shape
    missing: List[str] = []

    def walk(value: Any, shape: Any, where: str) -> None:
        if shape is None:
            return
        if shape.type_name == "structure" and isinstance(value, dict):
            for key, item in value.items():
                member = shape.members.get(key)
                name = f"{where}.{key}" if where else key
                if member is None:
                    missing.append(name)
                else:
                    walk(item, member, name)
        elif shape.type_name == "list" and isinstance(value, list):
            for item in value:
                walk(item, shape.member, where)

    walk(request, shape, "")
    return missing


def check_botocore(request: Dict[str, Any], operation: str = "CreateTrainingJob", service_model: Optional[Any] = None) -> None:
    """``ConfigError`` naming the fields and the botocore version to install, if any is unknown.

    >>> check_botocore({"DebugHookConfig": {"S3OutputPath": "s3://b/o"}})
    """
    missing = missing_fields(request, operation, service_model)
    if missing:
        import botocore

        need = _schema_botocore_version()
        raise ConfigError(
            f"the installed botocore {botocore.__version__} does not know {', '.join(missing)} of {operation}; "
            f"calling the API would fail with a ParamValidationError",
            field="botocore",
            allowed=f"botocore >= {need} (pip install -U 'boto3' 'botocore>={need}')",
        )


def hook_dropped_by_sdk(
    framework: Optional[str],
    instance_count: Any,
    distribution: Any,
    checkpoint_s3_uri: Any,
    checkpoint_local_path: Any,
) -> Optional[str]:
    """Why the SDK v2 Estimator would silently turn the hook off for these settings (else None).

    * checkpointing (S3 URI and local path) with distributed training for MXNet, PyTorch and
      TensorFlow: smdebug does not support it. PyTorch and TensorFlow Estimators store
      ``distribution`` as ``{}`` by default, so the SDK drops their hook even on one instance;
    * TensorFlow ``parameter_server`` distribution: smdebug does not support it (hook and
      debugger rules are dropped).
    """
    from sm_debug_config.model.validators import is_pipeline_variable

    if framework == "tensorflow" and isinstance(distribution, dict):
        server = distribution.get("parameter_server")
        if isinstance(server, dict) and server.get("enabled"):
            return "TensorFlow parameter_server distribution is not supported by the Debugger hook (the SDK v2 silently drops the hook and debugger rules)"
    if framework in ("mxnet", "pytorch", "tensorflow") and checkpoint_s3_uri and checkpoint_local_path:
        distributed = is_pipeline_variable(instance_count) or (isinstance(instance_count, int) and instance_count > 1) or distribution is not None
        if distributed:
            why = "multi-instance" if isinstance(instance_count, int) and instance_count > 1 else "distributed"
            return (
                f"checkpointing (checkpoint_s3_uri and checkpoint_local_path) with a {why} {framework} job is not supported by the Debugger hook "
                f"(the SDK v2 silently turns the hook off{' — its PyTorch/TensorFlow Estimators count as distributed even on one instance' if framework in ('pytorch', 'tensorflow') and why == 'distributed' else ''})"
            )
    return None


def request_hook_conflicts(request: Dict[str, Any]) -> Optional[str]:
    """The same check for a raw ``CreateTrainingJob`` request (checkpointing + several instances)."""
    checkpoint = request.get("CheckpointConfig") if isinstance(request.get("CheckpointConfig"), dict) else {}
    resource = request.get("ResourceConfig") if isinstance(request.get("ResourceConfig"), dict) else {}
    count = resource.get("InstanceCount")
    groups = resource.get("InstanceGroups") or []
    total = count if isinstance(count, int) else sum(g.get("InstanceCount", 0) for g in groups if isinstance(g, dict))
    if checkpoint.get("S3Uri") and checkpoint.get("LocalPath") and isinstance(total, int) and total > 1:
        return f"checkpointing (CheckpointConfig) with {total} instances: the Debugger hook does not support distributed training with checkpointing, and the SageMaker SDK turns it off in this case"
    return None
