"""The commands that validate print their non-error findings on stderr in validate's format (issue 22):
render, explain and from-request, with --ignore and --strict. The Python entry points are in
tests/validation/test_run.py, whose helpers these tests share."""
from __future__ import annotations

import json

import pytest

from sm_debug_config import render
from tests.validation.valhelpers import JOB_OUT as OUT, REGION, job_request as _request, sdk_rules as _rules


JOB = """\
region: us-east-1
output_path: s3://smdc-warn/out/
framework: pytorch
framework_version: "2.3"
rules:
  - builtin: VanishingGradient
"""


def _warning_lines(stderr):
    return [line for line in stderr.splitlines() if " warning SMD" in line]


@pytest.mark.parametrize("command", [["render"], ["explain"], ["explain", "--format", "json"]])
def test_cli_prints_warnings_like_validate_and_strict_fails(cli, tmp_path, command):
    path = tmp_path / "job.yaml"
    path.write_text(JOB)
    result = cli(*command, str(path))
    assert result.returncode == 0 and result.stdout
    lines = _warning_lines(result.stderr)
    assert any(
        line.startswith(f"{path}:5:") and " warning SMD170 /DebugRuleConfigurations: " in line for line in lines
    ), result.stderr
    assert any(line.startswith(f"{path}: warning SMD170 /DebugHookConfig: ") for line in lines), (
        result.stderr
    )  # no key for the default hook: the file, as validate prints it (issue 30; was the program's name)
    assert len(lines) == len(set(lines))
    assert " SMD170 " not in result.stdout  # said once: on stderr, not again in the output
    strict = cli(*command, str(path), "--strict")
    assert strict.returncode == 1 and strict.stdout == result.stdout


def test_cli_render_ignore_and_strict_pass(cli, tmp_path):
    path = tmp_path / "job.yaml"
    path.write_text(JOB)
    result = cli("render", str(path), "--strict", "--ignore", "SMD170")
    assert result.returncode == 0 and not _warning_lines(result.stderr), result.stderr


def test_cli_from_request_warns_at_the_request_position(cli, tmp_path):
    fields = render(_rules(), region=REGION, output_path=OUT, job_name="job-1")
    path = tmp_path / "request.json"
    path.write_text(json.dumps(dict(_request(), **fields), indent=2))
    result = cli("from-request", str(path))
    assert result.returncode == 0 and "VanishingGradient" in result.stdout
    lines = _warning_lines(result.stderr)
    assert any(
        line.startswith(f"{path}:") and " warning SMD170 /DebugRuleConfigurations: " in line for line in lines
    ), result.stderr
    assert cli("from-request", str(path), "--strict").returncode == 1


def test_explain_and_from_request_take_a_request_as_large_as_validate_does(cli, tmp_path):
    # issue 36: a 5 MiB request (its environment) was refused as "a config file may be at most 1 MiB"
    fields = render(_rules(), region=REGION, output_path=OUT, job_name="job-1")
    request = dict(_request(), **fields, Environment={f"KEY_{n}": "x" * 200 for n in range(25_000)})
    path = tmp_path / "request.json"
    path.write_text(json.dumps(request, indent=2))
    assert path.stat().st_size > 5 * 2**20
    validated = cli("validate", "--format", "json", str(path))
    assert validated.returncode == 0
    result = cli("from-request", str(path))
    assert result.returncode == 0 and "VanishingGradient" in result.stdout, result.stderr
    # explain takes a request as validate does: the same findings, each said once, and the objects explained
    explained = cli("explain", str(path))
    assert explained.returncode == 0 and "VanishingGradient" in explained.stdout, explained.stderr
    expected = [f"{path}:{f['line']}:{f['column']}: {f['severity']} {f['code']} {f['path']}: {f['message']}"
                for f in json.loads(validated.stdout)["files"][0]["findings"]]
    assert expected and _warning_lines(explained.stderr) == expected
    as_json = json.loads(cli("explain", "--format", "json", str(path)).stdout)
    assert [f["code"] for f in as_json["findings"]] == [line.split()[2] for line in expected]


def test_explain_of_a_request_its_objects_refuse_reports_the_finding_and_exits_1(cli, tmp_path):
    path = tmp_path / "request.json"
    path.write_text(json.dumps({"DebugHookConfig": {"S3OutputPath": OUT, "HookParameters": {"save_interval": "0"}}}))
    result = cli("explain", str(path))
    assert result.returncode == 1 and result.stdout.startswith("Not explained: a value is refused")
    (line,) = [line for line in result.stderr.splitlines() if " SMD132 " in line]
    assert line.startswith(f"{path}:1:") and " error SMD132 /DebugHookConfig/HookParameters/save_interval: " in line


def test_another_librarys_warning_is_printed_as_python_prints_it_not_as_ours(cli, monkeypatch):
    # issue 30: the SDK's own deprecation text came out as "sm-debug-config: warning You are using ..."
    import warnings as python_warnings

    from sm_debug_config.cli import schema

    def run(args):
        python_warnings.warn_explicit("a library's own words", FutureWarning, "library/module.py", 12)
        return 0

    monkeypatch.setattr(schema, "run", run)
    result = cli("schema")
    assert "library/module.py:12: FutureWarning: a library's own words" in result.stderr.splitlines()
    assert "sm-debug-config: warning" not in result.stderr
