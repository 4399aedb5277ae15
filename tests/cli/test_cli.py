"""The sm-debug-config command: outputs, exit codes, one-line errors.

Most tests run ``sm_debug_config.cli.main(argv)`` in this process (the ``cli`` fixture of
conftest.py); the few at the end start a real process, for what only a process shows: the
installed console script, ``python -m sm_debug_config``, exit codes and a closed stdout pipe.
"""
import glob
import json
import os
import re
import subprocess
import sys

import pytest

from tests.warnhelpers import config_warnings, example_warnings

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = sorted(glob.glob(os.path.join(ROOT, "examples", "*.yaml")))
ENV = dict(os.environ, PYTHONPATH=ROOT, SAGEMAKER_SUPPRESS_V2_WARNING="1", AWS_REGION="us-east-1")


def process(*args, env=None):
    """``python -m sm_debug_config ARGS`` in a real process."""
    result = subprocess.run(
        [sys.executable, "-m", "sm_debug_config", *args],
        capture_output=True,
        text=True,
        env=dict(ENV, **(env or {})),
        cwd=ROOT,
        timeout=120,
    )
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout, result.stderr
    return result


def one_line_error(result, code):
    assert result.returncode == code, (result.returncode, result.stdout, result.stderr)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_examples_exist_for_every_readme_scenario():
    names = {os.path.basename(p) for p in EXAMPLES}
    assert {
        "tensorflow-builtin-rules.yaml",
        "mxnet-realtime-hook.yaml",
        "bert-attention-profiling.yaml",
        "rule-customisation.yaml",
        "custom-rule.yaml",
        "xgboost-report.yaml",
    } <= names


@pytest.mark.parametrize("path", EXAMPLES, ids=os.path.basename)
def test_render_of_every_example_equals_the_python_api(cli, path):
    from sm_debug_config.configfile import load

    result = cli("render", path)
    assert result.returncode == 0, result.stderr
    with config_warnings(*example_warnings(path)):
        assert json.loads(result.stdout) == load(path).render()
    assert cli("validate", path).returncode == 0


@pytest.mark.parametrize("path", EXAMPLES, ids=os.path.basename)
def test_from_request_then_render_gives_the_same_request(cli, path, tmp_path):
    rendered = cli("render", path, "--job-name", "job-7")
    request_file = tmp_path / "request.json"
    request_file.write_text(rendered.stdout)
    config = cli("from-request", str(request_file), "--job-name", "job-7")
    assert config.returncode == 0, config.stderr
    config_file = tmp_path / "config.yaml"
    config_file.write_text(config.stdout)
    again = cli("render", str(config_file), "--job-name", "job-7")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == json.loads(rendered.stdout)


def test_render_options_and_into(cli, tmp_path):
    path = os.path.join(ROOT, "examples", "tensorflow-builtin-rules.yaml")
    out = json.loads(
        cli("render", path, "--region", "eu-west-1", "--output-path", "s3://other/out/", "--job-name", "j-1").stdout
    )
    assert out["DebugHookConfig"]["S3OutputPath"].startswith("s3://")
    assert all("eu-west-1" in r["RuleEvaluatorImage"] for r in out.get("DebugRuleConfigurations", []))
    request = tmp_path / "request.json"
    request.write_text(json.dumps({"TrainingJobName": "j-1", "RoleArn": "arn:aws:iam::111122223333:role/r"}))
    merged = json.loads(cli("render", path, "--into", str(request)).stdout)
    assert merged["TrainingJobName"] == "j-1" and "DebugHookConfig" in merged
    request.write_text(json.dumps(merged))
    assert "--replace" in one_line_error(cli("render", path, "--into", str(request)), 2)
    assert cli("render", path, "--into", str(request), "--replace").returncode == 0
    request.write_text(json.dumps({"HyperParameterTuningJobName": "t", "TrainingJobDefinition": {}}))
    assert "tuning" in one_line_error(cli("render", path, "--into", str(request)), 2)


