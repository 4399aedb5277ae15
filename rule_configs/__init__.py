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
>>> CPUBottleneck(threshhold=70)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
sm_debug_config.errors.ConfigError: CPUBottleneck.threshhold: CPUBottleneck has no parameter 'threshhold';
    did you mean 'threshold' ... allowed: threshold, ...
"""
from __future__ import annotations

import functools
import inspect
from typing import Any, Callable, Dict, List, Optional

import attrs

from sm_debug_config import datafiles
from sm_debug_config.model import catalogue as _catalogue
from sm_debug_config.model import validators as v
from sm_debug_config.model.actions import SMS, Action, ActionList, Email, StopTraining, is_valid_action_object
from sm_debug_config.model.catalogue import describe, format_description, list_rules
from sm_debug_config.errors import ConfigError, did_you_mean, shorten

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


@attrs.frozen
class ProfilerRuleBase:
    """A built-in profiler rule's settings, one attrs field per rule parameter (``rule_parameters`` adds
    ``rule_to_invoke``, as smdebug-rulesconfig's objects); an unknown keyword is a ``ConfigError``,
    not a ``TypeError``."""

    def __new__(cls, *args: Any, **kwargs: Any) -> "ProfilerRuleBase":
        signature = cls.__dict__.get("__signature__")
        if signature is not None:
            name = cls.__name__
            for key in kwargs:
                if key not in signature.parameters:
                    raise ConfigError(
                        f"{name} has no parameter {shorten(key)};{did_you_mean(key, list(signature.parameters)) or ''} "
                        f"allowed: {', '.join(signature.parameters) or 'none'}",
                        field=f"{name}.{key}",
                        path=("rule_parameters", key),  # no attribute of that name: the map it would have gone to
                        code=_catalogue.SMD120.code,  # the code of an unknown rule parameter everywhere
                    )
            try:
                signature.bind(*args, **kwargs)
            except TypeError as err:
                raise ConfigError(
                    str(err),
                    field=name,
                    allowed=f"{name}{signature}",
                    path=(next(iter(signature.parameters), "rule_parameters"),),
                ) from None
        return super().__new__(cls)

    def __attrs_post_init__(self) -> None:
        """Check the parameters together (every error counted in the message); nothing is set here."""
        name = type(self).__name__
        problems = _catalogue.check_parameters(name, self._parameters())
        _catalogue.raise_errors(problems, name)  # its warnings are the request's, found by the one pass

    def _parameters(self) -> Dict[str, Any]:
        return {field.name: getattr(self, field.name) for field in attrs.fields(type(self))}

    @property
    def rule_name(self) -> str:
        return type(self).__name__

    @property
    def rule_parameters(self) -> Dict[str, Any]:
        return {**self._parameters(), "rule_to_invoke": type(self).__name__}


def _coerce(spec: Dict[str, Any]) -> Any:
    """Numeric strings become numbers (so ``str()`` renders them the same); others stay."""
    return functools.partial(_catalogue.coerce_value, spec)


def _make_profiler_class(name: str, entry: Dict[str, Any]) -> type:
    specs = _catalogue.user_parameters(entry)
    defaults = _catalogue.parameter_defaults(entry)
    signature = inspect.Signature(
        [inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=d) for p, d in defaults.items()]
    )
    body: Dict[str, Any] = {p: attrs.field(default=d, converter=_coerce(specs.get(p, {}))) for p, d in defaults.items()}
    body.update(
        {
            "__doc__": f"{entry['description']}\n\nParameters: {signature}",
            "__module__": __name__,
            "__signature__": signature,
        }
    )
    return attrs.frozen(type(name, (ProfilerRuleBase,), body))


def _covered_keys(instance: Any, attribute: Any, value: Any) -> None:
    """``<RuleName>_<parameter>`` keys of rules the report covers, each value valid for that rule."""
    if not isinstance(value, dict):
        v.fail(instance, attribute, f"expected keyword arguments, got {v.type_name(value)}")
    _catalogue.check_profiler_report(value)


@attrs.frozen(init=False)
class ProfilerReport(ProfilerRuleBase):
    """Runs the built-in profiling rules and writes the profiling report. Covered rules take ``<RuleName>_<parameter>``
    keys, e.g. ``ProfilerReport(CPUBottleneck_threshold=70)``, held in ``covered_rule_parameters``."""

    covered_rule_parameters: Dict[str, Any] = attrs.field(factory=dict, validator=_covered_keys, hash=False)

    def __init__(self, **rule_parameters: Any) -> None:  # the SDK's **kwargs, mapped onto the one field
        given = rule_parameters.pop("covered_rule_parameters", {})
        self.__attrs_init__({**given, **rule_parameters} if isinstance(given, dict) else given)

    def __attrs_post_init__(self) -> None:
        """The keys are checked by their validator."""

    def _parameters(self) -> Dict[str, Any]:
        return dict(self.covered_rule_parameters)


def get_collection(collection_name: str) -> Optional[Dict[str, Any]]:
    """The default collection config of that name, as ``smdebug_rulesconfig.get_collection``."""
    if not isinstance(collection_name, str):
        return None
    return _copy(datafiles.load_catalogue("collections")["collections"].get(collection_name))


def _copy(value: Any) -> Any:
    """A copy of JSON data (dicts, lists, scalars): what ``copy.deepcopy`` gives for it, at a fraction of the cost."""
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy(item) for item in value]
    return value


def _rule_function(entry: Dict[str, Any]) -> Callable[[], Dict[str, Any]]:
    def build() -> Dict[str, Any]:
        return _copy(entry["base_config"])  # a new dict per call: callers may change theirs

    build.__name__ = build.__qualname__ = entry["function"]
    build.__doc__ = (
        f"{entry['description']}\n\nReturns the base config for Rule.sagemaker (as smdebug-rulesconfig 1.0.1)."
    )
    build.__module__ = __name__
    return build


def _builders() -> Dict[str, Callable[[], Any]]:
    """How to build each generated public name: rule functions by their function name, profiler rule classes."""
    out: Dict[str, Callable[[], Any]] = {
        entry["function"]: functools.partial(_rule_function, entry) for entry in _catalogue.rules("debugger").values()
    }
    out.update(
        {
            name: functools.partial(_make_profiler_class, name, entry)
            for name, entry in _catalogue.rules("profiler").items()
        }
    )
    return out


def __getattr__(attr: str) -> Any:
    """Build rule functions and profiler classes from the data on first use."""
    build = _builders().get(attr)
    if build is None or attr == "ProfilerReport":
        raise AttributeError(f"module 'rule_configs' has no attribute {attr!r}")
    globals()[attr] = built = build()
    return built


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(_builders()))


__all__ += sorted(_builders())
