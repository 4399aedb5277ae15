"""Configuration files: YAML or JSON that mirrors the Python API, with ``file:line:col`` errors.

A config file holds the keyword arguments of :func:`sm_debug_config.render` and the objects
they take, spelled as the Python keyword arguments (``debugger_hook_config``, ``rules``,
``profiler_config``, ``tensorboard_output_config``, ``disable_profiler``, ``region``...).
Every object is built through the real constructors (``Rule.sagemaker``, ``Rule.custom``,
``ProfilerRule.sagemaker``, ``CollectionConfig``...), so every check of the Python API
applies; a mistake is reported as a one-line :class:`ConfigFileError` (a ``ConfigError``)
that starts with ``file:line:column:`` of the offending key.

>>> cfg = loads('''
... region: us-east-1
... output_path: s3://my-bucket/out/
... rules:
...   - builtin: VanishingGradient
...     rule_parameters: {threshold: 0.0001}
... ''')
>>> cfg.rules[0].rule_parameters
{'rule_to_invoke': 'VanishingGradient', 'threshold': '0.0001'}
>>> cfg.locate(("rules", 0, "rule_parameters", "threshold"))
(6, 23)
>>> sorted(cfg.render())
['DebugHookConfig', 'DebugRuleConfigurations', 'ProfilerConfig']

How the text is read (and why):

* YAML is read as an event stream from PyYAML's safe parser (``yaml.CSafeLoader``'s libyaml
  parser when available, else ``yaml.SafeLoader``), never through a constructor, so no tag
  can build a Python object: any tag other than the core ``!!str``/``!!int``/``!!float``/
  ``!!bool``/``!!null``/``!!map``/``!!seq`` is refused with its position. Building the tree
  from events keeps a position for every key and value, finds duplicate keys (PyYAML's loader
  silently keeps the last), bounds nesting depth before the parser gets slow on it, and
  bounds how far aliases can expand.
* Plain scalars resolve with a subset of YAML 1.1's rules (``true``/``false``, ``null``/``~``,
  decimal integers, decimal floats with a dot): ``yes``/``no``/``on``/``off``, octal
  ``0100``, ``1:30`` and dates stay strings (no "Norway problem"), and everything
  ``yaml.safe_dump`` writes unquoted as a string stays a string here, so dumped configs read
  back exactly.
* JSON (a ``.json`` file, or text starting with ``{`` that parses as JSON) is read by a small
  position-tracking parser built on the standard library's own JSON string and number
  scanners, so JSON semantics are exactly ``json.loads``'s (``1e-5`` is a number, ``\\/``
  and surrogate-pair escapes work, tabs are whitespace), which reading JSON as YAML would
  not give; duplicate keys are refused there too.
"""
from __future__ import annotations

import contextlib
import math
import os
import re
import warnings
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import attrs

from sm_debug_config.model import validators as v
from sm_debug_config.model import catalogue
from sm_debug_config.errors import format_path, ConfigError, ConfigWarning, did_you_mean

MAX_BYTES = 1024 * 1024  # a config file larger than this is refused before it is parsed
MAX_DEPTH = 32  # nesting of lists/mappings (a real config needs about 8)
MAX_VALUES = 250_000  # values after alias expansion
FORMATS = ("yaml", "json")
PathT = Tuple[Union[str, int], ...]

_LINE_BREAKS = re.compile(r"[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]+")
_KEY_RE = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$-]*$")


def _one_line(text: str) -> str:
    return _LINE_BREAKS.sub(" ", text).strip()


