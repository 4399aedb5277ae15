"""Parsing: YAML or JSON text into a tree of :class:`Node` s, each with its 1-based position.

* YAML: PyYAML's own ``Composer`` over libyaml's events, never a constructor (no tag builds an
  object; tags other than the core ones are refused). It checks before it recurses: depth (so
  100,000 ``[`` are refused at the 33rd, not by a stack overflow), duplicate keys, aliases
  that refer forward or to themselves, and how far aliases expand.
* Depth is the project's limit, whatever the YAML library's: libyaml reads up to 1,024
  characters ahead in flow context (``[[[[``), so a limit of its own (PyYAML 6.0.4's wheels stop at
  1,000 levels) fires before the composer sees the 33rd level. A text whose brackets could nest
  past ``MAX_DEPTH`` (a count over the text, quotes ignored, so an upper bound) is therefore read
  by PyYAML's pure-Python events, which have no limit: first the text up to that bracket (fast);
  if the count was loose, the whole text as usual, and pure Python again only when the library
  refuses it at an opening bracket.
* Plain scalars: a subset of YAML 1.1 (``true``/``false``, ``null``/``~``, decimal numbers), so
  ``yes``/``no``, octal ``0100``, ``1:30`` and dates stay strings, as ``yaml.safe_dump`` expects.
* JSON (:mod:`.jsonparse`): values from ``json.loads`` (duplicate keys and ``NaN`` refused),
  checked by one walk; a position is found in the text only when a message or a locator asks.
  This module holds what both share: the node, the limits, the JSON error wording.
* Cost: at most ``MAX_VALUES`` values are composed (a real config has a few hundred), and a config
  whose top level is a list is refused at its first event, before anything is built.
"""
from __future__ import annotations

import functools
import json
import re
from types import ModuleType
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

from sm_debug_config import limits
from sm_debug_config.configfile.text import ConfigFileError, one_line, position
from sm_debug_config.errors import shorten
from sm_debug_config.limits import MAX_INT_DIGITS
from sm_debug_config.patterns import LazyPattern

LONG_INT = "an integer of"

MAX_DEPTH = 32  # nesting of lists/mappings (a real config needs about 8)
_INVALID_YAML = "invalid YAML:"  # what the YAML library refused (its own message follows)
TOO_DEEP = "lists and mappings are nested more than"
TOO_MANY = "the config holds more than"
MAX_VALUES = 20_000  # values (YAML: after alias expansion) of a config; a real one has a few hundred
FORMATS = ("yaml", "json")
_YAML_TAG = "tag:yaml.org,2002:"
NOT_A_MAPPING = "the top level must be a mapping of settings (region:, rules:, ...), got "


class Node:
    """One value of the document with its 1-based position (``kind``: map, seq or scalar).

    Made for every value of every file read: a plain class with slots (compared by identity), not an
    attrs one, whose class creation costs start-up and whose ``__init__`` costs each node.

    A YAML node also has its span in the text (``start``, ``end``: character indexes, from the parser's marks,
    recorded as it composes: an edit is made there, :mod:`.textedit`): a scalar's from its anchor or tag to its
    last character, a flow collection's from its bracket to the closing one, a block collection's from its first
    key or dash to the end of its last value. ``style``: a scalar's quote (``'``, ``"``, ``|``, ``>``; ``""``
    plain), a collection's ``"flow"`` or ``"block"``. ``shared``: an alias refers to it (an edit there would
    change every place it is used)."""

    __slots__ = ("kind", "value", "line", "column", "raw", "plain", "size", "start", "end", "style", "shared")

    def __init__(self, kind: str, value: Any, line: Optional[int], column: Optional[int], raw: Optional[str] = None,
                 plain: bool = False, start: Optional[int] = None, end: Optional[int] = None,
                 style: Optional[str] = None) -> None:
        self.kind = kind
        self.value: Any = value  # list of (key, value) nodes / list of nodes / Python scalar
        self.line = line
        self.column = column
        self.raw = raw  # source text of a scalar
        self.plain = plain  # an unquoted YAML scalar (or a JSON number/literal)
        self.size = 1  # values below and including this one, aliases expanded
        self.start = start  # span in the text (YAML), see the class docstring
        self.end = end
        self.style = style
        self.shared = False

    def __repr__(self) -> str:
        return (f"Node(kind={self.kind!r}, value={self.value!r}, line={self.line!r}, column={self.column!r}, "
                f"raw={self.raw!r}, plain={self.plain!r}, size={self.size!r})")

    @property
    def is_null(self) -> bool:
        return self.kind == "scalar" and self.value is None

    def child(self, key: Any) -> Optional[Tuple["Node", "Node"]]:
        """``(key node, value node)`` of ``key`` in a mapping node, ``(item, item)`` of item ``key`` of a list node."""
        if self.kind == "map":
            return next(((k, val) for k, val in self.value if k.kind == "scalar" and k.value == key), None)
        if self.kind == "seq" and isinstance(key, int) and 0 <= key < len(self.value):
            return self.value[key], self.value[key]
        return None


