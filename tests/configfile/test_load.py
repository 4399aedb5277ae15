"""configfile.load: LoadedConfig, its positions, render-time errors placed in the file, the format's objects."""
from __future__ import annotations

import subprocess
import sys

import pytest

from sm_debug_config import configfile as cf
from sm_debug_config.errors import ConfigError
from sm_debug_config.model.actions import ActionList, Email, SMS, StopTraining
from sm_debug_config.model.hook import DebuggerHookConfig

from tests.configfile.cfhelpers import ROOT, at, error_of, assert_clean


# --- render-time errors mapped back to the file ------------------------------------------------


def test_render_error_for_stop_training_without_job_name_points_at_the_action():
    cfg = cf.loads(
        "region: us-east-1\noutput_path: s3://b/o/\nrules:\n  - builtin: Overtraining\n    actions:\n"
        "      - stop_training:\n",
        filename="job.yaml",
    )
    with pytest.raises(ConfigError) as info:
        cfg.render()
    message = assert_clean(info.value, "job.yaml")
    assert message.startswith("job.yaml:6:9: rules[0].actions[0].stop_training: ") and "job_name" in message
    assert (
        cfg.render(job_name="my-job")["DebugRuleConfigurations"][0]["RuleParameters"]["action_json"].count("my-job")
        == 1
    )


def test_render_error_for_a_key_in_the_file():
    cfg = cf.loads("region: us-east-1\noutput_path: s3://b/o/\njob_name: bad_name\n", filename="job.yaml")
    with pytest.raises(ConfigError) as info:
        cfg.render()
    assert assert_clean(info.value, "job.yaml").startswith("job.yaml:3:1: job_name: ")


def test_render_error_for_a_missing_key_has_no_position():
    cfg = cf.loads("region: us-east-1\n", filename="job.yaml")
    with pytest.raises(ConfigError) as info:
        cfg.render()
    assert "output_path" in assert_clean(info.value, "job.yaml", position=False)


def test_two_rules_regexes_for_one_collection_render_their_union():
    """Refused before issue 37 (a ConfigError, no code): smdebug adds every entry's include_regex, so both are kept."""
    text = (
        "region: us-east-1\noutput_path: s3://b/o/\nrules:\n"
        "  - builtin: Overfit\n  - builtin: AllZero\n"
        "    collections_to_save: [{name: weights, parameters: {include_regex: a.*}}]\n"
        "  - builtin: TensorVariance\n"
        "    collections_to_save: [{name: weights, parameters: {include_regex: b.*}}]\n"
    )
    fields = cf.loads(text, filename="job.yaml").render()  # no finding: filterwarnings = error
    assert {"CollectionName": "weights", "CollectionParameters": {"include_regex": "a.*,b.*"}} in fields[
        "DebugHookConfig"
    ]["CollectionConfigurations"]


def test_validation_errors_point_at_the_config_key():
    text = (
        "region: us-east-1\noutput_path: s3://b/o/\nframework: xgboost\n"
        "debugger_hook_config:\n  collection_configs:\n    - gradients\n    - name: biases\n"
        "      parameters: {save_interval: '5'}\n"
    )
    cfg = cf.loads(text, filename="job.yaml")
    with pytest.raises(ConfigError) as info:
        cfg.render()
    message = assert_clean(info.value, "job.yaml")
    assert message.startswith("job.yaml:%d:%d: debugger_hook_config.collection_configs[1]: " % at(text, "name: biases"))
    assert "SMD114" in message and info.value.findings
    assert (info.value.line, info.value.column) == at(text, "name: biases")  # (issue 31: locate_field is gone)
    assert cfg.path_of_request_pointer(
        "/DebugHookConfig/CollectionConfigurations/1/CollectionParameters/save_interval"
    ) == (
        "debugger_hook_config",
        "collection_configs",
        1,
        "parameters",
        "save_interval",
    )
    assert cfg.path_of_request_pointer("/TensorBoardOutputConfig") == ()
    assert cfg.render(validate=False)["DebugHookConfig"]["CollectionConfigurations"][1]["CollectionName"] == "biases"


