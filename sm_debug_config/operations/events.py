"""React to Debugger rule findings through EventBridge: the rule pattern and a Lambda handler.

EventBridge matches each field of a pattern against *any* element of an array of objects, so the
pattern is a coarse filter and the handler re-checks every rule itself (docs/rule-status.md).
"""
from __future__ import annotations

import _thread  # the lock without importing threading (import time)

import contextvars
import json
import logging
import os
import re
import reprlib
import sys
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

import attrs

from sm_debug_config.errors import ConfigError, did_you_mean, shorten
from sm_debug_config.model import regions
from sm_debug_config.model.validators import JOB_NAME_RE

EVENT_SOURCE = "aws.sagemaker"
EVENT_DETAIL_TYPE = "SageMaker Training Job State Change"

#: The values of ``RuleEvaluationStatus`` (SageMaker API enum).
RULE_EVALUATION_STATUSES: Tuple[str, ...] = (
    "InProgress",
    "NoIssuesFound",
    "IssuesFound",
    "Error",
    "Stopping",
    "Stopped",
)
#: The values of ``TrainingJobStatus`` (SageMaker API enum).
TRAINING_JOB_STATUSES: Tuple[str, ...] = ("InProgress", "Completed", "Failed", "Stopping", "Stopped")
#: EventBridge's limit on ``PutRule``'s ``EventPattern`` (botocore's service model).
EVENT_PATTERN_MAX_CHARS = 2048

#: Where a DescribeTrainingJob response (and an event's ``detail``) lists each kind of rule's statuses.
RULE_STATUS_KEYS = {"debugger": "DebugRuleEvaluationStatuses", "profiler": "ProfilerRuleEvaluationStatuses"}
DEBUG_STATUSES_KEY, PROFILER_STATUSES_KEY = RULE_STATUS_KEYS.values()

#: Environment variables read by :func:`lambda_handler`.
ENV_RULE_NAMES = "SM_DEBUG_CONFIG_RULE_NAMES"
ENV_INCLUDE_PROFILER = "SM_DEBUG_CONFIG_INCLUDE_PROFILER_RULES"
ENV_LOG_LEVEL = "SM_DEBUG_CONFIG_LOG_LEVEL"

TRAINING_JOB_NAME_RE = JOB_NAME_RE
# "The request was rejected because the training job is in status Stopped."
_ENDED = "|".join(status for status in TRAINING_JOB_STATUSES if status != "InProgress")
_NOT_IN_PROGRESS_RE = re.compile(rf"\bin status ({_ENDED})\b|\bnot in progress\b", re.IGNORECASE)

logger = logging.getLogger(__name__)
_REQUEST_ID: "contextvars.ContextVar[Optional[str]]" = contextvars.ContextVar(
    "sm_debug_config_request_id", default=None
)


# --------------------------------------------------------------------------- pattern


def _string_list(values: Any, field: str, allowed_values: Optional[Sequence[str]] = None) -> List[str]:
    """``values`` (a string or strings) checked against ``allowed_values``, once each, in order."""
    allowed = " | ".join(allowed_values) if allowed_values else "rule configuration names of 1-256 characters"
    if isinstance(values, str):
        values = [values]
    if not isinstance(values, Iterable):
        raise ConfigError(f"must be a list of strings, not {type(values).__name__}", field=field, allowed=allowed)
    result: List[str] = []
    for index, value in enumerate(values):
        if not isinstance(value, str) or not value:
            problem = f"{shorten(value)} is not a non-empty string"
        elif allowed_values and value not in allowed_values:
            problem = f"{shorten(value)} is not a valid value.{did_you_mean(value, allowed_values)}"
        elif len(value) > 256:
            problem = f"{value[:20]!r}... is longer than 256 characters"
        else:
            result.append(value)
            continue
        raise ConfigError(problem, field=f"{field}[{index}]", allowed=allowed)
    if not result:
        raise ConfigError("must not be empty (an empty list matches no event)", field=field, allowed=allowed)
    return list(dict.fromkeys(result))  # linear: a list of 100,000 names stays cheap


