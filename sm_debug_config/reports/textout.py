"""Text output for people: the source line under a finding with a caret at its column, and colour on a terminal.

A finding's ``line`` counts from 1 and its ``column`` counts characters from 1 (a tab is one character),
in the file or, in a notebook, in the code cell. The excerpt shows that line as a terminal shows it:
tabs expanded to the next stop of :data:`TAB_STOP`, East Asian wide characters two cells, combining marks
none, control and format characters (an escape sequence, a bidirectional override) as U+FFFD so that a file
cannot write to the terminal; a line wider than :data:`WIDTH` is cut to a window around the column, each
cut end marked with an ellipsis. The carets underline the token at the column (a quoted string, or up to
the next space or delimiter).

>>> print(excerpt("  threshhold: 0.1", 13, 3), end="")
   13 |   threshhold: 0.1
      |   ^^^^^^^^^^
"""
from __future__ import annotations

import io
import os
import stat
import tokenize
import unicodedata
from typing import IO, Dict, List, Optional, Tuple

from sm_debug_config.errors import ERROR, INFO, WARNING
from sm_debug_config.limits import MAX_FILE_BYTES
from sm_debug_config.lint.sources import SourceError, notebook_cells

#: Columns a tab advances to the next multiple of (ruff's default ``tab-size``).
TAB_STOP = 4
#: Widest excerpt line, in terminal cells, before the gutter (longer lines are cut around the column).
WIDTH = 100
#: Largest file read again for its excerpts: the largest any command reads (it refuses larger files before this).
MAX_BYTES = max(MAX_FILE_BYTES.values())
#: SGR parameters of each severity word and its carets: bold red, yellow, cyan.
COLOURS = {ERROR: "1;31", WARNING: "1;33", INFO: "1;36"}
#: Characters that end an unquoted token (a YAML ``: `` or flow ``,``, a call's parenthesis...).
_DELIMITERS = frozenset(",;()[]{}=#")
_REPLACEMENT = "\ufffd"


def colour(stream: IO[str]) -> bool:
    """Whether to colour what is written to ``stream``: never with ``NO_COLOR`` set to anything
    (no-color.org), always with ``FORCE_COLOR`` set to anything (force-color.org), else when ``stream`` is a
    terminal that is not ``TERM=dumb``. The one place this is decided; only text output asks it.

    >>> colour(io.StringIO())
    False
    """
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (ValueError, OSError):  # a closed stream
        return False


def paint(text: str, severity: str, on: bool) -> str:
    """``text`` in ``severity``'s colour when ``on``."""
    return f"\x1b[{COLOURS[severity]}m{text}\x1b[0m" if on and severity in COLOURS else text


def _cells(char: str) -> Tuple[str, int]:
    """How ``char`` is shown (at a tab stop of its own: the caller expands tabs) and how many cells it takes."""
    if " " <= char < "\x7f":
        return char, 1
    category = unicodedata.category(char)
    if category in ("Cc", "Cf", "Cs", "Zl", "Zp"):  # controls, bidi overrides, lone surrogates, line separators
        return _REPLACEMENT, 1
    if unicodedata.combining(char) or category in ("Mn", "Me"):
        return char, 0
    return char, 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def _token_end(text: str, start: int) -> int:
    """The index after the token at ``start``: a quoted string through its closing quote, else up to a space,
    a delimiter or a ``:`` that a space or the line's end follows (``s3://bucket`` is one token)."""
    if start >= len(text):
        return start
    quote = text[start]
    if quote in "\"'":
        index = start + 1
        while index < len(text):
            if text[index] == "\\":
                index += 2
                continue
            if text[index] == quote:
                return index + 1
            index += 1
        return len(text)
    index = start
    while index < len(text):
        char = text[index]
        if char.isspace() or char in _DELIMITERS or (char == ":" and text[index + 1: index + 2] in ("", " ", "\t")):
            break
        index += 1
    return max(index, start + 1)


