"""Terraform's native syntax (HCL, ``.tf`` files), read into the shape of its JSON syntax with the place of each part.

Reading needs python-hcl2 (the ``terraform`` extra); without it, :func:`read_hcl` raises :class:`MissingHcl`, a
``ConfigError`` that names the extra. The document is what the same configuration in ``.tf.json`` holds, so that
:mod:`.terraform` reads both alike and a ``.tf`` file gets the findings of its ``.tf.json`` twin:

* a labelled block ``resource "aws_sagemaker_training_job" "train" {...}`` is ``{"resource": {TYPE: {NAME: body}}}``
  (any block type, one key per label); an unlabelled top-level block (``terraform``, ``locals``) a list of bodies;
* a nested block (``debug_hook_config {...}``) is a list of bodies, one per block written (Terraform JSON's list
  form, which plan output writes too);
* attributes are their values: literals, objects and tuples walked; ``jsonencode(X)`` is X (what Terraform
  encodes: a pipeline definition written in HCL); any other expression (a reference, a call, a template with
  ``${...}``, an operator) is the ``"${...}"`` string Terraform JSON writes for it: a value known at run time.

Each part's place is that of its first character (an attribute's name, a block's type, an object key), 1-based
as Lark counts it; a path the file does not have is placed at its deepest part the file has.

>>> found = read_hcl_text('resource "aws_sagemaker_training_job" "t" {\\n  debug_hook_config {\\n'
...                       '    s3_output_path = "s3://${var.b}/d"\\n  }\\n}\\n', "main.tf")
>>> found.document["resource"]["aws_sagemaker_training_job"]["t"]
{'debug_hook_config': [{'s3_output_path': 's3://${var.b}/d'}]}
>>> found.locate(("resource", "aws_sagemaker_training_job", "t", "debug_hook_config", 0, "s3_output_path", "x"))
(3, 5)
"""
from __future__ import annotations

import json
import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

import attrs

from sm_debug_config.configfile.document import DocumentLocator
from sm_debug_config.configfile.strings import StringPositions, line_starts
from sm_debug_config.configfile.text import ConfigFileError, decode, position, read_bytes, source_name
from sm_debug_config.configfile.textedit import Container, Member, TextEditor
from sm_debug_config.documents.base import Path, step_into
from sm_debug_config.errors import ConfigError, install_hint, shorten
from sm_debug_config.fixes import REMOVE, Change, Edit
from sm_debug_config.limits import JSON_GUARD_DEPTH, too_deep_at
from sm_debug_config.stringedit import HostString, json_string_escape, line_end, newline_at, past_line, quoted_string

#: The package extra that installs python-hcl2 (setup.cfg names the lowest release this module reads).
EXTRA = "terraform"
#: The function whose argument is read as the value it encodes.
_ENCODERS = ("jsonencode",)
Place = Tuple[int, int]


class MissingHcl(ConfigError):
    """python-hcl2 is not installed: reading a ``.tf`` file needs the ``terraform`` extra."""


def reads_as_hcl(path: str, kind: str = "auto") -> bool:
    """Whether the file at ``path``, read as ``kind`` (``validate --kind``), is Terraform HCL: a ``.tf`` file (not
    ``.tf.json``) read as ``auto`` or ``terraform``.

    >>> reads_as_hcl("main.tf"), reads_as_hcl("main.tf.json"), reads_as_hcl("MAIN.TF", "terraform")
    (True, False, True)
    """
    return kind in ("auto", "terraform") and path.lower().endswith(".tf")


@attrs.frozen
class HclFile:
    """A ``.tf`` file read: its ``document`` (Terraform JSON's shape), ``locate`` (path -> ``(line, column)``; its
    ``string(path)`` places each character of a string written as a quoted string or a heredoc: a pipeline
    definition's JSON), and its ``size`` in bytes; what :func:`~sm_debug_config.configfile.read_file` gives for JSON
    and YAML."""

    source: str
    document: Dict[str, Any]
    locate: DocumentLocator = attrs.field(repr=False, eq=False)
    size: int = 0
    text: str = attrs.field(default="", repr=False, eq=False)  #: the text read (a fix's edits are offsets in it)
    spans: "HclSpans" = attrs.field(factory=lambda: HclSpans(), repr=False, eq=False)

    def editor(self) -> "HclEditor":
        """The editor of :attr:`text`: a change at a path of :attr:`document` as edits in HCL."""
        return HclEditor(self.text, self.document, self.spans, self.source)


