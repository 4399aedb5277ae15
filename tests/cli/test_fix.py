"""``--fix``, ``--unsafe-fixes``, ``--diff``, ``--fix-only`` of validate and lint: the loop, writing, the outputs.

The checks here are hand-made (:func:`_check`): each finds its mistake in the TEXT it is given and carries a fix
with edits at the mistake's span, as a source's ``Job.edit`` places them. The command's check of a file is replaced
by it, so that what is tested is the command: which fixes it takes, how it loops, what it writes and prints.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from typing import List

import pytest

from sm_debug_config import cli
from sm_debug_config.cli import fixing
from sm_debug_config.cli import lint as lint_command
from sm_debug_config.cli import validate as validate_command
from sm_debug_config.configfile import text as config_text
from sm_debug_config.findings import CHECKS
from sm_debug_config.fixes import PREFIX, RENAME, SAFE, SET, UNSAFE, Change, Edit, Fix
from sm_debug_config.reports import FileReport, Placed, Report
from tests.sarifhelpers import load as load_sarif

#: A number where the API takes a string (SMD100, safe), a misspelt parameter with one candidate (SMD120, safe),
#: an S3 path without its scheme (SMD100, unsafe).
NUMBER = re.compile(r'"num_steps": (\d+)')
MISSPELT = re.compile(r'"(threshhold)"')
NO_SCHEME = re.compile(r'"RuleSource": "(?!s3://)')

BAD = """{
  "DebugRuleConfigurations": [
    {"RuleParameters": {"num_steps": 20, "threshhold": "0.1"},
     "RuleSource": "bucket/rules.py"}
  ]
}
"""
SAFE_FIXED = BAD.replace('"num_steps": 20', '"num_steps": "20"').replace("threshhold", "threshold")
ALL_FIXED = SAFE_FIXED.replace('"bucket/', '"s3://bucket/')


def _position(text: str, index: int):
    return text.count("\n", 0, index) + 1, index - (text.rfind("\n", 0, index) + 1) + 1


def _findings(text: str) -> List:
    """The hand-made checks' findings of ``text``, each with its fix and edits, placed."""
    out = []
    for match in NUMBER.finditer(text):
        fix = Fix(SAFE, f"write {match.group(1)} as the string '{match.group(1)}'",
                  [Change(SET, ("num_steps",), match.group(1))],
                  [Edit(match.start(1), match.end(1), f'"{match.group(1)}"')])
        out.append(CHECKS["SMD100"].at(("num_steps",), "a number", fix=fix).replace(
            line=_position(text, match.start(1))[0], column=_position(text, match.start(1))[1]))
    for match in MISSPELT.finditer(text):
        fix = Fix(SAFE, "rename it threshold", [Change(RENAME, ("threshhold",), "threshold")],
                  [Edit(match.start(1), match.end(1), "threshold")])
        out.append(CHECKS["SMD120"].at(("threshhold",), "did you mean 'threshold'?", fix=fix).replace(
            line=_position(text, match.start(1))[0], column=_position(text, match.start(1))[1]))
    for match in NO_SCHEME.finditer(text):
        fix = Fix(UNSAFE, "put s3:// before it", [Change(PREFIX, ("RuleSource",), "s3://")],
                  [Edit(match.end(), match.end(), "s3://")])
        out.append(CHECKS["SMD100"].at(("RuleSource",), "not in S3", fix=fix).replace(
            line=_position(text, match.end())[0], column=_position(text, match.end())[1]))
    return sorted(out, key=lambda f: (f.line, f.column))


CALLS: List[str] = []


def _check(path: str, text: str, size: int, args: argparse.Namespace) -> FileReport:
    """validate's check of a file's text, hand-made (its findings suppressed by ``ignore`` as the engine does)."""
    CALLS.append(text)
    ignored = set(args.ignore or ())
    every = _findings(text)
    return FileReport(path, [f for f in every if f.code not in ignored],
                      [f.replace(suppressed=True) for f in every if f.code in ignored])


