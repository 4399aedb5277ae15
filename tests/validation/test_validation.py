"""Every check: a request that triggers it (code and path) and a near-identical one that does not."""
import copy
import subprocess
import sys

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
    list_checks,
    render,
    rule_configs,
    validate,
)
from sm_debug_config.validation import CHECKS
from tests.repo_scripts import script_path

IMAGE = "503895931360.dkr.ecr.us-east-1.amazonaws.com/sagemaker-debugger-rules:latest"
OUT = "s3://bucket/out/"


def rule(name, invoke=None, **params):
    return {
        "RuleConfigurationName": name,
        "RuleEvaluatorImage": IMAGE,
        "RuleParameters": {"rule_to_invoke": invoke or name, **params},
    }


def hook(*collections, **hook_params):
    config = {
        "S3OutputPath": OUT,
        "CollectionConfigurations": [{"CollectionName": n, "CollectionParameters": p} for n, p in collections],
    }
    if hook_params:
        config["HookParameters"] = hook_params
    return config


def PT_IMAGE(version):
    """A whole CreateTrainingJob request's image part (SMD170-SMD172 read it)."""
    return {
        "AlgorithmSpecification": {
            "TrainingImage": f"763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:{version}-cpu-py310",
            "TrainingInputMode": "File",
        }
    }


def profiler(**params):
    return {"S3OutputPath": OUT, "DisableProfiler": False, "ProfilingParameters": params}


def codes(request, **kwargs):
    return {(f.code, f.pointer) for f in validate(request, **kwargs)}


CUSTOM = {
    "RuleConfigurationName": "Mine",
    "RuleEvaluatorImage": "111122223333.dkr.ecr.us-east-1.amazonaws.com/r:1",
    "InstanceType": "ml.m5.xlarge",
    "VolumeSizeInGB": 30,
    "RuleParameters": {"source_s3_uri": "s3://bucket/r.py", "rule_to_invoke": "Mine"},
}

