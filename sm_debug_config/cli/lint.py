"""``sm-debug-config lint``: Debugger configuration in Python sources and notebooks, checked without running them."""
from __future__ import annotations

import argparse
import os
from typing import Any, Dict, List, Optional, Union

from sm_debug_config.cli import project
from sm_debug_config.cli.common import PROG, add_selection_flags, add_setting_flags, exit_codes, wrong_command
from sm_debug_config.cli.defaults import environment_region
from sm_debug_config.cli.report import add_report_arguments, report
from sm_debug_config.lint import find_files, lint_file
from sm_debug_config.reports import FileReport, Placed, Report, Unreadable
from sm_debug_config.validation.registry import SMD181

EPILOG = exit_codes("findings: an error (with --strict, a warning too)", "a file that cannot be read or parsed")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help=".py and .ipynb files, or directories to search")
    add_report_arguments(parser)
    parser.add_argument("--verbose", action="store_true",
                        help="also say what was not checked (computed at run time), which files were skipped, and each "
                        "finding's page")
    add_setting_flags(parser, ("region", "framework", "framework_version", "image_uri"))
    add_selection_flags(parser)
    project.add_arguments(parser, "per-file-ignores", "exclude")


def run(args: argparse.Namespace) -> int:
    """Lint Python sources and notebooks (:mod:`sm_debug_config.lint`), printed as ``validate`` prints."""

    if not args.region:
        environment_region(PROG + " lint")  # a bad AWS_REGION it would fall back to stops the run, not each file
    # in the order given: a YAML or JSON file named here is validate's, refused with the hint (exit 2)
    entries: List[Union[FileReport, Any]] = []
    for path in args.paths:
        hint = None if os.path.isdir(path) else wrong_command(path, "lint")
        entries += [FileReport(path, error=Unreadable(hint))] if hint else list(find_files([path]))
    files = [entry for entry in entries if isinstance(entry, tuple)]
    used = project.projects(args, [path for path, _ in files])  # a bad pyproject.toml stops the run first
    results: List[FileReport] = []
    for entry in entries:
        if not isinstance(entry, tuple):
            results.append(entry)
            continue
        path, named = entry
        if project.left_out(args, path, named):
            continue
        results.append(lint_report(path, args, named))
    args.strict = project.strict(args, used)
    return report(Report(results), args)


def lint_report(path: str, args: argparse.Namespace, named: bool = True, data: Optional[bytes] = None) -> FileReport:
    """One file's report under ``args`` (lint's parsed flags) and the project configuration of ``path``; ``data``:
    its content, checked in place of the file (an editor's unsaved text, the language server)."""
    settings = project.settings_for(args, path)
    given = ("region", "framework", "framework_version", "image_uri")
    defaults = {name: getattr(settings, name) for name in given if getattr(settings, name)}
    return _file_report(lint_file(path, ignore=settings.ignore or (), defaults=defaults, given=named, data=data))


def _file_report(result: Dict[str, Any]) -> FileReport:
    """lint's result of a file as a report: its findings in their cells, its notes on what was not checked as
    SMD181 infos (``--verbose`` lists them), and the region it assumed."""
    cells = result.get("cells") or [None] * len(result["findings"])
    notes = [Placed(SMD181.at((), text).replace(line=line, column=column), cell)
             for cell, line, column, text in result.get("notes", ())]
    error = Unreadable(result["error"], result["line"], result["column"]) if "error" in result else None
    return FileReport(result["file"], [Placed(f, c) for f, c in zip(result["findings"], cells)],
                      result["suppressed"], notes, result.get("not_checked", 0), error, result.get("skipped"),
                      assumed_region=result.get("assumed_region"))
