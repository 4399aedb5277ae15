"""Writing YAML and JSON where it was read: a change at a path of a document as edits of its text.

A :class:`~sm_debug_config.fixes.Change` (set, rename, remove, prefix) at a path of the document (its own keys:
a config file's arguments, a request's members, a manifest's lower-camel names) becomes :class:`Edit` values at
the spans the parser recorded (YAML: the composer's marks, :class:`~sm_debug_config.configfile.parse.Node`;
JSON: :meth:`~sm_debug_config.configfile.jsonparse.JsonText.span`, found when asked). Nothing is re-serialised:
comments, indentation, key order and line endings outside the span stay as they are, and the value is written in
the file's own syntax:

* JSON: JSON's escaping; a member added after the last one with its indentation (or on the same line).
* YAML: a string keeps its quotes (``'`` or ``"``) where it was quoted; a plain scalar stays plain where it still
  reads as the same string, else it is quoted in the style the file uses most (double quotes when even); a
  collection is written in flow style (``{a: 1}``) where the old value was a scalar or in flow, in block style at
  the old value's indentation where it was a block. A block member is removed with its line(s), a flow member or
  JSON member with the comma that separated it, so no blank line and no dangling comma is left.

Every edit is checked before it is handed out: the text with it made is parsed again and must hold exactly the
document with the change made (:meth:`~sm_debug_config.fixes.Change.apply`); a change the text cannot take so
(an alias that other places share, a member that is not there to rename, a layout this module does not know)
has no edits (``None``), and the finding keeps its fix without them.

>>> from sm_debug_config.configfile.document import parse_text
>>> from sm_debug_config.fixes import Change
>>> text = "rules:\\n  - builtin: X\\n    rule_parameters:\\n      num_steps: 20  # steps\\n"
>>> editor = parse_text(text, "c.yaml", None).editor()
>>> edits = editor.edits(Change("set", ("rules", 0, "rule_parameters", "num_steps"), "20"))
>>> print(edits[0].apply(text), end="")
rules:
  - builtin: X
    rule_parameters:
      num_steps: "20"  # steps
"""
from __future__ import annotations

import copy
import json
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from sm_debug_config.configfile.jsonparse import JsonText, load_json
from sm_debug_config.configfile.parse import Node, _plain_scalar, pyyaml
from sm_debug_config.configfile.strings import BLANKS, LINE_BREAKS, _scalar_start
from sm_debug_config.errors import ConfigError
from sm_debug_config.fixes import PREFIX, REMOVE, RENAME, SET, Change, Edit

__all__ = ["JsonEditor", "TextEditor", "YamlEditor", "json_value", "yaml_scalar"]


class Member:
    """Where one member of a container is written: ``head`` (its key, or a block list item's dash), ``key_start``,
    ``key_end`` (a list item's: its value's), ``start`` and ``end`` of its value (anchor and tag skipped). (Plain
    slotted classes, as :class:`Node`: made only for an edit, and defined at import for nearly nothing.)"""

    __slots__ = ("key", "head", "key_start", "key_end", "start", "end")

    def __init__(self, key: Any, head: int, key_start: int, key_end: int, start: int, end: int) -> None:
        self.key, self.head, self.key_start, self.key_end, self.start, self.end = (
            key, head, key_start, key_end, start, end)


class Container:
    """A mapping (``is_map``) or list as written: its span, whether it is in flow style (``{...}``, ``[...]``, all
    of JSON), and its members in the text's order."""

    __slots__ = ("is_map", "flow", "start", "end", "members")

    def __init__(self, is_map: bool, flow: bool, start: int, end: int, members: Sequence[Member]) -> None:
        self.is_map, self.flow, self.start, self.end, self.members = is_map, flow, start, end, tuple(members)


#: The characters an editor parses again to check its edits (a fix past it has no edits): a file's check costs at
#: most about this much more parsing however many fixes it has (a YAML config of 20 KiB: 400 checked edits).
REREAD_BUDGET = 8 * 1024 * 1024
_ABSENT = object()  # what a part reads as when it is not the one member it should be


def _value_at(data: Any, path: Sequence[Any]) -> Any:
    for part in path:
        data = data[part]
    return data


