"""``--fix``, ``--unsafe-fixes``, ``--diff`` and ``--fix-only`` of validate and lint: the fix loop, and writing.

The loop is the same for every format (ruff's): check the text, take the fixes the run applies
(:func:`~sm_debug_config.fixes.applicable`: safe ones, unsafe ones too with ``--unsafe-fixes``; never an
``unfixable`` code's, nor a suppressed finding's), apply one pass of them (``apply``: the format's writer, by
default :func:`~sm_debug_config.fixes.apply_edits`; a notebook's maps cell edits into its JSON), check the new
**text** again (not the file), and repeat until no fix applies or :data:`MAX_PASSES` passes are done. A file whose
first check has no fix the run applies is not checked again: ``--fix`` costs nothing where nothing needs fixing.

Writing (:func:`write_back`) happens only when the text changed, only when the file on disk still holds the bytes
that were read (else the file is refused with its own error: someone else changed it meanwhile), and atomically:
a temporary file in the same directory, its mode the file's, renamed over it. Whatever fails on the way leaves the
original whole.

>>> from sm_debug_config.fixes import SAFE, Change, Edit, Fix
>>> from sm_debug_config.findings import CHECKS
>>> def check(text):
...     fix = Fix(SAFE, "quote it", [Change("set", ("n",), "20")], [Edit(6, 8, '"20"')]) if ": 20" in text else None
...     return FileReport("f.json", [CHECKS["SMD100"].at(("n",), "a number", fix=fix)] if fix else [])
>>> text, report, fixed = fix_loop('{"n": 20}', check('{"n": 20}'), check, Fixing(write=True))
>>> text, report.findings, fixed
('{"n": "20"}', (), 1)
"""
from __future__ import annotations

import argparse
import contextlib
import difflib
import os
import stat
import sys
from typing import Any, Callable, Iterable, NamedTuple, Optional, Sequence, Tuple, TypeVar

import attrs

from sm_debug_config import codes
from sm_debug_config.cli.common import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, PROG, code_list
from sm_debug_config.cli.report import report
from sm_debug_config.configfile.text import STDIN_NAMES
from sm_debug_config.fixes import Edit, apply_edits
from sm_debug_config.reports import FileReport, Placed, Report, Unreadable
from sm_debug_config.reports.report import FIX_ONLY

__all__ = ["MAX_PASSES", "Fixing", "Read", "add_arguments", "finish", "fix_file", "fix_loop", "fixing_of", "mode",
           "write_back"]

#: Passes of the loop at most (ruff: 100). A pass applies every fix that does not overlap another; the next pass
#: takes what overlapped. A file still fixable after this many is reported with what remains.
MAX_PASSES = 10

#: ``apply(text, fixes)``: ``text`` with as many of ``fixes`` (each a sequence of edits) as one pass can take, and
#: how many were taken (:func:`~sm_debug_config.fixes.apply_edits`, or a notebook's writer).
Apply = Callable[[str, Sequence[Sequence[Edit]]], Tuple[str, int]]
#: What :func:`fix_loop` fixes: a file's text, or the texts of a notebook's cells by index.
Text = TypeVar("Text")
#: ``check(text)``: the file's report for ``text`` (never raising: a text that cannot be read is the report's
#: ``error``).
Check = Callable[[str], FileReport]


