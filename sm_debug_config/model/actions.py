"""Rule actions (``StopTraining``, ``Email``, ``SMS``, ``ActionList``) and their ``action_json``.

Serialised exactly as smdebug-rulesconfig 1.0.1 does (``{\\"name\\": \\"email\\", ...}`` with
backslash-escaped quotes), so the rule container reads them as it reads the SDK's. Email
accepts real addresses (``first.last+tag@mail.example.co.uk``) that the SDK's regex refuses.
"""
from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Tuple

import attrs

from sm_debug_config.errors import ConfigError, shorten
from sm_debug_config.findings import SMDEBUG, WARNING, declare
from sm_debug_config.limits import json_loads
from sm_debug_config.model import validators as v
from sm_debug_config.model.validators import TRAINING_JOB_PREFIX_RE
from sm_debug_config.patterns import LazyPattern

SMD155 = declare(
    "SMD155", WARNING,
    "An action in action_json that the rule container skips (unknown name, missing or invalid endpoint or prefix).",
    f"{SMDEBUG} rules/action/action.py ActionList._register_actions logs and skips such an action; the rule runs, the "
    "action never happens (an SNS error on a bad endpoint is caught and logged by rules/action/message_action.py).")

ACTION_JSON_MAX = 256
_LOCAL = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
_DOMAIN = r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}"
EMAIL_RE = LazyPattern(rf"^{_LOCAL}@{_DOMAIN}$")
E164_RE = LazyPattern(r"^\+[1-9]\d{1,14}$")


def _prefix(instance: Any, attribute: Any, value: Any) -> None:
    if value is not None and (not isinstance(value, str) or not TRAINING_JOB_PREFIX_RE.match(value)):
        v.fail(
            instance,
            attribute,
            f"{shorten(value)} is not a training job name prefix",
            allowed="1-63 letters, digits and hyphens",
        )


def _endpoint(pattern: LazyPattern, allowed: str, what: str, sent: str) -> v.Validator:
    """An SNS endpoint: a string, else an error; one SNS refuses only warns (the rule runs on, nothing is sent)."""

    def check(instance: Any, attribute: Any, value: Any) -> None:
        if not isinstance(value, str):
            v.fail(instance, attribute, f"expected a string, got {v.type_name(value)}", allowed=allowed)
        if len(value) > 254 or not pattern.match(value):
            message = (
                f"{shorten(value)} is not {what}: SNS refuses it, the rule container logs the error and the rule runs "
                f"on, but no {sent} is sent"
            )
            v.warn(instance, attribute, message, SMD155)

    return check


@attrs.define(unsafe_hash=True, field_transformer=v.as_written_fields)
class Action:
    """Base of the rule actions; ``action_parameters`` is what is serialised, in that order."""

    @property
    def action_parameters(self) -> Dict[str, str]:
        return {"name": type(self).__name__.lower()}

    def _parameters_for(self, training_job_name: Optional[str]) -> Dict[str, str]:
        return self.action_parameters

    def serialize(self, training_job_name: Optional[str] = None) -> str:
        """The ``action_json`` form (``training_job_name`` fills a StopTraining without prefix)."""
        params = self._parameters_for(training_job_name)
        parts: List[Any] = ["{"]  # a value may be a pipeline variable (the job name in a pipeline): joined at run time
        for index, (key, value) in enumerate(params.items()):
            parts += [(", " if index else "") + f'\\"{key}\\": \\"', value, '\\"']
        return v.concat(parts + ["}"])

    def update_training_job_prefix_if_not_specified(self, training_job_name: str) -> None:
        """SDK-compatible no-op for actions other than StopTraining."""

    def __iter__(self) -> Iterator["Action"]:
        yield self


