"""Config files: bad inputs, positions, the format, examples, dump/load round trips, the schema."""
from __future__ import annotations

import inspect
import json
import os
import re
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest
import yaml

from sm_debug_config import configfile as cf
from sm_debug_config import rule_configs
from sm_debug_config.model.actions import SMS, ActionList, Email, StopTraining
from sm_debug_config.errors import ConfigError, ConfigWarning
from sm_debug_config.model.hook import CollectionConfig, DebuggerHookConfig, TensorBoardOutputConfig
from sm_debug_config.model.profiler import (
    DataloaderProfilingConfig,
    DetailedProfilingConfig,
    FrameworkProfile,
    HorovodProfilingConfig,
    Profiler,
    ProfilerConfig,
    PythonProfiler,
    PythonProfilingConfig,
    SMDataParallelProfilingConfig,
    cProfileTimer,
)
from sm_debug_config.checked import render
from sm_debug_config.model.rules import DetailedProfilerProcessingJobConfig, ProfilerRule, Rule

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
EXAMPLE_NAMES = [
    "bert-attention-profiling.yaml",
    "custom-rule.yaml",
    "mxnet-realtime-hook.yaml",
    "rule-customisation.yaml",
    "tensorflow-builtin-rules.yaml",
    "xgboost-report.yaml",
]
CUSTOM_IMAGE = "864354269164.dkr.ecr.us-east-1.amazonaws.com/sagemaker-debugger-rule-evaluator:latest"


def at(text, needle, occurrence=1):
    """1-based (line, column) of the start of ``needle`` (its n-th occurrence) in ``text``."""
    index = -1
    for _ in range(occurrence):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def error_of(text, filename="job.yaml", **kwargs) -> cf.ConfigFileError:
    with pytest.raises(ConfigError) as info:
        cf.loads(text, filename=filename, **kwargs)
    return info.value


def warning_of(text, filename="job.yaml") -> str:
    """The one ConfigWarning loading ``text`` gives (what ran but is probably unintended, issue 14), as text."""
    import warnings

    from sm_debug_config import ConfigWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cf.loads(text, filename=filename)
    messages = [str(w.message) for w in caught if issubclass(w.category, ConfigWarning)]
    assert len(messages) == 1, messages
    return messages[0]


def assert_clean(err: BaseException, prefix: str, position: bool = True) -> str:
    """One line, starts with file:line:col: (or file: when no position applies), no chained traceback."""
    text = str(err)
    assert isinstance(err, cf.ConfigFileError) and isinstance(err, ConfigError)
    assert len(text.splitlines()) == 1, text
    if position:
        assert re.match(rf"^{re.escape(prefix)}:\d+:\d+: \S", text), text
        assert err.line is not None and err.column is not None
    else:
        assert text.startswith(f"{prefix}: "), text
    assert err.__cause__ is None
    assert err.__context__ is None or err.__suppress_context__
    return text


# --- bad inputs -------------------------------------------------------------------------------


def test_empty_file(tmp_path):
    path = tmp_path / "empty.yaml"
    path.write_text("")
    with pytest.raises(ConfigError) as info:
        cf.load(path)
    text = assert_clean(info.value, str(path))
    assert "empty config" in text and text.startswith(f"{path}:1:1:")


@pytest.mark.parametrize("text", ["   \n\n", "# just a comment\n", "---\n...\n", "~\n", "null\n"])
def test_blank_or_null_documents_are_empty(text):
    err = error_of(text)
    assert "empty config" in assert_clean(err, "job.yaml")


def test_malformed_yaml_points_at_the_problem():
    err = error_of("region: us-east-1\nrules: [VanishingGradient,\n  \ndisable_profiler: true\n")
    text = assert_clean(err, "job.yaml")
    assert "invalid YAML" in text and "flow sequence at line 2, column 8" in text
    assert err.line == 5  # where the parser gave up: the end of the text


def test_mapping_value_in_wrong_place():
    err = error_of("region: us-east-1\noutput_path: s3://a: b\n")
    assert assert_clean(err, "job.yaml").startswith("job.yaml:2:")


def test_tab_indentation_hint():
    err = error_of("debugger_hook_config:\n\ts3_output_path: s3://b/x\n")
    assert "tabs" in assert_clean(err, "job.yaml")


@pytest.mark.parametrize(
    "tagged",
    [
        "!!python/object/apply:os.system ['touch {marker}']",
        "!!python/object/new:os.system ['touch {marker}']",
        "!!python/name:os.system",
        "!!python/object:argparse.Namespace {{a: 1}}",
        "!!binary aGVsbG8=",
        "!!timestamp 2024-01-01",
        "!!set {{a, b}}",
        "!custom value",
    ],
)
def test_yaml_tags_that_build_objects_are_refused(tmp_path, tagged):
    marker = tmp_path / "pwned"
    text = f"region: us-east-1\njob_name: {tagged.format(marker=marker)}\n"
    err = error_of(text)
    message = assert_clean(err, "job.yaml")
    assert err.line == 2 and err.column == 11
    assert "is not allowed" in message and "tag" in message
    assert not marker.exists()


def test_python_object_apply_os_system_in_a_file(tmp_path):
    marker = tmp_path / "pwned"
    path = tmp_path / "evil.yaml"
    path.write_text(f"rules:\n  - !!python/object/apply:os.system ['touch {marker}']\n")
    with pytest.raises(ConfigError) as info:
        cf.load(path)
    text = assert_clean(info.value, str(path))
    assert text.startswith(f"{path}:2:5: ") and "!!python/object/apply:os.system" in text
    assert not marker.exists()


def test_core_tags_are_fine():
    cfg = cf.loads("job_name: !!str 2024\nrules: !!seq [!!str VanishingGradient]\ndisable_profiler: !!bool false\n")
    assert cfg.job_name == "2024" and cfg.rules[0].name == "VanishingGradient" and cfg.disable_profiler is False


def test_unknown_key_with_suggestion_and_position():
    text = "region: us-east-1\nrules:\n  - builtin: VanishingGradient\n    rule_paramters:\n      threshold: 0.1\n"
    err = error_of(text)
    message = assert_clean(err, "job.yaml")
    assert message.startswith("job.yaml:4:5: rules[0].rule_paramters: unknown key 'rule_paramters'")
    assert "did you mean 'rule_parameters'?" in message
    assert err.path == ("rules", 0, "rule_paramters")


def test_unknown_top_level_key():
    err = error_of("region: us-east-1\noutput_pth: s3://b/o/\n")
    message = assert_clean(err, "job.yaml")
    assert message.startswith("job.yaml:2:1: output_pth: unknown key") and "'output_path'" in message


def test_unknown_hook_parameter_reported_at_its_key():
    """smdebug ignores an unknown key, so a warning at the key since issue 14 (SMD135)."""
    message = warning_of("debugger_hook_config:\n  hook_parameters:\n    save_intervall: '5'\n")
    assert message.startswith("job.yaml:3:5: ") and "SMD135" in message
    assert "save_interval" in message


