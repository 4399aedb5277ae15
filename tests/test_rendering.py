"""render(): the SDK v2 Estimator's defaults, region rules and errors, without touching inputs; explicit
defaults, the one off switch and merging into a request (issue 10)."""
import copy
import os
import runpy
import warnings

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
    artifact_paths,
    get_rule_container_image_uri,
    render,
    rule_configs,
)
from sm_debug_config.rendering import merge_into_request

from tests.warnhelpers import config_warnings

OUT = "s3://bucket/out/"
US = dict(region="us-east-1", output_path=OUT)
IMAGE = "503895931360.dkr.ecr.us-east-1.amazonaws.com/sagemaker-debugger-rules:latest"


def test_nothing_given_gives_the_sdk_defaults():
    assert render(**US) == {
        "DebugHookConfig": {"S3OutputPath": OUT, "CollectionConfigurations": []},
        "ProfilerConfig": {"S3OutputPath": OUT, "DisableProfiler": False},
    }


def test_builtin_rules_get_region_image_and_no_instance_settings():
    rule = Rule.sagemaker(rule_configs.overfit())
    fields = render(
        [
            rule,
            ProfilerRule.sagemaker(rule_configs.ProfilerReport(), instance_type="ml.m5.xlarge", volume_size_in_gb=10),
        ],
        **US,
    )
    assert fields["DebugRuleConfigurations"] == [
        {
            "RuleConfigurationName": "Overfit",
            "RuleEvaluatorImage": IMAGE,
            "RuleParameters": {"rule_to_invoke": "Overfit"},
        }
    ]
    assert fields["ProfilerRuleConfigurations"] == [
        {
            "RuleConfigurationName": "ProfilerReport",
            "RuleEvaluatorImage": IMAGE,
            "RuleParameters": {"rule_to_invoke": "ProfilerReport"},
        }
    ]
    assert rule.image_uri == "DEFAULT_RULE_EVALUATOR_IMAGE"


def test_custom_rules_keep_their_image_and_instance():
    rule = Rule.custom(
        "Mine",
        "111122223333.dkr.ecr.us-west-2.amazonaws.com/r:1",
        "ml.m5.xlarge",
        30,
        source="s3://b/r.py",
        rule_to_invoke="Mine",
    )
    with config_warnings("SMD151"):  # the image is in us-west-2, the job in us-east-1
        config = render([rule], **US)["DebugRuleConfigurations"][0]
    assert config == {
        "RuleConfigurationName": "Mine",
        "RuleEvaluatorImage": "111122223333.dkr.ecr.us-west-2.amazonaws.com/r:1",
        "InstanceType": "ml.m5.xlarge",
        "VolumeSizeInGB": 30,
        "RuleParameters": {"source_s3_uri": "s3://b/r.py", "rule_to_invoke": "Mine"},
    }


def test_local_custom_rule_source_is_refused_by_render():
    rule = Rule.custom("Mine", "img:1", "ml.m5.xlarge", 30, source="rules/mine.py", rule_to_invoke="Mine")
    with pytest.raises(ConfigError) as err:  # rendered as written, refused by the request's check
        render([rule], **US)
    assert [(f.code, f.pointer) for f in err.value.findings] == [
        ("SMD152", "/DebugRuleConfigurations/0/RuleParameters/source_s3_uri")
    ]


def test_hook_paths_default_to_output_path_and_can_be_set():
    fields = render(
        debugger_hook_config=DebuggerHookConfig(
            s3_output_path="s3://other/tensors", container_local_output_path="/opt/ml/output/t"
        ),
        **US,
    )
    assert fields["DebugHookConfig"] == {
        "S3OutputPath": "s3://other/tensors",
        "LocalPath": "/opt/ml/output/t",
        "CollectionConfigurations": [],
    }
    assert render(debugger_hook_config=True, **US)["DebugHookConfig"]["S3OutputPath"] == OUT


def test_hook_false_sends_no_hook_but_keeps_profiler():
    fields = render(debugger_hook_config=False, **US)
    assert "DebugHookConfig" not in fields and fields["ProfilerConfig"]["DisableProfiler"] is False


