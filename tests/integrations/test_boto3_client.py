"""boto3 helper against a local moto server: create the job, describe it, rebuild, compare."""
from __future__ import annotations

import hashlib
import json

import pytest

from sm_debug_config import (
    CollectionConfig,
    ConfigError,
    DebuggerHookConfig,
    FrameworkProfile,
    Profiler,
    ProfilerConfig,
    ProfilerRule,
    Rule,
    TensorBoardOutputConfig,
    get_rule_container_image_uri,
    render,
    rule_configs,
)
from sm_debug_config.model.actions import SMS, ActionList, StopTraining
from sm_debug_config.integrations.boto3_client import create_training_job, training_job_request, upload_rule_sources
from sm_debug_config.reverse import from_request
from sm_debug_config.rendering import FIELDS

from tests.warnhelpers import config_warnings

pytest.importorskip("boto3")
BUCKET = "smdc-client"
ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"


def _base(job_name, output_path=f"s3://{BUCKET}/out/", instance_type="ml.m5.xlarge"):
    return {
        "TrainingJobName": job_name,
        "AlgorithmSpecification": {
            "TrainingImage": "123456789012.dkr.ecr.us-west-2.amazonaws.com/train:1",
            "TrainingInputMode": "File",
        },
        "RoleArn": ROLE,
        "OutputDataConfig": {"S3OutputPath": output_path},
        "ResourceConfig": {"InstanceType": instance_type, "InstanceCount": 1, "VolumeSizeInGB": 30},
        "StoppingCondition": {"MaxRuntimeInSeconds": 3600},
    }


@pytest.fixture
def sagemaker_client(aws):
    aws.bucket(BUCKET)
    client = aws.session().client("sagemaker")
    client.sent = []
    client.meta.events.register(
        "before-send.sagemaker.CreateTrainingJob", lambda request, **_: client.sent.append(json.loads(request.body))
    )
    return client


def _debugger(fields):
    return {k: fields[k] for k in FIELDS if k in fields}


def test_create_describe_rebuild_compare(aws, sagemaker_client):
    hook = DebuggerHookConfig(
        hook_parameters={"save_interval": "50"},
        collection_configs=[CollectionConfig("gradients", {"save_interval": "20"})],
    )
    rules = [
        Rule.sagemaker(rule_configs.vanishing_gradient(), actions=ActionList(StopTraining(), SMS("+14155550100"))),
        Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={"mode": "TRAIN"}),
        ProfilerRule.sagemaker(rule_configs.ProfilerReport()),
    ]
    profiler = ProfilerConfig(
        system_monitor_interval_millis=1000, framework_profile_params=FrameworkProfile(start_step=2, num_steps=3)
    )
    tensorboard = TensorBoardOutputConfig(f"s3://{BUCKET}/tb/", "/tensorboard")
    request = _base("client-job-1")
    before = repr((rules, hook, profiler, tensorboard, request))

    with config_warnings():  # no SMD145: the HorovodProfilingConfig FrameworkProfile adds is not the user's
        response = create_training_job(
            request,
            rules=rules,
            debugger_hook_config=hook,
            profiler_config=profiler,
            tensorboard_output_config=tensorboard,
            client=sagemaker_client,
        )

    assert response["TrainingJobArn"].endswith(":training-job/client-job-1")
    with config_warnings():
        expected = render(
            rules,
            hook,
            profiler,
            tensorboard,
            region="us-west-2",
            output_path=f"s3://{BUCKET}/out/",
            job_name="client-job-1",
            instance_type="ml.m5.xlarge",
        )
    [sent] = sagemaker_client.sent
    assert _debugger(sent) == expected
    assert {k: sent[k] for k in request} == request  # the rest of the request as given
    assert repr((rules, hook, profiler, tensorboard, request)) == before

    described = sagemaker_client.describe_training_job(TrainingJobName="client-job-1")
    # moto keeps DebugHookConfig, DebugRuleConfigurations and TensorBoardOutputConfig, not the profiler fields
    assert set(_debugger(described)) == {"DebugHookConfig", "DebugRuleConfigurations", "TensorBoardOutputConfig"}
    for field in described_fields(described):
        assert described[field] == expected[field]
    rebuilt = from_request(described)
    assert rebuilt.region == "us-west-2" and rebuilt.job_name == "client-job-1"
    again = rebuilt.render()
    assert {f: again[f] for f in rebuilt.present_fields} == {f: expected[f] for f in rebuilt.present_fields}
    assert rebuilt.rules[0].actions == rules[0].actions

    # the request itself carries all five: a full round trip
    with config_warnings():
        assert from_request(sent).render() == expected