def describe(node: Node) -> str:
    if node.kind != "scalar":
        return "a mapping" if node.kind == "map" else "a list"
    value = node.value
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {'true' if value else 'false'}"
    if isinstance(value, int):
        return f"the integer {value}"
    if isinstance(value, float):
        return f"the number {node.raw or value}"
    text = value if len(value) <= 60 else value[:57] + "..."
    return f"the string {shorten(text)}"


# Plain scalars: a subset of YAML 1.1's implicit types (see the module docstring).
NULL_RE = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL_RE = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
_INT_RE = re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$")
_FLOAT_RE = re.compile(
    r"^(?:[-+]?[0-9]+\.[0-9]*(?:[eE][-+][0-9]+)?|\.[0-9]+(?:[eE][-+][0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)
NUMBER_TEXT_RE = re.compile(r"^[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$")


def _float(text: str) -> float:
    # YAML's .inf/.nan; text matched a number pattern
    return float(text.lower().replace(".inf", "inf").replace(".nan", "nan"))


_PLAIN = ((NULL_RE, lambda t: None), (_BOOL_RE, lambda t: t.lower() == "true"), (_INT_RE, int), (_FLOAT_RE, _float))


def _plain_scalar(text: str) -> Any:
    if text and text[0] not in "~nNtTfF+-.0123456789":
        return text  # most plain scalars are words: no pattern can match
    for pattern, convert in _PLAIN:
        if pattern.match(text):
            return convert(text)
    return text


def _duplicate(key: Any, first: Node, again: Node, source: str) -> ConfigFileError:
    message = (
        f"duplicate key {shorten(key)} (first at line {first.line}, column {first.column}); each key may appear once"
    )
    return ConfigFileError(message, source=source, line=again.line, column=again.column)


def _tag_message(tag: str) -> str:
    short = "!!" + tag[len(_YAML_TAG):] if tag.startswith(_YAML_TAG) else tag
    return (
        f"YAML tag {shorten(short)} is not allowed: a config file holds plain values only (strings, numbers, booleans, "
        "null, lists and mappings)"
    )


# A core tag of a scalar -> (its text is right, the value, what the error adds, allowed).
_CORE_TAGS: Dict[str, Tuple[Callable[[str], Any], Callable[[str], Any], str, Optional[str]]] = {
    "str": (lambda text: True, str, "", None),
    "null": (NULL_RE.match, lambda text: None, "", None),
    "bool": (lambda text: text.lower() in ("true", "false"), lambda text: text.lower() == "true", "", "true or false"),
    "int": (re.compile(r"^[-+]?[0-9]+$").match, int, ", which is not a decimal integer", None),
    "float": (lambda t: NUMBER_TEXT_RE.match(t) or _FLOAT_RE.match(t), _float, ", which is not a number", None),
}


def pyyaml() -> ModuleType:
    """PyYAML, imported on first use: the one place the package imports it (the JSON paths, ``--help`` and the
    commands that read no YAML never do). A plain import, nothing patched around it: a thread that asks while
    another is importing it waits on the import system's lock for the whole module.

    >>> pyyaml().safe_dump({"a": [1, 2]}, default_flow_style=True).strip()
    '{a: [1, 2]}'
    """
    import yaml  # start-up: see above

    return yaml


@functools.lru_cache(maxsize=None)
def _composer_class() -> Any:
    """PyYAML's ``Composer``, building :class:`Node` s and checking depth, tags, keys and aliases as it composes."""
    yaml = pyyaml()
    base: Any = yaml.composer.Composer

    class Composer(base):
        def __init__(self, events: Any, source: str, unique_keys: bool, top_mapping: bool = False,
                     tags: Optional[Mapping[str, str]] = None) -> None:
            super().__init__()
            self.unique_keys = unique_keys
            self.top_mapping = top_mapping
            self.tags = tags or {}
            self.check_event, self.peek_event, self.get_event = events.check_event, events.peek_event, events.get_event
            self.source = source
            self.depth = 0

        def fail(self, message: str, mark: Any, allowed: Optional[str] = None) -> None:
            raise ConfigFileError(
                message, source=self.source, line=mark.line + 1, column=mark.column + 1, allowed=allowed
            )

        def get_single_node(self) -> Optional[Node]:
            self.get_event()  # stream start
            root: Optional[Node]
            if self.top_mapping and self.check_event(yaml.DocumentStartEvent):
                self.get_event()
                if self.check_event(yaml.SequenceStartEvent):  # refused before a single item is composed
                    self.fail(NOT_A_MAPPING + "a list", self.peek_event().start_mark)
                root = self.compose_node(None, None)
                self.get_event()  # document end
                self.anchors.clear()
            else:
                root = None if self.check_event(yaml.StreamEndEvent) else self.compose_document()
            if not self.check_event(yaml.StreamEndEvent):
                self.fail("a second YAML document (---): a file is read as one document (a config file, a request, "
                          "a template, one Kubernetes manifest)", self.get_event().start_mark,
                          allowed="one document a file: split a stream of manifests into files")
            return root

        def compose_node(self, parent: Any, index: Any) -> Node:
            return self.node(self.get_event())

        def node(self, event: Any) -> Node:
            """The node ``event`` starts; children are read here, each end event found by the loop that reads them."""
            mark, kind = event.start_mark, type(event)
            if kind is yaml.AliasEvent:
                node = self.anchors.get(event.anchor)
                if node is None:  # also an alias inside its own anchor: anchors are registered when complete
                    self.fail(f"alias *{event.anchor} refers to no anchor defined before it", mark)
                node.shared = True
                return node  # type: ignore[no-any-return]
            if event.tag in self.tags:  # a tag the document's kind gives a meaning: {its key: the value}
                return self.tagged(event)
            if kind is yaml.ScalarEvent:
                node = self.scalar(event)
            else:
                is_map = kind is yaml.MappingStartEvent
                if event.tag not in (None, "!", _YAML_TAG + ("map" if is_map else "seq")):
                    self.fail(_tag_message(event.tag), mark)
                if self.depth >= MAX_DEPTH:  # before recursing: the stack never grows past MAX_DEPTH
                    self.fail(f"{TOO_DEEP} {MAX_DEPTH} deep", mark)
                self.depth += 1
                node = Node("map" if is_map else "seq", [], mark.line + 1, mark.column + 1, start=mark.index,
                            style="flow" if event.flow_style else "block")
                children = []
                following = self.get_event()
                while type(following) not in (yaml.MappingEndEvent, yaml.SequenceEndEvent):
                    child = self.node(following)
                    node.size += child.size
                    if node.size > MAX_VALUES:
                        why = " (aliases expanding too far?)" if self.anchors else ""
                        raise ConfigFileError(
                            f"{TOO_MANY} {MAX_VALUES} values{why}",
                            source=self.source,
                            line=child.line,
                            column=child.column,
                        )
                    children.append(child)
                    following = self.get_event()
                self.depth -= 1
                node.value = self.pairs(children) if is_map else children
                # a block collection ends with its last value (its end event is at the next token)
                node.end = following.end_mark.index if event.flow_style or not children else children[-1].end
            if event.anchor:
                self.anchors[event.anchor] = node  # redefining an anchor is allowed (YAML 1.2)
            return node

        def tagged(self, event: Any) -> Node:
            """``!Tag value`` as the mapping ``{tags[Tag]: value}`` (``!GetAtt A.B``: its list form ``[A, B]``)."""
            mark, key, tag = event.start_mark, self.tags[event.tag], event.tag
            event.tag = None
            value = self.node(event)
            if key == "Fn::GetAtt" and value.kind == "scalar" and isinstance(value.value, str) and "." in value.value:
                parts = value.value.split(".", 1)
                items = [Node("scalar", part, value.line, value.column, raw=part) for part in parts]
                value = Node("seq", items, value.line, value.column)
            if isinstance(event, yaml.ScalarEvent) and value.kind == "scalar" and not isinstance(value.value, str):
                value.value = event.value  # a tagged scalar is a string (!Ref 10 names the resource "10")
            # spans: the tag's, and the tagged value's (an edit inside a !Sub string walks through them)
            name = Node("scalar", key, mark.line + 1, mark.column + 1, raw=key, start=mark.index,
                        end=mark.index + len(tag), style="tag")
            node = Node("map", [(name, value)], mark.line + 1, mark.column + 1, start=mark.index, end=value.end,
                        style="tag")
            node.size = value.size + 1
            return node

        def pairs(self, children: List[Node]) -> List[Tuple[Node, Node]]:
            pairs = list(zip(children[::2], children[1::2]))
            if self.unique_keys:
                seen: Dict[Tuple[str, Any], Node] = {}
                for key, _value in pairs:
                    first = seen.setdefault((type(key.value).__name__, key.value), key) if key.kind == "scalar" else key
                    if first is not key:
                        raise _duplicate(key.value, first, key, self.source)
            return pairs

        def scalar(self, event: Any) -> Node:
            text, tag, mark = event.value, event.tag, event.start_mark
            if (
                len(text) > MAX_INT_DIGITS
                and (tag is None and event.implicit[0] or tag == _YAML_TAG + "int")
                and re.fullmatch(r"[-+]?[0-9]+", text)
            ):
                self.fail(long_int_message(len(text)), mark, None)  # checked before int(), which refuses or is slow
            if tag is None:
                value = _plain_scalar(text) if event.implicit[0] else text
            else:
                name = "str" if tag == "!" else tag[len(_YAML_TAG):] if tag.startswith(_YAML_TAG) else ""
                if name not in _CORE_TAGS:
                    self.fail(_tag_message(tag), mark)
                right, convert, not_what, allowed = _CORE_TAGS[name]
                if not right(text):
                    self.fail(f"!!{name} tag on {shorten(text)}{not_what}", mark, allowed)
                value = convert(text)
            return Node("scalar", value, mark.line + 1, mark.column + 1, text, bool(event.implicit[0]) and tag is None,
                        mark.index, event.end_mark.index, event.style or "")

    return Composer


def too_deep_at(text: str, limit: int = MAX_DEPTH) -> Optional[int]:
    """Index of the first bracket at which the flow brackets of ``text`` could nest more than ``limit`` (a config
    file's ``MAX_DEPTH``) deep, or ``None``: :func:`sm_debug_config.limits.too_deep_at`."""
    return limits.too_deep_at(text, limit)


def compose_yaml(
    text: str,
    source: str,
    unique_keys: bool = True,
    top_mapping: bool = False,
    tags: Optional[Mapping[str, str]] = None,
) -> Optional[Node]:
    """The tree of YAML ``text`` (``None`` for an empty stream), or a positioned ``ConfigFileError``;
    ``top_mapping``: a top-level list is refused before it is composed; ``tags``: the local tags allowed
    besides the core ones, each read as a one-key mapping (``!Ref``)."""
    yaml = pyyaml()

    fast = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader
    deep = too_deep_at(text)
    if deep is None:
        return _compose(fast, text, source, unique_keys, top_mapping, tags)
    # Brackets that could nest too deep (module docstring): PyYAML's pure-Python events, which stop
    # at the composer's depth check; the text up to that bracket first (a short look-ahead, the same
    # positions). If the count was loose (brackets in strings), the whole text, and pure Python
    # again only if the YAML library refuses it at an opening bracket.
    try:
        _compose(yaml.SafeLoader, text[: deep + 1], source, unique_keys, top_mapping, tags)
    except ConfigFileError as err:
        if err.message.startswith(TOO_DEEP):
            raise
    try:
        return _compose(fast, text, source, unique_keys, top_mapping, tags)
    except ConfigFileError as err:
        if not (
            err.message.startswith(_INVALID_YAML)
            and fast is not yaml.SafeLoader
            and _at_opener(text, err.line, err.column)
        ):
            raise
    return _compose(yaml.SafeLoader, text, source, unique_keys, top_mapping, tags)


def _at_opener(text: str, line: Optional[int], column: Optional[int]) -> bool:
    """Whether 1-based ``line``, ``column`` of ``text`` is a ``[`` or ``{`` (where a nesting limit stops)."""
    if line is None or column is None:
        return False
    lines = text.split("\n", line)
    return len(lines) >= line and lines[line - 1][column - 1 : column] in ("[", "{")


def _compose(
    events_cls: Any, text: str, source: str, unique_keys: bool, top_mapping: bool, tags: Optional[Mapping[str, str]]
) -> Optional[Node]:
    yaml = pyyaml()

    events = None
    try:
        events = events_cls(text)
        return _composer_class()(events, source, unique_keys, top_mapping, tags).get_single_node()  # type: ignore[no-any-return]
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        message = err.problem or err.context or "invalid YAML"
        if err.context and err.problem and err.context_mark is not None:
            message += f" ({err.context} at line {err.context_mark.line + 1}, column {err.context_mark.column + 1})"
        where = (mark.line + 1, mark.column + 1) if mark is not None else (None, None)
        if (
            mark is not None
            and "cannot start any token" in message
            and text.split("\n")[mark.line][mark.column : mark.column + 1] == "\t"
        ):
            message += "; YAML is indented with spaces, not tabs"
        error = ConfigFileError(f"{_INVALID_YAML} {message}", source=source, line=where[0], column=where[1])
    except yaml.reader.ReaderError as err:
        line, column = position(text.encode("utf-8") if events_cls is not yaml.SafeLoader else text, err.position)
        error = ConfigFileError(
            f"invalid YAML: character {err.character:#x} is not allowed ({err.reason})",
            source=source,
            line=line,
            column=column,
        )
    except yaml.YAMLError as err:  # pragma: no cover - every parser error is one of the above
        error = ConfigFileError(f"invalid YAML: {one_line(str(err))}", source=source)
    finally:
        if events is not None:
            events.dispose()
    raise error from None

def long_int_message(digits: int) -> str:
    return f"{LONG_INT} {digits} digits; no setting takes a number of more than {MAX_INT_DIGITS}"


_JSON_STRING = LazyPattern(r'"(?:[^"\\\n]|\\.)*"')
_JSON_MESSAGES = {
    "Expecting property name enclosed in double quotes": "expected a string key in double quotes",
    "Expecting ':' delimiter": "expected ':' after the key",
    "Expecting value": "expected a value",
    "Extra data": "extra text after the JSON value",
}


def blanked(text: str) -> str:
    """``text`` with every JSON string's contents replaced by ``x`` and tabs by spaces: same length, same positions."""
    if text.isascii() and not any(c in text for c in "\\\t\x7f"):
        return text  # nothing YAML could read differently
    return _JSON_STRING.sub(lambda m: '"' + "x" * (len(m.group(0)) - 2) + '"', text).replace("\t", " ")


def json_error(err: json.JSONDecodeError, text: str, source: str) -> ConfigFileError:
    """What ``json.loads`` refused in ``text``, positioned, in the project's words: one wording for
    every command that reads JSON, whatever the Python version says (3.13 reports a trailing comma
    at the comma, older versions at the bracket after it)."""
    pos = err.pos
    message = _JSON_MESSAGES.get(err.msg, err.msg[:1].lower() + err.msg[1:])
    after = text[pos + 1:].lstrip()[:1] if text[pos:pos + 1] == "," else ""
    before = text[:pos].rstrip()
    if after in ("}", "]") or (text[pos:pos + 1] in ("}", "]") and before.endswith(",")):
        pos = pos if after else len(before) - 1
        closer = after or text[err.pos]
        message = (
            f"a comma before {closer!r}: JSON allows no comma after the last {'member' if closer == '}' else 'item'}"
        )
    elif err.pos >= len(text.rstrip()) and message != "extra text after the JSON value":
        message = "unexpected end of the text"
    line, column = position(text, pos)
    return ConfigFileError(f"invalid JSON: {message}", source=source, line=line, column=column)


#: What an empty config file is told (a document that may be anything, :func:`read_document`'s, is null instead).
EMPTY_CONFIG = "empty config: expected a mapping of settings such as region:, output_path:, rules:"

def plain(node: Node, memo: Optional[Dict[int, Any]] = None) -> Any:
    """The plain Python data of a tree (shared alias nodes give shared values)."""
    memo = {} if memo is None else memo
    known = memo.get(id(node))
    if known is not None:
        return known
    if node.kind == "map":
        value: Any = {}
        for key, item in node.value:
            value[key.value if key.kind == "scalar" else repr(plain(key, memo))] = plain(item, memo)
    elif node.kind == "seq":
        value = [plain(item, memo) for item in node.value]
    else:
        return node.value
    memo[id(node)] = value
    return value
