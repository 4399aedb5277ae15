"""Is the installed botocore new enough for the fields we send? An old one fails with a
``ParamValidationError`` ("Unknown parameter in input: ProfilerConfig.DisableProfiler") that does
not say what to do; :func:`check_botocore` names the version the shipped API schema came from.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional

from sm_debug_config import datafiles as data
from sm_debug_config.errors import ConfigError


def missing_fields(
    request: Dict[str, Any], operation: str = "CreateTrainingJob", service_model: Any = None
) -> List[str]:
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


def check_botocore(
    request: Dict[str, Any], operation: str = "CreateTrainingJob", service_model: Optional[Any] = None
) -> None:
    """``ConfigError`` naming the fields and the botocore version to install, if any is unknown.

    >>> check_botocore({"DebugHookConfig": {"S3OutputPath": "s3://b/o"}})
    """
    missing = missing_fields(request, operation, service_model)
    if missing:
        import botocore

        need = data.load("api_schema")["x-botocore-version"]
        raise ConfigError(
            f"the installed botocore {botocore.__version__} does not know {', '.join(missing)} of {operation}; "
            f"calling the API would fail with a ParamValidationError",
            field="botocore",
            allowed=f"botocore >= {need} (pip install -U 'boto3' 'botocore>={need}')",
        )
