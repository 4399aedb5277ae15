"""The built-in rule catalogue: lookup, discovery and parameter checking, driven by the data in
``rule_configs/{debugger,profiler}_rules.json`` (adding a rule or a parameter is a change to those files only).
"""
from __future__ import annotations

import functools
import math
from typing import Any, Dict, List, Optional, Tuple

from sm_debug_config import datafiles as data
from sm_debug_config.apischema import SMD100
from sm_debug_config.errors import ConfigError, PathT, did_you_mean, only_close, shorten
from sm_debug_config.findings import ERROR, SMDEBUG, WARNING, Finding, building_as_written, declare, refuse, report
from sm_debug_config.limits import MAX_INT_DIGITS, regex_error
from sm_debug_config.model.validators import (
    S3_URI_RE, api_string, choice, is_int, parse_float, parse_int, rename_fix,
)
from sm_debug_config.patterns import LazyPattern
from sm_debug_config.variables import is_pipeline_variable

KINDS = ("debugger", "profiler")
#: RuleParameters the rule runner reads for every built-in debugger rule (the step range it
#: evaluates: smdebug's ``invoke_rule(rule, start_step, end_step)``), whatever the rule's own.
RUNNER_PARAMETERS = ("start_step", "end_step")
FRAMEWORKS = ("tensorflow", "pytorch", "mxnet", "xgboost")
OTHER_TRIAL_RE = LazyPattern(r"^other_trial_\d+$")
_API_VALUE_LIMIT = 10**256  # an integer this large renders past ConfigValue's 256 characters


# The codes the parameter checks of built-in rules produce: Rule.sagemaker warns them, validation reports them.
_NOT_PUBLIC = (
    "The API takes any RuleParameters key and string value (botocore RuleParameters: ConfigKey to ConfigValue). "
    "The built-in rule container's source is not public and no public report shows a rule job failing on it, "
)
SMD120 = declare(
    "SMD120",
    WARNING,
    "A built-in rule gets a parameter its schema does not have (with the closest valid names).",
    _NOT_PUBLIC + "so there is no evidence of a failure; a misspelt name leaves the intended parameter at its default. "
    f"start_step and end_step are taken for every debugger rule ({SMDEBUG} rules/rule_invoker.py invoke_rule(rule_obj, "
    "start_step, end_step)). ProfilerReport's <Rule>_<parameter> keys use the same code.",
)
SMD121 = declare(
    "SMD121", WARNING, "A built-in rule parameter's value is not of the type or range its schema allows.",
    _NOT_PUBLIC + "so there is no evidence of a failure; the rule may misread the value.")
SMD122 = declare(
    "SMD122",
    WARNING,
    "A built-in rule parameter that is not in the catalogue is passed through as asked (allow_unknown_parameters).",
    "The rule gets the parameter as given; this catalogue cannot say whether the rule reads it.",
)

def rules(kind: str) -> Dict[str, Dict[str, Any]]:
    """``{name: entry}`` of one kind of built-in rule."""
    return data.load_catalogue(kind + "_rules")["rules"]


def find(name: str) -> Tuple[str, Dict[str, Any]]:
    """``(kind, entry)`` of a built-in rule by name (case-insensitive); ``ConfigError`` if unknown."""
    if not isinstance(name, str):
        raise ConfigError(
            f"expected a rule name, got {type(name).__name__}", field="rule", allowed="the name of a built-in rule"
        )
    found = lookup(name)
    if found:
        kind, real = found
        return kind, rules(kind)[real]
    names = all_names()
    raise ConfigError(
        f"unknown built-in rule {shorten(name)};{did_you_mean(str(name), names) or ''}".rstrip(";"),
        field="rule",
        allowed=", ".join(names),
    )


def canonical_name(name: str) -> str:
    found = lookup(name)
    return found[1] if found else find(name)[0]  # find raises the ConfigError of an unknown name


