"""``dump``: objects back to the config mapping that loads to them (the inverse of ``loads``).

Objects are written by the format description (:mod:`.format`), leaving out what equals the
class's default. A rule is written as ``builtin:`` (parameters that differ from the catalogue's
defaults) or ``custom:`` when loading that entry gives the rule back, else exactly (``rule:`` /
``profiler_rule:``).
"""
from __future__ import annotations

import enum
from typing import Any, Dict, List, Optional, Sequence, Tuple

import attrs

from sm_debug_config.configfile import format as fmt
from sm_debug_config.configfile.jsonparse import nodes_of
from sm_debug_config.configfile.parse import MAX_DEPTH
from sm_debug_config.configfile.read import Reader
from sm_debug_config.errors import ConfigError, format_path, shorten
from sm_debug_config.model import catalogue
from sm_debug_config.model import validators as v
from sm_debug_config.model.actions import SMS, ActionList, Email, StopTraining
from sm_debug_config.model.profiler import MetricsConfigBase
from sm_debug_config.model.rules import ProfilerRule, Rule
from sm_debug_config.model.settings import DebuggerSetup, JobSettings


def dump(
    rules: Optional[Sequence[Any]] = None,
    debugger_hook_config: Any = None,
    profiler_config: Any = None,
    tensorboard_output_config: Any = None,
    disable_profiler: bool = False,
    **settings: Any,
) -> Dict[str, Any]:
    """The config mapping (plain data, fixed key order) for ``render``'s keyword arguments:
    the inverse of ``loads(...).render_kwargs()``.

    >>> from sm_debug_config import Rule, rule_configs
    >>> dump([Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"threshold": 0.0001})],
    ...      region="us-east-1")
    {'region': 'us-east-1', 'rules': [{'builtin': 'VanishingGradient', 'rule_parameters': {'threshold': 0.0001}}]}
    """
    # fields set past the validators: refused here, before the walks below (and the reload) trust them
    v.revalidate(rules, debugger_hook_config, profiler_config, tensorboard_output_config, depth=True)
    values = dict(settings, rules=rules, debugger_hook_config=debugger_hook_config, profiler_config=profiler_config,
                  tensorboard_output_config=tensorboard_output_config, disable_profiler=disable_profiler)
    defaults = {f.name: f.default for cls in (JobSettings, DebuggerSetup) for f in attrs.fields(cls)}
    unknown = [k for k in settings if k not in JobSettings.names() or k in fmt.NOT_IN_FILES]
    if unknown:
        raise TypeError(f"dump() got an unexpected keyword argument {unknown[0]!r}")
    out: Dict[str, Any] = {}
    for key in fmt.formats()["config"].keys.values():
        value = values.get(key.name, defaults.get(key.name))
        if value is not None and not _same(value, defaults.get(key.name)):
            out[key.name] = _value(value, key.kind, (key.name,))
    _check_plain(out, ())
    return out


to_config = dump


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _value(value: Any, kind: str, path: Tuple[Any, ...]) -> Any:
    """``value`` of a key of value kind ``kind`` as plain data."""
    if kind == "debugger_hook_config" and (isinstance(value, bool) or value == {}):
        return value
    if kind == "rules":
        if not isinstance(value, (list, tuple)):
            raise ConfigError(f"expected a list of rules, got {v.type_name(value)}", field="rules")
        return [_dump_rule(rule, index) for index, rule in enumerate(value)]
    if kind == "collections":
        return [_object(c, "collection", path + (i,)) for i, c in enumerate(value)]
    if kind == "actions":
        return _actions(value, path)
    if kind == "int_or_string":
        number = v.parse_int(value)
        return number if number is not None and str(number) == value else value
    if kind in fmt.formats():
        return _object(value, kind, path)
    if isinstance(value, dict):  # hook_parameters, collection_parameters, string_map
        return dict(value)
    return value.value if isinstance(value, enum.Enum) else value  # a choice: its name


def _object(obj: Any, name: str, path: Tuple[Any, ...]) -> Dict[str, Any]:
    """An attrs object as the keys of format ``name`` whose attributes (as given) differ from the class's defaults."""

    form = fmt.formats()[name]
    cls = form.build_class()
    if not isinstance(obj, cls):
        raise ConfigError(f"got {v.type_name(obj)}", field=format_path(path), allowed=f"a {cls.__name__} object")
    override = getattr(obj, "_override", None)
    if override is not None:  # FrameworkProfile with its ProfilingParameters set as a whole
        return {"profiling_parameters": dict(override)}
    out: Dict[str, Any] = {}
    if isinstance(obj, MetricsConfigBase):  # the window it means (range), not the arguments that gave it
        window = {"profile_default_steps": True} if obj.profile_default_steps else attrs.asdict(obj.range)
        out = {**dict.fromkeys(fmt.formats()["DetailedProfilingConfig"].keys), **window}
    fields = {f.alias: f for f in attrs.fields(cls) if f.init}
    for key in form.keys.values():
        field = fields.get(key.name)
        if field is not None and key.name not in out:
            value = getattr(obj, field.name)
            if value is not None and not _same(value, field.default):
                out[key.name] = _value(value, key.kind, path + (key.name,))
    return {k: val for k, val in out.items() if val is not None}


