"""The example config files: each loads, renders, and equals the Python it stands for."""
from __future__ import annotations

import pytest

from sm_debug_config import configfile as cf, rule_configs
from sm_debug_config.model.actions import ActionList, Email, SMS, StopTraining
from sm_debug_config.model.hook import CollectionConfig, DebuggerHookConfig, TensorBoardOutputConfig
from sm_debug_config.model.profiler import (
    cProfileTimer,
    DataloaderProfilingConfig,
    DetailedProfilingConfig,
    FrameworkProfile,
    ProfilerConfig,
    PythonProfiler,
    PythonProfilingConfig,
)
from sm_debug_config.model.rules import ProfilerRule, Rule
from sm_debug_config.checked import render

from tests.configfile.cfhelpers import ROOT, EXAMPLES, EXAMPLE_NAMES, CUSTOM_IMAGE
from tests.warnhelpers import config_warnings, example_warnings


# --- examples --------------------------------------------------------------------------------


def test_every_scenario_has_an_example():
    assert [p.name for p in EXAMPLES] == EXAMPLE_NAMES


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_loads_and_renders(path):
    cfg = cf.load(path)
    with config_warnings(*example_warnings(path)):
        request = cfg.render()
    assert "DebugHookConfig" in request or "DebugRuleConfigurations" in request
    with config_warnings(*example_warnings(path)):
        assert request == render(**cfg.render_kwargs())


def _example(name):
    return cf.load(ROOT / "examples" / name)


def test_tensorflow_example_equals_python():
    cfg = _example("tensorflow-builtin-rules.yaml")
    rules = [
        Rule.sagemaker(rule_configs.vanishing_gradient()),
        Rule.sagemaker(rule_configs.exploding_tensor()),
        Rule.sagemaker(rule_configs.loss_not_decreasing()),
        Rule.sagemaker(rule_configs.overfit()),
        Rule.sagemaker(rule_configs.weight_update_ratio()),
        ProfilerRule.sagemaker(rule_configs.ProfilerReport()),
    ]
    assert cfg.rules == rules
    expected = render(
        rules,
        region="us-east-1",
        output_path="s3://my-bucket/tf-mnist/",
        job_name="tf-mnist-builtin-rules",
        instance_type="ml.p3.2xlarge",
    )
    assert cfg.render() == expected
    assert cfg.framework == "tensorflow"


def test_mxnet_example_equals_python():
    cfg = _example("mxnet-realtime-hook.yaml")
    hook = DebuggerHookConfig(
        s3_output_path="s3://my-bucket/mxnet-realtime/tensors/",
        hook_parameters={"save_interval": "100"},
        collection_configs=[
            CollectionConfig("weights"),
            CollectionConfig("gradients"),
            CollectionConfig("biases"),
            CollectionConfig("conv0_tensors", {"include_regex": "conv0.*", "save_interval": "100"}),
        ],
    )
    rules = [Rule.sagemaker(rule_configs.vanishing_gradient())]
    assert cfg.debugger_hook_config == hook
    request = render(
        rules,
        hook,
        region="us-west-2",
        output_path="s3://my-bucket/mxnet-realtime/",
        job_name="mxnet-realtime-analysis",
    )
    assert cfg.render() == request
    collections = {
        c["CollectionName"]: c.get("CollectionParameters")
        for c in request["DebugHookConfig"]["CollectionConfigurations"]
    }
    assert collections["conv0_tensors"] == {"include_regex": "conv0.*", "save_interval": "100"}


def test_bert_example_equals_python():
    cfg = _example("bert-attention-profiling.yaml")
    hook = DebuggerHookConfig(
        collection_configs=[
            CollectionConfig(
                "attention_scores",
                {
                    "include_regex": ".*attention.self.(query|key)_output_0",
                    "train.save_interval": "500",
                    "eval.save_interval": "1",
                },
            )
        ]
    )
    profiler = ProfilerConfig(
        system_monitor_interval_millis=500,
        framework_profile_params=FrameworkProfile(
            detailed_profiling_config=DetailedProfilingConfig(start_step=5, num_steps=3),
            dataloader_profiling_config=DataloaderProfilingConfig(start_step=7, num_steps=2, metrics_regex=".*"),
            python_profiling_config=PythonProfilingConfig(
                start_step=9,
                num_steps=2,
                python_profiler=PythonProfiler.CPROFILE,
                cprofile_timer=cProfileTimer.TOTAL_TIME,
            ),
        ),
    )
    rules = [
        ProfilerRule.sagemaker(
            rule_configs.ProfilerReport(CPUBottleneck_threshold=90, LowGPUUtilization_threshold_p95=80)
        ),
        Rule.sagemaker(rule_configs.loss_not_decreasing()),
        Rule.sagemaker(rule_configs.overfit()),
    ]
    tensorboard = TensorBoardOutputConfig("s3://my-bucket/bert-attention/tensorboard/")
    assert (cfg.debugger_hook_config, cfg.profiler_config, cfg.rules, cfg.tensorboard_output_config) == (
        hook,
        profiler,
        rules,
        tensorboard,
    )
    request = render(
        rules,
        hook,
        profiler,
        tensorboard,
        region="us-east-1",
        output_path="s3://my-bucket/bert-attention/",
        job_name="bert-attention-profiling",
        instance_type="ml.p3.8xlarge",
    )
    assert cfg.render() == request
    assert (
        request["ProfilerConfig"]["ProfilingParameters"]["PythonProfilingConfig"]
        == '{"StartStep": 9, "NumSteps": 2, "ProfilerName": "cprofile", "cProfileTimer": "total_time", }'
    )


