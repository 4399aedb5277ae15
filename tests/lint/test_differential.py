"""Issue 30: the same mistakes, written as a config file, a notebook, an SDK v2 launcher, an SDK v3 launcher and a
state machine (``tests/data/differential/``, its README cites what each imitates), give the same codes in one run,
each finding at the line of the value it is about, whatever else is computed at run time. ``plan``, running the SDK v2
launchers, finds what lint finds in them: the same codes and severities, each problem once."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from collections import Counter
from typing import Any, Dict, List, Set

import pytest

from tests.placehelpers import cell_lines

HERE = os.path.join("tests", "data", "differential")

#: Each case: the codes of its independent mistakes, and for each code a text found on the line of the value.
CASES = {
    "pytorch_job": {
        "SMD132": "save_interval",
        "SMD120": "diff_percnt",
        "SMD154": "/opt/ml/output/tensorboard",
        "SMD170": None,  # the image and the hook together: placed at the hook and at the rules, not at one value
    },
    "tensorflow_job": {
        "SMD135": "save_intervall",
        "SMD130": "dense_[0-9+/kernel",
        "SMD101": "overfit",
        "SMD153": "tensors",
    },
}
#: The forms of a case, by file suffix, and the command that reads each.
FORMS = {".yaml": "validate", ".asl.json": "validate", ".ipynb": "lint", "_v2.py": "lint", "_v3.py": "lint"}


def _run(cli: Any, command: str, paths: List[str]) -> Dict[str, Any]:
    out = cli(command, "--format", "json", *paths)
    assert out.returncode == 1, out.stderr  # every case has an error
    return {entry["file"]: entry for entry in json.loads(out.stdout)["files"]}


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_form_gives_the_same_codes_each_at_its_value(cli, case):
    expected = CASES[case]
    paths = {suffix: os.path.join(HERE, case + suffix) for suffix in FORMS}
    results: Dict[str, Any] = {}
    for command in ("validate", "lint"):
        results.update(_run(cli, command, [p for s, p in paths.items() if FORMS[s] == command]))
    codes: Dict[str, Set[str]] = {}
    for suffix, path in paths.items():
        entry = results[path]
        assert "error" not in entry and "skipped" not in entry, entry
        codes[suffix] = {f["code"] for f in entry["findings"]}
        for finding in entry["findings"]:
            token = expected.get(finding["code"])
            if token is None:
                continue
            line = cell_lines(path, finding.get("cell"))[finding["line"] - 1]
            assert token.lower() in line.lower(), (suffix, finding, line)
    assert all(found == set(expected) for found in codes.values()), codes  # every mistake, nothing else, everywhere


def test_the_notebook_with_run_time_paths_says_what_it_did_not_check(cli):
    out = cli("lint", os.path.join(HERE, "pytorch_job.ipynb"))
    summary = out.stdout.splitlines()[-1]
    assert summary.startswith(
        "1 file: 2 errors, 3 warnings, 0 infos, 2 values computed at run time not checked"
    ), summary
    verbose = cli("lint", "--verbose", os.path.join(HERE, "pytorch_job.ipynb"))
    notes = [line for line in verbose.stderr.splitlines() if "SMD181" in line]
    assert len(notes) == 2, notes
    if hasattr(ast, "unparse"):  # Python 3.8 names no expression (lint.values.unparse)
        assert all("s3://{bucket}" in line for line in notes), notes


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _problems(findings: List[Dict[str, Any]]) -> "Counter[Any]":
    """How many findings of each code and severity."""
    return Counter((f["code"], f["severity"]) for f in findings)


@pytest.mark.sagemaker
@pytest.mark.parametrize("case", sorted(CASES))
def test_plan_of_the_sdk_v2_launcher_finds_what_lint_finds(cli, case, tmp_path):
    pytest.importorskip("sagemaker.estimator", reason="needs the SageMaker Python SDK v2 (extra 'sagemaker')")
    pytest.importorskip("moto", reason="plan needs moto")
    launcher = os.path.join(HERE, case + "_v2.py")
    (tmp_path / "train.py").write_text("print('training')\n")  # the entry point the launcher names, in its cwd
    env = {name: value for name, value in os.environ.items() if not name.startswith("AWS_")}
    env.update(PYTHONPATH=ROOT, SAGEMAKER_SUPPRESS_V2_WARNING="1")
    # a process of its own: moto's mock_aws resets the backends the session's moto server shares with this one
    done = subprocess.run([sys.executable, "-m", "sm_debug_config", "plan", "--format", "json",
                           os.path.join(ROOT, launcher)], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=600)
    planned = json.loads(done.stdout)
    [job] = planned["jobs"]
    assert planned["findings"] == [] and planned["error"] is None, done.stderr[-2000:]
    linted = _run(cli, "lint", [launcher])[launcher]["findings"]
    assert _problems(job["findings"]) == _problems(linted)  # one code, one severity, once per problem
    assert {f["code"] for f in job["findings"]} == set(CASES[case])
    assert (planned["errors"], planned["warnings"]) == (
        sum(f["severity"] == "error" for f in linted), sum(f["severity"] == "warning" for f in linted))


def test_lint_places_what_render_sends_as_written_at_the_value(cli):
    """Issue 36: a profiler rule while ProfilerConfig turns the profiler off is SMD160 (a warning) as
    ``validate`` of the request says, placed at the rules, never ``error SMD002 /`` without a line; the framework
    ``render()`` is given is the job's (SMD123 for TreeDepth on PyTorch)."""
    path = os.path.join("tests", "data", "one_pass", "profiler_rule_while_off.py")
    out = cli("lint", "--format", "json", path)
    assert out.returncode == 0, out.stdout
    [entry] = json.loads(out.stdout)["files"]
    lines = cell_lines(path, None)
    found = {f["code"]: (f["severity"], lines[f["line"] - 1][f["column"] - 1:]) for f in entry["findings"]}
    assert set(found) == {"SMD160", "SMD173", "SMD123"}  # SMD123: the framework render() is given
    # at render's rules argument, which holds the profiler rule (the Python API warns it where the rule was built)
    assert found["SMD160"][0] == "warning" and found["SMD160"][1].startswith("[ProfilerRule.sagemaker(")
    assert found["SMD123"][0] == "warning" and found["SMD123"][1].startswith("Rule.sagemaker(")
    assert found["SMD173"][1].startswith('"save_steps"')