def test_render_error_index_counts_debugger_rules_only():
    text = (
        "region: us-east-1\noutput_path: s3://b/o/\nrules:\n  - ProfilerReport\n  - builtin: Overfit\n"
        "    actions: {stop_training: {training_job_prefix: " + "a" * 60 + "}}\n"
        "  - builtin: Overtraining\n    actions: ["
        + ", ".join(["{email: someone.with.a.long.name@example.com}"] * 4)
        + "]\n"
    )
    cfg = cf.loads(text, filename="job.yaml")
    with pytest.raises(ConfigError) as info:
        cfg.render()
    # issue 36: sent as written and refused by the request's checks (SMD100 and SMD150), at the rule's actions (its
    # action_json, issue 37)
    assert assert_clean(info.value, "job.yaml").startswith("job.yaml:8:5: rules[2].actions: ")
    assert {"SMD100", "SMD150"} <= {f.code for f in info.value.findings if f.severity == "error"}


# --- the format ------------------------------------------------------------------------------


def test_locate_and_positions():
    cfg = cf.loads(
        "region: us-east-1\nrules:\n  - builtin: VanishingGradient\n  - Overfit\n  - builtin: LossNotDecreasing\n"
        "    rule_parameters:\n      num_steps: 5\n",
        filename="job.yaml",
    )
    assert cfg.locate(("region",)) == (1, 1)
    assert cfg.locate(("rules", 1)) == (4, 5)
    assert cfg.locate(("rules", 2, "rule_parameters", "num_steps")) == (7, 7)
    assert cfg.locate(("rules", 9)) is None
    assert cfg.positions[("rules", 0, "builtin")] == (3, 5)
    assert cfg.source == "job.yaml"


def test_absent_keys_and_nulls():
    cfg = cf.loads("region: us-east-1\njob_name:\ndebugger_hook_config: null\n")
    assert cfg.rules is None and cfg.debugger_hook_config is None and cfg.job_name is None
    assert cfg.defaults == "sdk" and cfg.disable_profiler is False
    assert cf.loads("rules: []\n").rules == []
    assert cf.loads("debugger_hook_config: false\n").debugger_hook_config is False
    assert cf.loads("debugger_hook_config: true\n").debugger_hook_config is True
    assert cf.loads("debugger_hook_config: {}\n").debugger_hook_config == DebuggerHookConfig()


def test_collection_parameters_none_and_empty_are_different():
    cfg = cf.loads("debugger_hook_config:\n  collection_configs: [a, {name: b}, {name: c, parameters: {}}]\n")
    assert [c.parameters for c in cfg.debugger_hook_config.collection_configs] == [None, None, {}]


def test_case_insensitive_builtin_names_and_shorthand():
    cfg = cf.loads("rules: [vanishinggradient, {builtin: PROFILERREPORT}]\n")
    assert [type(r).__name__ for r in cfg.rules] == ["Rule", "ProfilerRule"]
    assert [r.builtin_rule for r in cfg.rules] == ["VanishingGradient", "ProfilerReport"]


def test_render_kwargs_match_the_render_signature():
    cfg = cf.loads("region: us-east-1\noutput_path: s3://b/o/\nframework: PyTorch\n")
    kwargs = cfg.render_kwargs()
    from sm_debug_config.model.settings import DebuggerSetup, JobSettings

    assert sorted(kwargs) == sorted(set(DebuggerSetup.names() + JobSettings.names()) - {"validate"})
    assert cfg.framework == "pytorch"
    assert cfg.render_kwargs(region="eu-west-1", job_name=None)["region"] == "eu-west-1"
    with pytest.raises(ConfigError, match="did you mean 'job_name'"):
        cfg.render_kwargs(jobname="x")


def test_actions_single_versus_list():
    cfg = cf.loads(
        "rules:\n  - builtin: Overfit\n    actions: {stop_training: {}}\n"
        "  - builtin: Overtraining\n    actions: [{stop_training: }, {email: a@example.com}, {sms: +14155550100}]\n"
    )
    assert cfg.rules[0].actions == StopTraining()
    assert cfg.rules[1].actions == ActionList(StopTraining(), Email("a@example.com"), SMS("+14155550100"))