class TextEditor:
    """The edits of one text that make a :class:`Change` at a path of its document (a format's subclass says where
    things are and how values are written). ``reparse``: the text parsed again into plain data, to check each
    edit; ``document``: the data of the text as it is."""

    def __init__(self, text: str, document: Any, reparse: Callable[[str], Any]) -> None:
        self.text, self.document, self._reparse = text, document, reparse
        self.newline = "\r\n" if "\r\n" in text else "\n"
        self._budget = REREAD_BUDGET

    # -- what a format says
    def value_span(self, path: Sequence[Any]) -> Optional[Tuple[int, int]]:
        """``(start, end)`` of the value at ``path`` (what a set replaces), None where it cannot be edited."""
        raise NotImplementedError

    def container(self, path: Sequence[Any]) -> Optional[Container]:
        """The mapping or list at ``path``, None where there is none or it cannot be edited."""
        raise NotImplementedError

    def write(self, value: Any, path: Sequence[Any], replacing: bool, indent: str) -> Optional[str]:
        """``value`` written as the value at ``path`` (``replacing`` the one there), lines after the first at
        ``indent``; None where this format cannot write it."""
        raise NotImplementedError

    def write_key(self, key: Any, path: Sequence[Any]) -> Optional[str]:
        """``key`` written as the key at ``path`` (the key it replaces, or a new one)."""
        raise NotImplementedError

    def prefixed(self, path: Sequence[Any], text: str) -> Optional[List[Edit]]:
        """The edits putting ``text`` before the string at ``path``."""
        raise NotImplementedError

    def string_span(self, path: Sequence[Any]) -> Optional[Tuple[int, int]]:
        """The span of the string at ``path`` as written, a tag's too (``!Sub |``: from ``|``), for text held in it
        (:mod:`sm_debug_config.stringedit`); None where no string is written there."""
        raise NotImplementedError

    # -- the four kinds
    def edits(self, change: Change) -> Optional[List[Edit]]:
        """The edits of the text that make ``change`` (its path: the document's), or None where the text cannot take
        it (then nothing is written). Checked: the text edited parses to the document changed."""
        path = tuple(change.path)
        if not path:
            return None
        try:
            made = _KINDS[change.kind](self, path, change.value)
        except (LookupError, TypeError, ValueError):  # a path into a value of another shape
            made = None
        if made is None or not self._holds(made, change):
            return None
        return made

    def _holds(self, edits: List[Edit], change: Change) -> bool:
        """Whether the text with ``edits`` made reads back as the document with ``change`` made: the first part of
        the text that holds every edit (:meth:`parts`) parsed again and compared with its value changed, within the
        editor's budget of characters re-read (:data:`REREAD_BUDGET`)."""
        path = tuple(change.path)
        for where, start, end in self.parts(path):
            if any(edit.start < start or edit.end > end for edit in edits):
                continue
            if end - start > self._budget:
                return False
            self._budget -= end - start
            expected = copy.deepcopy(_value_at(self.document, where))
            try:
                Change(change.kind, path[len(where):], change.value).apply(expected)
            except (LookupError, TypeError):
                return False
            text = self.text[start:end]
            for edit in sorted(edits, key=lambda e: e.start, reverse=True):
                text = text[:edit.start - start] + edit.content + text[edit.end - start:]
            try:
                return bool(self.reread(text, where) == expected)
            except ConfigError:
                continue  # the part does not read alone (an alias of an anchor outside it): a wider one next
        return False

    def parts(self, path: Tuple[Any, ...]) -> List[Tuple[Tuple[Any, ...], int, int]]:
        """The parts of the text that may be parsed again to check a change at ``path``, narrowest first, each as the
        path of the value it reads as and its span: the whole text unless a format knows a narrower one."""
        return [((), 0, len(self.text))]

    def reread(self, text: str, where: Tuple[Any, ...]) -> Any:
        """The value at ``where`` that the edited text of a part (:meth:`parts`) reads as."""
        return self._reparse(text)

    def set_member(self, path: Tuple[Any, ...], value: Any) -> Optional[List[Edit]]:
        """The value at ``path`` replaced where it is written, or the member added after its last sibling."""
        span = self.value_span(path)
        if span is not None:
            start, end = span
            written = self.write(value, path, True, self._indent_at(start))
            if written is None:
                return None
            if start == end and start > 0 and self.text[start - 1] not in BLANKS and self.text[start - 1] not in "[{,":
                written = " " + written  # a null written as nothing: ``key:`` becomes ``key: value``
            return [Edit(start, end, written)]
        parent = self.container(path[:-1])
        if parent is None or not parent.is_map or not isinstance(path[-1], str):
            return None  # a list item is set where it is, never added
        return self._insert(parent, path, value)

    def rename_key(self, path: Tuple[Any, ...], new: Any) -> Optional[List[Edit]]:
        """The key at ``path`` written as ``new`` (its value, comment and place kept); not onto a key there already."""
        parent = self.container(path[:-1])
        if parent is None or not parent.is_map or not isinstance(new, str):
            return None
        keys = {member.key: member for member in parent.members}
        member = keys.get(path[-1])
        if member is None or new in keys:
            return None
        written = self.write_key(new, path)
        return None if written is None else [Edit(member.key_start, member.key_end, written)]

    def remove_member(self, path: Tuple[Any, ...], value: Any) -> Optional[List[Edit]]:
        """The member at ``path`` removed: a block one with its line(s), a flow one with the comma before or after it,
        the last one leaving ``{}`` or ``[]`` (a block's on its key's line: ``key: {}``)."""
        parent = self.container(path[:-1])
        if parent is None:
            return None
        members = list(parent.members)
        index = next((i for i, m in enumerate(members) if m.key == path[-1]), None)
        if index is None:
            return None
        member = members[index]
        if len(members) == 1:  # nothing left: an empty container where it was
            empty = "{}" if parent.is_map else "[]"
            if not parent.flow:  # a block's lines below its key: ``key: {}`` on the key's line, as users write it
                colon = len(self.text[:parent.start].rstrip(" \t\r\n"))
                if self.text[colon - 1:colon] == ":":
                    return [Edit(colon, parent.end, " " + empty)]
            return [Edit(parent.start, parent.end, empty)]
        if parent.flow:
            if index + 1 < len(members):
                start, end = member.head, members[index + 1].head
            else:
                start, end = members[index - 1].end, member.end
            gap = self.text[start:member.head] + self.text[member.end:end]
            if any(char not in BLANKS and char != "," for char in gap):
                return None  # a comment between members: not ours to drop
            return [Edit(start, end, "")]
        line = self._line_start(member.head)
        if self.text[line:member.head].strip():  # ``- a: 1`` (the first key of a list item): up to the next key
            if index + 1 == len(members):
                return None
            return [Edit(member.head, members[index + 1].head, "")]
        return [Edit(line, self._after_line(member.end), "")]

    def prefix_string(self, path: Tuple[Any, ...], text: Any) -> Optional[List[Edit]]:
        """``text`` put before the string at ``path`` (:meth:`prefixed`, the format's)."""
        if not isinstance(text, str):
            return None
        return self.prefixed(path, text)

    # -- adding a member
    def _insert(self, parent: Container, path: Tuple[Any, ...], value: Any) -> Optional[List[Edit]]:
        key = self.write_key(path[-1], path)
        if key is None:
            return None
        if not parent.members:
            if not parent.flow:
                return None  # pragma: no cover - a block mapping has a member
            written = self.write(value, path, False, "")
            return None if written is None else [Edit(parent.start + 1, parent.start + 1, f"{key}: {written}")]
        last = parent.members[-1]
        first = parent.members[0]
        line = self.text[self._line_start(last.head):last.head]
        indent = line[:len(line) - len(line.lstrip(" \t"))]  # the last member's line's (``a: 1, b: 2``: its start's)
        if parent.flow:
            written = self.write(value, path, False, indent)
            if written is None:
                return None
            if "\n" in self.text[parent.start:first.head]:  # one member a line: the new one on its own
                return [Edit(last.end, last.end, f",{self.newline}{indent}{key}: {written}")]
            return [Edit(last.end, last.end, f", {key}: {written}")]
        indent = " " * (last.head - self._line_start(last.head))
        written = self.write(value, path, False, indent)
        if written is None:
            return None
        at = self._after_line(last.end)
        member = f"{indent}{key}: {written}" if not written.startswith(self.newline) else f"{indent}{key}:{written}"
        if at == len(self.text) and not self.text.endswith(("\n", "\r")):
            return [Edit(at, at, self.newline + member)]
        return [Edit(at, at, member + self.newline)]

    # -- lines
    def _line_start(self, index: int) -> int:
        return max(self.text.rfind("\n", 0, index), self.text.rfind("\r", 0, index)) + 1

    def _indent_at(self, index: int) -> str:
        """The spaces of a block value's own column at ``index`` (where lines after its first line go)."""
        return " " * (index - self._line_start(index))

    def _after_line(self, index: int) -> int:
        """The start of the line after the one ``index`` is on (the text's end on the last line)."""
        if index > 0 and self.text[index - 1] in "\r\n":
            return index  # a block scalar ends after its line break
        found = LINE_BREAKS.search(self.text, index)
        return found.end() if found else len(self.text)


