"""render_update equals what the SDK v2 Estimator's profiling methods send (checked with Stubber)."""
import datetime

import boto3
import pytest
from botocore.stub import Stubber

from sm_debug_config import ConfigError, FrameworkProfile, ProfilerConfig, ProfilerRule, rule_configs
from sm_debug_config.update import render_update

from tests.warnhelpers import config_warnings

REGION = "us-east-1"
OUT = "s3://bkt/out/"
JOB = "job-1"


def describe(status=None, profiler_path=None, rules=()):
    response = {
        "TrainingJobName": JOB,
        "TrainingJobArn": f"arn:aws:sagemaker:{REGION}:111122223333:training-job/{JOB}",
        "ModelArtifacts": {"S3ModelArtifacts": OUT + "model.tar.gz"},
        "TrainingJobStatus": "InProgress",
        "SecondaryStatus": "Training",
        "AlgorithmSpecification": {
            "TrainingImage": "111122223333.dkr.ecr.us-east-1.amazonaws.com/x:1",
            "TrainingInputMode": "File",
        },
        "ResourceConfig": {"InstanceType": "ml.m5.xlarge", "InstanceCount": 1, "VolumeSizeInGB": 30},
        "StoppingCondition": {"MaxRuntimeInSeconds": 3600},
        "CreationTime": datetime.datetime(2026, 1, 1),
    }
    if status:
        response["ProfilingStatus"] = status
    if profiler_path:
        response["ProfilerConfig"] = {"S3OutputPath": profiler_path}
    if rules:
        response["ProfilerRuleConfigurations"] = [
            {"RuleConfigurationName": r, "RuleEvaluatorImage": "img"} for r in rules
        ]
    return response


@pytest.fixture
def estimator(monkeypatch):
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    import sagemaker
    from sagemaker.estimator import Estimator, _TrainingJob

    boto_session = boto3.Session(region_name=REGION)
    client = boto_session.client("sagemaker")
    session = sagemaker.Session(boto_session=boto_session, sagemaker_client=client, default_bucket="bkt")
    est = Estimator(
        image_uri="111122223333.dkr.ecr.us-east-1.amazonaws.com/x:1",
        role="arn:aws:iam::111122223333:role/r",
        instance_count=1,
        instance_type="ml.m5.xlarge",
        output_path=OUT,
        sagemaker_session=session,
    )
    est.latest_training_job = _TrainingJob(session, JOB)
    est._current_job_name = JOB
    stubber = Stubber(client)
    with stubber:
        yield est, stubber
    stubber.assert_no_pending_responses()


def expect_update(stubber, fields):
    stubber.add_response(
        "update_training_job",
        {"TrainingJobArn": f"arn:aws:sagemaker:{REGION}:111122223333:training-job/{JOB}"},
        dict(TrainingJobName=JOB, **fields),
    )


@pytest.mark.parametrize(
    "current, options, call, expected",
    [
        pytest.param(
            describe(status="Disabled", profiler_path="s3://bkt/prof"),
            dict(output_path=OUT),
            lambda est: est.enable_default_profiling(),
            {"ProfilerConfig": {"S3OutputPath": "s3://bkt/prof", "DisableProfiler": False}},
            id="enable_default_profiling_matches",
        ),
        pytest.param(
            describe(status="Disabled"),
            dict(output_path=OUT),
            lambda est: est.enable_default_profiling(),
            None,
            id="enable_default_profiling_uses_output_path_without_a_profiler_path",
        ),
        pytest.param(
            describe(status="Enabled"),
            dict(disable_profiler=True),
            lambda est: est.disable_profiling(),
            None,
            id="disable_profiling_matches",
        ),
    ],
)
def test_profiling_switch_matches_the_sdk(estimator, current, options, call, expected):
    """The SDK's enable_default_profiling/disable_profiling send what render_update gives (the Stubber checks it)."""
    est, stubber = estimator
    stubber.add_response("describe_training_job", current, {"TrainingJobName": JOB})
    fields = render_update(**options, region=REGION, current=current)
    if expected is not None:  # the first case also pins the fields; the others compare with the SDK only
        assert fields == expected
    expect_update(stubber, fields)
    call(est)


def test_update_profiler_with_rules_and_framework_profile_matches(estimator):
    import sagemaker.debugger as sdk
    import smdebug_rulesconfig as upstream

    est, stubber = estimator
    with config_warnings():  # no SMD145: the HorovodProfilingConfig FrameworkProfile adds is not the user's
        ours = render_update(
            ProfilerConfig(
                system_monitor_interval_millis=1000,
                framework_profile_params=FrameworkProfile(start_step=3, num_steps=2),
            ),
            [
                ProfilerRule.sagemaker(rule_configs.CPUBottleneck(threshold=70)),
                ProfilerRule.sagemaker(rule_configs.LowGPUUtilization()),
            ],
            region=REGION,
            current=describe(status="Enabled", rules=["ProfilerReport"]),
        )
    expect_update(stubber, ours)
    est.update_profiler(
        rules=[
            sdk.ProfilerRule.sagemaker(upstream.CPUBottleneck(threshold=70)),
            sdk.ProfilerRule.sagemaker(upstream.LowGPUUtilization()),
        ],
        system_monitor_interval_millis=1000,
        framework_profile_params=sdk.FrameworkProfile(start_step=3, num_steps=2),
    )


def test_update_profiler_disable_framework_metrics_and_path_match(estimator):
    est, stubber = estimator
    ours = render_update(ProfilerConfig(s3_output_path="s3://bkt/prof"), region=REGION, disable_framework_metrics=True)
    assert ours["ProfilerConfig"]["ProfilingParameters"] == {}
    expect_update(stubber, ours)
    est.update_profiler(s3_output_path="s3://bkt/prof", disable_framework_metrics=True)


def test_update_checks_against_the_running_job():
    enabled = describe(status="Enabled", profiler_path="s3://bkt/prof", rules=["ProfilerReport"])
    with pytest.raises(ConfigError, match="already enabled"):
        render_update(region=REGION, output_path=OUT, current=enabled)
    with pytest.raises(ConfigError, match="already disabled"):
        render_update(disable_profiler=True, region=REGION, current=describe(status="Disabled"))
    with pytest.raises(ConfigError, match="already runs"):
        render_update(
            profiler_rules=[ProfilerRule.sagemaker(rule_configs.ProfilerReport())], region=REGION, current=enabled
        )
    with pytest.raises(ConfigError, match="cannot change"):
        render_update(ProfilerConfig(s3_output_path="s3://other/prof"), region=REGION, current=enabled)
    with pytest.raises(ConfigError, match="no profiler rules"):
        render_update(
            profiler_rules=[ProfilerRule.sagemaker(rule_configs.CPUBottleneck())], disable_profiler=True, region=REGION
        )
    with pytest.raises(ConfigError, match="at most 20"):
        render_update(
            profiler_rules=[ProfilerRule.sagemaker(rule_configs.CPUBottleneck(), name=f"cpu-{i}") for i in range(2)],
            region=REGION,
            current=describe(status="Enabled", rules=[f"r{i}" for i in range(19)]),
        )
    with pytest.raises(ConfigError, match="debugger rules cannot be added"):
        from sm_debug_config import Rule

        render_update(profiler_rules=[Rule.sagemaker(rule_configs.overfit())], region=REGION)
    with pytest.raises(ConfigError, match="region"):
        render_update(region="ap-southeast-3", output_path=OUT)
    with pytest.raises(ConfigError, match="output_path"):
        render_update(region=REGION)
