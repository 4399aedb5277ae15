"""What an imported name stands for in lint: one of our classes or ``rule_configs`` functions, an SDK Estimator,
``image_uris.retrieve``, or a module that is nothing of ours. lint binds imports through :func:`resolve`, so a
``Rule`` imported from ``smdebug.rules.rule`` is not taken for ours.
"""

from __future__ import annotations

import ast
from typing import Any, Sequence, Tuple

import rule_configs
from sm_debug_config.lint.values import Arguments, ImageSpec, Module, Target, Unknown, text_of
from sm_debug_config.model import profiler

#: Our classes, under ``sagemaker.debugger``, ``sagemaker.core.debugger`` and ``sm_debug_config`` (any submodule).
CLASSES = (
    "Rule",
    "ProfilerRule",
    "CollectionConfig",
    "DebuggerHookConfig",
    "TensorBoardOutputConfig",
    "ProfilerConfig",
    "FrameworkProfile",
    "DetailedProfilingConfig",
    "DataloaderProfilingConfig",
    "PythonProfilingConfig",
    "HorovodProfilingConfig",
    "SMDataParallelProfilingConfig",
)
#: The arguments whose values the SageMaker SDK (v2's ``sagemaker.debugger`` and v3's ``sagemaker.core.debugger``
#: alike) puts in the request as given, without making strings of them: ``CollectionConfig._to_request_dict``,
#: ``DebuggerHookConfig._to_request_dict`` and ``Rule._set_rule_parameters`` copy the dict (profiler rules and
#: profiling settings are converted with ``str()``). A number or bool there is botocore's ParamValidationError.
SENT_AS_GIVEN = {
    "CollectionConfig": ("parameters",),
    "DebuggerHookConfig": ("hook_parameters",),
    "Rule.sagemaker": ("rule_parameters",),
    "Rule.custom": ("rule_parameters",),
}
#: SDK v3 ``ModelTrainer`` methods that set a field and return the trainer (the builder style of its docs:
#: ``trainer = trainer.with_checkpoint_config(...)``), as in sagemaker-train 1.27's ``sagemaker/train/model_trainer.py``
#: and SDK v2.257's ``sagemaker/modules/train/model_trainer.py`` (tests/v3/test_lint_trainer.py compares them with
#: the installed SDK).
TRAINER_BUILDERS = (
    "with_tensorboard_output_config",
    "with_retry_strategy",
    "with_infra_check_config",
    "with_session_chaining_config",
    "with_remote_debug_config",
    "with_checkpoint_config",
    "with_metric_definitions",
)
#: Our enumerations (``PythonProfiler.CPROFILE``): an attribute of one is its member, a known value.
ENUMS = ("PythonProfiler", "cProfileTimer")
#: Module paths whose names are ours.
OUR_MODULES = ("sagemaker.debugger", "sagemaker.core.debugger", "sm_debug_config")
#: Modules that are ``rule_configs`` itself.
RULE_CONFIG_MODULES = (
    "smdebug_rulesconfig",
    "rule_configs",
    "sagemaker.debugger.rule_configs",
    "sagemaker.core.debugger.rule_configs",
    "sm_debug_config.rule_configs",
)
#: SDK Estimator classes (under any ``sagemaker.*`` module) and the framework each runs.
ESTIMATORS = {
    "Estimator": None,
    "Framework": None,
    "PyTorch": "pytorch",
    "TensorFlow": "tensorflow",
    "MXNet": "mxnet",
    "XGBoost": "xgboost",
    "HuggingFace": None,
    "SKLearn": None,
    "Chainer": None,
    "RLEstimator": None,
}


def resolve(path: str) -> Any:
    """What a dotted name stands for: a :class:`Target`, or a :class:`Module` when it is nothing of ours.

    >>> resolve("sagemaker.debugger.Rule").name, resolve("smdebug.rules.rule.Rule").path
    ('Rule', 'smdebug.rules.rule.Rule')
    >>> resolve("smdebug_rulesconfig.vanishing_gradient").name
    'rule_configs.vanishing_gradient'
    """
    head, _, last = path.rpartition(".")
    if head in RULE_CONFIG_MODULES and last in rule_config_names():
        return Target("rule_configs." + last)
    if any(head == m or head.startswith(m + ".") for m in OUR_MODULES):
        if last in CLASSES or last in ENUMS:
            return Target(last, head)
        if last == "rule_configs":
            return Module(f"{head}.rule_configs")
        if last == "attach_debugger":
            return Target("attach")
        if last == "render" and head in ("sm_debug_config", "sm_debug_config.checked"):
            return Target("render")  # render(rules, hook, ..., framework=...): a job, as attach_debugger's
    if head.startswith("sagemaker") and last == "ModelTrainer":  # SDK v3 (sagemaker.train, sagemaker.modules.train)
        return Target("trainer")
    if head.startswith("sagemaker") and last in ESTIMATORS and not head.startswith("sagemaker.debugger"):
        return Target("estimator:" + last)
    if path in ("sagemaker.image_uris.retrieve", "sagemaker.amazon.amazon_estimator.get_image_uri"):
        return Target("retrieve" if path.endswith("retrieve") else "get_image_uri")
    if path in ("sm_debug_config.integrations.boto3_events.attach",):
        return Target("attach")
    return Module(path)


#: ``get_image_uri``'s keywords by the name ``retrieve`` gives them.
_SDK_V1_KEYWORDS = {"repo_name": "framework", "repo_version": "version"}


def rule_config_names() -> Sequence[str]:
    """The functions of ``rule_configs``."""
    return rule_configs.__all__


def enum_member(enum: str, name: str) -> Any:
    """``PythonProfiler.CPROFILE`` and the like: the member of our enumeration, or None for a name it does not have."""
    cls = {"PythonProfiler": profiler.PythonProfiler, "cProfileTimer": profiler.cProfileTimer}[enum]
    return cls.__members__.get(name)


def image_spec(name: str, node: ast.Call, given: Arguments) -> Any:
    """``image_uris.retrieve(framework, region, version, py_version, instance_type, ..., image_scope)`` (or SDK v1's
    ``get_image_uri(region, repo_name, repo_version)``) as an :class:`ImageSpec` when framework and
    version are known.
    """
    order: Tuple[str, ...] = ("framework", "region", "version", "py_version", "instance_type")
    if name != "retrieve":
        order = ("region", "framework", "version")
    args = dict(zip(order, given.positional))
    args.update({_SDK_V1_KEYWORDS.get(k, k): v for k, v in given.keywords.items()})
    framework, version, scope = args.get("framework"), args.get("version"), args.get("image_scope", "training")
    if isinstance(framework, str) and isinstance(version, str) and scope in ("training", None):
        return ImageSpec(node, text_of(node), framework, version)
    return Unknown(node, text_of(node))
