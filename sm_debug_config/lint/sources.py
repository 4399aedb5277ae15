"""Reading sources for ``lint``: which files, the cheap text test, notebook cells, IPython syntax masked.

A file goes on to parsing only if its bytes name something of Debugger's (:data:`PREFILTER`): an
Estimator with no Debugger configuration written is not checked. Notebooks are read as JSON
(nbformat 4, and nbformat 3's worksheets); only code cells are kept, numbered among code cells
from 1 (execution counts are absent or out of order in most committed notebooks). IPython lines
(``!cmd``, ``%magic``, ``x = !cmd``, ``name?``) become ``pass`` at the same indentation, so that a
``!pip install`` inside an ``if`` block still parses; a ``%%time`` cell is linted, other ``%%``
cells are skipped.

The notebook writer (:func:`apply_notebook_edits`, :func:`write_cells`) is the reader's other direction: a fix's
edits of code cells' sources go into the notebook's JSON text at each cell's ``source``, in its shape (a list of
lines or one string) and its escaping; every other byte (outputs, execution counts, metadata, key order,
indentation, the cell's unchanged lines) stays as it was.
"""

from __future__ import annotations

import io
import json
import os
import re
import stat
import tokenize
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

import attrs

from sm_debug_config.fixes import Edit, apply_cell_edits
from sm_debug_config.limits import MAX_FILE_BYTES, json_too_deep
from sm_debug_config.stringedit import json_string_escape
from sm_debug_config.patterns import LazyPattern

#: The bytes a file must contain to be parsed at all (a Debugger module, class or Estimator keyword).
PREFILTER = re.compile(
    rb"sagemaker\.debugger|sagemaker\.core\.debugger|smdebug_rulesconfig|sm_debug_config|rule_configs"
    rb"|debugger_hook_config"
    rb"|profiler_config|tensorboard_output_config|disable_profiler|DebuggerHookConfig|ProfilerConfig|CollectionConfig"
    rb"|attach_debugger"
)
#: The files a directory is searched for (``cli.common.READS["lint"]`` writes them out, a test keeps them equal).
SUFFIXES = (".py", ".ipynb")
#: Cell magics whose body is Python run as usual; any other ``%%`` cell is another language.
PYTHON_CELL_MAGICS = ("time", "timeit", "capture", "prun")
_SKIP_DIRS = {".git", ".hg", ".svn", ".ipynb_checkpoints", "__pycache__", "node_modules", ".tox", ".nox", ".mypy_cache"}
# The IPython patterns compile on first use: validate imports this module (its directory walker) and never
# masks a cell.
_MAGIC_LINE = LazyPattern(r"^(\s*)(?:[!%]|\w+\s*=\s*[!%](?![=]))")
_MAGIC_ASSIGN = LazyPattern(r"^(\s*)(\w+)\s*=\s*[!%]")
_HELP_LINE = LazyPattern(r"^(\s*)[\w.]+\?\??\s*$")
#: IPython automagics people write without ``%`` (``pip install smdebug``): a name, a space, then no operator.
_AUTOMAGIC = LazyPattern(
    r"^\s*(pip|conda|cd|ls|pwd|cat|mkdir|rm|cp|mv|env|store|load_ext|autoreload|matplotlib|pylab|aimport)"
    r"(\s+[^\s=(\[.,:+\-*/%<>!&|^]|\s*$)"
)


#: A cheap test before the line-by-line pass: any line that may be IPython syntax at all.
_ANY_MAGIC = LazyPattern(
    r"^\s*([!%]|\w+\s*=\s*[!%]|[\w.]+\?|(pip|conda|cd|ls|pwd|cat|mkdir|rm|cp|mv|env|store|load_ext|autoreload|"
    r"matplotlib|pylab|aimport)\b)",
    re.M,
)


class SourceError(Exception):
    """A file that cannot be linted: one line, with a position in the file when there is one."""

    def __init__(self, message: str, line: Optional[int] = None, column: Optional[int] = None) -> None:
        super().__init__(message)
        self.line, self.column = line, column