@pytest.mark.parametrize(
    "text, position, field, words",
    [
        (
            "debugger_hook_config:\n  collection_configs:\n    - name: gradients\n      parameters: {save_interval: [1]}\n",
            "save_interval",
            "debugger_hook_config.collection_configs[0].parameters.save_interval",
            "expected a string, number or boolean, got a list",
        ),
        ("rules: {}\n", "rules", "rules", "expected a list of rules, got a mapping"),
        ("disable_profiler: 'no'\n", "disable_profiler", "disable_profiler", "expected true or false"),
        ("disable_profiler: yes\n", "disable_profiler", "disable_profiler", "write true or false"),
        ("profiler_config:\n  system_monitor_interval_millis: fast\n", "system_monitor", "profiler_config.system_monitor_interval_millis", "expected an integer"),
        ("region: [us-east-1]\n", "region", "region", "expected a string, got a list"),
        ("debugger_hook_config: 5\n", "debugger_hook_config", "debugger_hook_config", "expected a mapping"),
        ("rules:\n  - builtin: TreeDepth\n    rule_parameters: {depth: [1, [2]]}\n", "[2]", "rules[0].rule_parameters.depth[1]", "got a list"),
        ("tensorboard_output_config: {container_local_output_path: /opt/ml/tb}\n", "tensorboard", "tensorboard_output_config", "needs s3_output_path"),
        ("{1: a}\n", "1", None, "keys must be strings"),
    ],
)
def test_wrong_types(text, position, field, words):
    err = error_of(text)
    message = assert_clean(err, "job.yaml")
    assert (err.line, err.column) == at(text, position), message
    assert err.field == field
    assert words in message


def test_binary_file(tmp_path):
    path = tmp_path / "model.bin"
    path.write_bytes(b"region: us-east-1\n\x00\x01\x02\xff")
    with pytest.raises(ConfigError) as info:
        cf.load(path)
    text = assert_clean(info.value, str(path))
    assert "binary" in text and text.startswith(f"{path}:2:1:")


def test_not_utf8(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("region: us-east-1\njob_name: caf\xe9\n".encode("latin-1"))
    with pytest.raises(ConfigError) as info:
        cf.load(path)
    text = assert_clean(info.value, str(path))
    assert "UTF-8" in text and text.startswith(f"{path}:2:14:")


def test_control_character():
    err = error_of("region: us-east-1\njob_name: a\x07b\n")
    assert "not allowed" in assert_clean(err, "job.yaml") and err.line == 2


def test_lone_surrogate_in_text():
    err = error_of("job_name: a\udcffb\n")
    assert "Unicode" in assert_clean(err, "job.yaml")


def test_utf8_bom_and_bytes_input():
    cfg = cf.loads("\ufeffregion: eu-west-1\n".encode("utf-8"), filename="bom.yaml")
    assert cfg.region == "eu-west-1"


def test_missing_file(tmp_path):
    path = tmp_path / "nope.yaml"
    with pytest.raises(ConfigError) as info:
        cf.load(path)
    text = assert_clean(info.value, str(path), position=False)
    assert "No such file" in text


def test_directory_is_not_a_config(tmp_path):
    with pytest.raises(ConfigError) as info:
        cf.load(tmp_path)
    assert "directory" in assert_clean(info.value, str(tmp_path), position=False).lower()


def test_huge_file_rejected_quickly(tmp_path):
    path = tmp_path / "huge.yaml"
    path.write_text("region: us-east-1\n" + "# padding\n" * 210_000)  # ~2 MB
    assert path.stat().st_size > 2_000_000
    start = time.perf_counter()
    with pytest.raises(ConfigError) as info:
        cf.load(path)
    assert time.perf_counter() - start < 0.5
    text = assert_clean(info.value, str(path), position=False)
    assert "1 MiB" in text and "2.0 MiB" in text


def test_huge_text_rejected():
    err = error_of("a" * (cf.MAX_BYTES + 1))
    assert "MiB" in assert_clean(err, "job.yaml", position=False)


def test_duplicate_keys():
    err = error_of("region: us-east-1\nrules: []\nregion: us-west-2\n")
    message = assert_clean(err, "job.yaml")
    assert message.startswith("job.yaml:3:1: duplicate key 'region' (first at line 1, column 1)")


def test_duplicate_nested_keys():
    err = error_of("debugger_hook_config:\n  hook_parameters:\n    save_interval: '1'\n    save_interval: '2'\n")
    assert assert_clean(err, "job.yaml").startswith("job.yaml:4:5: duplicate key 'save_interval'")


def test_top_level_must_be_a_mapping():
    err = error_of("- VanishingGradient\n")
    assert "top level must be a mapping" in assert_clean(err, "job.yaml")


def test_one_document_only():
    err = error_of("region: us-east-1\n---\nregion: us-west-2\n")
    assert "one YAML document" in assert_clean(err, "job.yaml") and err.line == 2


def test_undefined_and_recursive_aliases():
    assert "alias *x" in assert_clean(error_of("job_name: *x\n"), "job.yaml")
    assert "alias *a" in assert_clean(error_of("rules: &a [*a]\n"), "job.yaml")


def test_aliases_work():
    text = "base: &c {save_interval: '50'}\n"
    assert "unknown key 'base'" in str(error_of(text))
    cfg = cf.loads(
        "debugger_hook_config:\n  hook_parameters: &p {save_interval: '50'}\n"
        "  collection_configs: [{name: gradients, parameters: *p}]\n"
    )
    assert cfg.debugger_hook_config.collection_configs[0].parameters == {"save_interval": "50"}


def test_merge_keys_are_explained():
    err = error_of("debugger_hook_config:\n  hook_parameters: &p {save_interval: '50'}\nprofiler_config:\n  <<: *p\n")
    assert "merge keys" in assert_clean(err, "job.yaml")


def test_alias_expansion_is_bounded():
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for level in range(1, 9):
        lines.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * 10) + "]")
    start = time.perf_counter()
    err = error_of("\n".join(lines) + "\n")
    assert time.perf_counter() - start < 1.0
    assert "values" in assert_clean(err, "job.yaml")


@pytest.mark.parametrize("text, fmt", [("rules: " + "[" * 200_000, None), ('{"rules": ' + "[" * 200_000, "json")])
def test_deep_nesting_is_refused_quickly(text, fmt):
    start = time.perf_counter()
    err = error_of(text, format=fmt)
    assert time.perf_counter() - start < 1.0
    assert "nested more than" in assert_clean(err, "job.yaml")


def test_constructor_errors_are_positioned():
    text = "rules:\n  - builtin: VanishingGradient\n    rule_parameters:\n      threshhold: 0.1\n"
    message = warning_of(text)  # a warning since issue 14 (SMD120), still at its key
    assert message.startswith("job.yaml:4:7: ")
    assert "did you mean 'threshold'?" in message


