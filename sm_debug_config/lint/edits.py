"""Fixes in Python sources and notebooks: a change to the request made as edits at the literal its value came from.

A finding's :class:`~sm_debug_config.fixes.Change` names a request path; :class:`PythonEdits` follows it back to
the call that built the object there and to the argument, dict item or list element below it (as
:class:`~.check.CallPlaces` does for positions), then to where the value was written as a literal: the keyword's
value, a dict value in ``rule_parameters={...}``, or, through the evaluator's record
(:attr:`~.evaluate.Evaluator.written`), the literal assigned to a variable in an earlier line or cell, returned by
a helper function, or an item of the list a loop runs over. Each kind is placed in Python's syntax:

- ``set``: the literal replaced by the value in Python syntax, in the literal's quote style (``'`` or ``"``); a
  member not written is added as a keyword argument (``name="..."``) or a dict item; a value computed (an
  f-string, ``str(x)``, a concatenation) cannot be set: None. A variable that other code reads too (two
  expressions took its literal: ``steps`` also in ``range(steps)``) is left alone: the value is written where the
  member is (``{"num_steps": "20"}``), and ``s3://`` is not put before it;
- ``rename``: the dict key's literal, or the keyword's name;
- ``remove``: the keyword argument, dict item or list element with its comma (its line when it has one of its own);
- ``prefix``: the text put after the string's opening quote (after ``f"`` in an f-string).

Offsets are characters of the text the source read (:attr:`~.sources.Cell.source`: a notebook cell before its
IPython lines were masked, which keeps every other line as it is); the AST's columns are UTF-8 bytes.
"""

from __future__ import annotations

import ast
import io
import keyword as keyword_module
import re
import tokenize
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import attrs

from sm_debug_config.errors import pointer
from sm_debug_config.fixes import PREFIX, REMOVE, RENAME, SET, Change, Edit
from sm_debug_config.lint import signatures
from sm_debug_config.lint.sources import Cell
from sm_debug_config.lint.values import SourceCall, argument_of
from sm_debug_config.sourcemap import ARGUMENTS

__all__ = ["PythonEdits", "python_text"]

