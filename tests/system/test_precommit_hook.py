"""The shipped pre-commit hooks and GitHub Actions example (issues 22 and 32): the files the hooks take (by type,
as pre-commit classifies them with ``identify``: any name), validate's skipping of unrelated documents, and the
annotation format the workflow relies on. ``tests/cli/test_precommit.py`` runs the hooks with pre-commit itself."""
import configparser
import json
import os
import re
import shlex

import pytest
import yaml

from sm_debug_config import cli as cli_module
from sm_debug_config.cli.common import READS

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORKFLOW = os.path.join(ROOT, "examples", "github-actions", "sm-debug-config.yml")

#: names users give Debugger config files (README "Command line"), and files an ordinary repository has
#: (the validate hook takes them too, and validate skips them: test_ordinary_repository_files_are_skipped_not_failed)
CONFIG_NAMES = [
    "sagemaker/debugger/job.yaml",
    "train.debugger.yml",
    "smdebug/request.json",
    "configs/sm-debug-config.yaml",
    "Debugger/Job.YAML",
    "ml/sm_debug/bert.yaml",
]
OTHER_NAMES = [
    ".github/workflows/ci.yml",
    "package.json",
    "docker-compose.yaml",
    "debugger.py",
    "tsconfig.json",
    ".pre-commit-config.yaml",
]
#: documents holding training jobs, under their usual names: the validate hook takes them without renaming
DOCUMENT_NAMES = ["workflows/train.asl.json", "workflows/train.asl.yaml", "infra/template.yaml", "cfn/stack.json",
                  "stack.template.yml", "main.tf", "terraform/train.tf.json", "pipeline/definition.json"]
#: what the lint hook reads, and the validate hook leaves to it
SOURCE_NAMES = ["launch.py", "notebooks/train.ipynb", "debugger.py"]

#: a GitHub Actions workflow command (docs.github.com "Workflow commands for GitHub Actions")
ANNOTATION = re.compile(r"^::(error|warning|notice) file=[^,:]+(,line=\d+(,col=\d+)?)?,title=[^:]*::.*$")


@pytest.fixture(scope="module")
def hook():
    with open(os.path.join(ROOT, ".pre-commit-hooks.yaml"), encoding="utf-8") as f:
        entries = {entry["id"]: entry for entry in yaml.safe_load(f)}
    return entries["sm-debug-config-validate"]


def run(capsys, *argv):
    code = cli_module.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def hooks():
    with open(os.path.join(ROOT, ".pre-commit-hooks.yaml"), encoding="utf-8") as f:
        return {entry["id"]: entry for entry in yaml.safe_load(f)}


def _takes(hook, name):
    """Whether pre-commit hands the file ``name`` to ``hook`` (its types by name, as pre-commit's identify says)."""
    identify = pytest.importorskip("identify.identify", reason="identify comes with pre-commit (the test extra)")
    tags = identify.tags_from_filename(name)
    return (bool(tags & set(hook.get("types_or", tags))) and set(hook.get("types", [])) <= tags
            and not tags & set(hook.get("exclude_types", [])) and bool(re.search(hook.get("files", ""), name))
            and not re.search(hook.get("exclude", "^$"), name))


@pytest.mark.parametrize("hook_id", ["sm-debug-config-validate", "sm-debug-config-lint"])
def test_hook_entry_is_the_installed_command(hooks, hook_id):
    parser = configparser.ConfigParser()
    parser.read(os.path.join(ROOT, "setup.cfg"))
    scripts = [
        line.split("=")[0].strip()
        for line in parser["options.entry_points"]["console_scripts"].splitlines()
        if line.strip()
    ]
    command, subcommand, *flags = shlex.split(hooks[hook_id]["entry"])
    assert command in scripts and subcommand == hook_id.rsplit("-", 1)[1]
    assert flags == ["--force-exclude"]  # pre-commit names every file: exclude in pyproject.toml still applies
    assert hooks[hook_id]["language"] == "python"
    assert hooks[hook_id]["verbose"] is True  # pre-commit prints a passing hook's output (its warnings) only so


def test_the_hooks_environment_has_the_terraform_extra(hooks):
    # pre-commit runs `pip install . <additional_dependencies>` in its clone: ".[terraform]" brings python-hcl2 for
    # .tf files (tests/cli/test_precommit.py runs it); one list for both hooks, so pre-commit makes one environment
    parser = configparser.ConfigParser()
    parser.read(os.path.join(ROOT, "setup.cfg"))
    assert "python-hcl2" in parser["options.extras_require"]["terraform"]
    assert {tuple(hook.get("additional_dependencies", ())) for hook in hooks.values()} == {(".[terraform]",)}


@pytest.mark.parametrize("name", CONFIG_NAMES + [n for n in OTHER_NAMES if n not in SOURCE_NAMES] + DOCUMENT_NAMES)
def test_validate_hook_takes_yaml_json_and_terraform_of_any_name(hook, name):
    assert _takes(hook, name)


@pytest.mark.parametrize("name", SOURCE_NAMES)
def test_python_and_notebooks_go_to_the_lint_hook(hooks, name):
    assert not _takes(hooks["sm-debug-config-validate"], name)
    assert _takes(hooks["sm-debug-config-lint"], name)


