"""Edits of JSON and YAML text at a value's span: where a member is written, and a change made there in the file's
own syntax (never by re-serialising the file), for every source whose text is JSON or YAML, and for JSON text held
in a string (a CloudFormation ``!Sub`` body, a pipeline definition in a template, a notebook's cell line).

A :class:`Tree` finds a member's spans (its key, its value as written, and what removing it takes: the comma or the
line with it) and writes values in its syntax; :func:`change_edits` turns one change kind (``set``, ``rename``,
``remove``, ``prefix``, :mod:`sm_debug_config.fixes`) at a path of the tree into :class:`~sm_debug_config.fixes.Edit`
values, or None where the text cannot take it as written (an absent member with no sibling to follow, a
multi-line folded scalar). A :class:`HostString` is a string value as the file writes it (a JSON string, a YAML
quoted or ``|`` block scalar): each character of its value to its index in the file, and text escaped the way
that string is written; :meth:`HostString.edit` carries an edit of the value's text into the file. Every host is
checked by decoding it again: a string whose characters this module cannot account for has no host (no edit),
never a wrong one.

>>> tree = JsonTree('{\\n  "num_steps": 20,\\n  "x": "y"\\n}')
>>> [(e.start, e.end, e.content) for e in change_edits(tree, "set", ("num_steps",), "20")]
[(17, 19, '"20"')]
>>> change_edits(tree, "remove", ("num_steps",), None)[0].apply(tree.text)
'{\\n  "x": "y"\\n}'
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

from sm_debug_config.configfile.parse import pyyaml
from sm_debug_config.fixes import PREFIX, REMOVE, RENAME, SET, Edit

__all__ = [
    "HostString",
    "JsonTree",
    "Member",
    "Spot",
    "Tree",
    "YamlTree",
    "change_edits",
    "fn_sub_literal",
    "json_string_escape",
    "line_end",
    "newline_at",
    "past_line",
    "quoted_string",
    "template_literal",
    "text_line_start",
]

Path = Sequence[Union[str, int]]
Spot = Path  #: a path in a tree (the name other modules import, whose own ``Path`` is a tuple)
Span = Tuple[int, int]


class Member(NamedTuple):
    """Where one member (an object's key and value, or a list item) is written: ``key`` (None for an item),
    ``value`` (the value as written, past a YAML tag), ``whole`` (what removing it takes: its comma or its line;
    None where removing it would leave the text broken, the only key after a list item's dash)."""

    key: Optional[Span]
    value: Span
    whole: Optional[Span]


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


def _json_string(text: str, quote: int, value: str, literal: Callable[[str], str] = _same) -> Optional[HostString]:
    read = quoted_string(text, quote, _JSON_ESCAPES, {"u": 4})
    if read is None or read[1] != value:
        return None
    return HostString(read[0], lambda content: json_string_escape(literal(content)))


class _JsonMember(NamedTuple):
    key: Any  # the key, or the item's index
    key_span: Optional[Span]
    value: Span


class Tree:
    """Spans of the members of a JSON or YAML text, and values written in its syntax (:func:`change_edits`)."""

    text: str

    def member(self, path: Path) -> Optional[Member]:
        """Where the member at ``path`` is written, or None where the text has no such path."""
        raise NotImplementedError

    def string(self, path: Path) -> Optional[HostString]:
        """The string at ``path`` as written (None: no string there, or one this module cannot account for)."""
        raise NotImplementedError

    def insert(self, parent: Path, key: str, value: Any) -> Optional[Edit]:
        """The edit that adds ``key: value`` to the object at ``parent`` after its last member, with that member's
        indentation (None: no object there, or no member to follow)."""
        raise NotImplementedError

    def write(self, value: Any, path: Path) -> Optional[str]:
        """``value`` written in this syntax to replace the value at ``path`` (its quoting kept where it can be)."""
        raise NotImplementedError

    def write_key(self, key: str, path: Path) -> str:
        """``key`` written in this syntax to replace the key at ``path``."""
        raise NotImplementedError


class JsonTree(Tree):
    """JSON ``text`` (a whole file, or the text of a string); ``literal`` writes a new string's text as its
    strings hold it (Terraform JSON's strings are templates: :func:`template_literal`)."""

    def __init__(self, text: str, literal: Callable[[str], str] = _same) -> None:
        self.text, self.literal = text, literal
        self._scan = json.JSONDecoder(object_pairs_hook=list, parse_int=str, parse_float=str).scan_once  # type: ignore[attr-defined]
        self._containers: Dict[Tuple[Any, ...], Tuple[int, int, List[_JsonMember]]] = {}

    def _space(self, index: int) -> int:
        while index < len(self.text) and self.text[index] in " \t\r\n":
            index += 1
        return index

    def _container(self, path: Tuple[Any, ...]) -> Optional[Tuple[int, int, List[_JsonMember]]]:
        """``(open index, close index, members)`` of the object or list at ``path``."""
        if path in self._containers:
            return self._containers[path]
        if path:
            parent = self._container(path[:-1])
            found = next((m for m in parent[2] if m.key == path[-1]), None) if parent is not None else None
            if found is None:
                return None
            start = found.value[0]
        else:
            start = self._space(0)
        read = self._members(start)
        if read is not None:
            self._containers[path] = read
        return read

    def _members(self, start: int) -> Optional[Tuple[int, int, List[_JsonMember]]]:
        text = self.text
        opener = text[start:start + 1]
        if opener not in ("{", "["):
            return None
        members: List[_JsonMember] = []
        index = self._space(start + 1)
        try:
            while text[index:index + 1] not in ("}", "]", ""):
                key_span: Optional[Span] = None
                if opener == "{":
                    key, end = json.decoder.scanstring(text, index + 1)  # type: ignore[attr-defined]
                    key_span = (index, end)
                    index = self._space(self._space(end) + 1)  # past the colon
                else:
                    key = len(members)
                _value, end = self._scan(text, index)
                members.append(_JsonMember(key, key_span, (index, end)))
                index = self._space(end)
                if text[index:index + 1] == ",":
                    index = self._space(index + 1)
        except (ValueError, StopIteration):
            return None
        return (start, index, members) if index < len(text) else None

    def _find(self, path: Path) -> Optional[Tuple[Tuple[int, int, List[_JsonMember]], int]]:
        if not path:
            return None
        container = self._container(tuple(path[:-1]))
        if container is None:
            return None
        at = next((i for i, m in enumerate(container[2]) if m.key == path[-1] and type(m.key) is type(path[-1])), None)
        return None if at is None else (container, at)

    def member(self, path: Path) -> Optional[Member]:
        found = self._find(path)
        if found is None:
            return None
        (opened, closed, members), at = found
        this = members[at]
        start = this.key_span[0] if this.key_span is not None else this.value[0]
        if at + 1 < len(members):  # up to the next member: its comma and the space after it go
            nxt = members[at + 1]
            whole = (start, nxt.key_span[0] if nxt.key_span is not None else nxt.value[0])
        elif at > 0:  # the last: from the end of the one before (its comma goes)
            whole = (members[at - 1].value[1], this.value[1])
        else:  # the only one: the container is left empty
            whole = (opened + 1, closed)
        return Member(this.key_span, this.value, whole)

    def string(self, path: Path) -> Optional[HostString]:
        found = self.member(path)
        if found is None or self.text[found.value[0]:found.value[0] + 1] != '"':
            return None
        value = json.loads(self.text[found.value[0]:found.value[1]])
        return _json_string(self.text, found.value[0], value, self.literal)

    def insert(self, parent: Path, key: str, value: Any) -> Optional[Edit]:
        container = self._container(tuple(parent))
        written = self.write(value, ())
        if container is None or not container[2] or self.text[container[0]] != "{" or written is None:
            return None
        last = container[2][-1]
        start = last.key_span[0] if last.key_span is not None else last.value[0]
        line = text_line_start(self.text, start)
        pair = f"{self.write_key(key, ())}: {written}"
        if self.text[line:start].strip():  # written on one line with others: after it, on that line
            return Edit(last.value[1], last.value[1], f", {pair}")
        return Edit(last.value[1], last.value[1], f",{newline_at(self.text, start)}{self.text[line:start]}{pair}")

    def write(self, value: Any, path: Path) -> Optional[str]:
        return json.dumps(_literal_strings(value, self.literal), ensure_ascii=False)

    def write_key(self, key: str, path: Path) -> str:
        return json.dumps(key, ensure_ascii=False)


def _literal_strings(value: Any, literal: Callable[[str], str]) -> Any:
    if isinstance(value, dict):
        return {key: _literal_strings(item, literal) for key, item in value.items()}
    if isinstance(value, list):
        return [_literal_strings(item, literal) for item in value]
    return literal(value) if isinstance(value, str) else value


# --- YAML ------------------------------------------------------------------------------------------------------

#: YAML's double-quoted escapes beyond JSON's (YAML 1.2), and its hexadecimal ones.
_YAML_ESCAPES = dict(_JSON_ESCAPES, **{"0": "\0", "a": "\a", "v": "\v", "e": "\x1b", " ": " ", "\t": "\t",
                                       "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029"})
_YAML_HEXES = {"x": 2, "u": 4, "U": 8}
_TAG_OR_ANCHOR = re.compile(r"(?:[!&][^\s]*\s+)*")


class YamlTree(Tree):
    """YAML ``text`` (its first document), read with PyYAML's composer for the start and end of every node; ``tags``:
    local tags read as a one-key mapping (CloudFormation's ``!Sub`` as ``Fn::Sub``), as the reader reads them."""

    def __init__(self, text: str, tags: Optional[Dict[str, str]] = None) -> None:
        self.text, self.tags = text, dict(tags or {})
        yaml = pyyaml()
        try:
            self.root: Any = yaml.compose(text, Loader=yaml.SafeLoader)  # nodes only: any local tag (!Sub) is fine
        except yaml.YAMLError:
            self.root = None
        self._yaml = yaml

    def _node(self, path: Path) -> Any:
        node = self.root
        for part in path:
            node = self._child(node, part)
            if node is None:
                return None
        return node

    def _child(self, node: Any, part: Any) -> Any:
        pair = self._pair(node, part)
        return pair[1] if pair is not None else None

    def _pair(self, node: Any, part: Any) -> Optional[Tuple[Any, Any]]:
        """``(key node, value node)`` of ``part`` (an item: ``(None, item)``)."""
        yaml = self._yaml
        if node is not None and self.tags.get(node.tag) == part:  # !Sub x: {"Fn::Sub": x}, the node itself
            return None, node
        if isinstance(node, yaml.MappingNode) and isinstance(part, str):
            return next(((k, v) for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == part
                         and k.tag == "tag:yaml.org,2002:str"), None)
        if isinstance(node, yaml.SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
            return None, node.value[part]
        return None

    def _start(self, node: Any) -> int:
        """The index of the node's value as written, past its tag and anchor."""
        index = node.start_mark.index
        return index + len(_TAG_OR_ANCHOR.match(self.text, index).group())  # type: ignore[union-attr]

    def _content_end(self, node: Any) -> int:
        """The index just past the node's last written character (a block's trailing breaks and comments not)."""
        yaml = self._yaml
        if isinstance(node, yaml.MappingNode) and node.value and not node.flow_style:
            return self._content_end(node.value[-1][1])
        if isinstance(node, yaml.SequenceNode) and node.value and not node.flow_style:
            return self._content_end(node.value[-1])
        end = node.end_mark.index
        if isinstance(node, yaml.ScalarNode) and node.style in ("|", ">"):
            while end > node.start_mark.index and self.text[end - 1] in " \t\r\n":
                end -= 1
        return end

    def member(self, path: Path) -> Optional[Member]:
        if not path:
            return None
        parent = self._node(path[:-1])
        pair = self._pair(parent, path[-1])
        if pair is None:
            return None
        key, value = pair
        text = self.text
        span = (self._start(value), self._content_end(value))
        key_span = None if key is None else (key.start_mark.index, key.end_mark.index)
        if value is parent:  # a short-form tag's long-form key (!Sub's Fn::Sub): no member of its own to remove
            return Member(None, span, span)
        heads = [item for item in parent.value] if key is None else [k for k, _ in parent.value]
        ends = [self._content_end(item if key is None else item[1]) for item in parent.value]
        at = next(i for i, node in enumerate(heads) if node is (value if key is None else key))
        start = heads[at].start_mark.index
        whole: Optional[Span]
        if parent.flow_style:  # as JSON: with its comma
            if at + 1 < len(heads):
                whole = (start, heads[at + 1].start_mark.index)
            elif at > 0:
                whole = (ends[at - 1], span[1])
            else:
                whole = (parent.start_mark.index + 1, parent.end_mark.index - 1)
            return Member(key_span, span, whole)
        line = text_line_start(text, start)
        if key is None:  # a block list's item: from its dash's line
            dash = text.rfind("-", line, start)
            whole = None if dash < 0 or text[line:dash].strip() else (line, past_line(text, span[1]))
        elif text[line:start].strip():  # the first key of a list item ("- key: v"): the next key moves up to the dash
            whole = (start, heads[at + 1].start_mark.index) if at + 1 < len(heads) else None
        else:
            whole = (line, past_line(text, span[1]))
        return Member(key_span, span, whole)

    def string(self, path: Path) -> Optional[HostString]:
        node = self._node(path)
        if not isinstance(node, self._yaml.ScalarNode) or not isinstance(node.value, str):
            return None
        start = self._start(node)
        text, value = self.text, node.value
        read: Optional[Tuple[List[int], str]] = None
        escape: Callable[[str], Optional[str]]
        if node.style == '"':
            read = quoted_string(text, start, _YAML_ESCAPES, _YAML_HEXES)
            escape = json_string_escape
        elif node.style == "'":
            read = _single_quoted(text, start)
            escape = _single_escape
        elif node.style == "|":
            read, indent = _literal_block(text, start, node.end_mark.index)
            newline = newline_at(text, start)
            escape = lambda content: _block_escape(content, indent, newline)  # noqa: E731
        elif node.style is None and "\n" not in text[start:node.end_mark.index]:
            read = (list(range(start, node.end_mark.index + 1)), text[start:node.end_mark.index])
            escape = self._plain_escape
        if read is None or read[1] != value:
            return None
        return HostString(read[0], escape)

    def _plain_escape(self, content: str) -> Optional[str]:
        """``content`` inside a plain scalar: only text that reads back as itself there (``s3://``)."""
        return content if re.fullmatch(r"[A-Za-z0-9_./:@+=-]*", content) and ": " not in content else None

    def insert(self, parent: Path, key: str, value: Any) -> Optional[Edit]:
        node = self._node(parent)
        if not isinstance(node, self._yaml.MappingNode) or not node.value:
            return None
        last_key, last_value = node.value[-1]
        written = self._written(value, None)
        pair = f"{self.write_key(key, ())}: {written}"
        end = self._content_end(last_value)
        if node.flow_style:
            return Edit(end, end, f", {pair}")
        line = text_line_start(self.text, last_key.start_mark.index)
        indent = re.sub(r"[^\t]", " ", self.text[line:last_key.start_mark.index])  # ("- " of a list item: spaces)
        at = line_end(self.text, end)
        return Edit(at, at, f"{newline_at(self.text, end)}{indent}{pair}")

    def write(self, value: Any, path: Path) -> Optional[str]:
        return self._written(value, self._node(path))

    def _written(self, value: Any, old: Any) -> str:
        if isinstance(value, str):
            style = getattr(old, "style", None) if isinstance(old, self._yaml.ScalarNode) else None
            if style == "'" and "\n" not in value:
                return "'" + value.replace("'", "''") + "'"
            if style != '"' and self._plain(value):
                return value
            return json.dumps(value, ensure_ascii=False)
        return json.dumps(value, ensure_ascii=False)  # numbers, booleans, null, flow collections: JSON is YAML

    def _plain(self, value: str) -> bool:
        """Whether ``value`` written plain reads back as the same string."""
        if not value or value != value.strip() or "\n" in value or " #" in value or value[0] in "!&*%@`|>'\"#{[,?-":
            return False
        try:
            return self._yaml.safe_load(value) == value  # type: ignore[no-any-return]
        except self._yaml.YAMLError:
            return False

    def write_key(self, key: str, path: Path) -> str:
        old = self._pair(self._node(path[:-1]), path[-1]) if path else None
        return self._written(key, old[0] if old is not None else None)


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


# --- a change as edits -----------------------------------------------------------------------------------------


def change_edits(tree: Tree, kind: str, path: Path, value: Any) -> Optional[List[Edit]]:
    """The edits of ``tree``'s text that make a change of ``kind`` at ``path`` (:mod:`sm_debug_config.fixes`);
    None where the text cannot take it (no such member, an absent member with no sibling, a string the module
    cannot account for).

    >>> tree = YamlTree("rules:\\n  - name: a   # kept\\n    out: bucket/x\\n")
    >>> change_edits(tree, "prefix", ("rules", 0, "out"), "s3://")[0].apply(tree.text)
    'rules:\\n  - name: a   # kept\\n    out: s3://bucket/x\\n'
    """
    if not path:
        return None
    member = tree.member(path)
    if kind == SET:
        if member is None:
            inserted = tree.insert(path[:-1], path[-1], value) if isinstance(path[-1], str) else None
            return None if inserted is None else [inserted]
        written = tree.write(value, path)
        return None if written is None else [Edit(member.value[0], member.value[1], written)]
    if member is None:
        return None
    if kind == RENAME:
        if member.key is None or not isinstance(value, str):
            return None
        return [Edit(member.key[0], member.key[1], tree.write_key(value, path))]
    if kind == REMOVE:
        return None if member.whole is None else [Edit(member.whole[0], member.whole[1], "")]
    if kind == PREFIX:
        host = tree.string(path)
        placed = None if host is None else host.edit(Edit(0, 0, str(value)))
        return None if placed is None else [placed]
    return None
