"""``sm-debug-config lint``: Debugger configuration in Python sources and notebooks, checked without running them."""
from __future__ import annotations

import argparse
import io
import os
import tokenize
from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

from sm_debug_config.cli import fixing, project
from sm_debug_config.cli.common import PROG, add_selection_flags, add_setting_flags, exit_codes, wrong_command
from sm_debug_config.cli.defaults import environment_region
from sm_debug_config.cli.report import add_report_arguments
from sm_debug_config.fixes import apply_edits
from sm_debug_config.lint import find_files, lint_data, lint_file
from sm_debug_config.lint.sources import SourceError, apply_notebook_edits, notebook_cells, read_bytes
from sm_debug_config.reports import FileReport, Placed, Report, Unreadable
from sm_debug_config.validation.registry import SMD181

EPILOG = exit_codes("findings: an error (with --strict, a warning too)", "a file that cannot be read or parsed")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help=".py and .ipynb files, or directories to search")
    add_report_arguments(parser)
    parser.add_argument("--verbose", action="store_true",
                        help="also say what was not checked (computed at run time), which files were skipped, and each "
                        "finding's page and fix (what it changes, which flags apply it)")
    add_setting_flags(parser, ("region", "framework", "framework_version", "image_uri"))
    add_selection_flags(parser)
    project.add_arguments(parser, "per-file-ignores", "exclude")
    fixing.add_arguments(parser)


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
        results.append(_lint_path(path, named, project.settings_for(args, path)))
    args.strict = project.strict(args, used)
    return fixing.finish(Report(results), args, used)


#: How a fixed text is written back into its file, by suffix: ``apply(text, fixes)``, one pass of the fixes' edits
#: (:data:`~sm_debug_config.cli.fixing.Apply`); a ``.py`` file's edits count in its text. A notebook's edits count in
#: its cells' sources: its writer maps them into the notebook's JSON text, every byte outside those sources kept
#: (None: a format whose fixes are reported, not applied).
WRITERS: Dict[str, Optional[fixing.Apply]] = {".py": apply_edits, ".ipynb": apply_notebook_edits}


def lint_report(path: str, data: bytes, args: argparse.Namespace) -> FileReport:
    """lint's report of the file ``path`` whose content is ``data`` (an editor's unsaved text: the language server),
    under ``args`` (lint's parsed flags) and the project configuration of ``path``; nothing is fixed or written."""
    return _file_report(lint_data(path, data, **_options(project.settings_for(args, path), True)))


def _options(settings: argparse.Namespace, named: bool) -> Dict[str, Any]:
    """The keyword arguments of :func:`~sm_debug_config.lint.lint_data` under ``settings`` (``named``: the file was
    named on the command line)."""
    given = ("region", "framework", "framework_version", "image_uri")
    defaults = {name: getattr(settings, name) for name in given if getattr(settings, name)}
    return {"ignore": settings.ignore or (), "defaults": defaults, "given": named}


def _lint_path(path: str, named: bool, settings: argparse.Namespace) -> FileReport:
    """One file's report (``named``: on the command line), fixed as ``settings`` say (``--fix``)."""
    options = _options(settings, named)
    try:
        data = read_bytes(path)
    except SourceError:  # said as lint says it
        return _file_report(lint_file(path, **options))
    first = _file_report(lint_data(path, data, **options))
    if not any(placed.finding.fix is not None for placed in first.findings):  # nothing to fix: as fast as lint
        return first
    notebook = path.endswith(".ipynb")
    writer = WRITERS[".ipynb" if notebook else ".py"]
    how = fixing.fixing_of(settings)
    if writer is None:
        how, writer = how._replace(writable=False), apply_edits
    read = _notebook_text(data) if notebook else _python_text(data)

    def check(text: str) -> FileReport:
        return _file_report(lint_data(path, read.encode(text), **options))

    return fixing.fix_file(path, read, first, check, how, writer, _cell_sources if notebook else _whole)


def _python_text(data: bytes) -> fixing.Read:
    """A ``.py`` file's text as lint reads it (PEP 263), and its way back to bytes in the same encoding."""
    encoding = tokenize.detect_encoding(io.BytesIO(data).readline)[0]
    return fixing.Read(data, data.decode(encoding), lambda text: text.encode(encoding))


def _notebook_text(data: bytes) -> fixing.Read:
    """A notebook's JSON text (UTF-8, a byte-order mark kept on the way back)."""
    bom = b"\xef\xbb\xbf" if data.startswith(b"\xef\xbb\xbf") else b""
    return fixing.Read(data, data[len(bom):].decode("utf-8"), lambda text: bom + text.encode("utf-8"))


def _whole(text: str) -> Iterable[Tuple[Optional[int], str]]:
    return ((None, text),)


def _cell_sources(text: str) -> Iterable[Tuple[Optional[int], str]]:
    """The source of each code cell of a notebook's text, by its index among all cells (what cell edits count in)."""
    return tuple((cell.index, cell.source) for cell in notebook_cells(text.encode("utf-8")))


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