def described_fields(described):
    return [f for f in FIELDS if f in described]


def test_rebuilt_objects_create_the_same_job_again(aws, sagemaker_client):
    rules = [Rule.sagemaker(rule_configs.overfit()), Rule.sagemaker(rule_configs.dead_relu())]
    profiler = ProfilerConfig(profile_params=Profiler())
    create_training_job(_base("client-job-2"), rules=rules, profiler_config=profiler, client=sagemaker_client)
    rebuilt = from_request(sagemaker_client.sent[0])
    assert rebuilt.render_kwargs()["rules"] == rules
    kwargs = {
        k: val
        for k, val in rebuilt.render_kwargs().items()
        if k in ("rules", "debugger_hook_config", "profiler_config", "tensorboard_output_config", "disable_profiler")
    }
    create_training_job(_base("client-job-2b"), client=sagemaker_client, **kwargs)
    first, second = sagemaker_client.sent
    assert _debugger(second) == render(**dict(rebuilt.render_kwargs(), job_name="client-job-2b"))
    assert [r["RuleConfigurationName"] for r in second["ProfilerRuleConfigurations"]] == [
        "DetailedProfilerProcessingJobConfig-client-job-2b"
    ]
    assert {k: first[k] for k in ("DebugHookConfig", "DebugRuleConfigurations", "ProfilerConfig")} == {
        k: second[k] for k in ("DebugHookConfig", "DebugRuleConfigurations", "ProfilerConfig")
    }


def test_local_rule_source_is_uploaded_once(aws, sagemaker_client, tmp_path):
    source = tmp_path / "rule.py"
    source.write_text("class MyRule:\n    pass\n")
    rule = Rule.custom(
        "MyRule",
        "123456789012.dkr.ecr.us-west-2.amazonaws.com/rules:1",
        "ml.m5.xlarge",
        30,
        source=str(source),
        rule_to_invoke="MyRule",
    )
    s3 = aws.session().client("s3")
    puts = []
    s3.meta.events.register("before-send.s3.PutObject", lambda request, **_: puts.append(request.url))

    create_training_job(_base("client-src-1"), rules=[rule], client=sagemaker_client, s3_client=s3)
    create_training_job(_base("client-src-2"), rules=[rule], client=sagemaker_client, s3_client=s3)

    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    uri = f"s3://{BUCKET}/out/sm-debug-config/rule-sources/{digest}/rule.py"
    assert [b["DebugRuleConfigurations"][0]["RuleParameters"]["source_s3_uri"] for b in sagemaker_client.sent] == [
        uri,
        uri,
    ]
    assert len(puts) == 1
    assert s3.get_object(Bucket=BUCKET, Key=uri.split(f"{BUCKET}/", 1)[1])["Body"].read() == source.read_bytes()
    assert rule.rule_parameters["source_s3_uri"] == str(source)
    source.write_text("class MyRule:\n    changed = True\n")
    [changed] = upload_rule_sources([rule], output_path=f"s3://{BUCKET}/out/", s3_client=s3)
    assert changed.rule_parameters["source_s3_uri"] != uri and len(puts) == 2


def test_missing_local_source_is_a_config_error(aws, sagemaker_client, tmp_path):
    rule = Rule.custom(
        "MyRule",
        "123456789012.dkr.ecr.us-west-2.amazonaws.com/rules:1",
        "ml.m5.xlarge",
        30,
        source=str(tmp_path / "nope.py"),
        rule_to_invoke="MyRule",
    )
    with pytest.raises(ConfigError) as err:
        create_training_job(_base("client-src-3"), rules=[rule], client=sagemaker_client)
    assert err.value.field == "rules[0].source" and sagemaker_client.sent == []


def test_debugger_fields_already_in_the_request_are_not_overwritten(aws, sagemaker_client):
    request = dict(
        _base("client-clash-1"), ProfilerConfig={"S3OutputPath": "s3://elsewhere/", "DisableProfiler": False}
    )
    with pytest.raises(ConfigError) as err:
        create_training_job(request, rules=[Rule.sagemaker(rule_configs.overfit())], client=sagemaker_client)
    assert err.value.field == "request.ProfilerConfig" and sagemaker_client.sent == []
    same = dict(
        _base("client-clash-2"), ProfilerConfig={"S3OutputPath": f"s3://{BUCKET}/out/", "DisableProfiler": False}
    )
    create_training_job(same, client=sagemaker_client)
    assert sagemaker_client.sent[0]["ProfilerConfig"] == same["ProfilerConfig"]
    # a field the objects do not render stays as given
    kept = dict(_base("client-clash-3"), TensorBoardOutputConfig={"S3OutputPath": f"s3://{BUCKET}/tb-raw/"})
    create_training_job(kept, client=sagemaker_client)
    assert sagemaker_client.sent[1]["TensorBoardOutputConfig"] == {"S3OutputPath": f"s3://{BUCKET}/tb-raw/"}


