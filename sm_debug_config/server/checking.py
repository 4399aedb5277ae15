"""What the server checks: an editor's document, run through the command line's own per-file check, its report
turned into LSP diagnostics.

A ``.py`` file or a notebook is ``lint``'s (:func:`sm_debug_config.cli.lint.lint_report`, a notebook document's
cells put back into the notebook JSON lint reads); a YAML, JSON or Terraform file is ``validate``'s
(:func:`sm_debug_config.cli.validate.validate_text`: detect, source, engine). Both take the document's unsaved
text, the editor's settings as the command's flags and the ``[tool.sm-debug-config]`` of the closest
``pyproject.toml`` (read again for every check, so an edit of it counts at the next check), so a diagnostic is the
finding ``--format json`` prints for the same text: its code, severity, message, page and place.
"""
from __future__ import annotations

import argparse
import json
import os
import re
from typing import Any, Dict, FrozenSet, List, NamedTuple, Optional, Sequence

import attrs

from lsprotocol import types
from pygls.uris import to_fs_path

from sm_debug_config.cli import COMMANDS, fixing, project
from sm_debug_config.cli.common import PROG, READS, Parser, UsageError
from sm_debug_config.cli.lint import lint_report
from sm_debug_config.cli.validate import validate_text
from sm_debug_config.findings import Finding
from sm_debug_config.limits import MAX_FILE_BYTES, MiB
from sm_debug_config.reports import FileReport, Placed
from sm_debug_config.server.text import TextLines, token_end
from sm_debug_config.apischema import SMD001
from sm_debug_config.validation.registry import SMD181

__all__ = ["LINT", "VALIDATE", "Diagnosed", "Piece", "Settings", "check", "check_job", "command_of", "diagnostics",
           "file_path", "refusal"]

LINT = "lint"
VALIDATE = "validate"
#: The LSP language ids a document without a telling name is checked by (an untitled buffer).
_LANGUAGES = {"python": LINT, "yaml": VALIDATE, "json": VALIDATE, "jsonc": VALIDATE, "terraform": VALIDATE,
              "hcl": VALIDATE}
#: The name an unsaved document is checked under, by command (lint and validate tell formats by the name).
_UNTITLED = {LINT: "untitled.py", VALIDATE: "untitled.yaml"}
SOURCE = "sm-debug-config"
_SEVERITY = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning,
             "info": types.DiagnosticSeverity.Information}
#: Where lint's message of a cell that does not parse names its place: ``path:cell N:line:col: cannot parse``.
_CELL_PLACE = re.compile(r":cell (\d+)(?::(\d+))?(?::(\d+))?: cannot parse")


def command_of(path: str, language: Optional[str] = None) -> Optional[str]:
    """The command that checks a document named ``path`` (by its name as the CLI tells, then by the editor's
    ``language`` id), or None for a document neither reads."""
    lowered = path.lower()
    for command in (LINT, VALIDATE):
        if lowered.endswith(READS[command][0]):
            return command
    return _LANGUAGES.get((language or "").lower())


class Settings:
    """The editor's settings (``initializationOptions``, ``workspace/didChangeConfiguration``) as each command's
    parsed flags: the keys of ``[tool.sm-debug-config]`` (``ignore``, ``select``, ``region``, ``framework``...) and
    ``config`` (a pyproject.toml read for every file) or ``isolated`` (none). A value the command would refuse
    is left out and said in :attr:`problems`."""

    def __init__(self, given: Optional[Dict[str, Any]] = None) -> None:
        self.given = dict(given or {})
        self.args: Dict[str, argparse.Namespace] = {}
        names = {key.name for key in project.KEYS}
        refused: Dict[str, str] = {}
        accepted = set()
        for command in (LINT, VALIDATE):
            module = COMMANDS[command].load()
            flags: List[str] = []
            if isinstance(self.given.get("config"), str) and self.given["config"]:
                flags += ["--config", self.given["config"]]
            if self.given.get("isolated") is True:
                flags.append("--isolated")
            for name, value in self.given.items():
                if name not in names:
                    continue
                try:
                    more = project.as_flags({name: value})
                    _parse(module, flags + more)
                except (UsageError, TypeError, ValueError, AttributeError) as err:
                    refused.setdefault(name, str(err) or type(err).__name__)
                    continue
                flags += more
                accepted.add(name)
            self.args[command] = _parse(module, flags)
        unknown = sorted(set(self.given) - names - {"config", "isolated"})
        #: what was left out, for the editor to show
        self.problems = [f"setting {name!r} refused: {why}" for name, why in refused.items() if name not in accepted]
        self.problems += [f"unknown setting {name!r} (allowed: {', '.join(sorted(names | {'config', 'isolated'}))})"
                          for name in unknown]


