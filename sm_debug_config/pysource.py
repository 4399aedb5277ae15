r"""Users' text handed to Python's own parsers (a script or notebook cell, a metric-config string, a regular
expression) in a form those parsers have nothing to warn about: the bottom layer.

Python warns about what a user wrote: an invalid escape in a string literal (``"conv\d+"``:
DeprecationWarning up to 3.11, SyntaxWarning from 3.12, and a SyntaxError where the process turns warnings
into errors), a set in a regular expression that a later Python may read differently (``[[a]``, ``[a--b]``:
FutureWarning). Those are notes on the user's text, printed at our line, and the verdict must not depend on the
process's filters. ``warnings.catch_warnings()`` would hide them, but it is not thread-safe: it swaps the
process-wide filter list and puts back the one it saved, so two threads that overlap can leave "ignore
everything" in place for the whole process, or drop a filter the user added meanwhile (and a library must
not touch a notebook's filters at all). So the text is rewritten, before it is parsed, into one that means
the same to today's Python and cannot warn, and positions are mapped back to what the user wrote:

* source: an invalid escape's backslash is doubled, which keeps the literal's value (Python keeps an invalid
  escape as written: ``"\d" == "\\d"``); the tree's columns are moved back by the backslashes added before
  them. Left as they are (rare, and they warn): an octal escape above ``\377`` and a number run into a
  keyword (``1if``), both 3.12's, and a text whose lines end in a lone carriage return. Python 3.8 places the
  expressions inside an f-string by a search of its own, off already; those columns may differ by the shift.
* regular expressions: a backslash before each set character ``re`` warns about (``[\[a]``, ``[a-\-]``),
  which ``re`` reads the same today; an error's position is the one in the user's pattern. A verbose pattern
  (``(?x)``, whose comments may hold brackets) is compiled as written.
"""
from __future__ import annotations

import ast
import io
import re
import tokenize
from typing import Dict, FrozenSet, List, Optional, Pattern, Tuple, cast

#: What may follow a backslash in a str / bytes literal (a line end continues the line).
_STR_ESCAPES = frozenset("\r\n\\'\"abfnrtv01234567xNuU")
_BYTES_ESCAPES = frozenset("\r\n\\'\"abfnrtv01234567x")
#: A backslash before what no literal accepts after one (bytes' \N, \u, \U counted in): only then tokenize.
_MAYBE_INVALID = re.compile(r"\\[^\r\n\\'\"abfnrtv0-7x]")
_LONE_CR = re.compile(r"\r(?!\n)")
_STRINGS = {tokenize.STRING} | {getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}


def parse(text: str, filename: str = "<unknown>") -> ast.Module:
    r"""``ast.parse(text, filename)``, without a warning for an invalid escape in a string literal: the same
    tree, the same positions (a ``SyntaxError``'s too).

    >>> tree = parse('x = "conv\\d+"  # a regex')
    >>> tree.body[0].value.value, tree.body[0].value.end_col_offset
    ('conv\\d+', 13)
    """
    return cast(ast.Module, _parse(text, filename, "exec"))


def parse_expression(text: str, filename: str = "<unknown>") -> ast.Expression:
    """``ast.parse(text, filename, mode="eval")`` as :func:`parse`."""
    return cast(ast.Expression, _parse(text, filename, "eval"))


def _parse(text: str, filename: str, mode: str) -> ast.AST:
    fixed, added = _doubled_backslashes(text)
    try:
        tree = ast.parse(fixed, filename=filename, mode=mode)
    except SyntaxError as err:
        if added and err.lineno in added:
            moved = _Shift([column + k for k, column in enumerate(added[err.lineno])], base=1)
            err.offset = moved(err.offset) if err.offset else err.offset
            if getattr(err, "end_offset", None) and getattr(err, "end_lineno", None) == err.lineno:  # 3.10's
                setattr(err, "end_offset", moved(getattr(err, "end_offset")))  # noqa: B009, B010 - 3.10's
            err.text = text.split("\n")[err.lineno - 1] + ("\n" if (err.text or "").endswith("\n") else "")
        raise
    if added:
        _move_back(tree, text, added)
    return tree


def literal(text: str) -> object:
    r"""``ast.literal_eval(text)`` without a warning for an invalid escape (``ValueError``/``SyntaxError`` as it).

    >>> literal('"a\\d"')
    'a\\d'
    """
    return ast.literal_eval(parse_expression(text.lstrip(" \t")))


def _doubled_backslashes(text: str) -> Tuple[str, Dict[int, List[int]]]:
    """``text`` with each invalid escape's backslash doubled, and by 1-based line the character columns (in
    ``text``) of the backslashes doubled."""
    if not _MAYBE_INVALID.search(text) or _LONE_CR.search(text):
        return text, {}  # no escape to double, or line ends the tokenizer and the parser would count differently
    found: Dict[int, List[int]] = {}
    prefixes: List[str] = []  # the open f-strings' prefixes (3.12 tokenizes an f-string's parts)
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == getattr(tokenize, "FSTRING_START", None):
                prefixes.append(token.string)
                continue
            if token.type == getattr(tokenize, "FSTRING_END", None):
                prefixes.pop()
                continue
            if token.type not in _STRINGS or "\\" not in token.string:
                continue
            if token.type == tokenize.STRING:
                prefix = token.string[: len(token.string) - len(token.string.lstrip("bBrRuUfF"))]
            else:
                prefix = prefixes[-1] if prefixes else ""
            if "r" in prefix.lower():
                continue
            valid = _BYTES_ESCAPES if "b" in prefix.lower() else _STR_ESCAPES
            _invalid_escapes(token.string, token.start, valid, found)
    except (tokenize.TokenError, SyntaxError, IndexError):  # the parser says what is wrong, with its position
        return text, {}
    if not found:
        return text, {}
    lines = text.split("\n")
    for number, columns in found.items():
        line = lines[number - 1]
        for column in sorted(columns, reverse=True):
            line = line[:column] + "\\" + line[column:]
        lines[number - 1] = line
    return "\n".join(lines), {number: sorted(columns) for number, columns in found.items()}


