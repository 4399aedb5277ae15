"""sagemaker-core: our objects as ``TrainingJob.create`` shapes, sent to a local moto server.

Runs against whichever sagemaker-core is installed: 2.x (SageMaker Python SDK v3, in
``.venv-v3`` via ``scripts/test_v3.sh``) or 1.x (installed beside SDK v2 in ``.venv``).
"""
from __future__ import annotations

import importlib
import json
import os

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
    render,
    rule_configs,
)
from sm_debug_config.model.actions import StopTraining
from sm_debug_config.rendering import FIELDS
from sm_debug_config.integrations.sagemaker_core import (
    ARGUMENTS,
    fields_to_sagemaker_core,
    shapes_module,
    to_sagemaker_core,
)

from tests.warnhelpers import config_warnings

try:
    SHAPES = shapes_module()
except ConfigError as err:  # pragma: no cover - environment without sagemaker-core
    pytest.skip(str(err), allow_module_level=True)

V3 = SHAPES.__name__.startswith("sagemaker.core")
RESOURCES = importlib.import_module("sagemaker.core.resources" if V3 else "sagemaker_core.resources")
UTILS = importlib.import_module("sagemaker.core.utils.utils" if V3 else "sagemaker_core.main.utils")
OUT = "s3://smdc-core/out/"
ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"


def _scenario():
    rules = [
        Rule.sagemaker(rule_configs.vanishing_gradient(), actions=StopTraining()),
        Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={"mode": "TRAIN"}),
        ProfilerRule.sagemaker(rule_configs.CPUBottleneck(threshold=70)),
        Rule.custom(
            "MyRule",
            "123456789012.dkr.ecr.us-west-2.amazonaws.com/rules:1",
            "ml.m5.xlarge",
            30,
            source="s3://smdc-core/rule.py",
            rule_to_invoke="MyRule",
            collections_to_save=[CollectionConfig("mine", {"include_regex": "x.*"})],
        ),
    ]
    hook = DebuggerHookConfig(
        hook_parameters={"save_interval": "10"},
        collection_configs=[CollectionConfig("gradients", {"save_interval": "5"})],
    )
    profiler = ProfilerConfig(
        system_monitor_interval_millis=500, framework_profile_params=FrameworkProfile(start_step=3, num_steps=2)
    )
    tensorboard = TensorBoardOutputConfig("s3://smdc-core/tb/", "/tensorboard")
    return dict(rules=rules, debugger_hook_config=hook, profiler_config=profiler, tensorboard_output_config=tensorboard)


def _without_falsy(value):
    """What sagemaker-core's serializer keeps of a shape: false and empty values are left out."""
    if isinstance(value, dict):
        kept = {k: _without_falsy(val) for k, val in value.items()}
        return {k: val for k, val in kept.items() if val}
    if isinstance(value, list):
        return [item for item in (_without_falsy(i) for i in value) if item]
    return value


def test_shapes_carry_exactly_the_rendered_fields():
    settings = dict(region="us-west-2", output_path=OUT, job_name="core-job-1", instance_type="ml.m5.xlarge")
    with config_warnings():  # no SMD145: the HorovodProfilingConfig FrameworkProfile adds is not the user's
        kwargs = to_sagemaker_core(**_scenario(), **settings)
    with config_warnings():
        fields = render(**_scenario(), **settings)
    assert set(kwargs) == {ARGUMENTS[f] for f in fields}
    assert isinstance(kwargs["debug_hook_config"], SHAPES.DebugHookConfig)
    assert all(isinstance(r, SHAPES.DebugRuleConfiguration) for r in kwargs["debug_rule_configurations"])
    assert isinstance(kwargs["profiler_rule_configurations"][0], SHAPES.ProfilerRuleConfiguration)
    serialized = {field: UTILS.serialize(kwargs[ARGUMENTS[field]]) for field in fields}
    assert serialized == {field: _without_falsy(value) for field, value in fields.items()}
    assert kwargs["debug_hook_config"].collection_configurations[0].collection_name == "gradients"
    assert kwargs["profiler_config"].disable_profiler is False  # in the shape; the serializer drops it


def test_the_expected_sagemaker_core_is_used():
    if os.environ.get("SM_DEBUG_CONFIG_EXPECT_V3"):
        assert V3, f"scripts/test_v3.sh should test sagemaker-core 2.x, got {SHAPES.__name__}"
    assert SHAPES.__name__ in ("sagemaker.core.shapes", "sagemaker_core.shapes")


def test_fields_to_sagemaker_core_refuses_unknown_keys():
    with pytest.raises(ConfigError) as err:
        fields_to_sagemaker_core({"TensorBoardOutputConfig": {"S3OutputPath": "s3://b/tb", "Bogus": 1}})
    assert err.value.field == "TensorBoardOutputConfig"
    with pytest.raises(ConfigError):
        fields_to_sagemaker_core("nope")


def test_profiler_processing_rule_and_disabled_profiler():
    kwargs = to_sagemaker_core(
        profiler_config=ProfilerConfig(profile_params=Profiler()),
        region="us-west-2",
        output_path=OUT,
        job_name="core-job-2",
    )
    assert [r.rule_configuration_name for r in kwargs["profiler_rule_configurations"]] == [
        "DetailedProfilerProcessingJobConfig-core-job-2"
    ]
    off = to_sagemaker_core(disable_profiler=True, debugger_hook_config=False, region="us-west-2", output_path=OUT)
    assert set(off) == {"profiler_config"} and off["profiler_config"].disable_profiler is True


def test_training_job_create_sends_them(aws):
    aws.bucket("smdc-core")
    session = aws.session()
    client = RESOURCES.Base.get_sagemaker_client(session=session, region_name=aws.region, service_name="sagemaker")
    region = client.meta.region_name
    sent = []
    client.meta.events.register(
        "before-send.sagemaker.CreateTrainingJob", lambda request, **_: sent.append(json.loads(request.body))
    )
    settings = dict(region=region, output_path=OUT, job_name="core-job-3", instance_type="ml.m5.xlarge")
    with config_warnings():  # no SMD145: the HorovodProfilingConfig FrameworkProfile adds is not the user's
        arguments = to_sagemaker_core(**_scenario(), **settings)

    RESOURCES.TrainingJob.create(
        training_job_name="core-job-3",
        role_arn=ROLE,
        output_data_config=SHAPES.OutputDataConfig(s3_output_path=OUT),
        algorithm_specification=SHAPES.AlgorithmSpecification(
            training_image="123456789012.dkr.ecr.us-west-2.amazonaws.com/train:1", training_input_mode="File"
        ),
        resource_config=SHAPES.ResourceConfig(instance_type="ml.m5.xlarge", instance_count=1, volume_size_in_gb=30),
        stopping_condition=SHAPES.StoppingCondition(max_runtime_in_seconds=3600),
        session=session,
        region=region,
        **arguments,
    )

    [body] = sent
    with config_warnings():
        fields = render(**_scenario(), **settings)
    assert {f: body[f] for f in FIELDS if f in body} == {f: _without_falsy(v) for f, v in fields.items()}
    described = client.describe_training_job(TrainingJobName="core-job-3")
    assert described["DebugRuleConfigurations"] == fields["DebugRuleConfigurations"]


def test_arguments_are_training_job_create_parameters():
    import inspect

    parameters = inspect.signature(RESOURCES.TrainingJob.create).parameters
    assert set(FIELDS) == set(ARGUMENTS) and set(ARGUMENTS.values()) <= set(parameters)
