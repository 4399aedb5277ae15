"""``sm-debug-config plan`` with an SDK v3 launcher (tests/data/launchers/v3_trainer.py), in the v3 venv.

A subprocess, as in tests/operations/test_plan.py: ``mock_aws`` resets the moto backends of its process. Its
environment points ``AWS_ENDPOINT_URL`` at a closed port and names a missing ``AWS_PROFILE``, which
plan must keep from the launcher.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

pytest.importorskip("sagemaker.train", reason="sagemaker-train (SDK v3) is not installed")
pytest.importorskip("moto", reason="plan needs moto")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAUNCHER = os.path.join("tests", "data", "launchers", "v3_trainer.py")


def _plan(launcher: str) -> "subprocess.CompletedProcess[str]":
    """``plan --format json`` of ``launcher`` in a process of its own (its time printed, shown with -s)."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("AWS_")}
    env.update(AWS_ENDPOINT_URL="http://127.0.0.1:9", AWS_PROFILE="plan-test-no-such-profile", PYTHONPATH=ROOT)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "sm_debug_config", "plan", "--format", "json", launcher],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    print(f"plan of {launcher}: {time.perf_counter() - started:.1f} s")
    return done


def _train_line(launcher: str) -> int:
    with open(os.path.join(ROOT, launcher)) as handle:
        return next(n for n, text in enumerate(handle, 1) if text.strip().startswith("trainer.train("))


def test_v3_model_trainer_train_waiting_is_planned_at_the_train_line():
    done = _plan(LAUNCHER)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout)
    [job] = result["jobs"]
    line = _train_line(LAUNCHER)
    assert (job["operation"], job["line"]) == ("CreateTrainingJob", line)
    assert job["label"].startswith("v3-plan")
    assert job["image"] == "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.5.1-gpu-py311"
    assert (
        job["fields"]["DebugRuleConfigurations"][0]["RuleConfigurationName"] == "VanishingGradient"
    )  # attach()'s fields
    # the hook verdict of the request's image, for the rule and for the hook attach() added for it
    assert [(f["code"], f["path"], f["line"]) for f in job["findings"] if f["severity"] != "info"] == [
        ("SMD170", "/DebugHookConfig", line),
        ("SMD170", "/DebugRuleConfigurations", line),
    ]
    assert "train returned" in done.stderr
    assert result["summary"] == "1 training job planned: 0 errors, 2 warnings, 0 infos"
    # attach() validates the request it adds and warns: not printed again (plan reports the request's findings once)
    said = [line for line in done.stderr.splitlines()
            if line.startswith("sm-debug-config:") and not line.startswith("sm-debug-config: note: region")]
    assert "SMD170" not in done.stderr and said == []  # nothing but the note of the region assumed


STEP_RANGE = os.path.join("tests", "data", "launchers", "v3_step_range.py")


def test_v3_each_problem_once_at_the_request_pointer_and_the_train_line():
    done = _plan(STEP_RANGE)
    assert done.returncode == 1, done.stderr[-3000:]
    result = json.loads(done.stdout)
    line = _train_line(STEP_RANGE)
    [job] = result["jobs"]  # the error refused nothing: the job was started
    assert sorted((f["code"], f["path"], f["line"]) for f in job["findings"]) == [
        ("SMD124", "/DebugRuleConfigurations/0/RuleParameters", line),
        ("SMD132", "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/save_interval", line),
        ("SMD133", "/DebugHookConfig/HookParameters/start_step", line),
    ]
    assert result["findings"] == []  # not again at the constructors' lines, with their own pointers
    assert result["summary"] == "1 training job planned: 1 error, 2 warnings, 0 infos"  # three problems
    assert "train returned" in done.stderr and "SMD" not in done.stderr

def test_v3_builder_style_lint_agrees_with_plan():
    """Issue 37: a trainer configured with with_* methods keeps its image for lint as for the job plan runs."""
    from sm_debug_config.lint import lint_file

    builder = os.path.join("tests", "data", "launchers", "v3_builder.py")
    done = _plan(builder)
    assert done.returncode == 0, done.stderr[-3000:]
    [job] = json.loads(done.stdout)["jobs"]
    planned = sorted((f["code"], f["path"]) for f in job["findings"] if f["severity"] != "info")
    linted = lint_file(os.path.join(ROOT, builder))
    assert linted["notes"] == []
    assert sorted((f.code, f.pointer) for f in linted["findings"] if f.severity != "info") == planned
    assert {code for code, _ in planned} == {"SMD170", "SMD120"}
