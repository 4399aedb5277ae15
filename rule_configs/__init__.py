"""The built-in SageMaker Debugger rule catalogue, as data.

Use it exactly like ``smdebug_rulesconfig`` (which ``sagemaker.debugger.rule_configs`` is):
``vanishing_gradient()`` ... ``create_xgboost_report()`` return the same dicts, and
``ProfilerReport(...)``, ``CPUBottleneck(threshold=...)`` the same objects. Unlike it, every
parameter is checked against the rule's schema when the rule is built.

>>> from rule_configs import vanishing_gradient, CPUBottleneck
>>> vanishing_gradient()["DebugRuleConfiguration"]["RuleConfigurationName"]
'VanishingGradient'
>>> CPUBottleneck(threshold=70).rule_parameters["threshold"]
70
>>> CPUBottleneck(threshhold=70)
Traceback (most recent call last):
...
sm_debug_config.errors.ConfigError: CPUBottleneck.threshhold: CPUBottleneck has no parameter 'threshhold'; did you mean 'threshold'? ...
"""
from __future__ import annotations

import copy
import inspect
from typing import Any, Dict, List, Optional

from sm_debug_config.model import catalogue as _catalogue
from sm_debug_config.model.actions import SMS, Action, ActionList, Email, StopTraining, is_valid_action_object
from sm_debug_config.model.catalogue import describe, format_description, list_rules
from sm_debug_config.errors import ConfigError, did_you_mean

__all__ = [
    "Action",
    "ActionList",
    "Email",
    "SMS",
    "StopTraining",
    "ProfilerRuleBase",
    "describe",
    "format_description",
    "get_collection",
    "is_valid_action_object",
    "list_rules",
]


class ProfilerRuleBase:
    """A built-in profiler rule's settings: ``rule_name`` and ``rule_parameters``."""

    rule_name: str
    rule_parameters: Dict[str, Any]

    def __init__(self, **rule_parameters: Any) -> None:
        self.rule_name = type(self).__name__
        rule_parameters["rule_to_invoke"] = type(self).__name__
        self.rule_parameters = rule_parameters

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self.rule_parameters == other.rule_parameters  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.rule_name, tuple(sorted((k, str(v)) for k, v in self.rule_parameters.items()))))

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.rule_parameters.items() if k != "rule_to_invoke")
        return f"{self.rule_name}({shown})"


def _coerce(spec: Dict[str, Any], value: Any) -> Any:
    """Numeric strings become numbers (so ``str()`` renders them the same); others stay."""
    if isinstance(value, str) and spec.get("type") in ("integer", "float"):
        from sm_debug_config.model.validators import parse_float, parse_int

        number = parse_int(value) if spec["type"] == "integer" else parse_float(value)
        return value if number is None else number
    return value


def _signature(name: str, entry: Dict[str, Any]) -> inspect.Signature:
    defaults = entry.get("default_rule_parameters") or {}
    names = [k for k in defaults if k != "rule_to_invoke"] or list(_catalogue.user_parameters(entry))
    params = _catalogue.user_parameters(entry)
    return inspect.Signature(
        [
            inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=defaults.get(p, params.get(p, {}).get("default")))
            for p in names
        ]
    )


def _make_profiler_class(name: str, entry: Dict[str, Any]) -> type:
    signature = _signature(name, entry)
    specs = _catalogue.user_parameters(entry)

    def __init__(self: ProfilerRuleBase, *args: Any, **kwargs: Any) -> None:
        unknown = [k for k in kwargs if k not in signature.parameters]
        if unknown:
            key = unknown[0]
            raise ConfigError(
                f"{name} has no parameter {key!r};{did_you_mean(key, list(signature.parameters)) or ''} allowed: {', '.join(signature.parameters) or 'none'}",
                field=f"{name}.{key}",
            )
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as err:
            raise ConfigError(str(err), field=name, allowed=f"{name}{signature}") from None
        bound.apply_defaults()
        values = {k: _coerce(specs.get(k, {}), val) for k, val in bound.arguments.items()}
        problems = _catalogue.check_parameters(name, values)
        _catalogue.raise_errors(problems, name)
        ProfilerRuleBase.__init__(self, **values)

    __init__.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] + list(signature.parameters.values())
    )
    doc = f"{entry['description']}\n\nParameters: {signature}"
    return type(name, (ProfilerRuleBase,), {"__init__": __init__, "__doc__": doc, "__module__": __name__, "__signature__": signature})


