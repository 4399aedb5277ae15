"""Checks of the hook and its collections (``DebugHookConfig``): parameters, names, regexes.

Parameter checks are the ones constructors run (:mod:`sm_debug_config.model.hookparams`).
"""
from __future__ import annotations

from typing import Any, Iterator, List, Optional, Set, Tuple

from sm_debug_config.errors import ERROR, WARNING, pointer, shorten
from sm_debug_config.model import catalogue, hookparams
from sm_debug_config.validation.api import is_pipeline_expression
from sm_debug_config.validation.registry import SMDEBUG, Context, Found, check, mapping


@check(
    ("SMD130", ERROR, "An include_regex pattern (after the hook's split on commas) does not compile.",
     f"{SMDEBUG} core/utils.py match_inc: re.search(pattern, tensor_name) raises re.error in the training job."),
    ("SMD131", WARNING, "An include_regex has a comma inside a regex; the hook splits on every comma.",
     f"{SMDEBUG} core/json_config.py splits include_regex with core/utils.py split (on every comma); when the pieces still "
     "compile the job runs and matches other tensors than meant (pieces that do not compile are SMD130)."),
    ("SMD132", ERROR, "save_interval is not a positive integer (the hook divides the step by it).",
     f"{SMDEBUG} core/save_config.py SaveConfigMode: int(save_interval) raises ValueError on a non-integer, and "
     "should_save_step computes step_num % save_interval, a ZeroDivisionError for 0."),
    ("SMD133", WARNING, "A step range that saves nothing or not what was meant (start_step not below end_step, a negative step or interval).",
     f"{SMDEBUG} core/save_config.py accepts any integers; the job runs and saves no step (or few) of that range."),
    ("SMD134", ERROR, "A step value (start_step, end_step, save_steps) is not an integer.",
     f"{SMDEBUG} core/save_config.py SaveConfigMode int(start_step), int(end_step) and core/json_config.py "
     "parse_save_config_dict int() of each save_steps item raise ValueError when the hook starts."),
    ("SMD135", WARNING, "A hook or collection parameter key the hook does not read (typo, wrong place, wrong mode prefix).",
     f"{SMDEBUG} core/json_config.py reads known keys only (parse_save_config_dict, collect_hook_config_params); "
     "any other key is ignored and the job runs with the default."),
    ("SMD136", ERROR, "A reduction the hook does not know (with the closest valid ones).",
     f"{SMDEBUG} core/reduction_config.py ReductionConfig._check raises SMDebugValueError (\"reductions can only be one of ...\")."),
    ("SMD137", ERROR, "save_raw_tensor/save_shape: the hook needs a JSON boolean that the API cannot carry.",
     f"{SMDEBUG} core/reduction_config.py ReductionConfig._check raises SMDebugValueError "
     "(\"save_raw_tensor=... must be a boolean\"); the API's HookParameters values are strings."),
    ("SMD138", ERROR, "A boolean hook parameter (save_all, save_histogram, export_tensorboard) is not true/false/True/False.",
     f"{SMDEBUG} analysis/utils.py parse_bool raises ValueError, called from core/json_config.py "
     "collect_hook_config_params and add_collections_to_manager when the hook starts."),
    ("SMD115", WARNING, "include_workers is neither one nor all; the hook saves from the chief worker only.",
     f"{SMDEBUG} core/hook.py BaseHook.__init__ sets save_all_workers only for \"all\"; any other value runs as \"one\"."),
    ("SMD139", WARNING, "A hook parameter that only takes effect outside SageMaker.",
     f"{SMDEBUG} core/json_config.py create_hook_from_json_config: on SageMaker (is_sagemaker_job) tensorboard_dir and "
     "export_tensorboard from HookParameters are replaced by TensorBoardOutputConfig; the job runs without them."),
)
def _hook_parameters(ctx: Context) -> Iterator[Found]:
    """HookParameters and each CollectionParameters, as the hook reads them (pipeline expressions skipped)."""
    hook = ctx.field("DebugHookConfig")
    places: List[Tuple[Tuple[Any, ...], Any, str]] = [(("DebugHookConfig", "HookParameters"), hook.get("HookParameters"), "hook")]
    places += [(("DebugHookConfig", "CollectionConfigurations", index, "CollectionParameters"), coll.get("CollectionParameters"), "collection") for index, coll in ctx.collections()]
    for where, params, scope in places:
        if isinstance(params, dict):
            for problem in hookparams.check({k: v for k, v in params.items() if not is_pipeline_expression(v)}, scope):
                yield problem.code, pointer(*where, problem.key), problem.message


@check((
    "SMD113", ERROR, "A collection configuration has no CollectionName (the hook refuses it).",
    f"{SMDEBUG} core/json_config.py get_include_collections raises SMDebugValueError (\"Must specify 'CollectionName'\").",
))
def _collection_without_name(ctx: Context) -> Iterator[Found]:
    for index, coll in ctx.collections():
        if "CollectionName" not in coll:
            yield "SMD113", pointer("DebugHookConfig", "CollectionConfigurations", index), "CollectionName is missing; the hook fails with SMDebugValueError"


@check((
    "SMD114", ERROR, "A collection that is not built in has no include_regex, so the hook cannot tell which tensors it holds.",
    f"{SMDEBUG} core/hook.py BaseHook._prepare_collections raises InvalidCollectionConfiguration for a collection that is "
    "not a default one and has neither include_regex nor tensor names.",
))
def _custom_collection_without_regex(ctx: Context) -> Iterator[Found]:
    builtin = framework_collections(ctx.framework, "builtin_collections")
    defaults = {c["CollectionName"] for e in catalogue.rules("debugger").values() for c in catalogue.default_collections(e)}
    for index, coll in ctx.collections():
        name = coll.get("CollectionName")
        if isinstance(name, str) and name not in builtin and name not in defaults and "include_regex" not in mapping(coll.get("CollectionParameters")):
            where = f" {ctx.framework}" if ctx.framework else " any framework's"
            yield "SMD114", pointer("DebugHookConfig", "CollectionConfigurations", index), (
                f"collection {shorten(name)} is not one of{where} built-in collections and has no include_regex; "
                f"the hook raises InvalidCollectionConfiguration"
            )


def framework_collections(framework: Optional[str], key: str) -> Set[str]:
    """The hook's ``key`` collections (``builtin_collections``, ``saved_by_default``) of ``framework``, or of any."""
    table = hookparams.spec()["frameworks"]
    return {name for fw in ([framework] if framework in table else table) for name in table[fw][key]}
