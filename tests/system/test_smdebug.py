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
    with config_warnings():  # no SMD145: the HorovodProfilingConfig FrameworkProfile adds is not the user's
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


# --- the merge against smdebug's reader (issue 37): one entry per collection builds what the SDK v2's several do ---

def _built(collection):
    """What smdebug built for a collection: its patterns (as a set: smdebug appends without de-duplicating, and the
    order does not change what matches), its save config per mode and its reductions."""
    from smdebug.core.modes import ModeKeys

    reductions = collection.reduction_config
    return (
        set(collection.include_regex),
        {mode.name: collection.save_config.get_save_config(mode).to_json_dict() for mode in ModeKeys},
        None if reductions is None else reductions.to_json_dict(),
    )


def _sdk_v2_entries(hook_collections, rules):
    """The CollectionConfigurations the SDK v2 sends for these objects: each distinct (name, parameters) once
    (EstimatorBase._prepare_collection_configs puts them in a set, in an order that varies per launch)."""
    configs = [c for r in rules for c in r.collection_configs] + list(hook_collections)
    distinct = {(c.name, json.dumps(c.parameters, sort_keys=True)): c for c in configs}
    return [{"CollectionName": c.name, "CollectionParameters": dict(c.parameters or {})} for c in distinct.values()]


def _read(entries, hook_parameters=None):
    request = {"HookParameters": hook_parameters or {}, "CollectionConfigurations": entries}
    return _hook_collections(request)[1]


def _two_rules(first, second):
    return [
        Rule.sagemaker(rule_configs.overfit(), name=name, collections_to_save=[CollectionConfig("metrics", params)])
        for name, params in (("Train", first), ("Validation", second))
    ]


def test_two_rules_regexes_render_one_entry_smdebug_reads_as_the_sdk_v2_entries():
    from sm_debug_config.explaining import effective_save_config

    rules = _two_rules({"include_regex": ".*train.*", "save_interval": "10"}, {"include_regex": ".*validation.*"})
    request = render(rules, region="us-east-1", output_path="s3://bucket/out/", framework="xgboost")["DebugHookConfig"]
    [entry] = [c for c in request["CollectionConfigurations"] if c["CollectionName"] == "metrics"]
    ours = _built(_read([entry]).get("metrics"))
    # what we claim: every rule's patterns, the save settings explain() reports, no reductions
    claimed = effective_save_config(entry["CollectionParameters"], {}, "xgboost")
    assert ours[0] == {".*train.*", ".*validation.*"} and ours[2] is None
    assert {mode.lower(): config["save_interval"] for mode, config in ours[1].items()} == {
        mode: int(config["save_interval"]) for mode, config in claimed.items()
    } == {"train": 10, "eval": 10, "predict": 10, "global": 10}
    # the SDK v2's two entries, in either order the set gives: the same patterns as ours
    entries = _sdk_v2_entries([], rules)
    built = [_built(_read(order).get("metrics")) for order in (entries, entries[::-1])]
    assert len(entries) == 2 and all(b[0] == ours[0] for b in built)
    # but the save config is the last entry's, and Validation's has no save keys (the hook's, 500): which one the
    # job gets depends on the set's order (SMD117); ours keeps Train's interval whatever the order
    assert sorted({c["save_interval"] for c in b[1].values()}.pop() for b in built) == [10, 500]


def test_a_conflict_sends_the_last_rules_value_as_smdebug_keeps_the_last_entry():
    rules = _two_rules({"reductions": "max"}, {"reductions": "mean,abs_l2_norm"})
    with config_warnings("SMD116"):
        request = render(rules, region="us-east-1", output_path="s3://bucket/out/")["DebugHookConfig"]
    [entry] = [c for c in request["CollectionConfigurations"] if c["CollectionName"] == "metrics"]
    ours = _built(_read([entry]).get("metrics"))
    entries = _sdk_v2_entries([], rules)
    in_rule_order, reversed_order = (_built(_read(order).get("metrics")) for order in (entries, entries[::-1]))
    assert ours == in_rule_order  # the rules' order, as smdebug would apply it
    assert ours[2] != reversed_order[2]  # the other order keeps the other rule's: what SMD117 says of the SDK v2's


def test_smd117_names_the_entry_smdebug_keeps():
    from sm_debug_config.validation import validate

    entries = [
        {"CollectionName": "feature_importance", "CollectionParameters": {"save_interval": "500"}},
        {"CollectionName": "feature_importance", "CollectionParameters": {"save_interval": "5", "reductions": "max"}},
        {"CollectionName": "feature_importance", "CollectionParameters": {"include_regex": "f.*"}},
    ]
    built = _read(entries, {"save_interval": "50"}).get("feature_importance")
    # the last entry has no save keys: its save config is the hook's (50), replacing 5; reductions stay entry 1's
    assert {c["save_interval"] for c in _built(built)[1].values()} == {50}
    assert _built(built)[2]["reductions"] == "max"
    findings = validate({"DebugHookConfig": {"S3OutputPath": "s3://b/o", "HookParameters": {"save_interval": "50"},
                                             "CollectionConfigurations": entries}})
    assert [(f.code, f.pointer) for f in findings if f.code == "SMD117"] == [
        ("SMD117", "/DebugHookConfig/CollectionConfigurations/2")
    ]  # the save configurations differ (the last, the hook's, is kept); the one entry with reductions is no conflict


@pytest.mark.parametrize(
    "key, value, saved, says",
    [
        ("save_interval", "-1", list(range(12)), "saves every step"),
        ("save_interval", "-3", [0, 3, 6, 9], "saves every 3 steps"),
        ("start_step", "-2", [0, 5, 10], "saves from step 0"),
        ("end_step", "-3", [], "saves no step"),
    ],
)
def test_smd133_says_what_smdebug_saves_for_a_negative_value(key, value, saved, says):
    """Issue 37: SMD133 said a negative save_interval saves no step; smdebug's should_save_step saves every step."""
    from smdebug.core.modes import ModeKeys

    from sm_debug_config.model import hookparams

    params = {"save_interval": "5", key: value} if key != "save_interval" else {key: value}
    request = {"CollectionConfigurations": [{"CollectionName": "weights", "CollectionParameters": params}]}
    config = _hook_collections(request)[1].get("weights").save_config.get_save_config(ModeKeys.TRAIN)
    assert [step for step in range(12) if config.should_save_step(step)] == saved
    [finding] = [f for f in hookparams.check(params, "collection") if f.code == "SMD133"]
    assert says in finding.message