def lookup(name: Any) -> Optional[Tuple[str, str]]:
    """``(kind, catalogue name)`` of the built-in rule ``name`` names (the exact name first, then any case),
    else None (``find`` says why)."""
    if not isinstance(name, str):
        return None
    exact, lowered = _names()
    return exact.get(name) or lowered.get(name.lower())


@functools.lru_cache(maxsize=None)
def _names() -> Tuple[Dict[str, Tuple[str, str]], Dict[str, Tuple[str, str]]]:
    """``{name: (kind, catalogue name)}`` of every rule by its exact name, and by its lower-cased name (the
    first in :data:`KINDS` and catalogue order): a lookup is a dict lookup, not a scan of the catalogue (a
    config file's rule is looked up a dozen times, from reading it to validating the request)."""
    exact: Dict[str, Tuple[str, str]] = {}
    lowered: Dict[str, Tuple[str, str]] = {}
    for kind in KINDS:
        for real in rules(kind):
            exact.setdefault(real, (kind, real))
            lowered.setdefault(real.lower(), (kind, real))
    return exact, lowered


def all_names(kind: Optional[str] = None) -> List[str]:
    kinds = [kind] if kind else list(KINDS)
    return [n for k in kinds for n in rules(k)]


def default_rule_parameters(entry: Dict[str, Any]) -> Dict[str, Any]:
    if entry["kind"] == "debugger":
        return dict(entry["base_config"]["DebugRuleConfiguration"].get("RuleParameters", {}))
    return dict(entry.get("default_rule_parameters") or {})


def default_collections(entry: Dict[str, Any]) -> List[Dict[str, Any]]:
    if entry["kind"] != "debugger":
        return []
    return [dict(c) for c in entry["base_config"].get("CollectionConfigurations", [])]


def user_parameters(entry: Dict[str, Any]) -> Dict[str, Dict[str, Any]]:
    """The parameters a user may set (service-set ones and key patterns excluded)."""
    return {
        k: p
        for k, p in entry["parameters"].items()
        if not p.get("service_set") and "<" not in k
    }


# --- value checking ---------------------------------------------------------------------------


def _exclusive(spec: Dict[str, Any]) -> Tuple[bool, bool]:
    """Whether the lower and the upper bound of a parameter exclude the bound itself."""
    both = bool(spec.get("exclusive_bounds"))
    return both or bool(spec.get("min_exclusive")), both


def _describe_type(spec: Dict[str, Any]) -> str:
    kind = spec.get("type")
    if spec.get("allowed"):
        return "one of " + ", ".join(map(str, spec["allowed"]))
    if spec.get("validation") == "string_or_none":
        return "a string or None"
    if kind == "list":
        return f"a list of {spec.get('item_type', 'string')} values or a comma-separated string"
    fixed = {"boolean": "True or False", "regex": "a regular expression that compiles", "s3_uri": "an s3:// URI"}
    if kind in fixed:
        return fixed[kind]
    text: str = {"integer": "an integer", "float": "a number", "string": "a string"}.get(kind or "", kind or "a value")
    (low, high), (low_excl, high_excl) = (spec.get("min"), spec.get("max")), _exclusive(spec)
    bounds = [
        f"{op} {bound}"
        for bound, op in ((low, ">" if low_excl else ">="), (high, "<" if high_excl else "<="))
        if bound is not None
    ]
    return " ".join([text, " and ".join(bounds)]) if bounds else text


def _in_range(number: float, spec: Dict[str, Any]) -> bool:
    low, high = spec.get("min"), spec.get("max")
    low_excl, high_excl = _exclusive(spec)
    if low is not None and (number < low or (low_excl and number == low)):
        return False
    return high is None or not (number > high or (high_excl and number == high))


_NUMBER_TEXT = LazyPattern(r"^[-+]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:e[-+]?[0-9]+)?|inf|infinity|nan)$")


def _overflows(value: Any) -> bool:
    """Whether ``value`` is a number, or the text of one, that is not finite (``1e400``, ``inf``, ``nan``)."""
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, str) and len(value) <= MAX_INT_DIGITS and _NUMBER_TEXT.match(value.strip().lower()):
        return not math.isfinite(float(value))
    return False