def _parse(module: Any, flags: List[str]) -> argparse.Namespace:
    """A command's flags parsed as its own parser parses them (a :class:`UsageError` for a bad one)."""
    parser = Parser(prog=f"{PROG} server")
    module.add_arguments(parser)
    return parser.parse_args(["-", *flags])


class Piece(NamedTuple):
    """A text the check's places count in: a document, or a notebook cell (its document ``uri``)."""

    uri: str
    text: str


class Diagnosed(NamedTuple):
    """One diagnostic and where it is published (``uri``: the document or the notebook cell), with the finding it
    says (None for a file that cannot be read, or a setting refused)."""

    uri: str
    diagnostic: types.Diagnostic
    finding: Optional[Finding] = None
    #: the text of the piece it is in (for its fix's edits)
    text: str = ""


def check(path: str, command: str, pieces: Sequence[Piece], settings: Settings, *,
          cell_kinds: Optional[Sequence[bool]] = None) -> FileReport:
    """The command's report for a document: ``pieces`` is its text, or a notebook's cells (``cell_kinds``: for each,
    whether it is a code cell) put back into the notebook JSON lint reads. ``path``: the document's file (its
    project configuration, its format by its name)."""
    args = settings.args[command]
    project.projects(args, [path])  # as each run starts: pyproject.toml read again (a UsageError if it is bad)
    own = project.settings_for(args, path)
    if own.excluded:
        return FileReport(path, skipped="excluded by the project's settings")
    return _without_unfixable(_check(path, command, pieces, args, cell_kinds),
                              fixing.fixing_of(own).unfixable)


def _without_unfixable(report: FileReport, unfixable: FrozenSet[str]) -> FileReport:
    """``report`` without the fixes of the codes the project names ``unfixable`` (``--fix`` never applies them, so
    neither a quick fix nor "fix all" does)."""
    if not unfixable:
        return report
    findings = [placed._replace(finding=placed.finding.replace(fix=None)) if placed.finding.code in unfixable
                else placed for placed in report.findings]
    return attrs.evolve(report, findings=findings)


def _check(path: str, command: str, pieces: Sequence[Piece], args: argparse.Namespace,
           cell_kinds: Optional[Sequence[bool]]) -> FileReport:
    if cell_kinds is not None:
        cells: List[Dict[str, Any]] = [
            {"cell_type": "code" if code else "markdown", "metadata": {}, "source": piece.text,
             **({"outputs": [], "execution_count": None} if code else {})}
            for piece, code in zip(pieces, cell_kinds)]
        data = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode("utf-8")
        return _too_large(path, len(data), MAX_FILE_BYTES[".ipynb"], command) or lint_report(path, data, args)
    text = pieces[0].text
    size = len(text.encode("utf-8", "surrogatepass"))
    limit = MAX_FILE_BYTES[".py"] if command == LINT else max(MAX_FILE_BYTES.values())
    too_large = _too_large(path, size, limit, command)
    if too_large is not None:
        return too_large
    if command == LINT:
        return lint_report(path, text.encode("utf-8", "surrogatepass"), args)
    return validate_text(path, text, args)


def check_job(path: str, command: str, pieces: Sequence[Piece], kinds: Optional[Sequence[bool]],
              settings: Settings, encoding: str = "utf-16") -> List[Diagnosed]:
    """The diagnostics of a document (:func:`check`, then :func:`diagnostics`); a check that cannot run says why at
    the top of the document (a bad pyproject.toml as the command line says it), never raises."""
    try:
        report = check(path, command, pieces, settings, cell_kinds=kinds)
        code_cells = [index for index, code in enumerate(kinds) if code] if kinds is not None else None
        return diagnostics(report, pieces, code_cells, encoding)
    except UsageError as err:
        return refusal(pieces, str(err))
    except Exception as err:  # noqa: BLE001 - the promise is: a diagnostic, never a dead server
        return refusal(pieces, f"internal error: {type(err).__name__}: {err} (please report this)")


