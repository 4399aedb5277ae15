"""A file's text parsed once (:class:`Parsed`): YAML (:mod:`.parse`) or JSON (:mod:`.jsonparse`), its
plain data, its locator, and the tree the reader walks; :class:`Positions` of the keys read."""
from __future__ import annotations

from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

from sm_debug_config.configfile.jsonparse import (
    MAX_VALUES,
    TOO_MANY,
    JsonText,
    _JsonWalk,
    load_json,
    marked_json,
    past_limit,
)
from sm_debug_config.configfile.parse import (
    EMPTY_CONFIG,
    FORMATS,
    NOT_A_MAPPING,
    Node,
    compose_yaml,
    describe,
    plain,
)
from sm_debug_config.configfile.strings import StringPositions, line_starts
from sm_debug_config.configfile.text import ConfigFileError
from sm_debug_config.configfile.textedit import JsonEditor, TextEditor, YamlEditor
from sm_debug_config.errors import ConfigError, PathT, shorten


class Parsed:
    """A file's text parsed once: its plain data (:meth:`data`), where its parts are (:meth:`locator`),
    and the tree the reader walks (:meth:`tree`). JSON builds the tree, and finds positions, only when asked."""

    def __init__(
        self,
        source: str,
        root: Optional[Node] = None,
        value: Any = None,
        text: Optional[JsonText] = None,
        count: int = 0,
        raw: str = "",
    ) -> None:
        self.source = source
        self._root, self._value, self._text, self._count = root, value, text, count
        self._raw = text.text if text is not None else raw  # the text parsed (YAML's: kept for string_positions)
        self._line_starts: Optional[List[int]] = None
        self._strings: Dict[PathT, Optional[StringPositions]] = {}  # each string placed once (a body's findings)
        self.tags: Optional[Mapping[str, str]] = None  #: the YAML tags it was read with (read so again after an edit)
        self._editor: Optional[TextEditor] = None

    @property
    def text(self) -> str:
        """The text parsed (a file's, its byte order mark dropped): what :meth:`editor`'s edits are offsets into."""
        return self._raw

    def editor(self) -> TextEditor:
        """The editor of this text (:mod:`.textedit`): a change at a path of the document as edits, in its format's
        syntax, each checked by parsing the text edited again as this text was parsed."""
        if self._editor is None:
            if self._text is not None:
                self._editor = JsonEditor(self._text, self._value, self._reparse)
            else:
                self._editor = YamlEditor(self._raw, self._root, self.data(), self._reparse)
        return self._editor

    def _reparse(self, text: str) -> Any:
        fmt = "json" if self._text is not None else "yaml"
        return parse_text(text, self.source, fmt, require_mapping=False, tags=self.tags).data()

    def data(self) -> Any:
        """The plain Python data of the document (shared alias nodes give shared values)."""
        if self._text is not None:
            return self._value
        return plain(self._root) if self._root is not None else None

    def locator(self) -> "DocumentLocator":
        if self._text is not None:
            return DocumentLocator(self._text.deepest, self.string_positions)
        root = self._root or Node("scalar", None, 1, 1)
        return DocumentLocator(lambda path: _node_position(root, path), self.string_positions)

    def string_positions(self, path: Sequence[Union[str, int]]) -> Optional[StringPositions]:
        """Where each character of the string at exactly ``path`` is in the file; None where no string is.

        >>> parsed = parse_text('Body: !Sub |\\n  {"a": 1}\\n', "t.yaml", None, require_mapping=False,
        ...                     tags={"!Sub": "Fn::Sub"})
        >>> parsed.string_positions(("Body", "Fn::Sub")).position(1)  # the quote of "a"
        (2, 4)
        """
        key = tuple(path)
        if key not in self._strings:
            self._strings[key] = self._string_positions(key)
        return self._strings[key]

    def _string_positions(self, path: PathT) -> Optional[StringPositions]:
        start: Optional[int] = None
        value: Any = None
        if self._text is not None:
            start, value = self._text.index(path, key=False), self._value
            for part in path if start is not None else ():
                value = value[part]  # the text has the path: the value has it
        else:
            node = self._root
            for part in path:
                child = node.child(part) if node is not None else None
                node = child[1] if child is not None else None
            if node is not None and node.line is not None and node.column is not None:
                start, value = self._starts()[node.line - 1] + node.column - 1, node.value
        if start is None or not isinstance(value, str):
            return None
        return StringPositions.of(self._raw, start, value, self._starts())

    def _starts(self) -> List[int]:
        if self._line_starts is None:
            self._line_starts = line_starts(self._raw, yaml=self._text is None)
        return self._line_starts

    def positions(self) -> "Positions":
        """An empty :class:`Positions` that finds a JSON key's position in the text when first asked."""
        return Positions(self._text.locate if self._text is not None else None)

    def tree(self) -> Node:
        """The config's tree: a mapping (else a positioned ``ConfigFileError``); for JSON,
        built now (at most ``MAX_VALUES`` values)."""
        if self._text is None:
            return check_root(
                self._root, self.source, self._root.line if self._root else 1, self._root.column if self._root else 1
            )
        if not isinstance(self._value, dict):
            line, column = self._text.locate(()) or (1, 1)
            scalar = (
                None if isinstance(self._value, list) else _JsonWalk(self.source, self._text, None).node(self._value)
            )
            return check_root(scalar or Node("seq", [], line, column), self.source, line, column)
        if self._count > MAX_VALUES:  # refused before a node is built
            line, column = self._text.position(past_limit(self._text.text, MAX_VALUES))
            raise ConfigFileError(f"{TOO_MANY} {MAX_VALUES} values", source=self.source, line=line, column=column)
        return _JsonWalk(self.source, self._text, None).node(marked_json(self._text.text, self.source))


