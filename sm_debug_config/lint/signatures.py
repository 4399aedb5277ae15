"""Which argument is which: our callables bound through their real signatures, Estimators through a table.

Our classes have the SDK v2 signatures (same parameter names and order), so a positional call
written against ``sagemaker.debugger`` binds the same way. Estimators are not ours and the SDK is
not imported: :data:`ESTIMATOR_KEYWORDS` lists the keywords that matter, with the SDK v1 names.
"""

from __future__ import annotations

import ast
import inspect
from typing import Any, Callable, Dict, Optional, Tuple

import rule_configs
from sm_debug_config.lint.values import Arguments
from sm_debug_config.model import hook, profiler, rules

#: Estimator keyword -> the name lint uses (SDK v1 names mapped to v2's).
ESTIMATOR_KEYWORDS = {
    "rules": "rules",
    "debugger_hook_config": "debugger_hook_config",
    "profiler_config": "profiler_config",
    "tensorboard_output_config": "tensorboard_output_config",
    "disable_profiler": "disable_profiler",
    "image_uri": "image_uri",
    "image_name": "image_uri",
    "framework_version": "framework_version",
    "py_version": "py_version",
    "instance_type": "instance_type",
    "train_instance_type": "instance_type",
    "output_path": "output_path",
    "pytorch_version": "pytorch_version",
    "tensorflow_version": "tensorflow_version",
    "compiler_config": "compiler_config",
}
#: The generic ``Estimator``'s leading positional parameters (SDK v2: image_uri, role, instance_count, instance_type).
GENERIC_POSITIONAL = ("image_uri", "role", "instance_count", "instance_type")
#: SDK v3 ``ModelTrainer`` keyword -> the name lint uses (it has no Debugger parameter: ``attach_debugger`` adds them).
TRAINER_KEYWORDS = {"training_image": "image_uri"}
#: ``render``'s positional parameters (its keywords are ``attach_debugger``'s setup keywords).
RENDER_POSITIONAL = (
    "rules", "debugger_hook_config", "profiler_config", "tensorboard_output_config", "disable_profiler",
)
#: ``attach_debugger``'s setup keywords (the render arguments) besides its target.
ATTACH_KEYWORDS = (
    "rules",
    "debugger_hook_config",
    "profiler_config",
    "tensorboard_output_config",
    "disable_profiler",
    "framework",
    "framework_version",
    "image_uri",
    "instance_type",
    "output_path",
    "defaults",
)


def callable_of(target: str) -> Callable[..., Any]:
    """Our callable behind a target name (``Rule.sagemaker``, ``CollectionConfig``, ``rule_configs.overfit``)."""
    if target.startswith("rule_configs."):
        name = target.split(".", 1)[1]
        return getattr(rule_configs, name) if name in rule_configs.__all__ else _nothing
    owner, _, method = target.partition(".")
    found = _classes().get(owner)
    if found is None:
        return _nothing
    return getattr(found, method) if method in ("sagemaker", "custom") else found  # type: ignore[no-any-return]


def _nothing(*args: Any, **kwargs: Any) -> None:
    return None


def _classes() -> Dict[str, Any]:
    """The classes lint builds, by the name users write."""
    return {
        "Rule": rules.Rule,
        "ProfilerRule": rules.ProfilerRule,
        "CollectionConfig": hook.CollectionConfig,
        "DebuggerHookConfig": hook.DebuggerHookConfig,
        "TensorBoardOutputConfig": hook.TensorBoardOutputConfig,
        "ProfilerConfig": profiler.ProfilerConfig,
        "FrameworkProfile": profiler.FrameworkProfile,
        "DetailedProfilingConfig": profiler.DetailedProfilingConfig,
        "DataloaderProfilingConfig": profiler.DataloaderProfilingConfig,
        "PythonProfilingConfig": profiler.PythonProfilingConfig,
        "HorovodProfilingConfig": profiler.HorovodProfilingConfig,
        "SMDataParallelProfilingConfig": profiler.SMDataParallelProfilingConfig,
    }