class ConfigFileError(ConfigError):
    """A ``ConfigError`` in a config file: ``file:line:col: path: message (allowed: ...)``, one line.

    ``source``, ``line`` and ``column`` (1-based; ``None`` when no position applies, e.g. a
    missing file) say where; ``path`` is the config key path (``("rules", 0, "name")``) and
    ``field`` its text form.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str,
        line: Optional[int] = None,
        column: Optional[int] = None,
        path: Sequence[Union[str, int]] = (),
        allowed: Optional[str] = None,
        findings: Any = (),
        code: Optional[str] = None,
    ) -> None:
        where = f"{source}:{line}:{column}" if line is not None else str(source)
        field = format_path(path) or None
        text = f"{where}: " + (f"{field}: " if field else "") + str(message)
        super().__init__(_one_line(text), allowed=_one_line(allowed) if allowed else None, findings=findings, code=code)
        self.message = message
        self.field = field
        self.source = source
        self.line = line
        self.column = column
        self.path = tuple(path)


# --- the document tree ------------------------------------------------------------------------


class _Node:
    """One value of the document with its 1-based position (``kind``: map, seq or scalar)."""

    __slots__ = ("kind", "value", "line", "column", "raw", "plain", "size", "anchor")

    def __init__(self, kind: str, value: Any, line: int, column: int, raw: Optional[str] = None, plain: bool = False) -> None:
        self.kind = kind
        self.value = value  # list of (key, value) nodes / list of nodes / Python scalar
        self.line = line
        self.column = column
        self.raw = raw  # source text of a scalar
        self.plain = plain  # an unquoted YAML scalar (or a JSON number/literal)
        self.size = 1  # values below and including this one, aliases expanded
        self.anchor: Optional[str] = None


def _describe(node: _Node) -> str:
    if node.kind == "map":
        return "a mapping"
    if node.kind == "seq":
        return "a list"
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
    return f"the string {text!r}"


# Plain scalars: a subset of YAML 1.1's implicit types (see the module docstring).
_NULL_RE = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL_RE = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
_INT_RE = re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$")
_FLOAT_RE = re.compile(
    r"^(?:[-+]?[0-9]+\.[0-9]*(?:[eE][-+][0-9]+)?|\.[0-9]+(?:[eE][-+][0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)
_NUMBER_TEXT_RE = re.compile(r"^[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$")
_YAML_TAG = "tag:yaml.org,2002:"


def _float(text: str) -> float:
    lowered = text.lower()
    if lowered.endswith(".inf"):
        return -math.inf if lowered.startswith("-") else math.inf
    if lowered == ".nan":
        return math.nan
    return float(text)


def _plain_scalar(text: str) -> Any:
    if _NULL_RE.match(text):
        return None
    if _BOOL_RE.match(text):
        return text.lower() == "true"
    if _INT_RE.match(text):
        return int(text)
    if _FLOAT_RE.match(text):
        return _float(text)
    return text


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_YAML_TAG):] if tag.startswith(_YAML_TAG) else tag


class _Tree:
    """Builds ``_Node`` trees from YAML events or JSON text, raising positioned errors."""

    def __init__(self, source: str) -> None:
        self.source = source

    def error(self, message: str, line: Optional[int], column: Optional[int], allowed: Optional[str] = None) -> ConfigFileError:
        return ConfigFileError(message, source=self.source, line=line, column=column, allowed=allowed)

    def fail(self, message: str, line: Optional[int], column: Optional[int], allowed: Optional[str] = None) -> None:
        raise self.error(message, line, column, allowed)

    # -- shared by both formats
    def _close_map(self, node: _Node) -> None:
        seen: Dict[Tuple[str, Any], _Node] = {}
        for key, _value in node.value:
            if key.kind != "scalar":
                continue
            ident = (type(key.value).__name__, key.value)
            first = seen.get(ident)
            if first is not None:
                self.fail(
                    f"duplicate key {key.value!r} (first at line {first.line}, column {first.column}); each key may appear once",
                    key.line,
                    key.column,
                )
            seen[ident] = key

    def _add(self, stack: List[List[Any]], node: _Node) -> Optional[_Node]:
        """Attach ``node`` to the open container (or return it as the root)."""
        if not stack:
            return node
        entry = stack[-1]
        parent: _Node = entry[0]
        if parent.kind == "map":
            if entry[1] is None:
                entry[1] = node
            else:
                parent.value.append((entry[1], node))
                entry[1] = None
        else:
            parent.value.append(node)
        parent.size += node.size
        if parent.size > MAX_VALUES:
            self.fail(f"the config holds more than {MAX_VALUES} values (aliases expanding too far?)", node.line, node.column)
        return None

    # -- YAML
    def yaml(self, text: str) -> Optional[_Node]:
        try:
            import yaml
        except ImportError:  # pragma: no cover - PyYAML is a dependency of the CLI extra
            raise ConfigError("reading YAML needs PyYAML: pip install pyyaml (or write the config as JSON)") from None
        loader_cls = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader
        byte_positions = loader_cls is not yaml.SafeLoader
        loader = None
        error: ConfigFileError
        try:
            loader = loader_cls(text)
            return self._yaml_events(yaml, loader)
        except yaml.MarkedYAMLError as err:
            mark = err.problem_mark or err.context_mark
            message = err.problem or err.context or "invalid YAML"
            if err.context and err.problem and err.context_mark is not None:
                message += f" ({err.context} at line {err.context_mark.line + 1}, column {err.context_mark.column + 1})"
            line, column = (mark.line + 1, mark.column + 1) if mark is not None else (None, None)
            if mark is not None and "cannot start any token" in message and _char_at(text, mark.line, mark.column) == "\t":
                message += "; YAML is indented with spaces, not tabs"
            error = self.error(f"invalid YAML: {message}", line, column)
        except yaml.reader.ReaderError as err:
            line, column = _position_of(text, err.position, byte_positions)
            error = self.error(f"invalid YAML: character {err.character:#x} is not allowed ({err.reason})", line, column)
        except yaml.YAMLError as err:  # pragma: no cover - every parser error is one of the above
            error = self.error(f"invalid YAML: {_one_line(str(err))}", None, None)
        finally:
            if loader is not None:
                loader.dispose()
        raise error from None

    def _yaml_events(self, yaml: Any, loader: Any) -> Optional[_Node]:
        anchors: Dict[str, _Node] = {}
        stack: List[List[Any]] = []  # [container node, pending key node]
        root: Optional[_Node] = None
        documents = 0
        while loader.check_event():
            event = loader.get_event()
            mark = event.start_mark
            line, column = mark.line + 1, mark.column + 1
            if isinstance(event, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    self.fail("a config file holds one YAML document; found a second one", line, column)
                continue
            if isinstance(event, (yaml.StreamStartEvent, yaml.StreamEndEvent, yaml.DocumentEndEvent)):
                continue
            if isinstance(event, yaml.AliasEvent):
                node = anchors.get(event.anchor)
                if node is None:
                    self.fail(f"alias *{event.anchor} refers to no anchor defined before it", line, column)
                found = self._add(stack, node)  # type: ignore[arg-type]
                root = found or root
                continue
            if isinstance(event, yaml.ScalarEvent):
                node = self._yaml_scalar(event, line, column)
                if event.anchor:
                    anchors[event.anchor] = node
                found = self._add(stack, node)
                root = found or root
                continue
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                kind = "map" if isinstance(event, yaml.MappingStartEvent) else "seq"
                tag = event.tag
                if tag not in (None, "!", _YAML_TAG + kind):
                    self.fail(_tag_message(tag), line, column)
                if len(stack) >= MAX_DEPTH:
                    self.fail(f"lists and mappings are nested more than {MAX_DEPTH} deep", line, column)
                node = _Node(kind, [], line, column)
                node.anchor = event.anchor
                stack.append([node, None])
                continue
            if isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                node = stack.pop()[0]
                if node.kind == "map":
                    self._close_map(node)
                if node.anchor:
                    anchors[node.anchor] = node
                found = self._add(stack, node)
                root = found or root
        return root

    def _yaml_scalar(self, event: Any, line: int, column: int) -> _Node:
        text = event.value
        tag = event.tag
        plain = bool(event.implicit[0]) and tag is None
        if tag is None:
            value = _plain_scalar(text) if event.implicit[0] else text
        elif tag in ("!", _YAML_TAG + "str"):
            value = text
        elif tag == _YAML_TAG + "null":
            if not _NULL_RE.match(text):
                self.fail(f"!!null tag on {text!r}", line, column)
            value = None
        elif tag == _YAML_TAG + "bool":
            if text.lower() not in ("true", "false"):
                self.fail(f"!!bool tag on {text!r}", line, column, allowed="true or false")
            value = text.lower() == "true"
        elif tag == _YAML_TAG + "int":
            if not re.match(r"^[-+]?[0-9]+$", text):
                self.fail(f"!!int tag on {text!r}, which is not a decimal integer", line, column)
            value = int(text)
        elif tag == _YAML_TAG + "float":
            if not (_NUMBER_TEXT_RE.match(text) or _FLOAT_RE.match(text)):
                self.fail(f"!!float tag on {text!r}, which is not a number", line, column)
            value = _float(text)
        else:
            self.fail(_tag_message(tag), line, column)
        return _Node("scalar", value, line, column, raw=text, plain=plain)

    # -- JSON
    def json(self, text: str) -> Optional[_Node]:
        from json.decoder import JSONDecodeError, scanstring
        from json.scanner import NUMBER_RE

        lines = _LineIndex(text)
        ws = re.compile(r"[ \t\n\r]*")
        stack: List[List[Any]] = []
        root: Optional[_Node] = None
        end = len(text)

        def fail(message: str, index: int) -> None:
            line, column = lines.position(index)
            self.fail(f"invalid JSON: {message}", line, column)

        def skip(index: int) -> int:
            return ws.match(text, index).end()  # type: ignore[union-attr]

        def string(index: int) -> Tuple[str, int]:
            try:
                return scanstring(text, index + 1, True)
            except JSONDecodeError as err:
                line, column = lines.position(err.pos)
                error = self.error(f"invalid JSON: {err.msg.lower()}", line, column)
            raise error from None

        pos = skip(0)
        expect_value = True
        while True:
            if expect_value:
                if pos >= end:
                    fail("expected a value, found the end of the text", pos)
                char = text[pos]
                line, column = lines.position(pos)
                if char in "{[":
                    if len(stack) >= MAX_DEPTH:
                        fail(f"lists and objects are nested more than {MAX_DEPTH} deep", pos)
                    node = _Node("map" if char == "{" else "seq", [], line, column)
                    stack.append([node, None])
                    pos = skip(pos + 1)
                    if pos < end and text[pos] == ("}" if char == "{" else "]"):
                        pos += 1
                        stack.pop()
                        value_node: Optional[_Node] = node
                    elif char == "{":
                        if pos >= end or text[pos] != '"':
                            fail("expected a string key in double quotes", pos)
                        key, after = string(pos)
                        kl, kc = lines.position(pos)
                        stack[-1][1] = _Node("scalar", key, kl, kc, raw=key)
                        pos = skip(after)
                        if pos >= end or text[pos] != ":":
                            fail("expected ':' after the key", pos)
                        pos = skip(pos + 1)
                        continue
                    else:
                        continue
                elif char == '"':
                    value, after = string(pos)
                    value_node = _Node("scalar", value, line, column, raw=value)
                    pos = after
                else:
                    match = NUMBER_RE.match(text, pos)
                    if match is not None:
                        integer, frac, exp = match.groups()
                        raw = match.group(0)
                        try:
                            number: Any = float(integer + (frac or "") + (exp or "")) if (frac or exp) else int(integer)
                        except ValueError:
                            number = None
                        if number is None:
                            fail(f"number {raw[:40]!r} has too many digits", pos)
                        value_node = _Node("scalar", number, line, column, raw=raw, plain=True)
                        pos = match.end()
                    else:
                        for literal, value in (("true", True), ("false", False), ("null", None)):
                            if text.startswith(literal, pos):
                                value_node = _Node("scalar", value, line, column, raw=literal, plain=True)
                                pos += len(literal)
                                break
                        else:
                            fail(f"expected a value, found {text[pos]!r}", pos)
                if value_node is not None:
                    if value_node.kind == "map":
                        self._close_map(value_node)
                    found = self._add(stack, value_node)
                    root = found or root
                expect_value = False
                continue
            # after a value: close containers or go on to the next item
            pos = skip(pos)
            if not stack:
                if pos < end:
                    fail("extra text after the JSON value", pos)
                return root
            container: _Node = stack[-1][0]
            if pos >= end:
                fail("unexpected end of the text inside " + ("an object" if container.kind == "map" else "a list"), pos)
            char = text[pos]
            closer = "}" if container.kind == "map" else "]"
            if char == closer:
                pos += 1
                stack.pop()
                if container.kind == "map":
                    self._close_map(container)
                found = self._add(stack, container)
                root = found or root
                continue
            if char != ",":
                fail(f"expected ',' or '{closer}', found {char!r}", pos)
            pos = skip(pos + 1)
            if container.kind == "map":
                if pos >= end or text[pos] != '"':
                    fail("expected a string key in double quotes", pos)
                key, after = string(pos)
                kl, kc = lines.position(pos)
                stack[-1][1] = _Node("scalar", key, kl, kc, raw=key)
                pos = skip(after)
                if pos >= end or text[pos] != ":":
                    fail("expected ':' after the key", pos)
                pos = skip(pos + 1)
            expect_value = True


def _tag_message(tag: str) -> str:
    return (
        f"YAML tag {_short_tag(tag)!r} is not allowed: a config file holds plain values only "
        "(strings, numbers, booleans, null, lists and mappings)"
    )


class _LineIndex:
    def __init__(self, text: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer(r"\n", text)]

    def position(self, index: int) -> Tuple[int, int]:
        import bisect

        line = bisect.bisect_right(self.starts, index)
        return line, index - self.starts[line - 1] + 1


def _char_at(text: str, line: int, column: int) -> str:
    lines = text.split("\n")
    if line < len(lines) and column < len(lines[line]):
        return lines[line][column]
    return ""


def _position_of(text: str, position: int, in_bytes: bool) -> Tuple[int, int]:
    data = text.encode("utf-8") if in_bytes else text
    before = data[:position]
    newline = b"\n" if in_bytes else "\n"
    line = before.count(newline) + 1  # type: ignore[arg-type]
    start = before.rfind(newline) + 1  # type: ignore[arg-type]
    segment = before[start:]
    column = len(segment.decode("utf-8", "replace")) if in_bytes else len(segment)  # type: ignore[union-attr]
    return line, column + 1


# --- reading text -----------------------------------------------------------------------------


def _too_large(source: str, size: Optional[int] = None) -> ConfigFileError:
    limit = f"{MAX_BYTES / 1048576:g} MiB"
    what = f"the file is {size / 1048576:.1f} MiB" if size and size > MAX_BYTES else f"the file is larger than {limit}"
    return ConfigFileError(f"{what}; a config file may be at most {limit} (MAX_BYTES)", source=source)


def _decode(data: bytes, source: str) -> str:
    if len(data) > MAX_BYTES:
        raise _too_large(source, len(data))
    nul = data.find(b"\x00")
    if nul >= 0:
        line, column = _byte_position(data, nul)
        raise ConfigFileError("binary data (a NUL byte): a config file is UTF-8 text (YAML or JSON)", source=source, line=line, column=column)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line, column = _byte_position(data, err.start)
        raise ConfigFileError(
            f"not UTF-8 text (byte {data[err.start]:#04x}); save the config file as UTF-8", source=source, line=line, column=column
        ) from None
    return text[1:] if text.startswith("\ufeff") else text


def _byte_position(data: bytes, index: int) -> Tuple[int, int]:
    line = data.count(b"\n", 0, index) + 1
    start = data.rfind(b"\n", 0, index) + 1
    return line, len(data[start:index].decode("utf-8", "replace")) + 1


def _check_text(text: str, source: str) -> str:
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as err:
        line, column = _LineIndex(text).position(err.start)
        raise ConfigFileError("text holds a character that is not valid Unicode (a lone surrogate)", source=source, line=line, column=column) from None
    if len(data) > MAX_BYTES:
        raise _too_large(source, len(data))
    nul = text.find("\x00")
    if nul >= 0:
        line, column = _LineIndex(text).position(nul)
        raise ConfigFileError("binary data (a NUL byte): a config file is UTF-8 text (YAML or JSON)", source=source, line=line, column=column)
    return text[1:] if text.startswith("\ufeff") else text


def _parse(text: str, source: str, fmt: Optional[str], require_mapping: bool = True) -> _Node:
    if fmt is not None and fmt not in FORMATS:
        raise ConfigError(f"unknown format {fmt!r}", field="format", allowed=", ".join(FORMATS))
    if not text.strip():
        raise ConfigFileError("empty config: expected a mapping of settings such as region:, output_path:, rules:", source=source, line=1, column=1)
    tree = _Tree(source)
    if fmt is None:
        fmt = "json" if str(source).lower().endswith(".json") else None
    if fmt == "json":
        root = tree.json(text)
    elif fmt is None and text.lstrip().startswith("{"):
        try:
            root = tree.json(text)
        except ConfigFileError:
            root = tree.yaml(text)  # a YAML flow mapping, not JSON
    else:
        root = tree.yaml(text)
    if root is None or (root.kind == "scalar" and root.value is None):
        raise ConfigFileError(
            "empty config: the file holds no settings (only comments or null)", source=source, line=root.line if root else 1, column=root.column if root else 1
        )
    if require_mapping and root.kind != "map":
        raise ConfigFileError(
            f"the top level must be a mapping of settings (region:, rules:, ...), got {_describe(root)}",
            source=source,
            line=root.line,
            column=root.column,
        )
    return root


# --- the format -------------------------------------------------------------------------------
# Key tables: (type, description). The loader checks keys against them and config_schema()
# is generated from them, so the two cannot drift apart.

TOP_KEYS: Dict[str, Tuple[str, str]] = {
    "$schema": ("string", "URI of this file's JSON Schema, for editors; ignored by the loader."),
    "region": ("string", "AWS region of the training job (e.g. us-east-1); picks the built-in rule images. May be given on the command line instead."),
    "output_path": ("string", "The Estimator's output_path (s3://bucket/prefix/): default S3 location of hook, profiler and rule output."),
    "job_name": ("string", "Training job name: StopTraining actions without a prefix stop this job; names the detailed-profiler rule."),
    "framework": ("framework", "Training framework; validation checks rules and collections against it."),
    "instance_type": ("string", "Training instance type (e.g. ml.p3.2xlarge); ml.trn* instances have no profiler."),
    "rule_image_uri": ("string", "Image URI for built-in rules, for a region missing from the built-in image table."),
    "defaults": ("defaults", "sdk: fill in the default hook and profiler as the SageMaker Python SDK v2 Estimator does; explicit: send only what this file asks for."),
    "disable_profiler": ("boolean", "true switches the profiler off (the Estimator's disable_profiler)."),
    "disable_debugger": ("boolean", "true switches SageMaker Debugger off entirely: no hook, profiler off (nothing Debugger-related may be configured)."),
    "debugger_hook_config": ("hook", "What the training-side hook saves (DebuggerHookConfig): a mapping, true for the default hook, or false for no hook."),
    "rules": ("rules", "Debugger and profiler rules: built in (builtin: Name), your own (custom:, custom_profiler:), or exact (rule:, profiler_rule:)."),
    "profiler_config": ("profiler_config", "System monitoring and framework profiling (ProfilerConfig)."),
    "tensorboard_output_config": ("tensorboard", "Where TensorBoard data goes (TensorBoardOutputConfig)."),
}

HOOK_KEYS: Dict[str, Tuple[str, str]] = {
    "s3_output_path": ("string", "S3 URI the saved tensors go to; defaults to output_path."),
    "container_local_output_path": ("string", "Directory in the training container the hook writes to (default /opt/ml/output/tensors)."),
    "hook_parameters": ("hook_parameters", "HookParameters: hook-wide settings such as save_interval, include_regex, reductions (values are sent as strings)."),
    "collection_configs": ("collections", "Tensor collections to save: a collection name, or {name, parameters}."),
}

COLLECTION_KEYS: Dict[str, Tuple[str, str]] = {
    "name": ("string", "Collection name: built in (gradients, weights, losses...) or your own with an include_regex."),
    "parameters": ("collection_parameters", "CollectionParameters such as include_regex, save_interval, save_steps, reductions (values are sent as strings)."),
}

_BUILTIN_COMMON: Dict[str, Tuple[str, str]] = {
    "builtin": ("builtin_name", "Name of a built-in rule (case-insensitive): a debugger rule such as VanishingGradient or a profiler rule such as ProfilerReport."),
    "name": ("string", "Rule configuration name shown in the job (defaults to the built-in name)."),
    "rule_parameters": ("rule_parameters", "Rule parameters, checked against the rule's documented parameters."),
    "container_local_output_path": ("string", "Directory in the rule container for the rule's output."),
    "s3_output_path": ("string", "S3 URI for the rule's output."),
}
_BUILTIN_DEBUGGER_ONLY: Dict[str, Tuple[str, str]] = {
    "collections_to_save": ("collections", "Debugger rules: collections the rule reads, replacing the rule's default collections."),
    "actions": ("actions", "Debugger rules: what happens when the rule fires: a list (sent as an action list) of {stop_training: {}}, {email: address}, {sms: number}, or one such mapping."),
    "other_trials_s3_input_paths": ("string_list", "Debugger rules: S3 debug output of other training jobs to compare with (SimilarAcrossRuns)."),
    "allow_unknown_parameters": ("names_or_bool", "Debugger rules: true, or a list of parameter names, lets parameters (or a rule) newer than this catalogue through with a warning."),
}
_BUILTIN_PROFILER_ONLY: Dict[str, Tuple[str, str]] = {
    "instance_type": ("string", "Profiler rules: instance type of the rule's processing job (built-in rules run on managed instances; only the detailed profiler uses it)."),
    "volume_size_in_gb": ("integer", "Profiler rules: volume size of the rule's processing job (as instance_type)."),
}
BUILTIN_RULE_KEYS: Dict[str, Tuple[str, str]] = {**_BUILTIN_COMMON, **_BUILTIN_DEBUGGER_ONLY, **_BUILTIN_PROFILER_ONLY}

CUSTOM_RULE_KEYS: Dict[str, Tuple[str, str]] = {
    "name": ("string", "Rule configuration name shown in the job."),
    "image_uri": ("string", "Image the rule runs in (e.g. the region's sagemaker-debugger-rule-evaluator image)."),
    "instance_type": ("string", "Instance type of the rule's processing job, e.g. ml.m5.xlarge."),
    "volume_size_in_gb": ("integer", "Volume size of the rule's processing job in GB."),
    "source": ("string", "s3:// URI of the Python file that defines the rule (upload a local file first)."),
    "rule_to_invoke": ("string", "Name of the rule class in source."),
    "container_local_output_path": ("string", "Directory in the rule container for the rule's output."),
    "s3_output_path": ("string", "S3 URI for the rule's output."),
    "other_trials_s3_input_paths": ("string_list", "S3 debug output of other training jobs for the rule to read."),
    "rule_parameters": ("rule_parameters", "Parameters passed to the rule (values are sent as strings)."),
    "collections_to_save": ("collections", "Collections the rule reads; merged into the hook's collections."),
    "actions": ("actions", "What happens when the rule fires: a list (sent as an action list) of {stop_training: {}}, {email: address}, {sms: number}, or one such mapping."),
}
CUSTOM_PROFILER_RULE_KEYS: Dict[str, Tuple[str, str]] = {
    k: val for k, val in CUSTOM_RULE_KEYS.items() if k not in ("other_trials_s3_input_paths", "collections_to_save", "actions")
}
_CUSTOM_REQUIRED = ("name", "image_uri", "instance_type", "volume_size_in_gb")
RAW_RULE_KEYS: Dict[str, Tuple[str, str]] = {
    "name": ("string", "Rule configuration name."),
    "image_uri": ("string", "Image the rule runs in (DEFAULT_RULE_EVALUATOR_IMAGE: the region's built-in rule image)."),
    "instance_type": ("string", "Instance type of the rule's processing job."),
    "volume_size_in_gb": ("integer", "Volume size of the rule's processing job in GB."),
    "container_local_output_path": ("string", "Directory in the rule container for the rule's output."),
    "s3_output_path": ("string", "S3 URI for the rule's output."),
    "rule_parameters": ("rule_parameters", "RuleParameters exactly as sent (write values as strings)."),
    "collections_to_save": ("collections", "Collections the rule reads; merged into the hook's collections."),
    "actions": ("actions", "What happens when the rule fires (sent as action_json)."),
}
RAW_PROFILER_RULE_KEYS: Dict[str, Tuple[str, str]] = {
    k: val for k, val in RAW_RULE_KEYS.items() if k not in ("collections_to_save", "actions")
}
_RAW_REQUIRED = ("name", "image_uri")
RULE_KINDS = ("builtin", "custom", "custom_profiler", "rule", "profiler_rule")

ACTION_KEYS: Dict[str, Tuple[str, str]] = {
    "stop_training": ("stop_training", "Stop the training job: {} (or empty) stops the job named by job_name, {training_job_prefix: prefix} the one job whose name starts with it."),
    "email": ("string", "Email address notified through the SNS topic SMDebugRules."),
    "sms": ("string", "Phone number in E.164 form (quoted, e.g. '+14155550100') notified through the SNS topic SMDebugRules."),
}
STOP_TRAINING_KEYS: Dict[str, Tuple[str, str]] = {
    "training_job_prefix": ("string", "Stop the one in-progress training job whose name starts with this prefix."),
}

PROFILER_CONFIG_KEYS: Dict[str, Tuple[str, str]] = {
    "s3_output_path": ("string", "S3 URI for profiler output; defaults to output_path."),
    "system_monitor_interval_millis": ("integer", "System metrics interval in milliseconds: 100, 200, 500, 1000, 5000 or 60000."),
    "framework_profile_params": ("framework_profile", "Framework metrics (FrameworkProfile); cannot be combined with profile_params."),
    "profile_params": ("profiler", "The SageMaker Profiler (Profiler); cannot be combined with framework_profile_params."),
    "disable_profiler": ("boolean", "true sends DisableProfiler: true."),
}

FRAMEWORK_PROFILE_KEYS: Dict[str, Tuple[str, str]] = {
    "local_path": ("string", "Directory in the training container for framework trace files (default /opt/ml/output/profiler)."),
    "file_max_size": ("integer", "Trace file size in bytes that starts a new file (default 10485760)."),
    "file_close_interval": ("number", "Seconds after which a trace file is closed (default 60)."),
    "file_open_fail_threshold": ("integer", "Failed file opens before the trace writer gives up (default 50)."),
    "start_step": ("integer", "One step range for all five metric configs: first step."),
    "num_steps": ("integer", "One step range for all five metric configs: number of steps."),
    "start_unix_time": ("integer", "One time range for all five metric configs: start, in Unix seconds."),
    "duration": ("number", "One time range for all five metric configs: length in seconds."),
    "detailed_profiling_config": ("metric:DetailedProfilingConfig", "Native framework profiler (TensorFlow/PyTorch) over a step or time range."),
    "dataloader_profiling_config": ("metric:DataloaderProfilingConfig", "Data loader events over a step or time range."),
    "python_profiling_config": ("metric:PythonProfilingConfig", "cProfile or Pyinstrument over a step or time range."),
    "horovod_profiling_config": ("metric:HorovodProfilingConfig", "Horovod timeline over a step or time range."),
    "smdataparallel_profiling_config": ("metric:SMDataParallelProfilingConfig", "SageMaker data-parallel timeline over a step or time range."),
    "profiling_parameters": ("string_map", "The raw ProfilingParameters map, sent as is (replaces every other key here)."),
}

METRIC_KEYS: Dict[str, Tuple[str, str]] = {
    "start_step": ("integer", "First step to profile."),
    "num_steps": ("integer", "Number of steps to profile."),
    "start_unix_time": ("integer", "Start of the time range, in Unix seconds."),
    "duration": ("number", "Length of the time range in seconds."),
    "profile_default_steps": ("boolean", "true profiles the SDK's default steps for this metric."),
}
METRIC_EXTRA_KEYS: Dict[str, Dict[str, Tuple[str, str]]] = {
    "DataloaderProfilingConfig": {"metrics_regex": ("string", "Regular expression of the data loader events to record (default .*).")},
    "PythonProfilingConfig": {
        "python_profiler": ("python_profiler", "Python profiler: cprofile (default) or pyinstrument."),
        "cprofile_timer": ("cprofile_timer", "Clock cProfile measures with: total_time (default), cpu_time, off_cpu_time or default."),
    },
}

PROFILER_KEYS: Dict[str, Tuple[str, str]] = {
    "cpu_profiling_duration": ("int_or_string", "Seconds of CPU profiling (default 3600)."),
    "file_rotation_interval": ("int_or_string", "Seconds after which a profiler file rotates (default 600)."),
}

TENSORBOARD_KEYS: Dict[str, Tuple[str, str]] = {
    "s3_output_path": ("string", "S3 URI TensorBoard data is uploaded to."),
    "container_local_output_path": ("string", "Directory in the training container the data is written to."),
}

DETAILED_PROFILER_RULE = "DetailedProfilerProcessingJobConfig"
_DETAILED_RULE_KEYS = ("builtin", "name", "instance_type", "volume_size_in_gb", "container_local_output_path", "s3_output_path")


def _python_profilers() -> List[str]:
    from sm_debug_config.model.profiler import PythonProfiler

    return [m.value for m in PythonProfiler]


def _cprofile_timers() -> List[str]:
    from sm_debug_config.model.profiler import cProfileTimer

    return [m.value for m in cProfileTimer]


# --- reading the format -----------------------------------------------------------------------


class _Reader:
    """Walks the tree, checks keys and types, and builds the objects through their constructors."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.keys: Dict[PathT, Tuple[int, int]] = {}
        self.values: Dict[PathT, _Node] = {}
        self.rule_indexes: Dict[str, List[int]] = {"debugger": [], "profiler": []}

    # -- errors
    def error(self, message: str, path: PathT, node: Optional[_Node] = None, allowed: Optional[str] = None, code: Optional[str] = None) -> ConfigFileError:
        position = self.keys.get(path) if node is None else (node.line, node.column)
        if position is None:
            position = self.position(path)
        line, column = position if position else (None, None)
        return ConfigFileError(message, source=self.source, line=line, column=column, path=path, allowed=allowed, code=code)

    def fail(self, message: str, path: PathT, node: Optional[_Node] = None, allowed: Optional[str] = None) -> None:
        raise self.error(message, path, node, allowed)

    def position(self, path: PathT) -> Optional[Tuple[int, int]]:
        while True:
            if path in self.keys:
                return self.keys[path]
            if not path:
                return None
            path = path[:-1]

    def type_error(self, node: _Node, path: PathT, expected: str, allowed: Optional[str] = None) -> None:
        hint = ""
        if node.kind == "scalar" and isinstance(node.value, str) and node.plain and node.value.lower() in ("yes", "no", "on", "off", "y", "n"):
            hint = f"; write true or false, not {node.value}"
        self.fail(f"expected {expected}, got {_describe(node)}{hint}", path, allowed=allowed)

    @contextlib.contextmanager
    def relay(self, roots: Sequence[Tuple[PathT, Optional[_Node]]]) -> Iterator[None]:
        """Turn a constructor's ConfigError (and warnings) into ones positioned in the file."""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            error: Optional[ConfigFileError] = None
            try:
                yield
            except ConfigFileError:
                raise
            except ConfigError as err:
                path, full = _match_field(err.field, roots)
                named = full or not err.field or _tail(err.field) == (path[-1] if path else None)
                message = err.message if named else f"{err.field}: {err.message}"
                error = self.error(message, path, allowed=err.allowed, code=err.code)
            except (TypeError, ValueError, OverflowError) as err:
                error = self.error(f"invalid value: {_one_line(str(err))}", roots[0][0])
            if error is not None:
                raise error from None
        for item in caught:
            if not issubclass(item.category, ConfigWarning):
                warnings.warn_explicit(item.message, item.category, item.filename, item.lineno)
                continue
            path, _full = _match_field(_warning_field(str(item.message)), roots)
            position = self.position(path)
            where = f"{self.source}:{position[0]}:{position[1]}" if position else self.source
            warnings.warn(f"{where}: {_one_line(str(item.message))}", item.category, stacklevel=5)

    # -- structure
    def mapping(self, node: _Node, path: PathT, table: Dict[str, Any], what: str) -> Dict[str, _Node]:
        if node.kind != "map":
            self.type_error(node, path, f"a mapping ({what})")
        out: Dict[str, _Node] = {}
        for key_node, value_node in node.value:
            if key_node.kind != "scalar" or not isinstance(key_node.value, str):
                self.fail(f"keys must be strings, got {_describe(key_node)}", path, key_node)
            key = key_node.value
            self.keys[path + (key,)] = (key_node.line, key_node.column)
            self.values[path + (key,)] = value_node
            if key not in table:
                hint = did_you_mean(key, list(table))
                if key == "<<":
                    hint = " YAML merge keys (<<) are not supported; use an alias for the whole value instead"
                self.fail(f"unknown key {key!r} in {what};{hint}".rstrip(";"), path + (key,), allowed=", ".join(table))
            out[key] = value_node
        return out

    def item(self, node: _Node, path: PathT, index: int) -> PathT:
        child = path + (index,)
        self.keys[child] = (node.line, node.column)
        self.values[child] = node
        return child

    def seq(self, node: _Node, path: PathT, expected: str) -> List[_Node]:
        if node.kind != "seq":
            self.type_error(node, path, expected)
        return list(node.value)

    # -- scalars
    def string(self, node: _Node, path: PathT) -> str:
        if node.kind == "scalar":
            if isinstance(node.value, str):
                return node.value
            if node.plain and isinstance(node.value, (int, float)) and not isinstance(node.value, bool) and node.raw:
                return node.raw  # an unquoted number where text is expected: what was typed
        self.type_error(node, path, "a string")
        raise AssertionError  # pragma: no cover

    def integer(self, node: _Node, path: PathT) -> int:
        if node.kind == "scalar" and v.is_int(node.value):
            return node.value
        self.type_error(node, path, "an integer")
        raise AssertionError  # pragma: no cover

    def number(self, node: _Node, path: PathT) -> Union[int, float]:
        if node.kind == "scalar":
            if isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
                return node.value
            if isinstance(node.value, str) and node.plain and _NUMBER_TEXT_RE.match(node.value):
                return float(node.value)  # 1e3 written unquoted
        self.type_error(node, path, "a number")
        raise AssertionError  # pragma: no cover

    def boolean(self, node: _Node, path: PathT) -> bool:
        if node.kind == "scalar" and isinstance(node.value, bool):
            return node.value
        self.type_error(node, path, "true or false")
        raise AssertionError  # pragma: no cover

    def choice(self, node: _Node, path: PathT, choices: Sequence[str]) -> str:
        text = self.string(node, path)
        for choice in choices:
            if text.lower() == choice.lower():
                return choice
        hint = did_you_mean(text, list(choices))
        self.fail(f"{text!r} is not allowed;{hint}".rstrip(";"), path, allowed=", ".join(choices))
        raise AssertionError  # pragma: no cover

    def int_or_string(self, node: _Node, path: PathT) -> Union[int, str]:
        if node.kind == "scalar" and v.is_int(node.value):
            return node.value
        return self.string(node, path)

    def string_list(self, node: _Node, path: PathT) -> List[str]:
        return [self.string(item, self.item(item, path, i)) for i, item in enumerate(self.seq(node, path, "a list of strings"))]

    def names_or_bool(self, node: _Node, path: PathT) -> Union[bool, List[str]]:
        if node.kind == "scalar" and isinstance(node.value, bool):
            return node.value
        if node.kind == "seq":
            return self.string_list(node, path)
        self.type_error(node, path, "true, false or a list of parameter names")
        raise AssertionError  # pragma: no cover

    def _scalar_value(self, node: _Node, path: PathT, allow_null: bool, raw_numbers: bool) -> Any:
        if node.kind != "scalar" or (node.value is None and not allow_null):
            expected = "a string, number or boolean" + (" or null" if allow_null else "")
            self.type_error(node, path, expected)
        value = node.value
        if raw_numbers and node.plain and isinstance(value, (int, float)) and not isinstance(value, bool) and node.raw:
            return node.raw
        return value

    def string_map(self, node: _Node, path: PathT, what: str, raw_numbers: bool = True) -> Dict[str, Any]:
        if node.kind != "map":
            self.type_error(node, path, f"a mapping ({what})")
        out: Dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.kind != "scalar" or not isinstance(key_node.value, str):
                self.fail(f"keys must be strings, got {_describe(key_node)}", path, key_node)
            key = key_node.value
            child = path + (key,)
            self.keys[child] = (key_node.line, key_node.column)
            self.values[child] = value_node
            out[key] = self._scalar_value(value_node, child, allow_null=False, raw_numbers=raw_numbers)
        return out

    def rule_parameters(self, node: _Node, path: PathT) -> Dict[str, Any]:
        if node.kind != "map":
            self.type_error(node, path, "a mapping (rule_parameters)")
        out: Dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.kind != "scalar" or not isinstance(key_node.value, str):
                self.fail(f"keys must be strings, got {_describe(key_node)}", path, key_node)
            key = key_node.value
            child = path + (key,)
            self.keys[child] = (key_node.line, key_node.column)
            self.values[child] = value_node
            if value_node.kind == "seq":
                out[key] = [
                    self._scalar_value(item, self.item(item, child, i), allow_null=False, raw_numbers=False)
                    for i, item in enumerate(value_node.value)
                ]
            else:
                if value_node.kind != "scalar":
                    self.type_error(value_node, child, "a string, number, boolean, null or a list of them")
                out[key] = value_node.value
        return out

    def fields(self, fields: Dict[str, _Node], path: PathT, table: Dict[str, Tuple[str, str]], skip: Sequence[str] = ()) -> Dict[str, Any]:
        """Read every simple (scalar/list) field of ``table`` present in ``fields``; null means absent."""
        out: Dict[str, Any] = {}
        for key, node in fields.items():
            if key in skip:
                continue
            if node.kind == "scalar" and node.value is None and table[key][0] != "rule_parameters":
                continue
            out[key] = self.value(node, path + (key,), table[key][0])
        return out

    def value(self, node: _Node, path: PathT, kind: str) -> Any:
        if kind == "string":
            return self.string(node, path)
        if kind == "integer":
            return self.integer(node, path)
        if kind == "number":
            return self.number(node, path)
        if kind == "boolean":
            return self.boolean(node, path)
        if kind == "int_or_string":
            return self.int_or_string(node, path)
        if kind == "string_list":
            return self.string_list(node, path)
        if kind == "names_or_bool":
            return self.names_or_bool(node, path)
        if kind == "string_map":
            return self.string_map(node, path, path[-1] if path else "map")  # type: ignore[arg-type]
        if kind in ("hook_parameters", "collection_parameters"):
            return self.string_map(node, path, str(path[-1]))
        if kind == "rule_parameters":
            if node.kind == "scalar" and node.value is None:
                return None
            return self.rule_parameters(node, path)
        if kind == "framework":
            return self.choice(node, path, catalogue.FRAMEWORKS)
        if kind == "defaults":
            from sm_debug_config.model.settings import DEFAULTS_MODES

            return self.choice(node, path, DEFAULTS_MODES)
        if kind == "python_profiler":
            return self.choice(node, path, _python_profilers())
        if kind == "cprofile_timer":
            return self.choice(node, path, _cprofile_timers())
        if kind == "hook":
            return self.hook(node, path)
        if kind == "collections":
            return self.collections(node, path)
        if kind == "rules":
            return self.rules(node, path)
        if kind == "actions":
            return self.actions(node, path)
        if kind == "profiler_config":
            return self.profiler_config(node, path)
        if kind == "framework_profile":
            return self.framework_profile(node, path)
        if kind == "profiler":
            return self.profiler(node, path)
        if kind == "tensorboard":
            return self.tensorboard(node, path)
        if kind.startswith("metric:"):
            return self.metric(node, path, kind.split(":", 1)[1])
        raise AssertionError(f"unknown field kind {kind}")  # pragma: no cover - a bug in the tables

    # -- sections
    def top(self, root: _Node) -> Dict[str, Any]:
        self.keys[()] = (root.line, root.column)
        fields = self.mapping(root, (), TOP_KEYS, "the config")
        out = self.fields(fields, (), TOP_KEYS, skip=("$schema",))
        if "$schema" in fields:
            self.string(fields["$schema"], ("$schema",))
        if "region" in out:
            from sm_debug_config.model import regions

            with self.relay([(("region",), fields["region"])]):
                regions.check_region(out["region"])
        return out

    def hook(self, node: _Node, path: PathT) -> Any:
        from sm_debug_config.model.hook import DebuggerHookConfig

        if node.kind == "scalar" and isinstance(node.value, bool):
            return node.value
        fields = self.mapping(node, path, HOOK_KEYS, "debugger_hook_config")
        kwargs = self.fields(fields, path, HOOK_KEYS)
        with self.relay([(path, node)]):
            return DebuggerHookConfig(**kwargs)

    def collections(self, node: _Node, path: PathT) -> List[Any]:
        from sm_debug_config.model.hook import CollectionConfig

        out = []
        for index, item in enumerate(self.seq(node, path, "a list of collections (names or {name, parameters})")):
            child = self.item(item, path, index)
            if item.kind == "scalar" and not (item.value is None or isinstance(item.value, bool)):
                name = self.string(item, child)
                with self.relay([(child, item)]):
                    out.append(CollectionConfig(name))
                continue
            fields = self.mapping(item, child, COLLECTION_KEYS, "a collection")
            if "name" not in fields:
                self.fail("a collection needs a name", child)
            kwargs = self.fields(fields, child, COLLECTION_KEYS)
            with self.relay([(child, item)]):
                out.append(CollectionConfig(**kwargs))
        return out

    def actions(self, node: _Node, path: PathT) -> Any:
        from sm_debug_config.model.actions import ActionList

        if node.kind == "seq":
            built = [self.action(item, self.item(item, path, i)) for i, item in enumerate(node.value)]
            with self.relay([(path, node)]):
                return ActionList(*built)
        return self.action(node, path)

    def action(self, node: _Node, path: PathT) -> Any:
        from sm_debug_config.model.actions import SMS, Email, StopTraining

        fields = self.mapping(node, path, ACTION_KEYS, "an action ({stop_training: {}}, {email: address} or {sms: number})")
        if len(fields) != 1:
            self.fail(f"an action has exactly one of {', '.join(ACTION_KEYS)}, got {len(fields)} keys", path)
        (key, value), = fields.items()
        child = path + (key,)
        with self.relay([(child, value), (path, node)]):
            if key == "stop_training":
                if value.kind == "scalar" and value.value is None:
                    return StopTraining()
                options = self.mapping(value, child, STOP_TRAINING_KEYS, "stop_training")
                prefix = self.fields(options, child, STOP_TRAINING_KEYS).get("training_job_prefix")
                return StopTraining(prefix)
            if key == "email":
                return Email(self.string(value, child))
            return SMS(self.string(value, child))

    def rules(self, node: _Node, path: PathT) -> List[Any]:
        from sm_debug_config.model.rules import ProfilerRule

        out = []
        for index, item in enumerate(self.seq(node, path, "a list of rules")):
            child = self.item(item, path, index)
            rule = self.rule(item, child)
            kind = "profiler" if isinstance(rule, ProfilerRule) else "debugger"
            self.rule_indexes[kind].append(index)
            out.append(rule)
        return out

    def rule(self, node: _Node, path: PathT) -> Any:
        if node.kind == "scalar" and isinstance(node.value, str):  # "- VanishingGradient"
            self.keys[path + ("builtin",)] = (node.line, node.column)
            return self.builtin_rule({"builtin": node}, node, path)
        table = {**BUILTIN_RULE_KEYS, **{kind: ("", "") for kind in RULE_KINDS[1:]}}
        fields = self.mapping(node, path, table, "a rule")
        kinds = [k for k in RULE_KINDS if k in fields]
        if len(kinds) != 1:
            got = f"{' and '.join(kinds)}" if kinds else "none"
            self.fail(f"a rule entry has exactly one of {', '.join(k + ':' for k in RULE_KINDS)} got {got}", path)
        kind = kinds[0]
        if kind == "builtin":
            return self.builtin_rule(fields, node, path)
        others = [k for k in fields if k != kind]
        if others:
            self.fail(f"the settings of a {kind} rule go inside {kind}: (move {others[0]!r} there)", path + (others[0],))
        if kind in ("rule", "profiler_rule"):
            return self.raw_rule(fields[kind], path + (kind,), profiler=kind == "profiler_rule")
        return self.custom_rule(fields[kind], path + (kind,), profiler=kind == "custom_profiler")

    def builtin_rule(self, fields: Dict[str, _Node], node: _Node, path: PathT) -> Any:
        import rule_configs

        from sm_debug_config.model.rules import ProfilerRule, Rule

        name_path = path + ("builtin",)
        requested = self.string(fields["builtin"], name_path)
        values = self.fields(fields, path, BUILTIN_RULE_KEYS, skip=("builtin",))
        params = values.pop("rule_parameters", None) or {}
        roots: List[Tuple[PathT, Optional[_Node]]] = [(path, node)]
        if "rule_parameters" in fields:
            roots.append((path + ("rule_parameters",), fields["rule_parameters"]))
        if requested == DETAILED_PROFILER_RULE:
            return self.detailed_profiler_rule(fields, values, path, roots)
        allow_unknown = values.get("allow_unknown_parameters", False)
        unknown: Optional[ConfigError] = None
        try:
            kind, entry = catalogue.find(requested)
        except ConfigError as err:
            kind, entry, unknown = "unknown", None, err
        if unknown is not None and not allow_unknown:
            self.fail(unknown.message, name_path, allowed=unknown.allowed)
        if kind == "profiler":
            for key in _BUILTIN_DEBUGGER_ONLY:
                if key in fields:
                    self.fail(f"{key} is for debugger rules; {catalogue.canonical_name(requested)} is a profiler rule", path + (key,))
            canonical = catalogue.canonical_name(requested)
            with self.relay(roots):
                base = getattr(rule_configs, canonical)(**params)
                return ProfilerRule.sagemaker(base, **values)
        for key in _BUILTIN_PROFILER_ONLY:
            if key in fields:
                self.fail(f"{key} is for profiler rules; built-in debugger rules run on instances SageMaker manages", path + (key,))
        if entry is not None:
            base = getattr(rule_configs, entry["function"])()
        else:  # a rule newer than the catalogue, let through by allow_unknown_parameters
            base = {
                "DebugRuleConfiguration": {"RuleConfigurationName": requested, "RuleParameters": {"rule_to_invoke": requested}},
                "CollectionConfigurations": [],
            }
        values["allow_unknown_parameters"] = allow_unknown
        with self.relay(roots):
            return Rule.sagemaker(base, rule_parameters=params or None, **values)

    def detailed_profiler_rule(self, fields: Dict[str, _Node], values: Dict[str, Any], path: PathT, roots: Any) -> Any:
        from sm_debug_config.model.rules import DetailedProfilerProcessingJobConfig, ProfilerRule

        for key in fields:
            if key not in _DETAILED_RULE_KEYS:
                self.fail(f"{key} is not a setting of {DETAILED_PROFILER_RULE}", path + (key,), allowed=", ".join(_DETAILED_RULE_KEYS))
        values.setdefault("name", DETAILED_PROFILER_RULE)
        with self.relay(roots):
            return ProfilerRule.sagemaker(DetailedProfilerProcessingJobConfig(), **values)

    def custom_rule(self, node: _Node, path: PathT, profiler: bool) -> Any:
        from sm_debug_config.model.rules import ProfilerRule, Rule

        table = CUSTOM_PROFILER_RULE_KEYS if profiler else CUSTOM_RULE_KEYS
        what = "custom_profiler" if profiler else "custom"
        fields = self.mapping(node, path, table, f"a {what} rule")
        values = self.fields(fields, path, table)
        for key in _CUSTOM_REQUIRED:
            if values.get(key) is None:
                self.fail(f"a {what} rule needs {key}", path, allowed=", ".join(_CUSTOM_REQUIRED) + " are required")
        roots: List[Tuple[PathT, Optional[_Node]]] = [(path, node)]
        if "rule_parameters" in fields:
            roots.append((path + ("rule_parameters",), fields["rule_parameters"]))
        with self.relay(roots):
            return (ProfilerRule if profiler else Rule).custom(**values)

    def raw_rule(self, node: _Node, path: PathT, profiler: bool) -> Any:
        from sm_debug_config.model.rules import ProfilerRule, Rule

        table = RAW_PROFILER_RULE_KEYS if profiler else RAW_RULE_KEYS
        what = "profiler_rule" if profiler else "rule"
        fields = self.mapping(node, path, table, f"a {what} entry")
        values = self.fields(fields, path, table)
        for key in _RAW_REQUIRED:
            if values.get(key) is None:
                self.fail(f"a {what} entry needs {key}", path, allowed=", ".join(_RAW_REQUIRED) + " are required")
        args = [values.get(k) for k in ("name", "image_uri", "instance_type", "container_local_output_path", "s3_output_path", "volume_size_in_gb", "rule_parameters")]
        with self.relay([(path, node)]):
            if profiler:
                return ProfilerRule(*args)
            return Rule(*args, values.get("collections_to_save"), values.get("actions"))

    def profiler_config(self, node: _Node, path: PathT) -> Any:
        from sm_debug_config.model.profiler import ProfilerConfig

        fields = self.mapping(node, path, PROFILER_CONFIG_KEYS, "profiler_config")
        kwargs = self.fields(fields, path, PROFILER_CONFIG_KEYS)
        with self.relay([(path, node)]):
            return ProfilerConfig(**kwargs)

    def framework_profile(self, node: _Node, path: PathT) -> Any:
        from sm_debug_config.model.profiler import FrameworkProfile

        fields = self.mapping(node, path, FRAMEWORK_PROFILE_KEYS, "framework_profile_params")
        if "profiling_parameters" in fields and len(fields) > 1:
            other = next(k for k in fields if k != "profiling_parameters")
            self.fail("profiling_parameters replaces every other framework_profile_params setting; use one or the other", path + (other,))
        kwargs = self.fields(fields, path, FRAMEWORK_PROFILE_KEYS)
        raw = kwargs.pop("profiling_parameters", None)
        with self.relay([(path, node)]):
            profile = FrameworkProfile(**kwargs)
            if raw is not None:
                profile.profiling_parameters = raw
            return profile

    def metric(self, node: _Node, path: PathT, class_name: str) -> Any:
        from sm_debug_config.model import profiler

        table = {**METRIC_KEYS, **METRIC_EXTRA_KEYS.get(class_name, {})}
        fields = self.mapping(node, path, table, str(path[-1]))
        kwargs = self.fields(fields, path, table)
        with self.relay([(path, node)]):
            return getattr(profiler, class_name)(**kwargs)

    def profiler(self, node: _Node, path: PathT) -> Any:
        from sm_debug_config.model.profiler import Profiler

        fields = self.mapping(node, path, PROFILER_KEYS, "profile_params")
        kwargs = self.fields(fields, path, PROFILER_KEYS)
        with self.relay([(path, node)]):
            return Profiler(**kwargs)

    def tensorboard(self, node: _Node, path: PathT) -> Any:
        from sm_debug_config.model.hook import TensorBoardOutputConfig

        fields = self.mapping(node, path, TENSORBOARD_KEYS, "tensorboard_output_config")
        kwargs = self.fields(fields, path, TENSORBOARD_KEYS)
        if "s3_output_path" not in kwargs:
            self.fail("tensorboard_output_config needs s3_output_path", path)
        with self.relay([(path, node)]):
            return TensorBoardOutputConfig(**kwargs)