def _invalid_escapes(
    literal_text: str, start: Tuple[int, int], valid: FrozenSet[str], found: Dict[int, List[int]]
) -> None:
    line, column = start
    index = 0
    while index < len(literal_text):
        char = literal_text[index]
        if char == "\\":
            following = literal_text[index + 1: index + 2]
            if following and following not in valid:
                found.setdefault(line, []).append(column)
            index += 2
            column += 2
            if following == "\n":
                line, column = line + 1, 0
            continue
        if char == "\n":
            line, column = line + 1, 0
        else:
            column += 1
        index += 1


class _Shift:
    """A column in a rewritten line -> the column in the user's line: less the backslashes added before it."""

    __slots__ = ("added_at", "base")

    def __init__(self, added_at: List[int], base: int = 0) -> None:
        self.added_at, self.base = added_at, base  # positions (0-based) of the added backslashes, rewritten line

    def __call__(self, column: int) -> int:
        return column - sum(1 for at in self.added_at if at < column - self.base)


def _move_back(tree: ast.AST, text: str, added: Dict[int, List[int]]) -> None:
    """The tree's columns (UTF-8 bytes, as ``ast`` counts them) moved back to the user's line."""
    lines = text.split("\n")
    shifts: Dict[int, _Shift] = {}
    for number, columns in added.items():
        line = lines[number - 1]
        as_bytes = [len(line[:column].encode("utf-8")) for column in columns]
        shifts[number] = _Shift([at + k for k, at in enumerate(as_bytes)])
    for node in ast.walk(tree):
        for line_attr, column_attr in (("lineno", "col_offset"), ("end_lineno", "end_col_offset")):
            at_line: Optional[int] = getattr(node, line_attr, None)
            column: Optional[int] = getattr(node, column_attr, None)
            if at_line is not None and at_line in shifts and column is not None:
                setattr(node, column_attr, shifts[at_line](column))


# --- regular expressions -------------------------------------------------------------------------------

_VERBOSE = re.compile(r"\(\?[aiLmsux-]*x")
_BAD_RANGE = "bad character range "


def compile_pattern(pattern: str) -> Pattern[str]:
    """``re.compile(pattern)``, without the FutureWarning ``re`` gives a set it may read differently one day; a
    ``re.error`` positioned in ``pattern``.

    >>> compile_pattern("[[a]").match("[").group()
    '['
    >>> compile_pattern("[a-z--]").match("-").group()
    '-'
    """
    quiet, added = _escaped_sets(pattern)
    try:
        return re.compile(quiet)
    except re.error as err:
        if not added or err.pos is None:
            raise
        back = _Shift([at + k for k, at in enumerate(added)])
        message = err.msg
        if message.startswith(_BAD_RANGE):  # the range as the user wrote it, not with the backslash added
            message = _BAD_RANGE + pattern[back(err.pos): back(err.pos + len(message) - len(_BAD_RANGE))]
        raise re.error(message, pattern, back(err.pos)) from None


def _escaped_sets(pattern: str) -> Tuple[str, List[int]]:
    """``pattern`` with a backslash before each set character ``re`` warns about (it follows ``re``'s reading of
    a set: ``[`` first, a doubled ``-&~|`` after the first item, ``-`` ending a range), and the positions in
    ``pattern`` it was added before."""
    if "[" not in pattern or _VERBOSE.search(pattern):
        return pattern, []
    out: List[str] = []
    added: List[int] = []
    size, index = len(pattern), 0

    def escape() -> None:
        out.append("\\")
        added.append(index)

    def item() -> None:  # one character or escape, as the set reads it
        nonlocal index
        end = _escape_end(pattern, index) if pattern[index] == "\\" else index + 1
        out.append(pattern[index:end])
        index = end

    while index < size:
        char = pattern[index]
        if char == "\\":
            item()
            continue
        if pattern.startswith("(?#", index):  # a comment runs to the first ")": its brackets are no set
            end = pattern.find(")", index)
            end = size if end < 0 else end + 1
            out.append(pattern[index:end])
            index = end
            continue
        out.append(char)
        index += 1
        if char != "[":
            continue
        if pattern[index: index + 1] == "[":
            escape()
        if pattern[index: index + 1] == "^":
            out.append("^")
            index += 1
        first = True
        while index < size:
            char = pattern[index]
            if char == "]" and not first:
                out.append("]")
                index += 1
                break
            if not first and char in "-&~|" and pattern[index + 1: index + 2] == char:
                escape()
            item()
            first = False
            if pattern[index: index + 1] == "-" and index + 1 < size:
                out.append("-")
                index += 1
                if pattern[index] == "]":
                    continue  # "a-]": the "-" is a character, the "]" ends the set (read above)
                if pattern[index] == "-":
                    escape()
                item()
    return "".join(out), added


def _escape_end(pattern: str, index: int) -> int:
    """The end of the escape at ``pattern[index]`` (a backslash): ``\\N{...}`` whole, else two characters (the
    digits of ``\\x41`` and the like are read as characters, none of which ``re`` warns about)."""
    if pattern[index + 1: index + 3] == "N{":
        close = pattern.find("}", index)
        return close + 1 if close >= 0 else len(pattern)
    return index + 2