_NEWLINE = re.compile(r"\r\n|\r|\n")
_STRING_HEAD = re.compile(r"([rRuUbBfF]{0,2})('''|\"\"\"|'|\")")
#: Request members an object renders from another of its arguments (a rule's ``action_json``): not placed.
_RENDERED = {("RuleParameters", "action_json")}
_RULE_FIELDS = ("DebugRuleConfigurations", "ProfilerRuleConfigurations")
#: What is after an item that has a line of its own: its comma, a comment, the line's end.
#: A number literal written in plain decimal (no ``_``, no base prefix), which the rule reads as Python does.
_DECIMAL = re.compile(r"(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_LINE_REST = re.compile(r"[ \t]*,?[ \t]*(?:#[^\r\n]*)?(\r\n|\r|\n)")


class _Unplaceable(Exception):
    """The change cannot be made in the text (a value computed, a line masked): the fix gets no edits."""


class _Text:
    """One piece's text as the source read it, with the AST's positions (line, UTF-8 byte column) as offsets."""

    def __init__(self, cell: Cell) -> None:
        self.text = cell.source
        self.starts = [0] + [m.end() for m in _NEWLINE.finditer(self.text)]
        self.lines = _NEWLINE.split(self.text)
        # a masked notebook cell keeps its lines; only the IPython lines differ, and nothing is edited there
        self.parsed = _NEWLINE.split(cell.text) if cell.text != cell.source else self.lines
        self._quote: Optional[str] = None

    def offset(self, line: int, column: int) -> int:
        if not 1 <= line <= len(self.lines) or line > len(self.parsed) or self.lines[line - 1] != self.parsed[
                line - 1]:
            raise _Unplaceable(f"line {line} is not Python as written")
        return self.starts[line - 1] + len(self.lines[line - 1].encode("utf-8")[:column].decode("utf-8", "replace"))

    def start(self, node: ast.AST) -> int:
        return self.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]

    def end(self, node: ast.AST) -> int:
        return self.offset(node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]

    def quote(self) -> str:
        """The quote character most string literals of the text use (``"`` when as many use ``'``)."""
        if self._quote is None:
            counts = {"'": 0, '"': 0}
            try:
                for token in tokenize.generate_tokens(io.StringIO(self.text).readline):
                    head = _STRING_HEAD.match(token.string) if token.type == tokenize.STRING else None
                    if head is not None:
                        counts[head.group(2)[0]] += 1
            except (tokenize.TokenError, SyntaxError):
                pass
            self._quote = "'" if counts["'"] > counts['"'] else '"'
        return self._quote

    def line_start(self, index: int) -> int:
        return max(self.text.rfind("\n", 0, index), self.text.rfind("\r", 0, index)) + 1


@attrs.frozen
class _Argument:
    """An argument of a call: the keyword it was written as (None: positionally, by ``**`` or an attribute) and the
    literal its value was written as."""

    call: SourceCall
    name: str
    keyword: Optional[ast.keyword]
    literal: Optional[ast.AST]


@attrs.frozen
class _Item:
    """A dict item (``display`` None: set by ``d[k] = v`` or from keywords) or a list element (``key`` None)."""

    display: Optional[ast.AST]
    index: Optional[int]
    key: Optional[ast.AST]
    literal: Optional[ast.AST]


@attrs.frozen
class _Absent:
    """A member not written: a keyword ``name`` the call may be given, or a key of a dict ``display``."""

    owner: ast.AST
    name: Any


_Slot = Union[_Argument, _Item, _Absent]
#: The members that name one object apart from the others (SMD101 gives a second rule of one name a suffix).
_NAMES = ("RuleConfigurationName", "name")


class PythonEdits:
    """The edits of one linted source (its evaluator and cells) that make a request change: :meth:`at_request` for
    a change at a request path (a job's finding), :meth:`below` for one at a path below an object a call built (a
    constructor's finding). None: the change cannot be placed."""

    def __init__(self, ev: Any, cells: Sequence[Cell], place_of: Any, objects: Any = list) -> None:
        self.ev, self.cells, self.place_of, self.objects = ev, cells, place_of, objects
        self._texts: Dict[int, _Text] = {}
        self._built: Optional[Dict[int, int]] = None

    def _built_several(self, node: ast.AST) -> bool:
        """Whether the call ``node`` built more than one object (it runs in a loop, a comprehension, a helper called
        twice): an argument added or a name set there is given to every one of them."""
        if self._built is None:
            self._built = {}
            for obj in self.objects():
                place = self.place_of(obj)
                if place is not None:
                    self._built[id(place[0])] = self._built.get(id(place[0]), 0) + 1
        return self._built.get(id(node), 0) > 1

    # --- entry points -----------------------------------------------------------------------

    def at_request(self, change: Change, rendered: Any, site: Optional[SourceCall] = None) -> Optional[List[Edit]]:
        """``change`` (at a request path of ``rendered``'s request) as edits: below the deepest object the render
        names that this source built (every object there, for a collection several configs asked for), else below
        the job's call ``site`` (an Estimator's ``tensorboard_output_config=``; not its ``rules``, which the request
        splits in two lists)."""
        parts = change.path
        for depth in range(len(parts) - 1, 0, -1):
            made: List[Edit] = []
            for obj in rendered.objects_at(pointer(*parts[:depth])) if rendered is not None else ():
                place = self.place_of(obj)
                if place is None or not isinstance(place[1], SourceCall):
                    continue
                edits = self._placed(attrs.evolve(change, path=parts[depth:]), place[1],
                                     _held(rendered, parts[:depth]))
                if edits is not None:
                    made += [edit for edit in edits if edit not in made]
            if made:
                return made
        if site is not None and parts and parts[0] not in _RULE_FIELDS and rendered is not None:
            return self._placed(change, site, _held(rendered, ()))
        return None

    def below(self, change: Change, call: SourceCall) -> Optional[List[Edit]]:
        """``change`` at a path below the object ``call`` built (its arguments, or the request members they render
        to; a list index is the argument's own)."""
        return self._placed(change, call, None)

    def _placed(self, change: Change, call: SourceCall, held: Any) -> Optional[List[Edit]]:
        try:
            slot = self._walk(call, change.path, change.kind, held)
            return None if slot is None else self._edits(change, slot, call)
        except _Unplaceable:
            return None
        except Exception:  # noqa: BLE001 - a source lint could not model: the finding stays, without edits
            return None

    def within(self, edit: Edit, node: Optional[ast.AST]) -> bool:
        """Whether ``edit`` is in the text of ``node`` (a key or value written once for several objects)."""
        if node is None or getattr(node, "lineno", None) is None:
            return False
        try:
            piece, text = self._piece(node)
            return edit.cell == self.cells[piece].index and text.start(node) <= edit.start <= edit.end <= text.end(
                node)
        except _Unplaceable:
            return False

    def number_text(self, literal: Optional[ast.AST], value: Any) -> Optional[str]:
        """The text of the number literal ``literal`` as written (``0.0000001``, ``1e-5``), when it is a plain
        decimal that reads as ``value``: a number made a string there keeps the user's spelling (str() would write
        ``1e-07``); None otherwise (``1_000``, ``0x10``, a value computed)."""
        if not (isinstance(literal, ast.Constant) and type(literal.value) in (int, float) and literal.value == value):
            return None
        try:
            _, text = self._piece(literal)
            found = text.text[text.start(literal):text.end(literal)]
        except _Unplaceable:
            return None
        return found if _DECIMAL.fullmatch(found) else None

    # --- from a path to where it was written ------------------------------------------------

    def _walk(self, call: SourceCall, path: Sequence[Any], kind: str, held: Any = None) -> Optional[_Slot]:
        """Where ``path`` below ``call`` was written; ``held(path[:n])``: the objects the request holds at a list
        item (None: the path is the arguments', not the request's), which say which element of the list written
        it is (a render merges and splits lists: the request's item 0 need not be the element written first)."""
        value: Any = call
        slot: Optional[_Slot] = None
        parts = list(path)
        index = 0
        while index < len(parts):
            part, last = parts[index], index == len(parts) - 1
            if index + 1 < len(parts) and (str(part), str(parts[index + 1])) in _RENDERED:
                return None
            if isinstance(value, SourceCall):
                name = _argument(value, part)
                if name is None and part in ("RuleParameters", "rule_parameters"):
                    name = _var_keywords(value)  # a rule configuration's keywords, whatever its ** is called
                if name is None:
                    base = value.args.get("base_config")
                    if part in ("RuleParameters", "rule_parameters") and isinstance(base, SourceCall):
                        value = base  # a profiler rule's parameters are its base configuration's keywords
                        continue
                    keywords = _var_keywords(value)
                    if keywords is not None and part in value.args[keywords]:
                        slot = _Argument(value, part, _keyword(value, part), value.literals.get(part))
                        value = value.args[keywords][part]
                        index += 1
                        continue
                    return _Absent(value.node, _parameter(value, part)) if last and kind == SET else None
                slot = _Argument(value, name, _keyword(value, name), value.literals.get(name))
                value = value.args[name]
                keywords = _var_keywords(slot.call)
                if keywords == name and isinstance(value, dict) and index + 1 < len(parts):
                    key = parts[index + 1]  # ProfilerReport(CPUBottleneck_threshold=...): a keyword of the call
                    if key not in value:
                        return _Absent(slot.call.node, key) if index + 2 == len(parts) and kind == SET else None
                    slot = _Argument(slot.call, key, _keyword(slot.call, key), slot.call.literals.get(key))
                    value = value[key]
                    index += 1
            elif isinstance(value, dict):
                if part not in value:
                    display = self.ev.displays.get(id(value))
                    return _Absent(display, part) if last and kind == SET and display is not None else None
                item = self.ev.item_at.get((id(value), part))
                slot = (_Item(item.display, item.index, item.key, item.value) if item is not None
                        else _Item(None, None, None, None))
                value = value[part]
            elif isinstance(value, (list, tuple)) and isinstance(part, int):
                part = _element(value, part, held(parts[:index + 1]) if held is not None else ())
                if part is None:
                    return None
                display = self._display_of(value, slot)
                elements = self.ev.elements.get(id(value))
                literal = elements[part] if elements is not None and len(elements) == len(value) else None
                slot = _Item(display, part if display is not None else None, None, literal)
                value = value[part]
            else:
                return None
            index += 1
        return slot

    def _display_of(self, value: Any, holder: Optional[_Slot]) -> Optional[ast.AST]:
        """The list display that made ``value`` when it is what its holder's literal is (its elements are its)."""
        literal = getattr(holder, "literal", None)
        if isinstance(literal, (ast.List, ast.Tuple)) and len(literal.elts) == len(value) and not any(
                isinstance(e, ast.Starred) for e in literal.elts):
            return literal
        return None

    # --- the edits of each kind -------------------------------------------------------------

    def _edits(self, change: Change, slot: _Slot, call: SourceCall) -> Optional[List[Edit]]:
        if isinstance(slot, _Absent):
            if isinstance(slot.owner, ast.Call) and self._built_several(slot.owner):
                return None  # one object's new member would be every object's that call built
            return self._add(slot, change.value)
        if change.kind == SET:
            if change.path and change.path[-1] in _NAMES and isinstance(slot, _Argument) and self._built_several(
                    slot.call.node):
                return None  # a name told apart for one object would be every object's again
            return self._set(slot, change, call)
        if change.kind == PREFIX:
            return self._prefix(slot, change.value)
        if change.kind == RENAME:
            return self._rename(slot, change.value)
        if change.kind == REMOVE:
            return self._remove(slot)
        return None  # pragma: no cover - Change checks its kind

    def _set(self, slot: Union[_Argument, _Item], change: Change, call: SourceCall) -> Optional[List[Edit]]:
        literal, value = slot.literal, change.value
        if literal is None or not _settable(literal):
            return None  # a value computed (an f-string, str(x), a concatenation): what to write there is unknown
        if self._shared(slot):  # the variable serves other code too: the value is written where it is used
            if self._built_several(call.node) and not self._same_for_all(call, change, literal):
                return None  # where it is used runs for every object (a loop's body, a helper): one value for all
            literal = _written_at(slot)
            if literal is None:
                return None
        piece, text = self._piece(literal)
        start, end = text.start(literal), text.end(literal)
        written = python_text(value, _quote(text.text, start) or self._quote_near(slot))
        if written is None:
            return None
        return [Edit(start, end, written, self.cells[piece].index)]

    def _same_for_all(self, call: SourceCall, change: Change, literal: ast.AST) -> bool:
        """Whether every object the call ``call`` is one of (a loop's, a helper's) took ``literal`` for the member
        ``change`` is at: one value written where the member is, is then every object's."""
        for obj in self.objects():
            place = self.place_of(obj)
            if place is None or place[0] is not call.node or not isinstance(place[1], SourceCall):
                continue
            if getattr(self._walk(place[1], change.path, change.kind), "literal", None) is not literal:
                return False
        return True

    def _shared(self, slot: Union[_Argument, _Item]) -> bool:
        """Whether the literal of ``slot`` is not written there and more than one expression read it."""
        literal = slot.literal
        return literal is not None and literal is not _written_at(slot) and len(
            self.ev.readers.get(id(literal), ())) > 1

    def _prefix(self, slot: Union[_Argument, _Item], value: Any) -> Optional[List[Edit]]:
        literal = slot.literal
        is_string = isinstance(literal, ast.Constant) and isinstance(literal.value, str)
        if literal is None or not (is_string or isinstance(literal, ast.JoinedStr)) or not isinstance(value, str):
            return None
        if self._shared(slot):
            return None  # the variable serves other code too (a bucket name): s3:// there would change that code
        piece, text = self._piece(literal)
        start = text.start(literal)
        head = _STRING_HEAD.match(text.text, start)
        if head is None or "b" in head.group(1).lower():
            return None
        letters = head.group(1).lower()
        content = _escaped(value, head.group(2)[0], raw="r" in letters, braces="f" in letters)
        if content is None:
            return None
        return [Edit(head.end(), head.end(), content, self.cells[piece].index)]

    def _rename(self, slot: Union[_Argument, _Item], value: Any) -> Optional[List[Edit]]:
        if not isinstance(value, str):
            return None
        if isinstance(slot, _Argument):
            if slot.keyword is None or slot.keyword.arg is None or not _keyword_name(value):
                return None
            piece, text = self._piece(slot.call.node)
            start = self._keyword_start(slot.keyword, text)
            return [Edit(start, start + len(slot.keyword.arg), value, self.cells[piece].index)]
        keyword = _dict_keyword(slot)
        if keyword is not None:  # dict(k=v): the keyword's name
            if not _keyword_name(value) or keyword.arg is None:
                return None
            piece, text = self._piece(slot.display)  # type: ignore[arg-type]
            start = self._keyword_start(keyword, text)
            return [Edit(start, start + len(keyword.arg), value, self.cells[piece].index)]
        key = slot.key
        if slot.display is None or not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            return None
        piece, text = self._piece(key)
        start, end = text.start(key), text.end(key)
        written = python_text(value, _quote(text.text, start) or text.quote())
        return None if written is None else [Edit(start, end, written, self.cells[piece].index)]

    def _remove(self, slot: Union[_Argument, _Item]) -> Optional[List[Edit]]:
        if isinstance(slot, _Argument):
            if slot.keyword is None:
                return None
            owner: ast.AST = slot.call.node
            items = self._items(owner)
            target = next((i for i, (node, _) in enumerate(items) if node is slot.keyword), None)
        else:
            if slot.display is None or slot.index is None:
                return None
            owner, target = slot.display, slot.index
            items = self._items(owner)
            keyword = _dict_keyword(slot)
            if keyword is not None:  # dict(k=v): the keyword among the call's arguments
                target = next((i for i, (node, _) in enumerate(items) if node is keyword), None)
        if target is None:
            return None
        piece, text = self._piece(owner)
        spans = [span for _, span in items]
        start, end = _removal(text, spans, target, self._brackets(owner, text))
        return [Edit(start, end, "", self.cells[piece].index)]

    def _add(self, slot: _Absent, value: Any) -> Optional[List[Edit]]:
        owner = slot.owner
        piece, text = self._piece(owner)
        if isinstance(owner, ast.Call):
            if not _keyword_name(slot.name):
                return None
            if any(k.arg is None for k in owner.keywords) or any(isinstance(a, ast.Starred) for a in owner.args):
                return None  # the member may be in what **kwargs holds: adding it would pass it twice
            head = slot.name + "="
        elif isinstance(owner, ast.Dict):
            head_text = python_text(slot.name, self._quote_in(owner, text))
            if head_text is None:
                return None
            head = head_text + ": "
        else:
            return None
        written = python_text(value, self._quote_in(owner, text))
        if written is None:
            return None
        spans = [span for _, span in self._items(owner)]
        opening, closing = self._brackets(owner, text)
        if not spans:
            return [Edit(opening + 1, closing, head + written, self.cells[piece].index)]
        last_start, last_end = spans[-1]
        between = text.text[last_end:closing]
        comma = re.match(r"[ \t]*,", between)
        own_line = text.text[text.line_start(last_start):last_start].strip() == "" and _NEWLINE.search(between)
        if own_line:
            indent = text.text[text.line_start(last_start):last_start]
            newline = _NEWLINE.search(between).group(0)  # type: ignore[union-attr]
            if comma:
                return [Edit(last_end + comma.end(), last_end + comma.end(), f"{newline}{indent}{head}{written},",
                             self.cells[piece].index)]
            return [Edit(last_end, last_end, f",{newline}{indent}{head}{written}", self.cells[piece].index)]
        if comma:
            return [Edit(last_end + comma.end(), last_end + comma.end(), f" {head}{written},", self.cells[piece].index)]
        return [Edit(last_end, last_end, f", {head}{written}", self.cells[piece].index)]

    # --- syntax -----------------------------------------------------------------------------

    def _piece(self, node: ast.AST) -> Tuple[int, _Text]:
        piece = self.ev.cells_of.get(id(node))
        if piece is None or not 0 <= piece < len(self.cells):
            raise _Unplaceable("a node no piece holds")
        if piece not in self._texts:
            self._texts[piece] = _Text(self.cells[piece])
        return piece, self._texts[piece]

    def _keyword_start(self, keyword: ast.keyword, text: _Text) -> int:
        if getattr(keyword, "lineno", None) is not None:  # Python 3.9 on
            return text.offset(keyword.lineno, keyword.col_offset)
        value_start = text.start(keyword.value)  # Python 3.8: the name (or **) before the value
        found = re.search(r"(\*\*|[^\W\d]\w*\s*=)\s*\Z", text.text[:value_start])
        if found is None:
            raise _Unplaceable("a keyword not found")
        return found.start()

    def _items(self, owner: ast.AST) -> List[Tuple[Any, Tuple[int, int]]]:
        """``(node, (start, end))`` of each item of a call's arguments, a dict's items or a list's elements, in the
        order written."""
        _, text = self._piece(owner)
        out: List[Tuple[Any, Tuple[int, int]]] = []
        if isinstance(owner, ast.Call):
            for arg in owner.args:
                out.append((arg, (text.start(arg), text.end(arg))))
            for keyword in owner.keywords:
                out.append((keyword, (self._keyword_start(keyword, text), text.end(keyword.value))))
        elif isinstance(owner, ast.Dict):
            for index, (key, value) in enumerate(zip(owner.keys, owner.values)):
                if key is not None:
                    start = text.start(key)
                else:  # **spread: from its stars
                    stars = text.text.rfind("**", 0, text.start(value))
                    if stars < 0:
                        raise _Unplaceable("a ** item not found")
                    start = stars
                out.append((index, (start, text.end(value))))
        elif isinstance(owner, (ast.List, ast.Tuple)):
            for index, element in enumerate(owner.elts):
                out.append((index, (text.start(element), text.end(element))))
        out.sort(key=lambda item: item[1][0])
        return out

    def _brackets(self, owner: ast.AST, text: _Text) -> Tuple[int, int]:
        """The offsets of the opening and closing bracket of a call's arguments, a dict or a list."""
        end = text.end(owner) - 1
        opening = text.text.find("(", text.end(owner.func)) if isinstance(owner, ast.Call) else text.start(owner)
        if opening < 0 or text.text[opening] not in "([{" or text.text[end] not in ")]}":
            raise _Unplaceable("no brackets (a tuple written without them)")
        return opening, end

    def _quote_near(self, slot: Union[_Argument, _Item]) -> str:
        """The quote style of the strings around a value that is not a string (the dict's key, the call's)."""
        key = getattr(slot, "key", None)
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            _, text = self._piece(key)
            return _quote(text.text, text.start(key)) or text.quote()
        owner = slot.display if isinstance(slot, _Item) else slot.call.node
        if owner is None:
            return self._piece(slot.literal)[1].quote() if slot.literal is not None else '"'
        _, text = self._piece(owner)
        return self._quote_in(owner, text)

    def _quote_in(self, owner: ast.AST, text: _Text) -> str:
        """The quote style of the first string written in ``owner``, else the one most strings of its piece use."""
        for node in ast.walk(owner):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                try:
                    found = _quote(text.text, text.start(node))
                except _Unplaceable:
                    continue
                if found:
                    return found
        return text.quote()


def python_text(value: Any, quote: str = '"') -> Optional[str]:
    """``value`` written in Python syntax, strings between ``quote``; None for what has no literal.

    >>> python_text("it's", "'"), python_text({"a": [1, True, None]}), python_text(float("nan"))
    ("'it\\\\'s'", '{"a": [1, True, None]}', None)
    """
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return repr(value)
    if isinstance(value, float):
        return repr(value) if value == value and value not in (float("inf"), float("-inf")) else None
    if isinstance(value, str):
        content = _escaped(value, quote)
        return None if content is None else quote + content + quote
    if isinstance(value, (list, tuple)):
        items = [python_text(item, quote) for item in value]
        if any(item is None for item in items):
            return None
        inner = ", ".join(items)  # type: ignore[arg-type]
        return f"[{inner}]" if isinstance(value, list) else f"({inner}{',' if len(items) == 1 else ''})"
    if isinstance(value, dict):
        pairs = [(python_text(k, quote), python_text(v, quote)) for k, v in value.items()]
        if any(k is None or v is None for k, v in pairs):
            return None
        return "{" + ", ".join(f"{k}: {v}" for k, v in pairs) + "}"
    return None


_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escaped(value: str, quote: str, raw: bool = False, braces: bool = False) -> Optional[str]:
    """``value`` as the content of a string literal quoted with ``quote`` (None where a raw string cannot hold it)."""
    if raw:
        return None if any(ch in value for ch in ("\\", quote, "\n", "\r")) or not value.isprintable() else (
            value.replace("{", "{{").replace("}", "}}") if braces else value)
    out = []
    for ch in value:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ch == quote:
            out.append("\\" + ch)
        elif not ch.isprintable():
            out.append(repr(ch)[1:-1])
        elif braces and ch in "{}":
            out.append(ch * 2)
        else:
            out.append(ch)
    return "".join(out)


def _quote(text: str, start: int) -> Optional[str]:
    """The quote character of the string literal at ``start`` (None: not a string literal)."""
    head = _STRING_HEAD.match(text, start)
    return head.group(2)[0] if head is not None else None


def _held(rendered: Any, at: Sequence[Any]) -> Any:
    """``held(rest)``: the objects ``rendered``'s request holds at ``at`` + ``rest``."""
    return lambda rest: rendered.objects_at(pointer(*at, *rest))


def _element(value: Sequence[Any], index: int, objects: Sequence[Any]) -> Optional[int]:
    """The element of the list written that the request's item ``index`` is: the call that built the object the
    request holds there, else (a list of plain values, rendered in order) the same index."""
    if objects:
        ids = {id(obj) for obj in objects}
        return next((i for i, item in enumerate(value) if isinstance(item, SourceCall) and id(item.built) in ids), None)
    return index if 0 <= index < len(value) else None


def _written_at(slot: Union[_Argument, _Item]) -> Optional[ast.AST]:
    """The expression written for ``slot``'s value where the member is (a keyword's value, a dict's value, a list's
    element), if there is one."""
    if isinstance(slot, _Argument):
        return slot.keyword.value if slot.keyword is not None else None
    if isinstance(slot.display, ast.Dict) and slot.index is not None:
        return slot.display.values[slot.index]
    keyword = _dict_keyword(slot)
    if keyword is not None:
        return keyword.value
    if isinstance(slot.display, (ast.List, ast.Tuple)) and slot.index is not None:
        return slot.display.elts[slot.index]
    return None


def _dict_keyword(slot: _Item) -> Optional[ast.keyword]:
    """The keyword a ``dict(k=v)`` call's item was written as (None: a display's item, or no call's)."""
    if isinstance(slot.display, ast.Call) and slot.index is not None and slot.index < len(slot.display.keywords):
        return slot.display.keywords[slot.index]
    return None


def _keyword_name(name: Any) -> bool:
    """Whether ``name`` can be written as a keyword argument's name (``name=``)."""
    return isinstance(name, str) and name.isidentifier() and not keyword_module.iskeyword(name)


def _settable(literal: Optional[ast.AST]) -> bool:
    if isinstance(literal, ast.Constant):
        return isinstance(literal.value, (str, int, float, bool)) or literal.value is None
    return isinstance(literal, ast.UnaryOp) and isinstance(literal.operand, ast.Constant)


def _argument(call: SourceCall, part: Any) -> Optional[str]:
    """The argument of ``call`` a path part names: the request member's arguments (``S3OutputPath`` is
    ``s3_output_path``), or the part itself."""
    names = ARGUMENTS.get(part, ()) if isinstance(part, str) else ()
    return next((found for found in (argument_of(call, name) for name in (*names, part)) if found is not None), None)


def _var_keywords(call: SourceCall) -> Optional[str]:
    """The name of ``call``'s ``**`` parameter, when it was given keywords."""
    if call.target.startswith("estimator:") or call.target in ("attach", "render", "trainer"):
        return None
    sig = signatures.signature(call.target)
    if sig is None:
        return None
    name = next((p.name for p in sig.parameters.values() if p.kind is p.VAR_KEYWORD), None)
    return name if name is not None and isinstance(call.args.get(name), dict) else None


def _keyword(call: SourceCall, name: str) -> Optional[ast.keyword]:
    """The keyword ``name`` was written as in ``call`` (an Estimator's SDK v1 name stands for its v2 name)."""
    for keyword in call.node.keywords:
        if keyword.arg is not None and (keyword.arg == name or (
                call.target.startswith("estimator:") and signatures.ESTIMATOR_KEYWORDS.get(keyword.arg) == name)):
            return keyword
    return None


def _parameter(call: SourceCall, part: Any) -> Optional[str]:
    """The keyword a member not written is given as (None: the call takes no such parameter)."""
    if not isinstance(part, str) or call.target.startswith("estimator:") or call.target in ("trainer",):
        return None
    sig = signatures.signature(call.target)
    if sig is None:
        return None
    for name in (*ARGUMENTS.get(part, ()), part):
        param = sig.parameters.get(name)
        if param is not None and param.kind in (param.POSITIONAL_OR_KEYWORD, param.KEYWORD_ONLY):
            return name
    return None


def _removal(text: _Text, spans: List[Tuple[int, int]], target: int, brackets: Tuple[int, int]) -> Tuple[int, int]:
    """The range that removes item ``target`` of a bracketed, comma-separated sequence with its comma: its whole
    line(s) when it has them to itself, else up to the next item, else from the previous one; all between the
    brackets when it is the only item."""
    start, end = spans[target]
    if len(spans) == 1:
        return brackets[0] + 1, brackets[1]
    line_start = text.line_start(start)
    rest = _LINE_REST.match(text.text, end)
    own_line = (rest is not None and text.text[line_start:start].strip() == ""
                and (target + 1 == len(spans) or spans[target + 1][0] >= rest.end())
                and (target == 0 or spans[target - 1][1] < line_start))
    # the last item without a comma takes the previous one's: removed from there, not as a line
    if rest is not None and own_line and (target + 1 < len(spans) or "," in text.text[end:rest.end()]):
        return line_start, rest.end()
    if target + 1 < len(spans):
        return start, spans[target + 1][0]
    return spans[target - 1][1], end


def with_edits(finding: Any, edit: Any) -> Any:
    """``finding`` with its fix's edits, ``edit(change)`` giving each change's (None when one cannot be placed: the
    fix then has none, as the engine does for a job's findings)."""
    if finding.fix is None:
        return finding
    edits: List[Edit] = []
    for change in finding.fix.changes:
        made = edit(change)
        if made is None:
            return finding.replace(fix=attrs.evolve(finding.fix, edits=None))
        edits += [one for one in made if one not in edits]  # one literal feeding two changes: one edit
    return finding.replace(fix=attrs.evolve(finding.fix, edits=edits))