def test_explicit_defaults_and_disable_debugger(cli, tmp_path):
    config = tmp_path / "empty.yaml"
    config.write_text("region: us-east-1\noutput_path: s3://bucket/out/\n")
    assert json.loads(cli("render", str(config), "--defaults", "explicit").stdout) == {
        "ProfilerConfig": {"DisableProfiler": True}
    }
    assert json.loads(cli("render", str(config), "--disable-debugger").stdout) == {
        "ProfilerConfig": {"DisableProfiler": True}
    }
    assert "DebugHookConfig" in json.loads(cli("render", str(config)).stdout)


def test_render_update(cli, tmp_path):
    config = tmp_path / "update.yaml"
    config.write_text(
        "region: us-east-1\nrules: [{builtin: CPUBottleneck, rule_parameters: {threshold: 70}}]\n"
        "profiler_config: {system_monitor_interval_millis: 1000}\n"
    )
    out = json.loads(cli("render", "--update", str(config)).stdout)
    assert out["ProfilerConfig"] == {"DisableProfiler": False, "ProfilingIntervalInMilliseconds": 1000}
    assert out["ProfilerRuleConfigurations"][0]["RuleParameters"]["threshold"] == "70"
    current = tmp_path / "describe.json"
    current.write_text(
        json.dumps(
            {"ProfilerRuleConfigurations": [{"RuleConfigurationName": "CPUBottleneck", "RuleEvaluatorImage": "x"}]}
        )
    )
    assert "already runs" in one_line_error(cli("render", "--update", str(config), "--current", str(current)), 1)


def test_validate_formats_and_exit_codes(cli, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "region: us-east-1\ndebugger_hook_config:\n  collection_configs:\n    - name: gradients\n"
        "      parameters: {save_interval: '0'}\n"
    )
    good = os.path.join(ROOT, "examples", "tensorflow-builtin-rules.yaml")
    text = cli("validate", str(bad), good)
    assert text.returncode == 1
    # one code and one request path whichever step finds it (the constructor or the request check), at file:line:col
    assert (
        f"{bad}:5:20: error SMD132 /DebugHookConfig/CollectionConfigurations/0/CollectionParameters/save_interval: "
        f"save_interval must be a positive integer"
        in text.stdout
    )
    assert text.stdout.strip().endswith("2 files: 1 error, 0 warnings, 0 infos")
    payload = json.loads(cli("validate", "--format", "json", str(bad), good).stdout)
    assert (
        payload["errors"] == 1
        and payload["warnings"] == 0
        and [f["file"] for f in payload["files"]] == [str(bad), good]
    )
    finding = payload["files"][0]["findings"][0]
    assert set(finding) == {"severity", "code", "path", "message", "line", "column", "url"} and (
        finding["line"],
        finding["column"],
    ) == (5, 20)
    assert finding["code"] == "SMD132"
    github = cli("validate", "--format", "github", str(bad)).stdout.strip()
    assert github.startswith(
        f"::error file={bad},line=5,col=20,title=SMD132 "
        f"/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/save_interval::"
    )
    # a problem only the rendered request shows is reported at the config key it comes from
    rules = tmp_path / "rules.yaml"
    rules.write_text("region: us-east-1\nrules:\n  - builtin: Overfit\n  - builtin: Overfit\n")
    result = cli("validate", str(rules))
    assert f"{rules}:4:5: error SMD101 /DebugRuleConfigurations/1/RuleConfigurationName" in result.stdout


def test_validate_strict_fails_on_warnings(cli, tmp_path):
    warn = tmp_path / "warn.yaml"
    warn.write_text("region: us-east-1\nprofiler_config: {system_monitor_interval_millis: 250}\n")
    assert cli("validate", str(warn)).returncode == 0
    assert cli("validate", "--strict", str(warn)).returncode == 1


