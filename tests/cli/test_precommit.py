"""The hooks of ``.pre-commit-hooks.yaml`` run by a real ``pre-commit run --all-files`` on a scratch repository.

pre-commit installs the hooks as users get them: it clones a repository (here a scratch commit of this
checkout's package files, hooks file and setup) at a commit and pip-installs it into an environment of its
own, from the package index (about 20-40 s the first time; PRE_COMMIT_HOME is a temporary directory, so
every run pays it once). Then: a repository whose files have only warnings prints them and passes; a
state machine, a CloudFormation template, Terraform JSON and a one-resource ``main.tf`` (HCL, read by
python-hcl2, which the hooks' own environment installs) are checked under their own names; an error fails
the commit, and nothing else does. Slow (marked so): ``scripts/test.sh`` runs it; the dependency-range runs skip it.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List

import pytest

from tests.repo_scripts import ROOT

pytestmark = pytest.mark.slow

pytest.importorskip("pre_commit", reason="pre-commit is in the test extra")

#: What ``pip install .`` of the hooks' repository needs: the package, its setup and the hooks file.
PACKAGE_FILES = ("setup.cfg", "setup.py", "pyproject.toml", "MANIFEST.in", "README.md", ".pre-commit-hooks.yaml",
                 "sm_debug_config", "rule_configs")
DOCS = Path(ROOT) / "tests" / "data" / "documents"


def _git(cwd: Path, *args: str) -> str:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@example.com", GIT_CONFIG_NOSYSTEM="1", HOME=str(cwd))
    done = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def _hooks_repository(where: Path) -> str:
    """A git repository holding this checkout's package as it is now (committed or not); its commit."""
    for name in PACKAGE_FILES:
        source = Path(ROOT) / name
        if source.is_dir():
            shutil.copytree(source, where / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copyfile(source, where / name)
    _git(where, "init", "-q")
    _git(where, "add", "-A")
    _git(where, "commit", "-q", "-m", "the checkout under test")
    return _git(where, "rev-parse", "HEAD")


def _fixed(name: str) -> str:
    """A document of tests/data/documents without its seeded error (save_interval '0'): only infos are left."""
    return (DOCS / name).read_text(encoding="utf-8").replace('{"save_interval": "0"}', '{"save_interval": "100"}')


#: A one-resource Terraform configuration in HCL: a 300 ms profiling interval (SMD144, a warning) and a
#: save_interval the test turns into an error.
MAIN_TF = """\
resource "aws_sagemaker_training_job" "train" {
  training_job_name = "debugger-train"
  role_arn          = "arn:aws:iam::111122223333:role/sagemaker"

  algorithm_specification {
    training_image      = "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:1.13.1-gpu-py39"
    training_input_mode = "File"
  }

  output_data_config {
    s3_output_path = "s3://my-bucket/output"
  }

  resource_config {
    instance_type     = "ml.g5.xlarge"
    instance_count    = 1
    volume_size_in_gb = 30
  }

  stopping_condition {
    max_runtime_in_seconds = 86400
  }

  debug_hook_config {
    s3_output_path = "s3://my-bucket/debug"
    hook_parameters = {
      save_interval = "100"
    }
  }

  profiler_config {
    s3_output_path                     = "s3://my-bucket/profiler"
    profiling_interval_in_milliseconds = 300
  }
}
"""


def _write(repo: Path, files: Dict[str, str]) -> None:
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text, encoding="utf-8")


def _pre_commit(repo: Path, home: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PRE_COMMIT_HOME=str(home), SKIP="", PRE_COMMIT_COLOR="never", NO_COLOR="1")
    env.pop("PYTHONPATH", None)
    _git(repo, "add", "-A")
    return subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "never"],
                          cwd=repo, env=env, capture_output=True, text=True, timeout=600)


def _lines(output: str, *parts: str) -> List[str]:
    return [line for line in output.splitlines() if all(part in line for part in parts)]


def test_pre_commit_shows_warnings_and_fails_on_errors(tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    rev = _hooks_repository(hooks)
    repo = tmp_path / "project"
    repo.mkdir()
    _git(repo, "init", "-q")
    examples, lint = Path(ROOT) / "examples", Path(ROOT) / "tests" / "data" / "lint"
    _write(repo, {
        ".pre-commit-config.yaml": f"repos:\n  - repo: {hooks}\n    rev: {rev}\n    hooks:\n"
                                   "      - id: sm-debug-config-validate\n      - id: sm-debug-config-lint\n",
        "sagemaker/job.yaml": (examples / "mistakes" / "typos.yaml").read_text(encoding="utf-8"),  # SMD120 warning
        "workflows/train.asl.json": _fixed("stepfunctions-nested.asl.json"),  # infos only
        "infra/stack.yaml": _fixed("cloudformation-statemachine.yaml"),  # a template named as any file
        "infra/main.tf.json": _fixed("terraform-training.tf.json"),
        "terraform/main.tf": MAIN_TF,  # HCL: needs python-hcl2 in the hook's environment
        "launch/train.py": (lint / "suppress.py").read_text(encoding="utf-8"),  # lint warnings SMD120, SMD182
        "package.json": '{"name": "web", "version": "1.0.0"}\n',  # no Debugger configuration: skipped
        "notes.md": "nothing to check\n",
        # exclude in pyproject.toml applies to the files pre-commit names (the hooks pass --force-exclude)
        "pyproject.toml": '[tool.sm-debug-config]\nexclude = ["generated"]\n',
        "generated/job.json": (DOCS / "terraform-training.tf.json").read_text(encoding="utf-8"),  # an error
    })
    passing = _pre_commit(repo, tmp_path / "cache")
    out = passing.stdout + passing.stderr
    assert passing.returncode == 0, out
    assert _lines(out, "sagemaker/job.yaml:13:7: warning SMD120")
    assert _lines(out, "launch/train.py:9:64: warning SMD120")
    assert _lines(out, "terraform/main.tf:33:5: warning SMD144")
    for name in ("workflows/train.asl.json:29:25", "infra/stack.yaml:43:19", "infra/main.tf.json:17:11"):
        assert _lines(out, name, "info SMD001"), (name, out)  # checked under its own name
    assert not _lines(out, "package.json") and not _lines(out, "notes.md")
    assert _lines(out, "generated/job.json: not checked: excluded by 'generated'", "--force-exclude")
    assert not _lines(out, "Traceback")

    _write(repo, {name: (DOCS / source).read_text(encoding="utf-8") for name, source in (
        ("workflows/train.asl.json", "stepfunctions-nested.asl.json"),
        ("infra/stack.yaml", "cloudformation-statemachine.yaml"),
        ("infra/main.tf.json", "terraform-training.tf.json"),
    )})
    _write(repo, {"terraform/main.tf": MAIN_TF.replace('save_interval = "100"', 'save_interval = "0"')})
    failing = _pre_commit(repo, tmp_path / "cache")
    out = failing.stdout + failing.stderr
    assert failing.returncode == 1, out
    for name in ("workflows/train.asl.json:31:84", "infra/stack.yaml:43:78", "infra/main.tf.json:19:72",
                 "terraform/main.tf:27:7"):
        assert _lines(out, name, "error SMD132"), (name, out)
    assert _lines(out, "sagemaker/job.yaml:13:7: warning SMD120")
    assert not _lines(out, "python-hcl2")  # the failure is the findings', not a missing extra