def _tail(field: str) -> str:
    """The last name in an API field (``Rule.custom.source`` -> ``source``)."""
    match = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\W*$", field)
    return match.group(1) if match else field


def _warning_field(message: str) -> Optional[str]:
    match = re.match(r"^(\w+)\.(\w+) ", message)  # "VanishingGradient.new_param is not in the catalogue..."
    return match.group(2) if match else None


def _boundaries(field: str) -> List[int]:
    starts = [0]
    for index, char in enumerate(field):
        if char == "." and index + 1 < len(field):
            starts.append(index + 1)
        elif char == "[":
            starts.append(index)
    return starts


def _descend(node: _Node, path: PathT, rest: str) -> Tuple[PathT, bool]:
    while rest:
        if node.kind == "map":
            best: Optional[Tuple[str, _Node]] = None
            for key_node, value_node in node.value:
                key = key_node.value if key_node.kind == "scalar" and isinstance(key_node.value, str) else None
                if key is None:
                    continue
                if rest == key or rest.startswith(key + ".") or rest.startswith(key + "["):
                    if best is None or len(key) > len(best[0]):
                        best = (key, value_node)
            if best is None:
                return path, False
            key, node = best
            path = path + (key,)
            rest = rest[len(key):]
            rest = rest[1:] if rest.startswith(".") else rest
        elif node.kind == "seq":
            match = re.match(r"^\[(\d+)\]\.?", rest)
            if not match or int(match.group(1)) >= len(node.value):
                return path, False
            index = int(match.group(1))
            node = node.value[index]
            path = path + (index,)
            rest = rest[match.end():]
        else:
            return path, False
    return path, True


