"""Validate step: findings for a request's Debugger fields, each with a stable code and a path.

Two layers, both reported in full (never just the first problem):

* the API's own limits, from the JSON Schema generated from botocore's SageMaker model
  (:mod:`sm_debug_config.validation.api`), code ``SMD100``;
* container-aware checks, one small function per code (``SMD1xx``), registered in
  :data:`CHECKS` with a one-line description and a severity (see :func:`list_checks`).

>>> findings = validate({"DebugHookConfig": {"S3OutputPath": "s3://b/o",
...     "CollectionConfigurations": [{"CollectionName": "gradients", "CollectionParameters": {"save_interval": "0"}}]}})
>>> [(f.code, f.path) for f in findings]
[('SMD132', '/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/save_interval')]
"""
from __future__ import annotations

import ast
import os
import re
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Tuple

import attrs

from sm_debug_config.model import catalogue
from sm_debug_config.model import hookparams
from sm_debug_config.model import regions
from sm_debug_config.model.validators import S3_URI_RE, parse_float, parse_int
from sm_debug_config.errors import ConfigError

ERROR = "error"
WARNING = "warning"
INFO = "info"
SEVERITIES = (ERROR, WARNING, INFO)
DEBUG_FIELDS = ("DebugHookConfig", "DebugRuleConfigurations", "ProfilerConfig", "ProfilerRuleConfigurations", "TensorBoardOutputConfig")
BUILTIN_REPOSITORIES = ("sagemaker-debugger-rules", "detailed-profiler-processing")


@attrs.frozen
class Finding:
    """One problem: ``severity`` (error, warning, info), stable ``code``, JSON-pointer ``path``, ``message``."""

    severity: str
    code: str
    path: str
    message: str
    line: Optional[int] = attrs.field(default=None, eq=False)

    def to_dict(self) -> Dict[str, Any]:
        return {"severity": self.severity, "code": self.code, "path": self.path, "message": self.message, "line": self.line}

    def __str__(self) -> str:
        return f"{self.severity} {self.code} {self.path or '/'}: {self.message}"


@attrs.frozen
class Check:
    code: str
    severity: str
    description: str
    function: Callable[["Context"], Iterable[Tuple[str, str]]]


CHECKS: Dict[str, Check] = {}
#: Codes produced outside the registered check functions (schema layer, hook-parameter checks).
EXTRA_CODES = {
    "SMD001": (INFO, "A value is a pipeline expression; it is checked when the pipeline runs, not now."),
    "SMD002": (ERROR, "A config file describes objects that cannot be built (unknown key, wrong type, bad value)."),
    "SMD100": (ERROR, "The request breaks a limit of the CreateTrainingJob API (length, count, pattern, enum, required member)."),
    "SMD120": (ERROR, "A built-in rule gets a parameter its schema does not have (with the closest valid names)."),
    "SMD121": (ERROR, "A built-in rule parameter's value is not of the type or range its schema allows."),
    "SMD130": (ERROR, "An include_regex pattern does not compile."),
    "SMD131": (ERROR, "An include_regex has a comma inside a regex; the hook splits on every comma."),
    "SMD132": (ERROR, "save_interval is not a positive integer (the hook divides the step by it)."),
    "SMD133": (ERROR, "start_step is not below end_step, so nothing would be saved."),
    "SMD134": (ERROR, "A step value (start_step, end_step, save_steps) is not a non-negative integer."),
    "SMD135": (ERROR, "A hook or collection parameter key the hook does not read (typo, wrong place, wrong mode prefix)."),
    "SMD136": (ERROR, "A reduction the hook does not know (with the closest valid ones)."),
    "SMD137": (ERROR, "save_raw_tensor/save_shape: the hook needs a JSON boolean that the API cannot carry."),
    "SMD138": (ERROR, "A boolean or enumerated hook parameter has a value the hook rejects."),
    "SMD139": (WARNING, "A hook parameter that only takes effect outside SageMaker."),
}


def check(code: str, severity: str, description: str):
    """Register a check: ``function(ctx)`` yields ``(path, message)`` pairs."""

    def register(function: Callable[["Context"], Iterable[Tuple[str, str]]]):
        CHECKS[code] = Check(code, severity, description, function)
        return function

    return register


def list_checks() -> List[Dict[str, str]]:
    """Every finding code with its severity and one-line description."""
    rows = [{"code": c, "severity": s, "description": d} for c, (s, d) in EXTRA_CODES.items()]
    rows += [{"code": c.code, "severity": c.severity, "description": c.description} for c in CHECKS.values()]
    return sorted(rows, key=lambda r: r["code"])


