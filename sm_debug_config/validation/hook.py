"""Checks of the hook and its collections (``DebugHookConfig``): parameters, names, regexes.

Parameter checks are the ones constructors run (:mod:`sm_debug_config.model.hookparams`).
"""
from __future__ import annotations

from typing import Any, Iterator, List, Optional, Set, Tuple

from sm_debug_config.apischema import is_pipeline_expression
from sm_debug_config.errors import ERROR, WARNING, did_you_mean, only_close, shorten
from sm_debug_config.fixes import SAFE, SET, Change, Fix
from sm_debug_config.findings import SMDEBUG, Finding, declare
from sm_debug_config.merge import SMD117, sent_more_than_once
from sm_debug_config.model import catalogue, hookparams
from sm_debug_config.model import hookparams as hp
from sm_debug_config.validation.registry import Context, check, mapping


@check(
    hp.SMD130,
    hp.SMD131,
    hp.SMD132,
    hp.SMD133,
    hp.SMD134,
    hp.SMD135,
    hp.SMD136,
    hp.SMD137,
    hp.SMD138,
    hp.SMD115,
    hp.SMD139,
)
def _hook_parameters(ctx: Context) -> Iterator[Finding]:
    """HookParameters and each CollectionParameters, as the hook reads them (pipeline expressions skipped)."""
    hook = ctx.field("DebugHookConfig")
    places: List[Tuple[Tuple[Any, ...], Any, str]] = [
        (("DebugHookConfig", "HookParameters"), hook.get("HookParameters"), "hook")
    ]
    places += [
        (
            ("DebugHookConfig", "CollectionConfigurations", index, "CollectionParameters"),
            coll.get("CollectionParameters"),
            "collection",
        )
        for index, coll in ctx.collections()
    ]
    for where, params, scope in places:
        if isinstance(params, dict):
            for finding in hookparams.check({k: v for k, v in params.items() if not is_pipeline_expression(v)}, scope):
                yield finding.under(where)


SMD113 = declare(
    "SMD113",
    ERROR,
    "A collection configuration has no CollectionName (the hook refuses it).",
    f"{SMDEBUG} core/json_config.py get_include_collections raises SMDebugValueError (\"Must specify "
    "'CollectionName'\").",
)


@check(SMD113)
def _collection_without_name(ctx: Context) -> Iterator[Finding]:
    for index, coll in ctx.collections():
        if "CollectionName" not in coll:
            yield SMD113.at(
                ("DebugHookConfig", "CollectionConfigurations", index),
                "CollectionName is missing; the hook fails with SMDebugValueError",
            )


SMD114 = declare(
    "SMD114",
    ERROR,
    "A collection that is not built in has no include_regex, so the hook cannot tell which tensors it holds.",
    f"{SMDEBUG} core/hook.py BaseHook._prepare_collections raises InvalidCollectionConfiguration for a collection that "
    "is not a default one and has neither include_regex nor tensor names.",
)


@check(SMD114)
def _custom_collection_without_regex(ctx: Context) -> Iterator[Finding]:
    builtin = framework_collections(ctx.framework, "builtin_collections")
    defaults = {
        c["CollectionName"] for e in catalogue.rules("debugger").values() for c in catalogue.default_collections(e)
    }
    listed = {name for _, coll in ctx.collections() if isinstance(name := coll.get("CollectionName"), str)}
    for index, coll in ctx.collections():
        name = coll.get("CollectionName")
        if (
            isinstance(name, str)
            and name not in builtin
            and name not in defaults
            and "include_regex" not in mapping(coll.get("CollectionParameters"))
        ):
            where = ctx.framework or "any framework"
            # a misspelt built-in name is the usual cause; one name and a short one keep the message one line
            hint = did_you_mean(name, sorted(builtin | defaults), n=1)
            shown = shorten(name if len(name) <= 30 else name[:27] + "...")
            at = ("DebugHookConfig", "CollectionConfigurations", index)
            yield SMD114.at(
                at,
                f"collection {shown} is not built in for {where} and has no include_regex: the hook raises "
                f"InvalidCollectionConfiguration{';' + hint if hint else ''}",
                fix=_collection_name_fix(at + ("CollectionName",), name, sorted(builtin | defaults), listed),
            )