@attrs.frozen
class Cell:
    """One piece of Python: a whole ``.py`` file (``number`` None) or a notebook code cell."""

    text: str
    number: Optional[int] = None  # 1-based among code cells
    index: Optional[int] = None  # 0-based among all cells
    execution_count: Optional[int] = None
    skipped: Optional[str] = None  # why the cell is not Python (a %%bash cell)
    #: the cell as written, before IPython syntax was masked (what text output shows under a finding)
    source: str = attrs.field(default=attrs.Factory(lambda cell: cell.text, takes_self=True))


def find_files(paths: Sequence[str], suffixes: Sequence[str] = SUFFIXES) -> Iterator[Tuple[str, bool]]:
    """``(path, given)`` for each file of ``paths`` and each file under its directories whose name ends with one of
    ``suffixes``, sorted; ``given``: named on the command line. Version-control and tool directories
    (``.git``, ``node_modules``...), virtual environments and symlinked directories are not searched.

    ``validate DIR`` walks with its own suffixes (YAML and JSON), so both commands skip the same directories.
    """
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(
                    d
                    for d in dirs
                    if d not in _SKIP_DIRS
                    and not os.path.islink(os.path.join(root, d))
                    and not os.path.exists(os.path.join(root, d, "pyvenv.cfg"))
                )
                for name in sorted(files):
                    if name.lower().endswith(tuple(suffixes)):  # job.YAML too
                        yield os.path.normpath(os.path.join(root, name)), False  # ./a.yaml as a.yaml
        else:
            yield path, True


def read_bytes(path: str) -> bytes:
    """The file's bytes; a ``SourceError`` for a directory, FIFO, device, or a file over the size limit."""

    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise SourceError(f"{path}: not a regular file")
        suffix = os.path.splitext(path)[1]
        limit = MAX_FILE_BYTES[suffix if suffix == ".ipynb" else ".py"]  # a file named on the command line: Python
        if info.st_size > limit:
            raise SourceError(f"{path}: {info.st_size} bytes, over the {limit}-byte limit for lint")
        with open(path, "rb") as handle:
            return handle.read(limit + 1)
    except OSError as err:
        raise SourceError(f"{path}: {err.strerror or err}") from None


def is_binary(data: bytes) -> bool:
    return b"\0" in data[:8192]