def pointer(*parts: Any) -> str:
    """An RFC 6901 JSON pointer from path parts."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


class Context:
    """The request under validation and what is known about the job."""

    def __init__(self, request: Dict[str, Any], framework: Optional[str], region: Optional[str]) -> None:
        self.request = request
        self.framework = framework
        self.region = region
        self._cache: Dict[str, Any] = {}

    def once(self, key: str, compute: Callable[[], Any]) -> Any:
        """``compute()``'s result, computed once per validation (checks that share a parse use it)."""
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def get(self, name: str) -> Any:
        return self.request.get(name)

    def rules(self, field: str) -> Iterator[Tuple[int, Dict[str, Any]]]:
        value = self.request.get(field)
        if isinstance(value, list):
            for index, rule in enumerate(value):
                if isinstance(rule, dict):
                    yield index, rule

    def collections(self) -> Iterator[Tuple[int, Dict[str, Any]]]:
        hook = self.request.get("DebugHookConfig")
        if isinstance(hook, dict) and isinstance(hook.get("CollectionConfigurations"), list):
            for index, coll in enumerate(hook["CollectionConfigurations"]):
                if isinstance(coll, dict):
                    yield index, coll

    def builtin_rules(self) -> Iterator[Tuple[int, Dict[str, Any], str]]:
        """``(index, rule, catalogue name)`` of built-in debugger rules in the request."""
        for index, rule in self.rules("DebugRuleConfigurations"):
            name = builtin_name(rule)
            if name is not None:
                yield index, rule, name

    def profiler_disabled(self) -> bool:
        config = self.request.get("ProfilerConfig")
        return isinstance(config, dict) and config.get("DisableProfiler") is True


def _params(rule: Dict[str, Any]) -> Dict[str, Any]:
    params = rule.get("RuleParameters")
    return params if isinstance(params, dict) else {}


def _image_repository(rule: Dict[str, Any]) -> Optional[str]:
    image = rule.get("RuleEvaluatorImage")
    if not isinstance(image, str):
        return None
    match = re.match(r"^[^/]+/([^:@]+)", image)
    return match.group(1) if match else None


def builtin_name(rule: Dict[str, Any]) -> Optional[str]:
    """The catalogue name of a built-in debugger rule configuration, else None (custom rule)."""
    params = _params(rule)
    invoke = params.get("rule_to_invoke")
    if "source_s3_uri" in params or not isinstance(invoke, str):
        return None
    try:
        kind, _entry = catalogue.find(invoke)
    except ConfigError:
        return None
    return catalogue.canonical_name(invoke) if kind == "debugger" else None


def is_pipeline_expression(value: Any) -> bool:
    """A pipeline expression as render writes it (``{"Get": ...}``, ``{"Std:Join": ...}``)."""
    return isinstance(value, dict) and len(value) == 1 and next(iter(value)) in ("Get", "Std:Join", "Std:JsonGet")


# --- rules ------------------------------------------------------------------------------------


@check("SMD101", ERROR, "Two rule configurations of a kind share a RuleConfigurationName.")
def _duplicate_names(ctx: Context):
    seen_any: Dict[str, str] = {}
    for field in ("DebugRuleConfigurations", "ProfilerRuleConfigurations"):
        seen: Dict[str, int] = {}
        for index, rule in ctx.rules(field):
            name = rule.get("RuleConfigurationName")
            if not isinstance(name, str):
                continue
            if name in seen:
                yield pointer(field, index, "RuleConfigurationName"), f"rule name {name!r} is already used by {field}[{seen[name]}]; each rule needs its own name (pass name= to Rule.sagemaker)"
            else:
                seen[name] = index
        for name in seen:
            if name in seen_any and seen_any[name] != field:
                yield pointer(field, seen[name], "RuleConfigurationName"), f"rule name {name!r} is used by a debugger and a profiler rule; their rule jobs and outputs would be hard to tell apart"
            seen_any.setdefault(name, field)


@check("SMD102", ERROR, "More than 20 rules of a kind (the API's limit per training job).")
def _too_many_rules(ctx: Context):
    for field in ("DebugRuleConfigurations", "ProfilerRuleConfigurations"):
        value = ctx.get(field)
        if isinstance(value, list) and len(value) > 20:
            yield pointer(field), f"{len(value)} rules; a training job takes at most 20 {field}"


def _saved_collections(ctx: Context) -> Tuple[Dict[str, int], bool]:
    """``({collection name: index}, save_all)`` of what the hook saves on request."""
    saved: Dict[str, int] = {}
    for index, coll in ctx.collections():
        name = coll.get("CollectionName")
        params = coll.get("CollectionParameters") if isinstance(coll.get("CollectionParameters"), dict) else {}
        if isinstance(name, str) and params.get("end_step") != "0":
            saved.setdefault(name, index)
    hook = ctx.get("DebugHookConfig")
    hook_params = hook.get("HookParameters") if isinstance(hook, dict) and isinstance(hook.get("HookParameters"), dict) else {}
    return saved, str(hook_params.get("save_all", "")).lower() == "true"