def test_output_path_is_needed_only_when_a_path_is_defaulted():
    with pytest.raises(ConfigError, match="output_path") as err:
        render(region="us-east-1")
    assert [(f.code, f.pointer) for f in err.value.findings] == [("SMD100", "/DebugHookConfig/S3OutputPath")]
    assert render(debugger_hook_config=False, region="us-east-1") == {"ProfilerConfig": {"DisableProfiler": False}}
    fields = render(
        debugger_hook_config=DebuggerHookConfig(s3_output_path="s3://b/t"),
        profiler_config=ProfilerConfig(s3_output_path="s3://b/p"),
        region="us-east-1",
    )
    assert fields["ProfilerConfig"]["S3OutputPath"] == "s3://b/p"
    assert render(debugger_hook_config=False, disable_profiler=True, region="us-east-1") == {
        "ProfilerConfig": {"DisableProfiler": True}
    }


def test_profiler_disabled_forms():
    assert render(disable_profiler=True, **US)["ProfilerConfig"] == {"DisableProfiler": True}
    assert render(profiler_config=ProfilerConfig(disable_profiler=True), **US)["ProfilerConfig"] == {
        "DisableProfiler": True
    }
    with pytest.raises(ConfigError, match="profiler_config enables") as err:  # the SDK v2 refuses it
        render(profiler_config=ProfilerConfig(), disable_profiler=True, **US)
    assert [(f.code, f.pointer) for f in err.value.findings] == [("SMD002", "/ProfilerConfig")]
    # profiler rules while the profiler is off are sent as written: SMD160 says they have no data
    for off in (dict(disable_profiler=True), dict(profiler_config=ProfilerConfig(disable_profiler=True))):
        with config_warnings("SMD160"):
            fields = render([ProfilerRule.sagemaker(rule_configs.ProfilerReport())], **off, **US)
        assert fields["ProfilerConfig"] == {"DisableProfiler": True}
        assert [r["RuleConfigurationName"] for r in fields["ProfilerRuleConfigurations"]] == ["ProfilerReport"]


def test_a_refused_value_leaves_every_other_finding_of_the_job():
    """Issue 36: the user's script renders as the SDK v2 sends it, and says SMD160, SMD123 and SMD173 in one call,
    each warned once, at the script's line that built the object (never ``sys:1``)."""
    script = os.path.join("tests", "data", "one_pass", "profiler_rule_while_off.py")
    with warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        fields = runpy.run_path(script)["fields"]
    # each at the line that built the object it is about: the rules (5), the hook (6)
    assert sorted((w.message.code, os.path.basename(w.filename), w.lineno) for w in warned) == [
        ("SMD123", "profiler_rule_while_off.py", 5),
        ("SMD160", "profiler_rule_while_off.py", 5),
        ("SMD173", "profiler_rule_while_off.py", 6),
    ]
    assert fields["ProfilerConfig"] == {"DisableProfiler": True}
    assert [r["RuleConfigurationName"] for r in fields["ProfilerRuleConfigurations"]] == ["ProfilerReport"]
    assert fields["DebugHookConfig"]["HookParameters"] == {"save_steps": "1,2,3"}


def test_every_error_of_a_job_is_in_one_config_error_with_its_code():
    rules = runpy.run_path(os.path.join("tests", "data", "one_pass", "conflicting_rules.py"))["rules"]
    with config_warnings("SMD116"), pytest.raises(ConfigError) as err:  # the job's warning, warned as it raises
        render(rules, region="us-east-1", framework="tensorflow")
    assert sorted((f.code, f.pointer) for f in err.value.findings) == [
        ("SMD100", "/DebugHookConfig/S3OutputPath"),  # no output_path to default it to: said once, not twice
        ("SMD102", "/DebugRuleConfigurations"),
        ("SMD114", "/DebugHookConfig/CollectionConfigurations/1"),
        ("SMD116", "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/reductions"),  # a warning
    ]
    first_error = next(f for f in err.value.findings if f.severity == "error")
    assert err.value.code == first_error.code  # the first error's, in request order


@pytest.mark.parametrize("region", ["ap-southeast-3", "us-gov-east-1", "eu-central-2"])
def test_regions_without_debugger(region):
    assert render(region=region, output_path=OUT) == {"ProfilerConfig": {"DisableProfiler": True}}
    with pytest.raises(ConfigError, match="does not support"):
        render(debugger_hook_config=DebuggerHookConfig(), region=region, output_path=OUT)
    with pytest.raises(ConfigError, match="no SageMaker profiler"):
        render(profiler_config=ProfilerConfig(), region=region, output_path=OUT)
    with pytest.raises(ConfigError):
        render([Rule.sagemaker(rule_configs.overfit())], region=region, output_path=OUT)