def test_validate_raw_request_json_with_lines(cli, tmp_path):
    request = tmp_path / "request.json"
    request.write_text(
        json.dumps(
            {
                "TrainingJobName": "j",
                "DebugHookConfig": {"S3OutputPath": "s3://b/o", "HookParameters": {"save_intervall": "5"}},
            },
            indent=2,
        )
    )
    result = cli("validate", "--format", "json", "--framework", "pytorch", str(request))
    assert result.returncode == 0  # SMD135 (smdebug ignores the key) is a warning since issue 14
    assert cli("validate", "--strict", "--format", "json", "--framework", "pytorch", str(request)).returncode == 1
    [finding] = json.loads(result.stdout)["files"][0]["findings"]
    assert finding["code"] == "SMD135" and finding["line"] == 6 and "save_interval" in finding["message"]


BAD_INPUTS = [
    ("empty.yaml", b"", 2, "empty"),  # validate skips it (not a Debugger config; see test_validate_skip.py)
    ("malformed.yaml", b"region: [us-east-1\n", 2, "malformed"),
    ("tag.yaml", b"region: !!python/object/apply:os.system ['echo pwned']\n", 2, "tag"),
    ("binary.yaml", bytes(range(256)), 2, "binary"),
    ("unknown.yaml", b"region: us-east-1\nrulez: []\n", 1, "unknown key"),
    (
        "wrongtype.yaml",
        b"region: us-east-1\ndebugger_hook_config:\n  hook_parameters: {save_interval: [1]}\n",
        1,
        "wrong type",
    ),
]


@pytest.mark.parametrize("name, content, code, what", BAD_INPUTS, ids=[b[3] for b in BAD_INPUTS])
def test_bad_inputs_give_one_clear_line(cli, tmp_path, name, content, code, what):
    path = tmp_path / name
    path.write_bytes(content)
    for command in ("render", "validate", "explain"):
        result = cli(command, str(path))
        if command == "validate" and what == "empty":
            assert result.returncode == 0 and "1 skipped" in result.stdout
            continue
        if command == "validate" and code == 1:
            assert result.returncode == 1 and "SMD002" in result.stdout
            continue
        line = one_line_error(result, code)
        assert str(path) in line


def test_missing_and_huge_files(cli, tmp_path):
    assert (
        "cannot" in one_line_error(cli("render", str(tmp_path / "missing.yaml")), 2).lower()
        or "no such" in cli("render", str(tmp_path / "missing.yaml")).stderr.lower()
    )
    huge = tmp_path / "huge.yaml"
    huge.write_bytes(b"region: us-east-1\n# " + b"x" * (3 * 1024 * 1024) + b"\n")
    one_line_error(cli("validate", str(huge)), 2)


def test_usage_errors_exit_2(cli):
    one_line_error(cli(), 2)
    one_line_error(cli("render"), 2)
    one_line_error(cli("validate", "--format", "xml", "x.yaml"), 2)
    one_line_error(cli("rules", "show", "NoSuchRule"), 2)  # a name not in the catalogue is a usage error (issue 22)


def test_explain_rules_schema_checks_events(cli):
    explained = cli("explain", os.path.join(ROOT, "examples", "tensorflow-builtin-rules.yaml"))
    assert (
        explained.returncode == 0 and "Collections the hook saves:" in explained.stdout and "from " in explained.stdout
    )
    report = json.loads(
        cli("explain", "--format", "json", os.path.join(ROOT, "examples", "bert-attention-profiling.yaml")).stdout
    )
    assert {"collections", "rules", "findings", "request"} <= set(report)
    listed = cli("rules", "list", "--framework", "xgboost", "--kind", "debugger").stdout
    assert "TreeDepth" in listed and "VanishingGradient" not in listed
    assert "threshold" in cli("rules", "show", "VanishingGradient").stdout
    schema = json.loads(cli("schema").stdout)
    import jsonschema

    jsonschema.Draft202012Validator.check_schema(schema)
    assert "SMD110" in cli("checks").stdout
    pattern = json.loads(cli("events", "pattern", "--rule", "VanishingGradient").stdout)
    assert pattern["detail-type"] == ["SageMaker Training Job State Change"]