@attrs.define(unsafe_hash=True, field_transformer=v.as_written_fields)
class StopTraining(Action):
    """Stop the training job when the rule fires.

    Without ``training_job_prefix`` the job's own name is used (``job_name`` of ``render``).
    ``job_name`` records that name once known (as the SDK's Estimator fills it in), which
    serialises differently from the same text given as ``training_job_prefix``.

    >>> StopTraining("my-job").serialize()
    '{\\\\"training_job_prefix\\\\": \\\\"my-job\\\\", \\\\"name\\\\": \\\\"stoptraining\\\\"}'
    """

    training_job_prefix: Optional[str] = attrs.field(default=None, validator=_prefix)
    job_name: Optional[str] = attrs.field(
        default=None, kw_only=True, validator=_prefix, metadata={"filled_by_render": True}
    )

    @property
    def use_default_training_job_prefix(self) -> bool:
        return self.training_job_prefix is None

    @property
    def action_parameters(self) -> Dict[str, str]:
        if self.training_job_prefix is not None:
            return {"training_job_prefix": self.training_job_prefix, "name": "stoptraining"}
        return {"name": "stoptraining", **({"training_job_prefix": self.job_name} if self.job_name is not None else {})}

    def _parameters_for(self, training_job_name: Optional[str]) -> Dict[str, str]:
        params = self.action_parameters
        if "training_job_prefix" not in params:
            if training_job_name is None:
                raise ConfigError(
                    "StopTraining() without a training_job_prefix needs the job's name",
                    field="job_name",
                    allowed="pass job_name= to render, or StopTraining(training_job_prefix=...)",
                    path=("job_name",),
                )
            if not v.is_pipeline_variable(training_job_name) and not (
                isinstance(training_job_name, str) and TRAINING_JOB_PREFIX_RE.match(training_job_name)
            ):
                raise ConfigError(
                    f"{shorten(training_job_name)} is not a training job name",
                    field="job_name",
                    allowed="1-63 letters, digits and hyphens",
                    path=("job_name",),
                )
            params["training_job_prefix"] = training_job_name
        return params

    def update_training_job_prefix_if_not_specified(self, training_job_name: str) -> None:
        """SDK-compatible, and like the SDK's it changes this object: use ``attrs.evolve(action,
        job_name=...)`` for a copy."""
        if self.training_job_prefix is None:
            self.job_name = training_job_name


@attrs.define(unsafe_hash=True, field_transformer=v.as_written_fields)
class _Notification(Action):
    """A message through the SNS topic ``SMDebugRules`` when the rule fires; the one field is the endpoint."""

    @property
    def action_parameters(self) -> Dict[str, str]:
        return {"endpoint": getattr(self, attrs.fields(type(self))[0].name), "name": type(self).__name__.lower()}


@attrs.define(unsafe_hash=True, field_transformer=v.as_written_fields)
class Email(_Notification):
    """Send an email when the rule fires."""

    email_address: str = attrs.field(
        validator=_endpoint(EMAIL_RE, "an address like name@example.com", "an email address", "email")
    )


@attrs.define(unsafe_hash=True, field_transformer=v.as_written_fields)
class SMS(_Notification):
    """Send a text message when the rule fires."""

    phone_number: str = attrs.field(
        validator=_endpoint(
            E164_RE,
            "an E.164 number such as +14155550100",
            "an E.164 phone number ('+', country code and number, 2-15 digits)",
            "SMS",
        )
    )


def _actions(instance: Any, attribute: Any, value: Any) -> None:
    for index, action in enumerate(value):
        if not isinstance(action, Action):
            raise ConfigError(
                f"item {index} is {type(action).__name__}",
                field=f"ActionList[{index}]",
                allowed="StopTraining, Email or SMS objects",
                path=("actions", index),
            )


