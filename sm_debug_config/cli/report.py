"""Findings printed as ``validate`` prints them, for every command that reports findings (validate, plan, lint).

A command gathers one result per file (:func:`file_result`, :func:`unreadable`, :func:`skipped`)
and hands them to :func:`report`, which prints them in the ``--format`` asked (text: a line per
finding, with ``--verbose`` the address of its code's page under it, and a summary; json: one document;
github: workflow annotations; sarif: a SARIF 2.1.0 log, written by :mod:`~sm_debug_config.cli.sarif`) and
returns the exit code: 2 when a file could not be read, 1 for an error (with ``--strict``, a warning too), else 0.

>>> import argparse
>>> report([file_result("job.yaml", [])], argparse.Namespace(format="text", verbose=False, strict=False))
1 file: 0 errors, 0 warnings, 0 infos
0

Text output shows the source line under each finding that has a position (:mod:`.textout`), and colours
the severity on a terminal.
"""
from __future__ import annotations

import argparse
import sys
from typing import Any, Dict, List, Optional, Sequence, Tuple

from sm_debug_config.cli.common import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, PROG, dumps
from sm_debug_config.cli.defaults import assumed_of, say_assumed
from sm_debug_config.cli.textout import SourceFile, colour, paint
from sm_debug_config.errors import ERROR, INFO, SEVERITIES, WARNING

#: The GitHub annotation level of each severity.
_GITHUB_LEVELS = {ERROR: "error", WARNING: "warning", INFO: "notice"}

#: ``--format`` of the commands that report findings.
FORMATS = ("text", "json", "github", "sarif")
FORMAT_HELP = ("text: a line per finding and a summary (default); json: one document; github: GitHub Actions "
               "annotations; sarif: a SARIF 2.1.0 log (GitHub code scanning)")


def add_report_arguments(parser: argparse.ArgumentParser, strict_help: str = "exit 1 on warnings too") -> None:
    """``--format`` and ``--strict`` (``--verbose`` is the command's: what it says differs)."""
    parser.add_argument("--format", choices=FORMATS, default="text", help=FORMAT_HELP)
    parser.add_argument("--strict", action="store_true", help=strict_help)


def file_result(path: str, findings: List[Any], suppressed: Sequence[Any] = ()) -> Dict[str, Any]:
    """One file's ``findings`` (each with ``severity``, ``code``, ``path``, ``message``, ``line``, ``column``
    and ``to_dict()``) and the findings its ignore codes ``suppressed``."""
    return {"file": path, "findings": findings, "suppressed": list(suppressed)}


def unreadable(path: str, message: str, line: Optional[int] = None, column: Optional[int] = None) -> Dict[str, Any]:
    """A file that could not be read or parsed: an error of its own (exit 2)."""
    return {"file": path, "error": message, "line": line, "column": column, "findings": [], "suppressed": []}


def skipped(path: str, why: str) -> Dict[str, Any]:
    """A file that is none of the documents the command reads (pre-commit hands over every YAML/JSON file)."""
    return {"file": path, "findings": [], "suppressed": [], "skipped": why}


def at(finding: Any, position: Optional[Tuple[int, int]]) -> Any:
    """``finding`` at ``(line, column)`` of the file (both None when the file has no position for it)."""
    line, column = position if position else (None, None)
    return finding.replace(line=line, column=column)


def _github_escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def where(file: str, line: Optional[int], column: Optional[int]) -> str:
    """``file:line:col`` (``file:line``, ``file``) as compilers print it, for text output."""
    return ":".join([file] + [str(n) for n in (line, column if line else None) if n])


def annotation(level: str, file: str, line: Optional[int], column: Optional[int], title: str, message: str) -> str:
    """A GitHub Actions workflow command: ``::error file=F,line=L,col=C,title=T::message``."""
    props = [f"file={_github_escape(file, True)}"] + [
        f"{name}={n}" for name, n in (("line", line), ("col", column if line else None)) if n
    ]
    return f"::{level} {','.join(props + [f'title={_github_escape(title, True)}'])}::{_github_escape(message)}\n"


def finding_out(
    file: str, finding: Any, github: bool, cell: Optional[int] = None, source: Optional[SourceFile] = None,
    on: bool = False,
) -> str:
    """One finding as validate prints it: ``file:line:col: severity CODE /pointer: message``, or a GitHub annotation.

    ``cell``: the notebook code cell the finding's line and column count in (lint), shown in the place.
    ``source``: the file, whose line is shown under the finding; ``on``: the severity in colour.
    """
    if github:
        level = _GITHUB_LEVELS[finding.severity]
        title = f"{finding.code} {finding.pointer}".strip()
        title += f" (cell {cell}:{finding.line}:{finding.column})" if cell else ""
        line, column = (None, None) if cell else (finding.line, finding.column)
        return annotation(level, file, line, column, title, finding.message)
    place = where(file + (f":cell {cell}" if cell else ""), finding.line, finding.column)
    severity = paint(finding.severity, finding.severity, on)
    shown = source.excerpt(finding.line, finding.column, finding.severity, on, cell) if source else ""
    return f"{place}: {severity} {finding.code} {finding.pointer or '/'}: {finding.message}\n{shown}"


