"""Checks of the rules (``DebugRuleConfigurations``, ``ProfilerRuleConfigurations``): names,
counts, parameters, actions, images, custom sources and the collections a built-in rule reads."""
from __future__ import annotations

import itertools
import json
import os
import re
from typing import Any, Dict, Iterable, Iterator, List, Optional, Set, Tuple

from sm_debug_config.apischema import is_pipeline_expression
from sm_debug_config.errors import ERROR, WARNING, ConfigError, did_you_mean, only_close, pointer, shorten
from sm_debug_config.findings import RULE_FIELDS, SMDEBUG, Finding, collecting, declare
from sm_debug_config.fixes import SET, UNSAFE, Change, Fix
from sm_debug_config.limits import json_loads
from sm_debug_config.model import catalogue
from sm_debug_config.model.actions import SMD155, parse_action_json
from sm_debug_config.model.catalogue import RUNNER_PARAMETERS
from sm_debug_config.model.rules import SMD124, builtin_of, has_other_trial
from sm_debug_config.model.validators import S3_URI_RE, parse_int, rename_fix
from sm_debug_config.validation.hook import framework_collections
from sm_debug_config.validation.registry import Context, check, mapping

#: RuleConfigurationName's maxLength in botocore's model.
MAX_RULE_NAME = 256
BUILTIN_REPOSITORIES = ("sagemaker-debugger-rules", "detailed-profiler-processing")
_KIND = dict(zip(RULE_FIELDS, ("debugger", "profiler")))


def _params(rule: Dict[str, Any]) -> Dict[str, Any]:
    return mapping(rule.get("RuleParameters"))


def _catalogue_rule(rule: Dict[str, Any]) -> Optional[Tuple[str, str]]:
    """``(kind, catalogue name)`` of the built-in rule a configuration invokes, else None (custom rule)."""
    params = _params(rule)
    invoke = params.get("rule_to_invoke")
    if "source_s3_uri" in params or not isinstance(invoke, str):
        return None
    return builtin_of(invoke)


def builtin_name(rule: Dict[str, Any]) -> Optional[str]:
    """The catalogue name of a built-in debugger rule configuration, else None (custom rule)."""
    found = _catalogue_rule(rule)
    return found[1] if found and found[0] == "debugger" else None


def _builtin_rules(ctx: Context) -> Iterator[Tuple[int, Dict[str, Any], str]]:
    """``(index, rule, catalogue name)`` of built-in debugger rules in the request."""
    for _field, index, rule in ctx.rules("DebugRuleConfigurations"):
        name = builtin_name(rule)
        if name is not None:
            yield index, rule, name


SMD101 = declare(
    "SMD101", ERROR, "Two rule configurations share a RuleConfigurationName.",
    "botocore's DebugRuleConfiguration and ProfilerRuleConfiguration shapes, member RuleConfigurationName: "
    "\"It must be unique relative to other rule configuration names.\"")


@check(SMD101, reads=RULE_FIELDS)
def _duplicate_names(ctx: Context) -> Iterator[Finding]:
    seen: Dict[Tuple[str, str], int] = {}  # (field, name): index of its first use
    used = {name for _field, _index, rule in ctx.rules()  # and the renames given
            if isinstance(name := rule.get("RuleConfigurationName"), str)}
    for field, index, rule in ctx.rules():
        name = rule.get("RuleConfigurationName")
        if not isinstance(name, str):
            continue
        where = (field, index, "RuleConfigurationName")
        if (field, name) in seen:
            yield SMD101.at(
                where,
                f"rule name {shorten(name)} is already used by {field}[{seen[field, name]}]; "
                "each rule configuration needs its own name (RuleConfigurationName, the rule's name)",
                fix=_rename_rule(where, name, used),
            )
            continue
        seen[field, name] = index
        if field == RULE_FIELDS[1] and (RULE_FIELDS[0], name) in seen:
            yield SMD101.at(
                where,
                f"rule name {shorten(name)} is used by a debugger and a profiler rule; "
                "the API wants each rule configuration name unique",
                fix=_rename_rule(where, name, used),
            )