def _saved_by_default(framework: Optional[str]) -> List[str]:
    table = hookparams.spec()["frameworks"]
    if framework in table:
        return list(table[framework]["saved_by_default"])
    return sorted({c for fw in table.values() for c in fw["saved_by_default"]})


def _needed(rule: Dict[str, Any], name: str) -> Tuple[List[Tuple[str, str]], List[str]]:
    """``([(collection, why)], regex_fed)`` that the built-in rule reads."""
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


@check("SMD110", ERROR, "A built-in rule reads a collection the hook will not save, so the rule never sees its data.")
def _collection_not_saved(ctx: Context):
    if not isinstance(ctx.get("DebugHookConfig"), dict):
        return
    saved, save_all = _saved_collections(ctx)
    if save_all:
        return
    defaults = _saved_by_default(ctx.framework)
    for index, rule, name in ctx.builtin_rules():
        needed, _regex = _needed(rule, name)
        for collection, why in needed:
            if collection not in saved and collection not in defaults:
                where = f" for {ctx.framework}" if ctx.framework else ""
                yield pointer("DebugRuleConfigurations", index), (
                    f"{name} reads collection {collection!r} ({why}) but the hook does not save it{where} "
                    f"(add CollectionConfig({collection!r}) to the hook or to the rule's collections_to_save)"
                )


@check("SMD112", WARNING, "A built-in rule's default collection (which feeds its tensor regex) is not saved; the rule may see no data.")
def _regex_collection_not_saved(ctx: Context):
    if not isinstance(ctx.get("DebugHookConfig"), dict):
        return
    saved, save_all = _saved_collections(ctx)
    if save_all:
        return
    for index, rule, name in ctx.builtin_rules():
        for collection in _needed(rule, name)[1]:
            if collection not in saved:
                yield pointer("DebugRuleConfigurations", index), (
                    f"{name} looks for tensors its default collection {collection!r} saves, and no collection of that name is saved; "
                    f"make sure another collection's include_regex saves them"
                )


@check("SMD111", ERROR, "Debugger rules are configured but the hook is off, so no rule sees any data.")
def _rules_without_hook(ctx: Context):
    if ctx.get("DebugRuleConfigurations") and not isinstance(ctx.get("DebugHookConfig"), dict):
        yield pointer("DebugRuleConfigurations"), "debugger rules are configured but there is no DebugHookConfig (debugger_hook_config=False?), so they have nothing to analyse"


def _rule_parameter_problems(ctx: Context, field: str) -> Iterator[Tuple[int, Dict[str, Any], str, hookparams.Problem]]:
    for index, rule in ctx.rules(field):
        params = _params(rule)
        if "source_s3_uri" in params:
            continue
        invoke = params.get("rule_to_invoke")
        if not isinstance(invoke, str):
            continue
        try:
            kind, _entry = catalogue.find(invoke)
        except ConfigError:
            continue
        if (field == "DebugRuleConfigurations") != (kind == "debugger"):
            continue
        name = catalogue.canonical_name(invoke)
        checked = {k: v for k, v in params.items() if k not in ("rule_to_invoke", "action_json") and not is_pipeline_expression(v)}
        if name == "ProfilerReport":
            checked = {k: v for k, v in checked.items() if "_" not in k or k == "opt_out_telemetry"}
            yield from _profiler_report_problems(index, rule, params)
        for problem in catalogue.check_parameters(name, checked):
            yield index, rule, name, problem


def _profiler_report_problems(index: int, rule: Dict[str, Any], params: Dict[str, Any]):
    report = catalogue.rules("profiler")["ProfilerReport"]
    covered = {r.lower(): r for r in report["covered_rules"]}
    for key, value in params.items():
        rule_part, _, param = key.partition("_")
        target = covered.get(rule_part.lower())
        if not param or key == "rule_to_invoke" or target is None:
            continue
        for problem in catalogue.check_parameters(target, {param.lower(): value}):
            yield index, rule, "ProfilerReport", hookparams.Problem(problem.severity, problem.code, key, f"ProfilerReport {key}: {problem.message}")