def say(findings: Sequence[Any], source: str, errors: bool = False) -> bool:
    """Print each finding that is not suppressed (nor an error, unless ``errors``: those are usually raised) on
    stderr, once and in order, as ``validate`` prints a finding (``file:line:col: severity CODE /pointer: message``),
    for the commands whose output is something else (render, explain, from-request); whether one is a warning,
    which ``--strict`` fails on."""
    shown = [f for f in dict.fromkeys(findings) if (errors or f.severity != ERROR) and not f.suppressed]
    for finding in shown:
        sys.stderr.write(finding_out(source, finding, False))
    return any(f.severity == WARNING for f in shown)


def _cells(result: Dict[str, Any]) -> List[Optional[int]]:
    """Each finding's notebook code cell (lint's results carry ``cells``), or None."""
    return result.get("cells") or [None] * len(result["findings"])


def _file_json(result: Dict[str, Any]) -> Dict[str, Any]:
    """One file of ``--format json``: its findings, and ``error`` (with ``line``, ``column``) or ``skipped`` (why)."""
    findings = [dict(f.to_dict(), **({"cell": c} if c else {})) for f, c in zip(result["findings"], _cells(result))]
    out: Dict[str, Any] = {"file": result["file"], "findings": findings}
    if "error" in result:
        out.update(error=result["error"], line=result["line"], column=result["column"])
    if "skipped" in result:
        out["skipped"] = result["skipped"]
    return out


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def counted(counts: Dict[str, int]) -> str:
    """Every severity's count, as the summaries say them: ``0 errors, 1 warning, 2 infos``."""
    return ", ".join(_plural(counts.get(severity, 0), severity) for severity in SEVERITIES)


def report(results: Sequence[Dict[str, Any]], args: argparse.Namespace) -> int:
    """Print ``results`` in ``args.format``; the exit code (``args.strict``: a warning fails too).

    A result may carry ``cells``: each finding's notebook code-cell number (``file:cell N:line:col``, lint).
    """
    unreadable_files = [ERROR for result in results if "error" in result]  # an unreadable file is an error of its own
    severities = [finding.severity for result in results for finding in result["findings"]] + unreadable_files
    counts = {severity: severities.count(severity) for severity in SEVERITIES}
    suppressed = sum(len(r["suppressed"]) for r in results)
    not_checked = sum(r.get("not_checked", 0) for r in results)
    skipped_files = [r for r in results if "skipped" in r]
    verbose = getattr(args, "verbose", False)
    if unreadable_files:
        code = EXIT_USAGE
    else:
        code = EXIT_FINDINGS if counts[ERROR] or (args.strict and counts[WARNING]) else EXIT_OK
    if verbose:  # on stderr: stdout stays the findings (json, github and sarif formats are read by tools)
        for result in skipped_files:
            sys.stderr.write(f"{PROG}: {result['file']}: skipped: {result['skipped']}\n")
    if args.format == "sarif":
        from sm_debug_config.cli import sarif  # its rules table and records: for --format sarif only

        sys.stdout.write(sarif.sarif_text(
            [sarif.Located(r["file"], f, c) for r in results for f, c in zip(r["findings"], _cells(r))],
            unreadable=[sarif.Notice("error", r["error"], r["file"], r["line"], r["column"])
                        for r in results if "error" in r],
            exit_code=code,
            suppressed=suppressed,
        ))
    elif args.format == "json":
        payload = {
            "files": [_file_json(r) for r in results],
            "errors": counts[ERROR],
            "warnings": counts[WARNING],
            "infos": counts[INFO],
            "suppressed": suppressed,
            "skipped": len(skipped_files),
            "not_checked": not_checked,
            "assumed": assumed_of(results),  # what nobody named: {"region": "us-east-1"} (cli/defaults.py)
        }
        sys.stdout.write(dumps(payload))
    else:
        text = args.format == "text"
        on = text and colour(sys.stdout)
        for result in results:
            source = SourceFile(result["file"]) if text else None  # read only if a finding has a line
            if "error" in result:
                message = result["error"]
                if args.format == "github":
                    level = _GITHUB_LEVELS[ERROR]
                    sys.stdout.write(
                        annotation(level, result["file"], result["line"], result["column"], "unreadable", message)
                    )
                else:  # one line, its place in the message (file:line:col)
                    sys.stderr.write(f"{PROG}: {message}\n")
            for finding, cell in zip(result["findings"], _cells(result)):
                sys.stdout.write(finding_out(result["file"], finding, not text, cell, source, on))
                if verbose and text and finding.url:
                    sys.stdout.write(f"    {finding.url}\n")  # the page of the code: what, why, a fix, how to ignore
        if text:
            files = len(results)
            sys.stdout.write(
                f"{_plural(files, 'file')}: {counted(counts)}"
                + (f", {suppressed} suppressed" if suppressed else "")
                + (
                    f", {_plural(not_checked, 'value')} computed at run time not checked"
                    + ("" if verbose or not any("notes" in r for r in results) else " (--verbose lists them)")
                    if not_checked
                    else ""
                )
                + (
                    f", {len(skipped_files)} skipped (not Debugger config; --verbose says why)"
                    if skipped_files and not verbose
                    else f", {len(skipped_files)} skipped"
                    if skipped_files
                    else ""
                )
                + "\n"
            )
    say_assumed(results)  # a note on stderr, not a finding
    return code
