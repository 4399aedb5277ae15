"""SDK v3: Debugger fields on ``ModelTrainer.train()`` and v3 Pipeline steps, against moto.

Runs in the v3 venv (``scripts/test_v3.sh``: ``sagemaker`` 3.x with sagemaker-train and
sagemaker-mlops, no SDK v2). The handler of ``integrations.boto3_events`` must make the
request that leaves carry exactly ``render()``'s fields, with the output path and job name of
the trainer's own request.
"""
from __future__ import annotations

import json

import pytest

from sm_debug_config import (
    CollectionConfig,
    ConfigError,
    DebuggerHookConfig,
    FrameworkProfile,
    ProfilerConfig,
    ProfilerRule,
    Rule,
    TensorBoardOutputConfig,
    render,
    rule_configs,
)
from sm_debug_config.integrations.boto3_events import DEBUGGER_FIELDS, add_to_step_arguments, attach
from sm_debug_config.model.actions import StopTraining

from tests.warnhelpers import config_warnings

train_module = pytest.importorskip("sagemaker.train", reason="sagemaker-train (SDK v3) is not installed")

from sagemaker.core.helper.session_helper import Session  # noqa: E402 - needs the importorskip above
from sagemaker.core.training.configs import (  # noqa: E402 - needs the importorskip above
    Compute,
    OutputDataConfig,
    StoppingCondition,
)
from sagemaker.core.training import configs  # noqa: E402 - needs the importorskip above

ModelTrainer = train_module.ModelTrainer
BUCKET = "smdc-v3"
OUT = f"s3://{BUCKET}/out/"
ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"
IMAGE = "123456789012.dkr.ecr.us-west-2.amazonaws.com/train:1"


@pytest.fixture
def v3(aws, monkeypatch):
    monkeypatch.setenv("SAGEMAKER_VALIDATE_ROLE", "false")  # moto has no iam:SimulatePrincipalPolicy
    aws.bucket(BUCKET)
    boto_session = aws.session()
    sent = []
    boto_session.events.register(
        "before-send.sagemaker.CreateTrainingJob", lambda request, **_: sent.append(json.loads(request.body))
    )
    return boto_session, sent


def _trainer(sagemaker_session, **extra):
    return ModelTrainer(
        training_image=IMAGE,
        role=ROLE,
        compute=Compute(instance_type="ml.m5.xlarge", instance_count=1),
        sagemaker_session=sagemaker_session,
        base_job_name="smdc-v3",
        output_data_config=OutputDataConfig(s3_output_path=OUT),
        stopping_condition=StoppingCondition(max_runtime_in_seconds=3600),
        **extra,
    )


def _setup():
    return dict(
        rules=[
            Rule.sagemaker(rule_configs.vanishing_gradient(), actions=StopTraining()),
            Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={"mode": "TRAIN"}),
            ProfilerRule.sagemaker(rule_configs.CPUBottleneck(threshold=70)),
        ],
        debugger_hook_config=DebuggerHookConfig(
            hook_parameters={"save_interval": "10"},
            collection_configs=[CollectionConfig("gradients", {"save_interval": "5"})],
        ),
        profiler_config=ProfilerConfig(
            system_monitor_interval_millis=500, framework_profile_params=FrameworkProfile(start_step=3, num_steps=2)
        ),
        tensorboard_output_config=TensorBoardOutputConfig(f"s3://{BUCKET}/tb/", "/tensorboard"),
    )


def _debugger(body):
    return {name: body[name] for name in DEBUGGER_FIELDS if name in body}


def _train(trainer):
    trainer.train(wait=False, logs=False)


@pytest.mark.parametrize("defaults", ["explicit", "sdk"])
def test_model_trainer_sends_exactly_the_rendered_fields(v3, defaults):
    boto_session, sent = v3
    trainer = _trainer(Session(boto_session=boto_session, default_bucket=BUCKET))
    with attach(trainer, defaults=defaults, **_setup()), config_warnings():
        _train(trainer)
    [body] = sent
    with config_warnings():
        expected = render(**_setup(), defaults=defaults, region=boto_session.region_name,
                          output_path=body["OutputDataConfig"]["S3OutputPath"], job_name=body["TrainingJobName"])
    assert _debugger(body) == expected
    # StopTraining() without a prefix names the trainer's own job
    action = json.loads(expected["DebugRuleConfigurations"][0]["RuleParameters"]["action_json"].replace('\\"', '"'))
    assert action["training_job_prefix"] == body["TrainingJobName"]


def test_the_handler_is_gone_after_the_block(v3):
    boto_session, sent = v3
    trainer = _trainer(Session(boto_session=boto_session, default_bucket=BUCKET))
    with attach(trainer, rules=[Rule.sagemaker(rule_configs.loss_not_decreasing())], defaults="explicit"):
        pass
    _train(trainer)
    assert _debugger(sent[-1]) == {}