@check("SMD125", ERROR, "A rule that runs in a built-in rule image names no built-in rule to invoke.")
def _builtin_image_without_builtin_rule(ctx: Context):
    for field, kind in (("DebugRuleConfigurations", "debugger"), ("ProfilerRuleConfigurations", "profiler")):
        for index, rule in ctx.rules(field):
            repository = _image_repository(rule)
            params = _params(rule)
            if repository not in BUILTIN_REPOSITORIES or "source_s3_uri" in params:
                continue
            invoke = params.get("rule_to_invoke")
            if repository == "detailed-profiler-processing" and invoke == "DetailedProfilerProcessing":
                continue
            if not isinstance(invoke, str) or is_pipeline_expression(invoke):
                yield pointer(field, index, "RuleParameters"), "a built-in rule image needs RuleParameters.rule_to_invoke naming the rule"
                continue
            try:
                found, _ = catalogue.find(invoke)
            except ConfigError as err:
                yield pointer(field, index, "RuleParameters", "rule_to_invoke"), err.message
                continue
            if found != kind:
                yield pointer(field, index, "RuleParameters", "rule_to_invoke"), f"{invoke} is a {found} rule but is listed in {field}"


def _emit_rule_problems(ctx: Context, code: str):
    def all_problems() -> List[Tuple[str, int, hookparams.Problem]]:
        return [(field, index, problem) for field in ("DebugRuleConfigurations", "ProfilerRuleConfigurations") for index, _rule, _name, problem in _rule_parameter_problems(ctx, field)]

    for field, index, problem in ctx.once("rule_parameters", all_problems):
        if problem.code == code and problem.severity == ERROR:
            yield pointer(field, index, "RuleParameters", problem.key), problem.message


def _unknown_rule_parameter(ctx: Context):
    yield from _emit_rule_problems(ctx, "SMD120")


def _bad_rule_parameter(ctx: Context):
    yield from _emit_rule_problems(ctx, "SMD121")


CHECKS["SMD120"] = Check("SMD120", ERROR, EXTRA_CODES.pop("SMD120")[1], _unknown_rule_parameter)
CHECKS["SMD121"] = Check("SMD121", ERROR, EXTRA_CODES.pop("SMD121")[1], _bad_rule_parameter)


@check("SMD123", WARNING, "A built-in rule is not meant for the job's framework (when the framework is known).")
def _framework_mismatch(ctx: Context):
    if not ctx.framework:
        return
    for index, _rule, name in ctx.builtin_rules():
        frameworks = catalogue.rules("debugger")[name]["frameworks"]
        if ctx.framework not in frameworks:
            yield pointer("DebugRuleConfigurations", index), f"{name} is meant for {', '.join(frameworks)}, not {ctx.framework}"


@check("SMD124", ERROR, "SimilarAcrossRuns has no other trial to compare with.")
def _similar_without_other(ctx: Context):
    for index, rule, name in ctx.builtin_rules():
        params = _params(rule)
        if name == "SimilarAcrossRuns" and "other_trials" not in params and not any(k.startswith("other_trial_") for k in params):
            yield pointer("DebugRuleConfigurations", index, "RuleParameters"), "SimilarAcrossRuns needs another trial: other_trials_s3_input_paths (other_trial_0...)"


# --- actions ----------------------------------------------------------------------------------


@check("SMD150", ERROR, "A rule's action_json is over 256 characters or is not a list of valid actions.")
def _actions(ctx: Context):
    from sm_debug_config.model.actions import parse_action_json

    for index, rule in ctx.rules("DebugRuleConfigurations"):
        text = _params(rule).get("action_json")
        if not isinstance(text, str):
            continue
        path = pointer("DebugRuleConfigurations", index, "RuleParameters", "action_json")
        if len(text) > 256:
            yield path, f"action_json is {len(text)} characters; the API allows 256 (use fewer actions or a shorter prefix)"
        try:
            parse_action_json(text, field="action_json")
        except ConfigError as err:
            yield path, f"the rule container cannot use it: {err.message}"


# --- hook -------------------------------------------------------------------------------------


def _hook_problems(ctx: Context) -> Iterator[Tuple[str, hookparams.Problem]]:
    hook = ctx.get("DebugHookConfig")
    if not isinstance(hook, dict):
        return
    if isinstance(hook.get("HookParameters"), dict):
        for problem in hookparams.check(_drop_expressions(hook["HookParameters"]), "hook"):
            yield pointer("DebugHookConfig", "HookParameters", problem.key), problem
    for index, coll in ctx.collections():
        params = coll.get("CollectionParameters")
        if isinstance(params, dict):
            for problem in hookparams.check(_drop_expressions(params), "collection"):
                yield pointer("DebugHookConfig", "CollectionConfigurations", index, "CollectionParameters", problem.key), problem


def _drop_expressions(params: Dict[str, Any]) -> Dict[str, Any]:
    return {k: v for k, v in params.items() if not is_pipeline_expression(v)}


@check("SMD113", ERROR, "A collection configuration has no CollectionName (the hook refuses it).")
def _collection_without_name(ctx: Context):
    for index, coll in ctx.collections():
        if "CollectionName" not in coll:
            yield pointer("DebugHookConfig", "CollectionConfigurations", index), "CollectionName is missing; the hook fails with SMDebugValueError"