def _match_field(field: Optional[str], roots: Sequence[Tuple[PathT, Optional[_Node]]]) -> Tuple[PathT, bool]:
    """The config path an API field such as ``Rule.sagemaker.rule_parameters.x`` names, best effort.

    Tries every suffix of the field (at ``.`` and ``[`` boundaries) against each root's keys:
    the first full match wins, else the deepest partial one, else the first root.
    """
    best: Tuple[PathT, bool] = (roots[0][0], False)
    best_depth = 0
    if not field:
        return best
    for root_path, root in roots:
        if root is None:
            continue
        for start in _boundaries(field):
            path, full = _descend(root, root_path, field[start:])
            depth = len(path) - len(root_path)
            if full and depth:
                return path, True
            if depth > best_depth:
                best, best_depth = (path, False), depth
    return best


# --- the loaded config ------------------------------------------------------------------------


@attrs.define(eq=True, repr=True)
class LoadedConfig:
    """The objects a config file describes, and where each key of it is.

    ``render_kwargs()`` gives exactly the keyword arguments of :func:`sm_debug_config.render`;
    ``render()`` calls it and reports a rendering error at the file position it concerns.
    ``rules`` is ``None`` when the file has no ``rules:`` key (``[]`` is different: no
    detailed-profiler rule is added, as with the SDK).

    >>> cfg = loads("region: us-east-1\\nrules: [LossNotDecreasing]\\n", filename="job.yaml")
    >>> cfg.rules[0].name, cfg.locate(("rules", 0))
    ('LossNotDecreasing', (2, 9))
    """

    rules: Optional[List[Any]] = None
    debugger_hook_config: Any = None
    profiler_config: Any = None
    tensorboard_output_config: Any = None
    disable_profiler: bool = False
    region: Optional[str] = None
    output_path: Optional[str] = None
    job_name: Optional[str] = None
    framework: Optional[str] = None
    instance_type: Optional[str] = None
    rule_image_uri: Optional[str] = None
    defaults: str = "sdk"
    disable_debugger: bool = False
    source: str = attrs.field(default="<string>", eq=False)
    _positions: Dict[PathT, Tuple[int, int]] = attrs.field(factory=dict, eq=False, repr=False)
    _root: Optional[_Node] = attrs.field(default=None, eq=False, repr=False)
    _rule_indexes: Dict[str, List[int]] = attrs.field(factory=dict, eq=False, repr=False)

    RENDER_KEYS = (
        "rules",
        "debugger_hook_config",
        "profiler_config",
        "tensorboard_output_config",
        "disable_profiler",
        "region",
        "output_path",
        "job_name",
        "instance_type",
        "rule_image_uri",
        "defaults",
        "framework",
        "disable_debugger",
    )

    def locate(self, path: Sequence[Union[str, int]]) -> Optional[Tuple[int, int]]:
        """``(line, column)`` (1-based) of a key path such as ``("rules", 2, "rule_parameters", "threshold")``.

        For a mapping key, where the key is written; for a list item, where the item starts;
        ``None`` when the file does not have it.
        """
        return self._positions.get(tuple(path))

    def locate_field(self, field: Optional[str], findings: Sequence[Any] = ()) -> Optional[Tuple[int, int]]:
        """``(line, column)`` of the key a ``ConfigError`` from rendering this config concerns, if the file has it.

        Pass the error's ``findings`` too for a validation error (``field == "request"``).
        """
        path = self._path_for(field or "", findings)
        while path:
            found = self._positions.get(path)
            if found is not None:
                return found
            path = path[:-1]
        return None

    def rule_kinds(self) -> List[str]:
        """``"debugger"`` or ``"profiler"`` for each entry of ``rules`` (in file order)."""
        from sm_debug_config.model.rules import ProfilerRule

        return ["profiler" if isinstance(rule, ProfilerRule) else "debugger" for rule in (self.rules or [])]

    @property
    def positions(self) -> Dict[PathT, Tuple[int, int]]:
        """Every key path of the file and its ``(line, column)``."""
        return dict(self._positions)

    def render_kwargs(self, **overrides: Any) -> Dict[str, Any]:
        """The keyword arguments of ``render(...)``; ``overrides`` that are not ``None`` replace the file's values.

        >>> loads("output_path: s3://b/o/\\n").render_kwargs(region="eu-west-1")["region"]
        'eu-west-1'
        """
        unknown = [k for k in overrides if k not in self.RENDER_KEYS]
        if unknown:
            raise ConfigError(f"unknown argument {unknown[0]!r};{did_you_mean(unknown[0], self.RENDER_KEYS)}".rstrip(";"), field="render_kwargs", allowed=", ".join(self.RENDER_KEYS))
        kwargs = {key: getattr(self, key) for key in self.RENDER_KEYS}
        if kwargs["rules"] is not None:
            kwargs["rules"] = list(kwargs["rules"])
        kwargs.update({k: val for k, val in overrides.items() if val is not None})
        return kwargs

    def render(self, *, validate: bool = True, **overrides: Any) -> Dict[str, Any]:
        """``render(**self.render_kwargs(**overrides), validate=validate)``, with errors positioned in the file."""
        from sm_debug_config.rendering import render

        try:
            return render(**self.render_kwargs(**overrides), validate=validate)
        except ConfigFileError:
            raise
        except ConfigError as err:
            raise self.error_at(err) from None

    def render_model(self, *, validate: bool = True, **overrides: Any) -> Any:
        """``render_model(**self.render_kwargs(**overrides), validate=validate)`` (``Rendered``), with errors positioned in the file."""
        from sm_debug_config.rendering import render_arguments, render_model

        try:
            return render_model(*render_arguments(dict(self.render_kwargs(**overrides), validate=validate)))
        except ConfigFileError:
            raise
        except ConfigError as err:
            raise self.error_at(err) from None

    def error_at(self, err: ConfigError) -> ConfigFileError:
        """``err`` (raised by ``render`` for this config) as a ``ConfigFileError`` at the key it concerns."""
        if isinstance(err, ConfigFileError):
            return err
        field = err.field or ""
        path = self._path_for(field, err.findings)
        position = None
        probe = path
        while probe is not None:
            position = self._positions.get(probe)
            if position is not None or not probe:
                break
            probe = probe[:-1]
        if position is None or not path:
            message = f"{field}: {err.message}" if field else err.message
            return ConfigFileError(message, source=self.source, allowed=err.allowed, findings=err.findings, code=err.code)
        allowed = err.allowed
        if field == "job_name" and path and path[-1] == "stop_training":
            allowed = "job_name: in the config (or given when rendering), or stop_training: {training_job_prefix: ...}"
        return ConfigFileError(err.message, source=self.source, line=position[0], column=position[1], path=path, allowed=allowed, findings=err.findings, code=err.code)

    def _path_for(self, field: str, findings: Sequence[Any] = ()) -> PathT:
        root = self._root
        if root is None or not field:
            return ()
        if field == "request":  # a validation finding: its path points into the rendered request
            for finding in findings:
                if getattr(finding, "severity", None) == "error" and isinstance(getattr(finding, "path", None), str):
                    return self.path_of_request_pointer(finding.path)
            return ()
        match = re.match(r"^rules\[(-?\d+)\]\.?(.*)$", field)
        if match:
            index = int(match.group(1))
            indexes = self._rule_indexes.get("debugger", [])
            if 0 <= index < len(indexes):
                item_path: PathT = ("rules", indexes[index])
                node = _node_at(root, item_path)
                if node is not None and match.group(2):
                    rest = match.group(2)
                    for sub in ((), ("custom",), ("rule",)):
                        sub_node = _node_at(node, sub)
                        if sub_node is not None:
                            path, full = _descend(sub_node, item_path + sub, rest)
                            if full:
                                return path
                return item_path
            return ("rules",) if self.locate(("rules",)) else ()
        match = re.match(r"^collections\[(['\"])(.*)\1\]", field)
        if match:
            return self._collection_path(match.group(2))
        if field == "job_name" and self.locate(("job_name",)) is None:
            return self._stop_training_path()
        head = re.split(r"[.\[]", field, maxsplit=1)[0]
        aliases = {"DebuggerHookConfig": "debugger_hook_config", "ProfilerConfig": "profiler_config", "TensorBoardOutputConfig": "tensorboard_output_config"}
        key = aliases.get(head, head)
        if key in TOP_KEYS and self.locate((key,)) is not None:
            return (key,)
        return ()

    def path_of_request_pointer(self, pointer: str) -> PathT:
        """The config key path (best effort) behind a JSON pointer into the request this config renders.

        ``/DebugRuleConfigurations/1/RuleParameters/threshold`` -> ``("rules", 3, "rule_parameters", "threshold")``
        when the second debugger rule is the file's fourth rule; ``()`` when nothing in the file matches.
        """
        parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]
        candidates: List[PathT] = []
        head = parts[0] if parts else ""
        index = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
        if head in ("DebugRuleConfigurations", "ProfilerRuleConfigurations"):
            indexes = self._rule_indexes.get("debugger" if head == "DebugRuleConfigurations" else "profiler", [])
            if index is not None and index < len(indexes):
                base: PathT = ("rules", indexes[index])
                if len(parts) > 3 and parts[2] == "RuleParameters":
                    for sub in ((), ("custom",), ("custom_profiler",), ("rule",), ("profiler_rule",)):
                        candidates.append(base + sub + ("rule_parameters", parts[3]))
                candidates.append(base)
            candidates.append(("rules",))
            if head == "ProfilerRuleConfigurations":
                candidates.append(("profiler_config", "profile_params"))
        elif head == "DebugHookConfig":
            if len(parts) > 2 and parts[1] == "CollectionConfigurations" and index is None and parts[2].isdigit():
                name = self._merged_collection_name(int(parts[2]))
                if name is not None:
                    path = self._collection_path(name)
                    if len(parts) > 4:
                        candidates.append(path + ("parameters", parts[4]))
                    candidates.append(path)
            if len(parts) > 2 and parts[1] == "HookParameters":
                candidates.append(("debugger_hook_config", "hook_parameters", parts[2]))
            candidates.append(("debugger_hook_config",))
        elif head == "ProfilerConfig":
            if len(parts) > 1 and parts[1] == "ProfilingParameters":
                candidates += [("profiler_config", "framework_profile_params"), ("profiler_config", "profile_params")]
            candidates += [("profiler_config",), ("disable_profiler",)]
        elif head == "TensorBoardOutputConfig":
            candidates.append(("tensorboard_output_config",))
        for candidate in candidates:
            if candidate in self._positions:
                return candidate
        return ()

    def _merged_collection_name(self, index: int) -> Any:
        from sm_debug_config.merge import merge
        from sm_debug_config.model.rules import Rule

        hook = self.debugger_hook_config
        hook_collections = getattr(hook, "collection_configs", None) or []
        rules = [r for r in (self.rules or []) if isinstance(r, Rule)]
        try:
            merged = merge(hook_collections, rules)
        except ConfigError:
            return None
        return merged[index].name if index < len(merged) else None

    def _stop_training_path(self) -> PathT:
        """The first ``stop_training`` action without a prefix (it is what needs ``job_name``)."""
        rules = _node_at(self._root, ("rules",))
        if rules is None or rules.kind != "seq":
            return ()
        for index, rule in enumerate(rules.value):
            for sub in (("actions",), ("custom", "actions"), ("rule", "actions")):
                actions = _node_at(rule, sub)
                if actions is None:
                    continue
                items = [(i, a) for i, a in enumerate(actions.value)] if actions.kind == "seq" else [(None, actions)]
                for position, action in items:
                    stop = _node_at(action, ("stop_training",))
                    if stop is not None and _node_at(stop, ("training_job_prefix",)) is None:
                        path = ("rules", index) + sub + ((position,) if position is not None else ()) + ("stop_training",)
                        return path  # type: ignore[return-value]
        return ()

    def _collection_path(self, name: str) -> PathT:
        root = self._root
        hook = _node_at(root, ("debugger_hook_config", "collection_configs")) if root else None
        if hook is not None and hook.kind == "seq":
            for index, item in enumerate(hook.value):
                if _collection_name(item) == name:
                    return ("debugger_hook_config", "collection_configs", index)
        rules = _node_at(root, ("rules",)) if root else None
        if rules is not None and rules.kind == "seq":
            for index, rule in enumerate(rules.value):
                for sub in (("collections_to_save",), ("custom", "collections_to_save"), ("rule", "collections_to_save")):
                    collections = _node_at(rule, sub)
                    if collections is not None and collections.kind == "seq":
                        for ci, item in enumerate(collections.value):
                            if _collection_name(item) == name:
                                return ("rules", index) + sub + (ci,)
        return ("debugger_hook_config",) if self.locate(("debugger_hook_config",)) else ()

    def to_config(self) -> Dict[str, Any]:
        """This config as a plain mapping again (see :func:`dump`)."""
        return dump(**self.render_kwargs())


