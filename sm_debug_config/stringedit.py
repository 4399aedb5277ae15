"""Edits of text held in a string value, carried into the file with that string's escaping: JSON in a CloudFormation
``!Sub``/``Fn::Sub`` string or a ``PipelineDefinitionBody``, a pipeline definition in a Terraform heredoc, a notebook
cell's line (a JSON string).

A :class:`HostString` is a string value as the file writes it (a JSON string, a YAML double- or single-quoted scalar,
a ``|`` block scalar, a plain scalar on one line; HCL's are :mod:`sm_debug_config.documents.hcl`'s): the file index of
each character of its value, and how text is written inside it. :meth:`HostString.edit` turns an edit of the value's
text (made by the value's own format's editor, :mod:`sm_debug_config.configfile.textedit`) into an edit of the file.
Every host is checked by decoding what is written again: a string whose characters this module cannot account for
(a folded ``>`` scalar, a multi-line quoted one) has no host, and so no edit, never a wrong one.

>>> text = '{"Body": {"Fn::Sub": "{\\\\"a\\\\": \\\\"${B}\\\\"}"}}'
>>> host = host_string(text, 21, len(text) - 2, '{"a": "${B}"}')
>>> host.edit(Edit(1, 1, '"b": "${C}", '), fn_sub_literal).apply(text)
'{"Body": {"Fn::Sub": "{\\\\"b\\\\": \\\\"${!C}\\\\", \\\\"a\\\\": \\\\"${B}\\\\"}"}}'
"""
from __future__ import annotations

import json
import re
from typing import Callable, Dict, List, Optional, Tuple

from sm_debug_config.fixes import Edit

__all__ = [
    "HostString",
    "fn_sub_literal",
    "host_string",
    "json_string_escape",
    "line_end",
    "newline_at",
    "past_line",
    "quoted_string",
    "template_literal",
    "text_line_start",
]


def newline_at(text: str, index: int) -> str:
    """The line break the line at ``index`` ends with (``\\r\\n`` or ``\\n``; the file's first one at its last line)."""
    found = text.find("\n", index)
    if found < 0:
        found = text.find("\n")
    return "\r\n" if found > 0 and text[found - 1] == "\r" else "\n"


def text_line_start(text: str, index: int) -> int:
    return text.rfind("\n", 0, index) + 1


def line_end(text: str, index: int) -> int:
    """The index of the line break ending the line at ``index`` (its ``\\r`` for ``\\r\\n``), or the text's end."""
    found = text.find("\n", index)
    if found < 0:
        return len(text)
    return found - 1 if found > 0 and text[found - 1] == "\r" else found


def past_line(text: str, index: int) -> int:
    """The index just past the line break ending the line at ``index``."""
    found = text.find("\n", index)
    return len(text) if found < 0 else found + 1


def json_string_escape(text: str) -> str:
    """``text`` as the inside of a JSON string (and of a YAML double-quoted scalar, whose escapes are JSON's).

    >>> json_string_escape('{"a": "b\\\\c"}\\n')
    '{\\\\"a\\\\": \\\\"b\\\\\\\\c\\\\"}\\\\n'
    """
    return json.dumps(text, ensure_ascii=False)[1:-1]


def fn_sub_literal(text: str) -> str:
    """``text`` as literal text of a CloudFormation ``Fn::Sub`` string: ``${`` written ``${!``."""
    return text.replace("${", "${!")


def template_literal(text: str) -> str:
    """``text`` as literal text of a Terraform string template: ``${`` and ``%{`` doubled."""
    return text.replace("${", "$${").replace("%{", "%%{")


def _same(text: str) -> str:
    return text


class HostString:
    """A string value as a file writes it: ``indices[i]`` is the file index of the value's character ``i`` (and
    ``indices[len(value)]`` where the written value ends), ``escape`` writes text the way this string is written
    (None where it cannot be: a line break in a single-quoted scalar)."""

    def __init__(self, indices: List[int], escape: Callable[[str], Optional[str]]) -> None:
        self.indices, self.escape = indices, escape

    def edit(self, edit: Edit, literal: Callable[[str], str] = _same) -> Optional[Edit]:
        """``edit`` of the value's text as an edit of the file; ``literal`` first writes its content as literal text
        of the template the string is (:func:`fn_sub_literal`, :func:`template_literal`)."""
        if not 0 <= edit.start <= edit.end < len(self.indices):
            return None
        content = self.escape(literal(edit.content))
        if content is None:
            return None
        return Edit(self.indices[edit.start], self.indices[edit.end], content, edit.cell)


# --- JSON ------------------------------------------------------------------------------------------------------

_JSON_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def quoted_string(text: str, quote: int, escapes: Dict[str, str], hexes: Dict[str, int]) -> Optional[
        Tuple[List[int], str]]:
    """``(indices, value)`` of the double-quoted string whose quote is at ``quote`` (JSON's escapes, or YAML's),
    on one line; None for a string this reading does not know (a line break in it, an unknown escape)."""
    indices: List[int] = []
    chars: List[str] = []
    index = quote + 1
    while index < len(text):
        char = text[index]
        if char == '"':
            indices.append(index)
            return indices, "".join(chars)
        if char in "\r\n":
            return None
        if char != "\\":
            indices.append(index)
            chars.append(char)
            index += 1
            continue
        code = text[index + 1:index + 2]
        if code in escapes:
            indices.append(index)
            chars.append(escapes[code])
            index += 2
        elif code in hexes:
            digits = text[index + 2:index + 2 + hexes[code]]
            if len(digits) != hexes[code] or not all(c in "0123456789abcdefABCDEF" for c in digits):
                return None
            number, width = int(digits, 16), 2 + hexes[code]
            low = text[index + width:index + width + 6]
            if 0xD800 <= number < 0xDC00 and re.fullmatch(r"\\u[dD][c-fC-F][0-9a-fA-F]{2}", low):
                number, width = 0x10000 + ((number - 0xD800) << 10) + (int(low[2:], 16) - 0xDC00), width + 6
            indices.append(index)
            chars.append(chr(number))
            index += width
        else:
            return None
    return None


