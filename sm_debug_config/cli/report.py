"""The commands' end: a :class:`~sm_debug_config.reports.Report` printed in ``--format`` (validate, lint, plan), or
findings said on stderr (render, explain, from-request), and the exit code.

:func:`report` prints a report with the formatter of ``args.format`` (:mod:`sm_debug_config.reports`) and returns
the exit code: 2 when a file could not be read, 1 for an error (with ``--strict``, a warning too), else 0.

>>> import argparse
>>> from sm_debug_config.reports import FileReport, Report
>>> report(Report([FileReport("job.yaml")]), argparse.Namespace(format="text", verbose=False, strict=False))
1 file: 0 errors, 0 warnings, 0 infos
0
"""
from __future__ import annotations

import argparse
import sys
from typing import Any, Optional, Sequence, Tuple

from sm_debug_config import __version__
from sm_debug_config.cli.common import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, PROG
from sm_debug_config.cli.defaults import say_assumed
from sm_debug_config.errors import ERROR, WARNING
from sm_debug_config.reports import FORMATS as WRITERS, Options, Report, write
from sm_debug_config.reports.text import finding_text
from sm_debug_config.reports.textout import colour

#: ``--format`` of the commands that report findings.
FORMATS = tuple(WRITERS)
FORMAT_HELP = ("text: a line per finding and a summary (default); json: one document; github: GitHub Actions "
               "annotations; sarif: a SARIF 2.1.0 log (GitHub code scanning)")


def add_report_arguments(parser: argparse.ArgumentParser, strict_help: str = "exit 1 on warnings too") -> None:
    """``--format`` and ``--strict`` (``--verbose`` is the command's: what it says differs)."""
    parser.add_argument("--format", choices=FORMATS, default="text", help=FORMAT_HELP)
    parser.add_argument("--strict", action="store_true", help=strict_help)


def at(finding: Any, position: Optional[Tuple[int, int]]) -> Any:
    """``finding`` at ``(line, column)`` of the file (both None when the file has no position for it)."""
    line, column = position if position else (None, None)
    return finding.replace(line=line, column=column)


def exit_code(result: Report, strict: bool) -> int:
    """2 when a file could not be read, 1 for an error (``strict``: a warning too), else 0."""
    if result.unreadable:
        return EXIT_USAGE
    summary = result.summary
    return EXIT_FINDINGS if summary.errors or (strict and summary.warnings) else EXIT_OK


def print_report(result: Report, args: argparse.Namespace, code: int, fixing: str = "") -> int:
    """Print ``result`` in ``args.format`` (``args.verbose``, when the command has it; ``fixing``: what the summary
    says of fixes, :attr:`~sm_debug_config.reports.Options.fixing`); returns ``code``, the command's exit code
    (SARIF records it)."""
    text = args.format == "text"
    options = Options(PROG, __version__, exit_code=code, succeeded=code != EXIT_USAGE,
                      verbose=bool(getattr(args, "verbose", False)), colour=text and colour(sys.stdout),
                      fixing=fixing)
    write(result, args.format, sys.stdout, sys.stderr, options)
    return code


def report(result: Report, args: argparse.Namespace, fixing: str = "") -> int:
    """Print ``result`` in ``args.format``, then the note of what its files assumed (stderr); the exit code
    (``args.strict``: a warning fails too). ``fixing``: what the summary says of fixes (``--fix``)."""
    code = print_report(result, args, exit_code(result, args.strict), fixing)
    say_assumed(result)  # a note on stderr, not a finding
    return code


def say(findings: Sequence[Any], source: str, errors: bool = False) -> bool:
    """Print each finding that is not suppressed (nor an error, unless ``errors``: those are usually raised) on
    stderr, once and in order, as ``validate`` prints a finding (``file:line:col: severity CODE /pointer: message``),
    for the commands whose output is something else (render, explain, from-request); whether one is a warning,
    which ``--strict`` fails on."""
    shown = [f for f in dict.fromkeys(findings) if (errors or f.severity != ERROR) and not f.suppressed]
    for finding in shown:
        sys.stderr.write(finding_text(source, finding))
    return any(f.severity == WARNING for f in shown)