def _node_at(node: Optional[_Node], path: PathT) -> Optional[_Node]:
    for part in path:
        if node is None:
            return None
        if node.kind == "map" and isinstance(part, str):
            node = next((val for key, val in node.value if key.kind == "scalar" and key.value == part), None)
        elif node.kind == "seq" and isinstance(part, int) and 0 <= part < len(node.value):
            node = node.value[part]
        else:
            return None
    return node


def _collection_name(node: _Node) -> Any:
    if node.kind == "scalar":
        return node.value
    name = _node_at(node, ("name",))
    return name.value if name is not None and name.kind == "scalar" else None


# --- entry points -----------------------------------------------------------------------------


def loads(text: Union[str, bytes], filename: str = "<string>", *, format: Optional[str] = None) -> LoadedConfig:  # noqa: A002
    """The config in ``text`` (YAML or JSON); ``filename`` is used in error messages.

    ``format`` (``"yaml"`` or ``"json"``) forces a parser; by default a name ending in
    ``.json`` is JSON, text starting with ``{`` is tried as JSON first, anything else is YAML.

    >>> loads('{"region": "us-east-1", "disable_profiler": true}').disable_profiler
    True
    >>> loads("rules: {}", filename="job.yaml")
    Traceback (most recent call last):
    ...
    sm_debug_config.configfile.ConfigFileError: job.yaml:1:1: rules: expected a list of rules, got a mapping
    """
    source = str(filename)
    if isinstance(text, (bytes, bytearray)):
        text = _decode(bytes(text), source)
    elif isinstance(text, str):
        text = _check_text(text, source)
    else:
        raise ConfigError(f"expected the text of a config file (str or bytes), got {type(text).__name__}", field="text")
    root = _parse(text, source, format)
    reader = _Reader(source)
    values = reader.top(root)
    return LoadedConfig(
        **{k: val for k, val in values.items()},
        source=source,
        positions=dict(reader.keys),
        root=root,
        rule_indexes={k: list(val) for k, val in reader.rule_indexes.items()},
    )


