"""``[tool.sm-debug-config]`` in pyproject.toml (``sm_debug_config/cli/project.py``): the same repository checked
with settings from the file and with the same flags gives the same output; which file is read; bad sections
refused naming the file and the key; the shipped JSON Schema current; glob patterns."""
from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any, Dict, List

import pytest

from sm_debug_config.cli import build_parser, project
from tests.repo_scripts import ROOT, load_script

if sys.version_info >= (3, 11):
    import tomllib
else:  # the package's own dependency there
    import tomli as tomllib

EXAMPLES = Path(ROOT) / "examples"
DATA = Path(ROOT) / "tests" / "data"

#: Every key, each with a value that changes the output of the repository below.
SECTION = """\
[project]
name = "training"

[tool.sm-debug-config]
ignore = ["SMD174"]
per-file-ignores = { "configs/typos.yaml" = ["SMD120"], "launch/**" = ["SMD135"] }
strict = true
framework = "tensorflow"
framework-version = "2.11"
region = "eu-west-1"
exclude = ["legacy", "*.generated.yaml"]
kind = { "as-request/*.yaml" = "request" }
"""


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Any) -> Path:
    """A repository as users lay one out: config files, a state machine, a template, launchers, excluded files."""
    files = {
        "configs/typos.yaml": EXAMPLES / "mistakes" / "typos.yaml",  # SMD120 (ignored for this file)
        "configs/other-typos.yaml": EXAMPLES / "mistakes" / "typos.yaml",  # SMD120 (not ignored)
        "configs/xgboost.yaml": EXAMPLES / "xgboost-report.yaml",  # SMD174; SMD123 under framework tensorflow
        "as-request/typos.yaml": EXAMPLES / "mistakes" / "typos.yaml",  # read as a request by kind
        "legacy/old.yaml": EXAMPLES / "mistakes" / "typos.yaml",  # excluded
        "configs/x.generated.yaml": EXAMPLES / "mistakes" / "typos.yaml",  # excluded
        "workflows/train.asl.json": DATA / "documents" / "stepfunctions-nested.asl.json",
        "infra/stack.yaml": DATA / "documents" / "cloudformation-statemachine.yaml",
        "launch/alias_chain.py": DATA / "lint" / "alias_chain.py",  # SMD100, SMD135 (ignored here)
        "launch_functions.py": DATA / "lint" / "launch_functions.py",
        "legacy/launch.py": DATA / "lint" / "alias_chain.py",  # excluded
    }
    for name, source in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, tmp_path / name)
    (tmp_path / "pyproject.toml").write_text(SECTION, encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # after the cli fixture's chdir: flags' patterns are relative to the repository
    monkeypatch.delenv("AWS_REGION", raising=False)
    monkeypatch.delenv("AWS_DEFAULT_REGION", raising=False)
    return tmp_path


def _section() -> Dict[str, Any]:
    return tomllib.loads(SECTION)["tool"]["sm-debug-config"]


def _flags(command: str, section: Dict[str, Any]) -> List[str]:
    """The flags of ``command`` that say what ``section`` says (explain's ``--kind`` is its own: one kind)."""
    section = {name: value for name, value in section.items() if not (command == "explain" and name == "kind")}
    parser = build_parser(command)
    options = parser._subparsers._group_actions[0].choices[command]._option_string_actions
    return project.as_flags(section, options)


CONFIGS = ["configs/typos.yaml", "configs/other-typos.yaml", "configs/xgboost.yaml", "as-request/typos.yaml",
           "legacy/old.yaml", "configs/x.generated.yaml", "workflows/train.asl.json", "infra/stack.yaml"]


@pytest.mark.parametrize("argv", [
    ["validate", "--format", "text", *CONFIGS],
    ["validate", "--format", "json", *CONFIGS],
    ["validate", "--format", "github", *CONFIGS],
    ["lint", "--format", "text", "launch", "launch_functions.py", "legacy"],
    ["lint", "--format", "json", "launch", "launch_functions.py", "legacy/launch.py"],
    ["explain", "configs/xgboost.yaml"],
    ["explain", "--format", "json", "configs/xgboost.yaml"],
    ["render", "configs/xgboost.yaml"],
], ids=["validate-text", "validate-json", "validate-github", "lint-text", "lint-json", "explain-text", "explain-json",
        "render-json"])
def test_settings_from_pyproject_are_the_same_flags(repo: Path, cli: Any, argv: list) -> None:
    """The done-when of issue 32: byte-identical output and the same exit code, and the settings do change it."""
    from_file = cli(*argv)
    from_flags = cli(argv[0], "--isolated", *_flags(argv[0], _section()), *argv[1:])
    without = cli(argv[0], "--isolated", *argv[1:])
    same = (from_file.returncode, from_file.stdout) == (from_flags.returncode, from_flags.stdout)
    assert same, from_file.stderr + from_flags.stderr
    assert from_file.stdout and from_file.stdout != without.stdout


def test_every_key_has_a_flag_and_changes_validate_or_lint(repo: Path, cli: Any) -> None:
    """Each key alone, from the file and as flags, gives the same output (no key is lost in the merge)."""
    for name, value in _section().items():
        one = {name: value}
        lint = ["lint", "launch", "launch_functions.py", "legacy"]
        argv = lint if name == "per-file-ignores" else ["validate", *CONFIGS]
        flags = _flags(argv[0], one)
        assert flags, name
        text = "[tool.sm-debug-config]\n" + _toml(name, value)
        (repo / "pyproject.toml").write_text(text, encoding="utf-8")
        assert cli(*argv).stdout == cli(argv[0], "--isolated", *flags, *argv[1:]).stdout, name


def _toml(name: str, value: Any) -> str:
    if isinstance(value, dict):
        return f"[tool.sm-debug-config.{name}]\n" + "".join(f"{json.dumps(k)} = {json.dumps(v)}\n"
                                                             for k, v in value.items())
    return f"{name} = {json.dumps(value)}\n"


def test_flags_win_over_the_file(repo: Path, cli: Any) -> None:
    (repo / "pyproject.toml").write_text('[tool.sm-debug-config]\nframework = "xgboost"\n', encoding="utf-8")
    assert "SMD123" not in cli("validate", "configs/xgboost.yaml").stdout
    assert "SMD123" in cli("validate", "--framework", "pytorch", "configs/xgboost.yaml").stdout
    (repo / "pyproject.toml").write_text('[tool.sm-debug-config]\nkind = {"configs/*" = "request"}\n')
    as_config = cli("validate", "--kind", "config", "configs/typos.yaml")
    assert as_config.stdout == cli("validate", "--isolated", "configs/typos.yaml").stdout


def test_the_closest_file_with_the_section_is_used(repo: Path, cli: Any) -> None:
    (repo / "configs" / "pyproject.toml").write_text('[project]\nname = "no section here"\n', encoding="utf-8")
    (repo / "infra" / "pyproject.toml").write_text('[tool.sm-debug-config]\nignore = ["SMD120"]\n')
    (repo / "infra" / "typos.yaml").write_bytes((repo / "configs" / "typos.yaml").read_bytes())
    result = cli("validate", "--verbose", "configs/other-typos.yaml", "infra/typos.yaml")
    assert "configs/other-typos.yaml:13:7: warning SMD120" in result.stdout  # the root's section: not ignored here
    assert f"settings from {repo / 'pyproject.toml'} [tool.sm-debug-config]" in result.stderr
    assert f"settings from {repo / 'infra' / 'pyproject.toml'} [tool.sm-debug-config]" in result.stderr
    assert "infra/typos.yaml:13" not in result.stdout  # its own section ignores SMD120
    assert "excluded" not in result.stderr
    named = cli("validate", "--config", "infra/pyproject.toml", "configs/other-typos.yaml")
    assert named.stdout.startswith("1 file: 0 errors, 0 warnings, 0 infos, 1 suppressed"), named.stdout


def test_no_section_anywhere_is_no_settings(tmp_path: Path, cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copyfile(EXAMPLES / "mistakes" / "typos.yaml", tmp_path / "typos.yaml")
    (tmp_path / "pyproject.toml").write_text('[tool.ruff]\nline-length = 99\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = cli("validate", "--verbose", "typos.yaml")
    assert result.returncode == 0 and "SMD120" in result.stdout and "settings from" not in result.stderr


@pytest.mark.parametrize("pyproject, settings", [
    ('[project]\ndependencies = [\n  "sm-debug-config>=0.1",\n]\n# run sm-debug-config lint\nbad = [', False),
    ('[tool]\nsm-debug-config = { ignore = ["SMD120"] }\n', True),
    ('tool.sm-debug-config.ignore = ["SMD120"]\n', True),
    ('[tool."sm-debug-config"]\nignore = ["SMD120"]\n', True),
])
def test_only_a_file_that_sets_the_section_is_parsed(
    tmp_path: Path, cli: Any, monkeypatch: pytest.MonkeyPatch, pyproject: str, settings: bool
) -> None:
    # naming the project as a dependency or in a comment is no section: the file (invalid TOML here) is not parsed
    shutil.copyfile(EXAMPLES / "mistakes" / "typos.yaml", tmp_path / "typos.yaml")
    (tmp_path / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = cli("validate", "--verbose", "typos.yaml")
    assert result.returncode == 0 and ("settings from" in result.stderr) == settings
    assert ("SMD120" in result.stdout) != settings  # the section's ignore applies


@pytest.mark.parametrize("text, wanted", [
    ('ignor = ["SMD120"]', "[tool.sm-debug-config]: unknown key 'ignor'; did you mean 'ignore'? (allowed: select, "
                           "ignore, per-file-ignores, strict, framework, framework-version, region, exclude, kind, "
                           "fix, unsafe-fixes, unfixable)"),
    ('strict = "yes"', "[tool.sm-debug-config] strict: expected true or false, got a string"),
    ('ignore = "SMD120"', "[tool.sm-debug-config] ignore: expected an array of check codes, got a string"),
    ('ignore = ["SMD1200"]', "[tool.sm-debug-config] ignore: SMD1200: no such check; did you mean SMD120?"),
    ('framework = "pytorc"', "framework: unknown value 'pytorc'; did you mean 'pytorch'? (allowed: tensorflow, "),
    ('kind = {"*.json" = "stepfunction"}', "kind: '*.json': unknown value 'stepfunction'; did you mean "
                                           "'stepfunctions'?"),
    ('per-file-ignores = {"a/*" = "SMD120"}', "per-file-ignores: 'a/*': expected an array of check codes, got a "
                                              "string"),
    ('exclude = [1]', "exclude: expected an array of glob patterns, got an array"),
    ('strict = true\nstrict = false', "invalid TOML"),
    ('framework-version = ""', "framework-version: an empty string"),
])
def test_a_bad_section_is_a_usage_error(repo: Path, cli: Any, text: str, wanted: str) -> None:
    (repo / "pyproject.toml").write_text("[tool.sm-debug-config]\n" + text + "\n", encoding="utf-8")
    for argv in (["validate", "configs/typos.yaml"], ["lint", "launch"], ["render", "configs/typos.yaml"]):
        result = cli(*argv)
        assert result.returncode == 2 and not result.stdout, argv
        assert result.stderr.startswith(f"sm-debug-config: {repo / 'pyproject.toml'}: "), result.stderr
        assert wanted in result.stderr, result.stderr


def test_a_wrong_flag_value_names_the_flag(repo: Path, cli: Any) -> None:
    result = cli("validate", "--isolated", "--kind", "*.json=stepfunction", "configs/typos.yaml")
    assert result.returncode == 2 and "argument --kind: unknown value 'stepfunction'; did you mean" in result.stderr
    result = cli("validate", "--isolated", "--per-file-ignores", "SMD120", "configs/typos.yaml")
    assert result.returncode == 2
    assert "argument --per-file-ignores: expected GLOB=CODE[,CODE], got 'SMD120'" in result.stderr


def test_missing_config_file(repo: Path, cli: Any) -> None:
    result = cli("validate", "--config", "nowhere.toml", "configs/typos.yaml")
    assert result.returncode == 2 and "--config nowhere.toml: no such file" in result.stderr
    (repo / "other.toml").write_text("[tool.ruff]\nline-length = 99\n", encoding="utf-8")
    result = cli("validate", "--config", "other.toml", "configs/typos.yaml")
    assert result.returncode == 2 and "--config other.toml: no [tool.sm-debug-config] section" in result.stderr


@pytest.mark.parametrize("pattern, path, matches", [
    ("legacy", "legacy/old.yaml", True),
    ("legacy", "configs/legacy/old.yaml", True),
    ("legacy/", "legacy/old.yaml", True),
    ("*.asl.json", "workflows/deep/train.asl.json", True),
    ("*.asl.json", "workflows/train.json", False),
    ("configs/*.yaml", "configs/a.yaml", True),
    ("configs/*.yaml", "configs/sub/a.yaml", False),
    ("configs/**/*.yaml", "configs/sub/a.yaml", True),
    ("configs/**/*.yaml", "configs/a.yaml", True),
    ("./configs/a.yaml", "configs/a.yaml", True),
    ("configs/a.yaml", "other/configs/a.yaml", False),
    ("[ab].yaml", "b.yaml", True),
    ("[!ab].yaml", "b.yaml", False),
    ("a?.yaml", "ab.yaml", True),
    ("**", "anything/at/all.yaml", True),
])
def test_globs(tmp_path: Path, pattern: str, path: str, matches: bool) -> None:
    assert project.Glob.of(pattern, str(tmp_path)).matches(os.path.join(tmp_path, path)) is matches


def test_a_file_outside_the_project_matches_no_path_pattern(tmp_path: Path) -> None:
    glob = project.Glob.of("configs/*.yaml", str(tmp_path / "project"))
    assert not glob.matches(str(tmp_path / "configs" / "a.yaml"))


def test_the_shipped_schema_is_current() -> None:
    generator = load_script("generate_project_schema")
    shipped = Path(generator.OUTPUT).read_text(encoding="utf-8")
    assert shipped == generator.dumps(project.json_schema()), "run python scripts/generate_project_schema.py"
    assert list(json.loads(shipped)["properties"]) == sorted(key.name for key in project.KEYS)


def test_the_schema_accepts_the_sections_the_reader_does(tmp_path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(Path(load_script("generate_project_schema").OUTPUT).read_text(encoding="utf-8"))
    jsonschema.Draft7Validator.check_schema(schema)
    jsonschema.validate(_section(), schema)
    (tmp_path / "pyproject.toml").write_text(SECTION, encoding="utf-8")
    assert project.read_project(str(tmp_path / "pyproject.toml")) is not None
    for bad in ({"ignor": []}, {"strict": "yes"}, {"framework": "pytorc"}, {"kind": {"*.json": "stepfunction"}},
                {"per-file-ignores": {"a": "SMD120"}}, {"exclude": [1]}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema)