@attrs.frozen
class HclSpans:
    """Where each part of a ``.tf`` file is written (character indexes, ends excluded), by its document path:
    ``members`` (where an attribute, an object's element, a nested block or a tuple's item starts, and its key's
    span), ``values`` (its value's span and kind: ``body``, ``object``, ``tuple``, ``string``, ``heredoc``,
    ``literal``, ``expression``) and ``children`` (the members of a body, object or tuple, in order)."""

    members: Dict[Path, Tuple[int, Optional[Tuple[int, int]]]] = attrs.field(factory=dict)
    values: Dict[Path, Tuple[int, int, str]] = attrs.field(factory=dict)
    children: Dict[Path, List[Path]] = attrs.field(factory=dict)


def _locator(text: str, places: Dict[Path, Place], strings: Dict[Path, Tuple[int, str]]) -> DocumentLocator:
    """Places of paths (of the deepest part a path the file has), and of the characters of the strings at
    ``strings`` (each path's value and index in ``text`` where it is written: its quote, or its heredoc's body)."""
    starts: List[int] = []

    def find(path: Any) -> Optional[Place]:
        path = tuple(path)
        for depth in range(len(path), -1, -1):
            found = places.get(path[:depth])
            if found is not None:
                return found
        return None

    def string(path: Any) -> Optional[StringPositions]:
        written = strings.get(tuple(path))
        if written is None:
            return None
        if not starts:
            starts.extend(line_starts(text, yaml=False))
        return StringPositions.of(text, written[0], written[1], starts)

    return DocumentLocator(find, string)


def has_hcl2() -> bool:
    """Whether python-hcl2 can be imported (what reading a ``.tf`` file needs)."""
    try:
        _hcl2()
    except MissingHcl:
        return False
    return True


def _hcl2() -> Any:
    try:
        import hcl2
        from hcl2.rules import base, containers, expressions, functions, strings
    except ImportError:
        raise MissingHcl(
            f"reading Terraform HCL (.tf) needs python-hcl2, the '{EXTRA}' extra: {install_hint(EXTRA)} "
            "(or give Terraform JSON, .tf.json)",
            field="python-hcl2",
        ) from None
    return hcl2, base, containers, expressions, functions, strings


def read_hcl(path: Any) -> HclFile:
    """The ``.tf`` file at ``path`` read (at most ``limits.MAX_FILE_BYTES["terraform-hcl"]``); a
    :class:`ConfigFileError` at its place for a file that is no HCL, :class:`MissingHcl` without python-hcl2."""
    source = source_name(path)
    data = read_bytes(path, "terraform-hcl", what="the file")
    return read_hcl_text(decode(data, source, "terraform-hcl"), source, len(data))


def read_hcl_text(text: str, source: str, size: int = 0) -> HclFile:
    """HCL ``text`` read as :func:`read_hcl` reads a file's (``source`` names it in errors)."""
    modules = _hcl2()
    deep = too_deep_at(text, JSON_GUARD_DEPTH)  # before the parser's transformer recurses to Python's limit
    if deep is not None:
        at_line, at_column = position(text, deep)
        raise ConfigFileError(f"not read: nested more than {JSON_GUARD_DEPTH} deep", source=source, line=at_line,
                              column=at_column)
    try:
        tree = modules[0].parses(text)
        reader = _Reader(text, *modules)
        document = reader.top(tree.body)
    except Exception as err:  # noqa: BLE001 - lark's errors, and whatever else a third-party parser raises
        line, column = getattr(err, "line", None), getattr(err, "column", None)
        token = getattr(err, "token", None) if getattr(err, "token", None) is not None else getattr(err, "char", None)
        said = f" (unexpected {shorten(str(token).strip() or 'end of file')})" if token is not None else ""
        raise ConfigFileError(f"not valid Terraform HCL{said}", source=source,
                              line=line if isinstance(line, int) and line > 0 else None,
                              column=column if isinstance(column, int) and column > 0 else None) from None
    return HclFile(source, document, _locator(text, reader.places, reader.strings), size, text, reader.spans)