def python_cells(data: bytes) -> List[Cell]:
    """A ``.py`` file as one cell (PEP 263 coding cookies honoured)."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return [Cell(data.decode(encoding))]
    except (SyntaxError, LookupError, UnicodeDecodeError) as err:
        raise SourceError(f"cannot decode: {err}") from None


def notebook_cells(data: bytes) -> List[Cell]:
    """The code cells of a notebook (nbformat 3 or 4), IPython syntax masked; a ``SourceError`` if it is no notebook."""
    try:
        text = data.decode("utf-8-sig")
        if json_too_deep(text):  # before json.loads recurses to Python's limit
            raise RecursionError
        document = json.loads(text)
    except UnicodeDecodeError as err:
        raise SourceError(f"not UTF-8: {err.reason} at byte {err.start}") from None
    except json.JSONDecodeError as err:
        raise SourceError(f"not valid JSON: {err.msg}", err.lineno, err.colno) from None
    except RecursionError:
        raise SourceError("not valid JSON: nested too deeply") from None
    if not isinstance(document, dict):
        raise SourceError("not a Jupyter notebook (no cells)")
    language = _language(document)
    if language and language != "python":
        raise SourceError(f"skip: a {language} notebook")
    located, key = _cells(document)
    out: List[Cell] = []
    number = 0
    for index, (_, cell) in enumerate(located):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        number += 1
        source = cell.get(key, "")
        text = (
            "".join(s for s in source if isinstance(s, str))
            if isinstance(source, list)
            else source if isinstance(source, str) else ""
        )
        count = cell.get("execution_count", cell.get("prompt_number"))
        masked, skipped = mask(text)
        out.append(
            Cell(
                masked,
                number,
                index,
                count if isinstance(count, int) and not isinstance(count, bool) else None,
                skipped,
                text,
            )
        )
    return out


def _cells(document: Dict[str, Any]) -> Tuple[List[Tuple[Tuple[Any, ...], Any]], str]:
    """Every cell of a notebook with its path in the JSON (nbformat 4's ``cells``, nbformat 3's worksheets' cells in
    order), and the key of a cell's source (``source``, nbformat 3's ``input``)."""
    if isinstance(document.get("cells"), list):
        return [(("cells", i), cell) for i, cell in enumerate(document["cells"])], "source"
    if isinstance(document.get("worksheets"), list):  # nbformat 3
        return [
            (("worksheets", s, "cells", i), cell)
            for s, sheet in enumerate(document["worksheets"])
            if isinstance(sheet, dict) and isinstance(sheet.get("cells"), list)
            for i, cell in enumerate(sheet["cells"])
        ], "input"
    raise SourceError("not a Jupyter notebook (no cells)")


def apply_notebook_edits(text: str, fixes: Sequence[Sequence[Edit]]) -> Tuple[str, int]:
    """The notebook JSON ``text`` with the cell edits of as many of ``fixes`` as one pass takes (each fix a sequence
    of :class:`~sm_debug_config.fixes.Edit` with ``cell`` set: offsets in that cell's source text, as lint read it),
    and how many were taken (:func:`~sm_debug_config.fixes.apply_cell_edits`); only the edited cells' ``source``
    changes in the text.

    >>> nb = '{"cells": [{"cell_type": "code", "source": ["x = 1"], "outputs": []}]}'
    >>> apply_notebook_edits(nb, [[Edit(4, 5, '"1"', cell=0)]])
    ('{"cells": [{"cell_type": "code", "source": ["x = \\\\"1\\\\""], "outputs": []}]}', 1)
    """
    _, located, key = _notebook(text)
    sources = {index: _joined(cell.get(key, "")) for index, (_, cell) in enumerate(located) if isinstance(cell, dict)}
    wanted = {edit.cell for edits in fixes for edit in edits}
    fixed, count = apply_cell_edits({i: sources[i] for i in wanted if i in sources}, fixes)
    return write_cells(text, {i: t for i, t in fixed.items() if i is not None and t != sources[i]}), count


def write_cells(text: str, sources: Mapping[int, str]) -> str:
    """The notebook JSON ``text`` with the ``source`` of each cell in ``sources`` (by 0-based index among all cells)
    replaced: a list of lines keeps its unchanged lines' text and its layout, new lines are written as the
    notebook escapes (``ensure_ascii`` as its own text); a ``SourceError`` for text that is no notebook or a
    cell without a source."""
    if text.startswith("\ufeff"):  # a byte-order mark: kept, the JSON after it written
        return text[0] + write_cells(text[1:], sources)
    _, located, key = _notebook(text)
    ascii_only = _ascii_style(text)
    replaced: List[Tuple[int, int, str]] = []
    for index, source in sources.items():
        if not 0 <= index < len(located) or not isinstance(located[index][1], dict) or key not in located[index][1]:
            raise SourceError(f"cell {index}: no {key} to write")
        path = located[index][0] + (key,)
        start = _value_at(text, path)
        old = located[index][1][key]
        end = _DECODER.raw_decode(text, start)[1]
        if isinstance(old, list) and all(isinstance(line, str) for line in old):
            spans = list(_items(text, start))
            replaced += _list_edits(text, (start, end), old, spans, source, ascii_only)
        else:
            replaced.append((start, end, _json_string(source, ascii_only)))
    for start, end, content in sorted(replaced, reverse=True):
        text = text[:start] + content + text[end:]
    return text


_DECODER = json.JSONDecoder()
def _skip(text: str, at: int) -> int:
    """The index of the first character at or after ``at`` that is no JSON whitespace."""
    while text[at:at + 1] in (" ", "\t", "\r", "\n"):
        at += 1
    return at


def _value_at(text: str, path: Tuple[Any, ...]) -> int:
    """The index of the value at ``path`` in the JSON ``text`` (a path ``json.loads`` found in it): each container's
    members skipped with the ``json`` module's C scanner up to the one named. (Not
    :class:`~sm_debug_config.configfile.jsonparse.JsonText`: importing the config file package would cost every
    ``lint`` run's start-up ~90 ms, for a writer only ``--fix`` uses.)"""
    at = _skip(text, 0)
    for part in path:
        if isinstance(part, int):
            at = next(start for number, (start, _) in enumerate(_items(text, at)) if number == part)
            continue
        at = _skip(text, at + 1)  # past the {
        while True:
            name, at = json.decoder.scanstring(text, at + 1)  # type: ignore[attr-defined]
            at = _skip(text, _skip(text, at) + 1)  # past the colon
            if name == part:  # json.loads keeps a repeated key's last value: a notebook repeats none
                break
            at = _skip(text, _skip(text, _DECODER.raw_decode(text, at)[1]) + 1)  # past the value and its comma
    return at


def _items(text: str, start: int) -> Iterator[Tuple[int, int]]:
    """``(start, end)`` of each item of the JSON array at ``start``."""
    at = _skip(text, start + 1)
    while text[at:at + 1] != "]":
        end = _DECODER.raw_decode(text, at)[1]
        yield at, end
        at = _skip(text, end)
        if text[at:at + 1] == ",":
            at = _skip(text, at + 1)


def _notebook(text: str) -> Tuple[Any, List[Tuple[Tuple[Any, ...], Any]], str]:
    try:
        if json_too_deep(text):
            raise SourceError("not valid JSON: nested too deeply")
        document = json.loads(text.lstrip("\ufeff"))
    except json.JSONDecodeError as err:
        raise SourceError(f"not valid JSON: {err.msg}", err.lineno, err.colno) from None
    if not isinstance(document, dict):
        raise SourceError("not a Jupyter notebook (no cells)")
    located, key = _cells(document)
    return document, located, key


def _joined(source: Any) -> str:
    """A cell's source text as the reader joins it."""
    if isinstance(source, list):
        return "".join(s for s in source if isinstance(s, str))
    return source if isinstance(source, str) else ""


_ESCAPED_NON_ASCII = re.compile(r"(?<!\\)(?:\\\\)*\\u(?:00[89a-fA-F]|0[1-9a-fA-F]|[1-9a-fA-F])")


def _json_string(text: str, ascii_only: bool) -> str:
    """``text`` as a JSON string, escaped as the notebook escapes (Jupyter: non-ASCII characters as they are)."""
    return json.dumps(text) if ascii_only else f'"{json_string_escape(text)}"'


def _ascii_style(text: str) -> bool:
    """Whether the notebook writes non-ASCII characters as ``\\uXXXX`` escapes (Jupyter writes them as they are)."""
    if any(ord(ch) > 127 for ch in text.lstrip("\ufeff")):
        return False
    return bool(_ESCAPED_NON_ASCII.search(text))


def _list_edits(text: str, value: Tuple[int, int], old: List[str], spans: List[Tuple[int, int]], new: str,
                ascii_only: bool) -> List[Tuple[int, int, str]]:
    """The replacements in ``text`` that make a source written as the list of lines ``old`` (each at its span) hold
    ``new``: the lines the edit left alone keep their text; the others are written one string a line."""
    if len(spans) != len(old):  # pragma: no cover - each line was found in the text it was read from
        raise SourceError("a cell's source lines not found")
    first = 0  # old lines kept at the start
    done = 0
    while first < len(old) and new.startswith(old[first], done) and old[first].endswith("\n"):
        done += len(old[first])
        first += 1
    last = len(old)  # old[last:] kept at the end
    tail = 0
    while last > first and len(new) - tail - len(old[last - 1]) >= done and new.endswith(old[last - 1], 0,
                                                                                           len(new) - tail):
        tail += len(old[last - 1])
        last -= 1
    middle = new[done:len(new) - tail]
    while middle and not middle.endswith("\n") and last < len(old):  # a line joined to the next: that one too
        middle += old[last]
        tail -= len(old[last])
        last += 1
    lines = [_json_string(line, ascii_only) for line in re.findall(r"[^\n]*\n|[^\n]+\Z", middle)]
    if not old:  # an empty list: laid out as Jupyter lays out a list (indent 1) where the key has a line of its own
        line = text.rfind("\n", 0, value[0])
        before = text[line + 1:value[0]]
        indent = before[:len(before) - len(before.lstrip())]
        if not lines or line < 0 or not indent:
            return [(value[0], value[1], "[" + ", ".join(lines) + "]")]
        inner = ("\r\n" if text[line - 1:line] == "\r" else "\n") + indent
        return [(value[0], value[1], "[" + inner + " " + ("," + inner + " ").join(lines) + inner + "]")]
    # between two lines: what the notebook writes there (one line only: the space before it, after a comma)
    separator = text[spans[0][1]:spans[1][0]] if len(spans) > 1 else "," + text[value[0] + 1:spans[0][0]]
    if separator.strip(" \t\r\n,") != "" or separator == ",":
        separator = ", "
    if first == last:  # lines put between two kept ones
        if not lines:
            return []
        if first < len(old):
            return [(spans[first][0], spans[first][0], separator.join(lines) + separator)]
        return [(spans[-1][1], spans[-1][1], separator + separator.join(lines))]
    if lines:
        return [(spans[first][0], spans[last - 1][1], separator.join(lines))]
    if last < len(old):  # lines removed, with the separator after them
        return [(spans[first][0], spans[last][0], "")]
    if first > 0:  # the last lines removed, with the separator before them
        return [(spans[first - 1][1], spans[last - 1][1], "")]
    return [(value[0], value[1], "[]")]


def _language(document: dict) -> Optional[str]:
    metadata = document.get("metadata")
    if not isinstance(metadata, dict):
        return None
    for section, key in (("language_info", "name"), ("kernelspec", "language")):
        part = metadata.get(section)
        if isinstance(part, dict) and isinstance(part.get(key), str):
            return part[key].lower()
    return None


def mask(text: str) -> Tuple[str, Optional[str]]:
    """``(text, None)`` with IPython lines replaced, line numbers kept; ``("", why)`` for a cell in another language.

    >>> mask("if x:\\n    !pip install smdebug\\nfiles = !ls\\n")[0]
    'if x:\\n    pass\\nfiles = __lint_unknown__\\n'
    >>> mask("%%bash\\nls\\n")
    ('', 'a %%bash cell')
    """
    lines = text.splitlines(keepends=True)
    if lines and lines[0].lstrip().startswith("%%"):
        magic = lines[0].strip()[2:].split(None, 1)[0] if lines[0].strip()[2:] else ""
        if magic not in PYTHON_CELL_MAGICS:
            return "", f"a %%{magic} cell"
        lines[0] = "\n"
    joined = "".join(lines)
    if not _ANY_MAGIC.search(joined):
        return joined, None
    strings = _string_lines(joined) if '"""' in joined or "'''" in joined else set()
    continued = False
    indent_before, opens_block = "", False  # the last code line's indentation, and whether it ends with ":"
    for number, line in enumerate(lines):
        if number + 1 in strings:
            continue
        body = line.rstrip("\r\n")
        ending = line[len(body) :]
        code = body.split("#", 1)[0].rstrip()
        if code and not continued and not _MAGIC_LINE.match(body) and not _AUTOMAGIC.match(body):
            indent_before, opens_block = body[: len(body) - len(body.lstrip())], code.endswith(":")
        if continued:
            lines[number] = ending
            continued = body.endswith("\\")
            continue
        assign = _MAGIC_ASSIGN.match(body)
        if assign:
            lines[number] = f"{assign.group(1)}{assign.group(2)} = __lint_unknown__{ending}"
        elif _MAGIC_LINE.match(body) or _HELP_LINE.match(body) or _AUTOMAGIC.match(body):
            indent = body[: len(body) - len(body.lstrip())]
            if len(indent) > len(indent_before) and not opens_block:  # " !pip ..." at top level: IPython dedents it
                indent = indent_before
            lines[number] = f"{indent}pass{ending}"
        else:
            continue
        continued = body.endswith("\\")
    return "".join(lines), None


def _string_lines(text: str) -> set:
    """Lines (1-based) inside a multi-line string after the first, which masking must not touch."""
    inside: set = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.STRING and token.end[0] > token.start[0]:
                inside.update(range(token.start[0] + 1, token.end[0] + 1))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return inside
