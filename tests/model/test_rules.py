"""Rule and ProfilerRule objects: the SDK's rules, custom rules and actions, errors at construction."""
import copy

import pytest
import smdebug_rulesconfig as upstream

import rule_configs
from sm_debug_config import (
    CollectionConfig,
    ConfigError,
    ProfilerRule,
    Rule,
)
from sm_debug_config.model import catalogue

# the SDK v2 is the oracle of most tests here (scripts/test.sh installs it; scripts/test_deps_range.sh does not)
sdk = pytest.importorskip(
    "sagemaker.debugger", reason="the SageMaker Python SDK v2 (extra \"sagemaker\") is the oracle here"
)


@pytest.mark.parametrize("name", sorted(catalogue.rules("debugger")))
def test_builtin_rule_matches_sdk_rule(name):
    function = catalogue.rules("debugger")[name]["function"]
    extra = {"other_trials_s3_input_paths": ["s3://b/other/debug-output"]} if name == "SimilarAcrossRuns" else {}
    ours = Rule.sagemaker(getattr(rule_configs, function)(), **extra)
    theirs = sdk.Rule.sagemaker(getattr(upstream, function)(), **extra)
    assert ours.to_debugger_rule_config_dict() == theirs.to_debugger_rule_config_dict()
    assert [c._to_request_dict() for c in ours.collection_configs] == [
        c._to_request_dict() for c in theirs.collection_configs
    ]
    assert ours.builtin_rule == name


def test_rule_with_everything_matches_sdk_rule():
    collections = [CollectionConfig("gradients", {"save_interval": "50"})]
    sdk_collections = [sdk.CollectionConfig("gradients", {"save_interval": "50"})]
    kwargs = dict(
        name="VG",
        container_local_output_path="/opt/ml/processing/output/rule",
        s3_output_path="s3://b/rules",
        rule_parameters={"threshold": "0.01"},
    )
    ours = Rule.sagemaker(rule_configs.vanishing_gradient(), collections_to_save=collections, **kwargs)
    theirs = sdk.Rule.sagemaker(upstream.vanishing_gradient(), collections_to_save=sdk_collections, **kwargs)
    assert ours.to_debugger_rule_config_dict() == theirs.to_debugger_rule_config_dict()
    assert not ours.uses_default_collections


def test_custom_rules_match_sdk():
    kwargs = dict(
        name="CustomGradientRule",
        image_uri="111122223333.dkr.ecr.us-east-1.amazonaws.com/rules:1",
        instance_type="ml.t3.medium",
        volume_size_in_gb=30,
        source="s3://b/rules/custom.py",
        rule_to_invoke="CustomGradientRule",
        rule_parameters={"threshold": "20.0"},
        other_trials_s3_input_paths=["s3://b/other"],
    )
    assert (
        Rule.custom(**kwargs).to_debugger_rule_config_dict() == sdk.Rule.custom(**kwargs).to_debugger_rule_config_dict()
    )
    kwargs.pop("other_trials_s3_input_paths")
    assert (
        ProfilerRule.custom(**kwargs).to_profiler_rule_config_dict()
        == sdk.ProfilerRule.custom(**kwargs).to_profiler_rule_config_dict()
    )
    with pytest.raises(ConfigError, match="both source and rule_to_invoke"):
        Rule.custom("R", "img", "ml.m5.xlarge", 30, source="s3://b/x.py")
    with pytest.raises(ConfigError, match="instance_type"):
        Rule.custom("R", "img", None, None)


@pytest.mark.parametrize("name", ["ProfilerReport", "CPUBottleneck", "StepOutlier", "BatchSize", "LoadBalancing"])
def test_profiler_rules_match_sdk(name):
    ours = ProfilerRule.sagemaker(getattr(rule_configs, name)(), s3_output_path="s3://b/p")
    theirs = sdk.ProfilerRule.sagemaker(getattr(upstream, name)(), s3_output_path="s3://b/p")
    assert ours.to_profiler_rule_config_dict() == theirs.to_profiler_rule_config_dict()


def test_profiler_rule_from_upstream_object_is_checked():
    ProfilerRule.sagemaker(upstream.CPUBottleneck(threshold=50))
    with pytest.raises(ConfigError):
        ProfilerRule.sagemaker(rule_configs.vanishing_gradient())
    with pytest.raises(ConfigError, match="debugger rule"):
        ProfilerRule.sagemaker(type("X", (), {"rule_name": "VanishingGradient", "rule_parameters": {}})())


def test_rule_arguments_are_checked():
    with pytest.raises(ConfigError, match="base_config"):
        Rule.sagemaker("VanishingGradient")
    with pytest.raises(ConfigError, match="collections_to_save"):
        Rule.sagemaker(rule_configs.vanishing_gradient(), collections_to_save=["gradients"])
    with pytest.raises(ConfigError, match="actions"):
        Rule.sagemaker(rule_configs.vanishing_gradient(), actions="stop")
    with pytest.raises(ConfigError, match="action_json"):
        Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"action_json": "{}"})
    with pytest.raises(ConfigError, match="Rule.name"):
        Rule.sagemaker(rule_configs.vanishing_gradient(), name=5)


def test_rule_accepts_upstream_action_objects():
    rule = Rule.sagemaker(
        rule_configs.overfit(),
        actions=upstream.ActionList(upstream.StopTraining("job-a"), upstream.SMS("+14155550100")),
    )
    assert rule.actions == rule_configs.ActionList(rule_configs.StopTraining("job-a"), rule_configs.SMS("+14155550100"))


def test_prepare_actions_is_sdk_compatible():
    rule = Rule.sagemaker(rule_configs.overfit(), actions=rule_configs.StopTraining())
    theirs = sdk.Rule.sagemaker(upstream.overfit(), actions=upstream.StopTraining())
    rule.prepare_actions("job-1")
    theirs.prepare_actions("job-1")
    assert rule.to_debugger_rule_config_dict() == theirs.to_debugger_rule_config_dict()


def test_objects_are_not_changed_by_building_rules_from_them():
    base = rule_configs.vanishing_gradient()
    snapshot = copy.deepcopy(base)
    params = {"threshold": 0.5}
    Rule.sagemaker(base, rule_parameters=params)
    assert base == snapshot and params == {"threshold": 0.5}
