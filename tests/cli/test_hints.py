"""A file given to the wrong command is refused with the right one named; ``validate DIR`` walks as ``lint DIR``;
``rules show`` takes the rule_configs function name."""
from __future__ import annotations

import json
import shutil

import pytest

from sm_debug_config.cli.common import READS, wrong_command
from sm_debug_config.lint import sources

TYPOS = "examples/mistakes/typos.yaml"
NOTEBOOK = "tests/data/lint/split_cells.ipynb"


def test_the_commands_file_kinds_are_lints_own():
    assert READS["lint"][0] == sources.SUFFIXES


@pytest.mark.parametrize(
    "argv, command, other",
    [
        (("validate", NOTEBOOK), "validate", "lint"),
        (("validate", "tests/data/lint/docs_copy.py"), "validate", "lint"),
        (("explain", NOTEBOOK), "explain", "lint"),  # was: unknown key 'cells'
        (("explain", "--kind", "config", NOTEBOOK), "explain", "lint"),
        (("render", NOTEBOOK), "render", "lint"),
        (("lint", TYPOS), "lint", "validate"),  # was: skipped, or "cannot parse: invalid syntax"
        (("lint", "tests/data/documents/terraform-plan.json"), "lint", "validate"),
    ],
)
def test_a_file_named_to_the_wrong_command_exits_2_naming_the_right_one(cli, argv, command, other):
    out = cli(*argv)
    assert out.returncode == 2
    assert f"{argv[-1]}: {command} reads " in out.stderr and f"use `sm-debug-config {other}`" in out.stderr
    assert out.stderr.count("\n") == 1


def test_the_hint_is_an_error_of_its_file_in_every_format(cli):
    doc = json.loads(cli("validate", TYPOS, NOTEBOOK, "--format", "json").stdout)
    assert doc["errors"] == 1 and doc["warnings"] == 1
    assert "use `sm-debug-config lint`" in doc["files"][1]["error"]
    assert wrong_command("job.yml", "validate") is None and wrong_command("nb.IPYNB", "validate")


def _tree(tmp_path):
    """A repository: a Debugger config in a subfolder, another tool's JSON with comments, a Helm template, a
    notebook, and copies of the config where no search goes (.git, node_modules, a virtual environment)."""
    (tmp_path / "sagemaker").mkdir()
    shutil.copy(TYPOS, tmp_path / "sagemaker" / "job.yaml")
    (tmp_path / "tsconfig.json").write_text('{"compilerOptions": {}, // comments\n}\n')
    (tmp_path / "chart.yaml").write_text("replicas: {{ .Values.replicas }}\n")
    shutil.copy(NOTEBOOK, tmp_path / "train.ipynb")
    for hidden in (".git", "node_modules", "venv"):
        (tmp_path / hidden).mkdir()
        shutil.copy(TYPOS, tmp_path / hidden / "job.yaml")
    (tmp_path / "venv" / "pyvenv.cfg").write_text("home = /usr\n")
    return tmp_path


def test_validate_walks_a_directory_as_lint_does(cli, tmp_path):
    root = _tree(tmp_path)
    out = cli("validate", str(root))
    assert out.returncode == 0  # a warning; the files it cannot read are not its business
    assert out.stdout.count("SMD120") == 1 and f"{root}/sagemaker/job.yaml:13:7:" in out.stdout
    assert out.stdout.endswith("3 files: 0 errors, 1 warning, 0 infos, 2 skipped (not Debugger config; "
                               "--verbose says why)\n")
    verbose = cli("validate", str(root), "--verbose").stderr
    assert f"{root}/tsconfig.json: skipped: cannot be read: " in verbose and "chart.yaml: skipped:" in verbose
    # lint searches the same tree for its own files, skipping the same directories
    assert [p for p, _ in sources.find_files([str(root)])] == [f"{root}/train.ipynb"]


def test_a_file_named_that_cannot_be_parsed_still_fails(cli, tmp_path):
    root = _tree(tmp_path)
    out = cli("validate", str(root / "tsconfig.json"))
    assert out.returncode == 2 and "tsconfig.json:1:" in out.stderr


@pytest.mark.parametrize("name", ["vanishing_gradient", "VanishingGradient", "vanishinggradient"])
def test_rules_show_takes_the_function_name(cli, name):
    out = cli("rules", "show", name)
    assert out.returncode == 0 and out.stdout.startswith("VanishingGradient (debugger rule)")
    assert "python: rule_configs.vanishing_gradient()" in out.stdout


def test_rules_show_of_a_misspelt_function_name_says_the_rule(cli):
    out = cli("rules", "show", "vanishing_gradiant")
    assert out.returncode == 2 and "did you mean 'VanishingGradient'?" in out.stderr


def _excluding(tmp_path, monkeypatch):
    """A repository whose pyproject.toml excludes ``legacy``: one config file there, one outside."""
    for name in ("legacy/old.yaml", "configs/job.yaml"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(TYPOS, tmp_path / name)
    shutil.copy("tests/data/lint/alias_chain.py", tmp_path / "legacy" / "launch.py")
    (tmp_path / "pyproject.toml").write_text('[tool.sm-debug-config]\nexclude = ["legacy"]\n')
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("command, name", [("validate", "legacy/old.yaml"), ("lint", "legacy/launch.py")])
def test_a_file_named_and_excluded_is_checked_saying_so(cli, tmp_path, monkeypatch, command, name):
    # as ruff: a file named on the command line is checked whatever exclude says, unless --force-exclude
    root = _excluding(tmp_path, monkeypatch)
    out = cli(command, name)
    assert out.stdout.startswith(f"{name}:") and "1 file: " in out.stdout
    setting = f"'legacy' (exclude in {root / 'pyproject.toml'})"
    assert out.stderr.startswith(f"sm-debug-config: {name}: checked although excluded by {setting}: a file named on "
                                 "the command line is checked unless --force-exclude\n")  # then what --fix would do


@pytest.mark.parametrize("command, name", [("validate", "legacy/old.yaml"), ("lint", "legacy/launch.py")])
def test_force_exclude_leaves_a_named_file_out_and_says_by_which_setting(cli, tmp_path, monkeypatch, command, name):
    root = _excluding(tmp_path, monkeypatch)
    out = cli(command, "--force-exclude", name)
    assert out.returncode == 0 and out.stdout.startswith("0 files: ")
    setting = f"'legacy' (exclude in {root / 'pyproject.toml'})"
    assert out.stderr == f"sm-debug-config: {name}: not checked: excluded by {setting} and --force-exclude\n"
    flag = cli(command, "--isolated", "--force-exclude", "--exclude", "legacy/**", name)
    assert flag.stderr == f"sm-debug-config: {name}: not checked: excluded by 'legacy/**' (--exclude) and " \
                          "--force-exclude\n"


def test_files_found_in_a_directory_follow_exclude_and_verbose_says_which(cli, tmp_path, monkeypatch):
    root = _excluding(tmp_path, monkeypatch)
    out = cli("validate", ".")
    assert out.stdout.startswith("configs/job.yaml:13:7: warning SMD120") and "legacy" not in out.stdout + out.stderr
    verbose = cli("validate", "--verbose", ".")
    assert (f"sm-debug-config: legacy/old.yaml: not checked: excluded by 'legacy' (exclude in "
            f"{root / 'pyproject.toml'})\n") in verbose.stderr
