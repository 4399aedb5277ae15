"""EventBridge pattern and the IssuesFound -> StopTrainingJob handler (sm_debug_config.operations.events).

AWS calls go through real botocore clients with ``botocore.stub.Stubber``, which checks every
request (and every stubbed response) against the service model.
"""
from __future__ import annotations

import copy
import json
import logging
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

import pytest

from sm_debug_config.operations import events
from sm_debug_config.errors import ConfigError

DATA = Path(__file__).parent.parent / "data" / "events"
JOB = "pytorch-training-2024-05-01-12-00-00-123"


def load(name: str) -> Dict[str, Any]:
    with open(DATA / name, encoding="utf-8") as handle:
        return json.load(handle)


@pytest.fixture(autouse=True)
def aws_env(monkeypatch):
    """Offline, deterministic AWS settings; the events logger back to its defaults after each test."""
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.delenv("AWS_PROFILE", raising=False)
    monkeypatch.delenv("AWS_LAMBDA_FUNCTION_NAME", raising=False)
    for name in (events.ENV_RULE_NAMES, events.ENV_INCLUDE_PROFILER, events.ENV_LOG_LEVEL):
        monkeypatch.delenv(name, raising=False)
    yield
    log = logging.getLogger("sm_debug_config.operations.events")
    for handler in list(log.handlers):
        log.removeHandler(handler)
    log.propagate = True
    log.setLevel(logging.NOTSET)


def json_lines(caplog) -> List[Dict[str, Any]]:
    return [json.loads(r.getMessage()) for r in caplog.records if r.name == "sm_debug_config.operations.events"]


# --------------------------------------------------------------------------- import cost


def test_import_does_not_load_boto3():
    code = ("import sys, sm_debug_config.operations.events, sm_debug_config.operations.status; print(sorted(m for m in "
            "('boto3', 'botocore', 'sagemaker') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --------------------------------------------------------------------------- pattern


def test_default_pattern_is_exact():
    assert events.event_pattern() == {
        "source": ["aws.sagemaker"],
        "detail-type": ["SageMaker Training Job State Change"],
        "detail": {"DebugRuleEvaluationStatuses": {"RuleEvaluationStatus": ["IssuesFound"]}},
    }


def test_pattern_with_rule_names_and_statuses():
    pattern = events.event_pattern(
        rule_names=["LossNotDecreasing", "Overfit", "Overfit"], statuses=["IssuesFound", "Error"]
    )
    assert pattern["detail"] == {
        "DebugRuleEvaluationStatuses": {
            "RuleEvaluationStatus": ["IssuesFound", "Error"],
            "RuleConfigurationName": ["LossNotDecreasing", "Overfit"],
        }
    }


def test_pattern_with_profiler_uses_or_and_job_status():
    pattern = events.event_pattern(rule_names="Overfit", include_profiler=True, training_job_statuses=["InProgress"])
    element = {"RuleEvaluationStatus": ["IssuesFound"], "RuleConfigurationName": ["Overfit"]}
    assert pattern["detail"] == {
        "TrainingJobStatus": ["InProgress"],
        "$or": [{"DebugRuleEvaluationStatuses": element}, {"ProfilerRuleEvaluationStatuses": element}],
    }


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"statuses": ["IssuesFoud"]}, "statuses[0]"),
        ({"statuses": []}, "statuses"),
        ({"statuses": 3}, "statuses"),
        ({"rule_names": []}, "rule_names"),
        ({"rule_names": ["ok", ""]}, "rule_names[1]"),
        ({"rule_names": ["x" * 257]}, "rule_names[0]"),
        ({"rule_names": [None]}, "rule_names[0]"),
        ({"training_job_statuses": ["Running"]}, "training_job_statuses[0]"),
        ({"include_profiler": "yes"}, "include_profiler"),
        ({"rule_names": [f"Rule{i:03d}-with-a-rather-long-name" for i in range(80)]}, "rule_names"),
    ],
)
def test_bad_pattern_arguments_raise_config_error(kwargs, field):
    with pytest.raises(ConfigError) as info:
        events.event_pattern(**kwargs)
    assert info.value.field == field
    assert info.value.allowed


def test_unknown_status_suggests_the_right_one():
    with pytest.raises(ConfigError, match="did you mean 'IssuesFound'"):
        events.event_pattern(statuses=["IssuesFoud"])