CASES = [
    # code, path, bad request, good request, validate kwargs
    (
        "SMD100",
        "/DebugHookConfig/CollectionConfigurations",
        {"DebugHookConfig": hook(*[(f"c{i}", {"include_regex": "x"}) for i in range(21)])},
        {"DebugHookConfig": hook(*[(f"c{i}", {"include_regex": "x"}) for i in range(20)])},
        {},
    ),
    (
        "SMD100",
        "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/include_regex",
        {"DebugHookConfig": hook(("c", {"include_regex": "x" * 257}))},
        {"DebugHookConfig": hook(("c", {"include_regex": "x" * 256}))},
        {},
    ),
    (
        "SMD101",
        "/DebugRuleConfigurations/1/RuleConfigurationName",
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("Overfit"), rule("Overfit")]},
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("Overfit"), rule("Overfit2", "Overfit")]},
        {},
    ),
    (
        "SMD102",
        "/ProfilerRuleConfigurations",
        {
            "ProfilerConfig": profiler(),
            "ProfilerRuleConfigurations": [rule(f"R{i}", "CPUBottleneck") for i in range(21)],
        },
        {
            "ProfilerConfig": profiler(),
            "ProfilerRuleConfigurations": [rule(f"R{i}", "CPUBottleneck") for i in range(20)],
        },
        {},
    ),
    (
        "SMD110",
        "/DebugRuleConfigurations/0",
        {"DebugHookConfig": hook(("weights", {})), "DebugRuleConfigurations": [rule("VanishingGradient")]},
        {"DebugHookConfig": hook(("gradients", {})), "DebugRuleConfigurations": [rule("VanishingGradient")]},
        {},
    ),
    (
        "SMD110",
        "/DebugRuleConfigurations/0",
        {
            "DebugHookConfig": hook(("gradients", {"end_step": "0"})),
            "DebugRuleConfigurations": [rule("VanishingGradient")],
        },
        {
            "DebugHookConfig": hook(("gradients", {"end_step": "10"})),
            "DebugRuleConfigurations": [rule("VanishingGradient")],
        },
        {},
    ),
    (
        "SMD110",
        "/DebugRuleConfigurations/0",
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("LossNotDecreasing")]},
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("LossNotDecreasing")]},
        {"framework": "xgboost"},
    ),
    (
        "SMD110",
        "/DebugRuleConfigurations/0",
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("Confusion")]},
        {"DebugHookConfig": hook(("labels", {}), ("predictions", {})), "DebugRuleConfigurations": [rule("Confusion")]},
        {},
    ),
    (
        "SMD110",
        "/DebugRuleConfigurations/0",
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("AllZero", collection_names="weights")]},
        {
            "DebugHookConfig": hook(("weights", {})),
            "DebugRuleConfigurations": [rule("AllZero", collection_names="weights")],
        },
        {},
    ),
    (
        "SMD111",
        "/DebugRuleConfigurations",
        {"DebugRuleConfigurations": [rule("Overfit")]},
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("Overfit")]},
        {},
    ),
    (
        "SMD112",
        "/DebugRuleConfigurations/0",
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("DeadRelu")]},
        {
            "DebugHookConfig": hook(("relu_output", {"include_regex": ".*relu_output"})),
            "DebugRuleConfigurations": [rule("DeadRelu")],
        },
        {},
    ),
    (
        "SMD113",
        "/DebugHookConfig/CollectionConfigurations/0",
        {"DebugHookConfig": {"S3OutputPath": OUT, "CollectionConfigurations": [{"CollectionParameters": {}}]}},
        {
            "DebugHookConfig": {
                "S3OutputPath": OUT,
                "CollectionConfigurations": [{"CollectionName": "losses", "CollectionParameters": {}}],
            }
        },
        {},
    ),
    (
        "SMD114",
        "/DebugHookConfig/CollectionConfigurations/0",
        {"DebugHookConfig": hook(("attention", {}))},
        {"DebugHookConfig": hook(("attention", {"include_regex": ".*attention.*"}))},
        {},
    ),
    (
        "SMD114",
        "/DebugHookConfig/CollectionConfigurations/0",
        {"DebugHookConfig": hook(("trees", {}))},
        {"DebugHookConfig": hook(("trees", {}))},
        {"framework": "pytorch"},
    ),
    (
        "SMD120",
        "/DebugRuleConfigurations/0/RuleParameters/threshhold",
        {
            "DebugHookConfig": hook(("gradients", {})),
            "DebugRuleConfigurations": [rule("VanishingGradient", threshhold="0.1")],
        },
        {
            "DebugHookConfig": hook(("gradients", {})),
            "DebugRuleConfigurations": [rule("VanishingGradient", threshold="0.1")],
        },
        {},
    ),
    (
        "SMD120",
        "/ProfilerRuleConfigurations/0/RuleParameters/threshhold",
        {"ProfilerConfig": profiler(), "ProfilerRuleConfigurations": [rule("CPUBottleneck", threshhold="50")]},
        {"ProfilerConfig": profiler(), "ProfilerRuleConfigurations": [rule("CPUBottleneck", threshold="50")]},
        {},
    ),
    (
        "SMD121",
        "/DebugRuleConfigurations/0/RuleParameters/mode",
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("LossNotDecreasing", mode="TRAINING")]},
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("LossNotDecreasing", mode="TRAIN")]},
        {},
    ),
    (
        "SMD121",
        "/ProfilerRuleConfigurations/0/RuleParameters/CPUBottleneck_threshold",
        {
            "ProfilerConfig": profiler(),
            "ProfilerRuleConfigurations": [rule("ProfilerReport", CPUBottleneck_threshold="150")],
        },
        {
            "ProfilerConfig": profiler(),
            "ProfilerRuleConfigurations": [rule("ProfilerReport", CPUBottleneck_threshold="90")],
        },
        {},
    ),
    (
        "SMD123",
        "/DebugRuleConfigurations/0",
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("TreeDepth")]},
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("TreeDepth")]},
        {"framework": "pytorch"},
    ),
    (
        "SMD124",
        "/DebugRuleConfigurations/0/RuleParameters",
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("SimilarAcrossRuns")]},
        {
            "DebugHookConfig": hook(),
            "DebugRuleConfigurations": [rule("SimilarAcrossRuns", other_trial_0="s3://bucket/other")],
        },
        {},
    ),
    (
        "SMD125",
        "/DebugRuleConfigurations/0/RuleParameters/rule_to_invoke",
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("X", "NoSuchRule")]},
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("X", "Overfit")]},
        {},
    ),
    (
        "SMD130",
        "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/include_regex",
        {"DebugHookConfig": hook(("c", {"include_regex": "conv0(.*"}))},
        {"DebugHookConfig": hook(("c", {"include_regex": "conv0(.*)"}))},
        {},
    ),
    (
        "SMD131",
        "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/include_regex",
        {"DebugHookConfig": hook(("c", {"include_regex": "layer_[0-9]{1,2}"}))},
        {"DebugHookConfig": hook(("c", {"include_regex": "layer_[0-9]+,conv.*"}))},
        {},
    ),
    (
        "SMD132",
        "/DebugHookConfig/HookParameters/save_interval",
        {"DebugHookConfig": hook(save_interval="0")},
        {"DebugHookConfig": hook(save_interval="1")},
        {},
    ),
    (
        "SMD133",
        "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/start_step",
        {"DebugHookConfig": hook(("losses", {"start_step": "100", "end_step": "100"}))},
        {"DebugHookConfig": hook(("losses", {"start_step": "100", "end_step": "101"}))},
        {},
    ),
    (
        "SMD134",
        "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/save_steps",
        {"DebugHookConfig": hook(("losses", {"save_steps": "1,,2"}))},
        {"DebugHookConfig": hook(("losses", {"save_steps": "1,2"}))},
        {},
    ),
    (
        "SMD135",
        "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/save_intervals",
        {"DebugHookConfig": hook(("losses", {"save_intervals": "5"}))},
        {"DebugHookConfig": hook(("losses", {"save_interval": "5"}))},
        {},
    ),
    (
        "SMD136",
        "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/reductions",
        {"DebugHookConfig": hook(("weights", {"reductions": "mean,l2"}))},
        {"DebugHookConfig": hook(("weights", {"reductions": "mean,l2_norm"}))},
        {},
    ),
    (
        "SMD137",
        "/DebugHookConfig/HookParameters/save_shape",
        {"DebugHookConfig": hook(save_shape="true", reductions="mean")},
        {"DebugHookConfig": hook(reductions="mean")},
        {},
    ),
    (
        "SMD138",
        "/DebugHookConfig/HookParameters/save_all",
        {"DebugHookConfig": hook(save_all="yes")},
        {"DebugHookConfig": hook(save_all="true")},
        {},
    ),
    (
        "SMD139",
        "/DebugHookConfig/HookParameters/export_tensorboard",
        {"DebugHookConfig": hook(export_tensorboard="true")},
        {"DebugHookConfig": hook(), "TensorBoardOutputConfig": {"S3OutputPath": OUT}},
        {},
    ),
    (
        "SMD140",
        "/ProfilerConfig/ProfilingParameters/DetailedProfilingConfig",
        {"ProfilerConfig": profiler(DetailedProfilingConfig='{"StartStep": 5, "NumSteps": null}')},
        {"ProfilerConfig": profiler(DetailedProfilingConfig='{"StartStep": 5, "NumSteps": 1}')},
        {},
    ),
    (
        "SMD140",
        "/ProfilerConfig/ProfilingParameters/PythonProfilingConfig",
        {"ProfilerConfig": profiler(PythonProfilingConfig='{"StartStep": 5')},
        {"ProfilerConfig": profiler(PythonProfilingConfig='{"StartStep": 5}')},
        {},
    ),
    (
        "SMD140",
        "/ProfilerConfig/ProfilingParameters/DetailedProfilingConfig",
        {"ProfilerConfig": profiler(DetailedProfilingConfig="")},
        {"ProfilerConfig": profiler(DetailedProfilingConfig="dict(StartStep=5, NumSteps=2)")},
        {},
    ),
    (
        "SMD141",
        "/ProfilerConfig/ProfilingParameters/DetailedProfilingConfig",
        {
            "ProfilerConfig": profiler(
                DetailedProfilingConfig='{"StartTimeInSecSinceEpoch": 1900000000, "Duration": 60}'
            )
        },
        {
            "ProfilerConfig": profiler(
                DetailedProfilingConfig='{"StartTimeInSecSinceEpoch": 1900000000, "DurationInSeconds": 60}'
            )
        },
        {},
    ),
    (
        "SMD141",
        "/ProfilerConfig/ProfilingParameters/PythonProfilingConfig",
        {"ProfilerConfig": profiler(PythonProfilingConfig='{"StartStep": 1, "NumSteps": 1, "cProfileTimer": "cpu"}')},
        {
            "ProfilerConfig": profiler(
                PythonProfilingConfig='{"StartStep": 1, "NumSteps": 1, "cProfileTimer": "cpu_time"}'
            )
        },
        {},
    ),
    (
        "SMD141",
        "/ProfilerConfig/ProfilingParameters/DetailedProfilingConfig",
        {"ProfilerConfig": profiler(DetailedProfilingConfig='{"StartStep": 1, "DurationInSeconds": 5}')},
        {"ProfilerConfig": profiler(DetailedProfilingConfig='{"StartStep": 1, "NumSteps": 5}')},
        {},
    ),
    (
        "SMD141",
        "/ProfilerConfig/ProfilingParameters/DetailedProfilingConfig",
        {"ProfilerConfig": profiler(DetailedProfilingConfig="[5, 1]")},
        {"ProfilerConfig": profiler(DetailedProfilingConfig="{'StartStep': 5, 'NumSteps': 1}")},
        {},
    ),
    (
        "SMD142",
        "/ProfilerConfig/ProfilingParameters/DataloaderProfilingConfig",
        {
            "ProfilerConfig": profiler(
                DataloaderProfilingConfig='{"StartStep": 1, "NumSteps": 1, "MetricsRegex": "\\\\S+Loader"}'
            )
        },
        {
            "ProfilerConfig": profiler(
                DataloaderProfilingConfig='{"StartStep": 1, "NumSteps": 1, "MetricsRegex": "\\\\s+loader"}'
            )
        },
        {},
    ),
    (
        "SMD142",
        "/ProfilerConfig/ProfilingParameters/LocalPath",
        {"ProfilerConfig": profiler(LocalPath="/opt/ml/output/Profiler")},
        {"ProfilerConfig": profiler(LocalPath="/opt/ml/output/profiler")},
        {},
    ),
    (
        "SMD143",
        "/ProfilerConfig/ProfilingParameters/RotateMaxFileSizeInBytes",
        {"ProfilerConfig": profiler(RotateMaxFileSizeInBytes="10MB")},
        {"ProfilerConfig": profiler(RotateMaxFileSizeInBytes="1e7")},
        {},
    ),
    (
        "SMD143",
        "/ProfilerConfig/ProfilingParameters/DetailedProfilerConfig",
        {"ProfilerConfig": profiler(DetailedProfilerConfig='{"StartStep": 5}')},
        {"ProfilerConfig": profiler(DetailedProfilingConfig='{"StartStep": 5}')},
        {},
    ),
    (
        "SMD144",
        "/ProfilerConfig/ProfilingIntervalInMilliseconds",
        {"ProfilerConfig": {"S3OutputPath": OUT, "DisableProfiler": False, "ProfilingIntervalInMilliseconds": 250}},
        {"ProfilerConfig": {"S3OutputPath": OUT, "DisableProfiler": False, "ProfilingIntervalInMilliseconds": 200}},
        {},
    ),
    (
        "SMD145",
        "/ProfilerConfig/ProfilingParameters/HorovodProfilingConfig",
        {"ProfilerConfig": profiler(HorovodProfilingConfig='{"StartStep": 13, "NumSteps": 1, }')},
        {"ProfilerConfig": profiler(SMDataParallelProfilingConfig='{"StartStep": 13, "NumSteps": 1, }')},
        {},
    ),
    (
        "SMD155",
        "/DebugRuleConfigurations/0/RuleParameters/action_json",
        {
            "DebugHookConfig": hook(),
            "DebugRuleConfigurations": [rule("Overfit", action_json='{\\"name\\": \\"page\\"}')],
        },
        {
            "DebugHookConfig": hook(),
            "DebugRuleConfigurations": [
                rule("Overfit", action_json='{\\"name\\": \\"sms\\", \\"endpoint\\": \\"+14155550100\\"}')
            ],
        },
        {},
    ),
    (
        "SMD150",
        "/DebugRuleConfigurations/0/RuleParameters/action_json",
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("Overfit", action_json='[{name: stoptraining}]')]},
        {
            "DebugHookConfig": hook(),
            "DebugRuleConfigurations": [
                rule("Overfit", action_json='[{"name": "stoptraining", "training_job_prefix": "j"}]')
            ],
        },
        {},
    ),
    (
        "SMD115",
        "/DebugHookConfig/HookParameters/include_workers",
        {"DebugHookConfig": hook(include_workers="every")},
        {"DebugHookConfig": hook(include_workers="all")},
        {},
    ),
    (
        "SMD122",
        "/DebugRuleConfigurations/0/RuleParameters/new_knob",
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("Overfit", new_knob="1")]},
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("Overfit")]},
        {"passthrough": {"/DebugRuleConfigurations/0": ["new_knob"]}},
    ),
    (
        "SMD120",
        "/ProfilerRuleConfigurations/0/RuleParameters/CPUBottlenek_threshold",
        {
            "ProfilerConfig": profiler(),
            "ProfilerRuleConfigurations": [rule("ProfilerReport", CPUBottlenek_threshold="50")],
        },
        {
            "ProfilerConfig": profiler(),
            "ProfilerRuleConfigurations": [rule("ProfilerReport", CPUBottleneck_threshold="50")],
        },
        {},
    ),
    (
        "SMD121",
        "/DebugRuleConfigurations/0/RuleParameters/start_step",
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("Overfit", start_step="first")]},
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("Overfit", start_step="17")]},
        {},
    ),
    (
        "SMD151",
        "/DebugRuleConfigurations/0/RuleEvaluatorImage",
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("Overfit")]},
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("Overfit")]},
        {"region": "eu-west-1"},
    ),
    (
        "SMD152",
        "/DebugRuleConfigurations/0/RuleParameters/source_s3_uri",
        {
            "DebugHookConfig": hook(),
            "DebugRuleConfigurations": [
                dict(CUSTOM, RuleParameters={"source_s3_uri": "rules/missing.py", "rule_to_invoke": "Mine"})
            ],
        },
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [CUSTOM]},
        {},
    ),
    (
        "SMD153",
        "/TensorBoardOutputConfig/LocalPath",
        {"TensorBoardOutputConfig": {"S3OutputPath": OUT, "LocalPath": "tensorboard"}},
        {"TensorBoardOutputConfig": {"S3OutputPath": OUT, "LocalPath": "/opt/ml/output/tensorboard"}},
        {},
    ),
    (
        "SMD154",
        "/TensorBoardOutputConfig/LocalPath",
        {"TensorBoardOutputConfig": {"S3OutputPath": OUT, "LocalPath": "/opt/ml/output/tensorboard"}},
        {"TensorBoardOutputConfig": {"S3OutputPath": OUT, "LocalPath": "/tensorboard"}},
        {},
    ),
    (
        "SMD160",
        "/ProfilerRuleConfigurations",
        {"ProfilerConfig": {"DisableProfiler": True}, "ProfilerRuleConfigurations": [rule("ProfilerReport")]},
        {
            "ProfilerConfig": {"DisableProfiler": False, "S3OutputPath": OUT},
            "ProfilerRuleConfigurations": [rule("ProfilerReport")],
        },
        {},
    ),
    (
        "SMD161",
        "/DebugHookConfig",
        {"DebugHookConfig": hook()},
        {"ProfilerConfig": {"DisableProfiler": True}},
        {"region": "ap-southeast-3"},
    ),
    (
        "SMD170",
        "/DebugHookConfig",
        dict(PT_IMAGE("2.3.0"), DebugHookConfig=hook(("weights", {}))),
        dict(PT_IMAGE("1.13.1"), DebugHookConfig=hook(("weights", {}))),
        {},
    ),
    (
        "SMD171",
        "/ProfilerConfig/ProfilingParameters",
        dict(PT_IMAGE("2.3.0"), ProfilerConfig=profiler(DetailedProfilingConfig='{"StartStep": 5, "NumSteps": 1}')),
        dict(PT_IMAGE("1.13.1"), ProfilerConfig=profiler(DetailedProfilingConfig='{"StartStep": 5, "NumSteps": 1}')),
        {},
    ),
    (
        "SMD172",
        "/DebugHookConfig",
        dict(PT_IMAGE("2.3.0"), DebugHookConfig=hook()),
        dict(PT_IMAGE("1.13.1"), DebugHookConfig=hook()),
        {},
    ),
    (
        "SMD173",
        "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/save_steps",
        {"DebugHookConfig": hook(("losses", {"save_steps": "1,2"}))},
        {"DebugHookConfig": hook(("losses", {"save_steps": "1,2", "end_step": "0"}))},
        {},
    ),
    (
        "SMD174",
        "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/save_steps",
        {"DebugHookConfig": hook(("losses", {"save_steps": "1,2"}), save_interval="10")},
        {"DebugHookConfig": hook(("losses", {"save_steps": "1,2", "save_interval": "10"}), save_interval="10")},
        {},
    ),
    (
        "SMD001",
        "/DebugHookConfig/S3OutputPath",
        {"DebugHookConfig": {"S3OutputPath": {"Get": "Parameters.Out"}}},
        {"DebugHookConfig": {"S3OutputPath": OUT}},
        {},
    ),
]


