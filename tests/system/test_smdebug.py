"""smdebug (what runs in the training and rule containers) reads what render() writes as intended."""
import ast
import json
import logging

import pytest

from sm_debug_config import (
    CollectionConfig,
    DataloaderProfilingConfig,
    DebuggerHookConfig,
    FrameworkProfile,
    ProfilerConfig,
    PythonProfiler,
    PythonProfilingConfig,
    Rule,
    render,
    rule_configs,
)

from tests.warnhelpers import config_warnings

logging.getLogger("smdebug").setLevel(logging.ERROR)


def _hook_collections(request):
    from smdebug.core.collection_manager import CollectionManager
    from smdebug.core.json_config import add_collections_to_manager, collect_hook_config_params

    params = collect_hook_config_params(request)
    manager = CollectionManager()
    add_collections_to_manager(manager, request, params)
    return params, manager


def test_merged_hook_config_is_read_with_the_intended_intervals_regexes_and_reductions():
    from smdebug.core.modes import ModeKeys

    hook = DebuggerHookConfig(
        hook_parameters={"save_interval": "50", "train.save_interval": "25"},
        collection_configs=[
            CollectionConfig("gradients", {"save_interval": "100"}),
            CollectionConfig(
                "conv",
                {"include_regex": "conv0.*,dense_1.*", "reductions": "mean,abs_l2_norm", "eval.save_interval": "7"},
            ),
        ],
    )
    rules = [Rule.sagemaker(rule_configs.vanishing_gradient()), Rule.sagemaker(rule_configs.weight_update_ratio())]
    request = render(rules, hook, region="us-east-1", output_path="s3://bucket/out/")["DebugHookConfig"]
    params, manager = _hook_collections(request)
    assert params["save_config_modes"][ModeKeys.TRAIN]["save_interval"] == "25"
    gradients = manager.get("gradients")
    assert all(gradients.save_config.get_save_config(m).save_interval == 100 for m in ModeKeys)
    weights = manager.get("weights")
    assert (
        weights.save_config.get_save_config(ModeKeys.TRAIN).save_interval == 500
        and weights.save_config.get_save_config(ModeKeys.EVAL).save_interval == 500
    )
    conv = manager.get("conv")
    assert conv.include_regex == ["conv0.*", "dense_1.*"]
    assert conv.reduction_config.reductions == ["mean"] and conv.reduction_config.abs_norms == ["l2"]
    assert (
        conv.save_config.get_save_config(ModeKeys.EVAL).save_interval == 7
        and conv.save_config.get_save_config(ModeKeys.TRAIN).save_interval == 25
    )
    assert [c["CollectionName"] for c in request["CollectionConfigurations"]] == ["gradients", "conv", "weights"]


def test_gcd_interval_saves_every_step_each_rule_expects():
    from smdebug.core.modes import ModeKeys

    rules = [
        Rule.sagemaker(
            rule_configs.exploding_tensor(),
            collections_to_save=[CollectionConfig("gradients", {"save_interval": "200"})],
        ),
        Rule.sagemaker(
            rule_configs.all_zero(), collections_to_save=[CollectionConfig("gradients", {"save_interval": "300"})]
        ),
    ]
    request = render(rules, region="us-east-1", output_path="s3://bucket/out/")["DebugHookConfig"]
    _, manager = _hook_collections(request)
    config = manager.get("gradients").save_config.get_save_config(ModeKeys.TRAIN)
    saved = {step for step in range(0, 1201) if config.should_save_step(step)}
    assert {s for s in range(0, 1201, 200)} <= saved and {s for s in range(0, 1201, 300)} <= saved


def _parse_profiler(tmp_path, monkeypatch, profiler_request):
    from smdebug.profiler.profiler_config_parser import ProfilerConfigParser

    path = tmp_path / "profilerconfig.json"
    path.write_text(json.dumps(profiler_request))
    monkeypatch.setenv("SMPROFILER_CONFIG_PATH", str(path))
    return ProfilerConfigParser()