def heredoc(written: str) -> Tuple[int, str]:
    """The index of a heredoc's body in its text as ``written`` (``<<EOF`` to its closing line), and its value as
    Terraform reads it: the lines in between, each ending with a line break; ``<<-`` drops the indentation they
    share. (Read here, not by python-hcl2, whose 8.1 releases escape the quotes of a ``<<-`` heredoc.)

    >>> heredoc('<<-EOT\\n    {"a": 1}\\n      "b"\\n  EOT\\n')
    (7, '{"a": 1}\\n  "b"\\n')
    """
    header, _, rest = written.partition("\n")
    delimiter = header.strip().lstrip("<-").strip()
    lines = [line[:-1] if line.endswith("\r") else line for line in rest.split("\n")]
    while lines and lines[-1].strip() != delimiter:  # the closing line, and the line break the parser read past it
        lines.pop()
    lines = lines[:-1]
    if header.lstrip().startswith("<<-"):
        indent = min((len(line) - len(line.lstrip(" \t")) for line in lines if line.strip()), default=0)
        lines = [line[indent:] for line in lines]
    return len(header) + 1, "".join(line + "\n" for line in lines)


def _span(rule: Any) -> Optional[Tuple[int, int]]:
    """Lark's ``(start, end)`` indices of ``rule`` in the text (end excluded)."""
    meta = getattr(rule, "_meta", None)
    start, end = getattr(meta, "start_pos", None), getattr(meta, "end_pos", None)
    return (start, end) if isinstance(start, int) and isinstance(end, int) else None


def _place(rule: Any) -> Optional[Place]:
    # python-hcl2 keeps Lark's positions (its parser propagates them) on each rule's meta, which it names _meta
    meta = getattr(rule, "_meta", None)
    line, column = getattr(meta, "line", None), getattr(meta, "column", None)
    return (line, column) if isinstance(line, int) and isinstance(column, int) else None