@pytest.mark.parametrize("code, path, bad, good, kwargs", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_check_fires_on_bad_and_not_on_near_identical_good(code, path, bad, good, kwargs):
    # SMD110 with xgboost: losses is not saved by default there; with the default frameworks it is
    if code == "SMD110" and kwargs == {"framework": "xgboost"}:
        assert (code, path) in codes(bad, **kwargs)
        assert (code, path) not in codes(good, framework="pytorch")
        return
    if code in ("SMD123", "SMD151", "SMD161", "SMD114") and kwargs:
        assert (code, path) in codes(bad, **kwargs)
        assert (code, path) not in codes(good)
        return
    found = codes(bad, **kwargs)
    assert (code, path) in found, sorted(found)
    assert code not in {c for c, _ in codes(good, **kwargs)}, sorted(codes(good, **kwargs))


def test_every_registered_code_has_a_case_and_a_description():
    covered = {case[0] for case in CASES}
    all_codes = set(CHECKS)
    # SMD002: config-file build errors, tested in test_cli.py; it cannot come from a request
    # SMD180-SMD182: lint's codes about Python sources, paired bad/good in tests/lint/test_lint.py (LINT_CASES)
    assert all_codes - covered == {"SMD002", "SMD180", "SMD181", "SMD182"}
    for row in list_checks(verbose=True):
        assert row["severity"] in ("error", "warning", "info") and row["description"].endswith(".") and row["evidence"]
    assert "evidence" not in list_checks()[0]


def test_every_error_is_reported_not_just_the_first():
    request = {
        "DebugHookConfig": hook(
            ("a", {"save_interval": "0"}), ("b", {"reductions": "median"}), ("c", {"include_regex": "("})
        )
    }
    assert {"SMD132", "SMD136", "SMD130"} <= {f.code for f in validate(request)}


def test_paths_are_json_pointers_into_the_request():
    request = {
        "DebugHookConfig": hook(
            *[(f"c{i}", {"include_regex": "x"}) for i in range(3)] + [("c3", {"include_regex": "conv0.*,dense{1,2}"})]
        )
    }
    [finding] = [f for f in validate(request) if f.code == "SMD131"]
    assert finding.pointer == "/DebugHookConfig/CollectionConfigurations/3/CollectionParameters/include_regex"
    assert finding.to_dict()["severity"] == "warning"  # issue 14: the pieces compile, the job runs (was "error")


def test_sdk_scenarios_stay_valid():
    # Overfit / Overtraining with the default hook: losses is saved without being asked
    fields = render(
        [Rule.sagemaker(rule_configs.overfit()), Rule.sagemaker(rule_configs.overtraining())],
        region="us-east-1",
        output_path=OUT,
    )
    for framework in (None, "tensorflow", "pytorch", "mxnet"):
        assert [f for f in validate(fields, framework=framework) if f.severity == "error"] == []


def test_every_builtin_rule_with_its_defaults_renders_valid():
    from sm_debug_config.model import catalogue
    needs_collections = {"Confusion": ["labels", "predictions"]}  # no default collections, reads these by name
    for name, entry in catalogue.rules("debugger").items():
        extra = {"other_trials_s3_input_paths": ["s3://bucket/other"]} if name == "SimilarAcrossRuns" else {}
        base = getattr(rule_configs, entry["function"])
        if name in needs_collections:  # issue 14: SMD110 is a warning, render no longer raises (was ConfigError)
            assert "SMD110" in {
                f.code for f in validate(render([Rule.sagemaker(base())], region="us-east-1", output_path=OUT))
            }
            extra["collections_to_save"] = [CollectionConfig(c) for c in needs_collections[name]]
        fields = render([Rule.sagemaker(base(), **extra)], region="us-east-1", output_path=OUT)
        assert [f for f in validate(fields) if f.severity == "error"] == [], name
    for name in catalogue.rules("profiler"):
        fields = render([ProfilerRule.sagemaker(getattr(rule_configs, name)())], region="us-east-1", output_path=OUT)
        assert [f for f in validate(fields) if f.severity == "error"] == [], name


def test_render_raises_with_the_findings_and_can_skip_validation():
    rules = [Rule.sagemaker(rule_configs.overfit())]
    with pytest.raises(ConfigError) as err:
        render(rules, debugger_hook_config=False, region="us-east-1", output_path=OUT)
    assert "SMD111" in str(err.value) and [f.code for f in err.value.findings] == ["SMD111"]
    fields = render(rules, debugger_hook_config=False, region="us-east-1", output_path=OUT, validate=False)
    assert "DebugHookConfig" not in fields


def test_render_framework_enables_framework_checks():
    rules = [Rule.sagemaker(rule_configs.loss_not_decreasing(), collections_to_save=[CollectionConfig("weights")])]
    render(rules, region="us-east-1", output_path=OUT)  # losses is saved by default by TF/PyTorch/MXNet hooks
    render(rules, region="us-east-1", output_path=OUT, framework="pytorch")
    # issue 14: SMD110 is a warning (the trial creates the missing collection empty); render no longer raises
    fields = render(rules, region="us-east-1", output_path=OUT, framework="xgboost")
    assert "SMD110" in {f.code for f in validate(fields, framework="xgboost")}


def test_whole_create_training_job_request_and_odd_inputs():
    request = {"TrainingJobName": "j", "RoleArn": "arn", "DebugHookConfig": hook()}
    assert validate(request) == []
    assert validate({}) == []
    with pytest.raises(ConfigError, match="request"):
        validate(["DebugHookConfig"])
    with pytest.raises(ConfigError, match="framework"):
        validate({}, framework="jax")
    with pytest.raises(ConfigError, match="region"):
        validate({}, region="moon")


def test_tensorboard_reserved_paths_are_refused_at_construction():
    with pytest.raises(ConfigError, match="reserves") as err:
        TensorBoardOutputConfig("s3://bucket/tb", "/opt/ml/output/tensorboard")
    assert (
        err.value.field == "TensorBoardOutputConfig.container_local_output_path" and "/tensorboard" in err.value.allowed
    )
    for path in ("/tmp/tb", "/usr/local/nvidia/tb"):
        with pytest.raises(ConfigError):
            TensorBoardOutputConfig("s3://bucket/tb", path)
    TensorBoardOutputConfig("s3://bucket/tb", "/tensorboard")
    # the hook's own default lives under /opt/ml and is not restricted
    DebuggerHookConfig(container_local_output_path="/opt/ml/output/tensors")


def test_findings_are_sorted_and_deterministic():
    request = {
        "ProfilerConfig": profiler(Foo="1"),
        "DebugHookConfig": hook(("b", {"save_interval": "0"}), ("a", {"save_interval": "-1"})),
    }
    paths = [f.pointer for f in validate(request)]
    assert paths == sorted(paths, key=lambda p: (not p.startswith("/DebugHookConfig"), p))
    assert validate(copy.deepcopy(request)) == validate(request)


def test_validate_still_runs_under_python_dash_o(tmp_path):
    code = ("from sm_debug_config import validate; print(len(validate({'DebugHookConfig': {'S3OutputPath': 's3://b/o', "
            "'HookParameters': {'save_interval': '0'}}})))")
    out = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "1", out.stderr


def test_every_code_in_the_package_source_is_registered():
    # drift guard: a code written anywhere in the package (a check, a constructor's ConfigError.code,
    # a CLI finding) must be registered with a severity and a description, so `checks` lists it
    import pathlib
    import re

    import sm_debug_config

    root = pathlib.Path(sm_debug_config.__file__).parent
    found = {
        code for path in root.rglob("*.py") for code in re.findall(r"\bSMD\d{3}\b", path.read_text(encoding="utf-8"))
    }
    found.discard("SMD999")  # the registry's doctest example
    assert found and found - set(CHECKS) == set()
    assert {row["code"] for row in list_checks()} == set(CHECKS)


# --- issue 14: severities backed by evidence, real-world configs, suppression ------------------


def test_sdk_guide_example_3_weight_update_ratio_with_a_custom_collection_renders_with_a_warning():
    # sagemaker-python-sdk doc/amazon_sagemaker_debugger.rst, "Example 3": weight_update_ratio()
    # saving "a custom collection rather than weights". The API accepts it and the rule job runs
    # (smdebug's trial creates a missing collection empty), so SMD110 warns instead of refusing.
    rules = [
        Rule.sagemaker(
            base_config=rule_configs.weight_update_ratio(),
            collections_to_save=[
                CollectionConfig(
                    name="custom_collection_name", parameters={"include_regex": ".*weight", "save_interval": "500"}
                )
            ],
        )
    ]
    fields = render(rules, region="us-east-1", output_path=OUT)
    found = {(f.code, f.severity) for f in validate(fields)}
    assert ("SMD110", "warning") in found and not [f for f in validate(fields) if f.severity == "error"]


def test_loss_not_decreasing_on_metrics_with_pytorch_renders_with_a_warning():
    # LossNotDecreasing(collection_names="metrics") as in the AWS examples, on a PyTorch job whose hook has no "metrics"
    rules = [Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={"collection_names": "metrics"})]
    fields = render(rules, region="us-east-1", output_path=OUT, framework="pytorch")
    assert ("SMD110", "warning") in {(f.code, f.severity) for f in validate(fields, framework="pytorch")}