def _rename_rule(path: Tuple[Any, ...], name: str, used: Set[str]) -> Optional[Fix]:
    """SMD101's unsafe fix: ``name`` with the first suffix ``-2``, ``-3``... no rule of the request uses (nor a rename
    given before: ``used`` grows), within the API's 256 characters (unsafe: the rule's name is in its job's name and
    its output path)."""
    new = next(f"{name}-{n}" for n in itertools.count(2) if f"{name}-{n}" not in used)
    if len(new) > MAX_RULE_NAME:
        return None
    used.add(new)
    return Fix(UNSAFE, f"rename the rule {shorten(name)} to {shorten(new)}", (Change(SET, path, new),))


SMD102 = declare(
    "SMD102", ERROR, "More than 20 rules of a kind (the API's limit per training job).",
    "botocore's DebugRuleConfigurations and ProfilerRuleConfigurations shapes: list max 20.")


@check(SMD102, reads=RULE_FIELDS)
def _too_many_rules(ctx: Context) -> Iterator[Finding]:
    for field in RULE_FIELDS:
        value = ctx.get(field)
        if isinstance(value, list) and len(value) > 20:
            yield SMD102.at((field,), f"{len(value)} rules; a training job takes at most 20 {field}")


# --- the collections a built-in rule reads ---------------------------------------------------


def needed_collections(rule: Dict[str, Any], name: str) -> Tuple[List[Tuple[str, str]], List[str]]:
    """``([(collection, why)], regex_fed)`` that the built-in rule ``name`` reads."""
    entry = catalogue.rules("debugger")[name]
    reads = entry.get("reads", {})
    params = _params(rule)
    needed: List[Tuple[str, str]] = []
    skip = reads.get("unless_false")
    if not (skip and str(params.get(skip, "")).strip().lower() == "false"):
        needed += [(c, "by name") for c in reads.get("collections", [])]
    for param in reads.get("collection_parameters", []):
        value = params.get(param, catalogue.user_parameters(entry).get(param, {}).get("default"))
        if isinstance(value, str):
            needed += [(c.strip(), f"named by its {param}") for c in value.split(",") if c.strip()]
    return needed, list(reads.get("regex_collections", []))


SMD110 = declare(
    "SMD110",
    WARNING,
    "A built-in rule reads a collection the hook will not save, so the rule never sees its data.",
    f"The API accepts it and both jobs run: {SMDEBUG} core/collection_manager.py CollectionManager.get(name, "
    "create=True) creates a collection the trial does not find, empty, and the framework hooks save their default "
    "collections (weights, losses...) whatever else is configured; the rule checks no tensors of that collection.",
)
SMD112 = declare(
    "SMD112",
    WARNING,
    "A built-in rule's default collection (which feeds its tensor regex) is not saved; the rule may see no data.",
    "The rule matches tensor names with its regex; when no saved collection holds such tensors it finds none and "
    "reports no issue.",
)


@check(SMD110, SMD112, reads=("DebugHookConfig", "DebugRuleConfigurations"))
def _collections_not_saved(ctx: Context) -> Iterator[Finding]:
    hook = ctx.get("DebugHookConfig")
    if not isinstance(hook, dict) or str(mapping(hook.get("HookParameters")).get("save_all", "")).lower() == "true":
        return
    saved = set()  # the collections the hook saves
    for _index, coll in ctx.collections():
        collection = coll.get("CollectionName")
        if isinstance(collection, str) and mapping(coll.get("CollectionParameters")).get("end_step") != "0":
            saved.add(collection)
    defaults = framework_collections(ctx.framework, "saved_by_default")
    for index, rule, name in _builtin_rules(ctx):
        needed, regex_fed = needed_collections(rule, name)
        for collection, why in needed:
            if collection not in saved and collection not in defaults:
                where = f" for {ctx.framework}" if ctx.framework else ""
                yield SMD110.at(
                    ("DebugRuleConfigurations", index),
                    f"{name} reads collection {shorten(collection)} ({why}), which the hook does not save{where}; "
                    f"save it: a collection named {shorten(collection)} in the hook's collection configurations",
                )
        for collection in regex_fed:
            if collection not in saved:
                yield SMD112.at(
                    ("DebugRuleConfigurations", index),
                    f"{name} looks for tensors its default collection {shorten(collection)} saves, "
                    "and no collection of that name is saved; "
                    f"make sure another collection's include_regex saves them",
                )