def _actions(actions: Any, path: Tuple[Any, ...]) -> Any:

    def one(action: Any) -> Dict[str, Any]:
        if isinstance(action, StopTraining):
            return {"stop_training": _object(action, "stop_training", path)}
        if isinstance(action, (Email, SMS)):
            return {type(action).__name__.lower(): action.action_parameters["endpoint"]}
        raise ConfigError(f"got {v.type_name(action)}", field=format_path(path), allowed="StopTraining, Email or SMS")

    return [one(a) for a in actions.actions] if isinstance(actions, ActionList) else one(actions)


def _check_plain(value: Any, path: Tuple[Any, ...]) -> None:
    """``value`` is plain data a config file can hold: walked with a stack (no recursion, so any depth
    is an answer), refused past ``MAX_DEPTH`` levels as the reader would refuse it."""
    stack: List[Tuple[Any, Tuple[Any, ...]]] = [(value, path)]
    while stack:
        value, path = stack.pop()
        field = format_path(path) or "config"
        if v.is_pipeline_variable(value):
            raise ConfigError(
                "a SageMaker Pipelines variable cannot be written to a config file",
                field=field,
                allowed="plain strings, numbers and booleans",
            )
        if isinstance(value, (dict, list)) and len(path) >= MAX_DEPTH:
            raise ConfigError(
                f"lists and mappings are nested more than {MAX_DEPTH} deep", field=format_path(path[:MAX_DEPTH])
            )
        if isinstance(value, dict):
            for key in value:
                if not isinstance(key, str):
                    raise ConfigError(f"key {shorten(key)} is not a string", field=field)
            stack.extend((item, path + (key,)) for key, item in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend((item, path + (index,)) for index, item in reversed(list(enumerate(value))))
        elif value is not None and not isinstance(value, (str, int, float, bool)):
            raise ConfigError(
                f"{type(value).__name__} cannot be written to a config file",
                field=field,
                allowed="plain strings, numbers and booleans",
            )


# --- rules -------------------------------------------------------------------------------------


def _dump_rule(rule: Any, index: int) -> Dict[str, Any]:
    """The rule's ``builtin:``/``custom:`` entry if loading it gives back an equal rule, else its exact entry."""

    path = ("rules", index)
    if not isinstance(rule, (Rule, ProfilerRule)):
        raise ConfigError(f"got {v.type_name(rule)}", field=format_path(path), allowed="Rule or ProfilerRule objects")
    try:
        entry = (_debugger_rule if isinstance(rule, Rule) else _profiler_rule)(rule, path)
        rebuilt = Reader("<dump>").rule(nodes_of(entry, "<dump>"), ("rules", 0))  # its findings kept, not warned
        if type(rebuilt) is type(rule) and rebuilt == rule:
            return entry
    except (ConfigError, TypeError, ValueError):
        pass  # it does not load back: written exactly
    return _exact_rule(rule, path)


def _fields(
    rule: Any, keys: Sequence[str], path: Tuple[Any, ...], form: str = "builtin_rule", exact: bool = False
) -> Dict[str, Any]:
    """The rule's attributes under ``keys`` of format ``form`` as plain data (collections_to_save: collection_configs),
    None left out, and an empty collections_to_save too unless ``exact`` (an exact entry keeps [], which the
    constructor stores as given: None and [] are unequal rules)."""
    kinds = fmt.formats()[form].keys
    out: Dict[str, Any] = {}
    for key in keys:
        value = getattr(rule, "collection_configs" if key == "collections_to_save" else key, None)
        if value is not None and (value or exact or key != "collections_to_save"):
            out[key] = _value(value, kinds[key].kind, path + (key,))
    return out


def _parameters(rule: Any) -> Dict[str, Any]:
    """The rule's parameters but ``action_json`` (render writes it from ``actions``)."""
    return {k: val for k, val in (rule.rule_parameters or {}).items() if k != "action_json"}


def _exact_rule(rule: Any, path: Tuple[Any, ...]) -> Dict[str, Any]:

    kind = "rule" if isinstance(rule, Rule) else "profiler_rule"
    name = fmt.rule_entries()[kind]
    entry = _fields(rule, list(fmt.formats()[name].keys), path, name, exact=True)
    if "rule_parameters" in entry:
        entry["rule_parameters"] = _parameters(rule)
    return {kind: entry}


def _split_parameters(
    params: Dict[str, Any], custom: bool
) -> Tuple[List[Any], Optional[Any], Optional[Any], Dict[str, Any]]:
    """``(other_trials, source, rule_to_invoke, rest)`` of a rule's merged parameters,
    as the constructors laid them out."""
    items = list(params.items())
    trials: List[Any] = []
    while len(trials) < len(items) and items[len(trials)][0] == f"other_trial_{len(trials)}":
        trials.append(items[len(trials)][1])
    rest = items[len(trials):]
    fixed = [val for (key, val), name in zip(rest, ("source_s3_uri", "rule_to_invoke")) if key == name and val]
    if custom and len(fixed) == 2:
        return trials, fixed[0], fixed[1], dict(rest[2:])
    return trials, None, None, dict(rest)


def _custom(rule: Any, path: Tuple[Any, ...], name: str) -> Dict[str, Any]:
    """A ``custom:``/``custom_profiler:`` entry of a rule built by ``.custom(...)``."""
    form = fmt.formats()[fmt.rule_entries()[name]]
    trials, source, invoke, rest = _split_parameters(_parameters(rule), custom=True)
    if "other_trials_s3_input_paths" not in form.keys:  # other_trial_N keys given as parameters stay parameters
        trials, rest = [], {**{f"other_trial_{i}": t for i, t in enumerate(trials)}, **rest}
    given = dict(_fields(rule, list(form.keys), path + (name,), form.name), source=source, rule_to_invoke=invoke,
                 other_trials_s3_input_paths=trials or None, rule_parameters=rest or None)
    return {name: {k: given[k] for k in form.keys if given.get(k) is not None}}


_NUMBER_PARSERS: Dict[Any, Tuple[Any, ...]] = {  # a parameter's catalogue type -> what its strings may be the text of
    "integer": (v.parse_int,),
    "float": (v.parse_int, v.parse_float),
    "number": (v.parse_int, v.parse_float),
}


def _pretty_parameter(spec: Optional[Dict[str, Any]], value: Any) -> Any:
    """A stored parameter string as the number/boolean it was, when that renders to the same string."""
    if not isinstance(value, str) or not spec:
        return value
    for parse in _NUMBER_PARSERS.get(spec.get("type"), ()):
        number = parse(value)
        if number is not None and str(number) == value:
            return number
    return value == "True" if spec.get("type") == "boolean" and value in ("True", "False") else value


def _catalogue_name(name: Any, kind: str) -> Optional[str]:
    if not isinstance(name, str):
        return None
    try:
        found, _entry = catalogue.find(name)
    except ConfigError:
        return None
    return catalogue.canonical_name(name) if found == kind else None


def _debugger_rule(rule: Any, path: Tuple[Any, ...]) -> Dict[str, Any]:
    if not rule.is_builtin:
        return _custom(rule, path, "custom")
    trials, _source, _invoke, rest = _split_parameters(_parameters(rule), custom=False)
    builtin = rule.builtin_rule or _catalogue_name(rest.get("rule_to_invoke"), "debugger")
    if builtin is not None:
        spec = catalogue.find(builtin)[1]
        defaults, specs = catalogue.default_rule_parameters(spec), catalogue.user_parameters(spec)
        default_name = spec["base_config"]["DebugRuleConfiguration"]["RuleConfigurationName"]
    else:  # a rule newer than the catalogue (written with allow_unknown_parameters)
        builtin = rest.get("rule_to_invoke") or rule.name
        defaults, specs, default_name = {"rule_to_invoke": builtin}, {}, builtin
    rest = {k: val for k, val in rest.items() if not (k in defaults and val == defaults[k])}
    entry: Dict[str, Any] = {"builtin": builtin}
    if rule.name != default_name:
        entry["name"] = rule.name
    if rest:
        entry["rule_parameters"] = {k: _pretty_parameter(specs.get(k), val) for k, val in rest.items()}
    if not rule.uses_default_collections:
        entry["collections_to_save"] = _value(
            rule.collection_configs or [], "collections", path + ("collections_to_save",)
        )
    if rule.actions is not None:
        entry["actions"] = _actions(rule.actions, path + ("actions",))
    if trials:
        entry["other_trials_s3_input_paths"] = trials
    if rule.builtin_rule is None and _catalogue_name(entry["builtin"], "debugger") is None:
        entry["allow_unknown_parameters"] = True
    entry.update(_fields(rule, ("container_local_output_path", "s3_output_path"), path))
    return entry


def _profiler_rule(rule: Any, path: Tuple[Any, ...]) -> Dict[str, Any]:
    if not rule.is_builtin:
        return _custom(rule, path, "custom_profiler")
    params = dict(rule.rule_parameters or {})
    invoked = params.pop("rule_to_invoke", None)
    builtin = rule.builtin_rule or _catalogue_name(invoked, "profiler")
    form = fmt.formats()["builtin_rule"]
    places = [k for k, key in list(form.keys.items())[3:] if key.only != "debugger"]  # after builtin, name, parameters
    if builtin is None:  # the detailed profiler's rule (any other does not load back: written exactly)
        builtin, params, places = fmt.DETAILED_PROFILER_RULE, {}, fmt.detailed_profiler_keys()[2:]
    elif builtin != "ProfilerReport":
        defaults = catalogue.default_rule_parameters(catalogue.find(builtin)[1])
        params = {k: val for k, val in params.items() if not (k in defaults and _same(val, defaults[k]))}
    entry: Dict[str, Any] = {"builtin": builtin}
    if rule.name != builtin:
        entry["name"] = rule.name
    if params:
        entry["rule_parameters"] = params
    return {**entry, **_fields(rule, places, path)}
