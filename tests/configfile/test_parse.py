"""configfile.parse, .jsonparse, .text: bad inputs refused with one positioned line, JSON, scalars, depth."""
from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import yaml

from sm_debug_config import configfile as cf
from sm_debug_config.errors import ConfigError, ConfigWarning

from tests.configfile.cfhelpers import ROOT, at, error_of, render_warnings_of, warning_of, assert_clean


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
            "debugger_hook_config:\n  collection_configs:\n    - name: gradients\n"
            "      parameters: {save_interval: [1]}\n",
            "save_interval",
            "debugger_hook_config.collection_configs[0].parameters.save_interval",
            "expected a string, number or boolean, got a list",
        ),
        ("rules: {}\n", "rules", "rules", "expected a list of rules, got a mapping"),
        ("disable_profiler: 'no'\n", "disable_profiler", "disable_profiler", "expected true or false"),
        ("disable_profiler: yes\n", "disable_profiler", "disable_profiler", "write true or false"),
        (
            "profiler_config:\n  system_monitor_interval_millis: fast\n",
            "system_monitor",
            "profiler_config.system_monitor_interval_millis",
            "expected an integer",
        ),
        ("region: [us-east-1]\n", "region", "region", "expected a string, got a list"),
        ("debugger_hook_config: 5\n", "debugger_hook_config", "debugger_hook_config", "expected a mapping"),
        (
            "rules:\n  - builtin: TreeDepth\n    rule_parameters: {depth: [1, [2]]}\n",
            "[2]",
            "rules[0].rule_parameters.depth[1]",
            "got a list",
        ),
        (
            "tensorboard_output_config: {container_local_output_path: /opt/ml/tb}\n",
            "tensorboard",
            "tensorboard_output_config",
            "needs s3_output_path",
        ),
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


def test_huge_file_rejected(tmp_path):  # CPU: a row of benchmarks/parse_cost.py
    path = tmp_path / "huge.yaml"
    path.write_text("region: us-east-1\n" + "# padding\n" * 210_000)  # ~2 MB
    assert path.stat().st_size > 2_000_000
    with pytest.raises(ConfigError) as info:
        cf.load(path)
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
    assert "a second YAML document" in assert_clean(err, "job.yaml") and err.line == 2


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
    err = error_of("\n".join(lines) + "\n")  # CPU: a row of benchmarks/parse_cost.py
    assert "values" in assert_clean(err, "job.yaml")


@pytest.mark.parametrize("text, fmt", [("rules: " + "[" * 200_000, None), ('{"rules": ' + "[" * 200_000, "json")])
def test_deep_nesting_is_refused(text, fmt):  # CPU: a row of benchmarks/parse_cost.py
    err = error_of(text, format=fmt)
    assert "nested more than" in assert_clean(err, "job.yaml")


def test_constructor_errors_are_positioned():
    text = "rules:\n  - builtin: VanishingGradient\n    rule_parameters:\n      threshhold: 0.1\n"
    [message] = render_warnings_of(text, "SMD120")  # a warning since issue 14, from render (issue 36), at its key
    assert message.startswith("job.yaml:4:7: ")
    assert "did you mean 'threshold'?" in message


