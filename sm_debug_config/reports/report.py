"""The report of a run: every file checked, each with its findings as values, and the counts of the summary.

What validate, lint and plan print (and explain says of its findings) is one :class:`Report`, written by
one formatter per ``--format`` (:mod:`sm_debug_config.reports`). A command builds it from the findings its
sources and checks gave; nothing here prints.

:class:`Report` and :class:`FileReport` are attrs classes; the small records inside them are named tuples, which
cost a fifth of an attrs class to define (every command that prints findings imports this module).

>>> from sm_debug_config.findings import CHECKS
>>> finding = CHECKS["SMD120"].at(("DebugRuleConfigurations", 0), "unknown parameter").replace(line=3, column=5)
>>> report = Report((FileReport("job.yaml", [finding]), FileReport("notes.yaml", skipped="empty document")))
>>> {name: count for name, count in report.summary.to_dict().items() if count}
{'warnings': 1, 'skipped': 1}
"""
from __future__ import annotations

from typing import Any, Dict, Iterable, Mapping, NamedTuple, Optional, Tuple, Union

import attrs

from sm_debug_config.apischema import SMD001
from sm_debug_config.errors import ERROR, INFO, WARNING
from sm_debug_config.findings import Finding

__all__ = ["FIX_ONLY", "FileReport", "Heading", "Notice", "Options", "Placed", "Report", "Summary", "Unreadable",
           "not_checked"]


class Placed(NamedTuple):
    """A finding in a file: its ``line`` and ``column`` are the finding's; ``cell`` is the notebook code cell they
    count in (None: they count in the file); ``fixable``: the run would apply its fix (``--fix``, and
    ``--unsafe-fixes`` for an unsafe one; not an ``unfixable`` code), which text output marks ``[*]``."""

    finding: Finding
    cell: Optional[int] = None
    fixable: bool = False


def _placed(items: Iterable[Union[Finding, Placed]]) -> Tuple[Placed, ...]:
    return tuple(item if isinstance(item, Placed) else Placed(item) for item in items)


def _findings(items: Iterable[Finding]) -> Tuple[Finding, ...]:
    return tuple(items)


class Heading(NamedTuple):
    """Text printed above the finding at index ``before`` of a file's findings (``len(findings)``: after the last),
    in text output only: plan's job lines (the request's line, its image and Debugger fields) above each job's
    findings."""

    before: int
    text: str


class Unreadable(NamedTuple):
    """Why a file could not be read or parsed, and where (``line``, ``column``) when that is known: an error of
    its own (exit 2)."""

    message: str
    line: Optional[int] = None
    column: Optional[int] = None


def _headings(items: Iterable[Heading]) -> Tuple[Heading, ...]:
    return tuple(items)


@attrs.frozen
class FileReport:
    """One file: its ``findings`` (each :class:`Placed`; a plain :class:`Finding` is placed in the file), those
    its ignore codes ``suppressed``, ``notes`` on what was not checked (lint's SMD181 infos, listed with
    ``--verbose``), how many values computed at run time were ``not_checked``, ``error`` (it could not be read) or
    ``skipped`` (why it is none of the documents the command reads), ``headings`` between its findings (plan), and
    the region it was checked in that nobody named (``assumed_region``: the one default, said as assumed)."""

    path: str
    findings: Tuple[Placed, ...] = attrs.field(default=(), converter=_placed)
    suppressed: Tuple[Finding, ...] = attrs.field(default=(), converter=_findings)
    notes: Tuple[Placed, ...] = attrs.field(default=(), converter=_placed)
    not_checked: int = 0
    error: Optional[Unreadable] = None
    skipped: Optional[str] = None
    headings: Tuple[Heading, ...] = attrs.field(default=(), converter=_headings)
    assumed_region: Optional[str] = None
    #: ``--fix``: how many fixes were applied to the file (written, or with ``--diff`` shown), and the unsafe fixes
    #: of its findings that ``--unsafe-fixes`` would apply (``hidden_fixes``)
    fixed: int = 0
    hidden_fixes: int = 0
    #: ``--diff``: the unified diff of what the fixes would change (None: nothing would)
    diff: Optional[str] = None
    #: the text each fix's edits count in, by notebook cell index (None: the file's text): every code cell of a
    #: notebook, in order; only for a file whose findings have edits (JSON and SARIF output place the edits by line
    #: and column, JSON numbers their cells as the findings' are numbered)
    texts: Tuple[Tuple[Optional[int], str], ...] = ()


def _files(items: Iterable[FileReport]) -> Tuple[FileReport, ...]:
    return tuple(items)


def not_checked(findings: Iterable[Union[Finding, Placed]]) -> int:
    """How many of ``findings`` say a value is known only at run time (SMD001 infos): values not checked."""
    return sum(1 for item in _placed(findings) if item.finding.code == SMD001.code)