def test_pattern_is_accepted_by_put_rule():
    import boto3
    from botocore.stub import Stubber

    client = boto3.client("events", region_name="us-east-1")
    pattern = json.dumps(
        events.event_pattern(
            rule_names=["LossNotDecreasing"], include_profiler=True, training_job_statuses=["InProgress"]
        )
    )
    assert len(pattern) <= events.EVENT_PATTERN_MAX_CHARS
    with Stubber(client) as stubber:
        stubber.add_response(
            "put_rule",
            {"RuleArn": "arn:aws:events:us-east-1:123456789012:rule/stop-on-debugger-issues"},
            {"Name": "stop-on-debugger-issues", "EventPattern": pattern, "State": "ENABLED"},
        )
        client.put_rule(Name="stop-on-debugger-issues", EventPattern=pattern, State="ENABLED")
        stubber.assert_no_pending_responses()


# A model of EventBridge's documented matching: leaves of the pattern are lists of allowed
# values; arrays in the event (including arrays of objects, whose fields are collected from
# every element) match when any value is allowed; "$or" takes any of its alternatives.
def _values(node: Any, path: List[str]) -> List[Any]:
    if not path:
        return node if isinstance(node, list) else [node]
    if isinstance(node, list):
        return [v for item in node for v in _values(item, path)]
    if isinstance(node, dict) and path[0] in node:
        return _values(node[path[0]], path[1:])
    return []


def _matches(pattern: Dict[str, Any], event: Any, path: List[str] = ()) -> bool:  # type: ignore[assignment]
    for key, value in pattern.items():
        if key == "$or":
            if not any(_matches(alt, event, list(path)) for alt in value):
                return False
        elif isinstance(value, dict):
            if not _matches(value, event, list(path) + [key]):
                return False
        elif not set(map(json.dumps, _values(event, list(path) + [key]))) & set(map(json.dumps, value)):
            return False
    return True


@pytest.mark.parametrize(
    "name, debugger_only, with_profiler, in_progress_only",
    [
        ("event_issues_found.json", True, True, True),
        ("event_no_issues_found.json", False, False, False),
        ("event_in_progress.json", False, False, False),
        ("event_error.json", False, False, False),
        ("event_stopping.json", True, True, False),
        ("event_stopped.json", True, True, False),
        ("event_profiler_issues_found.json", False, True, True),
        ("event_without_rule_statuses.json", False, False, False),
    ],
)
def test_pattern_selects_the_sample_events(name, debugger_only, with_profiler, in_progress_only):
    event = load(name)
    assert _matches(events.event_pattern(), event) is debugger_only
    assert _matches(events.event_pattern(include_profiler=True), event) is with_profiler
    assert (
        _matches(events.event_pattern(include_profiler=True, training_job_statuses=["InProgress"]), event)
        is in_progress_only
    )


def test_pattern_fields_match_across_array_elements_so_the_handler_rechecks(sagemaker):
    # LossNotDecreasing has IssuesFound, VanishingGradient does not: a pattern naming only
    # VanishingGradient still matches (each field finds its value in some element) ...
    event = load("event_issues_found.json")
    assert _matches(events.event_pattern(rule_names=["VanishingGradient"]), event)
    # ... and the handler, checking each rule on its own, does nothing.
    client, _ = sagemaker
    assert events.stop_training_job_on_issues(event, client, rule_names=["VanishingGradient"]) == []


# --------------------------------------------------------------------------- handler


def test_issues_found_stops_the_job(sagemaker, caplog):
    caplog.set_level(logging.INFO, logger="sm_debug_config.operations.events")
    client, stubber = sagemaker
    stubber.add_response("stop_training_job", {}, {"TrainingJobName": JOB})
    assert events.stop_training_job_on_issues(load("event_issues_found.json"), client) == ["LossNotDecreasing"]
    lines = json_lines(caplog)
    assert [line["event"] for line in lines] == ["rule_issues_found", "stop_requested"]
    assert lines[-1] == {
        "event": "stop_requested",
        "level": "INFO",
        "training_job_name": JOB,
        "rules": ["LossNotDecreasing"],
        "action": "stop_requested",
    }