XGBOOST_CONFUSION = {
    # the official XGBoost Debugger notebooks, the SDK v2's unit tests and
    # https://github.com/aws/aws-step-functions-data-science-sdk-python/pull/27 : Confusion with start_step/end_step
    "DebugHookConfig": hook(
        ("hyperparameters", {}),
        ("metrics", {}),
        ("predictions", {}),
        ("labels", {}),
        ("feature_importance", {}),
        save_interval="1",
    ),
    "DebugRuleConfigurations": [
        rule("Confusion", category_no="15", min_diag="0.7", max_off_diag="0.3", start_step="17", end_step="19")
    ],
}


def test_start_step_and_end_step_are_taken_by_every_builtin_debugger_rule():
    # smdebug rules/rule_invoker.py invoke_rule(rule_obj, start_step, end_step) runs every rule on that step range
    assert validate(XGBOOST_CONFUSION, framework="xgboost") == []
    from sm_debug_config.model import catalogue
    for name in catalogue.rules("debugger"):
        request = {
            "DebugHookConfig": hook(save_all="true"),
            "DebugRuleConfigurations": [rule(name, start_step="5", end_step="10")],
        }
        assert not {f.code for f in validate(request)} & {"SMD120", "SMD121"}, name
    bad = copy.deepcopy(XGBOOST_CONFUSION)
    bad["DebugRuleConfigurations"][0]["RuleParameters"]["end_step"] = "-1"
    assert [(f.code, f.severity) for f in validate(bad)] == [("SMD121", "warning")]