#: The levels of a notice (SARIF's).
NOTICE_LEVELS = ("error", "warning", "note")


class Notice(NamedTuple):
    """Something about the run rather than a finding (how a launcher ended): its ``level`` (a SARIF level: one of
    :data:`NOTICE_LEVELS`, checked where a :class:`Report` takes it), the ``message``, at ``file`` (None: the
    run's) ``line``, ``column`` when known; ``title``: what GitHub annotations title it (the command)."""

    level: str
    message: str
    file: Optional[str] = None
    line: Optional[int] = None
    column: Optional[int] = None
    title: str = ""


def _notices(items: Iterable[Notice]) -> Tuple[Notice, ...]:
    notices = tuple(items)
    for notice in notices:
        if notice.level not in NOTICE_LEVELS:
            raise ValueError(f"Notice.level: {notice.level!r} is not one of {', '.join(NOTICE_LEVELS)}")
    return notices


class Summary(NamedTuple):
    """The counts every format states: findings by severity (an unreadable file is an error of its own), those
    suppressed, values not checked (known only at run time) and files skipped."""

    errors: int = 0
    warnings: int = 0
    infos: int = 0
    suppressed: int = 0
    skipped: int = 0
    not_checked: int = 0
    #: ``--fix``: fixes applied (``--diff``: that would be), findings left with a fix the run would apply
    #: (``fixable``), and the unsafe fixes ``--unsafe-fixes`` would enable (``hidden_fixes``)
    fixed: int = 0
    fixable: int = 0
    hidden_fixes: int = 0

    def count(self, severity: str) -> int:
        """The count of ``severity`` (error, warning or info)."""
        return {ERROR: self.errors, WARNING: self.warnings, INFO: self.infos}[severity]

    def to_dict(self) -> Dict[str, int]:
        return dict(self._asdict())


def _no_shared_keys(instance: Any, attribute: Any, value: Mapping[str, Any]) -> None:
    shared = sorted(set(value) & ({"files", "assumed"} | set(Summary._fields)))
    if shared:
        raise ValueError(f"Report.details: {', '.join(shared)} are the report's own keys (the summary, files)")


@attrs.frozen
class Report:
    """The ``files`` of a run, ``notices`` about the run, ``subject`` (what the text summary counts: default
    ``N files``) and ``details``: what the command adds to the JSON document (plan: its jobs and how the launcher
    ended), which never replaces the report's own keys."""

    files: Tuple[FileReport, ...] = attrs.field(converter=_files)
    notices: Tuple[Notice, ...] = attrs.field(default=(), converter=_notices)
    subject: Optional[str] = None
    details: Mapping[str, Any] = attrs.field(factory=dict, validator=_no_shared_keys)

    @property
    def summary(self) -> Summary:
        severities = [placed.finding.severity for file in self.files for placed in file.findings]
        return Summary(
            errors=severities.count(ERROR) + sum(1 for file in self.files if file.error is not None),
            warnings=severities.count(WARNING),
            infos=severities.count(INFO),
            suppressed=sum(len(file.suppressed) for file in self.files),
            not_checked=sum(file.not_checked for file in self.files),
            skipped=sum(1 for file in self.files if file.skipped is not None),
            fixed=sum(file.fixed for file in self.files),
            fixable=sum(1 for file in self.files for placed in file.findings if placed.fixable),
            hidden_fixes=sum(file.hidden_fixes for file in self.files),
        )

    @property
    def assumed(self) -> Dict[str, str]:
        """What the files were checked with that nobody named: ``{"region": name}`` or nothing."""
        region = next((file.assumed_region for file in self.files if file.assumed_region), None)
        return {"region": region} if region else {}

    @property
    def unreadable(self) -> Tuple[FileReport, ...]:
        """The files that could not be read."""
        return tuple(file for file in self.files if file.error is not None)


class Options(NamedTuple):
    """How a report is written: ``verbose`` (text: each finding's page, fix under it), ``colour`` (text: severities in
    colour), the command's ``exit_code`` and whether the run ``succeeded`` (every file read, the launcher ran to
    its end: SARIF's ``executionSuccessful``), and the ``program``'s name (text: the unreadable files' lines; SARIF:
    the tool, with its ``version``)."""

    program: str
    version: str = ""
    exit_code: int = 0
    succeeded: bool = True
    verbose: bool = False
    colour: bool = False
    #: the run's fixing: ``""`` (none), ``"fix"`` (``--fix``: fixed and remaining said) or :data:`FIX_ONLY`
    fixing: str = ""


#: :attr:`Options.fixing` of ``--fix-only``: what is fixed is said, the findings left are not.
FIX_ONLY = "fix-only"