@check("SMD114", ERROR, "A collection that is not built in has no include_regex, so the hook cannot tell which tensors it holds.")
def _custom_collection_without_regex(ctx: Context):
    builtin = set()
    table = hookparams.spec()["frameworks"]
    frameworks = [ctx.framework] if ctx.framework in table else list(table)
    for fw in frameworks:
        builtin.update(table[fw]["builtin_collections"])
    defaults = {c["CollectionName"] for e in catalogue.rules("debugger").values() for c in e["base_config"].get("CollectionConfigurations", [])}
    for index, coll in ctx.collections():
        name = coll.get("CollectionName")
        params = coll.get("CollectionParameters") if isinstance(coll.get("CollectionParameters"), dict) else {}
        if isinstance(name, str) and name not in builtin and name not in defaults and "include_regex" not in params:
            where = f" {ctx.framework}" if ctx.framework else " any framework's"
            yield pointer("DebugHookConfig", "CollectionConfigurations", index), (
                f"collection {name!r} is not one of{where} built-in collections and has no include_regex; "
                f"the hook raises InvalidCollectionConfiguration"
            )


# --- profiler ---------------------------------------------------------------------------------

_METRIC_KEYS = {
    "detailedprofilingconfig": ("startstep", "numsteps", "starttimeinsecsinceepoch", "durationinseconds"),
    "dataloaderprofilingconfig": ("startstep", "numsteps", "starttimeinsecsinceepoch", "durationinseconds", "metricsregex"),
    "pythonprofilingconfig": ("startstep", "numsteps", "starttimeinsecsinceepoch", "durationinseconds", "profilername", "cprofiletimer"),
    "smdataparallelprofilingconfig": ("startstep", "numsteps", "starttimeinsecsinceepoch", "durationinseconds"),
    "horovodprofilingconfig": ("startstep", "numsteps", "starttimeinsecsinceepoch", "durationinseconds"),
}
_FILE_KEYS = {"localpath", "rotatemaxfilesizeinbytes", "rotatefilecloseintervalinseconds", "fileopenfailthreshold"}
_PROFILER_KEYS = {"cpuprofilingduration", "smpfilerotationsecs"}
_CASE_SENSITIVE_ESCAPES = re.compile(r"\\[SDWBAZ]")


class _Unparsable(Exception):
    pass


