"""Plain ``estimator.fit()`` with this project's objects: a post-import hook on the SDK v2.

The SageMaker Python SDK v2 accepts only its own Debugger classes, and every Debugger object
reaches a ``CreateTrainingJob`` request through one method, ``EstimatorBase._prepare_for_training``
(``fit``, re-``fit``, ``TrainingStep(estimator=...)``, ``TrainingStep(step_args=est.fit())``,
tuners and third-party launchers all call it). When ``sagemaker.estimator`` is imported (before
or after ``sm_debug_config``), that one method is wrapped: an Estimator that holds
sm-debug-config objects is converted first with
:func:`sm_debug_config.integrations.sagemaker_v2.prepare` (the request then carries exactly
``render()``'s fields; the user's objects are kept unchanged), anything else calls straight
through. Also wrapped, for the same reason:

* ``EstimatorBase.update_profiler``: with our ``ProfilerRule`` / ``FrameworkProfile`` objects it
  sends what :func:`sm_debug_config.render_update` gives;
* ``HyperparameterTuner._prepare_for_tuning`` (``sagemaker.tuner``): the SDK drops every Debugger
  field from tuning jobs without a word; with our objects on the tuned Estimator a
  :class:`~sm_debug_config.ConfigWarning` names what is dropped.

Set ``SM_DEBUG_CONFIG_PATCH_SDK=0`` before importing to leave the SDK untouched (then use
``sm_debug_config.sagemaker.fit``/``prepare``). Importing this module imports no part of the SDK.
"""
from __future__ import annotations

import os
import sys
import _thread  # the lock without importing threading (import time)
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, cast

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

    if getattr(estimator, sagemaker_v2._STATE, None) is not None:
        return True
    rules = getattr(estimator, "rules", None)
    items = list(rules) if isinstance(rules, (list, tuple)) else [rules]
    items += [getattr(estimator, k, None) for k in sagemaker_v2.ESTIMATOR_ATTRIBUTES if k != "rules"]
    return any(sagemaker_v2._is_ours(item) for item in items)


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

        state = getattr(self, sagemaker_v2._STATE, None)
        if state is not None and job_name is not None and state.pop("prepared_for", None) == job_name:
            return original(self, job_name=job_name)  # prepare()/fit() converted it for this job just now
        return original(self, job_name=sagemaker_v2.prepare(self, job_name))

    return wrapper


def _update_profiler(original: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        import inspect

        given = inspect.signature(original).bind(self, *args, **kwargs).arguments
        rules = given.get("rules")
        listed = list(rules) if isinstance(rules, (list, tuple)) else []
        if not any(_is_ours(o) for o in listed + [given.get("framework_profile_params")]):
            return original(self, *args, **kwargs)
        return update_profiler(self, *args, **kwargs)

    return wrapper


def _prepare_for_tuning(original: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        estimators: List[Any] = [self.estimator] if getattr(self, "estimator", None) is not None else list((getattr(self, "estimator_dict", None) or {}).values())
        dropped = [_dropped_fields(e) for e in estimators if _holds_ours(e)]
        if any(dropped):
            import warnings

            from sm_debug_config.errors import ConfigWarning

            names = sorted({name for fields in dropped for name in fields})
            warnings.warn(
                "the SageMaker SDK sends no Debugger fields in a tuning job (its training job definition has none): "
                f"{', '.join(names)} of the tuned Estimator are dropped; tune without them or run the best job again with them",
                ConfigWarning,
                stacklevel=3,
            )
        return original(self, *args, **kwargs)

    return wrapper


def _is_ours(value: Any) -> bool:
    from sm_debug_config.model.profiler import FrameworkProfile
    from sm_debug_config.integrations import sagemaker_v2

    return isinstance(value, FrameworkProfile) or sagemaker_v2._is_ours(value)


def update_profiler(
    estimator: Any,
    rules: Any = None,
    system_monitor_interval_millis: Any = None,
    s3_output_path: Any = None,
    framework_profile_params: Any = None,
    disable_framework_metrics: bool = False,
) -> Any:
    """``estimator.update_profiler(...)`` with sm-debug-config objects: sends what ``render_update`` gives.

    Checked against the running job first (``DescribeTrainingJob``): rule names already running,
    a different profiler S3 path, more than 20 profiler rules. Mixing our objects with the SDK's
    is a ``ConfigError``.
    """
    from sm_debug_config.errors import ConfigError
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
    estimator._ensure_latest_training_job()
    job = estimator.latest_training_job
    wanted = (s3_output_path, system_monitor_interval_millis, framework_profile_params)
    config = ProfilerConfig(s3_output_path=s3_output_path, system_monitor_interval_millis=system_monitor_interval_millis, framework_profile_params=framework_profile_params) if any(w is not None for w in wanted) else None
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

    state = getattr(estimator, sagemaker_v2._STATE, None)
    settings = state["originals"] if state is not None else {k: getattr(estimator, k, None) for k in sagemaker_v2.ESTIMATOR_ATTRIBUTES}
    fields: List[str] = []
    rules = settings.get("rules") or []
    kinds = {type(r).__name__ for r in rules} if isinstance(rules, (list, tuple)) else set()
    if settings.get("debugger_hook_config") not in (None, False) or "Rule" in kinds:
        fields.append("DebugHookConfig")
    if "Rule" in kinds:
        fields.append("DebugRuleConfigurations")
    if settings.get("profiler_config") is not None:
        fields.append("ProfilerConfig")
    if "ProfilerRule" in kinds:
        fields.append("ProfilerRuleConfigurations")
    if settings.get("tensorboard_output_config") is not None:
        fields.append("TensorBoardOutputConfig")
    return fields


def _patch_estimator(module: Any) -> None:
    base = getattr(module, "EstimatorBase", None)
    if base is not None:
        _wrap(base, "_prepare_for_training", _prepare_for_training)
        _wrap(base, "update_profiler", _update_profiler)


def _patch_tuner(module: Any) -> None:
    tuner = getattr(module, "HyperparameterTuner", None)
    if tuner is not None:
        _wrap(tuner, "_prepare_for_tuning", _prepare_for_tuning)


PATCHES: Dict[str, Callable[[Any], None]] = {"sagemaker.estimator": _patch_estimator, "sagemaker.tuner": _patch_tuner}


# --- the post-import hook --------------------------------------------------------------------------


class _PatchingLoader:
    """Runs the real loader, then the patch; everything else is the real loader's."""

    def __init__(self, loader: Any, patch: Callable[[Any], None]) -> None:
        self._loader = loader
        self._patch = patch

    def create_module(self, spec: Any) -> Any:
        return self._loader.create_module(spec)

    def exec_module(self, module: Any) -> None:
        module.__spec__.loader = self._loader  # reloads and importlib.resources see the real loader
        module.__loader__ = self._loader
        self._loader.exec_module(module)
        self._patch(module)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)


class _PostImportFinder:
    """A ``sys.meta_path`` entry that only answers for the modules in :data:`PATCHES`."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        patch = PATCHES.get(name)
        if patch is None:
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
        spec.loader = cast("Loader", _PatchingLoader(spec.loader, patch))  # duck-typed: the loader methods it needs
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
        for name, patch in PATCHES.items():
            module = sys.modules.get(name)
            if module is not None:
                patch(module)
    return True
