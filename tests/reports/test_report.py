"""The report of a run (sm_debug_config/reports/report.py) and the one entry that prints it in every format
(sm_debug_config/reports/__init__.py): the counts every format states, and what each format writes of one report."""
from __future__ import annotations

import io
import json

import pytest

from sm_debug_config.findings import CHECKS
from sm_debug_config.fixes import PREFIX, RENAME, SAFE, UNSAFE, Change, Edit, Fix
from sm_debug_config.reports import FORMATS, FileReport, Heading, Notice, Options, Placed, Report, Unreadable, write
from sm_debug_config.reports.sarif import sarif_log

WARNING = CHECKS["SMD120"].at(("DebugRuleConfigurations", 0), "unknown parameter").replace(line=3, column=5)
ERROR = CHECKS["SMD132"].at(("DebugHookConfig",), "save_interval must be positive").replace(line=7, column=9)
RUNTIME = CHECKS["SMD001"].at(("DebugHookConfig", "S3OutputPath"), "known at run time").replace(line=2, column=3)

REPORT = Report(
    [
        FileReport("job.yaml", [WARNING, ERROR, RUNTIME], suppressed=[WARNING], not_checked=1),
        FileReport("nb.ipynb", [Placed(WARNING, cell=2)]),
        FileReport("broken.yaml", error=Unreadable("broken.yaml:1:1: not YAML", 1, 1)),
        FileReport("ci.yaml", skipped="none of its keys is a config-file key"),
    ],
    [Notice("warning", "plan: the launcher exited with status 3", "launch.py", title="plan")],
)


def _written(report: Report, format: str, **options) -> tuple:  # noqa: A002
    out, err = io.StringIO(), io.StringIO()
    write(report, format, out, err, Options("sm-debug-config", "0.0", **options))
    return out.getvalue(), err.getvalue()


def test_the_summary_counts_each_severity_an_unreadable_file_suppressed_not_checked_and_skipped():
    summary = REPORT.summary
    assert summary.to_dict() == {"errors": 2, "warnings": 2, "infos": 1, "suppressed": 1, "skipped": 1,
                                 "not_checked": 1, "fixed": 0, "fixable": 0, "hidden_fixes": 0}
    assert [file.path for file in REPORT.unreadable] == ["broken.yaml"]


def test_every_format_writes_every_finding_and_the_notices_go_to_stderr():
    for format in FORMATS:  # noqa: A001
        out, err = _written(REPORT, format)
        assert "plan: the launcher exited with status 3\n" in err, format
        assert out.count("SMD120") >= 2 and "SMD132" in out, format


def test_json_is_the_files_then_the_summary_then_the_details():
    report = Report(REPORT.files, details={"script": "launch.py"})
    document = json.loads(_written(report, "json")[0])
    assert list(document) == ["files", "errors", "warnings", "infos", "suppressed", "skipped", "not_checked",
                              "fixed", "fixable", "hidden_fixes", "assumed", "script"]
    assert document["assumed"] == {}
    notebook = document["files"][1]["findings"][0]
    assert notebook["cell"] == 2 and notebook["code"] == "SMD120"
    assert document["files"][2]["error"] == "broken.yaml:1:1: not YAML" and document["files"][3]["skipped"]


def test_text_puts_headings_between_findings_and_says_the_subject():
    file = FileReport("launch.py", [WARNING, ERROR], headings=[Heading(0, "launch.py:3: CreateTrainingJob a\n"),
                                                               Heading(1, "launch.py:7: CreateTrainingJob b\n"),
                                                               Heading(2, "launch.py:9: CreateTrainingJob c\n")])
    out, _ = _written(Report([file], subject="3 training jobs planned"), "text")
    lines = [line for line in out.splitlines() if not line.startswith("  ")]  # the source lines are not found
    assert lines == [
        "launch.py:3: CreateTrainingJob a",
        f"launch.py:3:5: warning SMD120 {WARNING.pointer}: unknown parameter",
        "launch.py:7: CreateTrainingJob b",
        f"launch.py:7:9: error SMD132 {ERROR.pointer}: save_interval must be positive",
        "launch.py:9: CreateTrainingJob c",
        "3 training jobs planned: 1 error, 1 warning, 0 infos",
    ]