@attrs.define(init=False, unsafe_hash=True, field_transformer=v.as_written_fields)
class ActionList:
    """Several actions for one rule.

    ``ActionList(a, b)`` as in the SDK; ``ActionList(actions=(a, b))`` is the same (what
    ``attrs.evolve`` calls).

    >>> ActionList(StopTraining("job-a"), SMS("+14155550100")).serialize()[:2]
    '[{'
    """

    actions: Tuple[Action, ...] = attrs.field(validator=_actions)

    def __init__(self, *items: Action, actions: Any = ()) -> None:  # the SDK's varargs, mapped onto the one field
        self.__attrs_init__(items + (tuple(actions) if isinstance(actions, (list, tuple)) else (actions,)))

    def update_training_job_prefix_if_not_specified(self, training_job_name: str) -> None:
        """SDK-compatible: fills the job name into its StopTraining actions (which the SDK's changes in place too)."""
        for action in self.actions:
            action.update_training_job_prefix_if_not_specified(training_job_name)

    def serialize(self, training_job_name: Optional[str] = None) -> str:
        parts: List[Any] = ["["]
        for index, action in enumerate(self.actions):
            parts += [", "] * bool(index) + [action.serialize(training_job_name)]
        return v.concat(parts + ["]"])

    def __iter__(self) -> Iterator[Action]:
        return iter(self.actions)


def is_valid_action_object(actions: Any) -> bool:
    """True for an ``Action`` or ``ActionList`` (as ``smdebug_rulesconfig.is_valid_action_object``)."""
    return isinstance(actions, (Action, ActionList))


def coerce_actions(actions: Any, field: str = "Rule.actions") -> Any:
    """Our action objects from ours or smdebug-rulesconfig's; ``ConfigError`` (path ``("actions",)``)
    for anything else."""
    if actions is None or isinstance(actions, (Action, ActionList)):
        return actions
    if (type(actions).__module__ or "").startswith("smdebug_rulesconfig"):
        if hasattr(actions, "actions"):
            return ActionList(*(coerce_actions(a, field) for a in actions.actions))
        params = dict(getattr(actions, "action_parameters", {}))
        if getattr(actions, "use_default_training_job_prefix", False):
            params.pop("training_job_prefix", None)  # the job's name, filled in by the SDK's estimator
        built = _from_parameters(params, filled=False)
        if built is not None:
            return built
    raise ConfigError(
        f"got {type(actions).__name__}",
        field=field,
        allowed="an Action (StopTraining, Email, SMS) or an ActionList",
        path=("actions",),
    )


def rule_actions(value: Any) -> Any:
    """``Rule.actions`` converter: :func:`coerce_actions`, its errors placed under ``("actions",)``."""
    try:
        return coerce_actions(value)
    except ConfigError as err:
        raise (err if err.path[:1] == ("actions",) else err.under(("actions",))) from None


def _from_parameters(params: Dict[str, Any], filled: bool) -> Optional[Action]:
    """The action that serialises to ``params`` (``filled``: a StopTraining whose prefix is the job's name);
    else None."""
    kind = params.get("name")
    if kind == "stoptraining":
        prefix = params.get("training_job_prefix")
        return StopTraining(job_name=prefix) if filled else StopTraining(prefix)
    if kind in ("email", "sms") and "endpoint" in params:
        return (Email if kind == "email" else SMS)(params["endpoint"])
    return None


def parse_action_json(text: str, field: str = "action_json") -> Any:
    """Rebuild action objects from an ``action_json`` string (the inverse of ``serialize``)."""

    if not isinstance(text, str):  # e.g. a pipeline expression (a job name known at run time): nothing to parse here
        raise ConfigError(f"expected the serialised actions (a string), got {v.type_name(text)}", field=field)
    try:
        value = json_loads(text.replace('\\"', '"'), field=field)
    except ConfigError:
        raise
    except ValueError as err:
        raise ConfigError(f"is not the serialised form of rule actions: {err}", field=field) from None
    items = value if isinstance(value, list) else [value]
    built: List[Action] = []
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            raise ConfigError(f"action {index} is not an object", field=field)
        keys = list(item)
        # written by StopTraining() once the job name was filled in ("name" first): keep that form (and key order)
        filled = (
            item.get("name") == "stoptraining"
            and item.get("training_job_prefix") is not None
            and keys.index("name") < keys.index("training_job_prefix")
        )
        action = _from_parameters(item, filled)
        if action is None:
            raise ConfigError(
                f"action {index} {shorten(item)} is not stoptraining, email or sms with its fields", field=field
            )
        built.append(action)
    return built[0] if not isinstance(value, list) else ActionList(*built)