SMD111 = declare(
    "SMD111",
    ERROR,
    "Debugger rules are configured but the hook is off, so no rule sees any data.",
    'The rule job ends with RuleEvaluationStatus Error, "ClientError: No debugging data was saved by the training job" '
    "(public reports: https://github.com/tensorflow/tensorflow/issues/51414, https://github.com/aws/sagemaker-python-sdk/issues/1907).",
)


@check(SMD111, reads=("DebugHookConfig", "DebugRuleConfigurations"))
def _rules_without_hook(ctx: Context) -> Iterator[Finding]:
    if ctx.get("DebugRuleConfigurations") and not isinstance(ctx.get("DebugHookConfig"), dict):
        yield SMD111.at(
            ("DebugRuleConfigurations",),
            "debugger rules are configured but there is no DebugHookConfig (the hook is off), "
            "so they have nothing to analyse",
        )


# --- rule parameters -------------------------------------------------------------------------


@check(catalogue.SMD120, catalogue.SMD121, catalogue.SMD122)
def _rule_parameters(ctx: Context) -> Iterator[Finding]:
    for field, index, rule in ctx.rules():
        found = _catalogue_rule(rule)
        if found is None or found[0] != _KIND[field]:
            continue
        kind, name = found
        params = _params(rule)
        checked = {
            k: v
            for k, v in params.items()
            if k not in ("rule_to_invoke", "action_json") and not is_pipeline_expression(v)
        }
        problems: Iterable[Finding] = ()
        if kind == "debugger":
            checked = {k: v for k, v in checked.items() if k not in RUNNER_PARAMETERS}
            problems = _runner_parameter_problems(name, params)
        if name == "ProfilerReport":
            checked = {k: v for k, v in checked.items()
                       if not isinstance(k, str) or "_" not in k or k == "opt_out_telemetry"}  # an int key too
            problems = _profiler_report_problems(params)
        allowed = tuple(ctx.passthrough.get(pointer(field, index), ()))
        if len(checked) > catalogue.MAX_RULE_PARAMETERS:  # the API check's SMD100 says so: no second finding
            checked = {}
        for problem in itertools.chain(problems, catalogue.check_parameters(name, checked, allow_unknown=allowed)):
            yield problem.under((field, index, "RuleParameters"))


def passthrough_of(debugger_rules: Iterable[Any]) -> Dict[str, Tuple[str, ...]]:
    """``{JSON pointer of each debugger rule: names it may pass unchecked}`` for ``validate(passthrough=...)``: the
    unknown names ``Rule.sagemaker``'s ``allow_unknown_parameters`` let through are SMD122, not SMD120."""
    out: Dict[str, Tuple[str, ...]] = {}
    for index, rule in enumerate(debugger_rules):
        passed = getattr(rule, "passed_through", ())
        if getattr(rule, "builtin_rule", None) and passed:
            out[pointer("DebugRuleConfigurations", index)] = tuple(passed)
    return out


def _runner_parameter_problems(name: str, params: Dict[str, Any]) -> Iterator[Finding]:
    for key in RUNNER_PARAMETERS:
        value = params.get(key)
        if value is None or is_pipeline_expression(value):
            continue
        number = parse_int(value) if isinstance(value, str) else None
        if number is None or number < 0:
            yield catalogue.SMD121.at(
                (key,),
                f"{name}.{key} must be a non-negative integer string (the step the rule runner starts or stops at), "
                f"got {shorten(value)}",
            )


