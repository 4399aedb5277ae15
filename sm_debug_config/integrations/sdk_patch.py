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

import functools
import os
import sys
import _thread  # the lock without importing threading (import time)
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Tuple, cast

if TYPE_CHECKING:
    from importlib.abc import Loader

ENV_SWITCH = "SM_DEBUG_CONFIG_PATCH_SDK"
#: The attribute that marks a wrapper (so a method is wrapped once).
MARK = "__sm_debug_config_wrapped__"
_LOCK = _thread.allocate_lock()


def enabled() -> bool:
    """False when ``SM_DEBUG_CONFIG_PATCH_SDK`` is ``0``/``false``/``no``/``off``."""
    return os.environ.get(ENV_SWITCH, "1").strip().lower() not in ("0", "false", "no", "off")


#: The methods wrapped when their module is imported: module -> (class, method, wrapper factory of
#: :mod:`sm_debug_config.integrations.sdk_wrappers`).
PATCHES: Dict[str, Tuple[Tuple[str, str, str], ...]] = {
    "sagemaker.estimator": (
        ("EstimatorBase", "_prepare_for_training", "prepare_for_training"),
        ("EstimatorBase", "update_profiler", "wrap_update_profiler"),
    ),
    "sagemaker.tuner": (("HyperparameterTuner", "_prepare_for_tuning", "prepare_for_tuning"),),
}


def _wrap(cls: Any, name: str, factory: str) -> None:
    """Put a wrapper of ``cls.name`` in its place (once): at its first call it becomes what ``factory`` of
    :mod:`~sm_debug_config.integrations.sdk_wrappers` makes of the original."""
    original = cls.__dict__.get(name)
    if original is None or getattr(original, MARK, False):
        return
    made: List[Callable[..., Any]] = []

    @functools.wraps(original)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not made:
            # The wrappers need the model and the renderer, and the integration that imports the SDK: loaded at
            # the first call, when the SDK is whole (at patch time it is still being imported).
            from sm_debug_config.integrations import sdk_wrappers

            made.append(getattr(sdk_wrappers, factory)(original))
        return made[0](*args, **kwargs)

    setattr(wrapper, MARK, True)
    setattr(cls, name, wrapper)


def _patch(module: Any) -> None:
    for cls_name, method, factory in PATCHES[module.__name__]:
        cls = getattr(module, cls_name, None)
        if cls is not None:
            _wrap(cls, method, factory)


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
