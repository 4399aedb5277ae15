"""Rule status summary, rule job names, CloudWatch log links and ``job_status`` (sm_debug_config.operations.status).
What the ``status`` command prints of them is tested in ``tests/cli/test_status.py``."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.repo_scripts import skip_unless_botocore_is_at_least_the_data_source
from sm_debug_config.operations import status
from sm_debug_config.errors import ConfigError
from sm_debug_config.operations.status import JobStatus, RuleJobRow, StatusUnavailable, job_status
from tests.operations.statushelpers import JOB, describe, event, offline_aws
from tests.repo_scripts import load_script


@pytest.fixture(autouse=True)
def aws_env(monkeypatch, tmp_path):
    offline_aws(monkeypatch, tmp_path)


# --------------------------------------------------------------------------- names and links


def test_rule_job_name_from_the_aws_example():
    # Training job "smdebugger-demo-mnist-tensorflow-..." and rule "LossNotDecreasing": the ARN
    # keeps 26 characters of each, lower-cased, and an 8-character suffix.
    arn = (
        "arn:aws:sagemaker:us-west-2:123456789012:processing-job/smdebugger-demo-mnist-tens-lossnotdecreasing-d6176866"
    )
    name = status.rule_job_name("smdebugger-demo-mnist-tensorflow-2019-12-01-23-47-32-186", "LossNotDecreasing", arn)
    assert name == "smdebugger-demo-mnist-tens-LossNotDecreasing-d6176866"


def test_rule_job_name_truncates_long_rule_names():
    arn = (
        "arn:aws:sagemaker:us-east-1:123456789012:processing-job/"
        "pytorch-training-2024-05-0-customgradientthresholdrul-0f9e8d7c"
    )
    assert (
        status.rule_job_name(JOB, "CustomGradientThresholdRule-v2", arn)
        == "pytorch-training-2024-05-0-CustomGradientThresholdRul-0f9e8d7c"
    )


def test_rule_job_name_falls_back_to_the_arn():
    arn = "arn:aws:sagemaker:us-east-1:123456789012:processing-job/some-other-naming-scheme-1a2b3c4d"
    assert status.rule_job_name(JOB, "Overfit", arn) == "some-other-naming-scheme-1a2b3c4d"
    assert status.rule_job_name(None, None, arn) == "some-other-naming-scheme-1a2b3c4d"


@pytest.mark.parametrize(
    "arn",
    [
        None,
        "",
        "arn:aws:sagemaker:us-east-1:123456789012:training-job/x",
        "arn:aws:sagemaker:us-east-1:1234:processing-job/x",
        42,
        "processing-job/x",
    ],
)
def test_rule_job_name_without_a_processing_job_arn(arn):
    assert status.rule_job_name(JOB, "Overfit", arn) is None


def test_processing_job_arn_parts():
    parts = status.ProcessingJobArn.parse("arn:aws-us-gov:sagemaker:us-gov-west-1:123456789012:processing-job/abc-1")
    assert parts == status.ProcessingJobArn("aws-us-gov", "us-gov-west-1", "123456789012", "abc-1")


@pytest.mark.parametrize(
    "region, partition, host",
    [
        ("us-east-1", None, "us-east-1.console.aws.amazon.com"),
        ("eu-central-2", "aws", "eu-central-2.console.aws.amazon.com"),
        ("cn-north-1", None, "cn-north-1.console.amazonaws.cn"),
        ("cn-northwest-1", "aws-cn", "cn-northwest-1.console.amazonaws.cn"),
        ("us-gov-west-1", None, "us-gov-west-1.console.amazonaws-us-gov.com"),
        ("us-iso-east-1", None, None),
        ("us-isob-east-1", None, None),
        # these three got aws-partition or aws-iso links before the partitions came from botocore's data
        ("eu-isoe-west-1", None, None),
        ("us-isof-south-1", None, None),
        ("eusc-de-east-1", None, None),
        ("moon", None, None),
    ],
)
def test_console_hosts(region, partition, host):
    assert status.console_host(region, partition) == host


# --------------------------------------------------------------------------- partitions (data/partitions.json)


def _partitions_generator():
    return load_script("generate_partitions")


def test_checked_in_partitions_match_installed_botocore():
    skip_unless_botocore_is_at_least_the_data_source("partitions.json")
    gen = _partitions_generator()
    path = Path(__file__).parent.parent.parent / "sm_debug_config" / "data" / "partitions.json"
    text = path.read_text(encoding="utf-8")
    current, fresh = json.loads(text), gen.build()
    assert text == gen.dumps(current)
    for key in gen.PROVENANCE_KEYS:
        assert current.pop(key) and fresh.pop(key)
    assert current == fresh, (
        "sm_debug_config/data/partitions.json is out of date with the installed botocore; run `python "
        "scripts/generate_partitions.py` and review the diff"
    )


@pytest.mark.parametrize(
    "region, partition",
    [
        ("us-east-1", "aws"),
        ("cn-north-1", "aws-cn"),
        ("us-gov-west-1", "aws-us-gov"),
        ("us-iso-east-1", "aws-iso"),
        ("us-isob-east-1", "aws-iso-b"),
        ("eu-isoe-west-1", "aws-iso-e"),
        ("us-isof-south-1", "aws-iso-f"),
        ("eusc-de-east-1", "aws-eusc"),
        ("eu-central-3", "aws"),
        ("moon", None),
    ],
)
def test_partition_of_a_region_and_region_names(region, partition):
    from sm_debug_config.model import regions

    assert status.partition_of_region(region) == partition
    assert regions.is_region(region) == (partition is not None)
    if partition is None:
        with pytest.raises(ConfigError, match="not an AWS region name"):
            regions.check_region(region)
    else:
        assert regions.check_region(region) == region


def test_arns_of_every_partition_parse_and_others_do_not():
    parts = status.ProcessingJobArn.parse(
        "arn:aws-eusc:sagemaker:eusc-de-east-1:123456789012:processing-job/job-r-1a2b3c4d"
    )
    assert parts == status.ProcessingJobArn("aws-eusc", "eusc-de-east-1", "123456789012", "job-r-1a2b3c4d")
    assert (
        status.ProcessingJobArn.parse("arn:awsx:sagemaker:us-east-1:123456789012:processing-job/job-r-1a2b3c4d") is None
    )
    rows = status.rule_job_summary(
        {
            "TrainingJobName": "job",
            "DebugRuleEvaluationStatuses": [
                {
                    "RuleConfigurationName": "r",
                    "RuleEvaluationStatus": "InProgress",
                    "RuleEvaluationJobArn": (
                        "arn:aws-eusc:sagemaker:eusc-de-east-1:123456789012:processing-job/job-r-1a2b3c4d"
                    ),
                }
            ],
        },
        "eusc-de-east-1",
    )
    assert (
        rows[0].rule_job_name == "job-r-1a2b3c4d"
        and rows[0].log_url is None
        and "no console link known for partition aws-eusc" in rows[0].note
    )


def test_rule_images_use_the_partition_dns_suffix():
    from sm_debug_config.model import regions

    assert (
        regions.image_uri("builtin", "cn-north-1")
        == "618459771430.dkr.ecr.cn-north-1.amazonaws.com.cn/sagemaker-debugger-rules:latest"
    )
    assert (
        regions.region_of_image("618459771430.dkr.ecr.cn-north-1.amazonaws.com.cn/sagemaker-debugger-rules:latest")
        == "cn-north-1"
    )
    assert regions.region_of_image("111122223333.dkr.ecr.eusc-de-east-1.amazonaws.eu/r:1") == "eusc-de-east-1"
    assert regions.region_of_image("docker.io/library/python:3") is None


def test_log_url_format():
    assert status.log_url("job-Rule-1a2b3c4d", "cn-north-1") == (
        "https://cn-north-1.console.amazonaws.cn/cloudwatch/home?region=cn-north-1"
        "#logStream:group=/aws/sagemaker/ProcessingJobs;prefix=job-Rule-1a2b3c4d;streamFilter=typeLogStreamPrefix"
    )
    assert status.log_url("job-Rule-1a2b3c4d", "us-iso-east-1") is None


# --------------------------------------------------------------------------- summary


def test_summary_covers_every_status():
    rows = status.rule_job_summary(describe("describe_all_statuses.json"))
    assert [(r.kind, r.rule_name, r.status) for r in rows] == [
        ("debugger", "LossNotDecreasing", "IssuesFound"),
        ("debugger", "VanishingGradient", "NoIssuesFound"),
        ("debugger", "Overfit", "InProgress"),
        ("debugger", "CustomGradientThresholdRule-v2", "Error"),
        ("debugger", "ExplodingTensor", "Stopping"),
        ("debugger", "PoorWeightInitialization", "Stopped"),
        ("profiler", "ProfilerReport-1714564800", "IssuesFound"),
    ]
    assert {r.status for r in rows} >= set(status_values())
    first = rows[0]
    assert first.rule_job_name == "pytorch-training-2024-05-0-LossNotDecreasing-d6176866"
    assert (
        first.details
        == "RuleEvaluationConditionMet: Evaluation of the rule LossNotDecreasing at step 1500 resulted in the "
           "condition being met"
    )
    assert first.last_modified == "2024-05-01T12:34:56Z"
    assert first.log_url == status.log_url(first.rule_job_name, "us-east-1")
    assert first.note == "" and first.needs_attention
    assert rows[3].rule_job_name == "pytorch-training-2024-05-0-CustomGradientThresholdRul-0f9e8d7c"
    assert [r.needs_attention for r in rows] == [True, False, False, True, False, False, True]


def status_values():
    from sm_debug_config.operations.events import RULE_EVALUATION_STATUSES

    return RULE_EVALUATION_STATUSES


def test_rule_without_a_job_says_so():
    overfit = status.rule_job_summary(describe("describe_all_statuses.json"))[2]
    assert overfit.rule_job_name is None and overfit.rule_job_arn is None and overfit.log_url is None
    assert overfit.note == "no rule job yet, so no log link"
    assert overfit.last_modified == "2024-05-01T12:01:45Z"


def test_summary_of_an_event_detail_with_epoch_milliseconds():
    rows = status.rule_job_summary(event("event_issues_found.json")["detail"])
    assert [r.last_modified for r in rows] == ["2024-05-01T12:34:56Z"] * 3
    in_progress = status.rule_job_summary(event("event_in_progress.json")["detail"])
    assert [r.last_modified for r in in_progress] == ["2024-05-01T12:00:10Z"] * 3  # strings of digits too


def test_summary_of_a_job_without_rules():
    assert status.rule_job_summary(describe("describe_no_rules.json")) == []
    assert status.rule_job_log_urls(describe("describe_no_rules.json"), "us-east-1") == {}


def test_china_partition_links():
    rows = status.rule_job_summary(describe("describe_china.json"))
    assert rows[0].rule_job_name == "xgboost-cn-2024-05-01-LossNotDecreasing-9e8f7a6b"
    assert rows[0].log_url.startswith("https://cn-north-1.console.amazonaws.cn/cloudwatch/home?region=cn-north-1#")


def test_missing_and_malformed_fields_become_unknown_rows():
    response = {
        "TrainingJobName": JOB,
        "DebugRuleEvaluationStatuses": [
            "garbage",
            {},
            {
                "RuleConfigurationName": "Overfit",
                "RuleEvaluationStatus": "InProgress",
                "RuleEvaluationJobArn": "not-an-arn",
            },
            {
                "RuleConfigurationName": "Weird",
                "RuleEvaluationStatus": "IssuesFound",
                "LastModifiedTime": True,
                "StatusDetails": 5,
            },
        ],
        "ProfilerRuleEvaluationStatuses": "not a list",
    }
    rows = status.rule_job_summary(response)
    assert [(r.rule_name, r.status) for r in rows] == [
        ("DebugRuleEvaluationStatuses[0]", "Unknown"),
        ("DebugRuleEvaluationStatuses[1]", "Unknown"),
        ("Overfit", "InProgress"),
        ("Weird", "IssuesFound"),
    ]
    assert rows[0].note == "malformed status entry (str)"
    assert rows[2].note == "unrecognised RuleEvaluationJobArn 'not-an-arn', so no log link"
    assert rows[3].last_modified is None and rows[3].details == ""


def test_rule_job_name_from_the_arn_is_flagged():
    response = {
        "TrainingJobName": JOB,
        "DebugRuleEvaluationStatuses": [
            {
                "RuleConfigurationName": "Overfit",
                "RuleEvaluationStatus": "InProgress",
                "RuleEvaluationJobArn": "arn:aws:sagemaker:us-east-1:123456789012:processing-job/renamed-job-1a2b3c4d",
            }
        ],
    }
    row = status.rule_job_summary(response)[0]
    assert row.rule_job_name == "renamed-job-1a2b3c4d"
    assert "taken from the ARN" in row.note and row.log_url is not None


def test_region_fallback_and_validation():
    response = {
        "TrainingJobName": "job",
        "DebugRuleEvaluationStatuses": [
            {
                "RuleConfigurationName": "R",
                "RuleEvaluationStatus": "InProgress",
                "RuleEvaluationJobArn": "arn:aws:sagemaker::123456789012:processing-job/job-r-1a2b3c4d",
            }
        ],
    }
    assert status.rule_job_summary(response)[0].note == "no region for a log link"
    assert status.rule_job_log_urls(response, "eu-west-1")["R"] == status.log_url("job-R-1a2b3c4d", "eu-west-1")
    with pytest.raises(ConfigError) as info:
        status.rule_job_log_urls(response, "Europe")
    assert info.value.field == "region"
    with pytest.raises(ConfigError) as info:
        status.rule_job_summary(["not", "a", "response"])
    assert info.value.field == "describe_training_job_response"


def test_log_urls_by_rule_name():
    urls = status.rule_job_log_urls(describe("describe_all_statuses.json"), "us-east-1")
    assert list(urls) == [
        "LossNotDecreasing",
        "VanishingGradient",
        "Overfit",
        "CustomGradientThresholdRule-v2",
        "ExplodingTensor",
        "PoorWeightInitialization",
        "ProfilerReport-1714564800",
    ]
    assert urls["Overfit"] is None
    assert urls["VanishingGradient"] == (
        "https://us-east-1.console.aws.amazon.com/cloudwatch/home?region=us-east-1#logStream:group=/aws/sagemaker/ProcessingJobs;"
        "prefix=pytorch-training-2024-05-0-VanishingGradient-52ca2f8e;streamFilter=typeLogStreamPrefix"
    )


def test_same_name_for_debugger_and_profiler_rule_keeps_both():
    status_entry = {"RuleConfigurationName": "Same", "RuleEvaluationStatus": "InProgress"}
    urls = status.rule_job_log_urls(
        {"DebugRuleEvaluationStatuses": [status_entry], "ProfilerRuleEvaluationStatuses": [status_entry]}
    )
    assert list(urls) == ["Same", "profiler:Same"]


# --------------------------------------------------------------------------- table


def test_table_layout():
    rows = [
        RuleJobRow(
            "debugger",
            "LossNotDecreasing",
            "IssuesFound",
            "Condition met",
            "job-LossNotDecreasing-1a2b3c4d",
            last_modified="2024-05-01T12:34:56Z",
        ),
        RuleJobRow("profiler", "ProfilerReport", "InProgress", note="no rule job yet, so no log link"),
    ]
    assert status.format_summary_table(rows) == (
        "KIND      RULE               STATUS       RULE JOB                        LAST MODIFIED         DETAILS\n"
        "debugger  LossNotDecreasing  IssuesFound  job-LossNotDecreasing-1a2b3c4d  2024-05-01T12:34:56Z  Condition "
        "met\n"
        "profiler  ProfilerReport     InProgress   (no rule job yet)               -\n"
    )


def test_table_truncates_long_details_and_has_no_trailing_spaces():
    rows = status.rule_job_summary(describe("describe_all_statuses.json"))
    text = status.format_summary_table(rows, details_width=40)
    lines = text.splitlines()
    assert len(lines) == 1 + len(rows)
    assert all(line == line.rstrip() for line in lines)
    assert lines[1].endswith("  RuleEvaluationConditionMet: Evaluatio...")
    assert status.format_summary_table([]) == "No Debugger or profiler rules are configured for this training job.\n"


# --------------------------------------------------------------------------- job_status


def test_job_status_reads_the_job_and_its_rules(sagemaker):
    client, stubber = sagemaker
    stubber.add_response("describe_training_job", describe("describe_all_statuses.json"), {"TrainingJobName": JOB})
    found = job_status(JOB, client=client)
    assert (found.job_name, found.status, found.secondary_status, found.region) == (
        JOB, "InProgress", "Training", "us-east-1")
    assert list(found.rules) == status.rule_job_summary(describe("describe_all_statuses.json"), "us-east-1")
    assert [(row.rule_name, row.status) for row in found.needs_attention] == [
        ("LossNotDecreasing", "IssuesFound"), ("CustomGradientThresholdRule-v2", "Error"),
        ("ProfilerReport-1714564800", "IssuesFound")]


def test_job_status_all_clear_and_without_rules(sagemaker):
    client, stubber = sagemaker
    stubber.add_response("describe_training_job", describe("describe_no_issues.json"), {"TrainingJobName": JOB})
    stubber.add_response("describe_training_job", describe("describe_no_rules.json"), {"TrainingJobName": JOB})
    clear = job_status(JOB, "us-east-1", client=client)
    assert clear.status == "Completed" and clear.rules and not clear.needs_attention
    assert job_status(JOB, client=client).rules == ()


def test_job_status_of_an_unknown_job_is_unavailable(sagemaker):
    client, stubber = sagemaker
    stubber.add_client_error(
        "describe_training_job",
        service_error_code="ValidationException",
        service_message="Requested resource not found.",
    )
    with pytest.raises(StatusUnavailable) as info:
        job_status("no-such-job", client=client)
    assert str(info.value) == (
        "cannot describe training job 'no-such-job' in us-east-1: ValidationException: Requested resource not found."
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
def test_job_status_refuses_bad_input_before_a_call(sagemaker, job_name, region, field):
    client, _ = sagemaker  # the Stubber has no response: a call would fail the test with another error
    with pytest.raises(ConfigError) as info:
        job_status(job_name, region, client=client)
    assert info.value.field == field and str(info.value).startswith(f"{field}:")


def test_job_status_without_a_region_is_unavailable(monkeypatch):
    monkeypatch.delenv("AWS_DEFAULT_REGION", raising=False)
    monkeypatch.delenv("AWS_REGION", raising=False)
    with pytest.raises(StatusUnavailable) as info:
        job_status(JOB)
    assert str(info.value).startswith(f"cannot describe training job '{JOB}':") and "region" in str(info.value).lower()


def test_job_status_of_an_unreachable_endpoint_is_unavailable():
    import boto3
    from botocore.config import Config

    client = boto3.client(
        "sagemaker",
        region_name="us-east-1",
        endpoint_url="http://127.0.0.1:9",  # discard port: nothing listens, the connection is refused
        config=Config(retries={"max_attempts": 0, "mode": "standard"}, connect_timeout=2, read_timeout=2),
    )
    with pytest.raises(StatusUnavailable) as info:
        job_status(JOB, client=client)
    assert str(info.value).startswith(f"cannot describe training job '{JOB}':")


def test_a_job_status_is_a_value():
    row = RuleJobRow("debugger", "Overfit", "Error")
    found = JobStatus("j", "Failed", rules=(row,))
    assert found.needs_attention == (row,) and found == JobStatus("j", "Failed", rules=(row,))