def test_trainium_instances_have_no_profiler():
    assert render(instance_type="ml.trn1.32xlarge", **US)["ProfilerConfig"] == {"DisableProfiler": True}
    with pytest.raises(ConfigError, match="Trainium"):
        render(profiler_config=ProfilerConfig(), instance_type="ml.trn1.2xlarge", **US)
    assert render(instance_type="ml.p4d.24xlarge", **US)["ProfilerConfig"]["DisableProfiler"] is False


def test_profiler_adds_the_detailed_profiler_rule_named_from_the_job():
    config = ProfilerConfig(profile_params=Profiler())
    fields = render(profiler_config=config, job_name="bert-run-7", **US)
    assert fields["ProfilerRuleConfigurations"] == [
        {
            "RuleConfigurationName": "DetailedProfilerProcessingJobConfig-bert-run-7",
            "RuleEvaluatorImage": "503895931360.dkr.ecr.us-east-1.amazonaws.com/detailed-profiler-processing:latest",
            "InstanceType": "ml.m5.4xlarge",
            "VolumeSizeInGB": 128,
            "RuleParameters": {"rule_to_invoke": "DetailedProfilerProcessing"},
        }
    ]
    assert fields["ProfilerConfig"]["ProfilingParameters"] == {
        "CPUProfilingDuration": "3600",
        "SMPFileRotationSecs": "600",
    }
    # rules=[] suppresses it, a user profiler rule replaces it, debugger-only rules keep it
    assert "ProfilerRuleConfigurations" not in render([], profiler_config=config, **US)
    with_report = render([ProfilerRule.sagemaker(rule_configs.ProfilerReport())], profiler_config=config, **US)
    assert [r["RuleConfigurationName"] for r in with_report["ProfilerRuleConfigurations"]] == ["ProfilerReport"]
    with_debug = render([Rule.sagemaker(rule_configs.overfit())], profiler_config=config, job_name="j", **US)
    assert [r["RuleConfigurationName"] for r in with_debug["ProfilerRuleConfigurations"]] == [
        "DetailedProfilerProcessingJobConfig-j"
    ]
    with pytest.raises(ConfigError, match="il-central-1|us-west-1"):
        render(profiler_config=config, region="us-west-1", output_path=OUT)


def test_framework_profile_and_interval_are_sent():
    config = ProfilerConfig(
        system_monitor_interval_millis=100, framework_profile_params=FrameworkProfile(start_step=3, num_steps=2)
    )
    with config_warnings():  # no SMD145: the HorovodProfilingConfig FrameworkProfile adds is not the user's
        fields = render(profiler_config=config, **US)["ProfilerConfig"]
    assert fields["ProfilingIntervalInMilliseconds"] == 100
    assert fields["ProfilingParameters"]["DetailedProfilingConfig"] == '{"StartStep": 3, "NumSteps": 2, }'
    assert list(fields)[:2] == ["S3OutputPath", "DisableProfiler"]


def test_tensorboard_is_passed_through():
    fields = render(tensorboard_output_config=TensorBoardOutputConfig("s3://b/tb", "/tensorboard"), **US)
    assert fields["TensorBoardOutputConfig"] == {"S3OutputPath": "s3://b/tb", "LocalPath": "/tensorboard"}


@pytest.mark.parametrize(
    "kwargs, field",
    [
        (dict(rules=Rule.sagemaker(rule_configs.overfit())), "rules"),
        (dict(rules=["Overfit"]), "rules[0]"),
        (dict(debugger_hook_config={"S3OutputPath": "s3://b"}), "debugger_hook_config"),
        (dict(profiler_config={"DisableProfiler": True}), "profiler_config"),
        (dict(tensorboard_output_config="s3://b/tb"), "tensorboard_output_config"),
        (dict(disable_profiler="yes"), "disable_profiler"),
        (dict(region="mars-1"), "region"),
        (dict(region=None), "region"),
        (dict(output_path="bucket/out"), "output_path"),
        (dict(job_name="bad_name"), "job_name"),
        (dict(defaults="none"), "defaults"),
    ],
)
def test_bad_render_arguments(kwargs, field):
    args = dict(US)
    args.update(kwargs)
    with pytest.raises(ConfigError) as err:
        render(**args)
    assert err.value.field == field