def test_request_settings_come_from_the_request(aws, sagemaker_client):
    create_training_job(_base("client-trn-1", instance_type="ml.trn1.2xlarge"), client=sagemaker_client)
    assert sagemaker_client.sent[0]["ProfilerConfig"] == {"DisableProfiler": True}
    with pytest.raises(ConfigError) as err:
        create_training_job(
            {k: val for k, val in _base("client-bad-1").items() if k != "OutputDataConfig"}, client=sagemaker_client
        )
    assert err.value.field == "request.OutputDataConfig.S3OutputPath"
    with pytest.raises(ConfigError) as err:
        training_job_request({"OutputDataConfig": {"S3OutputPath": "s3://b/"}}, region="us-west-2")
    assert err.value.field == "request.TrainingJobName"


def test_validation_before_sending(aws, sagemaker_client):
    incomplete = {k: val for k, val in _base("client-invalid-1").items() if k != "RoleArn"}
    with pytest.raises(ConfigError, match="RoleArn"):
        create_training_job(incomplete, client=sagemaker_client)
    with pytest.raises(ConfigError, match="SMD111"):
        create_training_job(
            _base("client-invalid-2"),
            rules=[Rule.sagemaker(rule_configs.overfit())],
            debugger_hook_config=False,
            client=sagemaker_client,
        )
    assert sagemaker_client.sent == []


def test_session_decides_the_region(aws):
    aws.bucket("smdc-client-eu", region="eu-west-1")
    session = aws.session("eu-west-1")
    request = dict(_base("client-eu-1", output_path="s3://smdc-client-eu/out/"))
    create_training_job(request, rules=[Rule.sagemaker(rule_configs.overfit())], session=session)
    described = session.client("sagemaker").describe_training_job(TrainingJobName="client-eu-1")
    assert described["DebugRuleConfigurations"][0]["RuleEvaluatorImage"] == get_rule_container_image_uri(
        "Overfit", "eu-west-1"
    )
    assert from_request(described).region == "eu-west-1"


def test_tuning_requests_and_distributed_checkpointing(aws):
    import warnings

    from sm_debug_config import ConfigError
    from sm_debug_config.integrations.boto3_client import training_job_request
    from sm_debug_config.errors import ConfigWarning

    with pytest.raises(ConfigError, match="tuning"):
        training_job_request({"HyperParameterTuningJobName": "t", "TrainingJobDefinition": {}}, region="us-west-2")
    request = {
        "TrainingJobName": "dist-ckpt-1",
        "OutputDataConfig": {"S3OutputPath": "s3://bucket/out/"},
        "ResourceConfig": {"InstanceType": "ml.p4d.24xlarge", "InstanceCount": 4, "VolumeSizeInGB": 100},
        "CheckpointConfig": {"S3Uri": "s3://bucket/ckpt", "LocalPath": "/opt/ml/checkpoints"},
    }
    with pytest.warns(ConfigWarning, match="4 instances"):
        training_job_request(request, region="us-west-2")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        merged = training_job_request(request, region="us-west-2", debugger_hook_config=False)
    assert "DebugHookConfig" not in merged


def test_settings_the_request_decides_cannot_be_contradicted():
    from sm_debug_config import JobSettings

    request = {"TrainingJobName": "job-1", "OutputDataConfig": {"S3OutputPath": "s3://bucket/out/"}}
    assert training_job_request(request, settings=JobSettings(region="us-west-2")) == training_job_request(
        request, region="us-west-2"
    )
    assert training_job_request(request, region="us-west-2", job_name="job-1")["TrainingJobName"] == "job-1"
    with pytest.raises(ConfigError) as err:
        training_job_request(request, region="us-west-2", job_name="job-2")
    assert err.value.field == "job_name" and "the request" in err.value.message
    with pytest.raises(ConfigError, match="did you mean 'rule_image_uri'"):
        training_job_request(request, region="us-west-2", rule_image="x")