def test_status_against_a_local_api(cli, moto_server):
    result = cli(
        "status",
        "no-such-job",
        "--region",
        "us-east-1",
        env={"AWS_ENDPOINT_URL": moto_server, "AWS_ACCESS_KEY_ID": "x", "AWS_SECRET_ACCESS_KEY": "x"},
    )
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1


def test_console_script_is_installed():
    import shutil

    exe = shutil.which("sm-debug-config", path=os.path.dirname(sys.executable))
    if exe is None:
        pytest.skip("package not installed in this interpreter's bin directory")
    result = subprocess.run([exe, "--version"], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.startswith("sm-debug-config ")


# --- through a real process ---------------------------------------------------------------------


def test_python_dash_m_renders_what_main_renders(cli):
    path = os.path.join(ROOT, "examples", "tensorflow-builtin-rules.yaml")
    result = process("render", path, "--job-name", "job-7")
    assert result.returncode == 0, result.stderr
    assert result.stdout == cli("render", path, "--job-name", "job-7").stdout


def test_exit_codes_and_one_line_errors_through_a_real_process(tmp_path):
    assert process("validate", os.path.join(ROOT, "examples", "custom-rule.yaml")).returncode == 0
    unknown = tmp_path / "unknown.yaml"
    unknown.write_text("region: us-east-1\nrulez: []\n")
    assert str(unknown) in one_line_error(process("render", str(unknown)), 1)
    one_line_error(process(), 2)
    one_line_error(process("validate", "--format", "xml", "x.yaml"), 2)
    assert process("--version").stdout.startswith("sm-debug-config ")


def test_a_closed_stdout_pipe_is_not_an_error():
    # `sm-debug-config schema | head -1`: the reader goes away before the output is written
    command = [sys.executable, "-m", "sm_debug_config", "schema"]
    with subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV, cwd=ROOT
    ) as child:
        child.stdout.close()
        stderr = child.stderr.read().decode()
        assert child.wait(timeout=120) == 0 and "Traceback" not in stderr, stderr


POLICY_YAML = (
    "region: us-east-1\noutput_path: s3://b/o/\nrules:\n  - builtin: VanishingGradient\n"
    "    rule_parameters: {threshhold: 0.1}\n    actions: [{sms: '+01234567890'}]\n"
)


def test_ignore_suppresses_by_code_and_counts_what_it_suppressed(cli, tmp_path):
    path = tmp_path / "job.yaml"
    path.write_text(POLICY_YAML)
    plain = cli("validate", str(path))
    assert plain.returncode == 0 and "2 warnings" in plain.stdout and "SMD120" in plain.stdout
    quiet = cli("validate", "--ignore", "SMD120", "--ignore", "smd155", "--format", "json", str(path))
    payload = json.loads(quiet.stdout)
    assert payload["warnings"] == 0 and payload["suppressed"] == 2 and payload["files"][0]["findings"] == []
    assert "2 suppressed" in cli("validate", "--ignore", "SMD120", "--ignore", "SMD155", str(path)).stdout
    assert cli("validate", "--strict", str(path)).returncode == 1
    assert cli("validate", "--strict", "--ignore", "SMD120", "--ignore", "SMD155", str(path)).returncode == 0
    unknown = cli("validate", "--ignore", "SMD999", str(path))
    assert unknown.returncode == 2 and "SMD999" in unknown.stdout + unknown.stderr
    path.write_text(POLICY_YAML + "ignore: [SMD120]\n")  # the config file's own ignore: key
    assert "1 suppressed" in cli("validate", str(path)).stdout


def test_warnings_print_as_one_line_like_findings(cli, tmp_path):
    path = tmp_path / "job.yaml"
    path.write_text(POLICY_YAML)
    result = cli("render", str(path))
    assert result.returncode == 0
    lines = [line for line in result.stderr.splitlines() if " warning " in line]
    assert lines and all(re.match(rf"^{re.escape(str(path))}:\d+:\d+: warning SMD1\d\d ", line) for line in lines), (
        result.stderr
    )
    assert "ConfigWarning" not in result.stderr and "sm_debug_config/" not in result.stderr


