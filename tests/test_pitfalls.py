"""What users trip on (issue 10): explicit rendering, one off switch, tuning jobs, old botocore, regions."""
import copy

import pytest

from sm_debug_config import (
    CollectionConfig,
    ConfigError,
    DebuggerHookConfig,
    ProfilerConfig,
    ProfilerRule,
    Rule,
    render,
    rule_configs,
)
from sm_debug_config import explain
from sm_debug_config.validation.installed_botocore import check_botocore, missing_fields
from sm_debug_config.rendering import merge_into_request

US = dict(region="us-east-1", output_path="s3://bucket/out/")


def test_explicit_defaults_render_only_what_is_configured():
    assert render(defaults="explicit", **US) == {"ProfilerConfig": {"DisableProfiler": True}}
    assert render(defaults="sdk", **US) == {
        "DebugHookConfig": {"S3OutputPath": "s3://bucket/out/", "CollectionConfigurations": []},
        "ProfilerConfig": {"S3OutputPath": "s3://bucket/out/", "DisableProfiler": False},
    }
    with_rule = render([Rule.sagemaker(rule_configs.vanishing_gradient())], defaults="explicit", **US)
    assert with_rule["DebugHookConfig"]["CollectionConfigurations"] == [{"CollectionName": "gradients", "CollectionParameters": {"save_interval": "500"}}]
    assert with_rule["ProfilerConfig"] == {"DisableProfiler": True}
    with_profiler_rule = render([ProfilerRule.sagemaker(rule_configs.ProfilerReport())], defaults="explicit", **US)
    assert "DebugHookConfig" not in with_profiler_rule and with_profiler_rule["ProfilerConfig"]["DisableProfiler"] is False
    with_hook = render(debugger_hook_config=DebuggerHookConfig(), profiler_config=ProfilerConfig(), defaults="explicit", **US)
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


def test_explain_says_what_each_rule_reads_and_whether_it_is_saved():
    report = explain(
        [
            Rule.sagemaker(rule_configs.vanishing_gradient()),
            Rule.sagemaker(rule_configs.loss_not_decreasing(), collections_to_save=[CollectionConfig("weights")]),
            Rule.sagemaker(rule_configs.confusion()),
        ],
        framework="pytorch",
        validate=False,
        **US,
    )
    reads = {r["name"]: r["reads"] for r in report["rules"]}
    assert reads["VanishingGradient"] == [{"collection": "gradients", "how": "by name", "saved": True, "steps": "every 500 steps"}]
    assert reads["LossNotDecreasing"][0]["saved"] and "saved by default" in reads["LossNotDecreasing"][0]["note"]
    assert [r["saved"] for r in reads["Confusion"]] == [False, False]
    assert {f["code"] for f in report["findings"]} == {"SMD110"}


def test_tuning_requests_are_refused_and_existing_fields_are_not_overwritten():
    fields = render(**US)
    with pytest.raises(ConfigError, match="tuning"):
        merge_into_request({"HyperParameterTuningJobName": "t", "TrainingJobDefinition": {}}, fields)
    request = {"TrainingJobName": "j", "ProfilerConfig": {"DisableProfiler": True}}
    with pytest.raises(ConfigError, match="overwrite"):
        merge_into_request(request, fields)
    merged = merge_into_request(request, fields, replace=True)
    assert merged["ProfilerConfig"]["DisableProfiler"] is False and request["ProfilerConfig"] == {"DisableProfiler": True}


def _model_without(shape_name, member):
    import botocore.model
    import botocore.session

    loader = botocore.session.get_session().get_component("data_loader")
    raw = copy.deepcopy(loader.load_service_model("sagemaker", "service-2"))
    del raw["shapes"][shape_name]["members"][member]
    return botocore.model.ServiceModel(raw, service_name="sagemaker")


def test_old_botocore_is_named_before_calling_the_api():
    fields = render([Rule.sagemaker(rule_configs.overfit())], **US)
    check_botocore(fields)  # the installed botocore knows everything we send
    old = _model_without("ProfilerConfig", "DisableProfiler")
    assert missing_fields(fields, service_model=old) == ["ProfilerConfig.DisableProfiler"]
    with pytest.raises(ConfigError, match=r"ProfilerConfig.DisableProfiler.*botocore >= \d"):
        check_botocore(fields, service_model=old)
    older = _model_without("CreateTrainingJobRequest", "ProfilerRuleConfigurations")
    with pytest.raises(ConfigError, match="ProfilerRuleConfigurations"):
        check_botocore(render([ProfilerRule.sagemaker(rule_configs.ProfilerReport())], **US), service_model=older)


def test_unknown_region_error_says_how_to_supply_the_image():
    with pytest.raises(ConfigError) as err:
        render([Rule.sagemaker(rule_configs.overfit())], region="mx-central-1", output_path="s3://b/o/")
    text = str(err.value)
    assert "rule_image_uri" in text and "config file" in text and "SM_DEBUG_CONFIG_RULE_IMAGE_URI" in text and "eu-west-1" in text