# --- YAML ------------------------------------------------------------------------------------------------------

#: YAML's double-quoted escapes beyond JSON's (YAML 1.2), and its hexadecimal ones.
_YAML_ESCAPES = dict(_JSON_ESCAPES, **{"0": "\0", "a": "\a", "v": "\v", "e": "\x1b", " ": " ", "\t": "\t",
                                       "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029"})
_YAML_HEXES = {"x": 2, "u": 4, "U": 8}


def host_string(text: str, start: int, end: int, value: str) -> Optional[HostString]:
    """The string written at ``start``..``end`` of ``text`` (from its quote or block indicator, past any tag), whose
    value is ``value``, as a host of edits; None for a string this module cannot account for."""
    char = text[start:start + 1]
    read: Optional[Tuple[List[int], str]] = None
    escape: Callable[[str], Optional[str]] = json_string_escape
    if char == '"':  # JSON's, or YAML's (whose escapes are a superset; JSON's are written)
        read = quoted_string(text, start, _YAML_ESCAPES, _YAML_HEXES)
    elif char == "'":
        read, escape = _single_quoted(text, start), _single_escape
    elif char == "|":
        read, indent = _literal_block(text, start, past_line(text, end - 1) if end > start else end)
        newline = newline_at(text, start)
        escape = lambda content: _block_escape(content, indent, newline)  # noqa: E731
    elif char not in (">", "") and "\n" not in text[start:end]:
        read, escape = (list(range(start, end + 1)), text[start:end]), _plain_escape
    if read is None or read[1] != value:
        return None
    return HostString(read[0], escape)


def _plain_escape(content: str) -> Optional[str]:
    """``content`` inside a plain scalar: only text that reads back as itself there (``s3://``)."""
    return content if re.fullmatch(r"[A-Za-z0-9_./:@+=-]*", content) and ": " not in content else None


def _single_quoted(text: str, quote: int) -> Optional[Tuple[List[int], str]]:
    indices: List[int] = []
    chars: List[str] = []
    index = quote + 1
    while index < len(text) and text[index] not in "\r\n":
        if text[index] == "'":
            if text[index + 1:index + 2] != "'":
                indices.append(index)
                return indices, "".join(chars)
            indices.append(index)
            chars.append("'")
            index += 2
        else:
            indices.append(index)
            chars.append(text[index])
            index += 1
    return None


def _single_escape(content: str) -> Optional[str]:
    return None if "\n" in content or "\r" in content else content.replace("'", "''")


def _literal_block(text: str, start: int, end: int) -> Tuple[Optional[Tuple[List[int], str]], str]:
    """``(indices, value)`` of the ``|`` block scalar whose indicator is at ``start`` (its value from the lines up to
    ``end``, as YAML reads it: indentation off, line breaks ``\\n``, chomped), and its indentation."""
    header_end = past_line(text, start)
    header = text[start:header_end].split("#", 1)[0].strip()
    lines: List[Tuple[int, int, int]] = []  # (line start, content end, break end)
    index = header_end
    while index < end:
        stop = line_end(text, index)
        lines.append((index, stop, past_line(text, index)))
        index = past_line(text, index)
    written = [ln for ln in lines if text[ln[0]:ln[1]].strip()]
    if not written:
        return None, ""
    explicit = re.search(r"[1-9]", header)
    width = len(text[written[0][0]:written[0][1]]) - len(text[written[0][0]:written[0][1]].lstrip(" "))
    if explicit:
        line = text[text_line_start(text, start):]
        parent_indent = len(line) - len(line.lstrip(" "))
        width = parent_indent + int(explicit.group())
    indices: List[int] = []
    chars: List[str] = []
    for begin, stop, _after in lines:
        if begin + width <= stop:
            for at in range(begin + width, stop):
                indices.append(at)
                chars.append(text[at])
        indices.append(stop)
        chars.append("\n")
    indices.append(lines[-1][2])
    value = "".join(chars)
    body = value.rstrip("\n")
    if "-" in header:
        keep = len(body)
    elif "+" in header:
        keep = len(value)
    else:
        keep = len(body) + 1 if len(value) > len(body) else len(body)
    indices = indices[:keep] + [indices[keep]]
    return (indices, value[:keep]), " " * width


def _block_escape(content: str, indent: str, newline: str) -> Optional[str]:
    """``content`` inside a ``|`` block scalar: each line break followed by the block's indentation."""
    if "\r" in content:
        return None
    parts = content.split("\n")
    middle = [indent + part if part else part for part in parts[1:-1]]  # (a blank line: no trailing spaces)
    return newline.join(parts[:1] + middle + ([indent + parts[-1]] if len(parts) > 1 else []))