def event_pattern(
    rule_names: Optional[Sequence[str]] = None,
    statuses: Sequence[str] = ("IssuesFound",),
    *,
    include_profiler: bool = False,
    training_job_statuses: Optional[Sequence[str]] = None,
) -> Dict[str, Any]:
    """The EventBridge pattern for training-job events whose rules report one of ``statuses``.

    ``include_profiler`` is off by default: profiler rules report efficiency advice (the SDK adds
    ``ProfilerReport`` to most jobs) and cannot carry actions. A coarse filter (see the module).

    >>> import json
    >>> pattern = event_pattern(rule_names=["LossNotDecreasing"])
    >>> print(json.dumps(pattern, sort_keys=True))  # doctest: +NORMALIZE_WHITESPACE
    {"detail": {"DebugRuleEvaluationStatuses": {"RuleConfigurationName": ["LossNotDecreasing"],
                                                "RuleEvaluationStatus": ["IssuesFound"]}},
     "detail-type": ["SageMaker Training Job State Change"], "source": ["aws.sagemaker"]}
    """
    element: Dict[str, Any] = {"RuleEvaluationStatus": _string_list(statuses, "statuses", RULE_EVALUATION_STATUSES)}
    if rule_names is not None:
        element["RuleConfigurationName"] = _string_list(rule_names, "rule_names")
    if not isinstance(include_profiler, bool):
        raise ConfigError(
            f"{shorten(include_profiler)} is not a boolean", field="include_profiler", allowed="True or False"
        )

    detail: Dict[str, Any] = {}
    if training_job_statuses is not None:
        detail["TrainingJobStatus"] = _string_list(
            training_job_statuses, "training_job_statuses", TRAINING_JOB_STATUSES
        )
    if include_profiler:
        detail["$or"] = [{DEBUG_STATUSES_KEY: dict(element)}, {PROFILER_STATUSES_KEY: dict(element)}]
    else:
        detail[DEBUG_STATUSES_KEY] = element

    pattern = {"source": [EVENT_SOURCE], "detail-type": [EVENT_DETAIL_TYPE], "detail": detail}
    size = len(json.dumps(pattern))
    if size > EVENT_PATTERN_MAX_CHARS:
        raise ConfigError(
            f"the pattern is {size} characters long, EventBridge accepts at most {EVENT_PATTERN_MAX_CHARS}",
            field="rule_names",
            allowed="fewer or shorter rule names (or none, and let the handler filter)",
        )
    return pattern


def command_line_pattern(
    rule_names: Optional[Sequence[str]],
    statuses: Optional[Sequence[str]],
    include_profiler: bool,
    training_job_statuses: Optional[Sequence[str]],
) -> Dict[str, Any]:
    """:func:`event_pattern` for repeatable flags, where an empty or missing list means the default."""
    return event_pattern(
        rule_names or None,
        statuses or ("IssuesFound",),
        include_profiler=include_profiler,
        training_job_statuses=training_job_statuses or None,
    )


# --------------------------------------------------------------------------- logging