class ProfilerReport(ProfilerRuleBase):
    """Runs the built-in profiling rules and writes the profiling report.

    Customise a covered rule with ``<RuleName>_<parameter>`` keys, e.g.
    ``ProfilerReport(CPUBottleneck_threshold=70)``; other keys are rejected with a suggestion.
    """

    def __init__(self, **rule_parameters: Any) -> None:
        entry = _catalogue.rules("profiler")["ProfilerReport"]
        covered = entry["covered_rules"]
        by_lower = {r.lower(): r for r in covered}
        valid_keys = [f"{r}_{p}" for r in covered for p in _signature(r, _catalogue.rules("profiler")[r]).parameters]
        for key, value in rule_parameters.items():
            rule_part, _, param = key.partition("_")
            target = by_lower.get(rule_part.lower())
            if not param or target is None:
                why = "keys are <RuleName>_<parameter> for a rule the report covers"
                if key == "opt_out_telemetry":
                    why = "opt_out_telemetry is not accepted by ProfilerReport (smdebug-rulesconfig 1.0.1 rejects it too)"
                raise ConfigError(
                    f"{key!r}: {why};{did_you_mean(key, valid_keys) or ''} covered rules: {', '.join(covered)}",
                    field=f"ProfilerReport.{key}",
                )
            cls = globals().get(target) or __getattr__(target)
            if param.lower() not in inspect.signature(cls).parameters:
                raise ConfigError(
                    f"{target} has no parameter {param!r};{did_you_mean(key, valid_keys) or ''} keys are <RuleName>_<parameter>",
                    field=f"ProfilerReport.{key}",
                    allowed=", ".join(k for k in valid_keys if k.startswith(target + "_")),
                )
            try:
                cls(**{param.lower(): value})
            except ConfigError as err:
                raise ConfigError(err.message, field=f"ProfilerReport.{key}", allowed=err.allowed) from None
        super().__init__(**rule_parameters)


def get_collection(collection_name: str) -> Optional[Dict[str, Any]]:
    """The default collection config of that name, as ``smdebug_rulesconfig.get_collection``."""
    from sm_debug_config import datafiles as data
    import json
    import os

    with open(os.path.join(data.CATALOGUE_DIR, "collections.json"), encoding="utf-8") as handle:
        table = json.load(handle)["collections"]
    found = table.get(collection_name)
    return copy.deepcopy(found) if found is not None else None


def _rule_function(name: str, entry: Dict[str, Any]):
    def build() -> Dict[str, Any]:
        return copy.deepcopy(entry["base_config"])

    build.__name__ = build.__qualname__ = entry["function"]
    build.__doc__ = f"{entry['description']}\n\nReturns the base config for Rule.sagemaker (as smdebug-rulesconfig 1.0.1)."
    build.__module__ = __name__
    return build


def _public_names() -> List[str]:
    names = [e["function"] for e in _catalogue.rules("debugger").values()]
    names += [n for n in _catalogue.rules("profiler")]
    return names


def __getattr__(attr: str) -> Any:
    """Build rule functions and profiler classes from the data on first use."""
    for name, entry in _catalogue.rules("debugger").items():
        if entry["function"] == attr:
            built = _rule_function(name, entry)
            globals()[attr] = built
            return built
    entry = _catalogue.rules("profiler").get(attr)
    if entry is not None and attr != "ProfilerReport":
        built = _make_profiler_class(attr, entry)
        globals()[attr] = built
        return built
    raise AttributeError(f"module 'rule_configs' has no attribute {attr!r}")


def __dir__() -> List[str]:
    return sorted(set(list(globals()) + _public_names()))


__all__ += sorted(set(_public_names()))
