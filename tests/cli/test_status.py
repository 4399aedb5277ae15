"""``sm-debug-config status``: what it prints of a job's status and the exit code it chooses
(sm_debug_config.cli.status); the status itself is tested in ``tests/operations/test_status.py``."""
from __future__ import annotations

import pytest

from sm_debug_config.cli.common import PROG
from sm_debug_config.cli.status import show_status
from tests.operations.statushelpers import JOB, describe, offline_aws, stubbed_sagemaker


@pytest.fixture(autouse=True)
def aws_env(monkeypatch, tmp_path):
    offline_aws(monkeypatch, tmp_path)


@pytest.fixture
def sagemaker():
    with stubbed_sagemaker() as pair:
        yield pair


def test_status_reports_issues_with_exit_code_1(sagemaker, capsys):
    client, stubber = sagemaker
    stubber.add_response("describe_training_job", describe("describe_all_statuses.json"), {"TrainingJobName": JOB})
    code = show_status(JOB, client=client)
    text = capsys.readouterr().out
    assert code == 1
    lines = text.splitlines()
    assert lines[:3] == [f"Training job: {JOB}", "Status: InProgress (Training)", "Region: us-east-1"]
    assert lines[4].startswith("KIND ")
    assert (
        "  debugger LossNotDecreasing: "
        "https://us-east-1.console.aws.amazon.com/cloudwatch/home?region=us-east-1#logStream:"
        in text
    )
    assert "  debugger Overfit: no rule job yet, so no log link" in lines
    assert (
        lines[-1]
        == "Needs attention: LossNotDecreasing (IssuesFound), CustomGradientThresholdRule-v2 (Error), "
           "ProfilerReport-1714564800 (IssuesFound)"
    )


def test_status_all_clear_exits_0(sagemaker, capsys):
    client, stubber = sagemaker
    stubber.add_response("describe_training_job", describe("describe_no_issues.json"), {"TrainingJobName": JOB})
    code = show_status(JOB, "us-east-1", client=client)
    text = capsys.readouterr().out
    assert code == 0
    assert "Status: Completed\n" in text and "Needs attention" not in text


def test_status_without_rules(sagemaker, capsys):
    client, stubber = sagemaker
    stubber.add_response("describe_training_job", describe("describe_no_rules.json"), {"TrainingJobName": JOB})
    code = show_status(JOB, client=client)
    text = capsys.readouterr().out
    assert code == 0 and "No Debugger or profiler rules are configured" in text and "Rule job logs" not in text


def test_status_of_an_unknown_job_exits_2(sagemaker, capsys):
    client, stubber = sagemaker
    stubber.add_client_error(
        "describe_training_job",
        service_error_code="ValidationException",
        service_message="Requested resource not found.",
    )
    code = show_status("no-such-job", client=client)
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert (
        err
        == f"{PROG}: error: cannot describe training job 'no-such-job' in us-east-1: ValidationException: Requested "
           "resource not found.\n"
    )


@pytest.mark.parametrize(
    "job_name, region, field",
    [
        ("bad name", None, "job_name"),
        ("-x", None, "job_name"),
        ("x" * 64, None, "job_name"),
        ("ok", "US_EAST", "region"),
        (None, None, "job_name"),
    ],
)
def test_status_bad_input_exits_2_without_a_call(sagemaker, capsys, job_name, region, field):
    client, _ = sagemaker
    code = show_status(job_name, region, client=client)
    assert code == 2 and capsys.readouterr().err.startswith(f"{PROG}: error: {field}:")


def test_status_without_a_region_exits_2(monkeypatch, capsys):
    monkeypatch.delenv("AWS_DEFAULT_REGION", raising=False)
    monkeypatch.delenv("AWS_REGION", raising=False)
    code = show_status(JOB)
    err = capsys.readouterr().err
    assert code == 2 and err.startswith(f"{PROG}: error: cannot describe training job '{JOB}':")
    assert "region" in err.lower() and len(err.splitlines()) == 1


def test_status_of_an_unreachable_endpoint_exits_2(capsys):
    import boto3
    from botocore.config import Config

    client = boto3.client(
        "sagemaker",
        region_name="us-east-1",
        endpoint_url="http://127.0.0.1:9",  # discard port: nothing listens, the connection is refused
        config=Config(retries={"max_attempts": 0, "mode": "standard"}, connect_timeout=2, read_timeout=2),
    )
    code = show_status(JOB, client=client)
    assert code == 2 and capsys.readouterr().err.startswith(f"{PROG}: error: cannot describe training job '{JOB}':")