@pytest.mark.parametrize(
    "text, position, words",
    [
        ("rules:\n  - builtin: VanishingGradiant\n", "builtin", "did you mean 'VanishingGradient'?"),
        (
            "rules:\n  - builtin: ProfilerReport\n    rule_parameters: {CPUBottleneck_threshhold: 3}\n",
            "CPUBottleneck_threshhold",
            "CPUBottleneck_threshold",
        ),
        ("rules:\n  - builtin: ProfilerReport\n    actions: {email: a@example.com}\n", "actions", "debugger rules"),
        ("rules:\n  - builtin: Overfit\n    instance_type: ml.m5.xlarge\n", "instance_type", "profiler rules"),
        (
            "rules:\n  - builtin: Overfit\n    actions: [{stop_training: {training_job_prefix: 'a b'}}]\n",
            "training_job_prefix",
            "prefix",
        ),
        (
            "rules:\n  - builtin: Overfit\n    actions: [{email: a@example.com, sms: '+14155550100'}]\n",
            "{email",
            "exactly one",
        ),
        ("rules:\n  - {builtin: Overfit, custom: {name: x}}\n", "{", "exactly one of builtin"),
        ("rules:\n  - {name: x}\n", "{", "exactly one of builtin"),
        ("rules:\n  - rule: {name: X}\n", "rule: ", "needs image_uri"),
        ("rules:\n  - profiler_rule: {name: X, image_uri: i, actions: []}\n", "actions", "unknown key 'actions'"),
        (
            "rules:\n  - custom: {name: X, image_uri: i, instance_type: ml.m5.xlarge}\n",
            "custom",
            "needs volume_size_in_gb",
        ),
        (
            "rules:\n  - custom: {name: X, image_uri: i, instance_type: ml.m5.xlarge, volume_size_in_gb: 30, source: "
            "s3://b/r.py}\n",
            "custom",
            "both source and rule_to_invoke",
        ),
        ("rules:\n  - custom: {name: X}\n    name: Y\n", "name: Y", "go inside custom:"),
        (
            "profiler_config:\n  framework_profile_params:\n    python_profiling_config: {python_profiler: cprofil}\n",
            "python_profiler",
            "did you mean 'cprofile'?",
        ),
        (
            "profiler_config:\n  framework_profile_params:\n    detailed_profiling_config: {start_step: 1, duration: "
            "5}\n",
            "detailed_profiling_config",
            "cannot both be set",
        ),
        ("profiler_config:\n  framework_profile_params: {start_step: -1}\n", "start_step", "start_step"),
        (
            "profiler_config:\n  framework_profile_params: {}\n  profile_params: {}\n",
            "profiler_config",
            "cannot be used together",
        ),
        (
            "profiler_config:\n  profile_params: {cpu_profiling_duration: soon}\n",
            "cpu_profiling_duration",
            "whole number of seconds",
        ),
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
    text = ("rules:\n  - builtin: VanishingGradient\n    rule_parameters: {threshold: 0.1, new_knob: 3}\n"
            "    allow_unknown_parameters: [new_knob]\n")
    cfg = cf.loads(text, filename="job.yaml")
    assert cfg.rules[0].rule_parameters["new_knob"] == "3"
    messages = render_warnings_of(text, "SMD122")  # from render, once (issue 36)
    assert len(messages) == 1 and messages[0].startswith("job.yaml:%d:%d: " % at(text, "new_knob"))
    newer = cf.loads(
        "rules:\n  - builtin: BrandNewRule\n    allow_unknown_parameters: true\n    collections_to_save: [gradients]\n"
    )
    assert newer.rules[0].rule_parameters == {"rule_to_invoke": "BrandNewRule"} and newer.rules[0].builtin_rule is None


def test_every_error_is_one_line_even_with_line_breaks_in_values():
    err = error_of('rules:\n  - builtin: "Vanishing\\nGradient\\u2028x"\n')
    assert len(str(err).splitlines()) == 1


# --- JSON ---------------------------------------------------------------------------------------


def test_json_positions(tmp_path):
    path = tmp_path / "job.json"
    path.write_text(
        '{\n  "region": "us-east-1",\n  "rules": [\n    {"builtin": "VanishingGradient",\n'
        '     "rule_parameters": {"threshhold": 1e-5}}\n  ]\n}\n'
    )
    with warnings.catch_warnings(record=True) as caught:  # SMD120 is a warning since issue 14, from render (36)
        warnings.simplefilter("always", ConfigWarning)
        cf.load(path).render(output_path="s3://bucket/out/")
    assert [str(w.message) for w in caught if w.message.code == "SMD120"][0].startswith(f"{path}:5:26: ")


def test_json_semantics_are_json():
    text = ('{\n\t"region": "us-east-1",\n\t"job_name": "a\\/b\\ud83d\\ude00",\n'
            '\t"rules": [{"builtin": "VanishingGradient", "rule_parameters": {"threshold": 1e-5}}]\n}')
    cfg = cf.loads(text, filename="job.json")
    assert cfg.job_name == "a/b\U0001F600"
    assert cfg.rules[0].rule_parameters["threshold"] == "1e-05"  # a JSON number, as json.loads reads it
    assert cfg.locate(("rules", 0, "rule_parameters", "threshold")) == at(text, '"threshold"')
    assert (
        cf.loads("rules:\n  - {builtin: VanishingGradient, rule_parameters: {threshold: 1e-5}}\n")
        .rules[0]
        .rule_parameters["threshold"]
        == "1e-5"
    )


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


@pytest.mark.parametrize(
    "value",
    [
        "yes",
        "0100",
        "1e-5",
        "-.5",
        "09",
        "1:30",
        "2024-01-01",
        "+5",
        ".5",
        "1.0e-05",
        "true",
        "~",
        "",
        "1_0",
        "0x1F",
        "NaN",
        "=",
        "<<",
    ],
)
def test_safe_dump_strings_read_back_as_strings(value):
    dumped = yaml.safe_dump({"job_name": value})
    assert cf.loads(dumped).job_name == value


@pytest.mark.parametrize("value", [0, -5, 12345678901234567890, 0.5, 1e-05, 1e20, -2.5e-10, True, False])
def test_safe_dump_numbers_and_booleans_read_back(value):
    dumped = yaml.safe_dump(
        {"rules": [{"builtin": "TreeDepth", "rule_parameters": {"x": value}, "allow_unknown_parameters": True}]}
    )
    rule = cf.loads(dumped).rules[0]
    assert rule.rule_parameters["x"] == str(value)
    assert len(render_warnings_of(dumped, "SMD122")) == 1  # allow_unknown_parameters: passed through, and said so


def test_number_fields_accept_exponents():
    cfg = cf.loads("profiler_config:\n  framework_profile_params:\n    duration: 1e3\n    file_close_interval: 30\n")
    assert cfg.profiler_config.framework_profile_params.duration == 1000.0


def test_no_traceback_from_a_subprocess(tmp_path):
    path = tmp_path / "bad.yaml"
    text = "rules:\n  - builtin: VanishingGradient\n    rule_parameters: {threshold: 1}\n    actions: [{sms: [5]}]\n"
    path.write_text(text)
    code = (
        "import sys\nfrom sm_debug_config.configfile import load, ConfigFileError\n"
        "try:\n    load(sys.argv[1])\nexcept ConfigFileError as err:\n    print(err)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, cwd=ROOT, env={**os.environ}
    )
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
    # plain yaml.compose(text, Loader=yaml.CSafeLoader) overflows the C stack (SIGSEGV) on these;
    # their CPU is a row of benchmarks/parse_cost.py
    err = error_of(text, format=fmt)
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
    assert (
        assert_clean(err, "job.yaml")
        == f"job.yaml:3:{8 + cf_parse.MAX_DEPTH - 3}: lists and mappings are nested more than {cf_parse.MAX_DEPTH} deep"
    )


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
    from sm_debug_config.configfile.document import parse

    root = parse(text, "job.yaml", None)
    assert cf_parse.plain(root)["k199"] == "see [note 199"
    assert cf_parse.too_deep_at(text) is not None  # the count is an upper bound: it did look further


def test_depth_count_on_a_mebibyte():
    # its CPU cost is a row of benchmarks/parse_cost.py (tests assert results, not times)
    from sm_debug_config.configfile import parse as cf_parse

    depth = cf_parse.MAX_DEPTH
    assert cf_parse.too_deep_at("[]" * (1 << 19)) is None  # a mebibyte of pairs, each one deep
    assert cf_parse.too_deep_at("a: " + "[" * (1 << 20)) == 3 + depth  # the first bracket past the limit
    deepest = "[" * depth + "]" * depth
    padding = "[]" * ((1 << 19) - depth)
    assert cf_parse.too_deep_at(padding + deepest) is None  # as deep as allowed, at the end of a mebibyte
    assert cf_parse.too_deep_at(padding + "[" + deepest + "]") == len(padding) + depth


def test_documented_depth_limit_is_the_codes():
    from sm_debug_config.configfile import parse as cf_parse

    root = Path(__file__).resolve().parent.parent.parent
    assert f"nested past {cf_parse.MAX_DEPTH} levels" in (root / "docs" / "command-line.md").read_text(encoding="utf-8")
    assert f"nested at most {cf_parse.MAX_DEPTH} deep" in (root / "docs" / "config-file.md").read_text(encoding="utf-8")