@pytest.mark.parametrize(
    "text, position, words",
    [
        ("rules:\n  - builtin: VanishingGradiant\n", "builtin", "did you mean 'VanishingGradient'?"),
        ("rules:\n  - builtin: ProfilerReport\n    rule_parameters: {CPUBottleneck_threshhold: 3}\n", "CPUBottleneck_threshhold", "CPUBottleneck_threshold"),
        ("rules:\n  - builtin: ProfilerReport\n    actions: {email: a@example.com}\n", "actions", "debugger rules"),
        ("rules:\n  - builtin: Overfit\n    instance_type: ml.m5.xlarge\n", "instance_type", "profiler rules"),
        ("rules:\n  - builtin: Overfit\n    actions: [{stop_training: {training_job_prefix: 'a b'}}]\n", "training_job_prefix", "prefix"),
        ("rules:\n  - builtin: Overfit\n    actions: [{email: a@example.com, sms: '+14155550100'}]\n", "{email", "exactly one"),
        ("rules:\n  - {builtin: Overfit, custom: {name: x}}\n", "{", "exactly one of builtin"),
        ("rules:\n  - {name: x}\n", "{", "exactly one of builtin"),
        ("rules:\n  - rule: {name: X}\n", "rule: ", "needs image_uri"),
        ("rules:\n  - profiler_rule: {name: X, image_uri: i, actions: []}\n", "actions", "unknown key 'actions'"),
        ("rules:\n  - custom: {name: X, image_uri: i, instance_type: ml.m5.xlarge}\n", "custom", "needs volume_size_in_gb"),
        (
            "rules:\n  - custom: {name: X, image_uri: i, instance_type: ml.m5.xlarge, volume_size_in_gb: 30, source: s3://b/r.py}\n",
            "custom",
            "both source and rule_to_invoke",
        ),
        ("rules:\n  - custom: {name: X}\n    name: Y\n", "name: Y", "go inside custom:"),
        ("profiler_config:\n  framework_profile_params:\n    python_profiling_config: {python_profiler: cprofil}\n", "python_profiler", "did you mean 'cprofile'?"),
        ("profiler_config:\n  framework_profile_params:\n    detailed_profiling_config: {start_step: 1, duration: 5}\n", "detailed_profiling_config", "cannot both be set"),
        ("profiler_config:\n  framework_profile_params: {start_step: -1}\n", "start_step", "start_step"),
        ("profiler_config:\n  framework_profile_params: {}\n  profile_params: {}\n", "profiler_config", "cannot be used together"),
        ("profiler_config:\n  profile_params: {cpu_profiling_duration: soon}\n", "cpu_profiling_duration", "whole number of seconds"),
        ("debugger_hook_config:\n  s3_output_path: my-bucket/x\n", "s3_output_path", "not an S3 URI"),
        ("region: mars-1\n", "region", "not an AWS region"),
        ("framework: tensorflw\n", "framework", "did you mean 'tensorflow'?"),
        ("defaults: none\n", "defaults", "sdk, explicit"),
    ],
)
def test_more_positioned_errors(text, position, words):
    err = error_of(text)
    message = assert_clean(err, "job.yaml")
    assert (err.line, err.column) == at(text, position), message
    assert words in message, message


def test_unknown_rule_passes_with_allow_unknown_parameters_and_warns_with_position():
    text = "rules:\n  - builtin: VanishingGradient\n    rule_parameters: {threshold: 0.1, new_knob: 3}\n    allow_unknown_parameters: [new_knob]\n"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cfg = cf.loads(text, filename="job.yaml")
    assert cfg.rules[0].rule_parameters["new_knob"] == "3"
    messages = [str(w.message) for w in caught if issubclass(w.category, ConfigWarning)]
    assert messages and messages[0].startswith("job.yaml:%d:%d: " % at(text, "new_knob"))
    newer = cf.loads("rules:\n  - builtin: BrandNewRule\n    allow_unknown_parameters: true\n    collections_to_save: [gradients]\n")
    assert newer.rules[0].rule_parameters == {"rule_to_invoke": "BrandNewRule"} and newer.rules[0].builtin_rule is None


def test_every_error_is_one_line_even_with_line_breaks_in_values():
    err = error_of('rules:\n  - builtin: "Vanishing\\nGradient\\u2028x"\n')
    assert len(str(err).splitlines()) == 1


# --- render-time errors mapped back to the file ------------------------------------------------


def test_render_error_for_stop_training_without_job_name_points_at_the_action():
    cfg = cf.loads("region: us-east-1\noutput_path: s3://b/o/\nrules:\n  - builtin: Overtraining\n    actions:\n      - stop_training:\n", filename="job.yaml")
    with pytest.raises(ConfigError) as info:
        cfg.render()
    message = assert_clean(info.value, "job.yaml")
    assert message.startswith("job.yaml:6:9: rules[0].actions[0].stop_training: ") and "job_name" in message
    assert cfg.render(job_name="my-job")["DebugRuleConfigurations"][0]["RuleParameters"]["action_json"].count("my-job") == 1


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


def test_render_error_for_a_rule_collection_conflict():
    text = (
        "region: us-east-1\noutput_path: s3://b/o/\nrules:\n"
        "  - builtin: Overfit\n  - builtin: AllZero\n"
        "    collections_to_save: [{name: weights, parameters: {include_regex: a.*}}]\n"
        "  - builtin: TensorVariance\n"
        "    collections_to_save: [{name: weights, parameters: {include_regex: b.*}}]\n"
    )
    cfg = cf.loads(text, filename="job.yaml")
    with pytest.raises(ConfigError) as info:
        cfg.render()
    assert assert_clean(info.value, "job.yaml").startswith("job.yaml:%d:%d: rules[1].collections_to_save[0]: " % at(text, "{name: weights"))
    assert cfg.locate_field(info.value.field) == at(text, "{name: weights")


def test_validation_errors_point_at_the_config_key():
    text = (
        "region: us-east-1\noutput_path: s3://b/o/\nframework: xgboost\n"
        "debugger_hook_config:\n  collection_configs:\n    - gradients\n    - name: biases\n      parameters: {save_interval: '5'}\n"
    )
    cfg = cf.loads(text, filename="job.yaml")
    with pytest.raises(ConfigError) as info:
        cfg.render()
    message = assert_clean(info.value, "job.yaml")
    assert message.startswith("job.yaml:%d:%d: debugger_hook_config.collection_configs[1]: " % at(text, "name: biases"))
    assert "SMD114" in message and info.value.findings
    assert cfg.locate_field("request", info.value.findings) == at(text, "name: biases")
    assert cfg.path_of_request_pointer("/DebugHookConfig/CollectionConfigurations/1/CollectionParameters/save_interval") == (
        "debugger_hook_config", "collection_configs", 1, "parameters", "save_interval",
    )
    assert cfg.path_of_request_pointer("/TensorBoardOutputConfig") == ()
    assert cfg.render(validate=False)["DebugHookConfig"]["CollectionConfigurations"][1]["CollectionName"] == "biases"