def test_profiler_ranges_are_read_as_intended(tmp_path, monkeypatch):
    profile = FrameworkProfile(
        detailed_profiling_config=None,
        dataloader_profiling_config=DataloaderProfilingConfig(start_step=3, num_steps=2, metrics_regex="GetNext"),
        python_profiling_config=PythonProfilingConfig(
            start_step=9, num_steps=3, python_profiler=PythonProfiler.PYINSTRUMENT
        ),
    )
    request = render(profiler_config=ProfilerConfig(framework_profile_params=profile), region="us-east-1", output_path="s3://bucket/out/")
    parser = _parse_profiler(tmp_path, monkeypatch, request["ProfilerConfig"])
    assert parser.profiling_enabled
    loader = parser.config.dataloader_profiling_config
    assert loader.is_enabled() and (loader.start_step, loader.num_steps) == (3, 2)
    assert [loader.can_start_profiling(step, 0) for step in range(2, 6)] == [False, True, True, False]
    python = parser.config.python_profiling_config
    assert python.is_enabled() and python.profiler_name == "pyinstrument"


def test_time_range_duration_is_read_by_the_container(tmp_path, monkeypatch):
    start = 1_900_000_000
    profile = FrameworkProfile(start_unix_time=start, duration=120)
    with config_warnings("SMD145"):  # the SDK's HorovodProfilingConfig, which smdebug does not read
        request = render(
            profiler_config=ProfilerConfig(framework_profile_params=profile), region="us-east-1",
            output_path="s3://bucket/out/",
        )
    parser = _parse_profiler(tmp_path, monkeypatch, request["ProfilerConfig"])
    detailed = parser.config.detailed_profiling_config
    assert detailed.is_enabled() and detailed.duration_in_sec == 120
    # profiles for the whole window, not just one step after the start (what the SDK's "Duration" gives)
    assert detailed.can_start_profiling(1, start + 10) and detailed.can_start_profiling(50, start + 100)
    assert not detailed.can_start_profiling(51, start + 121)


def test_disabled_profiler_is_read_as_disabled(tmp_path, monkeypatch):
    request = render(disable_profiler=True, region="us-east-1", output_path="s3://bucket/out/")
    assert not _parse_profiler(tmp_path, monkeypatch, request["ProfilerConfig"]).profiling_enabled


def test_actions_are_read_by_the_rule_container(monkeypatch):
    moto = pytest.importorskip("moto")
    from smdebug.rules.action.action import Actions
    from smdebug.rules.action.message_action import MessageAction
    from smdebug.rules.action.stop_training_action import StopTrainingAction

    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_REGION", "us-east-1")
    actions = rule_configs.ActionList(
        rule_configs.StopTraining(),
        rule_configs.Email("ml-team.alerts+debugger@mail.example.co.uk"),
        rule_configs.SMS("+14155550100"),
    )
    rule = Rule.sagemaker(rule_configs.loss_not_decreasing(), actions=actions)
    action_json = render([rule], region="us-east-1", output_path="s3://bucket/out/", job_name="my-job-1")[
        "DebugRuleConfigurations"
    ][0]["RuleParameters"]["action_json"]
    text = ast.literal_eval('"' + action_json + '"')  # the rule container embeds it in a Python string literal
    with moto.mock_aws():
        parsed = Actions(text, "LossNotDecreasing")._actions
    assert [type(a) for a in parsed] == [StopTrainingAction, MessageAction, MessageAction]
    assert parsed[0]._training_job_prefix == "my-job-1"
    assert (parsed[1]._protocol, parsed[1]._message_endpoint) == ("email", "ml-team.alerts+debugger@mail.example.co.uk")
    assert (parsed[2]._protocol, parsed[2]._message_endpoint) == ("sms", "+14155550100")
