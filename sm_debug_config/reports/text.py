"""``--format text``: a line per finding, ``file:line:col: severity CODE /pointer: message``, the source line with
carets under it (:mod:`.textout`), with ``--verbose`` the address of its code's page, and a summary.

>>> import io
>>> from sm_debug_config.reports.report import FileReport, Options, Report
>>> out = io.StringIO()
>>> write(Report([FileReport("job.yaml")]), out, io.StringIO(), Options("sm-debug-config"))
>>> out.getvalue()
'1 file: 0 errors, 0 warnings, 0 infos\\n'
"""
from __future__ import annotations

from typing import IO, Dict, List, Mapping, Optional

from sm_debug_config.errors import SEVERITIES
from sm_debug_config.findings import Finding
from sm_debug_config.fixes import Fix
from sm_debug_config.reports.report import FIX_ONLY, FileReport, Options, Placed, Report, Summary
from sm_debug_config.reports.textout import SourceFile, paint

__all__ = ["FIXABLE", "counted", "finding_text", "fix_hint", "plural", "summary_line", "where", "write"]


def where(file: str, line: Optional[int], column: Optional[int]) -> str:
    """``file:line:col`` (``file:line``, ``file``) as compilers print it.

    >>> where("job.yaml", 3, 5), where("job.yaml", None, 5)
    ('job.yaml:3:5', 'job.yaml')
    """
    return ":".join([file] + [str(n) for n in (line, column if line else None) if n])


def plural(n: int, word: str) -> str:
    """``1 file``, ``2 files``."""
    return f"{n} {word}{'s' if n != 1 else ''}"


def counted(counts: Mapping[str, int]) -> str:
    """Every severity's count, as the summaries say them: ``0 errors, 1 warning, 2 infos``."""
    return ", ".join(plural(counts.get(severity, 0), severity) for severity in SEVERITIES)


#: What marks a finding whose fix the run would apply (ruff's mark).
FIXABLE = "[*]"


def finding_text(file: str, finding: Finding, cell: Optional[int] = None, source: Optional[SourceFile] = None,
                 colour: bool = False, fixable: bool = False) -> str:
    """One finding: ``file:line:col: severity CODE /pointer: message`` (``file:cell N:line:col`` in a notebook's
    code cell ``cell``; ``CODE [*]`` when ``fixable``: ``--fix`` mends it), and the line of ``source`` under it with
    carets at the column; ``colour``: the severity and the carets in colour."""
    place = where(file + (f":cell {cell}" if cell else ""), finding.line, finding.column)
    severity = paint(finding.severity, finding.severity, colour)
    shown = source.excerpt(finding.line, finding.column, finding.severity, colour, cell) if source else ""
    code = f"{finding.code} {FIXABLE}" if fixable else finding.code
    return f"{place}: {severity} {code} {finding.pointer or '/'}: {finding.message}\n{shown}"


def placed_text(file: str, placed: Placed, source: Optional[SourceFile] = None, colour: bool = False) -> str:
    """:func:`finding_text` of a finding placed in ``file``."""
    return finding_text(file, placed.finding, placed.cell, source, colour, placed.fixable)


def summary_line(report: Report, verbose: bool = False, fixing: str = "") -> str:
    """``2 files: 1 error, 0 warnings, 0 infos`` with what was suppressed, not checked and skipped when there is
    any; the subject is the report's (plan: its jobs) or the number of files. ``fixing`` (``--fix``, or
    :data:`FIX_ONLY`): how many fixes were applied and how many findings remain."""
    summary = report.summary
    subject = report.subject if report.subject is not None else plural(len(report.files), "file")
    counts = {severity: summary.count(severity) for severity in SEVERITIES}
    text = f"{subject}: {counted(counts)}"
    if fixing and fixing != FIX_ONLY:  # beside the counts it is about (after "2 suppressed" it would read as theirs)
        text += f" ({summary.fixed} fixed, {summary.errors + summary.warnings + summary.infos} remaining)"
    if summary.suppressed:
        text += f", {summary.suppressed} suppressed"
    if summary.not_checked:
        listed = verbose or not any(file.notes for file in report.files)  # lint's notes list them (--verbose)
        text += f", {plural(summary.not_checked, 'value')} computed at run time not checked" + (
            "" if listed else " (--verbose lists them)"
        )
    if summary.skipped:
        text += f", {summary.skipped} skipped" + ("" if verbose else " (not Debugger config; --verbose says why)")
    if fixing == FIX_ONLY:
        return f"{subject}: {summary.fixed} fixed (--fix-only: the findings left are not reported)"
    return text


def fix_hint(summary: Summary, fixing: str = "") -> str:
    """What ``--fix`` would mend, as ruff says it under its summary: ``[*] 2 fixable with --fix (1 hidden fix can
    be enabled with --unsafe-fixes)``, or, when only unsafe fixes are left (before or after ``--fix``), ``no fixes
    available (1 hidden fix can be enabled with --unsafe-fixes)`` (``--fix-only``: the hidden fixes alone); empty
    when there is nothing to say. A note on stderr, as the region assumed is: stdout keeps the summary as its last
    line."""
    count = summary.hidden_fixes
    hidden = f"{count} hidden fix{'es' if count != 1 else ''} can be enabled with --unsafe-fixes" if count else ""
    if summary.fixable and not fixing:
        return f"{FIXABLE} {summary.fixable} fixable with --fix" + (f" ({hidden})" if hidden else "")
    if hidden and fixing == FIX_ONLY:
        return hidden  # the findings left are not reported: what --unsafe-fixes would mend still is (ruff too)
    if hidden and not summary.fixable:
        return f"no fixes available ({hidden})"  # as ruff says it
    return ""


def _fix_line(fix: Optional[Fix]) -> str:
    """``--verbose``: what a finding's fix would change and the flags that apply it (an unsafe fix has no [*] mark);
    nothing for a fix the file could not place."""
    if fix is None or fix.edits is None:
        return ""
    flags = "--fix" if fix.safe else "--fix --unsafe-fixes"
    return f"    fix ({fix.applicability}, {flags}): {fix.title}\n"


def _headings(file: FileReport) -> Dict[int, List[str]]:
    out: Dict[int, List[str]] = {}
    for heading in file.headings:
        out.setdefault(heading.before, []).append(heading.text)
    return out


def write(report: Report, out: IO[str], err: IO[str], options: Options) -> None:
    """Each file's findings on ``out``, each under its heading (plan's jobs), then the summary line; a file that
    could not be read is one line on ``err``, ``program: message`` (its place is in the message), and so is what
    ``--fix`` would mend (:func:`fix_hint`)."""
    for file in report.files:
        source = SourceFile(file.path)  # read only if a finding has a line
        if file.error is not None:
            err.write(f"{options.program}: {file.error.message}\n")
        headings = _headings(file)
        for index, placed in enumerate(file.findings):
            out.write("".join(headings.get(index, ())))
            out.write(placed_text(file.path, placed, source, options.colour))
            if options.verbose and placed.finding.url:
                out.write(f"    {placed.finding.url}\n")  # the page of the code: what, why, a fix, how to ignore
            if options.verbose:
                out.write(_fix_line(placed.finding.fix))
        out.write("".join(headings.get(len(file.findings), ())))
    out.write(summary_line(report, options.verbose, options.fixing) + "\n")
    hint = fix_hint(report.summary, options.fixing)
    if hint:
        err.write(f"{options.program}: {hint}\n")