def _profiler_report_problems(params: Dict[str, Any]) -> Iterator[Finding]:
    """ProfilerReport takes ``<CoveredRule>_<parameter>`` keys, checked against the covered rule."""
    report = catalogue.rules("profiler")["ProfilerReport"]
    covered = {r.lower(): r for r in report["covered_rules"]}
    keys = catalogue.profiler_report_keys()
    for key, value in params.items():
        if not isinstance(key, str):  # check_parameters reports it
            continue
        rule_part, _, param = key.partition("_")
        if not param or key in ("rule_to_invoke", "opt_out_telemetry") or is_pipeline_expression(value):
            continue
        target = covered.get(rule_part.lower())
        if target is None:
            hint = did_you_mean(rule_part, list(covered.values()))
            yield catalogue.SMD120.at(
                (key,),
                f"ProfilerReport has no parameter {shorten(key)}: keys are <Rule>_<parameter> of a rule it "
                f"covers;{hint or ' rules: ' + ', '.join(covered.values())}",
                fix=rename_fix((key,), only_close(key, keys), params),
            )
            continue
        for problem in catalogue.check_parameters(target, {param.lower(): value}):
            # a rename of the covered rule's parameter is one of the whole key (as the constructor's)
            fix = rename_fix((key,), only_close(key, keys), params) if problem.fix is not None else None
            yield problem.replace(path=(key,), message=f"ProfilerReport {key}: {problem.message}", fix=fix)


SMD123 = declare(
    "SMD123",
    WARNING,
    "A built-in rule is not meant for the job's framework (when the framework is known).",
    "The rule job runs and looks for tensors the job's hook does not save, "
    "so it checks nothing (the SDK v2 warns the same "
    "for XGBoost-only rules: https://github.com/aws/sagemaker-python-sdk/pull/3255).",
)


@check(SMD123)
def _framework_mismatch(ctx: Context) -> Iterator[Finding]:
    if not ctx.framework:
        return
    for index, _rule, name in _builtin_rules(ctx):
        frameworks = catalogue.rules("debugger")[name]["frameworks"]
        if ctx.framework not in frameworks:
            yield SMD123.at(
                ("DebugRuleConfigurations", index), f"{name} is meant for {', '.join(frameworks)}, not {ctx.framework}"
            )


@check(SMD124)
def _similar_without_other(ctx: Context) -> Iterator[Finding]:
    for index, rule, name in _builtin_rules(ctx):
        if name == "SimilarAcrossRuns" and not has_other_trial(_params(rule)):
            yield SMD124.at(
                ("DebugRuleConfigurations", index, "RuleParameters"),
                "SimilarAcrossRuns needs another trial: other_trials_s3_input_paths (other_trial_0...)",
            )


# --- images, sources, actions ----------------------------------------------------------------


SMD125 = declare(
    "SMD125",
    WARNING,
    "A rule that runs in a built-in rule image names no built-in rule to invoke.",
    "The API accepts it; the built-in rule image runs the rule rule_to_invoke names (the SDK v2 sets it for every "
    "built-in rule, sagemaker/debugger/debugger.py Rule.sagemaker); with none or an unknown one the intended rule "
    "does not run. The container's source is not public and no public report shows the job failing.",
)