#: Each kind of change -> how an editor makes it (through the instance: a format may override one).
_KINDS: Dict[str, Callable[[TextEditor, Tuple[Any, ...], Any], Optional[List[Edit]]]] = {
    SET: lambda editor, path, value: editor.set_member(path, value),
    RENAME: lambda editor, path, value: editor.rename_key(path, value),
    REMOVE: lambda editor, path, value: editor.remove_member(path, value),
    PREFIX: lambda editor, path, value: editor.prefix_string(path, value),
}


# --- JSON ---------------------------------------------------------------------------------------


def json_value(value: Any) -> str:
    """``value`` as JSON writes it in a file (non-ASCII as is: the file is UTF-8).

    >>> json_value({"num_steps": "20", "on": True})
    '{"num_steps": "20", "on": true}'
    """
    return json.dumps(value, ensure_ascii=False)


class JsonEditor(TextEditor):
    """Edits of JSON text, at the spans :class:`~sm_debug_config.configfile.jsonparse.JsonText` finds."""

    def __init__(self, text: JsonText, document: Any, reparse: Callable[[str], Any]) -> None:
        super().__init__(text.text, document, reparse)
        self._json = text

    def value_span(self, path: Sequence[Any]) -> Optional[Tuple[int, int]]:
        span = self._json.span(path)
        return None if span is None else (span[2], span[3])

    def container(self, path: Sequence[Any]) -> Optional[Container]:
        members = self._json.members(path)
        span = self._json.span(path)
        if members is None or span is None:
            return None
        return Container(self.text[span[2]] == "{", True, span[2], span[3],
                         tuple(Member(key, s[0], s[0], s[1], s[2], s[3]) for key, s in members.items()))

    def parts(self, path: Tuple[Any, ...]) -> List[Tuple[Tuple[Any, ...], int, int]]:
        """The member's container: JSON reads the same alone (a large request's fix is checked in its object)."""
        span = self._json.span(path[:-1])
        return [(path[:-1], span[2], span[3]) if span is not None else ((), 0, len(self.text))]

    def reread(self, text: str, where: Tuple[Any, ...]) -> Any:
        return load_json(text, "<edited>")[0]

    def write(self, value: Any, path: Sequence[Any], replacing: bool, indent: str) -> Optional[str]:
        return json_value(value)

    def write_key(self, key: Any, path: Sequence[Any]) -> Optional[str]:
        return json_value(key) if isinstance(key, str) else None

    def prefixed(self, path: Sequence[Any], text: str) -> Optional[List[Edit]]:
        span = self.value_span(path)
        if span is None or self.text[span[0]] != '"':
            return None
        return [Edit(span[0] + 1, span[0] + 1, json_value(text)[1:-1])]

    def string_span(self, path: Sequence[Any]) -> Optional[Tuple[int, int]]:
        span = self.value_span(path)
        return span if span is not None and self.text[span[0]] == '"' else None