class Fixing(NamedTuple):
    """What a run does with fixes, for one file (the project's ``fix``, ``unsafe-fixes``, ``unfixable`` merged under
    the flags): ``write`` the fixed text (``--fix``), show it as a ``diff`` and write nothing (``--diff``), report
    only what was fixed (``only``: ``--fix-only``), apply ``unsafe`` fixes too, never the fixes of ``unfixable``
    codes."""

    write: bool = False
    diff: bool = False
    only: bool = False
    unsafe: bool = False
    unfixable: frozenset = frozenset()
    #: whether the file's format can be written (a format whose writer is not there reports its fixes only)
    writable: bool = True

    @property
    def on(self) -> bool:
        """Whether fixes are applied at all (to the file, or to show the diff)."""
        return self.write or self.diff

    def applies(self, placed: Placed) -> bool:
        """Whether the run applies the fix of ``placed``: placed by the source (edits), safe or ``unsafe`` on, its
        code not ``unfixable``."""
        fix = placed.finding.fix
        return (self.writable and fix is not None and fix.edits is not None and (fix.safe or self.unsafe)
                and placed.finding.code not in self.unfixable)

    def hidden(self, placed: Placed) -> bool:
        """Whether ``placed`` has an unsafe fix that ``--unsafe-fixes`` would apply."""
        fix = placed.finding.fix
        return (self.writable and fix is not None and fix.edits is not None and not fix.safe and not self.unsafe
                and placed.finding.code not in self.unfixable)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--fix``, ``--no-fix``, ``--unsafe-fixes``, ``--no-unsafe-fixes``, ``--unfixable``, ``--diff`` and
    ``--fix-only`` (ruff's flags)."""
    parser.add_argument("--fix", action="store_const", const=True, default=None,
                        help="apply the safe fixes of the findings to the files, then report what remains "
                             "(a file changed on disk since it was read is not written)")
    parser.add_argument("--no-fix", dest="fix", action="store_const", const=False,
                        help="apply no fix (over fix = true in pyproject.toml)")
    parser.add_argument("--unsafe-fixes", action="store_const", const=True, default=None,
                        help="with --fix, --diff or --fix-only: apply the unsafe fixes too (likely what was meant, "
                             "but they change what runs)")
    parser.add_argument("--no-unsafe-fixes", dest="unsafe_fixes", action="store_const", const=False,
                        help="apply no unsafe fix (over unsafe-fixes = true in pyproject.toml)")
    parser.add_argument("--unfixable", action="extend", type=code_list, metavar="CODE[,CODE]",
                        help="never apply the fixes of these check codes (or prefixes; repeatable)")
    parser.add_argument("--diff", action="store_true",
                        help="print a unified diff of what the fixes would change and write nothing (exit 1 when "
                             "something would change)")
    parser.add_argument("--fix-only", action="store_true",
                        help="apply the fixes and report only what was fixed: exit 0 whatever remains")


def fixing_of(settings: argparse.Namespace) -> Fixing:
    """The fixing of one file: ``settings`` are the run's flags with the file's project section merged under
    them (:func:`~sm_debug_config.cli.project.settings_for`)."""
    diff = bool(getattr(settings, "diff", False))
    only = bool(getattr(settings, "fix_only", False))
    write = (bool(getattr(settings, "fix", None)) or only) and not diff
    unfixable = frozenset(code for item in getattr(settings, "unfixable", None) or () for code in codes.codes_of(item))
    return Fixing(write, diff, only, bool(getattr(settings, "unsafe_fixes", None)), unfixable)


def marked(report: FileReport, fixing: Fixing) -> FileReport:
    """``report`` with each finding whose fix the run applies marked ``fixable``, its ``hidden_fixes`` counted and,
    when a finding has edits, the ``texts`` they count in kept (``texts`` given by the caller)."""
    if not any(placed.finding.fix is not None for placed in report.findings):
        return report
    findings = [placed._replace(fixable=fixing.applies(placed)) for placed in report.findings]
    return attrs.evolve(report, findings=findings, hidden_fixes=sum(1 for p in report.findings if fixing.hidden(p)))


def fix_loop(
    text: Text, first: FileReport, check: Callable[[Text], FileReport], fixing: Fixing,
    apply: Callable[[Text, Sequence[Sequence[Edit]]], Tuple[Text, int]] = apply_edits,  # type: ignore[assignment]
    passes: int = MAX_PASSES,
) -> Tuple[Text, FileReport, int]:
    """The fixed text, its report and how many fixes were applied: ``first`` is the report of ``text``; each pass
    applies the fixes ``fixing`` takes and checks the new text. A pass whose text cannot be read any more (a fix
    that broke it: an error ``first`` did not have, such as a notebook's cell that did not parse before) is undone,
    and the report says so as the file's error. ``text`` is a file's text (``apply``: :data:`Apply`), or the
    editor's texts of a document's pieces by cell (``apply``: :func:`~sm_debug_config.fixes.apply_cell_edits`)."""
    report, fixed = first, 0
    for _ in range(passes):
        chosen = [placed.finding.fix.edits for placed in report.findings  # type: ignore[union-attr]
                  if fixing.applies(placed)]
        if not chosen:
            break
        unique = list(dict.fromkeys(chosen))  # two findings mended by the same edits: one fix, both fixed
        new_text, count = apply(text, unique)  # type: ignore[arg-type]
        if not count or new_text == text:
            break
        if count == len(unique):
            count = len(chosen)
        new_report = check(new_text)
        if new_report.error is not None and (first.error is None or new_report.error.message != first.error.message):
            why = f"a fix made the file unreadable ({new_report.error.message}); stopped before it (please report this)"
            return text, attrs.evolve(report, error=Unreadable(f"{report.path}: {why}")), fixed
        text, report, fixed = new_text, new_report, fixed + count
    return text, report, fixed


class Read(NamedTuple):
    """A file as read: its ``data`` (bytes), its ``text`` (what fixes' offsets count in) and ``encode``, which
    gives the bytes of a text (the file's encoding, its byte-order mark kept)."""

    data: bytes
    text: str
    encode: Callable[[str], bytes]


def fix_file(path: str, read: Read, first: FileReport, check: Check, fixing: Fixing, apply: Apply = apply_edits,
             texts: Callable[[str], Iterable[Tuple[Optional[int], str]]] = lambda text: ((None, text),)) -> FileReport:
    """The report of ``path`` once fixed as ``fixing`` says (``first``: the report of ``read.text``): the fixes
    applied and written (or, with ``--diff``, the diff kept to print), the findings of the fixed text marked
    ``fixable`` or not; ``texts(text)``: the texts the edits count in, by notebook cell (JSON and SARIF place the
    edits with them). A file that cannot be written, or that changed on disk since it was read, keeps its original
    and gets an error of its own."""
    report, text, fixed = first, read.text, 0
    # a file with an error and findings: a notebook with a cell that does not parse (the others are checked)
    if fixing.on and any(fixing.applies(placed) for placed in first.findings):
        if fixing.write and path in STDIN_NAMES:
            return attrs.evolve(marked(first, fixing), texts=tuple(texts(text)), error=Unreadable(
                f"{path}: standard input cannot be fixed in place (--diff shows the fixes)"))
        text, report, fixed = fix_loop(read.text, first, check, fixing, apply)
    if fixed:
        data = read.encode(text)
        if fixing.diff:
            report = attrs.evolve(report, diff=unified_diff(path, read.text, text))
        elif data != read.data:
            problem = write_back(path, read.data, data)
            if problem is not None:  # the original stays: so do its findings
                return attrs.evolve(marked(first, fixing), texts=tuple(texts(read.text)),
                                    error=Unreadable(f"{path}: not fixed: {problem}"))
        report = attrs.evolve(report, fixed=fixed)
    report = marked(report, fixing)
    if any(placed.finding.fix is not None and placed.finding.fix.edits for placed in report.findings):
        report = attrs.evolve(report, texts=tuple(texts(text)))
    if fixing.only or fixing.diff:  # what is left is not reported (ruff's --fix-only, and --diff)
        report = attrs.evolve(report, findings=(), texts=())
    return report


def unified_diff(path: str, before: str, after: str) -> str:
    """The unified diff of ``before`` and ``after`` (``path`` named on both sides, as ruff's ``--diff``), a line
    without its final newline marked as ``diff`` marks it."""
    lines = []
    for line in difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                     fromfile=path, tofile=path):
        lines.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(lines)