def _collection_name_fix(path: Tuple[Any, ...], name: str, known: List[str], listed: Set[str]) -> Optional[Fix]:
    """SMD114's safe fix: the one built-in collection within the did-you-mean distance of ``name``, unless the request
    lists a collection of that name already (two entries of one collection are SMD117's)."""
    new = only_close(name, known)
    if new is None or new in listed:
        return None
    return Fix(SAFE, f"rename collection {shorten(name)} to the built-in {shorten(new)}", (Change(SET, path, new),))


@check(SMD117, reads=("DebugHookConfig",))
def _collection_sent_more_than_once(ctx: Context) -> Iterator[Finding]:
    """A request as given (boto3, a document, what the SDK v2 sent): smdebug applies its entries in order."""
    listed = list(ctx.collections())
    entries = [(c.get("CollectionName"), c.get("CollectionParameters"), f"entry {index}") for index, c in listed]
    for position, message in sent_more_than_once(entries, mapping(ctx.field("DebugHookConfig").get("HookParameters"))):
        yield SMD117.at(("DebugHookConfig", "CollectionConfigurations", listed[position][0]), message)


SMD175 = declare(
    "SMD175", WARNING,
    "A hook on a distributed job that has SageMaker checkpoints (CheckpointConfig): Debugger is not available there.",
    "The developer guide (Considerations for Amazon SageMaker Debugger): Debugger is not available for training jobs "
    "when both a distributed training option and SageMaker checkpoints are enabled, and the job may log 'SMDebug "
    "Does Not Currently Support Distributed Training Jobs With Checkpointing Enabled'; the SDK v2 turns the hook off "
    "for such jobs (sagemaker/estimator.py, EstimatorBase._prepare_debugger_for_training). Whether the job fails is "
    "not documented: a warning.",
)
#: The hyperparameters the SDK v2 sets for its distribution options (a job that has one set is distributed).
DISTRIBUTION_HYPERPARAMETERS = (
    "sagemaker_distributed_dataparallel_enabled",
    "sagemaker_mpi_enabled",
    "sagemaker_parameter_server_enabled",
    "sagemaker_multi_worker_mirrored_strategy_enabled",
)


def distributed(ctx: Context) -> Optional[str]:
    """Why the job of ``ctx``'s request is distributed (more than one instance, or a distribution option the SDK v2
    sets as a hyperparameter), or None (single instance, or not known)."""
    resources = ctx.field("ResourceConfig")
    count = resources.get("InstanceCount")
    listed = resources.get("InstanceGroups")
    groups = [mapping(g).get("InstanceCount") for g in listed] if isinstance(listed, list) else []
    counts = [n for n in groups if isinstance(n, int) and not isinstance(n, bool)]
    if isinstance(count, int) and not isinstance(count, bool) and count > 1:
        return f"InstanceCount {count}"
    if counts and len(counts) == len(groups) and sum(counts) > 1:
        return f"{sum(counts)} instances in InstanceGroups"
    hyper = ctx.field("HyperParameters")
    return next((name for name in DISTRIBUTION_HYPERPARAMETERS if str(hyper.get(name)).lower() == "true"), None)


@check(SMD175)
def _hook_on_distributed_job_with_checkpoints(ctx: Context) -> Iterator[Finding]:
    if not ctx.field("DebugHookConfig") or not ctx.field("CheckpointConfig"):
        return
    why = distributed(ctx)
    if why is not None:
        yield SMD175.at(("DebugHookConfig",), f"the job is distributed ({why}) and has CheckpointConfig: Debugger "
                        "is not available for it (the SDK v2 turns the hook off); checkpoint in the script or drop "
                        "the hook")


def framework_collections(framework: Optional[str], key: str) -> Set[str]:
    """The hook's ``key`` collections (``builtin_collections``, ``saved_by_default``) of ``framework``, or of any."""
    table = hookparams.spec()["frameworks"]
    return {name for fw in ([framework] if framework in table else table) for name in table[fw][key]}
