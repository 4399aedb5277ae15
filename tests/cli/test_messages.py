"""Issue 22, item 7: what every command says when it fails, and what its --help tells.

Every error line starts with the program's name; a usage error (an unknown rule name too) exits 2;
the same invalid JSON is worded the same by every command, whatever the Python version's
``json`` says; a number a float cannot hold is said to be out of range, not "not a number".
"""
import configparser
import json
import os
import re
import subprocess
import sys

import pytest

from sm_debug_config.cli import PROG, build_parser
from sm_debug_config.configfile import parse as cf_parse
from sm_debug_config.configfile.document import parse as parse_config

CONFIG = ("region: us-east-1\noutput_path: s3://bucket/out/\nrules:\n  - builtin: VanishingGradient\n"
          "    rule_parameters:\n      threshold: {value}\n")


def error_line(result, code):
    assert result.returncode == code, (result.returncode, result.stdout, result.stderr)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.mark.parametrize(
    "argv",
    [
        ("render", "missing.yaml"),
        ("explain", "missing.yaml"),
        ("from-request", "missing.json"),
        ("render", "--format", "xml", "examples/custom-rule.yaml"),
        ("rules", "show", "VanishingGradent"),
        ("status", "not a job name!"),
    ],
)
def test_every_commands_errors_start_with_the_program_name(cli, tmp_path, argv):
    argv = tuple(str(tmp_path / a) if a.startswith("missing") else a for a in argv)
    result = cli(*argv)
    assert result.returncode in (1, 2)
    assert error_line(result, result.returncode).startswith(f"{PROG}")


def test_validate_of_an_unreadable_file_and_render_say_it_alike(cli, tmp_path):
    missing = str(tmp_path / "missing.yaml")
    render = error_line(cli("render", missing), 2)
    validate = error_line(cli("validate", missing), 2)
    assert render == validate and render.startswith(f"{PROG}: {missing}: ")


def test_unknown_rule_is_a_usage_error_with_did_you_mean(cli):
    line = error_line(cli("rules", "show", "VanishingGradent"), 2)
    assert "did you mean 'VanishingGradient'?" in line
    assert cli("rules", "show", "VanishingGradient").returncode == 0


@pytest.mark.parametrize(
    "text, where, closer",
    [('{"region": "us-east-1",}', (1, 23), "}"), ('{"rules": [1, 2, ]}', (1, 16), "]"), ('{"a": 1,\n  }', (1, 8), "}")],
)
def test_trailing_comma_is_worded_by_the_project_on_every_python(text, where, closer):
    # Python 3.13 reports a trailing comma at the comma ("Illegal trailing comma ..."), older versions
    # at the bracket after it ("Expecting property name ..."): the message must not follow either.
    with pytest.raises(cf_parse.ConfigFileError) as info:
        parse_config(text, "job.json", None)
    assert (info.value.line, info.value.column) == where
    assert f"invalid JSON: a comma before {closer!r}" in str(info.value)
    with pytest.raises(json.JSONDecodeError) as raw:
        json.loads(text)
    assert str(cf_parse.json_error(raw.value, text, "job.json")) == str(info.value)


@pytest.mark.parametrize("text", ['{"a": 1,}', '{"a": [1 2]}', '{"a": ', "{'a': 1}"])
def test_from_request_and_validate_word_invalid_json_alike(cli, tmp_path, text):
    path = tmp_path / "request.json"
    path.write_text(text)
    from_request = error_line(cli("from-request", str(path)), 2)
    validate = error_line(cli("validate", str(path)), 2)
    assert from_request == validate
    assert re.match(rf"^{PROG}: {re.escape(str(path))}:\d+:\d+: invalid JSON: ", from_request), from_request


@pytest.mark.parametrize("command", ["render", "validate", "explain", "from-request", "status"])
def test_help_lists_exit_codes(cli, command):
    result = cli(command, "--help")
    assert result.returncode == 0
    text = " ".join(result.stdout.split())
    assert re.search(r"exit codes: 0 \S.*, 1 \S.*, 2 \S", text), text


@pytest.mark.parametrize("command", ["render", "validate", "explain", "from-request"])
def test_every_positional_and_format_has_help(command):
    parser = build_parser().parse_known_args([command, "x"])[0]  # the command exists
    sub = next(a for a in build_parser()._actions if a.dest == "command").choices[command]
    bare = [a.dest for a in sub._actions if (not a.option_strings or "--format" in a.option_strings) and not a.help]
    assert parser.command == command and not bare