def _fits(kind: Optional[str], value: Any, spec: Dict[str, Any]) -> bool:
    """Whether ``value`` (or its string form) is a valid ``kind``, within the spec's bounds and allowed values."""
    if kind == "integer":
        whole = parse_int(value) if not isinstance(value, float) else (int(value) if value.is_integer() else None)
        return whole is not None and _in_range(whole, spec)
    if kind in ("float", "number"):
        number = parse_float(value)
        return number is not None and _in_range(number, spec)
    if kind == "boolean":
        return isinstance(value, bool) or (isinstance(value, str) and value.strip().lower() in ("true", "false"))
    if kind == "regex":
        return isinstance(value, str) and regex_error(value) is None
    if kind == "string" and not (spec.get("validation") == "string_or_none" and value is None):
        return isinstance(value, str) and (not spec.get("allowed") or value in spec["allowed"])
    return True  # other_trial_<N> (s3_uri) is checked by check_parameters itself


def check_value(spec: Dict[str, Any], value: Any) -> bool:
    """Whether ``value`` fits one parameter's schema (a string form of the type counts)."""
    if is_pipeline_variable(value):
        return True
    kind = spec.get("type")
    if kind != "list":
        return _fits(kind, value, spec)
    if isinstance(value, (list, tuple)):
        items = list(value)
    elif isinstance(value, str):
        items = [t.strip() for t in value.split(",")]
    else:
        return False
    return bool(items) and all(_fits(spec.get("item_type", "string"), item, {}) for item in items)


def to_api_string(value: Any, field: str = "rule_parameters", path: PathT = ()) -> Any:
    """A rule parameter value as the API carries it, in the SDK's spelling (``str()``, lists joined with commas);
    ``ConfigError`` naming ``field`` for what no API string holds (see :func:`validators.api_string`)."""
    return api_string(value, field, path)


def _unrenderable(value: Any) -> str:
    """Why ``value`` cannot be a RuleParameters value (a string of at most 256 characters), or ``""``."""

    def scalar(item: Any) -> bool:
        huge = isinstance(item, int) and not isinstance(item, bool) and abs(item) >= _API_VALUE_LIMIT
        return isinstance(item, (str, bool, int, float)) and not huge

    if value is None or is_pipeline_variable(value) or scalar(value):
        return ""
    if isinstance(value, (list, tuple)) and len(value) <= 256 and all(scalar(item) for item in value):
        return ""
    if is_int(value):
        return "longer than the 256 characters of a RuleParameters value"
    return "a RuleParameters value is a string, a number, true/false or a short flat list of them"


#: RuleParameters' maxProperties in the CreateTrainingJob API.
MAX_RULE_PARAMETERS = 100