class _Reader:
    """Walks python-hcl2's tree of a file into Terraform JSON's shape, placing each part in :attr:`places`."""

    def __init__(self, text: str, hcl2: Any, base: Any, containers: Any, expressions: Any, functions: Any,
                 strings: Any) -> None:
        self.text = text
        self.base, self.containers, self.expressions, self.functions = base, containers, expressions, functions
        self.strings_module = strings
        self.options = hcl2.SerializationOptions(with_comments=False, explicit_blocks=False,
                                                 strip_string_quotes=True, preserve_heredocs=False,
                                                 preserve_scientific_notation=False)
        self.places: Dict[Path, Place] = {}
        self.strings: Dict[Path, Tuple[int, str]] = {}  #: each string literal's value and index in the text
        self.spans = HclSpans()

    def _member(self, path: Path, rule: Any, key: Any, within: Optional[Path] = None) -> None:
        """Record where the member at ``path`` starts (``rule``: the attribute, element, block or item) and its
        key's span (``key``: its name's rule, None for an item), as a member of ``within`` (its parent's path; a
        nested block's is the body it is written in); its value's span is recorded by :meth:`value`."""
        start = _span(rule)
        if start is not None:
            self.spans.members[path] = (start[0], _span(key) if key is not None else None)
            self.spans.children.setdefault(path[:-1] if within is None else within, []).append(path)

    def _at(self, path: Path, rule: Any) -> None:
        place = _place(rule)
        if place is not None:
            self.places.setdefault(path, place)

    def _text(self, rule: Any) -> str:
        return str(rule.serialize(self.options))

    def top(self, body: Any) -> Dict[str, Any]:
        document: Dict[str, Any] = {}
        self._at((), body)
        for child in body.children:
            if isinstance(child, self.base.AttributeRule):
                name = self._text(child.identifier)
                self._at((name,), child)
                document[name] = self.value(child.expression, (name,))
            elif isinstance(child, self.base.BlockRule):
                labels = [self._text(label) for label in child.labels]
                if len(labels) == 1:  # terraform {}, locals {}: a list of bodies, as nested blocks
                    bodies = document.setdefault(labels[0], [])
                    if isinstance(bodies, list):
                        self._at((labels[0],), child)
                        bodies.append(self.body(child.body, (labels[0], len(bodies)), child))
                    continue
                node: Dict[str, Any] = document
                path: Path = ()
                for label in labels[:-1]:
                    path += (label,)
                    self._at(path, child)
                    node = node.setdefault(label, {}) if isinstance(node.get(label, {}), dict) else {}
                path += (labels[-1],)
                if labels[-1] not in node:  # a second block of one address: Terraform refuses it; the first is read
                    node[labels[-1]] = self.body(child.body, path, child)
        return document

    def body(self, body: Any, path: Path, block: Any) -> Dict[str, Any]:
        self._at(path, block)
        out: Dict[str, Any] = {}
        for child in body.children:
            if isinstance(child, self.base.AttributeRule):
                name = self._text(child.identifier)
                self._at(path + (name,), child)
                self._member(path + (name,), child, child.identifier)
                out[name] = self.value(child.expression, path + (name,))
            elif isinstance(child, self.base.BlockRule):
                name = self._text(child.labels[0])
                blocks = out.setdefault(name, [])
                if isinstance(blocks, list):  # (an attribute of the same name: Terraform refuses it)
                    self._at(path + (name,), child)
                    self._member(path + (name, len(blocks)), child, child.labels[0], path)
                    blocks.append(self.body(child.body, path + (name, len(blocks)), child))
        self._value(path, block, "body")
        return out

    def _value(self, path: Path, rule: Any, kind: str) -> None:
        span = _span(rule)
        if span is not None:
            self.spans.values[path] = (span[0], span[1], kind)

    def value(self, expression: Any, path: Path) -> Any:
        """The value of an expression: literals, objects and tuples walked, ``jsonencode(X)`` X, else ``"${...}"``."""
        inner = expression
        while isinstance(inner, self.expressions.ExprTermRule) and not inner.parentheses:
            inner = inner.expression  # an expression term: the expression it holds
        if isinstance(inner, self.containers.ObjectRule):
            self._value(path, inner, "object")
            out: Dict[str, Any] = {}
            for element in inner.elements:
                key = element.key.serialize(self.options)
                key = key if isinstance(key, str) else str(key)
                self._at(path + (key,), element)
                self._member(path + (key,), element, element.key)
                out[key] = self.value(element.expression, path + (key,))
            return out
        if isinstance(inner, self.containers.TupleRule):
            self._value(path, inner, "tuple")
            items: List[Any] = []
            for index, element in enumerate(inner.elements):
                self._at(path + (index,), element)
                self._member(path + (index,), element, None)
                items.append(self.value(element, path + (index,)))
            return items
        encoded = self._encoded(inner)
        if encoded is not None:
            return self.value(encoded, path)
        meta = getattr(inner, "_meta", None)
        start, end = getattr(meta, "start_pos", None), getattr(meta, "end_pos", None)  # Lark's indices in the text
        if isinstance(inner, self.strings_module.HeredocTemplateRule) and isinstance(start, int):  # (<<- too)
            body, value = heredoc(self.text[start:end])
            self.strings[path] = (start + body, value)
            self._value(path, inner, "heredoc")
            return value
        value = inner.serialize(self.options)
        if isinstance(value, str) and isinstance(start, int) and isinstance(inner, self.strings_module.StringRule):
            self.strings[path] = (start, value)
            self._value(path, inner, "string")
        elif isinstance(value, (bool, int, float)) or value is None:
            self._value(path, inner, "literal")
        else:
            self._value(path, inner, "expression")
        return value

    def _encoded(self, call: Any) -> Any:
        """The one argument of ``jsonencode(...)``, or None for any other expression."""
        if not isinstance(call, self.functions.FunctionCallRule) or call.arguments is None:
            return None
        names = [self._text(name) for name in call.identifiers]
        arguments = call.arguments.arguments
        if len(names) == 1 and names[0] in _ENCODERS and len(arguments) == 1 and not call.arguments.has_ellipsis:
            return arguments[0]
        return None



# --- edits ------------------------------------------------------------------------------------------------------

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
#: HCL's quoted-string escapes (``$${`` and ``%%{`` stay as written: the value keeps them, as Terraform JSON does).
_HCL_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "r": "\r", "t": "\t"}