def test_unknown_region_for_images_lists_known_regions_and_the_overrides(monkeypatch):
    rule = Rule.sagemaker(rule_configs.overfit())
    with pytest.raises(ConfigError) as err:
        render([rule], region="ap-southeast-7", output_path=OUT)
    text = str(err.value)
    assert "us-east-1" in text and "rule_image_uri" in text and "SM_DEBUG_CONFIG_RULE_IMAGE_URI" in text
    image = "111122223333.dkr.ecr.ap-southeast-7.amazonaws.com/sagemaker-debugger-rules:latest"
    assert (
        render([rule], region="ap-southeast-7", output_path=OUT, rule_image_uri=image)["DebugRuleConfigurations"][0][
            "RuleEvaluatorImage"
        ]
        == image
    )
    monkeypatch.setenv("SM_DEBUG_CONFIG_RULE_IMAGE_URI", image)
    assert (
        render([rule], region="ap-southeast-7", output_path=OUT)["DebugRuleConfigurations"][0]["RuleEvaluatorImage"]
        == image
    )


def test_image_uris_per_region():
    assert (
        get_rule_container_image_uri("Overfit", "cn-north-1")
        == "618459771430.dkr.ecr.cn-north-1.amazonaws.com.cn/sagemaker-debugger-rules:latest"
    )
    assert get_rule_container_image_uri("DetailedProfilerProcessingJobConfig-x", "il-central-1").startswith(
        "216881608335."
    )
    import sagemaker.debugger as sdk

    for region in ["us-east-1", "eu-west-1", "ap-northeast-3", "cn-northwest-1", "us-gov-west-1", "me-south-1"]:
        assert get_rule_container_image_uri("X", region) == sdk.get_rule_container_image_uri("X", region)


def test_render_never_mutates_inputs():
    hook = DebuggerHookConfig(
        hook_parameters={"save_interval": "5"},
        collection_configs=[CollectionConfig("gradients", {"save_interval": "10"})],
    )
    rules = [
        Rule.sagemaker(rule_configs.vanishing_gradient(), actions=rule_configs.StopTraining()),
        ProfilerRule.sagemaker(rule_configs.CPUBottleneck()),
    ]
    profiler = ProfilerConfig(profile_params=Profiler())
    snapshot = copy.deepcopy((hook, rules, profiler))
    render(rules, hook, profiler, job_name="j-1", **US)
    assert (hook, rules, profiler) == snapshot
    assert rules[0].rule_parameters == {"rule_to_invoke": "VanishingGradient"}


def test_artifact_paths():
    fields = render(
        [Rule.sagemaker(rule_configs.overfit())], tensorboard_output_config=TensorBoardOutputConfig("s3://b/tb/"), **US
    )
    assert artifact_paths(fields, "job-1", OUT) == {
        "debug-output": "s3://bucket/out/job-1/debug-output",
        "tensorboard-output": "s3://b/tb/job-1/tensorboard-output",
        "profiler-output": "s3://bucket/out/job-1/profiler-output",
        "rule-output": "s3://bucket/out/job-1/rule-output",
    }


# --- one description of the render inputs: JobSettings ---------------------------------------


def test_settings_object_or_keywords_everywhere():
    import inspect

    from sm_debug_config import DebuggerSetup, JobSettings, explain, render_update
    from sm_debug_config.integrations.sagemaker_core import to_sagemaker_core

    settings = JobSettings(region="us-east-1", output_path=OUT, job_name="job-1")
    rules = [Rule.sagemaker(rule_configs.vanishing_gradient())]
    assert render(rules, settings=settings) == render(rules, region="us-east-1", output_path=OUT, job_name="job-1")
    assert render(rules, settings=settings, region="eu-west-1") == render(
        rules, region="eu-west-1", output_path=OUT, job_name="job-1"
    )
    assert explain(rules, settings=settings)["request"] == render(rules, settings=settings)
    assert render_update(settings=settings) == render_update(region="us-east-1", output_path=OUT)
    for function in (render, explain, render_update):
        with pytest.raises(ConfigError, match="did you mean 'region'") as err:
            function(regoin="us-east-1")
        assert err.value.field == "regoin"
    # explain has render's signature; the objects are DebuggerSetup's fields, in its order
    assert inspect.signature(explain).parameters.keys() == inspect.signature(render).parameters.keys()
    objects = [name for name, p in inspect.signature(render).parameters.items() if p.kind is p.POSITIONAL_OR_KEYWORD]
    assert tuple(objects) == DebuggerSetup.names()
    assert list(inspect.signature(to_sagemaker_core).parameters)[:6] == objects + ["settings"]