def load(path: Union[str, "os.PathLike[str]"], *, format: Optional[str] = None) -> LoadedConfig:  # noqa: A002
    """The config file at ``path`` (YAML, or JSON for ``*.json``), at most ``MAX_BYTES`` long.

    Every problem is a one-line :class:`ConfigFileError` starting with ``path:line:column:``
    (just ``path:`` when the file cannot be read at all).

    >>> load("/nonexistent/job.yaml")
    Traceback (most recent call last):
    ...
    sm_debug_config.configfile.ConfigFileError: /nonexistent/job.yaml: cannot read the config file: No such file or directory
    """
    source = os.fspath(path)
    return loads(_read_file(source), filename=str(source), format=format)


def _read_file(source: Any) -> bytes:
    size: Optional[int] = None
    try:
        with open(source, "rb") as handle:
            try:
                size = os.fstat(handle.fileno()).st_size
            except OSError:  # pragma: no cover - fstat of an open file does not fail in practice
                size = None
            if size is not None and size > MAX_BYTES:
                raise _too_large(str(source), size)  # refused without reading it
            data = handle.read(MAX_BYTES + 1)  # pipes and special files report no size
    except OSError as err:
        reason = err.strerror or type(err).__name__
        raise ConfigFileError(f"cannot read the config file: {reason}", source=str(source)) from None
    if len(data) > MAX_BYTES:
        raise _too_large(str(source))
    return data


def _plain(node: _Node, memo: Dict[int, Any]) -> Any:
    known = memo.get(id(node))
    if known is not None:
        return known
    if node.kind == "map":
        value: Any = {}
        for key, item in node.value:
            value[key.value if key.kind == "scalar" else repr(_plain(key, memo))] = _plain(item, memo)
    elif node.kind == "seq":
        value = [_plain(item, memo) for item in node.value]
    else:
        return node.value
    memo[id(node)] = value
    return value


class DocumentLocator:
    """``locator(("DebugHookConfig", "CollectionConfigurations", 0))`` -> ``(line, column)`` in the file.

    A path the file does not fully have gives the position of its deepest part that exists.
    """

    def __init__(self, root: _Node) -> None:
        self._root = root

    def __call__(self, path: Sequence[Union[str, int]]) -> Optional[Tuple[int, int]]:
        node = self._root
        found = (node.line, node.column)
        for part in path:
            if node.kind == "map":
                match = next(((key, val) for key, val in node.value if key.kind == "scalar" and key.value == part), None)
                if match is None:
                    break
                found, node = (match[0].line, match[0].column), match[1]
            elif node.kind == "seq" and isinstance(part, int) and 0 <= part < len(node.value):
                node = node.value[part]
                found = (node.line, node.column)
            else:
                break
        return found


def read_document(path: Union[str, "os.PathLike[str]"], *, format: Optional[str] = None) -> Tuple[Any, DocumentLocator]:  # noqa: A002
    """Any YAML or JSON file (a config, or a ``CreateTrainingJob`` request) as plain data, and a locator.

    The same reading rules and one-line positioned errors as :func:`load`, without checking
    the config format: for tools that report findings in arbitrary documents by position.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
    ...     _ = f.write('{"DebugHookConfig": {"S3OutputPath": "s3://b/o"}}')
    >>> document, locate = read_document(f.name)
    >>> document["DebugHookConfig"]["S3OutputPath"], locate(("DebugHookConfig", "S3OutputPath"))
    ('s3://b/o', (1, 22))
    >>> os.remove(f.name)
    """
    source = os.fspath(path)
    text = _decode(_read_file(source), str(source))
    root = _parse(text, str(source), format, require_mapping=False)
    return _plain(root, {}), DocumentLocator(root)


# --- dump: objects -> config mapping ----------------------------------------------------------


def dump(
    rules: Optional[Sequence[Any]] = None,
    debugger_hook_config: Any = None,
    profiler_config: Any = None,
    tensorboard_output_config: Any = None,
    disable_profiler: bool = False,
    *,
    region: Optional[str] = None,
    output_path: Optional[str] = None,
    job_name: Optional[str] = None,
    instance_type: Optional[str] = None,
    rule_image_uri: Optional[str] = None,
    defaults: str = "sdk",
    framework: Optional[str] = None,
    disable_debugger: bool = False,
) -> Dict[str, Any]:
    """The config mapping for ``render``'s keyword arguments: the inverse of ``loads(...).render_kwargs()``.

    Plain data only (str, int, float, bool, None, lists, dicts), in a fixed key order, so
    ``yaml.safe_dump`` or ``json.dumps`` of it reads back to objects that render the same
    request. Built-in rules come back as ``builtin:`` entries with only the parameters that
    differ from the rule's defaults, ``Rule.custom`` rules as ``custom:``; each entry is
    rebuilt and compared with the rule, and a rule no such entry reproduces is written
    exactly (``rule:`` / ``profiler_rule:``, the ``Rule``/``ProfilerRule`` constructors).

    >>> from sm_debug_config import Rule, rule_configs
    >>> dump([Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"threshold": 0.0001})], region="us-east-1")
    {'region': 'us-east-1', 'rules': [{'builtin': 'VanishingGradient', 'rule_parameters': {'threshold': 0.0001}}]}
    """
    out: Dict[str, Any] = {}
    for key, value in (
        ("region", region),
        ("output_path", output_path),
        ("job_name", job_name),
        ("framework", framework),
        ("instance_type", instance_type),
        ("rule_image_uri", rule_image_uri),
    ):
        if value is not None:
            out[key] = value
    if defaults != "sdk":
        out["defaults"] = defaults
    if disable_profiler is not False:
        out["disable_profiler"] = disable_profiler
    if disable_debugger is not False:
        out["disable_debugger"] = disable_debugger
    if debugger_hook_config is not None:
        out["debugger_hook_config"] = _dump_hook(debugger_hook_config)
    if rules is not None:
        if isinstance(rules, (str, bytes, dict)) or not isinstance(rules, (list, tuple)):
            raise ConfigError(f"expected a list of rules, got {v.type_name(rules)}", field="rules")
        out["rules"] = [_dump_rule(rule, index) for index, rule in enumerate(rules)]
    if profiler_config is not None:
        out["profiler_config"] = _dump_profiler_config(profiler_config)
    if tensorboard_output_config is not None:
        out["tensorboard_output_config"] = _dump_tensorboard(tensorboard_output_config)
    _check_plain(out, "")
    return out


to_config = dump


def _check_plain(value: Any, field: str) -> None:
    if v.is_pipeline_variable(value):
        raise ConfigError(
            "a SageMaker Pipelines variable cannot be written to a config file",
            field=field or "config",
            allowed="plain strings, numbers and booleans",
        )
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise ConfigError(f"key {key!r} is not a string", field=field or "config")
            _check_plain(item, f"{field}.{key}" if field else key)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_plain(item, f"{field}[{index}]")
    elif value is not None and not isinstance(value, (str, int, float, bool)):
        raise ConfigError(f"{type(value).__name__} cannot be written to a config file", field=field or "config", allowed="plain strings, numbers and booleans")


def _put(out: Dict[str, Any], key: str, value: Any) -> None:
    if value is not None:
        out[key] = value


def _dump_collection(config: Any, field: str) -> Dict[str, Any]:
    from sm_debug_config.model.hook import CollectionConfig

    if not isinstance(config, CollectionConfig):
        raise ConfigError(f"got {v.type_name(config)}", field=field, allowed="CollectionConfig objects")
    out: Dict[str, Any] = {"name": config.name}
    if config.parameters is not None:
        out["parameters"] = dict(config.parameters)
    return out