def test_validate_help_explains_file_and_format(cli):
    text = " ".join(cli("validate", "--help").stdout.split())
    assert "FILE" in text and "standard input" in text and "GitHub Actions annotations" in text


@pytest.mark.parametrize("value", ["1e400", "-1e400", ".inf", '"1e999"'])
def test_a_number_too_big_for_a_float_is_out_of_range(cli, tmp_path, value):
    path = tmp_path / "job.yaml"
    path.write_text(CONFIG.format(value=value))
    result = cli("validate", str(path))
    finding = next(line for line in result.stdout.splitlines() if "SMD121" in line)
    assert "VanishingGradient.threshold" in finding and "out of range, not a finite number" in finding
    assert "allowed: a number" in finding and "must be a number" not in finding


def test_a_number_that_is_not_one_still_says_so(cli, tmp_path):
    path = tmp_path / "job.yaml"
    path.write_text(CONFIG.format(value="lots"))
    finding = next(line for line in cli("validate", str(path)).stdout.splitlines() if "SMD121" in line)
    assert "must be a number" in finding


# --- the demo shows a finding; the package declares its data ------------------------------------

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_demo_mistake_example_is_caught_with_a_did_you_mean(cli):
    mistake = os.path.join("examples", "mistakes", "typos.yaml")
    with open(os.path.join(ROOT, "scripts", "demo.sh"), encoding="utf-8") as demo:
        assert mistake in demo.read()
    result = cli("validate", mistake)
    assert result.returncode == 0, result  # a warning: the demo exits 0
    assert re.search(r"typos\.yaml:\d+(:\d+)?: warning SMD120 .*did you mean 'threshold'\?", result.stdout), (
        result.stdout
    )
    assert "0 errors, 1 warning, 0 infos" in result.stdout
    assert cli("validate", "--strict", mistake).returncode == 1


def test_demo_runs_and_exits_0():
    if not os.access(os.path.join(ROOT, ".venv", "bin", "sm-debug-config"), os.X_OK):
        pytest.skip("scripts/demo.sh uses .venv (scripts/test.sh makes it)")
    result = subprocess.run(
        ["bash", os.path.join(ROOT, "scripts", "demo.sh")], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    assert "1 file: 0 errors, 0 warnings, 0 infos" in result.stdout and "SMD120" in result.stdout


def test_every_data_directory_is_a_declared_package():
    # setuptools warns "Package would be ignored" for a directory of data files that is importable
    # but not among `packages`: each one must be found, and its files matched by package_data.
    import fnmatch

    find_namespace_packages = pytest.importorskip(
        "setuptools", reason="setuptools is not installed here (a Python 3.12+ venv has none)"
    ).find_namespace_packages

    cfg = configparser.ConfigParser()
    cfg.read(os.path.join(ROOT, "setup.cfg"), encoding="utf-8")
    assert cfg["options"]["packages"].strip() == "find_namespace:"
    find = cfg["options.packages.find"]
    packages = set(
        find_namespace_packages(ROOT, include=find["include"].split(), exclude=find.get("exclude", "").split())
    )
    package_data = {name: [p.strip() for p in value.split(",")] for name, value in cfg["options.package_data"].items()}
    for top in ("sm_debug_config", "rule_configs"):
        for directory, dirs, files in os.walk(os.path.join(ROOT, top)):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            package = os.path.relpath(directory, ROOT).replace(os.sep, ".")
            assert package in packages, package
            for name in files:
                if not name.endswith((".py", ".pyc")):
                    assert any(fnmatch.fnmatch(name, p) for p in package_data.get(package, [])), f"{package}: {name}"
    assert not any("__pycache__" in p for p in packages)


def test_installed_data_loads_from_site_packages(tmp_path):
    # the JSON data is read through the package, not the repository: a copy of the package elsewhere works
    script = "import sm_debug_config.datafiles as d, sm_debug_config.model.catalogue as c; print(len(c.list_rules()))"
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=str(tmp_path), timeout=120
    )
    assert result.returncode == 0 and int(result.stdout) > 20, result.stderr