@pytest.mark.parametrize(
    "name",
    [
        "event_no_issues_found.json",
        "event_in_progress.json",
        "event_error.json",
        "event_without_rule_statuses.json",
        "event_profiler_issues_found.json",
    ],
)
def test_other_statuses_do_nothing(sagemaker, caplog, name):
    caplog.set_level(logging.INFO, logger="sm_debug_config.operations.events")
    client, _ = sagemaker  # no stubbed response: any call would fail the test
    assert events.stop_training_job_on_issues(load(name), client) == []
    assert json_lines(caplog)[-1]["event"] == "no_rule_issues"


@pytest.mark.parametrize("name, status", [("event_stopping.json", "Stopping"), ("event_stopped.json", "Stopped")])
def test_job_already_stopping_or_stopped_needs_no_call(sagemaker, caplog, name, status):
    caplog.set_level(logging.INFO, logger="sm_debug_config.operations.events")
    client, _ = sagemaker
    outcome = events.react_to_event(load(name), client)
    assert outcome.action == "not_in_progress" and list(outcome.rules) == ["LossNotDecreasing"]
    assert json_lines(caplog)[-1]["training_job_status"] == status


@pytest.mark.parametrize("status", ["Completed", "Failed", "Stopped", "Stopping"])
def test_stop_rejected_because_job_ended_is_not_an_error(sagemaker, caplog, status):
    caplog.set_level(logging.INFO, logger="sm_debug_config.operations.events")
    client, stubber = sagemaker
    stubber.add_client_error(
        "stop_training_job",
        service_error_code="ValidationException",
        service_message=f"The request was rejected because the training job is in status {status}.",
        http_status_code=400,
        expected_params={"TrainingJobName": JOB},
    )
    assert events.stop_training_job_on_issues(load("event_issues_found.json"), client) == ["LossNotDecreasing"]
    last = json_lines(caplog)[-1]
    assert last["action"] == "not_in_progress" and last["error_code"] == "ValidationException"


def test_unknown_job_is_logged_not_raised(sagemaker, caplog):
    client, stubber = sagemaker
    stubber.add_client_error(
        "stop_training_job",
        service_error_code="ResourceNotFound",
        service_message="Requested resource not found.",
        http_status_code=400,
    )
    outcome = events.react_to_event(load("event_issues_found.json"), client)
    assert outcome.action == "not_found" and list(outcome.rules) == ["LossNotDecreasing"]
    assert any(
        r.levelno == logging.ERROR and json.loads(r.getMessage())["event"] == "training_job_not_found"
        for r in caplog.records
    )


@pytest.mark.parametrize(
    "code, message, status",
    [
        ("ThrottlingException", "Rate exceeded", 400),
        ("AccessDeniedException", "User is not authorized to perform: sagemaker:StopTrainingJob", 400),
        ("InternalFailure", "Internal error", 500),
        ("ValidationException", "1 validation error detected", 400),
    ],
)
def test_other_client_errors_propagate_for_lambda_retries(sagemaker, caplog, code, message, status):
    from botocore.exceptions import ClientError

    client, stubber = sagemaker
    stubber.add_client_error(
        "stop_training_job", service_error_code=code, service_message=message, http_status_code=status
    )
    with pytest.raises(ClientError) as info:
        events.stop_training_job_on_issues(load("event_issues_found.json"), client)
    assert info.value.response["Error"]["Code"] == code
    assert json_lines(caplog)[-1] == {
        "event": "stop_training_job_failed",
        "level": "ERROR",
        "training_job_name": JOB,
        "rules": ["LossNotDecreasing"],
        "action": "error",
        "error_code": code,
        "error_message": message,
    }


def test_event_without_job_status_calls_stop(sagemaker):
    event = load("event_issues_found.json")
    del event["detail"]["TrainingJobStatus"]
    client, stubber = sagemaker
    stubber.add_response("stop_training_job", {}, {"TrainingJobName": JOB})
    assert events.stop_training_job_on_issues(event, client) == ["LossNotDecreasing"]


def test_rule_names_filter_and_profiler_switch(sagemaker):
    client, stubber = sagemaker
    assert events.stop_training_job_on_issues(load("event_issues_found.json"), client, rule_names=["Overfit"]) == []
    profiler_event = load("event_profiler_issues_found.json")
    assert events.stop_training_job_on_issues(profiler_event, client) == []
    stubber.add_response("stop_training_job", {}, {"TrainingJobName": JOB})
    assert events.stop_training_job_on_issues(profiler_event, client, include_profiler=True) == [
        "ProfilerReport-1714564800"
    ]