def _dump_hook(hook: Any) -> Any:
    from sm_debug_config.model.hook import DebuggerHookConfig

    if isinstance(hook, bool):
        return hook
    if hook == {}:
        return {}
    if not isinstance(hook, DebuggerHookConfig):
        raise ConfigError(f"got {v.type_name(hook)}", field="debugger_hook_config", allowed="a DebuggerHookConfig, True, False or None")
    out: Dict[str, Any] = {}
    _put(out, "s3_output_path", hook.s3_output_path)
    _put(out, "container_local_output_path", hook.container_local_output_path)
    if hook.hook_parameters is not None:
        out["hook_parameters"] = dict(hook.hook_parameters)
    if hook.collection_configs is not None:
        out["collection_configs"] = [
            _dump_collection(c, f"debugger_hook_config.collection_configs[{i}]") for i, c in enumerate(hook.collection_configs)
        ]
    return out


def _dump_actions(actions: Any, field: str) -> Any:
    from sm_debug_config.model.actions import SMS, ActionList, Email, StopTraining

    def one(action: Any) -> Dict[str, Any]:
        if isinstance(action, StopTraining):
            if action.use_default_training_job_prefix:
                return {"stop_training": {}}
            return {"stop_training": {"training_job_prefix": action.action_parameters["training_job_prefix"]}}
        if isinstance(action, (Email, SMS)):
            return {type(action).__name__.lower(): action.action_parameters["endpoint"]}
        raise ConfigError(f"got {v.type_name(action)}", field=field, allowed="StopTraining, Email or SMS")

    if isinstance(actions, ActionList):
        return [one(a) for a in actions.actions]
    return one(actions)


def _split_parameters(params: Dict[str, Any], custom: bool) -> Tuple[List[Any], Optional[Any], Optional[Any], Dict[str, Any]]:
    """``(other_trials, source, rule_to_invoke, rest)`` of a rule's merged parameters, as the constructors laid them out."""
    items = list(params.items())
    trials: List[Any] = []
    index = 0
    while index < len(items) and items[index][0] == f"other_trial_{len(trials)}":
        trials.append(items[index][1])
        index += 1
    source = rule_to_invoke = None
    if (
        custom
        and index + 1 < len(items)
        and items[index][0] == "source_s3_uri"
        and items[index + 1][0] == "rule_to_invoke"
        and items[index][1]
        and items[index + 1][1]
    ):
        source, rule_to_invoke = items[index][1], items[index + 1][1]
        index += 2
    return trials, source, rule_to_invoke, dict(items[index:])


def _pretty_parameter(spec: Optional[Dict[str, Any]], value: Any) -> Any:
    """A stored parameter string as the number/boolean it was, when that renders to the same string."""
    if not isinstance(value, str) or not spec:
        return value
    kind = spec.get("type")
    if kind in ("integer", "float", "number"):
        number = v.parse_int(value)
        if number is not None and str(number) == value:
            return number
        if kind != "integer":
            try:
                real = float(value)
            except ValueError:
                return value
            if math.isfinite(real) and str(real) == value:
                return real
    if kind == "boolean" and value in ("True", "False"):
        return value == "True"
    return value


def _dump_rule(rule: Any, index: int) -> Dict[str, Any]:
    from sm_debug_config.model.rules import ProfilerRule, Rule

    field = f"rules[{index}]"
    if isinstance(rule, Rule):
        natural = _dump_debugger_rule
    elif isinstance(rule, ProfilerRule):
        natural = _dump_profiler_rule
    else:
        raise ConfigError(f"got {v.type_name(rule)}", field=field, allowed="Rule or ProfilerRule objects")
    try:
        entry: Optional[Dict[str, Any]] = natural(rule, field)
    except ConfigError:
        entry = None
    if entry is not None and _rebuilds(entry, rule):
        return entry
    return _dump_raw_rule(rule, field)


def _to_node(value: Any) -> _Node:
    if isinstance(value, dict):
        return _Node("map", [(_Node("scalar", k, 0, 0), _to_node(item)) for k, item in value.items()], 0, 0)
    if isinstance(value, list):
        return _Node("seq", [_to_node(item) for item in value], 0, 0)
    return _Node("scalar", value, 0, 0)