# --- YAML ---------------------------------------------------------------------------------------

#: Characters a plain scalar may not start with (YAML's indicators), nor hold in flow context.
_INDICATORS = "-?:,[]{}#&*!|>'\"%@`"
_FLOW_INDICATORS = ",[]{}"


def _printable(char: str) -> bool:
    """Whether YAML allows ``char`` as written (its printable set, line breaks and tab apart)."""
    code = ord(char)
    return (0x20 <= code <= 0x7E or 0xA0 <= code <= 0xD7FF or 0xE000 <= code <= 0xFFFD or code >= 0x10000) and (
        code not in (0xFEFF, 0x2028, 0x2029))


def _plain_ok(text: str, flow: bool) -> bool:
    """Whether ``text`` written plain reads back as the same string (here and in any YAML 1.1 reader)."""
    if not text or text != text.strip() or not all(map(_printable, text)):
        return False
    if text[0] in _INDICATORS or ": " in text or " #" in text or text.endswith(":"):
        return False
    if flow and any(char in text for char in _FLOW_INDICATORS):
        return False
    if _plain_scalar(text) != text:
        return False
    yaml = pyyaml()
    return bool(yaml.resolver.Resolver().resolve(yaml.ScalarNode, text, (True, False)) == "tag:yaml.org,2002:str")


