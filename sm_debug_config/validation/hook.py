"""Checks of the hook and its collections (``DebugHookConfig``): parameters, names, regexes.

Parameter checks are the ones constructors run (:mod:`sm_debug_config.model.hookparams`),
reported here as findings with a path into the request.
"""
from __future__ import annotations

from typing import Any, Dict, Iterator, List, Tuple

from sm_debug_config.errors import ERROR, WARNING, pointer
from sm_debug_config.model import catalogue, hookparams
from sm_debug_config.validation.api import is_pipeline_expression
from sm_debug_config.validation.registry import Context, Found, check, mapping


@check(
    ("SMD130", ERROR, "An include_regex pattern does not compile."),
    ("SMD131", ERROR, "An include_regex has a comma inside a regex; the hook splits on every comma."),
    ("SMD132", ERROR, "save_interval is not a positive integer (the hook divides the step by it)."),
    ("SMD133", ERROR, "start_step is not below end_step, so nothing would be saved."),
    ("SMD134", ERROR, "A step value (start_step, end_step, save_steps) is not a non-negative integer."),
    ("SMD135", ERROR, "A hook or collection parameter key the hook does not read (typo, wrong place, wrong mode prefix)."),
    ("SMD136", ERROR, "A reduction the hook does not know (with the closest valid ones)."),
    ("SMD137", ERROR, "save_raw_tensor/save_shape: the hook needs a JSON boolean that the API cannot carry."),
    ("SMD138", ERROR, "A boolean or enumerated hook parameter has a value the hook rejects."),
    ("SMD139", WARNING, "A hook parameter that only takes effect outside SageMaker."),
)
def _hook_parameters(ctx: Context) -> Iterator[Found]:
    """HookParameters and each CollectionParameters, as the hook reads them (pipeline expressions skipped)."""
    hook = ctx.get("DebugHookConfig")
    if not isinstance(hook, dict):
        return
    places: List[Tuple[Tuple[Any, ...], Any, str]] = [(("DebugHookConfig", "HookParameters"), hook.get("HookParameters"), "hook")]
    places += [(("DebugHookConfig", "CollectionConfigurations", index, "CollectionParameters"), coll.get("CollectionParameters"), "collection") for index, coll in ctx.collections()]
    for where, params, scope in places:
        if isinstance(params, dict):
            for problem in hookparams.check(_drop_expressions(params), scope):
                yield problem.code, pointer(*where, problem.key), problem.message


def _drop_expressions(params: Dict[str, Any]) -> Dict[str, Any]:
    return {k: v for k, v in params.items() if not is_pipeline_expression(v)}


@check(("SMD113", ERROR, "A collection configuration has no CollectionName (the hook refuses it)."))
def _collection_without_name(ctx: Context) -> Iterator[Found]:
    for index, coll in ctx.collections():
        if "CollectionName" not in coll:
            yield "SMD113", pointer("DebugHookConfig", "CollectionConfigurations", index), "CollectionName is missing; the hook fails with SMDebugValueError"


@check(("SMD114", ERROR, "A collection that is not built in has no include_regex, so the hook cannot tell which tensors it holds."))
def _custom_collection_without_regex(ctx: Context) -> Iterator[Found]:
    builtin = set()
    table = hookparams.spec()["frameworks"]
    frameworks = [ctx.framework] if ctx.framework in table else list(table)
    for fw in frameworks:
        builtin.update(table[fw]["builtin_collections"])
    defaults = {c["CollectionName"] for e in catalogue.rules("debugger").values() for c in e["base_config"].get("CollectionConfigurations", [])}
    for index, coll in ctx.collections():
        name = coll.get("CollectionName")
        if isinstance(name, str) and name not in builtin and name not in defaults and "include_regex" not in mapping(coll.get("CollectionParameters")):
            where = f" {ctx.framework}" if ctx.framework else " any framework's"
            yield "SMD114", pointer("DebugHookConfig", "CollectionConfigurations", index), (
                f"collection {name!r} is not one of{where} built-in collections and has no include_regex; "
                f"the hook raises InvalidCollectionConfiguration"
            )
