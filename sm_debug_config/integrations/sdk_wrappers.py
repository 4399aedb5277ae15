"""The SDK v2 methods the post-import hook (:mod:`sm_debug_config.integrations.sdk_patch`) wraps, and what
the wrappers do: convert an Estimator holding sm-debug-config objects before ``_prepare_for_training``, send
``render_update``'s request from ``update_profiler``, and warn that tuning jobs drop Debugger fields.

Imported at the first call of a wrapped method (the SDK is then whole), never by ``import sm_debug_config``.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable, List, Optional

from sm_debug_config.errors import ConfigError, ConfigWarning, warn_user
from sm_debug_config.integrations import sagemaker_v2
from sm_debug_config.model.profiler import ProfilerConfig
from sm_debug_config.update import render_update

def _holds_ours(estimator: Any) -> bool:
    """The Estimator carries sm-debug-config objects (or carried them at its last fit)."""
    if getattr(estimator, sagemaker_v2._STATE, None) is not None:  # noqa: SLF001 - the same integration
        return True
    attributes = sagemaker_v2._attributes(estimator)  # noqa: SLF001 - the same integration
    return any(sagemaker_v2._is_ours(item) for item in sagemaker_v2._objects(attributes))  # noqa: SLF001


def prepare_for_training(original: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(self: Any, job_name: Optional[str] = None) -> Any:
        if not _holds_ours(self):
            return original(self, job_name=job_name)
        state = getattr(self, sagemaker_v2._STATE, None)  # noqa: SLF001 - the same integration
        if state is not None and job_name is not None and state.pop("prepared_for", None) == job_name:
            return original(self, job_name=job_name)  # prepare()/fit() converted it for this job just now
        return original(self, job_name=sagemaker_v2.prepare(self, job_name))

    return wrapper


def wrap_update_profiler(original: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        given = inspect.signature(original).bind(self, *args, **kwargs).arguments
        rules = given.get("rules")
        listed = list(rules) if isinstance(rules, (list, tuple)) else []
        is_ours = sagemaker_v2._is_ours  # noqa: SLF001 - the same integration
        if not any(is_ours(o) for o in listed + [given.get("framework_profile_params")]):
            return original(self, *args, **kwargs)
        return update_profiler(self, *args, **kwargs)

    return wrapper


def prepare_for_tuning(original: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        estimators: List[Any] = (
            [self.estimator]
            if getattr(self, "estimator", None) is not None
            else list((getattr(self, "estimator_dict", None) or {}).values())
        )
        dropped = [_dropped_fields(e) for e in estimators if _holds_ours(e)]
        if any(dropped):
            names = sorted({name for fields in dropped for name in fields})
            warn_user(ConfigWarning(
                "the SageMaker SDK sends no Debugger fields in a tuning job (its training job definition has none): "
                f"{', '.join(names)} of the tuned Estimator are dropped; tune without them or run the best job again "
                "with them"
            ))
        return original(self, *args, **kwargs)

    return wrapper


def update_profiler(
    estimator: Any,
    rules: Any = None,
    system_monitor_interval_millis: Any = None,
    s3_output_path: Any = None,
    framework_profile_params: Any = None,
    disable_framework_metrics: bool = False,
) -> Any:
    """``estimator.update_profiler(...)`` with sm-debug-config objects: sends what ``render_update`` gives
    for the running job (``DescribeTrainingJob``); mixing our objects with the SDK's is a ``ConfigError``."""
    given = list(rules) if isinstance(rules, (list, tuple)) else ([] if rules is None else [rules])
    is_ours = sagemaker_v2._is_ours  # noqa: SLF001 - the same integration
    foreign = [type(o).__name__ for o in given + [framework_profile_params] if o is not None and not is_ours(o)]
    if foreign:
        raise ConfigError(
            f"update_profiler mixes sm_debug_config objects with other objects ({', '.join(foreign)})",
            field="update_profiler",
            allowed="only sm_debug_config ProfilerRule and FrameworkProfile objects",
        )
    estimator._ensure_latest_training_job()  # noqa: SLF001 - what the SDK's own update_profiler calls
    job = estimator.latest_training_job
    wanted = (s3_output_path, system_monitor_interval_millis, framework_profile_params)
    config = (
        ProfilerConfig(
            s3_output_path=s3_output_path,
            system_monitor_interval_millis=system_monitor_interval_millis,
            framework_profile_params=framework_profile_params,
        )
        if any(w is not None for w in wanted)
        else None
    )
    request = render_update(
        config,
        given or None,
        region=estimator.sagemaker_session.boto_region_name,
        job_name=job.name,
        current=job.describe(),
        disable_framework_metrics=disable_framework_metrics,
    )
    from sagemaker.estimator import _TrainingJob

    return _TrainingJob.update(estimator, request.get("ProfilerRuleConfigurations"), request.get("ProfilerConfig"))


def _dropped_fields(estimator: Any) -> List[str]:
    """The request fields the Estimator's Debugger settings would have filled."""
    settings = sagemaker_v2._attributes(estimator)  # noqa: SLF001 - the same integration
    rules = settings.get("rules") or []
    kinds = {type(r).__name__ for r in rules} if isinstance(rules, (list, tuple)) else set()
    filled = {
        "DebugHookConfig": settings.get("debugger_hook_config") not in (None, False) or "Rule" in kinds,
        "DebugRuleConfigurations": "Rule" in kinds,
        "ProfilerConfig": settings.get("profiler_config") is not None,
        "ProfilerRuleConfigurations": "ProfilerRule" in kinds,
        "TensorBoardOutputConfig": settings.get("tensorboard_output_config") is not None,
    }
    return [field for field, is_filled in filled.items() if is_filled]