def test_render_error_index_counts_debugger_rules_only():
    text = (
        "region: us-east-1\noutput_path: s3://b/o/\nrules:\n  - ProfilerReport\n  - builtin: Overfit\n"
        "    actions: {stop_training: {training_job_prefix: " + "a" * 60 + "}}\n"
        "  - builtin: Overtraining\n    actions: [" + ", ".join(["{email: someone.with.a.long.name@example.com}"] * 4) + "]\n"
    )
    cfg = cf.loads(text, filename="job.yaml")
    with pytest.raises(ConfigError) as info:
        cfg.render()
    assert assert_clean(info.value, "job.yaml").startswith("job.yaml:8:5: rules[2].actions: ")


# --- JSON ---------------------------------------------------------------------------------------


def test_json_positions(tmp_path):
    path = tmp_path / "job.json"
    path.write_text(
        '{\n  "region": "us-east-1",\n  "rules": [\n    {"builtin": "VanishingGradient",\n'
        '     "rule_parameters": {"threshhold": 1e-5}}\n  ]\n}\n'
    )
    import warnings

    with warnings.catch_warnings(record=True) as caught:  # SMD120 is a warning since issue 14
        warnings.simplefilter("always")
        cf.load(path)
    assert [str(w.message) for w in caught][0].startswith(f"{path}:5:26: ")


def test_json_semantics_are_json():
    text = '{\n\t"region": "us-east-1",\n\t"job_name": "a\\/b\\ud83d\\ude00",\n\t"rules": [{"builtin": "VanishingGradient", "rule_parameters": {"threshold": 1e-5}}]\n}'
    cfg = cf.loads(text, filename="job.json")
    assert cfg.job_name == "a/b\U0001F600"
    assert cfg.rules[0].rule_parameters["threshold"] == "1e-05"  # a JSON number, as json.loads reads it
    assert cfg.locate(("rules", 0, "rule_parameters", "threshold")) == at(text, '"threshold"')
    assert cf.loads("rules:\n  - {builtin: VanishingGradient, rule_parameters: {threshold: 1e-5}}\n").rules[0].rule_parameters["threshold"] == "1e-5"


@pytest.mark.parametrize(
    "text, position, words",
    [
        ('{"region": "us-east-1",}', (1, 23), "a comma before '}'"),
        ('{"region": "us-east-1"', (1, 23), "end of the text"),
        ('{"region": "us-east-1"} x', (1, 25), "extra text"),
        ('{"region": \'us-east-1\'}', (1, 12), "expected a value"),
        ('{"job_name": "a\nb"}', (1, 16), "invalid control character"),
        ('{"region": "a", "region": "b"}', (1, 17), "duplicate key"),
        ('{"disable_profiler": NaN}', (1, 22), "expected a value"),
        ("[1, 2]", (1, 1), "top level must be a mapping"),
    ],
)
def test_json_errors(text, position, words):
    err = error_of(text, filename="job.json")
    message = assert_clean(err, "job.json")
    assert (err.line, err.column) == position, message
    assert words in message


def test_brace_text_that_is_yaml_flow_style_falls_back_to_yaml():
    assert cf.loads("{region: us-east-1, rules: [Overfit]}").rules[0].name == "Overfit"
    assert cf.loads('{"region": "us-east-1"}', format="yaml").region == "us-east-1"


# --- scalar resolution (YAML 1.1 pitfalls avoided, safe_dump output read back exactly) -------


@pytest.mark.parametrize(
    "written, expected",
    [
        ("yes", "yes"),
        ("off", "off"),
        ("0100", "0100"),
        ("1:30", "1:30"),
        ("2024-01-01", "2024-01-01"),
        ("1e-5", "1e-5"),
        ("-.5", "-.5"),
        ("09", "09"),
        ("1_000", "1_000"),
        ("'123'", "123"),
        ("123", "123"),  # an unquoted number where text is expected: what was typed
        ("1.50", "1.50"),
        ("+14155550100", "+14155550100"),
    ],
)
def test_string_fields_keep_what_was_written(written, expected):
    assert cf.loads(f"job_name: {written}\n").job_name == expected


@pytest.mark.parametrize("value", ["yes", "0100", "1e-5", "-.5", "09", "1:30", "2024-01-01", "+5", ".5", "1.0e-05", "true", "~", "", "1_0", "0x1F", "NaN", "=", "<<"])
def test_safe_dump_strings_read_back_as_strings(value):
    dumped = yaml.safe_dump({"job_name": value})
    assert cf.loads(dumped).job_name == value