_DOUBLE_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r", "\0": "\\0"}


def _double_quoted(text: str) -> str:
    out = []
    for char in text:
        if char in _DOUBLE_ESCAPES:
            out.append(_DOUBLE_ESCAPES[char])
        elif _printable(char):
            out.append(char)
        else:
            code = ord(char)
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
    return '"' + "".join(out) + '"'


def yaml_scalar(value: Any, quote: str = '"', flow: bool = False, plain: bool = True) -> Optional[str]:
    """``value`` (a string, number, boolean or None) as a YAML scalar: plain where it reads back the same (and
    ``plain`` allows it), else in ``quote`` (``'`` or ``"``; double where single quotes cannot hold it).

    >>> yaml_scalar("20"), yaml_scalar("s3://b/o"), yaml_scalar("it's: 1", quote="'"), yaml_scalar(20)
    ('"20"', 's3://b/o', "'it''s: 1'", '20')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = repr(value)
        return text if _plain_scalar(text) == value else None
    if not isinstance(value, str):
        return None
    if plain and _plain_ok(value, flow):
        return value
    if quote == "'" and all(map(_printable, value)):
        return "'" + value.replace("'", "''") + "'"
    return _double_quoted(value)


class YamlEditor(TextEditor):
    """Edits of YAML text, at the spans the composer recorded in its nodes (:class:`Node`)."""

    def __init__(self, text: str, root: Optional[Node], document: Any, reparse: Callable[[str], Any]) -> None:
        super().__init__(text, document, reparse)
        self._root = root
        self._quote: Optional[str] = None

    @property
    def quote(self) -> str:
        """The quote the file uses most for its quoted scalars (``"`` when even)."""
        if self._quote is None:
            counts = {"'": 0, '"': 0}
            stack = [self._root] if self._root is not None else []
            while stack:
                node = stack.pop()
                if node.kind == "scalar":
                    if node.style in counts:
                        counts[node.style] += 1
                elif node.kind == "map":
                    stack.extend(part for pair in node.value for part in pair)
                else:
                    stack.extend(node.value)
            self._quote = "'" if counts["'"] > counts['"'] else '"'
        return self._quote

    def _walk(self, path: Sequence[Any]) -> Optional[Tuple[Optional[Node], Node, bool]]:
        """``(key node, node, in flow)`` at ``path`` (the root's key: None); None where the document has no such path
        or a node on the way is shared by an alias or has no place in the text."""
        node = self._root
        if node is None or node.start is None:
            return None
        key: Optional[Node] = None
        flow = False
        for part in path:
            flow = flow or node.style == "flow"
            child = node.child(part)
            if child is None:
                return None
            key, node = (child[0] if node.kind == "map" else None), child[1]
            if node.shared or node.start is None or (key is not None and (key.shared or key.start is None)):
                return None
        return key, node, flow

    def _content(self, node: Node) -> Tuple[int, int]:
        """The span of ``node``'s value as written, past its anchor and tag; a block scalar's without the line breaks
        that end it (a node the walk gave: it has its span)."""
        at = node.start or 0
        if at == node.end:  # a null written as nothing
            return at, at
        start = _scalar_start(self.text, at) if node.kind == "scalar" else at
        end = node.end if node.end is not None else start
        if node.style in ("|", ">", "block"):  # (a block collection ends where its last value does)
            while end > start and self.text[end - 1] in BLANKS:
                end -= 1
        return start, end

    def _core_tag(self, node: Node, start: int) -> bool:
        """Whether ``node`` is written with a core tag (``!!int 5``); a document's own (``!Sub``) gives its meaning to
        the mapping around it, and is kept as it is."""
        written = self.text[node.start or 0:start]
        return "!!" in written or "!<" in written

    def parts(self, path: Tuple[Any, ...]) -> List[Tuple[Tuple[Any, ...], int, int]]:
        """Below a top-level member of a block mapping written at column 0: its lines (to the next top-level key),
        which read alone as ``{key: value}``; then the whole text."""
        whole = [((), 0, len(self.text))]
        root = self.container(()) if len(path) > 1 else None
        if root is None or root.flow or not root.is_map:
            return whole
        heads = [member.head for member in root.members]
        index = next((i for i, member in enumerate(root.members) if member.key == path[0]), None)
        if index is None or any(self._line_start(head) != head for head in heads[index:index + 2]):
            return whole
        end = heads[index + 1] if index + 1 < len(heads) else len(self.text)
        return [((path[0],), heads[index], end)] + whole

    def reread(self, text: str, where: Tuple[Any, ...]) -> Any:
        data = self._reparse(text)
        if not where:
            return data
        return data.get(where[0], _ABSENT) if isinstance(data, dict) and len(data) == 1 else _ABSENT

    def value_span(self, path: Sequence[Any]) -> Optional[Tuple[int, int]]:
        found = self._walk(path)
        if found is None:
            return None
        node = found[1]
        start, end = self._content(node)
        if node.kind == "scalar" and self._core_tag(node, start):
            return None  # a tag says what the value is: a new value would contradict it
        return start, end

    def container(self, path: Sequence[Any]) -> Optional[Container]:
        found = self._walk(path)
        if found is None or found[1].kind == "scalar" or found[1].style == "tag":
            return None  # (a tag's mapping has no member to add, rename or remove: its one key is the tag)
        node = found[1]
        members = []
        if node.kind == "map":
            for key, value in node.value:
                if key.start is None or value.start is None or key.kind != "scalar":
                    return None
                key_start, key_end = self._content(key)
                members.append(Member(key.value, key.start, key_start, key_end, *self._content(value)))
        else:
            for index, item in enumerate(node.value):
                if item.start is None:
                    return None
                start, end = self._content(item)
                members.append(Member(index, self._dash(item) if node.style == "block" else item.start, start, end,
                                      start, end))
        start = node.start or 0  # the walk gave a node with its span
        end = node.end if node.end is not None else start
        if node.style == "block" and members:
            end = members[-1].end
        return Container(node.kind == "map", node.style == "flow", start, end, tuple(members))

    def _dash(self, item: Node) -> int:
        """The index of a block list item's dash: its node starts after it, on the same line or, past blank and
        comment lines, on a later one (``-  # note`` then the item)."""
        start = item.start or 0
        end = start
        while True:
            line = self._line_start(end)
            written = self.text[line:end]
            if "#" in written and not written.lstrip().startswith("#"):
                written = written[:written.index(" #")] if " #" in written else written
            content = written.rstrip()
            if content.endswith("-") and not content.lstrip().startswith("#"):
                return line + len(content) - 1
            if (content.strip() and not content.lstrip().startswith("#")) or line == 0:
                return start  # something else before the item: no dash found
            end = line - 1 if line >= 1 and self.text[line - 1] == "\n" else line
            end = end - 1 if end >= 1 and self.text[end - 1] == "\r" else end
            end = max(end, 0)

    def _where(self, path: Sequence[Any]) -> Tuple[Optional[Node], Optional[Node], bool]:
        """``(key node, value node, in flow)`` at ``path``; the nodes None where it is not written yet (in flow: its
        parent's)."""
        found = self._walk(path)
        if found is None:
            parent = self._walk(path[:-1])
            return None, None, bool(parent and (parent[2] or parent[1].style == "flow"))
        return found

    def write(self, value: Any, path: Sequence[Any], replacing: bool, indent: str) -> Optional[str]:
        _key, old, flow = self._where(path) if replacing else (None, None, self._where(path)[2])
        if isinstance(value, (dict, list)):
            if value and not flow and old is not None and old.style == "block":
                return self._block(value, indent)
            if value and not flow and old is None:  # a new member of a block mapping: on the lines below its key
                return self.newline + indent + "  " + (self._block(value, indent + "  ") or "")
            return self._flow(value)
        if old is not None and old.kind == "scalar" and old.style in ("'", '"') and isinstance(value, str):
            return yaml_scalar(value, quote=old.style, flow=flow, plain=False)
        return yaml_scalar(value, quote=self.quote, flow=flow)

    def write_key(self, key: Any, path: Sequence[Any]) -> Optional[str]:
        if not isinstance(key, str):
            return None
        old, _node, flow = self._where(path)
        if old is not None and old.style in ("'", '"'):
            return yaml_scalar(key, quote=old.style, flow=flow, plain=False)
        return yaml_scalar(key, quote=self.quote, flow=flow)

    def _flow(self, value: Any) -> Optional[str]:
        """``value`` in flow style (``{a: 1, b: [x]}``)."""
        if isinstance(value, dict):
            keys = [yaml_scalar(key, self.quote, True) if isinstance(key, str) else None for key in value]
            items = [self._flow(item) for item in value.values()]
            if None in keys or None in items:
                return None
            return "{" + ", ".join(f"{k}: {v}" for k, v in zip(keys, items)) + "}"
        if isinstance(value, list):
            items = [self._flow(item) for item in value]
            return None if None in items else "[" + ", ".join(items) + "]"  # type: ignore[arg-type]
        return yaml_scalar(value, self.quote, True)

    def _block(self, value: Any, indent: str) -> Optional[str]:
        """``value`` (a non-empty mapping or list) in block style: its lines joined at ``indent``, the first one
        unindented (it goes where the old value started, or after a dash)."""
        lines: List[str] = []
        pairs = list(value.items()) if isinstance(value, dict) else [(None, item) for item in value]
        for key, item in pairs:
            head = "-" if key is None else (yaml_scalar(key, self.quote) if isinstance(key, str) else None)
            if head is None:
                return None
            head = head if key is None else head + ":"
            if isinstance(item, (dict, list)) and item:
                inner = self._block(item, indent + "  ")
                if inner is None:
                    return None
                lines.append(f"- {inner}" if key is None else f"{head}{self.newline}{indent}  {inner}")
            else:
                scalar = self._flow(item)
                if scalar is None:
                    return None
                lines.append(f"{head} {scalar}")
        return (self.newline + indent).join(lines)

    def string_span(self, path: Sequence[Any]) -> Optional[Tuple[int, int]]:
        found = self._walk(path)
        if found is None or found[1].kind != "scalar" or not isinstance(found[1].value, str):
            return None
        return self._content(found[1])

    def prefixed(self, path: Sequence[Any], text: str) -> Optional[List[Edit]]:
        found = self._walk(path)
        if found is None or found[1].kind != "scalar" or not isinstance(found[1].value, str):
            return None
        _key, node, flow = found
        start, end = self._content(node)
        if self._core_tag(node, start):
            return None
        if node.style == '"':
            return [Edit(start + 1, start + 1, _double_quoted(text)[1:-1])]
        if node.style == "'":
            if not all(map(_printable, text)):
                return None
            return [Edit(start + 1, start + 1, text.replace("'", "''"))]
        if node.style == "" and "\n" not in self.text[start:end] and "\r" not in self.text[start:end] and _plain_ok(
                text + node.value, flow):
            return [Edit(start, start, text)]
        written = yaml_scalar(text + node.value, self.quote, flow)
        return None if written is None else [Edit(start, end, written)]
