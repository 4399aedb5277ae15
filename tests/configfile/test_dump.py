"""configfile.dump: objects back to the config mapping; round trips; what a config file cannot hold."""
from __future__ import annotations

import json

import pytest
import yaml
from hypothesis import given, HealthCheck, strategies as st

from sm_debug_config import configfile as cf
from sm_debug_config import rule_configs
from sm_debug_config.configfile.parse import MAX_DEPTH
from sm_debug_config.errors import ConfigError
from sm_debug_config.findings import collecting
from sm_debug_config.model.actions import ActionList, SMS
from sm_debug_config.model.hook import CollectionConfig, DebuggerHookConfig
from sm_debug_config.model.profiler import (
    cProfileTimer,
    DataloaderProfilingConfig,
    DetailedProfilingConfig,
    FrameworkProfile,
    HorovodProfilingConfig,
    Profiler,
    ProfilerConfig,
    PythonProfiler,
    PythonProfilingConfig,
    SMDataParallelProfilingConfig,
)
from sm_debug_config.model.rules import DetailedProfilerProcessingJobConfig, ProfilerRule, Rule
from sm_debug_config.checked import render

from tests.configfile.cfhelpers import ROOT, EXAMPLES, CUSTOM_IMAGE
from tests.docstrategies import config_documents
from tests.strategies import examples
from tests.warnhelpers import config_warnings, example_warnings


# --- dump / load round trips -------------------------------------------------------------------


def round_trip(kwargs, via="yaml"):
    dumped = cf.dump(**kwargs)
    text = yaml.safe_dump(dumped) if via == "yaml" else json.dumps(dumped)
    loaded = cf.loads(text, filename=f"dumped.{via}")
    return dumped, loaded


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
@pytest.mark.parametrize("via", ["yaml", "json"])
def test_examples_round_trip(path, via):
    cfg = cf.load(path)
    kwargs = cfg.render_kwargs()
    dumped, loaded = round_trip(kwargs, via)
    assert loaded == cfg
    with config_warnings(*example_warnings(path)):
        assert render(**loaded.render_kwargs()) == render(**kwargs)
    assert cf.dump(**loaded.render_kwargs()) == dumped
    assert cfg.to_config() == dumped


def test_dump_is_deterministic():
    for path in EXAMPLES:
        first = yaml.safe_dump(cf.load(path).to_config(), sort_keys=False)
        second = yaml.safe_dump(cf.load(path).to_config(), sort_keys=False)
        assert first == second
    dumped = cf.load(ROOT / "examples" / "rule-customisation.yaml").to_config()
    assert list(dumped) == ["region", "output_path", "job_name", "framework", "rules"]
    assert list(dumped["rules"][1]) == ["builtin", "name", "rule_parameters", "collections_to_save"]


def test_dump_builtin_rules_as_builtin_entries_with_only_changed_parameters():
    rules = [
        Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"threshold": 0.0001}),
        Rule.sagemaker(
            rule_configs.loss_not_decreasing(),
            rule_parameters={"use_losses_collection": True, "num_steps": "7", "diff_percent": "1e-3"},
        ),
        ProfilerRule.sagemaker(rule_configs.CPUBottleneck(threshold=70)),
        ProfilerRule.sagemaker(rule_configs.ProfilerReport(CPUBottleneck_threshold=70)),
    ]
    assert cf.dump(rules)["rules"] == [
        {"builtin": "VanishingGradient", "rule_parameters": {"threshold": 0.0001}},
        {
            "builtin": "LossNotDecreasing",
            "rule_parameters": {"use_losses_collection": True, "num_steps": 7, "diff_percent": "1e-3"},
        },
        {"builtin": "CPUBottleneck", "rule_parameters": {"threshold": 70}},
        {"builtin": "ProfilerReport", "rule_parameters": {"CPUBottleneck_threshold": 70}},
    ]


def _assert_same_render(kwargs, **render_args):
    dumped, loaded = round_trip(kwargs)
    merged = {**render_args, **kwargs}
    with collecting():  # what the configuration warns is not the point here
        assert render(**loaded.render_kwargs(**render_args)) == render(**merged)
    assert cf.dump(**loaded.render_kwargs()) == dumped
    return dumped, loaded