def test_allow_unknown_parameters_is_an_escape_hatch_that_render_honours():
    # issue 14 item 5: the constructor warns (SMD122) and render must not raise SMD120 for the same key
    with pytest.warns(UserWarning, match="new_knob"):
        made = Rule.sagemaker(
            rule_configs.vanishing_gradient(), rule_parameters={"new_knob": "1"}, allow_unknown_parameters=["new_knob"]
        )
    fields = render([made], region="us-east-1", output_path=OUT)
    from sm_debug_config.validation import passthrough_of
    assert passthrough_of([made]) == {"/DebugRuleConfigurations/0": tuple(made.rule_parameters)}
    found = validate(fields, passthrough=passthrough_of([made]))
    assert [(f.code, f.severity) for f in found if f.pointer.endswith("new_knob")] == [("SMD122", "warning")]
    # the raw request alone cannot tell: it is flagged, as a warning (no evidence the rule job fails)
    assert [(f.code, f.severity) for f in validate(fields) if f.pointer.endswith("new_knob")] == [("SMD120", "warning")]


def test_bert_workshop_relative_tensorboard_dir_is_only_the_sagemaker_fact():
    # "Data Science on AWS" BERT workshop (chapter 7, tf_bert_reviews.py estimator): hook_parameters with
    # tensorboard_dir "hook_tensorboard/". smdebug ignores tensorboard_dir on SageMaker (core/json_config.py),
    # so SMD139 says so and SMD153 does not refuse the relative path.
    hook_config = DebuggerHookConfig(
        hook_parameters={"save_interval": "10", "export_tensorboard": "true", "tensorboard_dir": "hook_tensorboard/"}
    )
    fields = render(
        [Rule.sagemaker(rule_configs.loss_not_decreasing())],
        debugger_hook_config=hook_config,
        region="us-east-1",
        output_path=OUT,
    )
    found = {(f.code, f.pointer.rsplit("/", 1)[-1]) for f in validate(fields)}
    assert found == {("SMD139", "export_tensorboard"), ("SMD139", "tensorboard_dir")}