def _literal(node: ast.AST) -> Any:
    """Evaluate the small subset of Python the container's ``eval`` meets in practice."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)) and isinstance(node.operand, ast.Constant) and isinstance(node.operand.value, (int, float)):
        value = node.operand.value
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.Dict):
        if any(k is None for k in node.keys):
            raise _Unparsable("uses ** unpacking")
        return {_literal(k): _literal(v) for k, v in zip(node.keys, node.values)}
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_literal(e) for e in node.elts]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" and not node.args:
        return {kw.arg: _literal(kw.value) for kw in node.keywords if kw.arg is not None}
    if isinstance(node, ast.Name):
        raise _Unparsable(f"name {node.id!r} is not defined when the container evaluates it (NameError); use a number or a quoted string")
    raise _Unparsable(f"{type(node).__name__} is not a literal the container can evaluate safely")


def parse_metrics_config(text: str) -> Dict[str, Any]:
    """The dict the training container gets from one metric-config string (after lower-casing).

    Raises ``_Unparsable`` where the container's ``eval`` would raise an error it does not catch.
    """
    import warnings

    lowered = text.lower()
    try:
        with warnings.catch_warnings():  # invalid escapes in regexes warn; the container ignores that too
            warnings.simplefilter("ignore")
            tree = ast.parse(lowered.strip() or "", mode="eval")
    except SyntaxError as err:
        raise _Unparsable(f"is not valid Python after lower-casing ({err.msg})") from None
    if not lowered.strip():
        raise _Unparsable("is empty (SyntaxError in the container)")
    return _literal(tree.body)


def _metric_findings(name: str, text: str) -> Iterator[Tuple[str, str, str]]:
    """``(severity, code, message)`` for one metric-config string."""
    try:
        value = parse_metrics_config(text)
    except _Unparsable as err:
        yield ERROR, "SMD140", f"{name} {err}; the profiler parser fails and framework profiling breaks"
        return
    except (RecursionError, MemoryError, ValueError):
        yield ERROR, "SMD140", f"{name} is too deeply nested for the container to evaluate"
        return
    if not isinstance(value, dict):
        yield WARNING, "SMD141", f"{name} is not a dict; the container ignores it and this profiling stays off"
        return
    if not value:
        yield WARNING, "SMD141", f"{name} is empty; the container treats it as not set"
        return
    allowed = _METRIC_KEYS[name.lower()]
    for key in value:
        if key == "duration":
            yield WARNING, "SMD141", f"{name} has 'Duration', which the container never reads; use 'DurationInSeconds' (as sm-debug-config renders it)"
        elif key not in allowed:
            yield WARNING, "SMD141", f"{name} key {key!r} is ignored by the container; it reads {', '.join(allowed)}"
    numbers = {}
    for key, convert in (("startstep", parse_int), ("numsteps", parse_int), ("starttimeinsecsinceepoch", parse_float), ("durationinseconds", parse_float)):
        if key in value and value[key] is not None:
            number = convert(value[key]) if not isinstance(value[key], bool) else None
            if number is None:
                yield WARNING, "SMD141", f"{name} {key} {value[key]!r} is not a number; the container disables this profiling"
                return
            numbers[key] = number
    steps = bool(numbers.get("startstep") or numbers.get("numsteps"))
    times = bool(numbers.get("starttimeinsecsinceepoch") or numbers.get("durationinseconds"))
    if steps and times:
        yield WARNING, "SMD141", f"{name} has both a step range and a time range; the container disables it"
    if "startstep" in numbers and not steps and not times:
        yield WARNING, "SMD141", f"{name} StartStep 0 without NumSteps is read as unset; nothing is profiled (set NumSteps)"
    if "profilername" in value and str(value["profilername"]) not in ("cprofile", "pyinstrument"):
        yield WARNING, "SMD141", f"{name} ProfilerName {value['profilername']!r} is not cprofile or pyinstrument; Python profiling is disabled"
    if "cprofiletimer" in value and str(value["cprofiletimer"]) not in ("total_time", "cpu_time", "off_cpu_time", "default"):
        yield WARNING, "SMD141", f"{name} cProfileTimer {value['cprofiletimer']!r} is not total_time, cpu_time, off_cpu_time or default; Python profiling is disabled"
    if "metricsregex" in value:
        try:
            re.compile(str(value["metricsregex"]))
        except re.error as err:
            yield WARNING, "SMD141", f"{name} MetricsRegex does not compile after lower-casing ({err}); data loader profiling is disabled"
    if _CASE_SENSITIVE_ESCAPES.search(text):
        yield WARNING, "SMD142", f"{name} has a regex escape (\\S, \\D, \\W, \\B, \\A or \\Z) that lower-casing turns into another one"
    if name.lower() == "horovodprofilingconfig":
        yield INFO, "SMD145", "HorovodProfilingConfig is rendered as the SDK does, but the profiler in smdebug 1.0.34 does not read it"


def _register_profiling_checks() -> None:
    """SMD140-SMD145 share one pass over ProfilingParameters (see :func:`_profiling_findings`)."""
    table = (
        ("SMD140", ERROR, "A metric-config string the container cannot evaluate (its eval fails with an uncaught error)."),
        ("SMD141", WARNING, "A metric-config string the container silently ignores or disables (wrong key, both ranges, bad value)."),
        ("SMD142", WARNING, "Lower-casing by the container changes a value's meaning (regex escapes, paths with capitals)."),
        ("SMD143", WARNING, "A ProfilingParameters key the profiler does not read, or a file parameter that is not a number (all four reset)."),
        ("SMD145", INFO, "A profiling setting that is rendered for parity but not read by the container."),
    )
    for code, severity, description in table:
        CHECKS[code] = Check(code, severity, description, lambda ctx, code=code: _profiling_findings(ctx, code))


def _profiling_findings(ctx: Context, code: str) -> List[Tuple[str, str]]:
    return [(path, message) for found, path, message in ctx.once("profiling", lambda: list(_all_profiling_findings(ctx))) if found == code]


def _all_profiling_findings(ctx: Context) -> Iterator[Tuple[str, str, str]]:
    """``(code, path, message)`` for every ProfilingParameters entry, in one pass."""
    config = ctx.get("ProfilerConfig")
    if not isinstance(config, dict) or not isinstance(config.get("ProfilingParameters"), dict):
        return
    for key, value in config["ProfilingParameters"].items():
        if not isinstance(key, str) or not isinstance(value, str):
            continue  # the schema reports non-strings
        path = pointer("ProfilerConfig", "ProfilingParameters", key)
        lowered = key.lower()
        if lowered in _METRIC_KEYS:
            for _severity, found, message in _metric_findings(key, value):
                yield found, path, message
        elif lowered == "localpath":
            if value != value.lower():
                yield "SMD142", path, f"LocalPath {value!r} has capitals; the container lower-cases it to {value.lower()!r}"
        elif lowered in _FILE_KEYS:
            convert = parse_int if lowered == "fileopenfailthreshold" else parse_float
            if convert(value) is None:
                yield "SMD143", path, f"{key} {value!r} is not a number; the container resets LocalPath and all file parameters to their defaults"
        elif lowered not in _PROFILER_KEYS:
            known = ["LocalPath", "RotateMaxFileSizeInBytes", "RotateFileCloseIntervalInSeconds", "FileOpenFailThreshold", "DetailedProfilingConfig", "DataloaderProfilingConfig", "PythonProfilingConfig", "SMDataParallelProfilingConfig", "HorovodProfilingConfig", "CPUProfilingDuration", "SMPFileRotationSecs"]
            from sm_debug_config.errors import did_you_mean

            yield "SMD143", path, f"ProfilingParameters key {key!r} is not read by the profiler;{did_you_mean(key, known) or ' known keys: ' + ', '.join(known)}"


_register_profiling_checks()


@check("SMD144", WARNING, "ProfilingIntervalInMilliseconds is not one of the documented intervals (100, 200, 500, 1000, 5000, 60000).")
def _interval(ctx: Context):
    from sm_debug_config.model.profiler import SYSTEM_MONITOR_INTERVALS_MS

    config = ctx.get("ProfilerConfig")
    if isinstance(config, dict) and "ProfilingIntervalInMilliseconds" in config:
        value = config["ProfilingIntervalInMilliseconds"]
        if isinstance(value, int) and not isinstance(value, bool) and value not in SYSTEM_MONITOR_INTERVALS_MS:
            yield pointer("ProfilerConfig", "ProfilingIntervalInMilliseconds"), f"{value} ms is not a documented system monitoring interval ({', '.join(map(str, SYSTEM_MONITOR_INTERVALS_MS))})"


@check("SMD160", ERROR, "Profiler rules are configured while the profiler is disabled.")
def _profiler_rules_disabled(ctx: Context):
    if ctx.profiler_disabled() and ctx.get("ProfilerRuleConfigurations"):
        yield pointer("ProfilerRuleConfigurations"), "profiler rules are configured but ProfilerConfig.DisableProfiler is true, so they have no data"


# --- regions, images, paths -------------------------------------------------------------------


@check("SMD151", WARNING, "A rule image lives in another region than the job.")
def _image_region(ctx: Context):
    if not ctx.region:
        return
    for field in ("DebugRuleConfigurations", "ProfilerRuleConfigurations"):
        for index, rule in ctx.rules(field):
            image = rule.get("RuleEvaluatorImage")
            image_region = regions.region_of_image(image) if isinstance(image, str) else None
            if image_region and image_region != ctx.region:
                yield pointer(field, index, "RuleEvaluatorImage"), f"the image is in {image_region} but the job runs in {ctx.region}; pulls cross regions or fail"


@check("SMD161", ERROR, "Debugger or profiler settings for a region without Debugger or profiler support.")
def _region_support(ctx: Context):
    if not ctx.region:
        return
    if not regions.supports_debugger(ctx.region):
        for field in ("DebugHookConfig", "DebugRuleConfigurations"):
            if ctx.get(field):
                yield pointer(field), f"region {ctx.region} does not support SageMaker Debugger"
    if not regions.supports_profiler(ctx.region):
        config = ctx.get("ProfilerConfig")
        if (isinstance(config, dict) and config.get("DisableProfiler") is not True) or ctx.get("ProfilerRuleConfigurations"):
            yield pointer("ProfilerConfig"), f"region {ctx.region} has no SageMaker profiler; set DisableProfiler true"


@check("SMD152", ERROR, "A custom rule's source is not in S3 (the rule container cannot read a local file).")
def _custom_source(ctx: Context):
    for field in ("DebugRuleConfigurations", "ProfilerRuleConfigurations"):
        for index, rule in ctx.rules(field):
            source = _params(rule).get("source_s3_uri")
            if not isinstance(source, str) or S3_URI_RE.match(source):
                continue
            path = pointer(field, index, "RuleParameters", "source_s3_uri")
            if not os.path.exists(source):
                yield path, f"custom rule source {source!r} is neither an s3:// URI nor an existing file"
            else:
                yield path, f"custom rule source {source!r} is a local file; upload it to S3 (sm_debug_config.create_training_job does)"


@check("SMD153", ERROR, "A LocalPath is not an absolute container path.")
def _local_paths(ctx: Context):
    for path, value in _local_path_values(ctx):
        if not value.startswith("/"):
            yield path, f"LocalPath {value!r} must be an absolute path inside the container"


@check("SMD154", ERROR, "TensorBoardOutputConfig.LocalPath under a path the service reserves (/opt/ml, /tmp, /usr/local/nvidia).")
def _reserved_local_paths(ctx: Context):
    from sm_debug_config.model.hook import reserved_prefix

    config = ctx.get("TensorBoardOutputConfig")
    if isinstance(config, dict) and isinstance(config.get("LocalPath"), str):
        prefix = reserved_prefix("TensorBoardOutputConfig", config["LocalPath"])
        if prefix is not None:
            yield pointer("TensorBoardOutputConfig", "LocalPath"), f"LocalPath {config['LocalPath']!r} starts with the reserved {prefix}; CreateTrainingJob refuses it (use e.g. /tensorboard)"


def _local_path_values(ctx: Context) -> Iterator[Tuple[str, str]]:
    for field in ("DebugHookConfig", "TensorBoardOutputConfig"):
        config = ctx.get(field)
        if isinstance(config, dict) and isinstance(config.get("LocalPath"), str):
            yield pointer(field, "LocalPath"), config["LocalPath"]
    for field in ("DebugRuleConfigurations", "ProfilerRuleConfigurations"):
        for index, rule in ctx.rules(field):
            if isinstance(rule.get("LocalPath"), str):
                yield pointer(field, index, "LocalPath"), rule["LocalPath"]
    config = ctx.get("ProfilerConfig")
    if isinstance(config, dict) and isinstance(config.get("ProfilingParameters"), dict):
        value = config["ProfilingParameters"].get("LocalPath")
        if isinstance(value, str):
            yield pointer("ProfilerConfig", "ProfilingParameters", "LocalPath"), value


# --- entry point ------------------------------------------------------------------------------


def _hook_findings(ctx: Context) -> List[Finding]:
    out = []
    for path, problem in _hook_problems(ctx):
        out.append(Finding(problem.severity, problem.code, path, problem.message))
    return out


def _schema_findings(request: Dict[str, Any], operation: str) -> List[Finding]:
    from sm_debug_config.validation.api import check_api

    result = check_api(request, operation=operation)
    out = [Finding(INFO, "SMD001", skipped.path, skipped.message) for skipped in result.skipped]
    for error in result.errors:
        if error.keyword == "maxItems" and error.path in ("/DebugRuleConfigurations", "/ProfilerRuleConfigurations"):
            continue  # SMD102 says it better
        out.append(Finding(ERROR, "SMD100", error.path, error.message))
    return out


def validate(
    request: Dict[str, Any],
    *,
    framework: Optional[str] = None,
    region: Optional[str] = None,
    operation: str = "CreateTrainingJob",
) -> List[Finding]:
    """Every finding for the Debugger fields of ``request``.

    ``request`` holds any of the five fields; a whole ``CreateTrainingJob`` request works too
    (other keys are ignored). ``framework`` (tensorflow, pytorch, mxnet, xgboost) and ``region``
    enable the checks that need them. Findings are sorted by path, then code.

    >>> validate({"DebugRuleConfigurations": [{"RuleConfigurationName": "VG",
    ...     "RuleEvaluatorImage": "503895931360.dkr.ecr.us-east-1.amazonaws.com/sagemaker-debugger-rules:latest",
    ...     "RuleParameters": {"rule_to_invoke": "VanishingGradient", "threshhold": "0.1"}}]})[1].message
    "VanishingGradient has no parameter 'threshhold'; did you mean 'threshold'? allowed: threshold"
    """
    if not isinstance(request, dict):
        raise ConfigError(f"expected a dict (a CreateTrainingJob request or its Debugger fields), got {type(request).__name__}", field="request")
    if framework is not None:
        framework = str(framework).lower()
        if framework not in catalogue.FRAMEWORKS:
            raise ConfigError(f"unknown framework {framework!r}", field="framework", allowed=", ".join(catalogue.FRAMEWORKS))
    if region is not None:
        regions.check_region(region)
    ctx = Context(request, framework, region)
    findings = _schema_findings(request, operation)
    findings += _hook_findings(ctx)
    for registered in CHECKS.values():
        for path, message in registered.function(ctx):
            findings.append(Finding(registered.severity, registered.code, path, message))
    unique = list(dict.fromkeys(findings))
    return sorted(unique, key=lambda f: (_sort_path(f.path), f.code, f.message))


def _sort_path(path: str) -> Tuple:
    parts = path.split("/")[1:]
    field = parts[0] if parts else ""
    order = DEBUG_FIELDS.index(field) if field in DEBUG_FIELDS else len(DEBUG_FIELDS)
    return (order,) + tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts[1:])


def errors(findings: Iterable[Finding]) -> List[Finding]:
    return [f for f in findings if f.severity == ERROR]


def raise_for_errors(findings: List[Finding]) -> None:
    """Raise a ``ConfigError`` carrying ``findings`` if any is an error."""
    bad = errors(findings)
    if bad:
        listed = "; ".join(f"{f.code} {f.path}: {f.message}" for f in bad[:5])
        more = f" (and {len(bad) - 5} more)" if len(bad) > 5 else ""
        raise ConfigError(f"the request would fail: {listed}{more}", field="request", findings=findings)