def test_every_setting_is_a_cli_flag():
    from sm_debug_config import JobSettings
    from sm_debug_config.cli import build_parser

    parser = build_parser()
    for command in ("render", "explain"):
        args = parser.parse_args([command, "x.yaml"])
        assert {name for name in JobSettings.names() if hasattr(args, name)} == set(JobSettings.names()) - {"validate"}
    args = parser.parse_args(
        ["render", "x.yaml", "--rule-image-uri", "img:1", "--disable-debugger", "--instance-type", "ml.trn1.2xlarge"]
    )
    assert (args.rule_image_uri, args.disable_debugger, args.instance_type, args.region) == (
        "img:1",
        True,
        "ml.trn1.2xlarge",
        None,
    )


def test_explicit_defaults_render_only_what_is_configured():
    assert render(defaults="explicit", **US) == {"ProfilerConfig": {"DisableProfiler": True}}
    assert render(defaults="sdk", **US) == {
        "DebugHookConfig": {"S3OutputPath": "s3://bucket/out/", "CollectionConfigurations": []},
        "ProfilerConfig": {"S3OutputPath": "s3://bucket/out/", "DisableProfiler": False},
    }
    with_rule = render([Rule.sagemaker(rule_configs.vanishing_gradient())], defaults="explicit", **US)
    assert with_rule["DebugHookConfig"]["CollectionConfigurations"] == [
        {"CollectionName": "gradients", "CollectionParameters": {"save_interval": "500"}}
    ]
    assert with_rule["ProfilerConfig"] == {"DisableProfiler": True}
    with_profiler_rule = render([ProfilerRule.sagemaker(rule_configs.ProfilerReport())], defaults="explicit", **US)
    assert (
        "DebugHookConfig" not in with_profiler_rule and with_profiler_rule["ProfilerConfig"]["DisableProfiler"] is False
    )
    with_hook = render(
        debugger_hook_config=DebuggerHookConfig(), profiler_config=ProfilerConfig(), defaults="explicit", **US
    )
    assert "DebugHookConfig" in with_hook and with_hook["ProfilerConfig"]["DisableProfiler"] is False


def test_one_switch_turns_debugger_off_and_never_drops_silently():
    assert render(disable_debugger=True, **US) == {"ProfilerConfig": {"DisableProfiler": True}}
    assert render(disable_debugger=True, region="us-east-1") == {"ProfilerConfig": {"DisableProfiler": True}}
    for kwargs in (
        dict(rules=[Rule.sagemaker(rule_configs.overfit())]),
        dict(debugger_hook_config=DebuggerHookConfig()),
        dict(profiler_config=ProfilerConfig()),
    ):
        with pytest.raises(ConfigError, match="disable_debugger"):
            render(disable_debugger=True, **kwargs, **US)
    # hook=False alone still leaves the profiler on (the SDK's second switch)
    assert render(debugger_hook_config=False, **US)["ProfilerConfig"]["DisableProfiler"] is False


def test_tuning_requests_are_refused_and_existing_fields_are_not_overwritten():
    fields = render(**US)
    with pytest.raises(ConfigError, match="tuning"):
        merge_into_request({"HyperParameterTuningJobName": "t", "TrainingJobDefinition": {}}, fields)
    request = {"TrainingJobName": "j", "ProfilerConfig": {"DisableProfiler": True}}
    with pytest.raises(ConfigError, match="overwrite"):
        merge_into_request(request, fields)
    merged = merge_into_request(request, fields, replace=True)
    assert merged["ProfilerConfig"]["DisableProfiler"] is False and request["ProfilerConfig"] == {
        "DisableProfiler": True
    }


def test_unknown_region_error_says_how_to_supply_the_image():
    with pytest.raises(ConfigError) as err:
        render([Rule.sagemaker(rule_configs.overfit())], region="mx-central-1", output_path="s3://b/o/")
    text = str(err.value)
    assert (
        "rule_image_uri" in text
        and "config file" in text
        and "SM_DEBUG_CONFIG_RULE_IMAGE_URI" in text
        and "eu-west-1" in text
    )