def check_root(root: Optional[Node], source: str, line: Optional[int], column: Optional[int]) -> Node:
    """``root`` if it is a mapping; else the config file's error at ``line``, ``column``."""
    if root is None or root.is_null:
        raise ConfigFileError(
            "empty config: the file holds no settings (only comments or null)", source=source, line=line, column=column
        )
    if root.kind != "map":
        raise ConfigFileError(NOT_A_MAPPING + describe(root), source=source, line=line, column=column)
    return root


def parse_text(
    text: str, source: str, fmt: Optional[str], require_mapping: bool = True, tags: Optional[Mapping[str, str]] = None
) -> Parsed:
    """A config file's (``require_mapping``) or any document's text, parsed once; ``fmt`` ``"yaml"``/``"json"``
    or ``None`` (by name, then by the first character). A config whose top level is no mapping is refused here.
    ``tags``: YAML tags allowed besides the core ones (see :func:`~sm_debug_config.configfile.parse.compose_yaml`)."""
    if fmt is not None and fmt not in FORMATS:
        raise ConfigError(f"unknown format {shorten(fmt)}", field="format", allowed=", ".join(FORMATS))
    if not text.strip():
        if require_mapping:
            raise ConfigFileError(EMPTY_CONFIG, source=source, line=1, column=1)
        return Parsed(source, Node("scalar", None, 1, 1), raw=text)
    if fmt is None and str(source).lower().endswith(".json"):
        fmt = "json"
    if fmt == "json" or (fmt is None and text.lstrip().startswith("{")):
        try:
            value, count = load_json(text, source)
        except ConfigFileError:
            if fmt == "json":
                raise
            value = _NOT_JSON
        if value is not _NOT_JSON:
            parsed = Parsed(source, value=value, text=JsonText(text), count=count)
            if require_mapping and not isinstance(value, dict):
                parsed.tree()  # refused before anything is built
            return parsed
    # (or a YAML flow mapping, not JSON)
    parsed = Parsed(source, compose_yaml(text, source, top_mapping=require_mapping, tags=tags), raw=text)
    parsed.tags = tags
    if require_mapping:
        parsed.tree()
    return parsed


_NOT_JSON = object()


def parse(text: str, source: str, fmt: Optional[str]) -> Node:
    """The tree of a config file's text (see :func:`parse_text`)."""
    return parse_text(text, source, fmt).tree()


def _node_position(root: Node, path: Sequence[Union[str, int]]) -> Optional[Tuple[int, int]]:
    node, found = root, (root.line, root.column)
    for part in path:
        child = node.child(part)
        if child is None:
            break
        found, node = (child[0].line, child[0].column), child[1]
    return found  # type: ignore[return-value]


class DocumentLocator:
    """``locator(("DebugHookConfig", "CollectionConfigurations", 0))`` -> ``(line, column)`` in the file.

    A path the file does not fully have gives the position of its deepest part that exists.
    :meth:`string` places the characters of a string value (text embedded in it: a pipeline body).
    """

    def __init__(
        self,
        find: Callable[[Sequence[Union[str, int]]], Optional[Tuple[int, int]]],
        strings: Optional[Callable[[Sequence[Union[str, int]]], Optional[StringPositions]]] = None,
    ) -> None:
        self._find, self._strings = find, strings

    def __call__(self, path: Sequence[Union[str, int]]) -> Optional[Tuple[int, int]]:
        return self._find(path)

    def string(self, path: Sequence[Union[str, int]]) -> Optional[StringPositions]:
        """Where each character of the string value at exactly ``path`` is in the file, or None."""
        return self._strings(path) if self._strings is not None else None


class Positions(Mapping[PathT, Tuple[int, int]]):
    """The key paths of a file read so far and their ``(line, column)``; a path added without a
    position (JSON) is found in the text by ``locate`` when first asked for, then remembered.

    >>> positions = Positions(JsonText('{"region": "us-east-1"}').locate)
    >>> positions.add(("region",), None, None)
    >>> positions[("region",)], ("rules",) in positions
    ((1, 2), False)
    """

    def __init__(self, locate: Optional[Callable[[PathT], Optional[Tuple[int, int]]]] = None) -> None:
        self._known: Dict[PathT, Optional[Tuple[int, int]]] = {}
        self._locate = locate

    def add(self, path: PathT, line: Optional[int], column: Optional[int]) -> None:
        if line is not None and column is not None:
            self._known[path] = (line, column)
        elif self._locate is not None:
            self._known.setdefault(path, None)

    def __getitem__(self, path: PathT) -> Tuple[int, int]:
        found = self._known[path]
        if found is None:
            found = self._locate(path) if self._locate is not None else None
            if found is None:
                del self._known[path]
                raise KeyError(path)
            self._known[path] = found
        return found

    def __iter__(self) -> Iterator[PathT]:
        return iter([path for path in list(self._known) if path in self])

    def __len__(self) -> int:
        return len(list(iter(self)))
