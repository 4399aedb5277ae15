"""Where each character of a string value is in the file: so that a position inside text embedded in a string
(a pipeline definition's JSON in a CloudFormation template) is a line and column of the file.

The value (as the parser decoded it) is matched to the scalar as written, from its start: a block scalar's
content begins on the line after its header (``|``, ``>``, with chomping and indentation indicators, a
comment); a quoted scalar's escapes (``\\n``, ``\\"``, ``\\u00e9``, YAML's ``''``) stand for one character at
their backslash (or quote). Whitespace is matched loosely, because YAML rewrites it: indentation is dropped,
and folding (``>``, and line breaks inside quoted or plain scalars) turns a line break into a space or drops
it. What folding never does is move, add or drop any other character, so every non-blank character of the
value is found exactly, in order; a blank one is given the place of the next written character. Where the
two ever disagree (a scalar this reading does not know), the characters from there on have no place, and
the caller falls back to the key's own position: never a wrong line.

>>> text = 'Body: |\\n  {\\n    "a": 1\\n  }\\n'
>>> places = StringPositions.of(text, text.index("|"), '{\\n  "a": 1\\n}\\n', line_starts(text))
>>> places.position(4), places.position(9)
((3, 5), (3, 10))
"""
from __future__ import annotations

import bisect
import re
from typing import Iterator, List, Optional, Sequence, Tuple

#: What YAML may rewrite in a value: spaces, tabs and line breaks (PyYAML and libyaml read all of these as breaks).
BLANKS = frozenset(" \t\r\n\x85\u2028\u2029")
#: One line break as YAML counts lines (``\r\n`` is one).
LINE_BREAKS = re.compile("\r\n|[\r\n\x85\u2028\u2029]")

#: A double-quoted scalar's one-character escapes (YAML 1.2, a superset of JSON's), to what they stand for.
_ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r",
    "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029",
}
_HEX_DIGITS = {"x": 2, "u": 4, "U": 8}


def _header_end(text: str, index: int) -> int:
    """The index just past the line break ending a block scalar's header line (its indicators and comment)."""
    found = LINE_BREAKS.search(text, index)
    return found.end() if found else len(text)


def _scalar_start(text: str, start: int) -> int:
    """The index of the scalar's first written character (indicator, quote or plain text), past its tag and
    anchor (``!Sub``, ``&body``) and the blanks and comments that may follow them."""
    index = start
    while index < len(text):
        char = text[index]
        if char in "!&":
            while index < len(text) and text[index] not in BLANKS:
                index += 1
        elif char in BLANKS:
            index += 1
        elif char == "#" and index > start and text[index - 1] in BLANKS:
            found = LINE_BREAKS.search(text, index)
            index = found.start() if found else len(text)
        else:
            return index
    return index


def _double_quoted(text: str, index: int) -> Iterator[Tuple[int, str]]:
    """``(index, character)`` of a double-quoted scalar (YAML or JSON) from its opening quote at ``index``."""
    index += 1
    while index < len(text):
        char = text[index]
        if char == '"':
            return
        if char != "\\":
            yield index, char
            index += 1
            continue
        code = text[index + 1:index + 2]
        if code in ("\n", "\r", "\x85", "\u2028", "\u2029"):  # an escaped line break: stands for nothing
            index += 3 if text[index + 1:index + 3] == "\r\n" else 2
        elif code in _ESCAPES:
            yield index, _ESCAPES[code]
            index += 2
        elif code in _HEX_DIGITS:
            digits = text[index + 2:index + 2 + _HEX_DIGITS[code]]
            try:
                number = int(digits, 16)
            except ValueError:
                return
            width = 2 + len(digits)
            low = text[index + width:index + width + 6]
            if 0xD800 <= number < 0xDC00 and low[:2] == "\\u":  # JSON's surrogate pair: one character
                try:
                    second = int(low[2:], 16)
                except ValueError:
                    second = 0
                if 0xDC00 <= second < 0xE000:
                    number, width = 0x10000 + ((number - 0xD800) << 10) + (second - 0xDC00), width + 6
            yield index, chr(number)
            index += width
        else:
            return  # an escape this reading does not know: no place from here on


def _single_quoted(text: str, index: int) -> Iterator[Tuple[int, str]]:
    """``(index, character)`` of a single-quoted YAML scalar from its opening quote at ``index`` (``''`` is ``'``)."""
    index += 1
    while index < len(text):
        if text[index] == "'":
            if text[index + 1:index + 2] != "'":
                return
            yield index, "'"
            index += 2
        else:
            yield index, text[index]
            index += 1


def _written(text: str, start: int) -> Iterator[Tuple[int, str]]:
    """``(index, character)`` of the scalar starting at ``start`` as written, escapes decoded (see the module)."""
    index = _scalar_start(text, start)
    char = text[index:index + 1]
    if char in ("|", ">"):
        index = _header_end(text, index)
    elif char == '"':
        yield from _double_quoted(text, index)
        return
    elif char == "'":
        yield from _single_quoted(text, index)
        return
    for at in range(index, len(text)):  # a block scalar's content, or a plain scalar: as written
        yield at, text[at]


def _aligned(written: Iterator[Tuple[int, str]], value: str) -> List[int]:
    """The index in the text of each character of ``value``, as far as the two agree (see the module)."""
    out: List[int] = []
    pending: Optional[Tuple[int, str]] = next(written, None)
    for char in value:
        if char in BLANKS:
            if pending is None:
                break
            out.append(pending[0])
            continue
        while pending is not None and pending[1] in BLANKS:
            pending = next(written, None)
        if pending is None or pending[1] != char:
            break
        out.append(pending[0])
        pending = next(written, None)
    return out


class StringPositions:
    """The ``(line, column)`` in the file of each character of one string value (see the module); built by
    :meth:`of` from the text, the index where the scalar starts and its value."""

    def __init__(self, indices: List[int], line_starts: Sequence[int]) -> None:
        self._indices, self._line_starts = indices, line_starts

    @classmethod
    def of(cls, text: str, start: int, value: str, line_starts: Sequence[int]) -> "StringPositions":
        """The places of ``value``'s characters, its scalar starting at index ``start`` of ``text`` (its tag,
        anchor, quote, block indicator or first character); ``line_starts``: each line's first index."""
        return cls(_aligned(_written(text, start), value), line_starts)

    def position(self, index: int) -> Optional[Tuple[int, int]]:
        """1-based ``(line, column)`` in the file of the value's character ``index``, or None where it has no place."""
        if not 0 <= index < len(self._indices):
            return None
        at = self._indices[index]
        line = bisect.bisect_right(self._line_starts, at)
        return line, at - self._line_starts[line - 1] + 1


def line_starts(text: str, yaml: bool = True) -> List[int]:
    """The index of each line's first character: lines as YAML counts them (``yaml``), or split at ``\\n`` (JSON)."""
    if yaml:
        return [0] + [m.end() for m in LINE_BREAKS.finditer(text)]
    return [0] + [m.end() for m in re.finditer("\n", text)]