def write_back(path: str, original: bytes, data: bytes) -> Optional[str]:
    """Write ``data`` to the file at ``path`` in place of ``original`` (the bytes that were read): None when it is
    written, else why not. The file is written only while it still holds ``original``; the new bytes go to a
    temporary file beside it (the file's mode), renamed over it, so that the file is either as it was or wholly
    new; a symbolic link is followed (the file it names is written, the link kept)."""
    target = os.path.realpath(path)
    try:
        info = os.stat(target)
        with open(target, "rb") as handle:
            now = handle.read(len(original) + 1)
    except OSError as err:
        return f"cannot read it again: {err.strerror or err}"
    if now != original:
        return "it changed on disk since it was read (run again)"
    try:
        fd, temporary = _beside(target, stat.S_IMODE(info.st_mode))
    except OSError as err:
        return f"cannot write beside it: {err.strerror or err}"
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, stat.S_IMODE(info.st_mode))
        os.replace(temporary, target)
    except BaseException as err:  # the original is untouched until the rename; the temporary file goes
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if not isinstance(err, OSError):  # Ctrl-C: stopped, the file as it was
            raise
        return f"cannot write it: {err.strerror or err}"
    return None


def _beside(target: str, mode: int) -> Tuple[int, str]:
    """A new file in the directory of ``target`` (created here, no other process's: ``O_EXCL``), open for writing:
    ``.NAME.PID.N.fix``."""
    folder, name = os.path.split(target)
    for attempt in range(100):
        temporary = os.path.join(folder, f".{name}.{os.getpid()}.{attempt}.fix")
        try:
            return os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode & 0o777 | 0o600), temporary
        except FileExistsError:
            continue
    raise FileExistsError(f"{folder}: every temporary name taken")


def mode(args: argparse.Namespace, used: Sequence[Any]) -> str:
    """What the run's summary says of fixes (:attr:`~sm_debug_config.reports.Options.fixing`): ``fix-only``,
    ``fix`` (``--fix``, or ``fix = true`` in a project section used: fixed and remaining are said), else nothing."""
    if getattr(args, "fix_only", False):
        return FIX_ONLY
    on = getattr(args, "fix", None)
    if on is None:
        on = any(project.values.get("fix") for project in used)
    return "fix" if on else ""


def finish(result: Report, args: argparse.Namespace, used: Sequence[Any]) -> int:
    """Print the run's ``result`` and return its exit code: with ``--diff`` each file's diff on stdout, how many
    fixes it would apply and the files that could not be read on stderr, exit 1 when something would change (2:
    a file could not be read); else the report as the command prints it (:func:`~sm_debug_config.cli.report.report`),
    its summary saying what was fixed."""
    if not getattr(args, "diff", False):
        return report(result, args, mode(args, used))
    count = 0
    for file in result.files:
        if file.diff:
            sys.stdout.write(file.diff)
        count += file.fixed
    for file in result.unreadable:
        if file.error is not None:
            sys.stderr.write(f"{PROG}: {file.error.message}\n")
    noun = "fix" if count == 1 else "fixes"
    sys.stderr.write(f"{PROG}: would apply {count} {noun}\n" if count else f"{PROG}: no fix to apply\n")
    if result.unreadable:
        return EXIT_USAGE
    return EXIT_FINDINGS if count else EXIT_OK