def test_with_tensorboard_output_config_default_is_flagged(v3):
    """ModelTrainer.with_tensorboard_output_config() sends LocalPath /opt/ml/output/tensorboard."""
    boto_session, sent = v3
    trainer = _trainer(Session(boto_session=boto_session, default_bucket=BUCKET)).with_tensorboard_output_config()
    _train(trainer)  # without us: what v3 sends by default
    sent_tb = sent[-1]["TensorBoardOutputConfig"]
    assert sent_tb["LocalPath"] == "/opt/ml/output/tensorboard"
    assert sent_tb["S3OutputPath"].startswith(f"s3://{BUCKET}/")
    rules = [Rule.sagemaker(rule_configs.loss_not_decreasing())]
    with attach(trainer, rules=rules, defaults="explicit"), pytest.raises(ConfigError) as err:
        _train(trainer)
    assert "TensorBoardOutputConfig" in str(err.value) and "/opt/ml" in str(err.value)
    assert len(sent) == 1  # refused before anything was sent


def test_a_trainer_tensorboard_outside_opt_ml_is_kept(v3):
    boto_session, sent = v3
    trainer = _trainer(Session(boto_session=boto_session, default_bucket=BUCKET)).with_tensorboard_output_config(
        configs.TensorBoardOutputConfig(s3_output_path=f"s3://{BUCKET}/tb/", local_path="/tensorboard"))
    rules = [Rule.sagemaker(rule_configs.loss_not_decreasing())]
    with attach(trainer, rules=rules, defaults="explicit"):
        _train(trainer)
    [body] = sent
    assert body["TensorBoardOutputConfig"] == {"S3OutputPath": f"s3://{BUCKET}/tb/", "LocalPath": "/tensorboard"}
    fields = render(
        rules, defaults="explicit", region=boto_session.region_name, output_path=OUT, job_name=body["TrainingJobName"]
    )
    assert {k: v for k, v in _debugger(body).items() if k != "TensorBoardOutputConfig"} == fields


def test_debugger_fields_already_in_the_request_are_not_overwritten(v3):
    boto_session, sent = v3
    trainer = _trainer(Session(boto_session=boto_session, default_bucket=BUCKET)).with_tensorboard_output_config(
        configs.TensorBoardOutputConfig(s3_output_path=f"s3://{BUCKET}/theirs/", local_path="/tensorboard"))
    ours = TensorBoardOutputConfig(f"s3://{BUCKET}/ours/", "/tb")
    with attach(trainer, tensorboard_output_config=ours, defaults="explicit"), pytest.raises(ConfigError) as err:
        _train(trainer)
    assert err.value.field == "TensorBoardOutputConfig"
    assert sent == []


def test_plain_boto3_client(v3):
    boto_session, sent = v3
    client = boto_session.client("sagemaker")
    request = dict(
        TrainingJobName="plain-boto3-1",
        RoleArn=ROLE,
        AlgorithmSpecification={"TrainingImage": IMAGE, "TrainingInputMode": "File"},
        OutputDataConfig={"S3OutputPath": OUT},
        ResourceConfig={"InstanceType": "ml.m5.xlarge", "InstanceCount": 1, "VolumeSizeInGB": 30},
        StoppingCondition={"MaxRuntimeInSeconds": 3600},
    )
    with attach(client, **_setup()):
        with config_warnings():
            client.create_training_job(**request)
        with pytest.raises(ConfigError), config_warnings():  # said before the conflict is refused
            client.create_training_job(
                **dict(request, TrainingJobName="plain-boto3-2", DebugHookConfig={"S3OutputPath": OUT})
            )
    [body] = sent
    with config_warnings():
        assert _debugger(body) == render(
            **_setup(), region=client.meta.region_name, output_path=OUT, job_name="plain-boto3-1"
        )
    assert "DebugRuleConfigurations" in client.describe_training_job(TrainingJobName="plain-boto3-1")


def test_boto3_session_covers_clients_made_afterwards(v3):
    boto_session, sent = v3
    with attach(boto_session, rules=[Rule.sagemaker(rule_configs.loss_not_decreasing())], defaults="explicit"):
        boto_session.client("sagemaker").create_training_job(
            TrainingJobName="session-1",
            RoleArn=ROLE,
            AlgorithmSpecification={"TrainingImage": IMAGE, "TrainingInputMode": "File"},
            OutputDataConfig={"S3OutputPath": OUT},
            ResourceConfig={"InstanceType": "ml.m5.xlarge", "InstanceCount": 1, "VolumeSizeInGB": 30},
            StoppingCondition={"MaxRuntimeInSeconds": 3600},
        )
    assert sent[-1]["DebugRuleConfigurations"][0]["RuleConfigurationName"] == "LossNotDecreasing"


def test_bad_settings_fail_at_attach_not_at_train(v3):
    boto_session, _ = v3
    with pytest.raises(ConfigError) as err, attach(boto_session, rules=[], defualts="explicit"):
        pass
    assert "defaults" in str(err.value)