def test_custom_profiling_parameters_override():
    cfg = cf.loads(
        "profiler_config:\n  framework_profile_params:\n    profiling_parameters: {LocalPath: /opt/ml/output/profiler, "
        "DetailedProfilingConfig: '{\"StartStep\": 1}'}\n"
    )
    assert (
        cfg.profiler_config.framework_profile_params.profiling_parameters["DetailedProfilingConfig"]
        == '{"StartStep": 1}'
    )
    err = error_of("profiler_config:\n  framework_profile_params:\n    start_step: 1\n    profiling_parameters: {}\n")
    assert "replaces every other" in str(err)


def test_disable_debugger():
    cfg = cf.loads("region: us-east-1\ndisable_debugger: true\n")
    assert cfg.render_kwargs()["disable_debugger"] is True
    assert cfg.render() == {"ProfilerConfig": {"DisableProfiler": True}}
    assert cfg.to_config() == {"region": "us-east-1", "disable_debugger": True}


def test_an_error_about_a_setting_or_an_object_is_placed_at_its_key():
    # issue 31: LoadedConfig.rule_kinds and locate_field had no caller; error_at places a render's error
    from sm_debug_config.model.rules import ProfilerRule

    text = ("region: us-east-1\noutput_path: s3://b/o/\nrules:\n  - ProfilerReport\n  - builtin: Overfit\n"
            "    actions: {stop_training: }\n")
    cfg = cf.loads(text)
    assert ["profiler" if isinstance(r, ProfilerRule) else "debugger" for r in cfg.rules] == ["profiler", "debugger"]

    def place(*path):
        err = cfg.error_at(ConfigError("x", path=path))
        return (err.line, err.column) if err.line is not None else None

    assert place("rules", 0, "actions") == at(text, "actions")
    assert place("job_name") == at(text, "stop_training")
    assert place("output_path") == (2, 1)
    assert place("tensorboard_output_config") is None


def test_read_document_for_any_yaml_or_json(tmp_path):
    path = tmp_path / "request.json"
    text = ('{\n  "TrainingJobName": "job-1",\n  "DebugHookConfig": {\n    "S3OutputPath": "s3://b/o",\n'
            '    "CollectionConfigurations": [{"CollectionName": "g"}]\n  }\n}\n')
    path.write_text(text)
    document, locate = cf.read_document(path)
    assert document["DebugHookConfig"]["CollectionConfigurations"] == [{"CollectionName": "g"}]
    assert locate(("DebugHookConfig", "CollectionConfigurations", 0, "CollectionName")) == at(text, '"CollectionName"')
    assert locate(("DebugHookConfig", "HookParameters", "save_interval")) == at(text, '"DebugHookConfig"')
    assert locate(()) == (1, 1)
    listing = tmp_path / "list.yaml"
    listing.write_text("- a\n- &x {b: 1}\n- *x\n")
    assert cf.read_document(listing)[0] == ["a", {"b": 1}, {"b": 1}]
    bad = tmp_path / "bad.json"
    bad.write_text('{"a": 1,,}')
    with pytest.raises(ConfigError) as info:
        cf.read_document(bad)
    assert_clean(info.value, str(bad))


def test_detailed_profiler_rule_entry():
    cfg = cf.loads(
        "rules:\n  - builtin: DetailedProfilerProcessingJobConfig\n"
        "    name: DetailedProfilerProcessingJobConfig-my-job\n"
    )
    rule = cfg.rules[0]
    assert rule.instance_type == "ml.m5.4xlarge" and rule.volume_size_in_gb == 128
    assert rule.rule_parameters == {"rule_to_invoke": "DetailedProfilerProcessing"}


def test_import_does_not_pull_in_yaml_or_jsonschema():
    code = ("import sys, sm_debug_config.configfile as c; print(sorted(m for m in ('yaml', 'jsonschema', 'boto3', "
            "'sagemaker') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"
