"""Rule actions (``StopTraining``, ``Email``, ``SMS``, ``ActionList``) and their ``action_json``.

Serialised exactly as smdebug-rulesconfig 1.0.1 does (``{\\"name\\": \\"email\\", ...}`` with
backslash-escaped quotes), so the rule container reads them as it reads the SDK's. Email
accepts real addresses (``first.last+tag@mail.example.co.uk``) that the SDK's regex refuses.
"""
from __future__ import annotations

import re
from typing import Any, Dict, Iterator, Optional, Tuple

from sm_debug_config.errors import ConfigError

ACTION_JSON_MAX = 256
TRAINING_JOB_PREFIX_RE = re.compile(r"^[A-Za-z0-9\-]{1,63}$")
_LOCAL = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
_DOMAIN = r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}"
EMAIL_RE = re.compile(rf"^{_LOCAL}@{_DOMAIN}$")
E164_RE = re.compile(r"^\+[1-9]\d{1,14}$")


class Action:
    """Base of the rule actions; ``action_parameters`` holds what is serialised."""

    def __init__(self, **action_parameters: Optional[str]) -> None:
        action_parameters["name"] = type(self).__name__.lower()
        self.action_parameters: Dict[str, str] = {k: val for k, val in action_parameters.items() if val is not None}

    def _parameters_for(self, training_job_name: Optional[str]) -> Dict[str, str]:
        return dict(self.action_parameters)

    def serialize(self, training_job_name: Optional[str] = None) -> str:
        """The ``action_json`` form (``training_job_name`` fills a StopTraining without prefix)."""
        params = self._parameters_for(training_job_name)
        return "{" + ", ".join(f'\\"{key}\\": \\"{value}\\"' for key, value in params.items()) + "}"

    def update_training_job_prefix_if_not_specified(self, training_job_name: str) -> None:
        """SDK-compatible no-op for actions other than StopTraining."""

    def __iter__(self) -> Iterator["Action"]:
        yield self

    def __eq__(self, other: object) -> bool:
        # order matters: it is part of the serialised form
        return type(self) is type(other) and list(self.action_parameters.items()) == list(other.action_parameters.items())  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__, tuple(self.action_parameters.items())))

    def __repr__(self) -> str:
        shown = {k: val for k, val in self.action_parameters.items() if k != "name"}
        return f"{type(self).__name__}({', '.join(f'{k}={val!r}' for k, val in shown.items())})"


class StopTraining(Action):
    """Stop the training job when the rule fires.

    Without ``training_job_prefix`` the job's own name is used (``job_name`` of ``render``).

    >>> StopTraining("my-job").serialize()
    '{\\\\"training_job_prefix\\\\": \\\\"my-job\\\\", \\\\"name\\\\": \\\\"stoptraining\\\\"}'
    """

    def __init__(self, training_job_prefix: Optional[str] = None) -> None:
        self.use_default_training_job_prefix = training_job_prefix is None
        if training_job_prefix is not None:
            if not isinstance(training_job_prefix, str) or not TRAINING_JOB_PREFIX_RE.match(training_job_prefix):
                raise ConfigError(
                    f"{training_job_prefix!r} is not a training job name prefix",
                    field="StopTraining.training_job_prefix",
                    allowed="1-63 letters, digits and hyphens",
                )
        super().__init__(training_job_prefix=training_job_prefix)

    def _parameters_for(self, training_job_name: Optional[str]) -> Dict[str, str]:
        params = dict(self.action_parameters)
        if self.use_default_training_job_prefix and "training_job_prefix" not in params:
            if training_job_name is None:
                raise ConfigError(
                    "StopTraining() without a training_job_prefix needs the job's name",
                    field="job_name",
                    allowed="pass job_name= to render, or StopTraining(training_job_prefix=...)",
                )
            if not TRAINING_JOB_PREFIX_RE.match(training_job_name):
                raise ConfigError(f"{training_job_name!r} is not a training job name", field="job_name", allowed="1-63 letters, digits and hyphens")
            params["training_job_prefix"] = training_job_name
        return params

    def update_training_job_prefix_if_not_specified(self, training_job_name: str) -> None:
        """SDK-compatible: fix the prefix to ``training_job_name`` if none was given."""
        if self.use_default_training_job_prefix:
            self.action_parameters["training_job_prefix"] = training_job_name