@check(SMD125)
def _builtin_image_without_builtin_rule(ctx: Context) -> Iterator[Finding]:
    for field, index, rule in ctx.rules():
        image = rule.get("RuleEvaluatorImage")
        repository = re.match(r"^[^/]+/([^:@]+)", image) if isinstance(image, str) else None
        params = _params(rule)
        if repository is None or repository.group(1) not in BUILTIN_REPOSITORIES or "source_s3_uri" in params:
            continue
        invoke = params.get("rule_to_invoke")
        if repository.group(1) == "detailed-profiler-processing" and invoke == "DetailedProfilerProcessing":
            continue
        if not isinstance(invoke, str) or is_pipeline_expression(invoke):
            yield SMD125.at(
                (field, index, "RuleParameters"),
                "a built-in rule image needs RuleParameters.rule_to_invoke naming the rule",
            )
            continue
        try:
            found, _ = catalogue.find(invoke)
        except ConfigError as err:
            yield SMD125.at((field, index, "RuleParameters", "rule_to_invoke"), err.message)
            continue
        if found != _KIND[field]:
            yield SMD125.at(
                (field, index, "RuleParameters", "rule_to_invoke"),
                f"{invoke} is a {found} rule but is listed in {field}",
            )


SMD152 = declare(
    "SMD152",
    ERROR,
    "A custom rule's source is not in S3 (the rule container cannot read a local file).",
    "The rule container gets the source only through source_s3_uri; the SDK v2 uploads a local source before the "
    "request (sagemaker/estimator.py _set_source_s3_uri), so a local path sent as is names nothing the rule job can "
    "read.",
)


@check(SMD152)
def _custom_source(ctx: Context) -> Iterator[Finding]:
    for field, index, rule in ctx.rules():
        source = _params(rule).get("source_s3_uri")
        if not isinstance(source, str) or S3_URI_RE.match(source):
            continue
        path = (field, index, "RuleParameters", "source_s3_uri")
        if not os.path.exists(source):
            yield SMD152.at(path, f"custom rule source {shorten(source)} is neither an s3:// URI nor an existing file")
        else:
            yield SMD152.at(
                path,
                f"custom rule source {shorten(source)} is a local file; upload it to S3 "
                "(sm_debug_config.create_training_job does)",
            )


SMD150 = declare(
    "SMD150", ERROR, "A rule's action_json is over 256 characters or is not JSON.",
    "botocore ConfigValue: max 256 characters; and the rule container parses it with json.loads without a guard "
     f"({SMDEBUG} rules/action/action.py ActionList._register_actions), so text that is not JSON (once the SDK's \\\" "
     "escaping is undone) ends the rule job.")


@check(SMD150, SMD155)
def _actions(ctx: Context) -> Iterator[Finding]:
    for _field, index, rule in ctx.rules("DebugRuleConfigurations"):
        text = _params(rule).get("action_json")
        if not isinstance(text, str):
            continue
        path = ("DebugRuleConfigurations", index, "RuleParameters", "action_json")
        if len(text) > 256:
            yield SMD150.at(
                path,
                f"action_json is {len(text)} characters; the API allows 256 (use fewer actions or a shorter prefix)",
            )
        try:
            json_loads(text.replace('\\"', '"').lower())  # as parse_action_json: the SDK writes \" for "
            value = json_loads(text.replace('\\"', '"'))
        except ConfigError as err:
            yield SMD150.at(path, f"action_json {err.message}")
            continue
        except ValueError as err:
            yield SMD150.at(path, f"action_json is not JSON ({err}); the rule container's json.loads fails")
            continue
        # each action of a list at its index (a config file, a launcher place it at that item), one alone at the rule's
        items: List[Tuple[Tuple[Any, ...], str]] = [(path, text)]
        if isinstance(value, list):
            items = [(path + (i,), json.dumps(item, ensure_ascii=False)) for i, item in enumerate(value)]
        for where, one in items:
            refused: List[str] = []
            with collecting() as found:  # an action's own SMD155 finding (a bad endpoint), as a value
                try:
                    parse_action_json(one, field="action_json")
                except ConfigError as err:
                    refused.append(err.message.replace("action 0 ", "the action ", 1) if where != path else err.message)
            for message in refused + [finding.message for finding in found.findings]:
                yield SMD155.at(where, f"the rule runs but this action does not happen: {message}")
