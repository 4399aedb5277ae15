"""JSON: ``json.loads`` first, then one walk over its values; positions found in the text only when asked for.

A large file is read, or refused, at the speed of ``json.loads``: the walk (:class:`_JsonWalk`)
checks depth, the number of values, long integers, ``NaN`` and duplicate keys and builds the
reader's tree (or plain data) without a position, and :class:`JsonText` finds the position of a
path in the text when a message or a locator needs one.
"""
from __future__ import annotations

import bisect
import json
import re
from typing import Any, Dict, Iterator, List, NoReturn, Optional, Sequence, Tuple, Union

from sm_debug_config.configfile.parse import (
    MAX_DEPTH,
    MAX_INT_DIGITS,
    MAX_VALUES,
    TOO_DEEP,
    TOO_MANY,
    Node,
    blanked,
    json_error,
    long_int_message,
    too_deep_at,
)
from sm_debug_config.configfile.text import ConfigFileError, position
from sm_debug_config.errors import PathT, shorten
from sm_debug_config.limits import json_too_deep
from sm_debug_config.patterns import LazyPattern


class _Pairs(list):
    """A JSON object as ``json.loads`` read it: its ``(key, value)`` pairs in order."""


class _LongInt(str):
    """A JSON integer of more than MAX_INT_DIGITS digits, kept as its text (``int()`` of it is refused or slow)."""


def _json_int(text: str) -> Any:
    return _LongInt(text) if len(text) > MAX_INT_DIGITS else int(text)


class _Constant(str):
    """``NaN``/``Infinity``, which JSON does not have (``json.loads`` would accept them)."""


class _Float(str):
    """A JSON number with a fraction or an exponent, kept as its text (what was typed) until it becomes a node."""


def marked_json(text: str, source: str, floats: bool = True) -> Any:
    """``json.loads`` of ``text`` with markers (:class:`_Pairs`, :class:`_LongInt`, :class:`_Constant`, and with
    ``floats`` :class:`_Float`) that :class:`_JsonWalk` turns into checked values; errors positioned,
    in the project's words."""
    if json_too_deep(text):  # refused before json.loads recurses to Python's limit (limits.JSON_GUARD_DEPTH)
        _too_deep(text, source)
    try:
        return json.loads(
            text,
            object_pairs_hook=_Pairs,
            parse_constant=_Constant,
            parse_int=_json_int,
            parse_float=_Float if floats else None,
        )
    except json.JSONDecodeError as err:
        raise json_error(err, text, source) from None
    except RecursionError:  # far deeper than MAX_DEPTH: the first bracket past it, found in the text
        _too_deep(text, source)


def _too_deep(text: str, source: str) -> NoReturn:
    """The error of JSON nested past ``MAX_DEPTH``, at the first bracket past it in the text."""
    at = too_deep_at(blanked(text))
    line, column = position(text, at) if at is not None else (None, None)
    raise ConfigFileError(
        f"invalid JSON: {TOO_DEEP.replace('mappings', 'objects')} {MAX_DEPTH} deep",
        source=source,
        line=line,
        column=column,
    ) from None


class _Refused(Exception):
    """Something the fast reading cannot place (a duplicate key, ``NaN``): the slow one says where."""


def _unique(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):
        raise _Refused()
    return value


def _no_constant(text: str) -> NoReturn:
    raise _Refused()