def test_pipeline_definition_carries_the_fields(aws, monkeypatch):
    monkeypatch.setenv("SAGEMAKER_VALIDATE_ROLE", "false")
    from sagemaker.core.workflow.pipeline_context import PipelineSession
    from sagemaker.mlops.workflow.pipeline import Pipeline
    from sagemaker.mlops.workflow.steps import TrainingStep

    boto_session = aws.session()
    pipeline_session = PipelineSession(boto_session=boto_session, default_bucket=BUCKET)
    trainer = _trainer(pipeline_session)
    setup = _setup()
    setup["rules"][0] = Rule.sagemaker(
        rule_configs.vanishing_gradient(), actions=StopTraining("smdc-v3")
    )  # pipelines name jobs at run time
    step = TrainingStep(
        name="Train", step_args=add_to_step_arguments(trainer.train(), defaults="explicit", **setup)
    )
    pipeline = Pipeline(name="smdc-v3-pipeline", steps=[step], sagemaker_session=pipeline_session)
    with config_warnings():  # as each definition is built
        definition = json.loads(pipeline.definition())
        again = json.loads(pipeline.definition())
    arguments = definition["Steps"][0]["Arguments"]
    with config_warnings():
        assert _debugger(arguments) == render(
            **setup, defaults="explicit", region=boto_session.region_name, output_path=OUT
        )
    assert again == definition  # building the definition twice adds the fields once
    with pytest.raises(ConfigError):
        add_to_step_arguments(step.step_args, rules=[])
    with pytest.raises(ConfigError):
        add_to_step_arguments(object(), rules=[])


def test_from_sdk_converts_the_v3_port_of_sagemaker_debugger():
    """``sagemaker.core.debugger`` (the v3 port nothing in v3 uses) converts like SDK v2's classes."""
    port = pytest.importorskip("sagemaker.core.debugger")
    import smdebug_rulesconfig as sdk_actions

    from sm_debug_config import DetailedProfilingConfig, get_rule_container_image_uri
    from sm_debug_config.integrations.sdk_objects import from_sdk
    from sm_debug_config.model.actions import ActionList, Email

    region = "us-west-2"
    sdk_rules = [
        port.Rule.sagemaker(
            port.rule_configs.vanishing_gradient(),
            rule_parameters={"threshold": "0.0001"},
            actions=sdk_actions.ActionList(sdk_actions.StopTraining("job-a"), sdk_actions.Email("ml@example.com")),
        ),
        port.Rule.custom(
            "MyRule",
            "123456789012.dkr.ecr.us-west-2.amazonaws.com/rules:1",
            "ml.m5.xlarge",
            30,
            source=f"s3://{BUCKET}/rule.py",
            rule_to_invoke="MyRule",
            collections_to_save=[port.CollectionConfig("mine", {"include_regex": "x.*"})],
        ),
        port.ProfilerRule.sagemaker(port.rule_configs.ProfilerReport(CPUBottleneck_threshold=90)),
    ]
    sdk_hook = port.DebuggerHookConfig(
        hook_parameters={"save_interval": "10"},
        collection_configs=[port.CollectionConfig("gradients", {"save_interval": "5"})],
    )
    sdk_tb = port.TensorBoardOutputConfig(f"s3://{BUCKET}/tb/", "/tensorboard")
    sdk_profiler = port.ProfilerConfig(
        system_monitor_interval_millis=500,
        framework_profile_params=port.FrameworkProfile(
            detailed_profiling_config=port.DetailedProfilingConfig(start_step=3, num_steps=2)
        ),
    )

    rules, hook, tb, profiler = from_sdk(sdk_rules), from_sdk(sdk_hook), from_sdk(sdk_tb), from_sdk(sdk_profiler)
    assert rules[0] == Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"threshold": "0.0001"},
                                      actions=ActionList(StopTraining("job-a"), Email("ml@example.com")))
    assert rules[2] == ProfilerRule.sagemaker(rule_configs.ProfilerReport(CPUBottleneck_threshold=90))
    assert profiler == ProfilerConfig(
        system_monitor_interval_millis=500,
        framework_profile_params=FrameworkProfile(
            detailed_profiling_config=DetailedProfilingConfig(start_step=3, num_steps=2)
        ),
    )
    fields = render(rules, hook, profiler, tb, region=region, output_path=OUT, job_name="port-1")
    # what the port's own serialisers write, with the built-in image resolved as an Estimator does
    expected_rules = []
    for sdk_rule in sdk_rules[:2]:
        entry = sdk_rule.to_debugger_rule_config_dict()
        if entry["RuleEvaluatorImage"] == "DEFAULT_RULE_EVALUATOR_IMAGE":
            entry["RuleEvaluatorImage"] = get_rule_container_image_uri(
                entry["RuleParameters"]["rule_to_invoke"], region
            )
        expected_rules.append(entry)
    action_free = [
        dict(r, RuleParameters={k: v for k, v in r["RuleParameters"].items() if k != "action_json"})
        for r in fields["DebugRuleConfigurations"]
    ]
    assert action_free == expected_rules
    assert fields["TensorBoardOutputConfig"] == sdk_tb._to_request_dict()
    assert fields["ProfilerConfig"]["ProfilingParameters"] == sdk_profiler._to_request_dict()["ProfilingParameters"]
    assert {"CollectionName": "gradients", "CollectionParameters": {"save_interval": "5"}} in fields["DebugHookConfig"][
        "CollectionConfigurations"
    ]