def test_constructors_and_validation_share_one_severity_per_code():
    from sm_debug_config.model import hookparams
    from sm_debug_config.validation import severity_of

    problems = hookparams.check(
        {
            "save_interval": "0",
            "start_step": "9",
            "end_step": "3",
            "save_intervall": "5",
            "include_workers": "x",
            "tensorboard_dir": "rel/",
            "include_regex": "a{1,2}",
            "reductions": "median",
        },
        "hook",
    )
    assert problems and all(p.severity == severity_of(p.code) for p in problems)
    assert {p.code for p in problems} == {"SMD132", "SMD133", "SMD135", "SMD115", "SMD139", "SMD131", "SMD136"}
    # warnings do not stop a constructor; errors do
    DebuggerHookConfig(hook_parameters={"save_intervall": "5"})
    with pytest.raises(ConfigError, match="save_interval"):
        CollectionConfig("losses", {"save_interval": "0"})


def test_ignore_suppresses_codes_and_keeps_them_countable():
    from sm_debug_config.validation import errors, raise_for_errors, validate_split
    request = {"DebugRuleConfigurations": [rule("Overfit")]}
    assert [f.code for f in validate(request)] == ["SMD111"]
    assert validate(request, ignore=["SMD111"]) == []
    kept, suppressed = validate_split(request, ignore=["smd111"])
    assert kept == [] and [(f.code, f.suppressed, f.to_dict()["suppressed"]) for f in suppressed] == [
        ("SMD111", True, True)
    ]
    assert errors(suppressed) == [] and raise_for_errors(suppressed) is None
    assert "suppressed" not in validate(request)[0].to_dict()
    with pytest.raises(ConfigError, match="did you mean 'SMD111'") as err:
        validate(request, ignore=["SMD1111"])
    assert err.value.field == "ignore[0]"