@pytest.mark.parametrize("value", [0, -5, 12345678901234567890, 0.5, 1e-05, 1e20, -2.5e-10, True, False])
def test_safe_dump_numbers_and_booleans_read_back(value):
    dumped = yaml.safe_dump({"rules": [{"builtin": "TreeDepth", "rule_parameters": {"x": value}, "allow_unknown_parameters": True}]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rule = cf.loads(dumped).rules[0]
    assert rule.rule_parameters["x"] == str(value)


def test_number_fields_accept_exponents():
    cfg = cf.loads("profiler_config:\n  framework_profile_params:\n    duration: 1e3\n    file_close_interval: 30\n")
    assert cfg.profiler_config.framework_profile_params.duration == 1000.0


# --- the format ------------------------------------------------------------------------------


def test_locate_and_positions():
    cfg = cf.loads(
        "region: us-east-1\nrules:\n  - builtin: VanishingGradient\n  - Overfit\n  - builtin: LossNotDecreasing\n    rule_parameters:\n      num_steps: 5\n",
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
    cfg = cf.loads("profiler_config:\n  framework_profile_params:\n    profiling_parameters: {LocalPath: /opt/ml/output/profiler, DetailedProfilingConfig: '{\"StartStep\": 1}'}\n")
    assert cfg.profiler_config.framework_profile_params.profiling_parameters["DetailedProfilingConfig"] == '{"StartStep": 1}'
    err = error_of("profiler_config:\n  framework_profile_params:\n    start_step: 1\n    profiling_parameters: {}\n")
    assert "replaces every other" in str(err)


def test_disable_debugger():
    cfg = cf.loads("region: us-east-1\ndisable_debugger: true\n")
    assert cfg.render_kwargs()["disable_debugger"] is True
    assert cfg.render() == {"ProfilerConfig": {"DisableProfiler": True}}
    assert cfg.to_config() == {"region": "us-east-1", "disable_debugger": True}


def test_rule_kinds_and_locate_field():
    text = "region: us-east-1\noutput_path: s3://b/o/\nrules:\n  - ProfilerReport\n  - builtin: Overfit\n    actions: {stop_training: }\n"
    cfg = cf.loads(text)
    assert cfg.rule_kinds() == ["profiler", "debugger"]
    assert cfg.locate_field("rules[0].actions") == at(text, "actions")
    assert cfg.locate_field("job_name") == at(text, "stop_training")
    assert cfg.locate_field("output_path") == (2, 1)
    assert cfg.locate_field("tensorboard_output_config") is None and cfg.locate_field(None) is None


def test_read_document_for_any_yaml_or_json(tmp_path):
    path = tmp_path / "request.json"
    text = '{\n  "TrainingJobName": "job-1",\n  "DebugHookConfig": {\n    "S3OutputPath": "s3://b/o",\n    "CollectionConfigurations": [{"CollectionName": "g"}]\n  }\n}\n'
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
    cfg = cf.loads("rules:\n  - builtin: DetailedProfilerProcessingJobConfig\n    name: DetailedProfilerProcessingJobConfig-my-job\n")
    rule = cfg.rules[0]
    assert rule.instance_type == "ml.m5.4xlarge" and rule.volume_size_in_gb == 128
    assert rule.rule_parameters == {"rule_to_invoke": "DetailedProfilerProcessing"}


def test_import_does_not_pull_in_yaml_or_jsonschema():
    code = "import sys, sm_debug_config.configfile as c; print(sorted(m for m in ('yaml', 'jsonschema', 'boto3', 'sagemaker') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


# --- examples --------------------------------------------------------------------------------


def test_every_scenario_has_an_example():
    assert [p.name for p in EXAMPLES] == EXAMPLE_NAMES


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_loads_and_renders(path):
    cfg = cf.load(path)
    request = cfg.render()
    assert "DebugHookConfig" in request or "DebugRuleConfigurations" in request
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
    expected = render(rules, region="us-east-1", output_path="s3://my-bucket/tf-mnist/", job_name="tf-mnist-builtin-rules", instance_type="ml.p3.2xlarge")
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
    request = render(rules, hook, region="us-west-2", output_path="s3://my-bucket/mxnet-realtime/", job_name="mxnet-realtime-analysis")
    assert cfg.render() == request
    collections = {c["CollectionName"]: c.get("CollectionParameters") for c in request["DebugHookConfig"]["CollectionConfigurations"]}
    assert collections["conv0_tensors"] == {"include_regex": "conv0.*", "save_interval": "100"}


def test_bert_example_equals_python():
    cfg = _example("bert-attention-profiling.yaml")
    hook = DebuggerHookConfig(
        collection_configs=[
            CollectionConfig(
                "attention_scores",
                {"include_regex": ".*attention.self.(query|key)_output_0", "train.save_interval": "500", "eval.save_interval": "1"},
            )
        ]
    )
    profiler = ProfilerConfig(
        system_monitor_interval_millis=500,
        framework_profile_params=FrameworkProfile(
            detailed_profiling_config=DetailedProfilingConfig(start_step=5, num_steps=3),
            dataloader_profiling_config=DataloaderProfilingConfig(start_step=7, num_steps=2, metrics_regex=".*"),
            python_profiling_config=PythonProfilingConfig(
                start_step=9, num_steps=2, python_profiler=PythonProfiler.CPROFILE, cprofile_timer=cProfileTimer.TOTAL_TIME
            ),
        ),
    )
    rules = [
        ProfilerRule.sagemaker(rule_configs.ProfilerReport(CPUBottleneck_threshold=90, LowGPUUtilization_threshold_p95=80)),
        Rule.sagemaker(rule_configs.loss_not_decreasing()),
        Rule.sagemaker(rule_configs.overfit()),
    ]
    tensorboard = TensorBoardOutputConfig("s3://my-bucket/bert-attention/tensorboard/")
    assert (cfg.debugger_hook_config, cfg.profiler_config, cfg.rules, cfg.tensorboard_output_config) == (hook, profiler, rules, tensorboard)
    request = render(
        rules, hook, profiler, tensorboard, region="us-east-1", output_path="s3://my-bucket/bert-attention/", job_name="bert-attention-profiling", instance_type="ml.p3.8xlarge"
    )
    assert cfg.render() == request
    assert request["ProfilerConfig"]["ProfilingParameters"]["PythonProfilingConfig"] == '{"StartStep": 9, "NumSteps": 2, "ProfilerName": "cprofile", "cProfileTimer": "total_time", }'


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
        Rule.sagemaker(rule_configs.stalled_training_rule(), rule_parameters={"threshold": 1200}, actions=StopTraining("pytorch-resnet")),
        ProfilerRule.sagemaker(rule_configs.ProfilerReport(CPUBottleneck_threshold=70)),
        ProfilerRule.sagemaker(rule_configs.LowGPUUtilization(threshold_p95=80, window=200)),
    ]
    assert cfg.rules == rules
    request = render(rules, region="eu-west-1", output_path="s3://my-bucket/pytorch-resnet/", job_name="pytorch-resnet-custom-rules")
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
    assert cfg.render() == render(rules, region="us-east-1", output_path="s3://my-bucket/tf-custom-rule/", job_name="tf-custom-rule")


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
    assert cfg.render() == render(
        rules, hook, profiler, region="us-east-2", output_path="s3://my-bucket/xgboost-churn/", job_name="xgboost-churn-report", instance_type="ml.m5.2xlarge"
    )


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
        Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={"use_losses_collection": True, "num_steps": "7", "diff_percent": "1e-3"}),
        ProfilerRule.sagemaker(rule_configs.CPUBottleneck(threshold=70)),
        ProfilerRule.sagemaker(rule_configs.ProfilerReport(CPUBottleneck_threshold=70)),
    ]
    assert cf.dump(rules)["rules"] == [
        {"builtin": "VanishingGradient", "rule_parameters": {"threshold": 0.0001}},
        {"builtin": "LossNotDecreasing", "rule_parameters": {"use_losses_collection": True, "num_steps": 7, "diff_percent": "1e-3"}},
        {"builtin": "CPUBottleneck", "rule_parameters": {"threshold": 70}},
        {"builtin": "ProfilerReport", "rule_parameters": {"CPUBottleneck_threshold": 70}},
    ]


def _assert_same_render(kwargs, **render_args):
    dumped, loaded = round_trip(kwargs)
    merged = {**render_args, **kwargs}
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
    kwargs = {"profiler_config": ProfilerConfig(s3_output_path="s3://b/p/", system_monitor_interval_millis=100, framework_profile_params=profile)}
    dumped, loaded = _assert_same_render(kwargs, region="us-east-1", output_path="s3://b/o/")
    assert loaded.profiler_config == kwargs["profiler_config"]
    assert dumped["profiler_config"]["framework_profile_params"]["python_profiling_config"] == {"start_step": 3, "num_steps": 1, "python_profiler": "pyinstrument"}
    assert dumped["profiler_config"]["framework_profile_params"]["horovod_profiling_config"] == {"profile_default_steps": True}


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
    profile.profiling_parameters = {"LocalPath": "/opt/ml/output/profiler", "DetailedProfilingConfig": '{"StartStep": 1, "NumSteps": 2, }'}
    kwargs = {"profiler_config": ProfilerConfig(framework_profile_params=profile)}
    dumped, _loaded = _assert_same_render(kwargs, region="us-east-1", output_path="s3://b/o/")
    assert list(dumped["profiler_config"]["framework_profile_params"]) == ["profiling_parameters"]