def test_round_trip_framework_profile_with_custom_metric_configs():
    profile = FrameworkProfile(
        local_path="/opt/ml/output/prof",
        file_max_size=2048,
        file_close_interval=30.5,
        file_open_fail_threshold=9,
        detailed_profiling_config=DetailedProfilingConfig(start_unix_time=1700000000, duration=60.5),
        dataloader_profiling_config=DataloaderProfilingConfig(num_steps=4, metrics_regex="Data.*\\.next"),
        python_profiling_config=PythonProfilingConfig(start_step=3, python_profiler=PythonProfiler.PYINSTRUMENT),
        horovod_profiling_config=HorovodProfilingConfig(profile_default_steps=True),
        smdataparallel_profiling_config=SMDataParallelProfilingConfig(duration=10),
    )
    kwargs = {
        "profiler_config": ProfilerConfig(
            s3_output_path="s3://b/p/", system_monitor_interval_millis=100, framework_profile_params=profile
        )
    }
    dumped, loaded = _assert_same_render(kwargs, region="us-east-1", output_path="s3://b/o/")
    assert loaded.profiler_config == kwargs["profiler_config"]
    assert dumped["profiler_config"]["framework_profile_params"]["python_profiling_config"] == {
        "start_step": 3,
        "num_steps": 1,
        "python_profiler": "pyinstrument",
    }
    assert dumped["profiler_config"]["framework_profile_params"]["horovod_profiling_config"] == {
        "profile_default_steps": True
    }


@pytest.mark.parametrize(
    "profile",
    [
        FrameworkProfile(),
        FrameworkProfile(start_step=2, num_steps=3),
        FrameworkProfile(start_unix_time=1700000000, duration=30),
        FrameworkProfile(python_profiling_config=PythonProfilingConfig(profile_default_steps=True)),
        FrameworkProfile(python_profiling_config=PythonProfilingConfig(cprofile_timer=cProfileTimer.CPU_TIME)),
        FrameworkProfile(python_profiling_config=PythonProfilingConfig(cprofile_timer="default")),
        FrameworkProfile(detailed_profiling_config=DetailedProfilingConfig(start_unix_time=1700000000)),
    ],
)
def test_round_trip_framework_profiles(profile):
    kwargs = {"profiler_config": ProfilerConfig(framework_profile_params=profile)}
    _dumped, loaded = _assert_same_render(kwargs, region="us-east-1", output_path="s3://b/o/")
    assert loaded.profiler_config.framework_profile_params == profile


def test_round_trip_profiling_parameters_override():
    profile = FrameworkProfile()
    profile.profiling_parameters = {
        "LocalPath": "/opt/ml/output/profiler",
        "DetailedProfilingConfig": '{"StartStep": 1, "NumSteps": 2, }',
    }
    kwargs = {"profiler_config": ProfilerConfig(framework_profile_params=profile)}
    dumped, _loaded = _assert_same_render(kwargs, region="us-east-1", output_path="s3://b/o/")
    assert list(dumped["profiler_config"]["framework_profile_params"]) == ["profiling_parameters"]


def test_round_trip_sagemaker_profiler_and_its_processing_rule():
    profiler = ProfilerConfig(profile_params=Profiler(cpu_profiling_duration=1800, file_rotation_interval="300"))
    _assert_same_render({"profiler_config": profiler}, region="us-east-1", output_path="s3://b/o/", job_name="job-1")
    explicit = [
        ProfilerRule.sagemaker(
            DetailedProfilerProcessingJobConfig(),
            name="DetailedProfilerProcessingJobConfig-job-1",
            instance_type="ml.m5.2xlarge",
        )
    ]
    dumped, _loaded = _assert_same_render({"profiler_config": profiler, "rules": explicit}, region="us-east-1", output_path="s3://b/o/")
    assert dumped["rules"][0]["builtin"] == "DetailedProfilerProcessingJobConfig"
    assert dumped["profiler_config"]["profile_params"] == {
        "cpu_profiling_duration": 1800,
        "file_rotation_interval": 300,
    }


@pytest.mark.parametrize(
    "hook", [None, True, False, DebuggerHookConfig(), DebuggerHookConfig(hook_parameters={}, collection_configs=[])]
)
@pytest.mark.parametrize("rules", [None, []])
def test_round_trip_hook_forms_and_empty_rules(hook, rules):
    kwargs = {
        "debugger_hook_config": hook,
        "rules": rules,
        "profiler_config": ProfilerConfig(profile_params=Profiler()),
    }
    _dumped, loaded = _assert_same_render(kwargs, region="us-east-1", output_path="s3://b/o/", job_name="job-1")
    assert loaded.rules == rules