def hcl_value(value: Any) -> Optional[str]:
    """``value`` written in HCL: strings quoted (JSON's escapes; a template's ``${`` is the caller's to double,
    :func:`~sm_debug_config.stringedit.template_literal`), objects ``{ key = value }``, tuples ``[a, b]``; None for
    a value HCL has no literal for.

    >>> hcl_value({"num_steps": "20", "on": True, "tags": ["a"]})
    '{ num_steps = "20", on = true, tags = ["a"] }'
    """
    if isinstance(value, str):
        return '"' + json_string_escape(value) + '"'
    if value is None or isinstance(value, bool):
        return "null" if value is None else "true" if value else "false"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    if isinstance(value, list):
        items = [hcl_value(item) for item in value]
        return None if None in items else "[" + ", ".join(str(item) for item in items) + "]"
    if isinstance(value, dict):
        pairs = [(hcl_key(str(key)), hcl_value(item)) for key, item in value.items()]
        if any(item is None for _, item in pairs):
            return None
        return "{ " + ", ".join(f"{key} = {item}" for key, item in pairs) + " }" if pairs else "{}"
    return None


def hcl_key(key: str, quoted: bool = False) -> str:
    """``key`` as an object's key: an identifier, or a quoted string (``quoted``, or when it is no identifier)."""
    return key if not quoted and _IDENTIFIER.fullmatch(key) else '"' + json_string_escape(key) + '"'


class HclEditor(TextEditor):
    """Edits of a ``.tf`` file at the spans its reader recorded (:class:`HclSpans`), values written in HCL; each edit
    checked by reading the edited text again (:class:`~sm_debug_config.configfile.textedit.TextEditor`). A block's
    body and a multi-line object are edited line by line (a member removed with its line), a one-line object or a
    tuple as a list with commas."""

    def __init__(self, text: str, document: Dict[str, Any], spans: HclSpans, source: str) -> None:
        super().__init__(text, document, lambda edited: read_hcl_text(edited, source).document)
        self.spans = spans

    def value_span(self, path: Sequence[Any]) -> Optional[Tuple[int, int]]:
        found = self.spans.values.get(tuple(path))
        if found is None or found[2] in ("body", "heredoc"):
            return None  # a block is no value; a heredoc's text stays a heredoc (edited inside, as a host)
        return found[0], found[1]

    def container(self, path: Sequence[Any]) -> Optional[Container]:
        found = self.spans.values.get(tuple(path))
        children = self.spans.children.get(tuple(path), [])
        if found is None or found[2] not in ("body", "object", "tuple"):
            return None
        members = []
        for child in children:
            head, key = self.spans.members[child]
            value = self.spans.values.get(child)
            if value is None:
                return None
            key_start, key_end = key if key is not None else value[:2]
            members.append(Member(child[-1], head, key_start, key_end, value[0], value[1]))
        first = members[0].head if members else found[1]
        lines = found[2] == "body" or "\n" in self.text[found[0]:first]  # one member a line
        return Container(found[2] != "tuple", not lines, found[0], found[1], tuple(members))

    def write(self, value: Any, path: Sequence[Any], replacing: bool, indent: str) -> Optional[str]:
        return hcl_value(value)

    def write_key(self, key: Any, path: Sequence[Any]) -> Optional[str]:
        if not isinstance(key, str):
            return None
        member = self.spans.members.get(tuple(path))
        old = member[1] if member is not None else None
        parent = self.spans.values.get(tuple(path[:-1]))
        if parent is not None and parent[2] == "body" and not _IDENTIFIER.fullmatch(key):
            return None  # an argument's name is an identifier
        return hcl_key(key, quoted=old is not None and self.text[old[0]:old[0] + 1] == '"')

    def host(self, path: Sequence[Any]) -> Optional[HostString]:
        """The string at ``path`` (a quoted string or a heredoc) as a host of edits of its text."""
        found = self.spans.values.get(tuple(path))
        written = step_into(self.document, tuple(path))
        if found is None or not isinstance(written, str):
            return None
        if found[2] == "string":
            return quoted_host(self.text, found[0], written)
        if found[2] == "heredoc":
            return heredoc_host(self.text, found[0], found[1], written)
        return None

    def string_span(self, path: Sequence[Any]) -> Optional[Tuple[int, int]]:
        found = self.spans.values.get(tuple(path))
        return (found[0], found[1]) if found is not None and found[2] in ("string", "heredoc") else None

    def prefixed(self, path: Sequence[Any], text: str) -> Optional[List[Edit]]:
        host = self.host(path)
        placed = host.edit(Edit(0, 0, text)) if host is not None else None
        return None if placed is None else [placed]

    def edits(self, change: Change) -> Optional[List[Edit]]:
        """As :meth:`TextEditor.edits`; the removal of a nested block (its ``(name, index)`` path) takes its lines, and
        of the only block of a name, the name's (the reader then has no such key)."""
        path = tuple(change.path)
        if change.kind != REMOVE or not path or not (self._block(path) or self._block(path + (0,))):
            return super().edits(change)
        block = path if self._block(path) else path + (0,)
        blocks = step_into(self.document, block[:-1])
        if not isinstance(blocks, list) or (block != path and len(blocks) != 1):
            return None
        gone = Change(REMOVE, block[:-1]) if len(blocks) == 1 else Change(REMOVE, block)
        head, end = self.spans.members[block][0], self.spans.values[block][1]
        line = self._line_start(head)
        if self.text[line:head].strip():
            return None  # a block on the line of something else
        made = [Edit(line, self._after_line(end), "")]
        return made if self._holds(made, gone) else None

    def _block(self, path: Tuple[Any, ...]) -> bool:
        """Whether ``path`` is a nested block's (``(name, index)`` below its body)."""
        found = self.spans.values.get(path)
        return found is not None and found[2] == "body" and path in self.spans.members

    def _insert(self, parent: Container, path: Tuple[Any, ...], value: Any) -> Optional[List[Edit]]:
        key, written = self.write_key(path[-1], path), self.write(value, path, False, "")
        if key is None or written is None or not parent.members:
            return None
        if any(child[len(path) - 1] == path[-1] for child in self.spans.children.get(tuple(path[:-1]), ())):
            return None  # written already, as blocks: a block is no value to set

        last = parent.members[-1]
        pair = f"{key} = {written}"
        line = self._line_start(last.head)
        closes_here = "\n" not in self.text[last.end:parent.end]  # the brace on the last member's line
        body = self.spans.values[tuple(path[:-1])][2] == "body"
        if closes_here and body:
            return None  # a one-line block holds one argument
        if parent.flow or closes_here:
            return [Edit(last.end, last.end, f", {pair}")]
        at = line_end(self.text, last.end)
        return [Edit(at, at, f"{newline_at(self.text, last.end)}{self.text[line:last.head]}{pair}")]