def test_round_trip_sagemaker_profiler_and_its_processing_rule():
    profiler = ProfilerConfig(profile_params=Profiler(cpu_profiling_duration=1800, file_rotation_interval="300"))
    _assert_same_render({"profiler_config": profiler}, region="us-east-1", output_path="s3://b/o/", job_name="job-1")
    explicit = [ProfilerRule.sagemaker(DetailedProfilerProcessingJobConfig(), name="DetailedProfilerProcessingJobConfig-job-1", instance_type="ml.m5.2xlarge")]
    dumped, _loaded = _assert_same_render({"profiler_config": profiler, "rules": explicit}, region="us-east-1", output_path="s3://b/o/")
    assert dumped["rules"][0]["builtin"] == "DetailedProfilerProcessingJobConfig"
    assert dumped["profiler_config"]["profile_params"] == {"cpu_profiling_duration": 1800, "file_rotation_interval": 300}


@pytest.mark.parametrize("hook", [None, True, False, DebuggerHookConfig(), DebuggerHookConfig(hook_parameters={}, collection_configs=[])])
@pytest.mark.parametrize("rules", [None, []])
def test_round_trip_hook_forms_and_empty_rules(hook, rules):
    kwargs = {"debugger_hook_config": hook, "rules": rules, "profiler_config": ProfilerConfig(profile_params=Profiler())}
    _dumped, loaded = _assert_same_render(kwargs, region="us-east-1", output_path="s3://b/o/", job_name="job-1")
    assert loaded.rules == rules


def test_round_trip_rule_variants():
    rules = [
        Rule.sagemaker(rule_configs.similar_across_runs(), other_trials_s3_input_paths=["s3://b/other/debug-output"], name="Similar"),
        Rule.sagemaker(rule_configs.vanishing_gradient(), collections_to_save=[CollectionConfig("gradients", {"save_interval": "500"})]),
        Rule.sagemaker(rule_configs.overfit(), container_local_output_path="/opt/ml/processing/out", s3_output_path="s3://b/rule/"),
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
        ProfilerRule.custom("Prof1", CUSTOM_IMAGE, "ml.m5.xlarge", 40, rule_parameters={"other_trial_0": "s3://b/t", "k": 2.5}),
        ProfilerRule.sagemaker(rule_configs.StepOutlier(mode="TRAIN"), name="Outliers", instance_type="ml.m5.large"),
    ]
    dumped, loaded = _assert_same_render({"rules": rules}, region="us-east-1", output_path="s3://b/o/", job_name="job-1")
    assert loaded.rules == rules
    assert [next(iter(entry)) if len(entry) == 1 else "builtin" for entry in dumped["rules"]] == [
        "builtin", "builtin", "builtin", "custom", "custom", "custom_profiler", "builtin",
    ]
    assert dumped["rules"][1]["collections_to_save"] == [{"name": "gradients", "parameters": {"save_interval": "500"}}]


def test_round_trip_rule_newer_than_the_catalogue():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        unknown = Rule.sagemaker(
            {"DebugRuleConfiguration": {"RuleConfigurationName": "FutureRule", "RuleParameters": {"rule_to_invoke": "FutureRule"}}},
            rule_parameters={"knob": 1},
            collections_to_save=[CollectionConfig("weights")],
            allow_unknown_parameters=True,
        )
        dumped, loaded = round_trip({"rules": [unknown]})
    assert dumped["rules"] == [
        {"builtin": "FutureRule", "rule_parameters": {"knob": "1"}, "collections_to_save": [{"name": "weights"}], "allow_unknown_parameters": True}
    ]
    assert loaded.rules == [unknown]
    args = {"region": "us-east-1", "output_path": "s3://b/o/"}
    assert render([unknown], **args, validate=False) == loaded.render(**args, validate=False)


def test_rules_no_simpler_entry_reproduces_are_written_exactly():
    image = "111122223333.dkr.ecr.us-east-1.amazonaws.com/my-rules:1"
    rules = [
        Rule("Literal", image, None, None, "s3://b/rule/", None, {"rule_to_invoke": "X", "k": "v"}, [CollectionConfig("losses")], SMS("+14155550100")),
        ProfilerRule("LiteralProf", image, None, "/opt/ml/processing/out", None, None, {"rule_to_invoke": "Y", "n": 5}),
    ]
    dumped, loaded = _assert_same_render({"rules": rules}, region="us-east-1", output_path="s3://b/o/", job_name="job-1")
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
        {"profiler_rule": {"name": "LiteralProf", "image_uri": image, "container_local_output_path": "/opt/ml/processing/out", "rule_parameters": {"rule_to_invoke": "Y", "n": 5}}},
    ]
    assert loaded.rules == rules
    changed = Rule.sagemaker(rule_configs.overfit())
    changed.collection_configs = [CollectionConfig("weights", {"save_interval": "10"})]  # set after building
    dumped, loaded = _assert_same_render({"rules": [changed]}, region="us-east-1", output_path="s3://b/o/")
    assert dumped["rules"][0]["rule"]["image_uri"] == "DEFAULT_RULE_EVALUATOR_IMAGE"
    assert loaded.rules[0].collection_configs == changed.collection_configs


def test_round_trip_through_from_request():
    from_request = pytest.importorskip("sm_debug_config.reverse").from_request
    for path in EXAMPLES:
        cfg = cf.load(path)
        fields = cfg.render()
        request = dict(fields, TrainingJobName=cfg.job_name, OutputDataConfig={"S3OutputPath": cfg.output_path})
        rebuilt = from_request(request, region=cfg.region)
        config = cf.dump(**rebuilt.render_kwargs())
        again = cf.loads(yaml.safe_dump(config, sort_keys=False), filename="from-request.yaml")
        assert again.render(instance_type=cfg.instance_type, framework=cfg.framework) == fields, path.name


def test_uses_default_collections_survives_the_round_trip():
    explicit = Rule.sagemaker(rule_configs.vanishing_gradient(), collections_to_save=[CollectionConfig("gradients", {"save_interval": "500"})])
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
from hypothesis import HealthCheck, given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from strategies import config_documents, examples  # noqa: E402

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


# --- the JSON Schema --------------------------------------------------------------------------


def _properties(schema, where="#"):
    if isinstance(schema, dict):
        for key, value in (schema.get("properties") or {}).items():
            if isinstance(value, dict):
                yield f"{where}/properties/{key}", value
        for key, value in schema.items():
            yield from _properties(value, f"{where}/{key}")
    elif isinstance(schema, list):
        for index, value in enumerate(schema):
            yield from _properties(value, f"{where}/{index}")