def test_round_trip_rule_variants():
    rules = [
        Rule.sagemaker(
            rule_configs.similar_across_runs(),
            other_trials_s3_input_paths=["s3://b/other/debug-output"],
            name="Similar",
        ),
        Rule.sagemaker(
            rule_configs.vanishing_gradient(),
            collections_to_save=[CollectionConfig("gradients", {"save_interval": "500"})],
        ),
        Rule.sagemaker(
            rule_configs.overfit(), container_local_output_path="/opt/ml/processing/out", s3_output_path="s3://b/rule/"
        ),
        Rule.custom(
            "Custom1",
            CUSTOM_IMAGE,
            "ml.m5.xlarge",
            30,
            source="s3://b/rule.py",
            rule_to_invoke="Custom1",
            other_trials_s3_input_paths=["s3://b/t0", "s3://b/t1"],
            rule_parameters={"a": 1, "b": "x"},
            actions=ActionList(SMS("+14155550100")),
        ),
        Rule.custom("Custom2", CUSTOM_IMAGE, "ml.m5.xlarge", 30, rule_parameters={"rule_to_invoke": "Only"}),
        ProfilerRule.custom(
            "Prof1", CUSTOM_IMAGE, "ml.m5.xlarge", 40, rule_parameters={"other_trial_0": "s3://b/t", "k": 2.5}
        ),
        ProfilerRule.sagemaker(rule_configs.StepOutlier(mode="TRAIN"), name="Outliers", instance_type="ml.m5.large"),
    ]
    dumped, loaded = _assert_same_render(
        {"rules": rules}, region="us-east-1", output_path="s3://b/o/", job_name="job-1"
    )
    assert loaded.rules == rules
    assert [next(iter(entry)) if len(entry) == 1 else "builtin" for entry in dumped["rules"]] == [
        "builtin", "builtin", "builtin", "custom", "custom", "custom_profiler", "builtin",
    ]
    assert dumped["rules"][1]["collections_to_save"] == [{"name": "gradients", "parameters": {"save_interval": "500"}}]


def test_round_trip_rule_newer_than_the_catalogue():
    unknown = Rule.sagemaker(
        {
            "DebugRuleConfiguration": {
                "RuleConfigurationName": "FutureRule",
                "RuleParameters": {"rule_to_invoke": "FutureRule"},
            }
        },
        rule_parameters={"knob": 1},
        collections_to_save=[CollectionConfig("weights")],
        allow_unknown_parameters=True,
    )
    dumped, loaded = round_trip({"rules": [unknown]})
    assert dumped["rules"] == [
        {
            "builtin": "FutureRule",
            "rule_parameters": {"knob": "1"},
            "collections_to_save": [{"name": "weights"}],
            "allow_unknown_parameters": True,
        }
    ]
    assert loaded.rules == [unknown]
    args = {"region": "us-east-1", "output_path": "s3://b/o/"}
    assert render([unknown], **args, validate=False) == loaded.render(**args, validate=False)


def test_rules_no_simpler_entry_reproduces_are_written_exactly():
    image = "111122223333.dkr.ecr.us-east-1.amazonaws.com/my-rules:1"
    rules = [
        Rule(
            "Literal",
            image,
            None,
            None,
            "s3://b/rule/",
            None,
            {"rule_to_invoke": "X", "k": "v"},
            [CollectionConfig("losses")],
            SMS("+14155550100"),
        ),
        ProfilerRule("LiteralProf", image, None, "/opt/ml/processing/out", None, None, {"rule_to_invoke": "Y", "n": 5}),
    ]
    dumped, loaded = _assert_same_render(
        {"rules": rules}, region="us-east-1", output_path="s3://b/o/", job_name="job-1"
    )
    assert dumped["rules"] == [
        {
            "rule": {
                "name": "Literal",
                "image_uri": image,
                "s3_output_path": "s3://b/rule/",
                "rule_parameters": {"rule_to_invoke": "X", "k": "v"},
                "collections_to_save": [{"name": "losses"}],
                "actions": {"sms": "+14155550100"},
            }
        },
        {
            "profiler_rule": {
                "name": "LiteralProf",
                "image_uri": image,
                "container_local_output_path": "/opt/ml/processing/out",
                "rule_parameters": {"rule_to_invoke": "Y", "n": 5},
            }
        },
    ]
    assert loaded.rules == rules
    changed = Rule.sagemaker(rule_configs.overfit())
    changed.collection_configs = [CollectionConfig("weights", {"save_interval": "10"})]  # set after building
    dumped, loaded = _assert_same_render({"rules": [changed]}, region="us-east-1", output_path="s3://b/o/")
    assert dumped["rules"][0]["rule"]["image_uri"] == "DEFAULT_RULE_EVALUATOR_IMAGE"
    assert loaded.rules[0].collection_configs == changed.collection_configs


