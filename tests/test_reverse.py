"""from_request(): rebuild objects from a request or a describe response; render(rebuilt) == fields."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given

from sm_debug_config import (
    CollectionConfig,
    ConfigError,
    DataloaderProfilingConfig,
    DebuggerHookConfig,
    DetailedProfilingConfig,
    FrameworkProfile,
    Profiler,
    ProfilerConfig,
    ProfilerRule,
    PythonProfilingConfig,
    Rule,
    TensorBoardOutputConfig,
    render,
    rule_configs,
)
from sm_debug_config.model.actions import ActionList, Email, StopTraining
from sm_debug_config.reverse import RebuiltConfig, from_request

from tests.strategies import examples, request_configurations
from tests.warnhelpers import config_warnings

OUT = "s3://bucket/out/"
JOB = "job-1"
CUSTOM_IMAGE = "111122223333.dkr.ecr.us-east-1.amazonaws.com/my-rules:1"


def _request(fields, job_name=JOB, output_path=OUT, instance_type="ml.m5.xlarge", region=None, **extra):
    """A DescribeTrainingJob-like response around ``fields`` (the ARN names the region, when given)."""
    if region is not None:
        extra["TrainingJobArn"] = f"arn:aws:sagemaker:{region}:123456789012:training-job/{job_name}"
    return dict(
        fields,
        TrainingJobName=job_name,
        OutputDataConfig={"S3OutputPath": output_path},
        ResourceConfig={"InstanceType": instance_type, "InstanceCount": 1},
        **extra,
    )


def _round_trip(fields, region="us-east-1", **request_extra):
    rebuilt = from_request(_request(fields, region=region, **request_extra))
    assert rebuilt.render(validate=False) == fields
    return rebuilt


def test_builtin_rules_come_back_as_rule_sagemaker_with_only_what_was_changed():
    rules = [
        Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"threshold": 0.0001}),
        Rule.sagemaker(rule_configs.loss_not_decreasing(), name="MyLoss", rule_parameters={"mode": "TRAIN"}),
        Rule.sagemaker(rule_configs.similar_across_runs(), other_trials_s3_input_paths=["s3://bucket/a/", "s3://bucket/b/"]),
    ]
    fields = render(rules, region="us-east-1", output_path=OUT, job_name=JOB)
    rebuilt = _round_trip(fields)
    assert [r.name for r in rebuilt.rules] == ["VanishingGradient", "MyLoss", "SimilarAcrossRuns"]
    assert [r.builtin_rule for r in rebuilt.rules] == ["VanishingGradient", "LossNotDecreasing", "SimilarAcrossRuns"]
    assert rebuilt.rules[0].rule_parameters == rules[0].rule_parameters
    assert rebuilt.rules[2].rule_parameters["other_trial_1"] == "s3://bucket/b/"
    assert rebuilt.debugger_hook_config is None and rebuilt.profiler_config is None
    assert rebuilt.region == "us-east-1" and rebuilt.output_path == OUT and rebuilt.job_name == JOB


def test_hook_overrides_land_on_the_hook_and_rules_keep_covered_defaults():
    hook = DebuggerHookConfig(
        s3_output_path="s3://bucket/tensors/",
        hook_parameters={"save_interval": "100"},
        collection_configs=[
            CollectionConfig("gradients", {"save_interval": "10"}),
            CollectionConfig("custom", {"include_regex": "dense.*"}),
        ],
    )
    rules = [Rule.sagemaker(rule_configs.vanishing_gradient()), Rule.sagemaker(rule_configs.loss_not_decreasing())]
    fields = render(rules, hook, region="us-west-2", output_path=OUT, job_name=JOB)
    rebuilt = _round_trip(fields, region="us-west-2")
    assert [c.name for c in rebuilt.debugger_hook_config.collection_configs] == ["gradients", "custom", "losses"]
    assert rebuilt.debugger_hook_config.s3_output_path == "s3://bucket/tensors/"
    assert rebuilt.rules[0].collection_configs == [CollectionConfig("gradients", {"save_interval": "500"})]


def test_a_hand_written_hook_that_misses_a_rule_default_key_still_round_trips():
    request = render([Rule.sagemaker(rule_configs.vanishing_gradient())], region="us-east-1", output_path=OUT)
    request["DebugHookConfig"]["CollectionConfigurations"] = [
        {"CollectionName": "gradients"},
        {"CollectionName": "weights", "CollectionParameters": {"save_interval": "7"}},
    ]
    rebuilt = _round_trip(request)
    assert rebuilt.rules[0].collection_configs == []


def test_an_entry_without_parameters_stays_without_them():
    request = render(
        [Rule.sagemaker(rule_configs.vanishing_gradient(), collections_to_save=[CollectionConfig("gradients", {})])],
        region="us-east-1",
        output_path=OUT,
    )
    request["DebugHookConfig"]["CollectionConfigurations"] = [{"CollectionName": "gradients"}]
    assert _round_trip(request).rules[0].collection_configs == []


def test_repeated_collection_names_rebuild_and_render_the_last_as_smdebug_keeps_it():
    request = render(region="us-east-1", output_path=OUT)
    request["DebugHookConfig"]["CollectionConfigurations"] = [
        {"CollectionName": "losses", "CollectionParameters": {"save_interval": "10"}},
        {"CollectionName": "losses", "CollectionParameters": {"save_interval": "15"}},
    ]
    rebuilt = from_request(_request(request, region="us-east-1"))
    assert [c.name for c in rebuilt.debugger_hook_config.collection_configs] == ["losses", "losses"]
    with config_warnings("SMD116"):  # the hook lists it twice: the last is sent, as smdebug applies the last entry
        fields = rebuilt.render()
    assert fields["DebugHookConfig"]["CollectionConfigurations"] == [
        {"CollectionName": "losses", "CollectionParameters": {"save_interval": "15"}}
    ]


def test_actions_come_back_with_stop_training_for_the_job_itself():
    actions = ActionList(StopTraining(), StopTraining("other-job"), Email("first.last+tag@example.co.uk"))
    fields = render(
        [Rule.sagemaker(rule_configs.overtraining(), actions=actions)],
        region="us-east-1",
        output_path=OUT,
        job_name=JOB,
    )
    rebuilt = _round_trip(fields)
    assert rebuilt.rules[0].actions == actions
    assert rebuilt.rules[0].actions.actions[0].use_default_training_job_prefix
    explicit = render(
        [Rule.sagemaker(rule_configs.overtraining(), actions=StopTraining(JOB))],
        region="us-east-1",
        output_path=OUT,
        job_name=JOB,
    )
    assert _round_trip(explicit).rules[0].actions.use_default_training_job_prefix is False


def test_custom_rules_debugger_and_profiler():
    rules = [
        Rule.custom(
            "MyRule",
            CUSTOM_IMAGE,
            "ml.m5.xlarge",
            30,
            source="s3://bucket/r.py",
            rule_to_invoke="MyRule",
            other_trials_s3_input_paths=["s3://bucket/t/"],
            rule_parameters={"threshold": 3},
            collections_to_save=[CollectionConfig("mine", {"include_regex": "x"})],
        ),
        ProfilerRule.custom(
            "MyProf",
            CUSTOM_IMAGE,
            "ml.m5.large",
            10,
            source="s3://bucket/p.py",
            rule_to_invoke="MyProf",
            rule_parameters={"n": 1},
        ),
    ]
    fields = render(rules, region="us-east-1", output_path=OUT, job_name=JOB, validate=False)
    rebuilt = _round_trip(fields)
    assert rebuilt.rules[0].rule_parameters["source_s3_uri"] == "s3://bucket/r.py"
    assert rebuilt.rules[0].volume_size_in_gb == 30 and rebuilt.rules[1].instance_type == "ml.m5.large"
    assert [c.name for c in rebuilt.debugger_hook_config.collection_configs] == ["mine"]


def test_profiler_rules_and_framework_profile():
    profile = FrameworkProfile(
        file_max_size=2048,
        detailed_profiling_config=DetailedProfilingConfig(start_unix_time=1700000000, duration=30),
        dataloader_profiling_config=DataloaderProfilingConfig(start_step=3, metrics_regex="Get.*"),
        python_profiling_config=PythonProfilingConfig(start_step=3, num_steps=2, python_profiler="pyinstrument"),
    )
    config = ProfilerConfig(
        s3_output_path="s3://bucket/prof/", system_monitor_interval_millis=200, framework_profile_params=profile
    )
    rules = [
        ProfilerRule.sagemaker(rule_configs.ProfilerReport(CPUBottleneck_threshold=90)),
        ProfilerRule.sagemaker(rule_configs.CPUBottleneck(threshold=70)),
    ]
    fields = render(rules, profiler_config=config, region="eu-west-1", output_path=OUT, job_name=JOB)
    rebuilt = from_request(_request(fields))  # the region comes from the rule images
    assert rebuilt.render() == fields
    assert rebuilt.profiler_config.framework_profile_params == profile
    assert [r.builtin_rule for r in rebuilt.rules] == ["ProfilerReport", "CPUBottleneck"]
    assert rebuilt.region == "eu-west-1"


def test_sdk_written_time_ranges_are_kept_exactly():
    with config_warnings():  # no SMD145: the HorovodProfilingConfig FrameworkProfile adds is not the user's
        fields = render(
            profiler_config=ProfilerConfig(framework_profile_params=FrameworkProfile()),
            region="us-east-1",
            output_path=OUT,
        )
    fields["ProfilerConfig"]["ProfilingParameters"]["DetailedProfilingConfig"] = (
        '{"StartTimeInSecSinceEpoch": 1700000000, "Duration": 30, }'
    )
    rebuilt = _round_trip(fields)
    assert (
        rebuilt.profiler_config.framework_profile_params.profiling_parameters
        == fields["ProfilerConfig"]["ProfilingParameters"]
    )


def test_profiler_processing_rule_is_left_to_render_when_it_would_add_it_again():
    config = ProfilerConfig(profile_params=Profiler(cpu_profiling_duration=600))
    fields = render(profiler_config=config, region="us-east-1", output_path=OUT, job_name=JOB)
    rebuilt = _round_trip(fields)
    assert rebuilt.rules is None and rebuilt.profiler_config.profile_params == Profiler(cpu_profiling_duration=600)
    # another job's name (an SDK timestamp, say) is kept as an explicit rule
    rebuilt = _round_trip(fields, job_name="job-2")
    assert [r.name for r in rebuilt.rules] == [f"DetailedProfilerProcessingJobConfig-{JOB}"]
    # rules=[] keeps the Estimator from adding it
    no_rule = render([], profiler_config=config, region="us-east-1", output_path=OUT, job_name=JOB)
    assert _round_trip(no_rule).rules == []


def test_disabled_profiler_trainium_and_no_hook():
    fields = render(
        [ProfilerRule.sagemaker(rule_configs.LowGPUUtilization())],
        False,
        disable_profiler=False,
        region="us-east-1",
        output_path=OUT,
    )
    rebuilt = _round_trip(fields)
    assert rebuilt.debugger_hook_config is False
    off = render(disable_profiler=True, region="us-east-1", output_path=OUT)
    assert _round_trip(off).disable_profiler is True
    trainium = render(region="us-east-1", output_path=OUT, instance_type="ml.trn1.2xlarge")
    assert _round_trip(trainium, instance_type="ml.trn1.2xlarge").instance_type == "ml.trn1.2xlarge"
    interval_off = render(
        profiler_config=ProfilerConfig(disable_profiler=True, system_monitor_interval_millis=100),
        region="us-east-1",
        output_path=OUT,
    )
    assert _round_trip(interval_off).profiler_config.disable_profiler is True


def test_tensorboard_and_region_from_the_arn():
    fields = render(
        tensorboard_output_config=TensorBoardOutputConfig("s3://bucket/tb", "/tensorboard"),
        region="ap-southeast-2",
        output_path=OUT,
    )
    rebuilt = from_request(
        _request(fields, TrainingJobArn="arn:aws:sagemaker:ap-southeast-2:123456789012:training-job/job-1")
    )
    assert rebuilt.region == "ap-southeast-2" and rebuilt.tensorboard_output_config == TensorBoardOutputConfig(
        "s3://bucket/tb", "/tensorboard"
    )
    assert rebuilt.render() == fields


def test_rule_image_override_and_unknown_region():
    fields = render(
        [Rule.sagemaker(rule_configs.overfit())],
        region="us-east-1",
        output_path=OUT,
        rule_image_uri="123456789012.dkr.ecr.us-east-1.amazonaws.com/mirror:1",
    )
    assert (
        from_request(_request(fields)).rules[0].builtin_rule is None
    )  # an image not known as built-in: kept literally
    rebuilt = from_request(_request(fields), rule_image_uri="123456789012.dkr.ecr.us-east-1.amazonaws.com/mirror:1")
    assert rebuilt.rules[0].builtin_rule == "Overfit" and rebuilt.render() == fields
    bare = from_request({"DebugHookConfig": {"S3OutputPath": OUT, "CollectionConfigurations": []}})
    with pytest.raises(ConfigError) as err:
        bare.render_kwargs()
    assert err.value.field == "region"
    assert (
        from_request(
            {"DebugHookConfig": {"S3OutputPath": OUT, "CollectionConfigurations": []}}, region="us-east-1"
        ).render(output_path="s3://x-bucket/")["DebugHookConfig"]["S3OutputPath"]
        == OUT
    )


def test_bad_input_is_a_config_error():
    with pytest.raises(ConfigError):
        from_request("not a request")
    with pytest.raises(ConfigError) as err:
        from_request(
            _request(
                {
                    "DebugRuleConfigurations": [
                        {
                            "RuleConfigurationName": "X",
                            "RuleEvaluatorImage": CUSTOM_IMAGE,
                            "RuleParameters": {"action_json": "{oops"},
                        }
                    ]
                }
            )
        )
    assert "action_json" in err.value.field
    with pytest.raises(ConfigError):
        from_request({}, region="not-a-region")


def test_present_fields_and_render_kwargs():
    fields = render(region="us-east-1", output_path=OUT)
    rebuilt = from_request(_request({"DebugHookConfig": fields["DebugHookConfig"]}), region="us-east-1")
    assert rebuilt.present_fields == ("DebugHookConfig",)
    assert isinstance(rebuilt, RebuiltConfig) and set(rebuilt.render_kwargs()) >= {
        "rules",
        "region",
        "output_path",
        "job_name",
    }


# --- the property -------------------------------------------------------------------------------

@examples(150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(request_configurations())
def test_rendering_the_rebuilt_objects_gives_the_same_fields(kwargs):
    try:
        fields = render(**kwargs, validate=False)
    except ConfigError:
        assume(False)
    settings = dict(
        job_name=kwargs["job_name"],
        output_path=kwargs["output_path"],
        instance_type=kwargs["instance_type"],
        region=kwargs["region"],
    )
    rebuilt = from_request(_request(fields, **settings))
    assert rebuilt.render(validate=False) == fields
    again = from_request(_request(rebuilt.render(validate=False), **settings))
    assert again == rebuilt


def test_rebuilt_config_is_a_setup_and_settings():
    import attrs

    from sm_debug_config import DebuggerSetup, JobSettings

    fields = render([Rule.sagemaker(rule_configs.overfit())], region="us-east-1", output_path=OUT, job_name=JOB)
    rebuilt = from_request(_request(fields), settings=JobSettings(region="us-east-1", rule_image_uri=None))
    assert isinstance(rebuilt.setup, DebuggerSetup) and isinstance(rebuilt.settings, JobSettings)
    assert rebuilt.settings == JobSettings(
        region="us-east-1", output_path=OUT, job_name=JOB, instance_type="ml.m5.xlarge"
    )
    assert rebuilt.rules is rebuilt.setup.rules and rebuilt.job_name == JOB
    assert (
        attrs.evolve(rebuilt, settings=attrs.evolve(rebuilt.settings, job_name="job-2")).render()[
            "DebugRuleConfigurations"
        ]
        == fields["DebugRuleConfigurations"]
    )
    with pytest.raises(AttributeError):
        rebuilt.no_such_setting  # noqa: B018 - the look-up is what raises
    # what the request says wins over a given stand-in; the given region wins over a guess
    assert from_request(_request(fields), job_name="other").job_name == JOB
    assert (
        from_request(
            {"DebugHookConfig": fields["DebugHookConfig"]}, job_name="other", output_path=OUT, region="eu-west-1"
        ).settings.region
        == "eu-west-1"
    )


def test_describe_response_fills_built_in_rule_resources_that_come_back_as_built_in_rules():
    """DescribeTrainingJob returns InstanceType and VolumeSizeInGB 0 for built-in rules sent without them (issue 14)."""
    from sm_debug_config import ProfilerRule, Rule, from_request, render, rule_configs

    fields = render(
        [Rule.sagemaker(rule_configs.vanishing_gradient()), ProfilerRule.sagemaker(rule_configs.ProfilerReport())],
        region="us-east-1",
        output_path="s3://b/o/",
    )
    described = dict(fields, TrainingJobArn="arn:aws:sagemaker:us-east-1:123456789012:training-job/job-1")
    for key in ("DebugRuleConfigurations", "ProfilerRuleConfigurations"):
        described[key] = [dict(entry, InstanceType="ml.t3.medium", VolumeSizeInGB=0) for entry in fields[key]]
    rebuilt = from_request(described)
    assert [r.builtin_rule for r in rebuilt.rules] == ["VanishingGradient", "ProfilerReport"]
    assert rebuilt.render() == fields
    custom = dict(
        described,
        DebugRuleConfigurations=[
            dict(fields["DebugRuleConfigurations"][0], InstanceType="ml.m5.xlarge", VolumeSizeInGB=30)
        ],
    )
    assert from_request(custom).rules[0].instance_type == "ml.m5.xlarge"  # asked for: kept
