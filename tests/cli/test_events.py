"""``sm-debug-config events pattern`` (sm_debug_config.cli.events): the EventBridge pattern as JSON on stdout."""
from __future__ import annotations

import json

from sm_debug_config.cli.common import PROG
from sm_debug_config.operations import events


def test_events_pattern_prints_the_default_pattern(cli):
    result = cli("events", "pattern")
    assert result.returncode == 0 and json.loads(result.stdout) == events.event_pattern()
    assert result.stdout.endswith("\n") and result.stderr == ""


def test_events_pattern_flags(cli):
    result = cli("events", "pattern", "--rule", "A", "--status", "Error", "--include-profiler",
                 "--job-status", "InProgress")
    detail = json.loads(result.stdout)["detail"]
    assert result.returncode == 0 and "$or" in detail and detail["TrainingJobStatus"] == ["InProgress"]
    assert detail["$or"][0]["DebugRuleEvaluationStatuses"] == {"RuleEvaluationStatus": ["Error"],
                                                               "RuleConfigurationName": ["A"]}


def test_events_pattern_refuses_an_unknown_status_naming_the_flag(cli):
    result = cli("events", "pattern", "--status", "Nope")
    assert result.returncode == 1 and result.stdout == ""  # a wrong value, as every command reports a ConfigError
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"{PROG}: statuses[0]:")