def test_an_exact_rule_keeps_an_empty_collections_to_save():
    # The constructor stores [] as given and None is another rule: an exact entry writes [] back (found by
    # test_format's round-trip property under a random seed).
    image = "111122223333.dkr.ecr.us-east-1.amazonaws.com/my-rules:1"
    rule = Rule("Literal", image, "ml.m5.xlarge", None, None, 30, None, [])  # no rule_to_invoke: no custom: entry
    dumped = cf.dump(rules=[rule])
    assert dumped["rules"][0]["rule"]["collections_to_save"] == []
    loaded = cf.loads(json.dumps(dumped))
    assert loaded.rules == [rule] and loaded.rules[0].collection_configs == []
    assert cf.loads(json.dumps(loaded.to_config())) == loaded


def test_round_trip_through_from_request():
    from_request = pytest.importorskip("sm_debug_config.reverse").from_request
    for path in EXAMPLES:
        cfg = cf.load(path)
        with config_warnings(*example_warnings(path)):
            fields = cfg.render()
        request = dict(fields, TrainingJobName=cfg.job_name, OutputDataConfig={"S3OutputPath": cfg.output_path})
        rebuilt = from_request(request, region=cfg.region)
        config = cf.dump(**rebuilt.render_kwargs())
        again = cf.loads(yaml.safe_dump(config, sort_keys=False), filename="from-request.yaml")
        with config_warnings(*example_warnings(path)):
            assert again.render(instance_type=cfg.instance_type, framework=cfg.framework) == fields, path.name


def test_uses_default_collections_survives_the_round_trip():
    explicit = Rule.sagemaker(
        rule_configs.vanishing_gradient(), collections_to_save=[CollectionConfig("gradients", {"save_interval": "500"})]
    )
    default = Rule.sagemaker(rule_configs.vanishing_gradient())
    for rule in (explicit, default):
        _dumped, loaded = round_trip({"rules": [rule]})
        assert loaded.rules[0].uses_default_collections is rule.uses_default_collections


def test_dump_refuses_what_a_file_cannot_hold():
    class Var:  # duck-typed like a SageMaker Pipelines variable
        expr = {"Get": "Parameters.Path"}

        def to_string(self):
            return self

    with pytest.raises(ConfigError, match="Pipelines variable"):
        cf.dump(output_path=Var())
    with pytest.raises(ConfigError, match=r"rules\[0\]"):
        cf.dump(["VanishingGradient"])
    with pytest.raises(ConfigError, match="profiler_config"):
        cf.dump(profiler_config={"s3_output_path": "s3://b"})
    assert cf.to_config is cf.dump


# --- property-based round trip ----------------------------------------------------------------

hypothesis = pytest.importorskip("hypothesis")

@examples(100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config_documents(), st.sampled_from(["yaml", "json"]))
def test_generated_configs_round_trip(config, via):
    text = yaml.safe_dump(config) if via == "yaml" else json.dumps(config)
    loaded = cf.loads(text, filename=f"generated.{via}")
    request = loaded.render(validate=False)  # round trips, not advice: framework checks are tested elsewhere
    dumped, again = round_trip(loaded.render_kwargs(), via)
    assert again == loaded
    assert again.render(validate=False) == request
    assert cf.dump(**again.render_kwargs()) == dumped


def deep_list(depth):
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


def test_dump_of_a_100000_deep_value_is_a_config_error():
    with pytest.raises(ConfigError) as info:
        cf.dump(region=deep_list(100_000))
    assert f"nested more than {MAX_DEPTH} deep" in str(info.value)
    assert info.value.field.startswith("region[0][0]")


def test_dump_keeps_what_nests_within_the_limit():
    assert cf.dump(region=deep_list(MAX_DEPTH - 2)) == {"region": deep_list(MAX_DEPTH - 2)}