_STRINGS = LazyPattern(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"')  # a JSON string (the unrolled loop: fast on long ones)
_LONG_DIGITS = LazyPattern(r"[0-9]{%d}" % (MAX_INT_DIGITS + 1))
_EMPTY = LazyPattern(r"[\[{]\s*[\]}]")
_TOKENS = LazyPattern(_STRINGS.pattern + r'|[,\[{\]}]')


def load_json(text: str, source: str) -> Tuple[Any, int]:
    """The plain data of JSON ``text`` (what ``json.loads`` gives, at its speed) and its number of values.

    What JSON allows but a config file does not (duplicate keys, ``NaN``, integers past
    ``MAX_INT_DIGITS`` digits, nesting past ``MAX_DEPTH``) is found cheaply first, then read again
    slowly only to say where. The count, from the text without its strings, is exact: each value
    but the top one follows a comma or opens a non-empty list or object.
    """
    bare = _STRINGS.sub('""', text)  # no string's content can look like structure
    if not (_LONG_DIGITS.search(bare) or too_deep_at(bare) is not None):
        try:
            value = json.loads(text, object_pairs_hook=_unique, parse_constant=_no_constant)
        except json.JSONDecodeError as err:
            raise json_error(err, text, source) from None
        except (_Refused, RecursionError):
            pass
        else:
            count = 1 + bare.count(",") + bare.count("[") + bare.count("{") - len(_EMPTY.findall(bare))
            return value, count
    walk = _JsonWalk(source, JsonText(text), None)  # raises the positioned error
    return walk.plain(marked_json(text, source, floats=False)), walk.count  # pragma: no cover - a check above was loose


def past_limit(text: str, limit: int) -> int:
    """The index in JSON ``text`` of the first value past the first ``limit`` (the text has more)."""
    count, after_opener, index = 1, False, 0
    for match in _TOKENS.finditer(text):
        token, index = match.group(), match.start()
        if token in ",[{":
            count += 1
        elif token in "]}" and after_opener:
            count -= 1  # an empty list or object holds no value
        after_opener = token in "[{"
        if count > limit and token == ",":
            break
    return len(text) - len(text[index + 1:].lstrip()) if text[index] == "," else index


_END = object()  # a member no container has: its scan reads the container to the end
#: Where a member is in JSON text: ``(key start, key end, value start, value end)``, character indexes, ends
#: excluded (a list item's key is the item itself).
Span = Tuple[int, int, int, int]


class JsonText:
    """Positions in JSON text, found when asked for: the members of a container are scanned (with
    the C scanner of the ``json`` module) only up to the one asked for, and remembered.

    >>> text = JsonText('{"a": [1, {"b": 2}]}')
    >>> text.locate(("a", 1, "b")), text.locate(("a", 5))
    ((1, 12), None)
    """

    def __init__(self, text: str) -> None:
        self.text = text
        # skips a value: numbers kept as text (int() of 5,000 digits is refused), objects as pairs
        self._scan = json.JSONDecoder(object_pairs_hook=list, parse_int=str, parse_float=str).scan_once  # type: ignore[attr-defined]
        #: container path -> (members found: key or index -> :data:`Span`, where the scan goes on, done)
        self._members: Dict[PathT, Tuple[Dict[Any, Span], List[int], List[bool]]] = {}
        self._newlines: Optional[List[int]] = None
        self._again: Dict[Tuple[PathT, Any], int] = {}  # (container path, key) -> index of its second occurrence

    def _space(self, index: int) -> int:
        text = self.text
        while index < len(text) and text[index] in " \t\r\n":
            index += 1
        return index

    def _member(self, path: PathT, start: int, part: Any) -> Optional[Span]:
        """The :data:`Span` of member ``part`` of the container at ``start`` (its key's: the item's own, in a
        list)."""
        if path not in self._members:
            self._members[path] = ({}, [start + 1], [self.text[start:start + 1] not in ("{", "[")])
        found, resume, done = self._members[path]
        is_map, scanstring = self.text[start:start + 1] == "{", json.decoder.scanstring  # type: ignore[attr-defined]
        while part not in found and not done[0]:
            index = self._space(resume[0])
            if self.text[index:index + 1] in ("}", "]"):
                done[0] = True
                break
            key_index = key_end = index
            if is_map:
                key, key_end = scanstring(self.text, index + 1)
                index = self._space(self._space(key_end) + 1)  # past the colon
            else:
                key = len(found)
            value_index = index
            _value, index = self._scan(self.text, index)
            if key in found:
                self._again.setdefault((path, key), key_index)  # a duplicate key: found is the first
            else:
                found[key] = (key_index, key_end if is_map else index, value_index, index)
            index = self._space(index)
            resume[0] = index + 1 if self.text[index:index + 1] == "," else index
        return found.get(part)

    def index(self, path: Sequence[Union[str, int]], key: bool = True) -> Optional[int]:
        """The index in the text of ``path``'s key (``key``) or value, ``None`` if the document has no such path."""
        if not path:
            return self._space(0)  # the root, without reading it to its end
        span = self.span(path)
        return None if span is None else span[0] if key else span[2]

    def span(self, path: Sequence[Union[str, int]]) -> Optional[Span]:
        """The :data:`Span` of ``path`` in the text (the root's: its value's, as its key's), ``None`` if the document
        has no such path. Found when asked (an edit's place), as positions are.

        >>> text = '{"a": [1, {"b": "x"}]}'
        >>> start, end = JsonText(text).span(("a", 1, "b"))[2:]
        >>> text[start:end]
        '"x"'
        """
        at = self._space(0)
        found: Optional[Span] = None
        for depth, part in enumerate(path):
            found = self._member(tuple(path[:depth]), at, part)
            if found is None:
                return None
            at = found[2]
        if found is None:  # the root
            _value, end = self._scan(self.text, at)
            return at, end, at, end
        return found

    def members(self, path: Sequence[Union[str, int]]) -> Optional[Dict[Any, Span]]:
        """Every member of the object or list at ``path``, in the text's order, with its :data:`Span`; ``None`` where
        the document has no container."""
        span = self.span(path)
        if span is None or self.text[span[2]:span[2] + 1] not in ("{", "["):
            return None
        self._member(tuple(path), span[2], _END)
        return dict(self._members[tuple(path)][0])

    def again(self, path: PathT, key: str) -> Optional[Tuple[int, int]]:
        """``(line, column)`` of the second occurrence of ``key`` in the object at ``path``, if any."""
        start = self.index(path, key=False)
        if start is None:
            return None
        self._member(path, start, _END)  # the whole object
        found = self._again.get((path, key))
        return None if found is None else self.position(found)

    def position(self, index: int) -> Tuple[int, int]:
        """1-based ``(line, column)`` of ``index``."""
        if self._newlines is None:
            self._newlines = [m.start() for m in re.finditer("\n", self.text)]
        line = bisect.bisect_left(self._newlines, index)
        return line + 1, index - (self._newlines[line - 1] + 1 if line else 0) + 1

    def locate(self, path: Sequence[Union[str, int]], key: bool = True) -> Optional[Tuple[int, int]]:
        """``(line, column)`` of ``path`` (its key, or its value), ``None`` if the document has no such path."""
        found = self.index(path, key)
        return None if found is None else self.position(found)

    def deepest(self, path: Sequence[Union[str, int]]) -> Optional[Tuple[int, int]]:
        """``(line, column)`` of the deepest start of ``path`` that the document has."""
        for depth in range(len(path), -1, -1):
            found = self.index(path[:depth])
            if found is not None:
                return self.position(found)
        return None  # pragma: no cover - the root is always there


class _JsonWalk:
    """One walk over ``json.loads``' value: nodes (a config's tree) or plain data, depth, duplicate keys,
    long integers, ``NaN`` and the number of values checked; a position is looked up only for an error."""

    def __init__(self, source: str, text: JsonText, limit: Optional[int]) -> None:
        self.source, self.text, self.limit, self.count = source, text, limit, 0

    def fail(self, message: str, path: PathT, key: bool = False) -> NoReturn:
        line, column = self.text.locate(path, key) or (None, None)
        raise ConfigFileError(message, source=self.source, line=line, column=column)

    def _checked(self, value: Any, path: PathT, depth: int) -> Any:
        self.count += 1
        if self.limit is not None and self.count > self.limit:
            self.fail(f"{TOO_MANY} {self.limit} values", path)
        if isinstance(value, (_Pairs, list)) and depth >= MAX_DEPTH:
            self.fail(f"invalid JSON: {TOO_DEEP.replace('mappings', 'objects')} {MAX_DEPTH} deep", path)
        if isinstance(value, _LongInt):
            self.fail(long_int_message(len(value)), path)
        if isinstance(value, _Constant):
            self.fail(f"invalid JSON: expected a value, found {value[:1]!r}", path)
        return value

    def _pairs(self, value: Any, path: PathT) -> Iterator[Tuple[str, Any]]:
        seen: Dict[str, int] = {}
        for key, item in value.items() if isinstance(value, dict) else value:
            if key in seen:
                first = self.text.locate(path + (key,)) or (None, None)
                message = (
                    f"duplicate key {shorten(key)} (first at line {first[0]}, column {first[1]}); "
                    "each key may appear once"
                )
                line, column = self.text.again(path, key) or (None, None)
                raise ConfigFileError(message, source=self.source, line=line, column=column)
            seen[key] = 1
            yield key, item

    def node(self, value: Any, path: PathT = (), depth: int = 0) -> Node:
        value = self._checked(value, path, depth)
        if isinstance(value, (_Pairs, dict)):
            return Node("map", [(Node("scalar", key, None, None, raw=key), self.node(item, path + (key,), depth + 1))
                                for key, item in self._pairs(value, path)], None, None)
        if isinstance(value, list):
            return Node(
                "seq", [self.node(item, path + (index,), depth + 1) for index, item in enumerate(value)], None, None
            )
        if isinstance(value, _Float):
            return Node("scalar", float(value), None, None, raw=str(value), plain=True)
        if isinstance(value, str):
            return Node("scalar", value, None, None, raw=value)
        return Node(
            "scalar",
            value,
            None,
            None,
            raw=None if value is None or isinstance(value, bool) else str(value),
            plain=True,
        )

    def plain(self, value: Any, path: PathT = (), depth: int = 0) -> Any:
        value = self._checked(value, path, depth)
        if isinstance(value, (_Pairs, dict)):
            return {key: self.plain(item, path + (key,), depth + 1) for key, item in self._pairs(value, path)}
        if isinstance(value, list):
            return [self.plain(item, path + (index,), depth + 1) for index, item in enumerate(value)]
        return float(value) if isinstance(value, _Float) else value


def nodes_of(value: Any, source: str) -> Node:
    """The tree of plain data (no positions): ``dump`` reloads its rule entries so."""
    return _JsonWalk(source, JsonText(""), MAX_VALUES).node(value)