def check_parameters(name: str, parameters: Dict[str, Any], *, allow_unknown: Any = False) -> List[Finding]:
    """Problems with ``parameters`` for built-in rule ``name``; ``allow_unknown`` (True, or names) lets unknown
    names through with a warning (the escape hatch for parameters newer than this catalogue).

    >>> [p.code for p in check_parameters("VanishingGradient", {"threshhold": "0.1"})]
    ['SMD120']
    """
    kind, entry = find(name)
    known = user_parameters(entry)
    if len(parameters) > MAX_RULE_PARAMETERS:  # before a did-you-mean per key: 50,000 keys took seconds
        many = f"{name} has {len(parameters)} rule parameters; the API takes at most {MAX_RULE_PARAMETERS}"
        return [SMD100.at((), many)]
    out: List[Finding] = []
    for key, value in parameters.items():
        if not isinstance(key, str):  # before str(key): an int past 4,300 digits has no text
            out.append(SMD120.at((key,), f"{name} has a parameter named {shorten(key)}; names are strings"))
            continue
        if key == "rule_to_invoke" or (kind == "debugger" and key in RUNNER_PARAMETERS and key not in known):
            continue
        unrenderable = _unrenderable(value)
        if unrenderable:  # the wrong type, or too long for the API's 256 characters: refused, whatever the rule
            out.append(SMD100.at((key,), f"{name}.{key} is {shorten(value)}: {unrenderable}"))
            continue
        if kind == "debugger" and OTHER_TRIAL_RE.match(str(key)):
            if not is_pipeline_variable(value) and (not isinstance(value, str) or not S3_URI_RE.match(value)):
                out.append(
                    SMD121.at((key,), f"{name}.{key} must be an s3:// URI of another trial, got {shorten(value)}")
                )
            continue
        spec = known.get(key)
        if spec is None:
            if key in entry["parameters"] and entry["parameters"][key].get("service_set"):
                out.append(SMD120.at((key,), f"{name}.{key} is set by SageMaker; leave it out"))
                continue
            passes = allow_unknown is True or (not isinstance(allow_unknown, bool) and key in (allow_unknown or ()))
            if passes:
                out.append(
                    SMD122.at(
                        (key,),
                        f"{name}.{key} is not in the catalogue; passed through as asked (allow_unknown_parameters)",
                    )
                )
                continue
            hint = did_you_mean(str(key), list(known)) or ""
            out.append(
                SMD120.at(
                    (key,), f"{name} has no parameter {shorten(key)};{hint} allowed: {', '.join(known) or 'none'}",
                    fix=rename_fix((key,), only_close(key, list(known)), parameters),
                )
            )
            continue
        if not check_value(spec, value):
            if spec.get("type") in ("float", "number") and _overflows(value):  # a number, just not one a float holds
                out.append(
                    SMD121.at(
                        (key,),
                        f"{name}.{key} is {shorten(value)}: out of range, not a finite number (allowed: "
                        f"{_describe_type(spec)}, finite)",
                    )
                )
            else:
                out.append(SMD121.at((key,), f"{name}.{key} must be {_describe_type(spec)}, got {shorten(value)}"))
    return out


def raise_errors(problems: List[Finding], field: str, path: PathT = ()) -> None:
    """Refuse the errors of ``problems`` (findings at a key below the object) as ``ConfigError`` at
    ``field``/``path`` + its key: the first, mentioning how many more, or, when building as written, each one
    (see :func:`~sm_debug_config.findings.refuse`)."""
    errors = [p for p in problems if p.severity == ERROR]
    if not errors:
        return

    def error(problem: Finding, more: str = "") -> ConfigError:
        below = ".".join(str(part) for part in problem.path)
        return ConfigError(problem.message + more, field=f"{field}.{below}" if below else field, code=problem.code,
                           path=(*path, *problem.path), fix=problem.fix.under(path) if problem.fix else None)

    if building_as_written():
        for problem in errors:
            refuse(error(problem))
        return
    others = "; ".join(p.message for p in errors[1:])
    more = "" if len(errors) == 1 else f" (and {len(errors) - 1} more: {others})"
    raise error(errors[0], more)


def warn(problems: List[Finding], path: PathT = (), owner: Any = None) -> None:
    """Report each warning of ``problems`` (its ``path``: ``path`` + the key, for config files) for ``owner``."""
    for problem in problems:
        if problem.severity == WARNING:
            report(problem.under(path), owner=owner)


# --- discovery --------------------------------------------------------------------------------


def list_rules(kind: Optional[str] = None, framework: Optional[str] = None) -> List[Dict[str, Any]]:
    """Built-in rules as ``{"name", "kind", "frameworks", "description"}``, filtered.

    >>> [r["name"] for r in list_rules(kind="debugger", framework="xgboost")][:3]
    ['AllZero', 'ClassImbalance', 'Confusion']
    """
    if kind is not None:
        kind = choice(kind, KINDS, "kind")
    framework = framework_name(framework)
    return [
        {"name": name, "kind": k, "frameworks": list(entry["frameworks"]), "description": entry["description"]}
        for k in ([kind] if kind else KINDS)
        for name, entry in rules(k).items()
        if not framework or framework in entry["frameworks"]
    ]


