"""Plain ``estimator.fit()`` with this project's objects: a post-import hook on the SDK v2.

Every Debugger object reaches a ``CreateTrainingJob`` request through
``EstimatorBase._prepare_for_training`` (``fit``, ``TrainingStep``, tuners, third-party launchers).
When ``sagemaker.estimator`` is imported (before or after us) it is wrapped to run
:func:`sm_debug_config.integrations.sagemaker_v2.prepare` for an Estimator holding our objects; so
is ``update_profiler`` (to send ``render_update``'s request), and ``HyperparameterTuner._prepare_for_tuning``
warns that the SDK drops Debugger fields from tuning jobs. ``SM_DEBUG_CONFIG_PATCH_SDK=0`` before
importing leaves the SDK untouched. Importing this module imports no part of the SDK.
"""
from __future__ import annotations

import os
import sys
import _thread  # the lock without importing threading (import time)
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple, cast

if TYPE_CHECKING:
    from importlib.abc import Loader

ENV_SWITCH = "SM_DEBUG_CONFIG_PATCH_SDK"
_MARK = "__sm_debug_config_wrapped__"
_LOCK = _thread.allocate_lock()


def enabled() -> bool:
    """False when ``SM_DEBUG_CONFIG_PATCH_SDK`` is ``0``/``false``/``no``/``off``."""
    return os.environ.get(ENV_SWITCH, "1").strip().lower() not in ("0", "false", "no", "off")


# --- what is wrapped -------------------------------------------------------------------------------


def _holds_ours(estimator: Any) -> bool:
    """The Estimator carries sm-debug-config objects (or carried them at its last fit)."""
    from sm_debug_config.integrations import sagemaker_v2

    if getattr(estimator, sagemaker_v2._STATE, None) is not None:  # noqa: SLF001 - the same integration
        return True
    attributes = sagemaker_v2._attributes(estimator)  # noqa: SLF001 - the same integration
    return any(sagemaker_v2._is_ours(item) for item in sagemaker_v2._objects(attributes))  # noqa: SLF001


def _wrap(cls: Any, name: str, make: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
    original = cls.__dict__.get(name)
    if original is None or getattr(original, _MARK, False):
        return
    import functools

    wrapper = functools.wraps(original)(make(original))
    setattr(wrapper, _MARK, True)
    setattr(cls, name, wrapper)


def _prepare_for_training(original: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(self: Any, job_name: Optional[str] = None) -> Any:
        if not _holds_ours(self):
            return original(self, job_name=job_name)
        from sm_debug_config.integrations import sagemaker_v2

        state = getattr(self, sagemaker_v2._STATE, None)  # noqa: SLF001 - the same integration
        if state is not None and job_name is not None and state.pop("prepared_for", None) == job_name:
            return original(self, job_name=job_name)  # prepare()/fit() converted it for this job just now
        return original(self, job_name=sagemaker_v2.prepare(self, job_name))

    return wrapper


def _update_profiler(original: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        import inspect

        from sm_debug_config.integrations.sagemaker_v2 import _is_ours

        given = inspect.signature(original).bind(self, *args, **kwargs).arguments
        rules = given.get("rules")
        listed = list(rules) if isinstance(rules, (list, tuple)) else []
        if not any(_is_ours(o) for o in listed + [given.get("framework_profile_params")]):
            return original(self, *args, **kwargs)
        return update_profiler(self, *args, **kwargs)

    return wrapper


def _prepare_for_tuning(original: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        estimators: List[Any] = (
            [self.estimator]
            if getattr(self, "estimator", None) is not None
            else list((getattr(self, "estimator_dict", None) or {}).values())
        )
        dropped = [_dropped_fields(e) for e in estimators if _holds_ours(e)]
        if any(dropped):
            from sm_debug_config.errors import ConfigWarning, warn_user

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
    from sm_debug_config.errors import ConfigError
    from sm_debug_config.integrations.sagemaker_v2 import _is_ours
    from sm_debug_config.model.profiler import ProfilerConfig
    from sm_debug_config.update import render_update

    given = list(rules) if isinstance(rules, (list, tuple)) else ([] if rules is None else [rules])
    foreign = [type(o).__name__ for o in given + [framework_profile_params] if o is not None and not _is_ours(o)]
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
    from sm_debug_config.integrations import sagemaker_v2

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


#: The methods wrapped when their module is imported: module -> (class, method, wrapper factory).
PATCHES: Dict[str, Tuple[Tuple[str, str, Callable[[Callable[..., Any]], Callable[..., Any]]], ...]] = {
    "sagemaker.estimator": (
        ("EstimatorBase", "_prepare_for_training", _prepare_for_training),
        ("EstimatorBase", "update_profiler", _update_profiler),
    ),
    "sagemaker.tuner": (("HyperparameterTuner", "_prepare_for_tuning", _prepare_for_tuning),),
}


def _patch(module: Any) -> None:
    for cls_name, method, make in PATCHES[module.__name__]:
        cls = getattr(module, cls_name, None)
        if cls is not None:
            _wrap(cls, method, make)


# --- the post-import hook --------------------------------------------------------------------------


class _PatchingLoader:
    """Runs the real loader, then the patch; everything else is the real loader's."""

    def __init__(self, loader: Any) -> None:
        self._loader = loader

    def exec_module(self, module: Any) -> None:
        module.__spec__.loader = self._loader  # reloads and importlib.resources see the real loader
        module.__loader__ = self._loader
        self._loader.exec_module(module)
        _patch(module)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)


class _PostImportFinder:
    """A ``sys.meta_path`` entry that only answers for the modules in :data:`PATCHES`."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name not in PATCHES:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                break
        else:
            return None
        if spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return None
        spec.loader = cast("Loader", _PatchingLoader(spec.loader))  # duck-typed: the loader methods it needs
        return spec


def install() -> bool:
    """Wrap the SDK now if it is imported, and as soon as it is otherwise (once per process).

    Returns False when switched off by ``SM_DEBUG_CONFIG_PATCH_SDK=0``.
    """
    if not enabled():
        return False
    with _LOCK:
        if not any(isinstance(f, _PostImportFinder) for f in sys.meta_path):
            sys.meta_path.insert(0, _PostImportFinder())
        for name in PATCHES:
            if name in sys.modules:
                _patch(sys.modules[name])
    return True
