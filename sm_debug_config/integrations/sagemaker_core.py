"""SageMaker Python SDK v3 (sagemaker-core): Debugger settings as ``TrainingJob.create`` arguments.

SDK v3's ``ModelTrainer`` has no Debugger parameters; ``sagemaker.core.resources.TrainingJob.create``
takes them: ``TrainingJob.create(training_job_name="job-1", ..., **to_sagemaker_core(...))``.
sagemaker-core leaves false and empty values out of the request it sends (``DisableProfiler: False``,
an empty ``CollectionConfigurations``), which the service reads as the same defaults.
"""
from __future__ import annotations

import importlib
import importlib.util
import os
from typing import Any, Collection, Dict, NoReturn, Optional, Sequence, Union

from sm_debug_config.checked import render_model
from sm_debug_config.errors import ConfigError, shorten
from sm_debug_config.model.hook import DebuggerHookConfig, TensorBoardOutputConfig
from sm_debug_config.model.profiler import ProfilerConfig
from sm_debug_config.model.rules import ProfilerRule, Rule
from sm_debug_config.model.settings import DebuggerSetup, JobSettings, settings_of
from sm_debug_config.rendering import FIELDS

__all__ = ["ARGUMENTS", "fields_to_sagemaker_core", "shapes_module", "to_sagemaker_core"]  # noqa: F822 - __getattr__

#: Keys whose items are themselves shapes: (shape, key) -> the items' shape.
_NESTED = {("DebugHookConfig", "CollectionConfigurations"): "CollectionConfiguration"}


def _attribute(key: str) -> str:
    """sagemaker-core's attribute (or ``TrainingJob.create`` argument) name for an API key: botocore's."""
    from botocore import xform_name

    return xform_name(key)


def __getattr__(name: str) -> Any:
    if name == "ARGUMENTS":  # computed on first use: botocore is imported only when needed
        #: ``TrainingJob.create`` keyword argument for each rendered field.
        arguments = {field: _attribute(field) for field in FIELDS}
        globals()["ARGUMENTS"] = arguments
        return arguments
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _has_v3_core() -> bool:
    """Whether ``sagemaker.core.shapes`` exists, found without importing an SDK v2 ``sagemaker``."""
    try:
        spec = importlib.util.find_spec("sagemaker")
    except (ImportError, ValueError):
        return False
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    return any(os.path.isdir(os.path.join(location, "core", "shapes")) for location in locations)


def shapes_module() -> Any:
    """The sagemaker-core shapes module (v2 ``sagemaker.core.shapes``, else 1.x ``sagemaker_core.shapes``)."""
    tried = []
    if _has_v3_core():
        try:
            return importlib.import_module("sagemaker.core.shapes")
        except ImportError as err:
            tried.append(f"sagemaker.core.shapes: {err}")
    try:
        return importlib.import_module("sagemaker_core.shapes")
    except ImportError as err:
        tried.append(f"sagemaker_core.shapes: {err}")
    raise ConfigError(
        "sagemaker-core is not installed (" + "; ".join(tried or ["no sagemaker.core.shapes"]) + ")",
        field="sagemaker_core",
        allowed='pip install "sagemaker-core>=2" (SageMaker Python SDK v3), in an environment without sagemaker<3',
    )


def _shape(shapes: Any, name: str, value: Dict[str, Any], where: str) -> Any:
    cls = getattr(shapes, name)
    attributes = list(getattr(cls, "model_fields", None) or getattr(cls, "__fields__", {}))
    kwargs: Dict[str, Any] = {}
    for key, item in value.items():
        attribute = _attribute(key)
        if attribute not in attributes:
            raise ConfigError(
                f"unexpected key {shorten(key)}",
                field=where,
                allowed=f"the API keys of {name} (in sagemaker-core: {', '.join(attributes)})",
            )
        nested = _NESTED.get((name, key))
        if nested is not None:
            item = [_shape(shapes, nested, c, f"{where}.{key}[{i}]") for i, c in enumerate(item)]
        kwargs[attribute] = item
    try:
        return cls(**kwargs)
    except ValueError as err:  # pydantic's ValidationError: e.g. a pipeline variable, which its shapes do not take
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise ConfigError(f"sagemaker-core's {name} refuses the value ({shorten(first)})", field=where) from None


def fields_to_sagemaker_core(fields: Dict[str, Any]) -> Dict[str, Any]:
    """``TrainingJob.create`` keyword arguments (sagemaker-core shapes)
    for what ``render`` returns (other keys ignored)."""
    if not isinstance(fields, dict):
        raise ConfigError(f"expected the rendered fields (a dict), got {type(fields).__name__}", field="fields")
    shapes = shapes_module()
    out: Dict[str, Any] = {}
    for field, value in ((f, fields[f]) for f in FIELDS if f in fields):
        if field.endswith("RuleConfigurations"):  # a list of shapes named in the singular
            out[_attribute(field)] = [_shape(shapes, field[:-1], item, f"{field}[{i}]") for i, item in enumerate(value)]
        else:
            out[_attribute(field)] = _shape(shapes, field, value, field)
    return out


def to_sagemaker_core(
    rules: Optional[Sequence[Union[Rule, ProfilerRule]]] = None,
    debugger_hook_config: Union[DebuggerHookConfig, bool, None] = None,
    profiler_config: Optional[ProfilerConfig] = None,
    tensorboard_output_config: Optional[TensorBoardOutputConfig] = None,
    disable_profiler: bool = False,
    *,
    settings: Optional[JobSettings] = None,
    region: Optional[str] = None,
    output_path: Any = None,
    job_name: Any = None,
    instance_type: Optional[str] = None,
    rule_image_uri: Optional[str] = None,
    defaults: Optional[str] = None,
    validate: Optional[bool] = None,
    framework: Optional[str] = None,
    disable_debugger: Optional[bool] = None,
    ignore: Optional[Collection[str]] = None,
    framework_version: Optional[str] = None,
    image_uri: Optional[str] = None,
    **unknown: NoReturn,
) -> Dict[str, Any]:
    """The Debugger keyword arguments of ``TrainingJob.create`` (sagemaker-core shapes) for ``render``'s fields.

    Settings as for ``render`` (``output_path``: the job's ``OutputDataConfig.S3OutputPath``). Upload
    local custom-rule sources first (:func:`~sm_debug_config.integrations.boto3_client.upload_rule_sources`).
    ``ConfigError`` if sagemaker-core is not installed.
    """
    setup = DebuggerSetup(
        rules=rules,
        debugger_hook_config=debugger_hook_config,
        profiler_config=profiler_config,
        tensorboard_output_config=tensorboard_output_config,
        disable_profiler=disable_profiler,
    )
    job = settings_of(
        settings, unknown, region=region, output_path=output_path, job_name=job_name, instance_type=instance_type,
        rule_image_uri=rule_image_uri, defaults=defaults, validate=validate, framework=framework,
        disable_debugger=disable_debugger, ignore=ignore, framework_version=framework_version, image_uri=image_uri,
    )
    return fields_to_sagemaker_core(render_model(setup, job).request)