def framework_name(framework: Any) -> Optional[str]:
    """``framework`` in lower case, or ``None``; ``ConfigError`` for anything not in :data:`FRAMEWORKS`."""
    if framework is None:
        return None
    if not isinstance(framework, str):
        raise ConfigError(
            f"expected a string, got {type(framework).__name__}", field="framework", allowed=", ".join(FRAMEWORKS)
        )
    if framework.lower() not in FRAMEWORKS:
        raise ConfigError(
            f"unknown framework {shorten(framework.lower())}", field="framework", allowed=", ".join(FRAMEWORKS)
        )
    return framework.lower()


def by_function(name: Any) -> Optional[str]:
    """The catalogue name of the debugger rule whose ``rule_configs`` function is ``name``, else None.

    >>> by_function("vanishing_gradient")
    'VanishingGradient'
    """
    if not isinstance(name, str):
        return None
    return {entry["function"]: real for real, entry in rules("debugger").items() if entry.get("function")}.get(name)


def describe(name: str) -> Dict[str, Any]:
    """Everything about one built-in rule, named as the catalogue names it or by its ``rule_configs`` function
    (``vanishing_gradient``, the name people type): parameters table, default collections, frameworks."""
    name = by_function(name) or name
    kind, entry = find(name)
    real = canonical_name(name)
    params = [
        {
            "name": key,
            "type": spec.get("type"),
            "allowed": _describe_type(spec) if "<" not in key else spec.get("type_note", ""),
            "default": spec.get("default"),
            "doc_default": spec.get("doc_default"),
            "required": bool(spec.get("required")),
            "set_by": "SageMaker" if spec.get("service_set") else "user",
            "description": spec.get("description", ""),
        }
        for key, spec in entry["parameters"].items()
    ]
    out = {
        "name": real,
        "kind": kind,
        "description": entry["description"],
        "frameworks": list(entry["frameworks"]),
        "default_rule_parameters": default_rule_parameters(entry),
        "default_collections": default_collections(entry),
        "parameters": params,
    }
    if kind == "debugger":
        out["function"] = entry["function"]
    if entry.get("covered_rules"):
        out["covered_rules"] = list(entry["covered_rules"])
    if entry.get("notes"):
        out["notes"] = entry["notes"]
    return out


def format_description(info: Dict[str, Any]) -> str:
    """A plain-text page for ``describe`` output (used by ``sm-debug-config rules show``)."""
    if not isinstance(info, dict) or not all(key in info for key in ("name", "kind", "description", "frameworks")):
        raise ConfigError(
            "expected what describe() returns",
            field="info",
            allowed="a dict with name, kind, description and frameworks",
        )
    lines = [
        f"{info['name']} ({info['kind']} rule)",
        info["description"],
        "",
        "frameworks: " + ", ".join(info["frameworks"]),
    ]
    if info.get("function"):
        lines.append(f"python: rule_configs.{info['function']}()")
    if info["default_collections"]:
        lines.append("default collections:")
        for coll in info["default_collections"]:
            lines.append(f"  {coll['CollectionName']} {coll.get('CollectionParameters', {})}")
    lines.append("parameters:")
    width = max((len(p["name"]) for p in info["parameters"]), default=4)
    for p in info["parameters"]:
        default = "" if p["default"] is None else f" default {shorten(p['default'])}"
        if p["doc_default"] is not None and p["doc_default"] != p["default"]:
            default += f" (docs: {shorten(p['doc_default'])})"
        who = " [set by SageMaker]" if p["set_by"] == "SageMaker" else ""
        lines.append(f"  {p['name']:<{width}}  {p['allowed']}{default}{who}")
        if p["description"]:
            lines.append(f"  {'':<{width}}  {p['description']}")
    if info.get("covered_rules"):
        lines.append("customise covered rules with <RuleName>_<parameter> keys: " + ", ".join(info["covered_rules"]))
    if info.get("notes"):
        lines += ["", "notes: " + info["notes"]]
    return "\n".join(lines)


# --- ProfilerReport's keys (here, not in rule_configs, so that the model never imports rule_configs) ------------