def test_rule_customisation_example_equals_python():
    cfg = _example("rule-customisation.yaml")
    rules = [
        Rule.sagemaker(
            rule_configs.vanishing_gradient(),
            rule_parameters={"threshold": 0.0001},
            collections_to_save=[CollectionConfig("gradients", {"save_interval": "100"})],
        ),
        Rule.sagemaker(
            rule_configs.loss_not_decreasing(),
            name="LossNotDecreasingTrain",
            rule_parameters={"mode": "TRAIN", "num_steps": 20, "diff_percent": 1.0},
            collections_to_save=[CollectionConfig("losses", {"save_interval": "50"})],
        ),
        Rule.sagemaker(
            rule_configs.overtraining(),
            rule_parameters={"patience_validation": 5},
            actions=ActionList(StopTraining(), Email("ml-team@example.com"), SMS("+14155550100")),
        ),
        Rule.sagemaker(
            rule_configs.stalled_training_rule(),
            rule_parameters={"threshold": 1200},
            actions=StopTraining("pytorch-resnet"),
        ),
        ProfilerRule.sagemaker(rule_configs.ProfilerReport(CPUBottleneck_threshold=70)),
        ProfilerRule.sagemaker(rule_configs.LowGPUUtilization(threshold_p95=80, window=200)),
    ]
    assert cfg.rules == rules
    request = render(
        rules, region="eu-west-1", output_path="s3://my-bucket/pytorch-resnet/", job_name="pytorch-resnet-custom-rules"
    )
    assert cfg.render() == request
    action_json = request["DebugRuleConfigurations"][2]["RuleParameters"]["action_json"]
    assert action_json.startswith("[") and "pytorch-resnet-custom-rules" in action_json


def test_custom_rule_example_equals_python():
    cfg = _example("custom-rule.yaml")
    rules = [
        Rule.custom(
            name="CustomGradientRule",
            image_uri=CUSTOM_IMAGE,
            instance_type="ml.t3.medium",
            volume_size_in_gb=30,
            source="s3://my-bucket/rules/gradient_rule.py",
            rule_to_invoke="CustomGradientRule",
            rule_parameters={"threshold": "20.0"},
            collections_to_save=[CollectionConfig("gradients", {"save_interval": "100"})],
            actions=StopTraining("tf-custom-rule"),
        ),
        ProfilerRule.custom(
            name="StepTimeRule",
            image_uri=CUSTOM_IMAGE,
            instance_type="ml.m5.xlarge",
            volume_size_in_gb=30,
            source="s3://my-bucket/rules/step_time_rule.py",
            rule_to_invoke="StepTimeRule",
            rule_parameters={"max_step_ms": "800"},
        ),
    ]
    assert cfg.rules == rules
    assert cfg.render() == render(
        rules, region="us-east-1", output_path="s3://my-bucket/tf-custom-rule/", job_name="tf-custom-rule"
    )


def test_xgboost_example_equals_python():
    cfg = _example("xgboost-report.yaml")
    rules = [
        Rule.sagemaker(rule_configs.create_xgboost_report()),
        Rule.sagemaker(
            rule_configs.loss_not_decreasing(),
            rule_parameters={"collection_names": "metrics", "use_losses_collection": False, "num_steps": 10},
            collections_to_save=[CollectionConfig("metrics", {"save_interval": "5"})],
        ),
        Rule.sagemaker(rule_configs.overtraining()),
        Rule.sagemaker(rule_configs.tree_depth(), rule_parameters={"depth": 8}),
        Rule.sagemaker(rule_configs.feature_importance_overweight()),
        Rule.sagemaker(rule_configs.class_imbalance()),
        ProfilerRule.sagemaker(rule_configs.ProfilerReport()),
    ]
    hook = DebuggerHookConfig(hook_parameters={"save_interval": "5"})
    profiler = ProfilerConfig(system_monitor_interval_millis=1000)
    assert (cfg.rules, cfg.debugger_hook_config, cfg.profiler_config) == (rules, hook, profiler)
    with config_warnings(*example_warnings("xgboost-report.yaml")):
        assert cfg.render() == render(
            rules,
            hook,
            profiler,
            region="us-east-2",
            output_path="s3://my-bucket/xgboost-churn/",
            job_name="xgboost-churn-report",
            instance_type="ml.m5.2xlarge",
        )
