"""Reports: what a run found, as one value (:mod:`.report`), and one formatter per output format.

The flow is sources -> engine -> checks -> reports -> commands: a command (validate, lint, plan; explain and
render for the findings they say) builds a :class:`Report` of every file it checked and hands it to :func:`write`,
which prints it in the format asked. Each format is one module with ``write(report, out, err, options)``, listed in
:data:`FORMATS` (as ruff keeps an emitter per format, and cfn-lint a formatter class): :mod:`.text` (a line per
finding, its source line and carets, a summary), :mod:`.jsonout` (one document, the same schema for every command),
:mod:`.github` (workflow annotations) and :mod:`.sarif` (a SARIF 2.1.0 log). Only the module of the format asked
is imported: SARIF's rule table costs the check registry's import.

>>> import io
>>> out, err = io.StringIO(), io.StringIO()
>>> write(Report([FileReport("job.yaml")]), "json", out, err, Options("sm-debug-config"))
>>> out.getvalue().splitlines()[:3]
['{', '  "files": [', '    {']
"""
from __future__ import annotations

import importlib
from typing import IO, Dict

from sm_debug_config.reports.report import (
    FileReport,
    Heading,
    Notice,
    Options,
    Placed,
    Report,
    Summary,
    Unreadable,
    not_checked,
)
from sm_debug_config.reports.text import placed_text

__all__ = [
    "FORMATS",
    "FileReport",
    "Heading",
    "Notice",
    "Options",
    "Placed",
    "Report",
    "Summary",
    "Unreadable",
    "not_checked",
    "write",
]

#: Each output format and the module that writes it (its ``write(report, out, err, options)``).
FORMATS: Dict[str, str] = {
    "text": "sm_debug_config.reports.text",
    "json": "sm_debug_config.reports.jsonout",
    "github": "sm_debug_config.reports.github",
    "sarif": "sm_debug_config.reports.sarif",
}


def write(report: Report, format: str, out: IO[str], err: IO[str], options: Options) -> None:  # noqa: A002
    """Print ``report`` on ``out`` in ``format`` (a key of :data:`FORMATS`).

    Whatever the format, ``err`` gets (with ``options.verbose``) what was not checked (lint's notes) and why each
    skipped file was, and then every notice about the run: stdout stays what tools read.
    """
    if format not in FORMATS:
        raise ValueError(f"unknown report format {format!r} (allowed: {', '.join(FORMATS)})")
    if options.verbose:
        for file in report.files:
            for note in file.notes:
                err.write(placed_text(file.path, note))
        for file in report.files:
            if file.skipped is not None:
                err.write(f"{options.program}: {file.path}: skipped: {file.skipped}\n")
    for notice in report.notices:
        err.write(notice.message + "\n")
    importlib.import_module(FORMATS[format]).write(report, out, err, options)