_SIGNATURES: Dict[str, Optional[inspect.Signature]] = {}


def signature(target: str) -> Optional[inspect.Signature]:
    if target not in _SIGNATURES:
        try:
            _SIGNATURES[target] = inspect.signature(callable_of(target))
        except (TypeError, ValueError):
            _SIGNATURES[target] = None
    return _SIGNATURES[target]


def bind(target: str, given: Arguments) -> Tuple[Dict[str, Any], Dict[str, ast.AST], Dict[str, ast.AST]]:
    """``(values, nodes, literals)`` by parameter name (literals: what each value was written as, for fixes; a
    ``**params`` keyword's by its key); ``"*error"``: the ``TypeError`` text for arguments the signature refuses.
    """
    if target.startswith("estimator:") or target in ("attach", "render", "trainer"):
        return _bind_estimator(target, given)
    sig = signature(target)
    positional, keywords, keyword_nodes = given.positional, given.keywords, given.keyword_nodes
    if sig is None:
        return dict(keywords), dict(keyword_nodes), _present(given.keyword_literals)
    try:
        bound = sig.bind(*positional, **keywords)
        arg_nodes = given.positional_nodes[: len(positional)]
        nodes = sig.bind(*arg_nodes, **{k: keyword_nodes.get(k) for k in keywords}).arguments
        literals = sig.bind(*given.positional_literals[: len(positional)],
                            **{k: given.keyword_literals.get(k) for k in keywords}).arguments
    except TypeError as err:
        return {"*error": str(err)}, {}, {}
    values = dict(bound.arguments)
    out_nodes = {name: node for name, node in nodes.items() if isinstance(node, ast.AST)}
    out_literals = {name: node for name, node in literals.items() if isinstance(node, ast.AST)}
    for name, param in sig.parameters.items():
        if param.kind is inspect.Parameter.VAR_KEYWORD and name in values:  # **params: each keyword its own node
            out_nodes.update({key: keyword_nodes[key] for key in values[name] if key in keyword_nodes})
            out_literals.update(_present({key: given.keyword_literals.get(key) for key in values[name]}))
    return values, out_nodes, out_literals


def _present(literals: Dict[str, Optional[ast.AST]]) -> Dict[str, ast.AST]:
    return {name: node for name, node in literals.items() if node is not None}


def _bind_estimator(target: str, given: Arguments) -> Tuple[Dict[str, Any], Dict[str, ast.AST], Dict[str, ast.AST]]:
    values: Dict[str, Any] = {}
    nodes: Dict[str, ast.AST] = {}
    literals: Dict[str, Optional[ast.AST]] = {}
    positional = list(zip(given.positional, given.positional_nodes, given.positional_literals))
    if target in ("estimator:Estimator",):
        for name, (value, node, literal) in zip(GENERIC_POSITIONAL, positional):
            values[name], nodes[name], literals[name] = value, node, literal
    if target == "attach" and given.positional:  # attach_debugger(trainer_or_session_or_client, ...)
        values["target"], nodes["target"], literals["target"] = positional[0]
    if target == "render":  # render(rules, debugger_hook_config, profiler_config, tensorboard_output_config, ...)
        for name, (value, node, literal) in zip(RENDER_POSITIONAL, positional):
            values[name], nodes[name], literals[name] = value, node, literal
    setup = {k: k for k in ATTACH_KEYWORDS}
    known = {"attach": setup, "render": setup, "trainer": TRAINER_KEYWORDS}.get(target, ESTIMATOR_KEYWORDS)
    for key, value in given.keywords.items():
        if key in known:
            values[known[key]] = value
            literals[known[key]] = given.keyword_literals.get(key)
            if key in given.keyword_nodes:
                nodes[known[key]] = given.keyword_nodes[key]
    return values, nodes, _present(literals)
