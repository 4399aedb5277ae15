"""``--format json``: one document of the same schema for validate, lint and plan.

``files``: each file's ``file``, ``findings`` (each finding's ``severity``, ``code``, ``path`` (its JSON pointer),
``message``, ``line``, ``column``, ``url``, ``cell`` in a notebook, and ``fix`` when it has one: its
``applicability``, ``message``, ``changes`` to the request, ``edits`` of the text with their ``location`` and
``end_location``), and ``error`` with ``line`` and ``column``
(it could not be read) or ``skipped`` (why); then the summary: ``errors``, ``warnings``, ``infos``, ``suppressed``,
``skipped``, ``not_checked``, and ``fixed``, ``fixable`` and ``hidden_fixes`` (``--fix``: fixes applied,
findings left that the run would fix, unsafe fixes ``--unsafe-fixes`` would enable); ``assumed``: what nobody
named (``{"region": "us-east-1"}``), else empty; then what the command adds (plan: ``script``, ``jobs``, how the
launcher ended).

>>> from sm_debug_config.reports.report import FileReport, Report
>>> document(Report([FileReport("job.yaml", skipped="empty document")]))["files"]
[{'file': 'job.yaml', 'findings': [], 'skipped': 'empty document'}]
"""
from __future__ import annotations

import json
from typing import IO, Any, Dict, Mapping, Optional

from sm_debug_config.fixes import Edit
from sm_debug_config.reports.report import FileReport, Options, Placed, Report

__all__ = ["document", "dumps", "finding_dict", "write"]


def dumps(value: Any) -> str:
    """JSON as the command line writes it: indented, UTF-8 characters as they are, a final newline."""
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def finding_dict(placed: Placed, texts: Optional[Mapping[Optional[int], str]] = None) -> Dict[str, Any]:
    """A finding as every JSON output writes it (:meth:`~sm_debug_config.findings.Finding.to_dict`), with its
    notebook ``cell`` when it has one; with ``texts`` (the text each edit counts in, by cell index: every code cell
    of a notebook, in order), its fix's edits carry their line and column, and their ``cell`` counted as the
    finding's is (code cells from 1: markdown cells are not counted)."""
    out = placed.finding.to_dict()
    if placed.cell:
        out["cell"] = placed.cell
    fix = placed.finding.fix
    if fix is not None and texts:
        numbers = {index: number for number, index in enumerate(sorted(i for i in texts if i is not None), 1)}
        out["fix"]["edits"] = [_edit(edit, texts, numbers) for edit in fix.edits or ()]
    return out


def _edit(edit: Edit, texts: Mapping[Optional[int], str], numbers: Mapping[int, int]) -> Dict[str, Any]:
    out = edit.to_dict(texts.get(edit.cell))
    if edit.cell is not None:
        out["cell"] = numbers.get(edit.cell, edit.cell + 1)
    return out


def _file(file: FileReport) -> Dict[str, Any]:
    texts = dict(file.texts)
    out: Dict[str, Any] = {"file": file.path, "findings": [finding_dict(placed, texts) for placed in file.findings]}
    if file.error is not None:
        out.update(error=file.error.message, line=file.error.line, column=file.error.column)
    if file.skipped is not None:
        out["skipped"] = file.skipped
    return out


def document(report: Report) -> Dict[str, Any]:
    """The report as one JSON value: ``files``, the summary's counts, then the command's details."""
    return {"files": [_file(file) for file in report.files], **report.summary.to_dict(), "assumed": report.assumed,
            **report.details}


def write(report: Report, out: IO[str], err: IO[str], options: Options) -> None:
    out.write(dumps(document(report)))