class Email(Action):
    """Send an email through the SNS topic ``SMDebugRules`` when the rule fires."""

    def __init__(self, email_address: str) -> None:
        if not isinstance(email_address, str) or len(email_address) > 254 or not EMAIL_RE.match(email_address):
            raise ConfigError(
                f"{email_address!r} is not an email address",
                field="Email.email_address",
                allowed="an address like name@example.com",
            )
        super().__init__(endpoint=email_address)


class SMS(Action):
    """Send a text message through the SNS topic ``SMDebugRules`` when the rule fires."""

    def __init__(self, phone_number: str) -> None:
        if not isinstance(phone_number, str) or not E164_RE.match(phone_number):
            raise ConfigError(
                f"{phone_number!r} is not an E.164 phone number",
                field="SMS.phone_number",
                allowed="'+' then the country code and number, 2-15 digits, no spaces (e.g. +14155550100)",
            )
        super().__init__(endpoint=phone_number)


class ActionList:
    """Several actions for one rule.

    >>> ActionList(StopTraining("job-a"), SMS("+14155550100")).serialize()[:2]
    '[{'
    """

    def __init__(self, *actions: Action) -> None:
        for index, action in enumerate(actions):
            if not isinstance(action, Action):
                raise ConfigError(f"item {index} is {type(action).__name__}", field=f"ActionList[{index}]", allowed="StopTraining, Email or SMS objects")
        self.actions: Tuple[Action, ...] = tuple(actions)

    def update_training_job_prefix_if_not_specified(self, training_job_name: str) -> None:
        for action in self.actions:
            action.update_training_job_prefix_if_not_specified(training_job_name)

    def serialize(self, training_job_name: Optional[str] = None) -> str:
        return "[" + ", ".join(a.serialize(training_job_name) for a in self.actions) + "]"

    def __iter__(self) -> Iterator[Action]:
        return iter(self.actions)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ActionList) and self.actions == other.actions

    def __hash__(self) -> int:
        return hash(self.actions)

    def __repr__(self) -> str:
        return f"ActionList({', '.join(map(repr, self.actions))})"


def is_valid_action_object(actions: Any) -> bool:
    """True for an ``Action`` or ``ActionList`` (as ``smdebug_rulesconfig.is_valid_action_object``)."""
    return isinstance(actions, (Action, ActionList))


def coerce_actions(actions: Any, field: str) -> Any:
    """Our action objects from ours or smdebug-rulesconfig's; ``ConfigError`` for anything else."""
    if actions is None or isinstance(actions, (Action, ActionList)):
        return actions
    module = type(actions).__module__ or ""
    if module.startswith("smdebug_rulesconfig"):
        if hasattr(actions, "actions"):
            return ActionList(*(coerce_actions(a, field) for a in actions.actions))
        params = dict(getattr(actions, "action_parameters", {}))
        kind = params.get("name")
        if kind == "stoptraining":
            if getattr(actions, "use_default_training_job_prefix", False):
                return StopTraining()
            return StopTraining(params.get("training_job_prefix"))
        if kind == "email":
            return Email(params["endpoint"])
        if kind == "sms":
            return SMS(params["endpoint"])
    raise ConfigError(f"got {type(actions).__name__}", field=field, allowed="an Action (StopTraining, Email, SMS) or an ActionList")


def parse_action_json(text: str, field: str = "action_json") -> Any:
    """Rebuild action objects from an ``action_json`` string (the inverse of ``serialize``)."""
    import json

    try:
        value = json.loads(text.replace('\\"', '"'))
    except ValueError as err:
        raise ConfigError(f"is not the serialised form of rule actions: {err}", field=field) from None
    items = value if isinstance(value, list) else [value]
    built = []
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            raise ConfigError(f"action {index} is not an object", field=field)
        name = item.get("name")
        if name == "stoptraining":
            keys = list(item)
            prefix = item.get("training_job_prefix")
            if prefix is not None and keys.index("name") < keys.index("training_job_prefix"):
                # written by StopTraining() once the job name was filled in: keep that form (and key order)
                action = StopTraining()
                action.update_training_job_prefix_if_not_specified(prefix)
                built.append(action)
            else:
                built.append(StopTraining(prefix))
        elif name == "email" and "endpoint" in item:
            built.append(Email(item["endpoint"]))
        elif name == "sms" and "endpoint" in item:
            built.append(SMS(item["endpoint"]))
        else:
            raise ConfigError(f"action {index} {item!r} is not stoptraining, email or sms with its fields", field=field)
    return built[0] if not isinstance(value, list) else ActionList(*built)