def test_several_rules_are_returned_once_in_event_order(sagemaker):
    event = load("event_issues_found.json")
    statuses = event["detail"]["DebugRuleEvaluationStatuses"]
    statuses[1]["RuleEvaluationStatus"] = "IssuesFound"
    statuses.append(copy.deepcopy(statuses[0]))
    event["detail"]["ProfilerRuleEvaluationStatuses"][0]["RuleEvaluationStatus"] = "IssuesFound"
    client, stubber = sagemaker
    stubber.add_response("stop_training_job", {}, {"TrainingJobName": JOB})
    assert events.stop_training_job_on_issues(event, client, include_profiler=True) == [
        "LossNotDecreasing",
        "VanishingGradient",
        "ProfilerReport-1714564800",
    ]


def _mutated(change):
    event = load("event_issues_found.json")
    change(event)
    return event


MALFORMED = {
    "none": None,
    "list": [load("event_issues_found.json")],
    "string": json.dumps(load("event_issues_found.json")),
    "empty": {},
    "other_source": _mutated(lambda e: e.update(source="aws.ec2")),
    "other_detail_type": _mutated(lambda e: e.update({"detail-type": "SageMaker Processing Job State Change"})),
    "no_detail": _mutated(lambda e: e.pop("detail")),
    "detail_not_object": _mutated(lambda e: e.update(detail="oops")),
    "no_job_name": _mutated(lambda e: e["detail"].pop("TrainingJobName")),
    "bad_job_name": _mutated(lambda e: e["detail"].update(TrainingJobName="not a job name!")),
    "job_name_not_string": _mutated(lambda e: e["detail"].update(TrainingJobName=42)),
    "statuses_not_list": _mutated(
        lambda e: e["detail"].update(DebugRuleEvaluationStatuses={"RuleEvaluationStatus": "IssuesFound"})
    ),
    "status_not_object": _mutated(lambda e: e["detail"].update(DebugRuleEvaluationStatuses=["IssuesFound"])),
    "status_without_name": _mutated(
        lambda e: e["detail"]["DebugRuleEvaluationStatuses"][0].pop("RuleConfigurationName")
    ),
    "status_value_not_string": _mutated(
        lambda e: e["detail"]["DebugRuleEvaluationStatuses"][0].update(RuleEvaluationStatus=["IssuesFound"])
    ),
    "status_missing": _mutated(lambda e: e["detail"]["DebugRuleEvaluationStatuses"][0].pop("RuleEvaluationStatus")),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_events_are_ignored_with_a_log_line(sagemaker, caplog, name):
    caplog.set_level(logging.INFO, logger="sm_debug_config.operations.events")
    client, _ = sagemaker
    assert events.stop_training_job_on_issues(copy.deepcopy(MALFORMED[name]), client) == []
    lines = json_lines(caplog)
    assert lines, "every ignored event leaves a log line"
    assert {line["event"] for line in lines} & {"event_ignored", "rule_statuses_malformed", "rule_status_malformed"}
    assert all(line["level"] in ("WARNING", "INFO") for line in lines)


def test_malformed_element_does_not_hide_a_valid_one(sagemaker):
    event = load("event_issues_found.json")
    event["detail"]["DebugRuleEvaluationStatuses"].insert(0, "garbage")
    client, stubber = sagemaker
    stubber.add_response("stop_training_job", {}, {"TrainingJobName": JOB})
    assert events.stop_training_job_on_issues(event, client) == ["LossNotDecreasing"]


# --------------------------------------------------------------------------- Lambda


class LambdaContext:
    """What Lambda passes as ``context`` (only the attribute the handler reads)."""

    aws_request_id = "c6af9ac6-7b61-11e6-9a41-93e8deadbeef"


def test_lambda_handler_uses_a_client_for_the_event_region_and_logs_json_lines(monkeypatch, capsys):
    from botocore.stub import Stubber

    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_NAME", "stop-on-debugger-issues")
    event = load("event_issues_found.json")
    event["region"] = "eu-west-1"
    client = events.sagemaker_client_for("eu-west-1")
    assert client.meta.region_name == "eu-west-1"
    assert events.sagemaker_client_for("eu-west-1") is client
    with Stubber(client) as stubber:
        stubber.add_response("stop_training_job", {}, {"TrainingJobName": JOB})
        result = events.lambda_handler(event, LambdaContext())
        stubber.assert_no_pending_responses()
    assert result == {"action": "stop_requested", "training_job_name": JOB, "rules": ["LossNotDecreasing"]}
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["event"] for line in lines] == ["rule_issues_found", "stop_requested"]
    assert all(line["aws_request_id"] == LambdaContext.aws_request_id for line in lines)
    assert lines[-1]["action"] == "stop_requested" and lines[-1]["rules"] == ["LossNotDecreasing"]