def test_ordinary_repository_files_are_skipped_not_failed(capsys, tmp_path):
    workflow = tmp_path / "ci.yml"
    workflow.write_text("name: ci\non: [push]\njobs:\n  test: {runs-on: ubuntu-latest, steps: [{run: make}]}\n")
    package = tmp_path / "package.json"
    package.write_text(json.dumps({"name": "app", "version": "1.0.0", "scripts": {"test": "jest"}}))
    listing = tmp_path / "list.yaml"
    listing.write_text("- a\n- b\n")
    empty = tmp_path / "empty.yaml"
    empty.write_text("# nothing yet\n")
    files = [str(p) for p in (workflow, package, listing, empty)]
    code, out, err = run(capsys, "validate", *files)
    assert code == 0 and err == ""
    assert out == "4 files: 0 errors, 0 warnings, 0 infos, 4 skipped (not Debugger config; --verbose says why)\n"
    code, out, err = run(capsys, "validate", "--verbose", *files)
    assert code == 0 and out.endswith("4 skipped\n")
    assert [line.split(": skipped: ")[0] for line in err.splitlines()] == [f"sm-debug-config: {f}" for f in files]
    assert "name" in err.splitlines()[0]  # says which keys it found
    code, out, _ = run(capsys, "validate", "--format", "json", *files)
    payload = json.loads(out)
    assert payload["skipped"] == 4 and all(entry["skipped"] for entry in payload["files"])
    code, out, _ = run(capsys, "validate", "--format", "github", *files)
    assert code == 0 and out == ""


def test_a_config_key_makes_a_document_a_config_file(capsys, tmp_path):
    # one known key is enough: the unknown ones are then findings, not a reason to skip
    path = tmp_path / "job.debugger.yaml"
    path.write_text("name: x\nrules: [Overfit]\n")
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 1 and f"{path}:1:1: error SMD002" in out


def test_workflow_example_is_valid_yaml_and_checks_what_the_hooks_check(hook, hooks):
    with open(WORKFLOW, encoding="utf-8") as f:
        workflow = yaml.safe_load(f)
    steps = workflow["jobs"]["check"]["steps"]
    runs = [step["run"] for step in steps if "sm-debug-config " in step.get("run", "")]
    for command in ("validate", "lint"):  # each walks the repository, once for code scanning, once as annotations
        scripts = [script for script in runs if f"sm-debug-config {command} " in script]
        assert [re.search(r"--format (\w+)", script).group(1) for script in scripts] == ["sarif", "github"]
        assert all(re.search(rf"sm-debug-config {command} [^>]*--verbose \.( |$)", script) for script in scripts)
    # the walk reads what each hook takes (validate: READS["validate"]; lint: .py, .ipynb), under any name
    for name in CONFIG_NAMES + DOCUMENT_NAMES:
        assert _takes(hook, name) and name.lower().endswith(READS["validate"][0]), name
    for name in SOURCE_NAMES:
        assert _takes(hooks["sm-debug-config-lint"], name) and name.endswith(READS["lint"][0]), name
    assert ".github/" not in os.path.relpath(WORKFLOW, ROOT)  # an example: it does not run in this repository


def test_workflow_example_uploads_a_sarif_log_per_command_and_falls_back_to_annotations():
    with open(WORKFLOW, encoding="utf-8") as f:
        workflow = yaml.safe_load(f)
    steps = workflow["jobs"]["check"]["steps"]
    assert workflow["jobs"]["check"]["permissions"]["security-events"] == "write"
    written = {}  # the SARIF file each command writes
    for step in steps:
        found = re.search(r"sm-debug-config (\w+) --format sarif .*> (\S+\.sarif)$", step.get("run", ""), re.M)
        if found:
            written[found.group(2)] = found.group(1)
            first = found.group(1) == "validate"  # lint runs also when validate failed
            assert step["if"] == ("" if first else "always() && ") + "env.SARIF == 'true'"
    assert sorted(written.values()) == ["lint", "validate"]
    uploads = [step for step in steps if step.get("uses", "").startswith("github/codeql-action/upload-sarif@")]
    assert [step["uses"].split("@")[1] for step in uploads] == ["v3", "v3"]
    assert sorted(step["with"]["sarif_file"] for step in uploads) == sorted(written)
    assert len({step["with"]["category"] for step in uploads}) == 2  # neither replaces the other's alerts
    assert all(step["if"].startswith("always() && env.SARIF == 'true'") for step in uploads)
    fallback = [step for step in steps if "--format github" in step.get("run", "")]
    assert [step["if"] for step in fallback] == ["env.SARIF != 'true'", "always() && env.SARIF != 'true'"]
    assert [re.search(r"sm-debug-config (\w+)", step["run"]).group(1) for step in fallback] == ["validate", "lint"]
    assert "fork" in workflow["env"]["SARIF"]  # a fork's pull request cannot upload: annotations there


def test_github_format_is_what_the_workflow_relies_on(capsys, tmp_path):
    config = tmp_path / "job.debugger.yaml"
    config.write_text(
        "region: us-east-1\nrules: [Overfit, Overfit]\nprofiler_config: {system_monitor_interval_millis: 250}\n"
    )
    broken = tmp_path / "broken.debugger.yaml"
    broken.write_text("rules: [Overfit\n")
    code, out, _ = run(capsys, "validate", "--format", "github", str(config), str(broken))
    assert code == 2
    lines = out.splitlines()
    assert len(lines) >= 3 and all(ANNOTATION.match(line) for line in lines), lines
    assert {line.split(" ", 1)[0] for line in lines} >= {"::error", "::warning"}
    assert all(",line=" in line and ",col=" in line for line in lines)