def test_render_ignore_is_a_job_setting():
    from sm_debug_config.model.settings import JobSettings
    rules = [Rule.sagemaker(rule_configs.overfit())]
    with pytest.raises(ConfigError, match="SMD111"):
        render(rules, debugger_hook_config=False, region="us-east-1", output_path=OUT)
    fields = render(rules, debugger_hook_config=False, region="us-east-1", output_path=OUT, ignore=["SMD111"])
    assert "DebugHookConfig" not in fields
    assert JobSettings(ignore=["smd110", "SMD110"]).ignore == ("SMD110",)
    with pytest.raises(ConfigError, match="unknown check code 'SMD999'") as err:
        render(rules, region="us-east-1", output_path=OUT, ignore=["SMD999"])
    assert err.value.field == "ignore[0]"


def test_checks_doc_is_current():
    done = subprocess.run(
        [sys.executable, script_path("generate_checks_doc"), "--check"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr + " (run: python scripts/generate_checks_doc.py)"


def test_sdk_integration_test_sms_number_is_a_warning_in_validation():
    # sagemaker-python-sdk tests/integ (actions, 2020-2024) used SMS("+01234567890"): not E.164, but the rule
    # container catches and logs the SNS error (smdebug rules/action/message_action.py) and the rule runs on
    request = {
        "DebugHookConfig": hook(),
        "DebugRuleConfigurations": [
            rule("Overfit", action_json='{\\"name\\": \\"sms\\", \\"endpoint\\": \\"+01234567890\\"}')
        ],
    }
    assert [(f.code, f.severity) for f in validate(request)] == [("SMD155", "warning")]


def test_the_readme_check_table_lists_every_code_with_its_severity():
    import pathlib
    import re

    readme = (pathlib.Path(__file__).parent.parent.parent / "README.md").read_text()
    table = dict(re.findall(r"^\| (SMD\d{3}) \| (error|warning|info) \|", readme, flags=re.M))
    from sm_debug_config.validation import list_checks

    assert table == {row["code"]: row["severity"] for row in list_checks()}
