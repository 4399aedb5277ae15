"""``--format github``: GitHub Actions workflow commands, one annotation per finding, unreadable file and notice.

A finding in a notebook cell has no line of the file: its place in the cell goes in the title.

>>> annotation("warning", "job.yaml", 3, 5, "SMD120 /DebugRuleConfigurations/0", "unknown parameter")
'::warning file=job.yaml,line=3,col=5,title=SMD120 /DebugRuleConfigurations/0::unknown parameter\\n'
"""
from __future__ import annotations

from typing import IO, Optional

from sm_debug_config.errors import ERROR, INFO, WARNING
from sm_debug_config.reports.report import Options, Placed, Report

__all__ = ["LEVELS", "annotation", "write"]

#: The annotation level of each severity, and of each notice's (SARIF) level.
LEVELS = {ERROR: "error", WARNING: "warning", INFO: "notice", "note": "notice"}


def _escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def annotation(level: str, file: str, line: Optional[int], column: Optional[int], title: str, message: str) -> str:
    """A GitHub Actions workflow command: ``::error file=F,line=L,col=C,title=T::message``."""
    props = [f"file={_escape(file, True)}"] + [
        f"{name}={n}" for name, n in (("line", line), ("col", column if line else None)) if n
    ]
    return f"::{level} {','.join(props + [f'title={_escape(title, True)}'])}::{_escape(message)}\n"


def finding_annotation(file: str, placed: Placed) -> str:
    """One finding's annotation, titled with its code and pointer (and its place in a notebook cell); a finding
    the run would fix says so."""
    finding, cell = placed.finding, placed.cell
    title = f"{finding.code} {finding.pointer}".strip()
    title += f" (cell {cell}:{finding.line}:{finding.column})" if cell else ""
    line, column = (None, None) if cell else (finding.line, finding.column)
    message = finding.message + (" (fixable with --fix)" if placed.fixable else "")
    return annotation(LEVELS[finding.severity], file, line, column, title, message)


def write(report: Report, out: IO[str], err: IO[str], options: Options) -> None:
    """An annotation for each unreadable file (titled ``unreadable``) and finding, file after file, then one for
    each notice about the run."""
    for file in report.files:
        if file.error is not None:
            error = file.error
            out.write(annotation(LEVELS[ERROR], file.path, error.line, error.column, "unreadable", error.message))
        for placed in file.findings:
            out.write(finding_annotation(file.path, placed))
    for notice in report.notices:
        out.write(annotation(LEVELS[notice.level], notice.file or "", notice.line, notice.column, notice.title,
                             notice.message))
    for file in report.files:  # a file with values computed at run time never looks wholly checked
        if file.not_checked:
            count = file.not_checked
            out.write(annotation(LEVELS[INFO], file.path, None, None, "not checked",
                                 f"{count} value{'s' if count != 1 else ''} computed at run time not checked"))