@pytest.fixture
def hand_made(monkeypatch):
    CALLS.clear()
    monkeypatch.setattr(validate_command, "_validate_text", _check)
    return CALLS


def run(capsys, *argv):
    code = cli.main(["validate", "--isolated", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def job(tmp_path):
    path = tmp_path / "job.json"
    path.write_text(BAD)
    os.chmod(path, 0o640)
    return path


def test_without_fix_the_fixable_findings_are_marked_and_counted(capsys, hand_made, job):
    code, out, err = run(capsys, str(job))
    assert code == 1 and job.read_text() == BAD
    assert "error SMD100 [*] /num_steps" in out and "error SMD100 /RuleSource" in out
    assert out.endswith("1 file: 2 errors, 1 warning, 0 infos\n")  # the summary stays the last line
    assert err == "sm-debug-config: [*] 2 fixable with --fix (1 hidden fix can be enabled with --unsafe-fixes)\n"
    assert len(hand_made) == 1  # no fix: checked once


def test_unsafe_fixes_alone_are_said_as_ruff_says_them(capsys, hand_made, job):
    """A run whose findings have unsafe fixes only says how to enable them (else a user never learns they exist)."""
    job.write_text(SAFE_FIXED)
    code, out, err = run(capsys, str(job))
    assert code == 1 and "[*]" not in out
    assert err == "sm-debug-config: no fixes available (1 hidden fix can be enabled with --unsafe-fixes)\n"
    code, out, err = run(capsys, "--fix-only", str(job))  # as ruff's "Fixed 1 error (1 additional fix available...)"
    assert code == 0 and err == "sm-debug-config: 1 hidden fix can be enabled with --unsafe-fixes\n"
    assert out == "1 file: 0 fixed (--fix-only: the findings left are not reported)\n"


def test_diff_writes_nothing_and_shows_what_would_change(capsys, hand_made, job):
    before = os.stat(job)
    code, out, err = run(capsys, "--diff", str(job))
    assert job.read_text() == BAD and os.stat(job).st_mtime_ns == before.st_mtime_ns
    assert code == 1 and err == "sm-debug-config: would apply 2 fixes\n"
    assert out.startswith(f"--- {job}\n+++ {job}\n@@ ")
    assert '-    {"RuleParameters": {"num_steps": 20, "threshhold": "0.1"},\n' in out
    assert '+    {"RuleParameters": {"num_steps": "20", "threshold": "0.1"},\n' in out
    assert not [name for name in os.listdir(job.parent) if name != "job.json"]


def test_fix_writes_the_safe_fixes_and_a_second_fix_changes_nothing(capsys, hand_made, job):
    code, out, err = run(capsys, "--fix", str(job))
    assert job.read_text() == SAFE_FIXED
    assert os.stat(job).st_mode & 0o777 == 0o640  # the mode kept
    assert hand_made[-1] == SAFE_FIXED  # the fixed TEXT was checked again (not the file)
    assert code == 1 and "SMD100 /RuleSource" in out and "/num_steps" not in out
    assert out.endswith("1 file: 1 error, 0 warnings, 0 infos (2 fixed, 1 remaining)\n")
    assert err == "sm-debug-config: no fixes available (1 hidden fix can be enabled with --unsafe-fixes)\n"
    mtime = os.stat(job).st_mtime_ns
    hand_made.clear()
    code, out, _ = run(capsys, "--fix", str(job))
    assert job.read_text() == SAFE_FIXED and os.stat(job).st_mtime_ns == mtime  # not written again
    assert "(0 fixed, 1 remaining)" in out and len(hand_made) == 1


def test_unsafe_fixes_only_with_unsafe_fixes(capsys, hand_made, job):
    code, out, _ = run(capsys, "--fix", "--unsafe-fixes", str(job))
    assert job.read_text() == ALL_FIXED and code == 0
    assert out == "1 file: 0 errors, 0 warnings, 0 infos (3 fixed, 0 remaining)\n"


def test_unfixable_codes_are_reported_not_fixed(capsys, hand_made, job):
    code, out, _ = run(capsys, "--fix", "--unfixable", "SMD100,SMD12", str(job))
    assert job.read_text() == BAD and "(0 fixed, 3 remaining)" in out
    assert "[*]" not in out


def test_the_project_turns_fixing_on_and_names_unfixable_codes(capsys, hand_made, job):
    (job.parent / "pyproject.toml").write_text('[tool.sm-debug-config]\nfix = true\nunfixable = ["SMD120"]\n')
    assert cli.main(["validate", str(job)]) == 1
    out = capsys.readouterr().out
    assert job.read_text() == BAD.replace('"num_steps": 20', '"num_steps": "20"')
    assert "(1 fixed, 2 remaining)" in out and "SMD120 /threshhold" in out
    job.write_text(BAD)
    assert cli.main(["validate", "--no-fix", str(job)]) == 1 and job.read_text() == BAD  # the flag wins
    capsys.readouterr()


def test_a_suppressed_finding_is_not_fixed(capsys, hand_made, job):
    code, out, _ = run(capsys, "--fix", "--ignore", "SMD100", str(job))
    assert '"num_steps": 20' in job.read_text() and '"threshold"' in job.read_text()
    # what was fixed and what remains follow the counts of findings, not the suppressed ones they could be read as
    assert out.endswith("1 file: 0 errors, 0 warnings, 0 infos (1 fixed, 0 remaining), 2 suppressed\n")


def test_a_file_changed_on_disk_since_it_was_read_is_not_written(capsys, monkeypatch, job):
    someone_else = BAD.replace("0.1", "0.2")

    def check_while_someone_edits(path, text, size, args):
        if not CALLS:
            job.write_text(someone_else)  # while the first check runs, another program saves the file
        return _check(path, text, size, args)

    CALLS.clear()
    monkeypatch.setattr(validate_command, "_validate_text", check_while_someone_edits)
    code, out, err = run(capsys, "--fix", str(job))
    assert code == 2 and job.read_text() == someone_else
    assert f"{job}: not fixed: it changed on disk since it was read" in err
    assert "SMD100 [*] /num_steps" in out  # what was read is reported as it was
    assert not [name for name in os.listdir(job.parent) if name != "job.json"]


def _immutable(path) -> bool:
    """Make ``path`` a file no one can replace, root included (``chattr +i``); False where that cannot be done."""
    chattr = shutil.which("chattr")
    return bool(chattr) and subprocess.run([chattr, "+i", str(path)], capture_output=True).returncode == 0


def test_a_write_that_fails_leaves_the_original_whole(capsys, hand_made, job):
    if not _immutable(job):
        pytest.skip("chattr +i is not available here")
    try:
        code, _, err = run(capsys, "--fix", str(job))
    finally:
        subprocess.run(["chattr", "-i", str(job)], check=True)
    assert code == 2 and job.read_text() == BAD
    assert f"{job}: not fixed: cannot write it:" in err
    assert sorted(os.listdir(job.parent)) == ["job.json"]  # the temporary file is gone


def test_standard_input_is_not_fixed_in_place_but_its_diff_is_shown(capsys, hand_made, monkeypatch):
    monkeypatch.setattr(config_text, "_STDIN", [BAD.encode()])  # what standard input held, read once
    code, _, err = run(capsys, "--fix", "-")
    assert code == 2 and "standard input cannot be fixed in place" in err
    code, out, _ = run(capsys, "--diff", "-")
    assert code == 1 and '+    {"RuleParameters": {"num_steps": "20"' in out


def test_fix_only_exits_0_and_reports_what_was_fixed(capsys, hand_made, job):
    code, out, _ = run(capsys, "--fix-only", str(job))
    assert code == 0 and job.read_text() == SAFE_FIXED
    assert out == "1 file: 2 fixed (--fix-only: the findings left are not reported)\n"
    code, out, _ = run(capsys, "--fix-only", "--format", "json", str(job))
    document = json.loads(out)
    assert code == 0 and document["files"][0]["findings"] == [] and document["fixed"] == 0


def test_json_carries_each_fix_with_its_edits_placed(capsys, hand_made, job):
    code, out, _ = run(capsys, "--format", "json", str(job))
    document = json.loads(out)
    number = next(f for f in document["files"][0]["findings"] if f["path"] == "/num_steps")
    assert number["fix"] == {
        "applicability": "safe", "message": "write 20 as the string '20'",
        "changes": [{"kind": "set", "path": "/num_steps", "value": "20"}],
        "edits": [{"content": '"20"', "start": 70, "end": 72, "location": {"line": 3, "column": 38},
                   "end_location": {"line": 3, "column": 40}}]}
    scheme = next(f for f in document["files"][0]["findings"] if f["path"] == "/RuleSource")
    assert scheme["fix"]["applicability"] == "unsafe" and scheme["fix"]["edits"][0]["start"] == BAD.index("bucket/")
    assert (document["fixed"], document["fixable"], document["hidden_fixes"]) == (0, 2, 1)
    code, out, _ = run(capsys, "--format", "json", "--fix", "--unsafe-fixes", str(job))
    document = json.loads(out)
    assert (document["fixed"], document["fixable"], document["hidden_fixes"]) == (3, 0, 0)


def test_sarif_carries_each_fix_as_replacements(capsys, hand_made, job):
    code, out, _ = run(capsys, "--format", "sarif", str(job))
    log = load_sarif(out)  # checked against the SARIF 2.1.0 schema
    results = {result["message"]["text"].split(":")[0]: result for result in log["runs"][0]["results"]}
    (fix,) = results["/num_steps"]["fixes"]
    (change,) = fix["artifactChanges"]
    assert fix["description"] == {"text": "write 20 as the string '20'"}
    assert change["artifactLocation"] == results["/num_steps"]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert change["replacements"] == [{"deletedRegion": {"startLine": 3, "startColumn": 38, "endLine": 3,
                                                         "endColumn": 40}, "insertedContent": {"text": '"20"'}}]
    (insert,) = results["/RuleSource"]["fixes"][0]["artifactChanges"][0]["replacements"]
    assert insert["deletedRegion"]["startColumn"] == insert["deletedRegion"]["endColumn"]  # an insertion
    assert results["/RuleSource"]["fixes"][0]["properties"] == {"applicability": "unsafe"}


def test_github_annotations_say_what_is_fixable(capsys, hand_made, job):
    _, out, _ = run(capsys, "--format", "github", str(job))
    lines = out.splitlines()
    assert any("/num_steps" in line and line.endswith("(fixable with --fix)") for line in lines)
    assert not any("/RuleSource" in line and "fixable" in line for line in lines)


# -- the loop itself


def test_overlapping_fixes_are_applied_in_later_passes_and_the_loop_stops():
    def check(text):
        findings = []
        if "aa" in text:  # two fixes of one span: one pass takes one
            at = text.index("aa")
            findings += [CHECKS["SMD120"].at((), "a", fix=Fix(SAFE, "a", [], [Edit(at, at + 2, "b")])),
                         CHECKS["SMD120"].at((), "a", fix=Fix(SAFE, "a", [], [Edit(at, at + 2, "c")]))]
        return FileReport("t", findings)

    text, report, fixed = fixing.fix_loop("xaaxaa", check("xaaxaa"), check, fixing.Fixing(write=True))
    assert (text, fixed, report.findings) == ("xbxb", 2, ())

    def endless(text):  # a fix that always finds something new stops at the pass limit
        return FileReport("t", [CHECKS["SMD120"].at((), "a", fix=Fix(SAFE, "a", [], [Edit(0, 0, "+")]))])

    text, report, fixed = fixing.fix_loop("", endless(""), endless, fixing.Fixing(write=True))
    assert text == "+" * fixing.MAX_PASSES and fixed == fixing.MAX_PASSES and len(report.findings) == 1


def test_a_fix_that_breaks_the_text_is_undone():
    def check(text):
        if "!" in text:
            return FileReport("t", error=validate_command.Unreadable("t:1:1: not JSON"))
        return FileReport("t", [CHECKS["SMD120"].at((), "a", fix=Fix(SAFE, "a", [], [Edit(0, 1, "!")]))])

    text, report, fixed = fixing.fix_loop("{}", check("{}"), check, fixing.Fixing(write=True))
    assert text == "{}" and fixed == 0 and "a fix made the file unreadable" in report.error.message


def test_a_report_marks_fixable_findings_for_every_format():
    fix = Fix(SAFE, "a", [], [Edit(0, 1, "b")])
    report = fixing.marked(FileReport("t", [CHECKS["SMD120"].at((), "a", fix=fix)]), fixing.Fixing())
    assert report.findings == (Placed(report.findings[0].finding, None, True),)
    assert Report([report]).summary.fixable == 1


# -- lint


LAUNCHER = '''# -*- coding: latin-1 -*-
from sagemaker.debugger import Rule, rule_configs
# caf\xe9
rules = [Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"threshhold": "0.1"})]
'''


def _lint_result(path: str, data: bytes, **options):
    """lint's result of a file, hand-made: each misspelt parameter of its text with a fix."""
    text = data.decode("latin-1")
    findings = []
    for match in re.finditer(r'"(threshhold)"', text):
        line, column = _position(text, match.start(1))
        fix = Fix(SAFE, "rename it threshold", [Change(RENAME, ("threshhold",), "threshold")],
                  [Edit(match.start(1), match.end(1), "threshold")])
        findings.append(CHECKS["SMD120"].at(("threshhold",), "did you mean", fix=fix).replace(line=line, column=column))
    return {"file": path, "findings": findings, "suppressed": [], "notes": []}


def test_lint_fix_keeps_the_encoding_of_a_python_source(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(lint_command, "lint_data", _lint_result)
    path = tmp_path / "launch.py"
    path.write_bytes(LAUNCHER.encode("latin-1"))
    assert cli.main(["lint", "--isolated", "--diff", str(path)]) == 1
    assert path.read_bytes() == LAUNCHER.encode("latin-1")
    assert '+rules = [Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"threshold"' in (
        capsys.readouterr().out)
    assert cli.main(["lint", "--isolated", "--fix", str(path)]) == 0
    assert path.read_bytes() == LAUNCHER.replace("threshhold", "threshold").encode("latin-1")
    assert "(1 fixed, 0 remaining)" in capsys.readouterr().out


def test_lint_reports_a_notebook_fix_it_cannot_write_yet(capsys, monkeypatch, tmp_path):
    def result(path, data, **options):
        fix = Fix(SAFE, "rename", [], [Edit(0, 1, "x", cell=0)])
        return {"file": path, "findings": [CHECKS["SMD120"].at((), "m", fix=fix)], "suppressed": [], "notes": [],
                "cells": [1]}

    monkeypatch.setattr(lint_command, "lint_data", result)
    monkeypatch.setitem(lint_command.WRITERS, ".ipynb", None)
    notebook = tmp_path / "nb.ipynb"
    written = json.dumps({"cells": [{"cell_type": "code", "source": ["a = 1\n"], "metadata": {}, "outputs": [],
                                     "execution_count": 1}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    notebook.write_text(written)
    assert cli.main(["lint", "--isolated", "--fix", str(notebook)]) == 0  # a warning
    assert notebook.read_text() == written and "(0 fixed, 1 remaining)" in capsys.readouterr().out


def test_lint_fix_on_files_with_nothing_to_fix_checks_each_once(capsys, monkeypatch, tmp_path):
    seen = []

    def result(path, data, **options):
        seen.append(path)
        return {"file": path, "findings": [], "suppressed": [], "notes": []}

    monkeypatch.setattr(lint_command, "lint_data", result)
    for n in range(3):
        (tmp_path / f"l{n}.py").write_text("from sagemaker.debugger import Rule\n")
    assert cli.main(["lint", "--isolated", "--fix", str(tmp_path)]) == 0
    assert len(seen) == 3
    capsys.readouterr()


def test_the_fix_flags_are_in_help():
    out = subprocess.run([sys.executable, "-m", "sm_debug_config", "validate", "--help"], capture_output=True,
                         text=True, env=dict(os.environ, COLUMNS="200")).stdout
    for flag in ("--fix", "--no-fix", "--unsafe-fixes", "--unfixable", "--diff", "--fix-only"):
        assert flag in out


# -- the real checks and sources, end to end

REQUEST = """{
  "DebugHookConfig": {"S3OutputPath": "s3://b/o", "HookParameters": {"save_interval": 100}},
  "DebugRuleConfigurations": [
    {"RuleConfigurationName": "LossNotDecreasing",
     "RuleEvaluatorImage": "503895931360.dkr.ecr.us-east-1.amazonaws.com/sagemaker-debugger-rules:latest",
     "RuleParameters": {"rule_to_invoke": "LossNotDecreasing", "num_steps": 20}}
  ]
}
"""
CONFIG = """# as written, comments kept
region: us-east-1
output_path: s3://my-bucket/out/
rules:
  - builtin: VanishingGradient
    rule_parameters:
      threshhold: 0.0000001   # the one we meant
"""


def test_a_request_and_a_config_file_are_fixed_in_one_run(capsys, tmp_path):
    request, config = tmp_path / "request.json", tmp_path / "job.yaml"
    request.write_text(REQUEST)
    config.write_text(CONFIG)
    code, out, _ = run(capsys, "--format", "sarif", str(request), str(config))
    log = load_sarif(out)
    assert code == 1 and any(result.get("fixes") for result in log["runs"][0]["results"])
    code, out, _ = run(capsys, "--fix", str(request), str(config))
    assert request.read_text() == REQUEST.replace('"save_interval": 100', '"save_interval": "100"').replace(
        '"num_steps": 20', '"num_steps": "20"')
    assert config.read_text() == CONFIG.replace("threshhold", "threshold")  # the comments kept
    assert code == 0 and "(3 fixed, 0 remaining)" in out  # save_interval: one finding (one problem, one answer)
    code, out, _ = run(capsys, "--fix", str(request), str(config))
    assert code == 0 and "(0 fixed, 0 remaining)" in out


def test_a_notebook_and_a_launcher_are_fixed_in_one_run_the_notebook_kept_outside_the_cell(capsys, tmp_path):
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Train\n"]},
        {"cell_type": "code", "execution_count": 1, "metadata": {},
         "outputs": [{"output_type": "stream", "name": "stdout", "text": ["ok\n"]}],
         "source": ["from sagemaker.debugger import Rule, rule_configs\n", 'params = {"threshhold": "0.1"}\n']},
        {"cell_type": "code", "execution_count": 2, "metadata": {"tags": ["x"]}, "outputs": [],
         "source": ["rules = [Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters=params)]\n"]},
    ]
    notebook = tmp_path / "train.ipynb"
    written = json.dumps({"cells": cells, "metadata": {"kernelspec": {"name": "python3"}}, "nbformat": 4,
                          "nbformat_minor": 5}, indent=1) + "\n"
    notebook.write_text(written)
    launcher = tmp_path / "launch.py"
    source = ("from sagemaker.debugger import Rule, rule_configs\n"
              "rules = [Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={'threshhold': '0.1'})]\n")
    launcher.write_text(source)
    assert cli.main(["lint", "--isolated", "--fix", str(notebook), str(launcher)]) == 0
    assert "(2 fixed, 0 remaining)" in capsys.readouterr().out
    assert notebook.read_text() == written.replace('\\"threshhold\\"', '\\"threshold\\"')  # outputs, metadata kept
    assert launcher.read_text() == source.replace("threshhold", "threshold")


def test_a_notebook_edit_s_cell_in_json_counts_as_its_finding_s_does(capsys, tmp_path):
    """JSON's ``cell`` of a finding counts code cells from 1 (markdown cells not counted); its fix's edits say their
    cell the same way, else a consumer applies them to another cell."""
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Train\n"]},
        {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [],
         "source": ["from sagemaker.debugger import Rule, rule_configs\n", "steps = 20\n"]},
        {"cell_type": "markdown", "metadata": {}, "source": ["## Rules\n"]},
        {"cell_type": "code", "execution_count": 2, "metadata": {}, "outputs": [],
         "source": ["from sagemaker.pytorch import PyTorch\n",
                    "rules = [Rule.sagemaker(rule_configs.vanishing_gradient(),\n",
                    "                        rule_parameters={'threshhold': '1'}),\n",
                    "         Rule.sagemaker(rule_configs.loss_not_decreasing(),\n",
                    "                        rule_parameters={'num_steps': steps})]\n",
                    "PyTorch(entry_point='t.py', framework_version='1.13', py_version='py39', rules=rules)\n"]},
    ]
    notebook = tmp_path / "train.ipynb"
    notebook.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1))
    cli.main(["lint", "--isolated", "--format", "json", str(notebook)])
    findings = json.loads(capsys.readouterr().out)["files"][0]["findings"]
    cells_of = {f["code"]: (f["cell"], [edit["cell"] for edit in f["fix"]["edits"]]) for f in findings if f.get("fix")}
    assert cells_of == {"SMD120": (2, [2]), "SMD100": (2, [1])}  # steps = 20 is in the first code cell


def test_a_notebook_with_a_cell_that_does_not_parse_gets_its_other_cells_fixed(capsys, tmp_path):
    """A half-written cell is said (exit 2) and left as it is; the findings of the other cells are marked [*] and
    --fix applies them, as the mark promises (a pass is undone only for an error the fixes made)."""
    cells = [
        {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [],
         "source": ["from sagemaker.debugger import Rule, rule_configs\n", "params = {'threshhold': '0.1'}"]},
        {"cell_type": "code", "execution_count": 2, "metadata": {}, "outputs": [], "source": ["def half(:\n"]},
        {"cell_type": "code", "execution_count": 3, "metadata": {}, "outputs": [],
         "source": ["rules = [Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters=params)]\n"]},
    ]
    notebook = tmp_path / "train.ipynb"
    written = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1) + "\n"
    notebook.write_text(written)
    assert cli.main(["lint", "--isolated", str(notebook)]) == 2
    out, err = capsys.readouterr()
    assert "SMD120 [*]" in out and "cell 2:1:" in err and "1 fixable with --fix" in err
    assert cli.main(["lint", "--isolated", "--fix", str(notebook)]) == 2
    out, err = capsys.readouterr()
    assert notebook.read_text() == written.replace("'threshhold'", "'threshold'")
    assert "(1 fixed, 1 remaining)" in out and "cell 2:1:" in err and "please report" not in err  # the cell left


def test_files_checked_in_worker_processes_are_fixed_there(capsys, tmp_path):
    for n in range(70):  # past the one-process threshold of -j (32 files a worker)
        (tmp_path / f"job{n:02}.yaml").write_text(CONFIG)
    code, out, _ = run(capsys, "--fix", "-j", "2", str(tmp_path))
    assert code == 0 and "(70 fixed, 0 remaining)" in out
    assert {path.read_text() for path in tmp_path.iterdir()} == {CONFIG.replace("threshhold", "threshold")}


def test_a_directory_that_takes_no_new_file_leaves_the_file_whole(capsys, hand_made, job):
    if not _immutable(job.parent):
        pytest.skip("chattr +i is not available here")
    try:
        code, _, err = run(capsys, "--fix", str(job))
    finally:
        subprocess.run(["chattr", "-i", str(job.parent)], check=True)
    assert code == 2 and job.read_text() == BAD and f"{job}: not fixed: cannot write beside it:" in err
    assert sorted(os.listdir(job.parent)) == ["job.json"]