def excerpt(text: str, line: int, column: Optional[int], severity: str = ERROR, on: bool = False) -> str:
    """``text`` (line ``line`` of a file) with a gutter, and carets under the token at ``column`` (1-based, in
    characters; None: the line alone). ``on``: the carets in ``severity``'s colour."""
    start = min(max((column or 1) - 1, 0), len(text))
    # a long line (a request's JSON on one line) is looked at around the column only: 2 * WIDTH characters each
    # side fill the window (its tab stops then count from the cut)
    low, high = max(0, start - 2 * WIDTH), min(len(text), start + 2 * WIDTH)
    cut_left, cut_right = low > 0, high < len(text)
    text, start = text[low:high], start - low
    shown: List[Tuple[str, int]] = []  # (what is shown, cells) per character of text
    at = 0
    for char in text:
        if char == "\t":
            width = TAB_STOP - at % TAB_STOP
            shown.append((" " * width, width))
        else:
            shown.append(_cells(char))
        at += shown[-1][1]
    end = _token_end(text, start)
    before = sum(w for _, w in shown[:start])
    under = max(sum(w for _, w in shown[start:end]), 1)
    total = sum(w for _, w in shown)
    first, last = 0, len(shown)  # the characters kept
    if total > WIDTH or cut_left or cut_right:
        left = max(0, before - WIDTH // 3)  # the cells cut on the left
        cells = 0
        while first < len(shown) and cells + shown[first][1] <= left:
            cells += shown[first][1]
            first += 1
        cut_left = cut_left or first > 0
        room, last = WIDTH - (1 if cut_left else 0), first
        while last < len(shown) and room - shown[last][1] >= (1 if last + 1 < len(shown) or cut_right else 0):
            room -= shown[last][1]
            last += 1
        cut_right = cut_right or last < len(shown)
        before -= cells - (1 if cut_left else 0)
        under = max(min(under, WIDTH - before), 1)
    cut = "\u2026"  # an ellipsis where the line goes on
    body = (cut if cut_left else "") + "".join(s for s, _ in shown[first:last]) + (cut if cut_right else "")
    gutter = " " * len(str(line))
    out = f"  {line} | {body}".rstrip() + "\n"
    if column is not None:
        out += f"  {gutter} | {' ' * before}{paint('^' * under, severity, on)}\n"
    return out


class SourceFile:
    """One file's lines, read the first time an excerpt needs them (at most once; never for a file with no
    positioned finding), by code cell in a notebook (cell None: the whole file)."""

    __slots__ = ("path", "_cells")

    def __init__(self, path: str) -> None:
        self.path = path
        self._cells: Optional[Dict[Optional[int], List[str]]] = None

    def line(self, number: Optional[int], cell: Optional[int] = None) -> Optional[str]:
        """Line ``number`` (from 1) of the file or of code cell ``cell``; None when it cannot be told."""
        if not number or number < 1:
            return None
        if self._cells is None:
            self._cells = _read(self.path)
        lines = self._cells.get(cell)
        return lines[number - 1] if lines is not None and number <= len(lines) else None

    def excerpt(self, line: Optional[int], column: Optional[int], severity: str, on: bool,
                cell: Optional[int] = None) -> str:
        """:func:`excerpt` of ``line`` (empty when the line is not known)."""
        text = self.line(line, cell)
        return excerpt(text, line, column, severity, on) if text is not None and line else ""


def _lines(text: str) -> List[str]:
    """``text`` cut at line breaks as the parsers count lines (``\\n``, ``\\r\\n``, ``\\r``; not ``\\f``...)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _read(path: str) -> Dict[Optional[int], List[str]]:
    """``{None: lines}`` of a file, ``{cell number: lines}`` of a notebook's code cells; ``{}`` if unreadable."""
    if path == "-":  # standard input was read once, by the command
        return {}
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
            return {}
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES)
    except OSError:
        return {}
    if path.endswith(".ipynb"):
        try:
            return {cell.number: _lines(cell.source) for cell in notebook_cells(data)}
        except SourceError:
            return {}
    try:  # PEP 263 for Python sources (a BOM dropped, as the config-file reader drops it); else UTF-8
        encoding = tokenize.detect_encoding(io.BytesIO(data).readline)[0]
    except SyntaxError:
        encoding = "utf-8"
    try:
        return {None: _lines(data.decode(encoding, "replace"))}
    except LookupError:
        return {None: _lines(data.decode("utf-8", "replace"))}