def test_schema_is_valid_draft_2020_12_and_described():
    jsonschema = pytest.importorskip("jsonschema")
    schema = cf.config_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    missing = [where for where, prop in _properties(schema) if "description" not in prop]
    assert not missing, missing[:10]
    json.dumps(schema)  # plain JSON, printable by the CLI
    assert cf.config_schema() == schema


def test_schema_enums():
    from sm_debug_config.model import catalogue
    defs = cf.config_schema()["$defs"]
    assert set(catalogue.all_names()) <= set(defs["builtin_name"]["enum"])
    assert defs["framework"]["enum"] == ["tensorflow", "pytorch", "mxnet", "xgboost"]
    assert defs["python_profiler"]["enum"] == ["cprofile", "pyinstrument"]
    assert set(defs["cprofile_timer"]["enum"]) == {"total_time", "cpu_time", "off_cpu_time", "default"}


def test_schema_keys_match_the_loader_tables():
    schema = cf.config_schema()
    defs = schema["$defs"]
    assert set(schema["properties"]) == set(cf.TOP_KEYS)
    assert set(defs["builtin_rule"]["properties"]) == set(cf.BUILTIN_RULE_KEYS)
    assert set(defs["custom_rule"]["properties"]) == set(cf.CUSTOM_RULE_KEYS)
    assert set(defs["framework_profile"]["properties"]) == set(cf.FRAMEWORK_PROFILE_KEYS)
    assert set(defs["PythonProfilingConfig"]["properties"]) == set(cf.METRIC_KEYS) | {"python_profiler", "cprofile_timer"}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_and_their_dumps_validate_against_the_schema(path):
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(cf.config_schema())
    for document in (yaml.safe_load(path.read_text()), cf.load(path).to_config()):
        errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
        assert not errors, [(list(e.path), e.message[:200]) for e in errors]


@pytest.mark.parametrize(
    "document",
    [
        {"rules": [{"builtin": "VanishingGradient", "rule_paramters": {}}]},
        {"rules": [{"builtin": "NoSuchRule"}]},
        {"rules": [{"builtin": "ProfilerReport", "actions": {"email": "a@example.com"}}]},
        {"rules": [{"builtin": "Overfit", "instance_type": "ml.m5.xlarge"}]},
        {"rules": [{"custom": {"name": "x"}}]},
        {"framework": "jax"},
        {"profiler_config": {"framework_profile_params": {"python_profiling_config": {"python_profiler": "yappi"}}}},
        {"tensorboard_output_config": {}},
    ],
)
def test_schema_rejects_what_the_loader_rejects(document):
    jsonschema = pytest.importorskip("jsonschema")
    assert list(jsonschema.Draft202012Validator(cf.config_schema()).iter_errors(document))
    with pytest.raises(ConfigError):
        cf.loads(json.dumps(document), filename="x.json")


