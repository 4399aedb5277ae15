"""Positions in an editor's text: the CLI's places (1-based line, column in characters; character offsets of a
fix's edits) as LSP positions (0-based line, character in the client's code units: UTF-16 unless it chose another
encoding), and back.

LSP ends a line at ``\\n``, ``\\r\\n`` or ``\\r`` only (not at the other breaks ``str.splitlines`` knows), as
Python's tokenizer and the YAML and JSON readers count lines for what the user can see.

>>> text = TextLines('x = "é😀"\\nrule = "a"\\n')
>>> text.position(1, 9)  # the column after the emoji: 8 characters, 9 UTF-16 units
(0, 9)
>>> text.offset_of(0, 9), text.offset_at(2, 1)  # the second line starts after 8 characters and a line end
(8, 9)
"""
from __future__ import annotations

import re
from typing import Callable, Dict, List, Tuple

__all__ = ["ENCODINGS", "TextLines", "token_end"]

_BREAK = re.compile(r"\r\n|\r|\n")


def _utf16(text: str) -> int:
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


def _utf8(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


#: Code units a client may count characters in (LSP's ``PositionEncodingKind``), and how many a text has.
ENCODINGS: Dict[str, Callable[[str], int]] = {"utf-16": _utf16, "utf-8": _utf8, "utf-32": len}


class TextLines:
    """A text split into LSP lines, converting between character offsets, the CLI's 1-based places and LSP
    positions in ``encoding`` (a key of :data:`ENCODINGS`)."""

    def __init__(self, text: str, encoding: str = "utf-16") -> None:
        self.text = text
        self.units = ENCODINGS.get(encoding, _utf16)
        self.starts: List[int] = [0] + [match.end() for match in _BREAK.finditer(text)]

    def line(self, index: int) -> str:
        """The 0-based line ``index``, without its break ("" past the end)."""
        if not 0 <= index < len(self.starts):
            return ""
        end = self.starts[index + 1] if index + 1 < len(self.starts) else len(self.text)
        return self.text[self.starts[index]:end].rstrip("\r\n")

    def offset_at(self, line: int, column: int) -> int:
        """The character offset of the CLI's place (1-based ``line`` and ``column`` in characters), kept inside the
        text and its line."""
        index = min(max(line - 1, 0), len(self.starts) - 1)
        return self.starts[index] + min(max(column - 1, 0), len(self.line(index)))

    def position_of(self, offset: int) -> Tuple[int, int]:
        """The LSP position ``(line, character)`` of a character offset."""
        offset = min(max(offset, 0), len(self.text))
        low, high = 0, len(self.starts) - 1
        while low < high:  # the last line start at or before offset
            middle = (low + high + 1) // 2
            if self.starts[middle] <= offset:
                low = middle
            else:
                high = middle - 1
        within = min(offset - self.starts[low], len(self.line(low)))
        return low, self.units(self.text[self.starts[low]:self.starts[low] + within])

    def position(self, line: int, column: int) -> Tuple[int, int]:
        """The LSP position of the CLI's place."""
        return self.position_of(self.offset_at(line, column))

    def offset_of(self, line: int, character: int) -> int:
        """The character offset of an LSP position (a character past the line's end is its end)."""
        if line >= len(self.starts):
            return len(self.text)
        text = self.line(max(line, 0))
        count = 0
        for index, char in enumerate(text):
            if count >= character:
                return self.starts[max(line, 0)] + index
            count += self.units(char)
        return self.starts[max(line, 0)] + len(text)


_CLOSERS = {"(": ")", "[": "]", "{": "}"}
_QUOTES = "\"'"
_WORD = re.compile(r"[\w.\-/:+@$*~]*")


def token_end(text: str, offset: int) -> int:
    """Where the value that starts at ``offset`` ends on its line: a quoted string (with a prefix such as ``f``)
    to its closing quote, a bracket to its match, else a run of name-like characters (``rule_configs.x``,
    ``s3://b/o``, ``0.5``); at least one character, never past the line."""
    line_end = len(text)
    for match in _BREAK.finditer(text, offset):
        line_end = match.start()
        break
    if offset >= line_end:
        return offset
    index = offset
    while index < line_end and index - offset < 3 and text[index].isalpha() and text[index].lower() in "rbfu":
        index += 1
    if index < line_end and text[index] in _QUOTES:
        quote, index = text[index], index + 1
        while index < line_end and text[index] != quote:
            index += 2 if text[index] == "\\" else 1
        return min(index + 1, line_end)
    first = text[offset]
    if first in _CLOSERS:
        depth = 0
        for index in range(offset, line_end):
            if text[index] in _CLOSERS:
                depth += 1
            elif text[index] in _CLOSERS.values():
                depth -= 1
                if depth == 0:
                    return index + 1
        return line_end
    end = _WORD.match(text, offset, line_end)
    found = end.end() if end else offset
    if found > offset and text[found - 1] == ":":  # a YAML key's colon is not its name
        found -= 1
    return max(found, offset + 1)