def _too_large(path: str, size: int, limit: int, command: str) -> Optional[FileReport]:
    """A report of a document larger than ``command`` reads, with a hint that says so (a file nobody checks never
    looks clean); None for one that is not."""
    if size <= limit:
        return None
    note = SMD181.at((), f"not checked: {size / MiB:.1f} MiB, over the {limit // MiB} MiB {command} reads")
    return FileReport(path, notes=[note], skipped="too large")


def diagnostics(report: FileReport, pieces: Sequence[Piece], code_cells: Optional[Sequence[int]] = None,
                encoding: str = "utf-16") -> List[Diagnosed]:
    """Every diagnostic of ``report``: its findings, the values it did not check (hints), and the error of a
    file it could not read. ``code_cells``: for a notebook, the index in ``pieces`` of each code cell (lint numbers
    code cells from 1)."""
    lines = [TextLines(piece.text, encoding) for piece in pieces]

    def piece_of(cell: Optional[int]) -> int:
        if code_cells is None or not cell or cell > len(code_cells):
            return 0
        return code_cells[cell - 1]

    out: List[Diagnosed] = []
    for placed in list(report.findings) + [note for note in report.notes if note.finding.message.startswith(
            "not checked")]:
        index = piece_of(placed.cell)
        out.append(Diagnosed(pieces[index].uri, _diagnostic(placed, lines[index]), placed.finding, pieces[index].text))
    if report.error is not None:
        index, line, column = 0, report.error.line, report.error.column
        found = _CELL_PLACE.search(report.error.message) if code_cells is not None else None
        if found:
            index = piece_of(int(found.group(1)))
            line = int(found.group(2)) if found.group(2) else None
            column = int(found.group(3)) if found.group(3) else None
        start = lines[index].position(line or 1, column or 1)
        end = lines[index].position_of(token_end(pieces[index].text, lines[index].offset_at(line or 1, column or 1)))
        out.append(Diagnosed(pieces[index].uri, types.Diagnostic(
            range=types.Range(types.Position(*start), types.Position(*end)), message=report.error.message,
            severity=types.DiagnosticSeverity.Error, source=SOURCE), None, pieces[index].text))
    return out


def refusal(pieces: Sequence[Piece], message: str) -> List[Diagnosed]:
    """A diagnostic at the top of the document for what stopped its check (a bad pyproject.toml)."""
    at = types.Range(types.Position(0, 0), types.Position(0, 0))
    error = types.DiagnosticSeverity.Error
    return [Diagnosed(pieces[0].uri, types.Diagnostic(range=at, message=message, severity=error, source=SOURCE))]


def _diagnostic(placed: Placed, lines: TextLines) -> types.Diagnostic:
    finding = placed.finding
    line, column = finding.line or 1, finding.column or 1
    offset = lines.offset_at(line, column)
    start = lines.position_of(offset)
    end = lines.position_of(token_end(lines.text, offset)) if finding.line is not None else start
    hint = finding.code in (SMD001.code, SMD181.code)  # a value known only at run time: not checked
    url = finding.url
    return types.Diagnostic(
        range=types.Range(types.Position(*start), types.Position(*end)),
        message=finding.message,
        severity=types.DiagnosticSeverity.Hint if hint else _SEVERITY.get(finding.severity),
        code=finding.code,
        code_description=types.CodeDescription(href=url) if url else None,
        source=SOURCE,
    )


def file_path(uri: str, command: Optional[str]) -> str:
    """The file a document's ``uri`` names (a ``file:`` URI), else a name in the current directory that says its
    format (an unsaved buffer)."""
    if uri.startswith("file:"):
        path = to_fs_path(uri)
        if path:
            return str(path)
    return os.path.join(os.getcwd(), _UNTITLED.get(command or LINT, "untitled.py"))