def test_no_traceback_from_a_subprocess(tmp_path):
    path = tmp_path / "bad.yaml"
    text = "rules:\n  - builtin: VanishingGradient\n    rule_parameters: {threshold: 1}\n    actions: [{sms: [5]}]\n"
    path.write_text(text)
    code = (
        "import sys\nfrom sm_debug_config.configfile import load, ConfigFileError\n"
        "try:\n    load(sys.argv[1])\nexcept ConfigFileError as err:\n    print(err)\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, cwd=ROOT, env={**os.environ})
    assert out.returncode == 0 and out.stderr == ""
    assert out.stdout.startswith(f"{path}:%d:%d: rules[0].actions[0].sms: " % at(text, "sms"))


@pytest.mark.parametrize(
    "text, fmt",
    [
        ("a: " + "[" * 100_000 + "]" * 100_000, None),
        ('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}", "json"),
        ("a:\n" + "- " * 100_000 + "x\n", None),
        ("a: " + "{b: " * 100_000 + "1" + "}" * 100_000, None),
    ],
)
def test_100000_deep_input_is_refused_before_recursing(text, fmt):
    # plain yaml.compose(text, Loader=yaml.CSafeLoader) overflows the C stack (SIGSEGV) on these
    start = time.perf_counter()
    err = error_of(text, format=fmt)
    assert time.perf_counter() - start < 1.0
    assert "nested more than 32 deep" in assert_clean(err, "job.yaml")


def test_depth_limit_is_the_projects_whatever_the_yaml_library_limits(monkeypatch):
    # three levels of blocks, then the 30th bracket is the 33rd level.
    # PyYAML 6.0.4's libyaml stops flow nesting at 1,000 levels with its own message, reading up to
    # 1,024 characters ahead: a library that stops even earlier (here at 40) must not be heard either.
    from sm_debug_config.configfile import parse as cf_parse

    class Stingy(yaml.SafeLoader):
        def fetch_flow_collection_start(self, token_class):
            if self.flow_level >= 40:
                raise yaml.scanner.ScannerError(None, None, "the library's own limit", self.get_mark())
            super().fetch_flow_collection_start(token_class)

    monkeypatch.setattr(yaml, "CSafeLoader", Stingy, raising=False)
    text = "rules:\n  - builtin: VanishingGradient\n    x: " + "[" * 60 + "]" * 60 + "\n"
    err = error_of(text)
    assert assert_clean(err, "job.yaml") == f"job.yaml:3:{8 + cf_parse.MAX_DEPTH - 3}: lists and mappings are nested more than {cf_parse.MAX_DEPTH} deep"


@pytest.mark.parametrize("depth", [33, 1_100])
def test_deep_nesting_after_brackets_in_strings(depth):
    # brackets inside strings and comments make the quick count loose; the real nesting is still found
    strings = "".join(f'k{i}: "see [note {i}"  # also [ here\n' for i in range(50))
    text = strings + "a: " + "[" * depth + "1" + "]" * depth + "\n"
    err = error_of(text)
    assert assert_clean(err, "job.yaml").startswith("job.yaml:51:35: lists and mappings are nested more than 32 deep")


def test_brackets_in_strings_and_comments_are_not_nesting():
    from sm_debug_config.configfile import parse as cf_parse

    text = "".join(f'k{i}: "see [note {i}"  # also {{ here\n' for i in range(200)) + "rules: [[[1]]]\n"
    root = cf_parse.parse(text, "job.yaml", None)
    assert cf_parse.plain(root)["k199"] == "see [note 199"
    assert cf_parse.too_deep_at(text) is not None  # the count is an upper bound: it did look further


def test_depth_count_is_fast_on_a_mebibyte():
    from sm_debug_config.configfile import parse as cf_parse

    text = "[]" * (1 << 19)
    start = time.perf_counter()
    assert cf_parse.too_deep_at(text) is None
    assert cf_parse.too_deep_at("a: " + "[" * (1 << 20)) == 3 + cf_parse.MAX_DEPTH
    assert time.perf_counter() - start < 1.0


def test_documented_depth_limit_is_the_codes():
    from sm_debug_config.configfile import parse as cf_parse

    root = Path(__file__).resolve().parent.parent
    assert f"nested past {cf_parse.MAX_DEPTH} levels" in (root / "README.md").read_text(encoding="utf-8")
    assert f"nested at most {cf_parse.MAX_DEPTH} deep" in (root / "docs" / "config-file.md").read_text(encoding="utf-8")


# --- the format description, the loader, dump and the schema agree -----------------------------

from sm_debug_config.configfile import format as config_format  # noqa: E402

_POOLS = {  # values of each scalar kind, valid for most keys of that kind (the loader decides)
    "string": st.sampled_from(["s3://my-bucket/out/", "/opt/ml/processing/out", "ml.m5.xlarge", "Name1", "gradients", CUSTOM_IMAGE, "+14155550100", "a@example.com", "us-east-1"]),
    "integer": st.sampled_from([1, 5, 30, 500, 1000, 1_700_000_000]),
    "number": st.sampled_from([1, 2.5, 60]),
    "boolean": st.booleans(),
    "int_or_string": st.sampled_from([60, "600"]),
    "string_list": st.lists(st.just("s3://my-bucket/other/debug-output"), max_size=2),
    "names_or_bool": st.one_of(st.booleans(), st.just(["new_knob"])),
    "string_map": st.just({"LocalPath": "/opt/ml/output/profiler"}),
    "hook_parameters": st.fixed_dictionaries({}, optional={"save_interval": st.integers(1, 1000).map(str), "include_regex": st.just("conv.*")}),
    "collection_parameters": st.fixed_dictionaries({}, optional={"save_interval": st.integers(1, 1000).map(str)}),
    "rule_parameters": st.one_of(st.none(), st.fixed_dictionaries({}, optional={"threshold": st.floats(0.0, 1.0), "mode": st.just("TRAIN")})),
    "builtin_name": st.sampled_from(["VanishingGradient", "Overfit", "LossNotDecreasing", "CPUBottleneck", "ProfilerReport", config_format.DETAILED_PROFILER_RULE]),
}


@st.composite
def _described(draw, kind, depth=0):
    """A value of ``kind`` drawn from the format description itself (the loader may refuse it)."""
    forms = config_format.formats()
    if kind in _POOLS:
        return draw(_POOLS[kind])
    if config_format.choices(kind):
        return draw(st.sampled_from(config_format.choices(kind)))
    if kind == "collections":
        return draw(st.lists(st.one_of(_POOLS["string"], _described("collection", depth + 1)), max_size=2))
    if kind == "actions":
        one = _described("action", depth + 1).filter(lambda a: len(a) == 1)
        return draw(st.one_of(one, st.lists(one, min_size=1, max_size=2)))
    if kind == "rules":
        entry = st.one_of(
            _POOLS["builtin_name"],
            _described("builtin_rule", depth + 1),
            *[_described(name, depth + 1).map(lambda d, k=key: {k: d}) for key, name in (("custom", "custom_rule"), ("custom_profiler", "custom_profiler_rule"), ("rule", "exact_rule"), ("profiler_rule", "exact_profiler_rule"))],
        )
        return draw(st.lists(entry, max_size=2))
    if kind == "debugger_hook_config" and draw(st.booleans()):
        return draw(st.booleans())
    form = forms[kind]
    optional = [k for k in form.keys if k not in form.required and k != "$schema"]
    keys = list(form.required) + draw(st.lists(st.sampled_from(optional), unique=True, max_size=3 if depth else 6))
    return {key: draw(_described(form.keys[key].kind, depth + 1)) for key in keys}


@examples(150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.one_of(_described("config"), config_documents()))
def test_every_document_the_loader_accepts_validates_against_the_schema_and_dumps_back(document):
    jsonschema = pytest.importorskip("jsonschema")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            loaded = cf.loads(json.dumps(document), filename="described.json")
        except ConfigError:
            return  # the property is about what the loader accepts
        validator = jsonschema.Draft202012Validator(cf.config_schema())
        for candidate in (document, loaded.to_config()):
            errors = [(list(e.path), e.message[:200]) for e in validator.iter_errors(candidate)]
            assert not errors, (candidate, errors)
        assert cf.loads(json.dumps(loaded.to_config())) == loaded


@examples(50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_dump_of_valid_objects_validates_and_loads_back_equal(data):
    jsonschema = pytest.importorskip("jsonschema")
    import strategies

    kwargs = data.draw(strategies.configurations())
    dumped = cf.dump(**kwargs)
    assert not list(jsonschema.Draft202012Validator(cf.config_schema()).iter_errors(dumped))
    loaded = cf.loads(yaml.safe_dump(dumped))
    assert {k: loaded.render_kwargs()[k] for k in kwargs} == {k: (list(val) if k == "rules" else val) for k, val in kwargs.items()}


def test_schema_accepts_exact_rule_entries():
    jsonschema = pytest.importorskip("jsonschema")
    document = {"rules": [{"rule": {"name": "R", "image_uri": CUSTOM_IMAGE}}, {"profiler_rule": {"name": "P", "image_uri": CUSTOM_IMAGE}}]}
    assert not list(jsonschema.Draft202012Validator(cf.config_schema()).iter_errors(document))
    assert cf.loads(json.dumps(document)).rule_kinds() == ["debugger", "profiler"]


def test_format_keys_are_the_constructor_fields():
    import attrs

    checked = []
    for form in config_format.formats().values():
        cls = form.build_class() if form.cls else None
        if cls is None or not attrs.has(cls) or cls.__name__ in ("Rule", "ProfilerRule"):  # rules are built by classmethods
            continue
        init = {getattr(f, "alias", None) or f.name for f in attrs.fields(cls) if f.init and not f.metadata.get("filled_by_render")}
        assert {k.name for k in form.keys.values()} - {"profiling_parameters"} == init - {"profiling_parameters"}, form.name
        checked.append(cls.__name__)
    assert len(checked) >= 6
    from sm_debug_config.model.settings import DebuggerSetup, JobSettings

    assert set(cf.TOP_KEYS) == {"$schema"} | set(DebuggerSetup.names()) | set(JobSettings.names()) - {"validate"}


@pytest.mark.parametrize(
    "text, position, words",
    [
        ("rules:\n  - builtin: CPUBottleneck\n    rule_parameters:\n      threshold: 300\n", "threshold", "<= 100"),
        ("rules:\n  - builtin: Overfit\n    actions: [{email: not-an-address}]\n", "email", "not an email address"),
        ("rules:\n  - builtin: Overfit\n    actions: [{sms: '4155550100'}]\n", "sms", "E.164"),
        ("debugger_hook_config:\n  container_local_output_path: tensors\n", "container_local_output_path", "absolute path"),
        ("rules:\n  - builtin: SimilarAcrossRuns\n", "builtin", "another trial"),
    ],
)
def test_what_runs_but_is_probably_unintended_warns_at_its_key(text, position, words):
    """Refused before issue 14; the job runs, so a ConfigWarning positioned like an error."""
    message = warning_of(text)
    line, column = at(text, position)
    assert message.startswith(f"job.yaml:{line}:{column}: ") and words in message, message