def test_lambda_handler_settings_from_environment(monkeypatch, sagemaker):
    client, stubber = sagemaker
    monkeypatch.setenv(events.ENV_RULE_NAMES, " Overfit , ")
    assert (
        events.lambda_handler(load("event_issues_found.json"), None, sagemaker_client=client)["action"] == "no_issues"
    )
    monkeypatch.setenv(events.ENV_RULE_NAMES, "Overfit,ProfilerReport-1714564800")
    monkeypatch.setenv(events.ENV_INCLUDE_PROFILER, "true")
    stubber.add_response("stop_training_job", {}, {"TrainingJobName": JOB})
    result = events.lambda_handler(load("event_profiler_issues_found.json"), None, sagemaker_client=client)
    assert result["rules"] == ["ProfilerReport-1714564800"]


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_lambda_handler_never_raises_on_malformed_events(monkeypatch, capsys, name):
    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_NAME", "stop-on-debugger-issues")
    result = events.lambda_handler(copy.deepcopy(MALFORMED[name]), LambdaContext())
    assert result["rules"] == []
    assert result["action"] in ("ignored", "no_issues")
    out = capsys.readouterr().out.splitlines()
    assert out and all(isinstance(json.loads(line), dict) for line in out)


def test_log_level_from_environment(monkeypatch, capsys):
    monkeypatch.setenv("AWS_LAMBDA_FUNCTION_NAME", "stop-on-debugger-issues")
    monkeypatch.setenv(events.ENV_LOG_LEVEL, "debug")
    events.lambda_handler(load("event_no_issues_found.json"), LambdaContext())
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["event"] for line in lines] == ["event_received", "no_rule_issues"]
    assert lines[0]["event_id"] == "4a6f0c1e-1b2d-4e5f-8a9b-0c1d2e3f4a02"
    monkeypatch.setenv(events.ENV_LOG_LEVEL, "ERROR")
    events.lambda_handler(load("event_no_issues_found.json"), LambdaContext())
    assert capsys.readouterr().out == ""


def test_configure_json_logging_is_idempotent():
    events.configure_json_logging()
    events.configure_json_logging("warning")
    log = logging.getLogger("sm_debug_config.operations.events")
    assert sum(isinstance(h, events._StdoutHandler) for h in log.handlers) == 1
    assert log.level == logging.WARNING and log.propagate is False


def test_outcome_as_dict():
    assert events.Outcome("not_in_progress", JOB, ["A"], reason="TrainingJobStatus is Stopped").as_dict() == {
        "action": "not_in_progress",
        "training_job_name": JOB,
        "rules": ["A"],
        "reason": "TrainingJobStatus is Stopped",
    }


def test_log_lines_stay_bounded_whatever_the_event_carries(capsys):
    """A 1 MB event field, a long list and deep nesting give one short JSON line each (Lambda logs)."""
    from sm_debug_config.operations import events as ev

    logger = ev.configure_json_logging("INFO")
    try:
        ev._log(logging.WARNING, "event_ignored", reason="x" * 1_000_000, rules=[{"a": i} for i in range(10_000)],
                nested=[[[[[["deep"]]]]]], big=10**5000, other=object())
    finally:
        logger.setLevel(logging.WARNING)
    [line] = capsys.readouterr().out.splitlines()
    record = json.loads(line)
    assert len(line) < 10_000
    assert record["reason"].endswith("(999488 more characters)")
    assert record["rules"][-1] == "... 9950 more items"
    assert record["big"].startswith("<integer of")