def _rebuilds(entry: Dict[str, Any], rule: Any) -> bool:
    """Whether loading ``entry`` gives back an object equal to ``rule``."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rebuilt = _Reader("<dump>").rule(_to_node(entry), ("rules", 0))
    except (ConfigError, TypeError, ValueError):
        return False
    return type(rebuilt) is type(rule) and rebuilt == rule


def _dump_raw_rule(rule: Any, field: str) -> Dict[str, Any]:
    from sm_debug_config.model.rules import Rule

    entry: Dict[str, Any] = {"name": rule.name, "image_uri": rule.image_uri}
    _put(entry, "instance_type", rule.instance_type)
    _put(entry, "volume_size_in_gb", rule.volume_size_in_gb)
    _put(entry, "container_local_output_path", rule.container_local_output_path)
    _put(entry, "s3_output_path", rule.s3_output_path)
    params = dict(rule.rule_parameters) if rule.rule_parameters is not None else None
    if not isinstance(rule, Rule):
        if params is not None:
            entry["rule_parameters"] = params
        return {"profiler_rule": entry}
    if params is not None:
        params.pop("action_json", None)  # render writes it from actions
        entry["rule_parameters"] = params
    if rule.collection_configs:
        entry["collections_to_save"] = [_dump_collection(c, f"{field}.collections_to_save[{i}]") for i, c in enumerate(rule.collection_configs)]
    if rule.actions is not None:
        entry["actions"] = _dump_actions(rule.actions, f"{field}.actions")
    return {"rule": entry}


def _dump_debugger_rule(rule: Any, field: str) -> Dict[str, Any]:
    params = dict(rule.rule_parameters or {})
    params.pop("action_json", None)
    collections = [_dump_collection(c, f"{field}.collections_to_save[{i}]") for i, c in enumerate(rule.collection_configs or [])]
    if not rule.is_builtin:
        trials, source, invoke, rest = _split_parameters(params, custom=True)
        if rule.instance_type is None or rule.volume_size_in_gb is None:
            raise ConfigError(
                "a custom rule without instance_type and volume_size_in_gb cannot be written as custom:",
                field=field,
                allowed="rules built by Rule.custom(...)",
            )
        custom: Dict[str, Any] = {"name": rule.name, "image_uri": rule.image_uri, "instance_type": rule.instance_type, "volume_size_in_gb": rule.volume_size_in_gb}
        _put(custom, "source", source)
        _put(custom, "rule_to_invoke", invoke)
        _put(custom, "container_local_output_path", rule.container_local_output_path)
        _put(custom, "s3_output_path", rule.s3_output_path)
        if trials:
            custom["other_trials_s3_input_paths"] = trials
        if rest:
            custom["rule_parameters"] = rest
        if collections:
            custom["collections_to_save"] = collections
        if rule.actions is not None:
            custom["actions"] = _dump_actions(rule.actions, f"{field}.actions")
        return {"custom": custom}
    trials, _source, _invoke, rest = _split_parameters(params, custom=False)
    builtin = rule.builtin_rule
    if builtin is None:
        builtin = _catalogue_name(rest.get("rule_to_invoke"), "debugger")
    entry: Dict[str, Any] = {}
    specs: Dict[str, Any] = {}
    if builtin is not None:
        _kind, catalogue_entry = catalogue.find(builtin)
        defaults = catalogue.default_rule_parameters(catalogue_entry)
        specs = catalogue.user_parameters(catalogue_entry)
        default_name = catalogue_entry["base_config"]["DebugRuleConfiguration"]["RuleConfigurationName"]
        entry["builtin"] = builtin
    else:
        builtin = rest.get("rule_to_invoke") or rule.name
        defaults = {"rule_to_invoke": builtin}
        default_name = builtin
        entry["builtin"] = builtin
    for key, default in defaults.items():
        if key in rest and rest[key] == default:
            del rest[key]
    if rule.name != default_name:
        entry["name"] = rule.name
    if rest:
        entry["rule_parameters"] = {k: _pretty_parameter(specs.get(k), val) for k, val in rest.items()}
    if not rule.uses_default_collections:
        entry["collections_to_save"] = collections
    if rule.actions is not None:
        entry["actions"] = _dump_actions(rule.actions, f"{field}.actions")
    if trials:
        entry["other_trials_s3_input_paths"] = trials
    if rule.builtin_rule is None and _catalogue_name(entry["builtin"], "debugger") is None:
        entry["allow_unknown_parameters"] = True
    _put(entry, "container_local_output_path", rule.container_local_output_path)
    _put(entry, "s3_output_path", rule.s3_output_path)
    return entry


def _catalogue_name(name: Any, kind: str) -> Optional[str]:
    if not isinstance(name, str):
        return None
    try:
        found, _entry = catalogue.find(name)
    except ConfigError:
        return None
    return catalogue.canonical_name(name) if found == kind else None


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _dump_profiler_rule(rule: Any, field: str) -> Dict[str, Any]:
    from sm_debug_config.model.rules import DETAILED_PROFILER_PREFIX

    params = dict(rule.rule_parameters or {})
    if not rule.is_builtin:
        _trials, source, invoke, rest = _split_parameters(params, custom=True)
        if rule.instance_type is None or rule.volume_size_in_gb is None:
            raise ConfigError(
                "a custom profiler rule without instance_type and volume_size_in_gb cannot be written as custom_profiler:",
                field=field,
                allowed="rules built by ProfilerRule.custom(...)",
            )
        custom: Dict[str, Any] = {"name": rule.name, "image_uri": rule.image_uri, "instance_type": rule.instance_type, "volume_size_in_gb": rule.volume_size_in_gb}
        _put(custom, "source", source)
        _put(custom, "rule_to_invoke", invoke)
        _put(custom, "container_local_output_path", rule.container_local_output_path)
        _put(custom, "s3_output_path", rule.s3_output_path)
        if _trials:  # other_trial_N keys given as parameters stay parameters
            rest = {**{f"other_trial_{i}": t for i, t in enumerate(_trials)}, **rest}
        if rest:
            custom["rule_parameters"] = rest
        return {"custom_profiler": custom}
    builtin = rule.builtin_rule or _catalogue_name(params.get("rule_to_invoke"), "profiler")
    entry: Dict[str, Any] = {}
    if builtin is None:
        if params.get("rule_to_invoke") == "DetailedProfilerProcessing" or str(rule.name).startswith(DETAILED_PROFILER_PREFIX):
            entry["builtin"] = DETAILED_PROFILER_RULE
            if rule.name != DETAILED_PROFILER_RULE:
                entry["name"] = rule.name
            _put(entry, "instance_type", rule.instance_type)
            _put(entry, "volume_size_in_gb", rule.volume_size_in_gb)
            _put(entry, "container_local_output_path", rule.container_local_output_path)
            _put(entry, "s3_output_path", rule.s3_output_path)
            return entry
        raise ConfigError(
            f"profiler rule {rule.name!r} runs a built-in image but names no built-in profiler rule",
            field=field,
            allowed="rules built by ProfilerRule.sagemaker(rule_configs.<Rule>(...)) or ProfilerRule.custom(...)",
        )
    params.pop("rule_to_invoke", None)
    if builtin != "ProfilerReport":
        defaults = catalogue.default_rule_parameters(catalogue.find(builtin)[1])
        params = {k: val for k, val in params.items() if not (k in defaults and _same(val, defaults[k]))}
    entry["builtin"] = builtin
    if rule.name != builtin:
        entry["name"] = rule.name
    if params:
        entry["rule_parameters"] = params
    _put(entry, "container_local_output_path", rule.container_local_output_path)
    _put(entry, "s3_output_path", rule.s3_output_path)
    _put(entry, "instance_type", rule.instance_type)
    _put(entry, "volume_size_in_gb", rule.volume_size_in_gb)
    return entry


def _dump_profiler_config(config: Any) -> Dict[str, Any]:
    from sm_debug_config.model.profiler import ProfilerConfig

    if not isinstance(config, ProfilerConfig):
        raise ConfigError(f"got {v.type_name(config)}", field="profiler_config", allowed="a ProfilerConfig or None")
    out: Dict[str, Any] = {}
    _put(out, "s3_output_path", config.s3_output_path)
    _put(out, "system_monitor_interval_millis", config.system_monitor_interval_millis)
    if config.framework_profile_params is not None:
        out["framework_profile_params"] = _dump_framework_profile(config.framework_profile_params)
    if config.profile_params is not None:
        out["profile_params"] = _dump_profiler(config.profile_params)
    if config.disable_profiler is not False:
        out["disable_profiler"] = config.disable_profiler
    return out


def _dump_framework_profile(profile: Any) -> Dict[str, Any]:
    from sm_debug_config.model import profiler

    override = getattr(profile, "_override", None)
    if override is not None:
        return {"profiling_parameters": dict(override)}
    out: Dict[str, Any] = {}
    for key, default in (
        ("local_path", profiler.BASE_FOLDER_DEFAULT),
        ("file_max_size", profiler.MAX_FILE_SIZE_DEFAULT),
        ("file_close_interval", profiler.CLOSE_FILE_INTERVAL_DEFAULT),
        ("file_open_fail_threshold", profiler.FILE_OPEN_FAIL_THRESHOLD_DEFAULT),
    ):
        value = getattr(profile, key)
        if not _same(value, default):
            out[key] = value
    for key in ("start_step", "num_steps", "start_unix_time", "duration"):
        _put(out, key, getattr(profile, key))
    for key in FRAMEWORK_PROFILE_KEYS:
        if key.endswith("_profiling_config") and getattr(profile, key) is not None:
            out[key] = _dump_metric(getattr(profile, key))
    return out


def _dump_metric(config: Any) -> Dict[str, Any]:
    from sm_debug_config.model.profiler import DataloaderProfilingConfig, PythonProfiler, PythonProfilingConfig, StepRange, cProfileTimer

    out: Dict[str, Any] = {}
    if config.profile_default_steps:
        out["profile_default_steps"] = True
    elif isinstance(config.range, StepRange):
        _put(out, "start_step", config.range.start_step)
        _put(out, "num_steps", config.range.num_steps)
    else:
        _put(out, "start_unix_time", config.range.start_unix_time)
        _put(out, "duration", config.range.duration)
    if isinstance(config, DataloaderProfilingConfig) and config.metrics_regex != ".*":
        out["metrics_regex"] = config.metrics_regex
    if isinstance(config, PythonProfilingConfig):
        if config.python_profiler is not PythonProfiler.CPROFILE:
            out["python_profiler"] = config.python_profiler.value
        if config.cprofile_timer is not None and not config.profile_default_steps and config.cprofile_timer is not cProfileTimer.TOTAL_TIME:
            out["cprofile_timer"] = config.cprofile_timer.value
    return out


def _dump_profiler(profile: Any) -> Dict[str, Any]:
    from sm_debug_config.model import profiler

    out: Dict[str, Any] = {}
    for key, default in (("cpu_profiling_duration", profiler.CPU_PROFILING_DURATION), ("file_rotation_interval", profiler.FILE_ROTATION_INTERVAL_DEFAULT)):
        value = getattr(profile, key)
        if value == str(default):
            continue
        number = v.parse_int(value)
        out[key] = number if number is not None and str(number) == value else value
    return out


def _dump_tensorboard(config: Any) -> Dict[str, Any]:
    from sm_debug_config.model.hook import TensorBoardOutputConfig

    if not isinstance(config, TensorBoardOutputConfig):
        raise ConfigError(f"got {v.type_name(config)}", field="tensorboard_output_config", allowed="a TensorBoardOutputConfig or None")
    out: Dict[str, Any] = {"s3_output_path": config.s3_output_path}
    _put(out, "container_local_output_path", config.container_local_output_path)
    return out


# --- JSON Schema ------------------------------------------------------------------------------

_SCALAR_SCHEMA = {
    "string": {"type": "string"},
    "integer": {"type": "integer"},
    "number": {"type": "number"},
    "boolean": {"type": "boolean"},
    "int_or_string": {"type": ["integer", "string"]},
    "string_list": {"type": "array", "items": {"type": "string"}},
    "names_or_bool": {"oneOf": [{"type": "boolean"}, {"type": "array", "items": {"type": "string"}}]},
    "string_map": {"type": "object", "additionalProperties": {"type": ["string", "number", "boolean"]}},
}


def _object(table: Dict[str, Tuple[str, str]], refs: Dict[str, str], required: Sequence[str] = (), description: Optional[str] = None) -> Dict[str, Any]:
    properties = {}
    for key, (kind, text) in table.items():
        schema = dict(_SCALAR_SCHEMA[kind]) if kind in _SCALAR_SCHEMA else {"$ref": f"#/$defs/{refs.get(kind, kind)}"}
        schema["description"] = text
        properties[key] = schema
    out: Dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
    if description:
        out = {"description": description, **out}
    if required:
        out["required"] = list(required)
    return out


def _hook_parameter_schema(scope: str) -> Dict[str, Any]:
    from sm_debug_config.model import hookparams

    spec = hookparams.spec()
    properties: Dict[str, Any] = {}
    value_types = ["string", "integer", "number", "boolean"]
    for key, entry in spec["parameters"].items():
        if entry["scope"] not in ("both", scope) or entry["type"] in ("ignored", "json_bool"):
            continue
        prop: Dict[str, Any] = {"type": value_types, "description": entry.get("description") or key}
        if entry.get("allowed"):
            allowed = list(entry["allowed"])
            if set(allowed) <= {"true", "false", "True", "False"}:
                allowed += [True, False]
            prop["enum"] = allowed
            prop["type"] = ["string", "boolean"]
        properties[key] = prop
    for mode in spec["modes"]:
        for key, entry in spec["parameters"].items():
            if entry["mode_prefixable"] and entry["scope"] in ("both", scope):
                properties[f"{mode}.{key}"] = {"type": value_types, "description": f"{key} in {mode.upper()} mode only: {entry.get('description') or ''}".strip()}
    return {"type": "object", "properties": properties, "additionalProperties": False}


def _rule_parameter_properties(name: str, entry: Dict[str, Any]) -> Dict[str, Any]:
    properties: Dict[str, Any] = {}
    if entry.get("covered_rules"):  # ProfilerReport: <Rule>_<parameter>
        for covered in entry["covered_rules"]:
            sub = catalogue.find(covered)[1]
            for key, spec in catalogue.user_parameters(sub).items():
                properties[f"{covered}_{key}"] = {"description": f"{covered}: {spec.get('description') or key}"}
        return properties
    for key, spec in catalogue.user_parameters(entry).items():
        prop: Dict[str, Any] = {"description": spec.get("description") or key}
        if spec.get("allowed"):
            prop["enum"] = list(spec["allowed"])
        properties[key] = prop
    return properties


def config_schema() -> Dict[str, Any]:
    """A JSON Schema (draft 2020-12) of the config file format, for editors and validation.

    Built-in rule names, frameworks, Python profilers and cProfile timers are ``enum``s, each
    built-in rule's parameters are listed (with descriptions) for completion, and every
    property has a ``description``. The loader is the authority: it also accepts rule names
    in any case and unquoted numbers where text is expected.

    >>> schema = config_schema()
    >>> schema["$schema"], "rules" in schema["properties"]
    ('https://json-schema.org/draft/2020-12/schema', True)
    """
    from sm_debug_config.model.settings import DEFAULTS_MODES

    refs = {
        "hook": "debugger_hook_config",
        "collections": "collections",
        "rules": "rules",
        "actions": "actions",
        "profiler_config": "profiler_config",
        "framework_profile": "framework_profile",
        "profiler": "profiler",
        "tensorboard": "tensorboard_output_config",
        "framework": "framework",
        "defaults": "defaults",
        "python_profiler": "python_profiler",
        "cprofile_timer": "cprofile_timer",
        "hook_parameters": "hook_parameters",
        "collection_parameters": "collection_parameters",
        "rule_parameters": "rule_parameters",
        "builtin_name": "builtin_name",
        "stop_training": "stop_training",
    }
    for class_name in ("DetailedProfilingConfig", "DataloaderProfilingConfig", "PythonProfilingConfig", "HorovodProfilingConfig", "SMDataParallelProfilingConfig"):
        refs[f"metric:{class_name}"] = class_name

    debugger_names = catalogue.all_names("debugger")
    profiler_names = catalogue.all_names("profiler")
    builtin_rule = _object(BUILTIN_RULE_KEYS, refs, required=("builtin",), description="A built-in rule from the catalogue.")
    conditions: List[Dict[str, Any]] = [
        {
            "if": {"properties": {"builtin": {"description": "A profiler rule.", "enum": profiler_names + [DETAILED_PROFILER_RULE]}}, "required": ["builtin"]},
            "then": {"properties": {key: False for key in _BUILTIN_DEBUGGER_ONLY}},
        },
        {
            "if": {"properties": {"builtin": {"description": "A debugger rule.", "enum": debugger_names}}, "required": ["builtin"]},
            "then": {"properties": {key: False for key in _BUILTIN_PROFILER_ONLY}},
        },
    ]
    for kind in catalogue.KINDS:
        for name, entry in catalogue.rules(kind).items():
            properties = _rule_parameter_properties(name, entry)
            if properties:
                conditions.append(
                    {
                        "if": {"properties": {"builtin": {"description": f"The {name} rule.", "const": name}}, "required": ["builtin"]},
                        "then": {"properties": {"rule_parameters": {"description": f"Parameters of {name}.", "properties": properties}}},
                    }
                )
    builtin_rule["allOf"] = conditions
    metric_defs = {}
    for class_name in ("DetailedProfilingConfig", "DataloaderProfilingConfig", "PythonProfilingConfig", "HorovodProfilingConfig", "SMDataParallelProfilingConfig"):
        table = {**METRIC_KEYS, **METRIC_EXTRA_KEYS.get(class_name, {})}
        metric_defs[class_name] = _object(table, refs, description=f"{class_name}: a step range (start_step, num_steps) or a time range (start_unix_time, duration).")

    action = {
        "description": "One rule action.",
        "type": "object",
        "properties": {
            "stop_training": {"$ref": "#/$defs/stop_training", "description": ACTION_KEYS["stop_training"][1]},
            "email": {"type": "string", "description": ACTION_KEYS["email"][1]},
            "sms": {"type": "string", "description": ACTION_KEYS["sms"][1]},
        },
        "additionalProperties": False,
        "minProperties": 1,
        "maxProperties": 1,
    }
    collection = {
        "description": "A collection: its name, or {name, parameters}.",
        "oneOf": [{"type": "string"}, _object(COLLECTION_KEYS, refs, required=("name",))],
    }
    defs: Dict[str, Any] = {
        "framework": {"description": "A training framework.", "type": "string", "enum": list(catalogue.FRAMEWORKS)},
        "defaults": {"description": "How defaults are filled in.", "type": "string", "enum": list(DEFAULTS_MODES)},
        "python_profiler": {"description": "A Python profiler.", "type": "string", "enum": _python_profilers()},
        "cprofile_timer": {"description": "A cProfile clock.", "type": "string", "enum": _cprofile_timers()},
        "builtin_name": {
            "description": "A built-in rule name.",
            "type": "string",
            "enum": catalogue.all_names() + [DETAILED_PROFILER_RULE],
        },
        "hook_parameters": {"description": "HookParameters.", **_hook_parameter_schema("hook")},
        "collection_parameters": {"description": "CollectionParameters.", **_hook_parameter_schema("collection")},
        "rule_parameters": {
            "description": "Rule parameters: names to strings, numbers, booleans, null or lists of them.",
            "type": ["object", "null"],
            "additionalProperties": {
                "type": ["string", "number", "boolean", "null", "array"],
                "items": {"type": ["string", "number", "boolean"]},
            },
        },
        "debugger_hook_config": {
            "description": "DebuggerHookConfig, or true/false.",
            "oneOf": [{"type": "boolean"}, {"type": "null"}, _object(HOOK_KEYS, refs)],
        },
        "collection": collection,
        "collections": {"description": "A list of collections.", "type": "array", "items": {"$ref": "#/$defs/collection"}},
        "stop_training": {
            "description": "StopTraining settings.",
            "oneOf": [{"type": "null"}, _object(STOP_TRAINING_KEYS, refs)],
        },
        "action": action,
        "actions": {
            "description": "One action, or a list of them (sent as an action list).",
            "oneOf": [{"$ref": "#/$defs/action"}, {"type": "array", "items": {"$ref": "#/$defs/action"}}],
        },
        "builtin_rule": builtin_rule,
        "custom_rule": _object(CUSTOM_RULE_KEYS, refs, required=_CUSTOM_REQUIRED, description="Your own debugger rule (Rule.custom)."),
        "custom_profiler_rule": _object(CUSTOM_PROFILER_RULE_KEYS, refs, required=_CUSTOM_REQUIRED, description="Your own profiler rule (ProfilerRule.custom)."),
        "rule": {
            "description": "A rule: a built-in rule name, {builtin: Name, ...}, {custom: {...}} or {custom_profiler: {...}}.",
            "oneOf": [
                {"$ref": "#/$defs/builtin_name"},
                {"$ref": "#/$defs/builtin_rule"},
                {
                    "type": "object",
                    "properties": {"custom": {"$ref": "#/$defs/custom_rule", "description": "Your own debugger rule (Rule.custom)."}},
                    "required": ["custom"],
                    "additionalProperties": False,
                },
                {
                    "type": "object",
                    "properties": {"custom_profiler": {"$ref": "#/$defs/custom_profiler_rule", "description": "Your own profiler rule (ProfilerRule.custom)."}},
                    "required": ["custom_profiler"],
                    "additionalProperties": False,
                },
            ],
        },
        "rules": {"description": "A list of rules.", "type": ["array", "null"], "items": {"$ref": "#/$defs/rule"}},
        "profiler_config": {"description": "ProfilerConfig.", "type": ["object", "null"], **{k: val for k, val in _object(PROFILER_CONFIG_KEYS, refs).items() if k != "type"}},
        "framework_profile": _object(FRAMEWORK_PROFILE_KEYS, refs, description="FrameworkProfile."),
        "profiler": _object(PROFILER_KEYS, refs, description="The SageMaker Profiler."),
        "tensorboard_output_config": _object(TENSORBOARD_KEYS, refs, required=("s3_output_path",), description="TensorBoardOutputConfig."),
        **metric_defs,
    }
    top = _object(TOP_KEYS, refs)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "sm-debug-config configuration file",
        "description": "SageMaker Debugger settings of a training job, mirroring the sm_debug_config Python API.",
        **top,
        "$defs": defs,
    }