def quoted_host(text: str, quote: int, value: str) -> Optional[HostString]:
    """The HCL quoted string whose quote is at ``quote``, of ``value`` as read, as a host of edits."""
    read = quoted_string(text, quote, _HCL_ESCAPES, {"u": 4, "U": 8})
    if read is None or read[1] != value:
        return None
    return HostString(read[0], json_string_escape)


def heredoc_host(text: str, start: int, end: int, value: str) -> Optional[HostString]:
    """The heredoc written at ``start``..``end`` of ``value`` as read (:func:`heredoc`), as a host of edits: its
    lines' indentation (``<<-``) kept."""
    header_end = past_line(text, start)
    indices: List[int] = []
    chars: List[str] = []
    lines = []
    index = header_end
    while index < end:
        lines.append((index, line_end(text, index)))
        index = past_line(text, index)
    header = text[start:header_end].strip()
    delimiter = header.lstrip("<-").strip()
    closing = max((i for i, (a, b) in enumerate(lines) if text[a:b].strip() == delimiter), default=None)
    if closing is None:
        return None
    body = lines[:closing]
    indented = header.startswith("<<-")
    width = min((len(text[a:b]) - len(text[a:b].lstrip(" \t")) for a, b in body if text[a:b].strip()),
                default=0) if indented else 0
    for begin, stop in body:
        for at in range(min(begin + width, stop), stop):
            indices.append(at)
            chars.append(text[at])
        indices.append(stop)
        chars.append("\n")
    if not body or "".join(chars) != value:
        return None
    indices.append(past_line(text, body[-1][0]))
    indent = " " * width
    newline = newline_at(text, start)

    def escape(content: str) -> Optional[str]:
        if "\r" in content:
            return None
        parts = content.split("\n")
        middle = [indent + part if part else part for part in parts[1:-1]]
        return newline.join(parts[:1] + middle + ([indent + parts[-1]] if len(parts) > 1 else []))

    return HostString(indices, escape)