class _StdoutHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes each record to the *current* ``sys.stdout`` (Lambda sends stdout to CloudWatch)."""

    stream = property(lambda self: sys.stdout, lambda self, stream: None)  # type: ignore[assignment]


def configure_json_logging(level: Optional[str] = None) -> logging.Logger:
    """Send this module's log lines (already JSON objects) to stdout, one per line (idempotent).

    No propagation to the root logger: Lambda's own handler would print each line twice.
    """
    if not any(isinstance(h, _StdoutHandler) for h in logger.handlers):
        logger.addHandler(_StdoutHandler())  # logging's default format is the bare message
    name = (level or os.environ.get(ENV_LOG_LEVEL) or "INFO").strip().upper()
    value = logging.getLevelName(name)
    logger.setLevel(value if isinstance(value, int) else logging.INFO)
    logger.propagate = False
    return logger


LOG_MAX_CHARS = 512  # a logged string longer than this is cut (an event field can be megabytes)
LOG_MAX_ITEMS = 50  # items of a logged list or mapping
LOG_MAX_DEPTH = 4


def _bounded(value: Any, depth: int = 0) -> Any:
    """``value`` cut to a size a log line can carry: long strings, long lists and deep nesting."""
    if isinstance(value, (bool, int, float)) or value is None:
        return value if not isinstance(value, int) or abs(value) < 10**18 else f"<integer of {value.bit_length()} bits>"
    if depth >= LOG_MAX_DEPTH:
        return "<nested value>"
    if isinstance(value, dict):
        items = list(value.items())
        out = {str(k)[:LOG_MAX_CHARS]: _bounded(val, depth + 1) for k, val in items[:LOG_MAX_ITEMS]}
        if len(items) > LOG_MAX_ITEMS:
            out["..."] = f"{len(items) - LOG_MAX_ITEMS} more keys"
        return out
    if isinstance(value, (list, tuple)):
        cut = [_bounded(item, depth + 1) for item in value[:LOG_MAX_ITEMS]]
        return cut + ([f"... {len(value) - LOG_MAX_ITEMS} more items"] if len(value) > LOG_MAX_ITEMS else [])
    text = value if isinstance(value, str) else reprlib.repr(value)
    if len(text) <= LOG_MAX_CHARS:
        return text
    return f"{text[:LOG_MAX_CHARS]}... ({len(text) - LOG_MAX_CHARS} more characters)"


def _log(level: int, event: str, **fields: Any) -> None:
    """One log record whose message is a single-line JSON object (keys sorted, values bounded)."""
    if logger.isEnabledFor(level):
        record = {"event": event, "level": logging.getLevelName(level), "aws_request_id": _REQUEST_ID.get()}
        record.update(fields)
        record = {k: _bounded(val) for k, val in record.items() if val is not None}
        logger.log(level, json.dumps(record, sort_keys=True))


# --------------------------------------------------------------------------- handler


@attrs.frozen
class Outcome:
    """What :func:`react_to_event` did: ``action`` (``ignored``, ``no_issues``, ``stop_requested``,
    ``not_in_progress`` or ``not_found``), the job, and the rules that found issues."""

    action: str
    training_job_name: Optional[str] = None
    rules: Tuple[str, ...] = attrs.field(default=(), converter=lambda rules: tuple(rules))
    reason: Optional[str] = None

    def as_dict(self) -> Dict[str, Any]:
        result: Dict[str, Any] = {
            "action": self.action,
            "training_job_name": self.training_job_name,
            "rules": list(self.rules),
        }
        if self.reason:
            result["reason"] = self.reason
        return result


def _ignore(reason: str, training_job_name: Optional[str] = None, **fields: Any) -> Outcome:
    _log(
        logging.WARNING, "event_ignored", reason=reason, training_job_name=training_job_name, action="ignored", **fields
    )
    return Outcome("ignored", training_job_name, reason=reason)


def rules_with_issues(
    detail: Mapping[str, Any],
    *,
    rule_names: Optional[Sequence[str]] = None,
    include_profiler: bool = False,
) -> List[str]:
    """Names of the rules in an event ``detail`` (or a describe response) reporting ``IssuesFound``,
    once each, in event order; malformed elements are skipped with a log line.

    >>> rules_with_issues({"DebugRuleEvaluationStatuses": [
    ...     {"RuleConfigurationName": "LossNotDecreasing", "RuleEvaluationStatus": "IssuesFound"},
    ...     {"RuleConfigurationName": "Overfit", "RuleEvaluationStatus": "NoIssuesFound"}]})
    ['LossNotDecreasing']
    """
    if not isinstance(detail, Mapping):
        raise ConfigError(f"expected an event detail object, got {type(detail).__name__}", field="detail")
    keys = [DEBUG_STATUSES_KEY] + ([PROFILER_STATUSES_KEY] if include_profiler else [])
    wanted = None
    if rule_names is not None:
        listed = isinstance(rule_names, Iterable) and not isinstance(rule_names, (str, bytes))
        names = list(rule_names) if listed else None
        if names is None or not all(isinstance(name, str) for name in names):
            raise ConfigError(f"got {shorten(rule_names)}", field="rule_names", allowed="a list of rule names")
        wanted = set(names)
    found: List[str] = []
    for key in keys:
        statuses = detail.get(key)
        if statuses is None:
            continue
        if not isinstance(statuses, list):
            reason = f"expected a list, got {type(statuses).__name__}"
            _log(logging.WARNING, "rule_statuses_malformed", field=key, reason=reason)
            continue
        for index, status in enumerate(statuses):
            if not isinstance(status, Mapping):
                reason = f"expected an object, got {type(status).__name__}"
                _log(logging.WARNING, "rule_status_malformed", field=f"{key}[{index}]", reason=reason)
                continue
            name = status.get("RuleConfigurationName")
            value = status.get("RuleEvaluationStatus")
            if not isinstance(name, str) or not name or not isinstance(value, str):
                reason = "RuleConfigurationName or RuleEvaluationStatus missing or not a string"
                _log(logging.WARNING, "rule_status_malformed", field=f"{key}[{index}]", reason=reason)
                continue
            if value == "IssuesFound" and (wanted is None or name in wanted) and name not in found:
                found.append(name)
    return found


def react_to_event(
    event: Any,
    sagemaker_client: Any = None,
    *,
    rule_names: Optional[Sequence[str]] = None,
    include_profiler: bool = False,
) -> Outcome:
    """Stop the event's training job if one of its rules reports ``IssuesFound``; say what was done.

    Malformed or unrelated events are ignored with a log line, never raised on; only unexpected
    ``ClientError``\\ s propagate. ``sagemaker_client``: default one for the event's region.
    """
    if not isinstance(event, Mapping):
        return _ignore(f"the event is a {type(event).__name__}, not an object")
    source, detail_type = event.get("source"), event.get("detail-type")
    if source != EVENT_SOURCE or detail_type != EVENT_DETAIL_TYPE:
        reason = f"not a {EVENT_DETAIL_TYPE!r} event from {EVENT_SOURCE!r}"
        return _ignore(reason, source=source, detail_type=detail_type)
    detail = event.get("detail")
    if not isinstance(detail, Mapping):
        return _ignore("the event has no 'detail' object")
    job_name = detail.get("TrainingJobName")
    if not isinstance(job_name, str) or not TRAINING_JOB_NAME_RE.match(job_name):
        return _ignore(
            "detail.TrainingJobName is missing or not a training job name",
            training_job_name=job_name if isinstance(job_name, str) else None,
        )

    rules = rules_with_issues(detail, rule_names=rule_names, include_profiler=include_profiler)
    job_status = detail.get("TrainingJobStatus")
    job_status = job_status if isinstance(job_status, str) else None
    if not rules:
        _log(logging.INFO, "no_rule_issues", training_job_name=job_name, training_job_status=job_status, action="none")
        return Outcome("no_issues", job_name)

    _log(logging.INFO, "rule_issues_found", training_job_name=job_name, training_job_status=job_status, rules=rules)
    if job_status is not None and job_status != "InProgress":
        # The event already says the job is stopping or finished: no API call needed.
        _log(
            logging.INFO,
            "training_job_not_in_progress",
            training_job_name=job_name,
            training_job_status=job_status,
            rules=rules,
            action="not_in_progress",
        )
        return Outcome("not_in_progress", job_name, rules, reason=f"TrainingJobStatus is {job_status}")

    from botocore.exceptions import ClientError

    client = sagemaker_client if sagemaker_client is not None else sagemaker_client_for(event.get("region"))
    try:
        client.stop_training_job(TrainingJobName=job_name)
    except ClientError as err:
        error = err.response.get("Error", {}) if isinstance(err.response, dict) else {}
        code, message = str(error.get("Code", "")), str(error.get("Message", ""))
        failure = {"training_job_name": job_name, "rules": rules, "error_code": code, "error_message": message}
        if code == "ValidationException" and _NOT_IN_PROGRESS_RE.search(message):
            _log(logging.INFO, "training_job_not_in_progress", action="not_in_progress", **failure)
            return Outcome("not_in_progress", job_name, rules, reason=message)
        if code in ("ResourceNotFound", "ResourceNotFoundException"):
            # Retrying cannot make the job appear: log and return so Lambda does not retry.
            _log(logging.ERROR, "training_job_not_found", action="not_found", **failure)
            return Outcome("not_found", job_name, rules, reason=message)
        _log(logging.ERROR, "stop_training_job_failed", action="error", **failure)
        raise
    _log(logging.INFO, "stop_requested", training_job_name=job_name, rules=rules, action="stop_requested")
    return Outcome("stop_requested", job_name, rules)


def stop_training_job_on_issues(
    event: Any,
    sagemaker_client: Any,
    *,
    rule_names: Optional[Sequence[str]] = None,
    include_profiler: bool = False,
) -> List[str]:
    """Stop the event's training job when any rule reports ``IssuesFound``; the names of those rules
    (also when the job has already ended; ``[]`` for other events). See :func:`react_to_event`.

    >>> stop_training_job_on_issues({"source": "aws.sagemaker", "detail-type": "SageMaker Training Job State Change",
    ...     "detail": {"TrainingJobName": "my-job", "TrainingJobStatus": "Stopped",
    ...                "DebugRuleEvaluationStatuses": [
    ...                    {"RuleConfigurationName": "Overfit", "RuleEvaluationStatus": "IssuesFound"}]}},
    ...     sagemaker_client=None)
    ['Overfit']
    """
    return list(react_to_event(event, sagemaker_client, rule_names=rule_names, include_profiler=include_profiler).rules)


_CLIENTS: Dict[Optional[str], Any] = {}
#: boto3's default session is not thread-safe: two threads making their first client at once can break it.
_CLIENTS_LOCK = _thread.allocate_lock()


def sagemaker_client_for(region: Optional[str] = None) -> Any:
    """A SageMaker client for ``region`` (default: the environment's), made once per process."""
    region = region if regions.is_region(region) else None
    with _CLIENTS_LOCK:
        if region not in _CLIENTS:
            import boto3

            _CLIENTS[region] = boto3.client("sagemaker", region_name=region)
        return _CLIENTS[region]


def lambda_handler(event: Any, context: Any = None, sagemaker_client: Any = None) -> Dict[str, Any]:
    """AWS Lambda entry point: :func:`react_to_event` with the ``ENV_*`` settings; what was done, as a dict.

    Only unexpected AWS errors raise, so that Lambda's retries and on-failure destination take over.

    >>> lambda_handler({"source": "aws.ec2"}, None)["action"]
    'ignored'
    """
    if os.environ.get("AWS_LAMBDA_FUNCTION_NAME"):
        configure_json_logging()
    request_id = getattr(context, "aws_request_id", None)
    token = _REQUEST_ID.set(request_id if isinstance(request_id, str) else None)
    try:
        rule_names = [n.strip() for n in os.environ.get(ENV_RULE_NAMES, "").split(",") if n.strip()] or None
        include_profiler = os.environ.get(ENV_INCLUDE_PROFILER, "").strip().lower() in ("1", "true", "yes", "on")
        _log(
            logging.DEBUG,
            "event_received",
            event_id=event.get("id") if isinstance(event, Mapping) else None,
            rule_names=rule_names,
            include_profiler=include_profiler,
        )
        outcome = react_to_event(event, sagemaker_client, rule_names=rule_names, include_profiler=include_profiler)
    finally:
        _REQUEST_ID.reset(token)
    return outcome.as_dict()