def test_the_region_a_file_assumed_is_the_reports():
    report = Report([FileReport("a.yaml"), FileReport("b.yaml", assumed_region="us-east-1")])
    assert report.assumed == {"region": "us-east-1"} and Report([FileReport("a.yaml")]).assumed == {}
    assert json.loads(_written(report, "json")[0])["assumed"] == {"region": "us-east-1"}


def test_verbose_lists_notes_and_skipped_files_on_stderr():
    note = CHECKS["SMD181"].at((), "not checked: os.environ['N'] is computed at run time").replace(line=4, column=8)
    report = Report([FileReport("launch.py", notes=[note], not_checked=1), FileReport("x.yaml", skipped="empty")])
    out, err = _written(report, "text")
    assert out.endswith(" 1 value computed at run time not checked (--verbose lists them), 1 skipped (not Debugger "
                        "config; --verbose says why)\n") and err == ""
    out, err = _written(report, "text", verbose=True)
    assert err == ("launch.py:4:8: info SMD181 /: not checked: os.environ['N'] is computed at run time\n"
                   "sm-debug-config: x.yaml: skipped: empty\n")


def test_verbose_says_what_each_fix_would_do_and_how_to_apply_it():
    """A finding with no [*] may still have a fix (unsafe): --verbose says what it would change, and which flag
    applies it; a fix the file could not place is not offered."""
    safe = Fix(SAFE, "rename 'threshhold' to 'threshold'", [Change(RENAME, ("threshhold",), "threshold")],
               [Edit(1, 11, "threshold")])
    unsafe = Fix(UNSAFE, "put s3:// before 'bucket/tb'", [Change(PREFIX, ("S3OutputPath",), "s3://")], [Edit(1, 1, "s3://")])
    unplaced = Fix(UNSAFE, "put s3:// before 'b'", [Change(PREFIX, ("S3OutputPath",), "s3://")])
    findings = [Placed(WARNING.replace(fix=safe), fixable=True), Placed(ERROR.replace(fix=unsafe)),
                Placed(RUNTIME.replace(fix=unplaced))]
    out, _ = _written(Report([FileReport("job.yaml", findings)]), "text", verbose=True)
    assert "    fix (safe, --fix): rename 'threshhold' to 'threshold'\n" in out
    assert "    fix (unsafe, --fix --unsafe-fixes): put s3:// before 'bucket/tb'\n" in out
    assert "before 'b'" not in out
    out, _ = _written(Report([FileReport("job.yaml", findings)]), "text")
    assert "fix (" not in out


def test_sarif_records_the_exit_code_and_the_notices():
    log = sarif_log(REPORT, exit_code=2, succeeded=False, root=".")
    invocation = log["runs"][0]["invocations"][0]
    assert invocation["exitCode"] == 2 and invocation["executionSuccessful"] is False
    levels = [n["level"] for n in invocation["toolExecutionNotifications"]]
    # the unreadable file (SMD003), the notice, then what was not checked (never a clean log for it)
    assert levels == ["error", "warning", "note"]
    assert log["runs"][0]["properties"]["notChecked"] == REPORT.summary.not_checked > 0


def test_bad_values_are_refused_naming_the_field_and_what_is_allowed():
    with pytest.raises(ValueError, match=r"Notice.level: 'fatal' is not one of error, warning, note"):
        Report([], [Notice("fatal", "m")])
    with pytest.raises(ValueError, match=r"Report.details: assumed, errors, files are the report's own keys"):
        Report([], details={"files": [], "errors": 0, "assumed": {}})
    with pytest.raises(ValueError, match=r"unknown report format 'xml' \(allowed: text, json, github, sarif\)"):
        _written(REPORT, "xml")