def parameter_defaults(entry: Dict[str, Any]) -> Dict[str, Any]:
    """A profiler rule's constructor parameters and their defaults, in smdebug-rulesconfig's order."""
    defaults = entry.get("default_rule_parameters") or {}
    params = user_parameters(entry)
    names = [k for k in defaults if k != "rule_to_invoke"] or list(params)
    return {p: defaults.get(p, params.get(p, {}).get("default")) for p in names}


def coerce_value(spec: Dict[str, Any], value: Any) -> Any:
    """A numeric string as the number (so that ``str()`` renders it the same) for an integer or float parameter;
    others unchanged."""
    parse = {"integer": parse_int, "float": parse_float}.get(spec.get("type") or "")
    number = parse(value) if parse is not None and isinstance(value, str) else None
    return value if number is None else number


def profiler_report_keys() -> List[str]:
    """Every ``<RuleName>_<parameter>`` key ProfilerReport takes (what a did-you-mean and a rename choose from)."""
    profiler = rules("profiler")
    return [f"{r}_{p}" for r in profiler["ProfilerReport"]["covered_rules"] for p in parameter_defaults(profiler[r])]


def check_profiler_report(params: Dict[str, Any]) -> None:
    """Check ProfilerReport's ``<RuleName>_<parameter>`` keys: each names a rule the report covers and one of its
    parameters, and its value fits that parameter. ``ConfigError`` at ``ProfilerReport.<key>`` (path
    ``rule_parameters.<key>``) for the first bad one; warnings as the covered rule's class gives them.

    >>> check_profiler_report({"CPUBottleneck_threshold": 70})
    >>> check_profiler_report({"CPUBottleneck_treshold": 70})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sm_debug_config.errors.ConfigError: ProfilerReport.CPUBottleneck_treshold: CPUBottleneck has no parameter ...
    """
    if not params:  # the common case (every file with ``builtin: ProfilerReport``): nothing to look up
        return
    profiler = rules("profiler")
    covered = profiler["ProfilerReport"]["covered_rules"]
    by_lower = {r.lower(): r for r in covered}
    valid_keys = profiler_report_keys()
    for key, item in params.items():
        # the SDK's name for these keys: a config file writes them under rule_parameters
        text = key if isinstance(key, str) else shorten(key)
        where: Dict[str, Any] = {"field": f"ProfilerReport.{text}", "path": ("rule_parameters", key)}
        rule_part, _, param = key.partition("_") if isinstance(key, str) else ("", "", "")
        target = by_lower.get(rule_part.lower())
        if not param or target is None:
            why = "keys are <RuleName>_<parameter> for a rule the report covers"
            if key == "opt_out_telemetry":
                why = "opt_out_telemetry is not accepted by ProfilerReport (smdebug-rulesconfig 1.0.1 rejects it too)"
            hint = did_you_mean(key, valid_keys) if isinstance(key, str) else ""
            fix = rename_fix(where["path"], only_close(key, valid_keys), params) if isinstance(key, str) else None
            raise ConfigError(f"{shorten(key)}: {why};{hint or ''} covered rules: {', '.join(covered)}",
                              code=SMD120.code, fix=fix, **where)
        name = param.lower()
        if name not in parameter_defaults(profiler[target]):
            raise ConfigError(
                f"{target} has no parameter {shorten(param)};{did_you_mean(key, valid_keys) or ''} "
                "keys are <RuleName>_<parameter>",
                allowed=", ".join(k for k in valid_keys if k.startswith(target + "_")),
                code=SMD120.code,
                fix=rename_fix(where["path"], only_close(key, valid_keys), params),
                **where,
            )
        value = coerce_value(user_parameters(profiler[target]).get(name, {}), item)
        problems = check_parameters(target, {name: value})
        try:
            raise_errors(problems, target)
        except ConfigError as err:
            raise ConfigError(err.message, allowed=err.allowed, code=err.code, **where) from None
        # its warnings are the request's: the one pass finds them (validation.rules)