def test_unreadable_files_count_as_errors(cli, tmp_path):
    good = tmp_path / "good.yaml"
    good.write_text("region: us-east-1\n")
    result = cli("validate", "--format", "json", str(good), str(tmp_path / "missing.yaml"))
    assert result.returncode == 2 and json.loads(result.stdout)["errors"] == 1
    text = cli("validate", str(good), str(tmp_path / "missing.yaml"))
    assert "1 error" in text.stdout


def test_checks_verbose_gives_the_evidence(cli):
    rows = json.loads(cli("checks", "--verbose", "--format", "json").stdout)
    assert rows and all(row["evidence"] for row in rows)
    assert "evidence:" in cli("checks", "--verbose").stdout


def test_render_for_infrastructure_as_code(cli):
    example = os.path.join(ROOT, "examples", "tensorflow-builtin-rules.yaml")
    terraform = cli("render", "--format", "terraform", example)
    assert terraform.returncode == 0 and "debug_rule_configurations {" in terraform.stdout
    cloudformation = json.loads(cli("render", "--format", "cloudformation", example).stdout)
    assert cloudformation["DebugRuleConfigurations"][0]["RuleEvaluatorImage"].endswith(
        "sagemaker-debugger-rules:latest"
    )
    assert "debug_hook_config" in json.loads(cli("render", "--format", "terraform-json", example).stdout)
    assert cli("render", "--format", "terraform", "--into", example, example).returncode == 2


def test_validate_reports_every_error_of_a_file_in_one_run(cli, tmp_path):
    """Four mistakes in independent parts (three rules, the hook) are four findings, not the first one (issue 14)."""
    path = tmp_path / "job.yaml"
    path.write_text(
        "region: us-east-1\nrules:\n  - builtin: VanishingGradiant\n  - builtin: Overfit\n    actions: [{sms: [1]}]\n"
        "  - custom: {name: X}\ndebugger_hook_config:\n  s3_output_path: not-s3\n"
    )
    payload = json.loads(cli("validate", "--format", "json", str(path)).stdout)
    findings = payload["files"][0]["findings"]
    assert [f["line"] for f in findings] == [3, 5, 6, 8] and payload["errors"] == 4
    assert "did you mean 'VanishingGradient'" in findings[0]["message"]


def test_a_render_that_fails_validation_is_positioned_at_its_key(cli, tmp_path):
    """Not an internal error (exit 70): the error is placed with the settings given, not every setting."""
    path = tmp_path / "job.yaml"
    path.write_text("region: us-east-1\noutput_path: s3://b/o/\nrules:\n  - builtin: Overfit\n  - builtin: Overfit\n")
    assert one_line_error(cli("render", str(path)), 1).startswith(
        f"sm-debug-config: {path}:5:5: rules[1]: the request would fail: SMD101"
    )


def test_render_and_explain_of_a_config_they_cannot_build_say_every_finding(cli, tmp_path):
    """Review of issue 36: render and explain stopped at the first refusal (no code, a config path); the other error
    and the warnings of the same file were hidden until it was fixed."""
    path = tmp_path / "job.yaml"
    path.write_text("region: us-east-1\noutput_path: s3://b/out/\ndebugger_hook_config:\n  collection_configs:\n"
                    "    - name: gradients\n      parameters: {save_interval: '0'}\nrules:\n"
                    "  - builtin: VanishingGradient\n    rule_parameters: {threshhold: 0.1}\n"
                    "tensorboard_output_config:\n  s3_output_path: s3://b/tb/\n"
                    "  container_local_output_path: /opt/ml/output/tb\n")
    for command in ("render", "explain"):
        result = cli(command, str(path))
        assert result.returncode == 1 and result.stdout == ""
        codes = [line.split()[2] for line in result.stderr.splitlines() if line.startswith(str(path) + ":")]
        assert sorted(codes) == ["SMD120", "SMD132", "SMD154"], result.stderr
        assert result.stderr.splitlines()[-1].endswith("2 errors, said above as validate says them")
