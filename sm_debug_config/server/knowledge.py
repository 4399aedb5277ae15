"""Hover and completion: what the catalogue and the config format say, at the place the cursor is.

Everything shown comes from the package's data, as ``sm-debug-config rules show`` shows it: the built-in rules
(``rule_configs/*_rules.json`` through :mod:`sm_debug_config.model.catalogue`), the hook's parameters and built-in
collections (``data/hook_parameters.json``, ``rule_configs/collections.json``, what each saves:
``data/collection_descriptions.json``) and the config file's keys (``data/config_format.json`` through
:mod:`sm_debug_config.configfile.format`). Where the cursor is comes from the
text before it: the enclosing ``Rule.sagemaker(rule_configs.x(), rule_parameters={...})`` or
``CollectionConfig(...)`` call of a Python source, the key path of a YAML or JSON config file.
"""
from __future__ import annotations

import functools
import re
from typing import Any, Dict, List, Optional, Tuple

from lsprotocol import types

from sm_debug_config import datafiles
from sm_debug_config.configfile import format as fmt
from sm_debug_config.model import catalogue
from sm_debug_config.server.checking import LINT
from sm_debug_config.server.text import TextLines

__all__ = ["collection_names", "completion", "hover", "key_path"]

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_RULE_CALL = re.compile(r"rule_configs\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(")
_BUILTIN = re.compile(r"""["']?builtin["']?\s*:\s*["']?([A-Za-z_][A-Za-z0-9_]*)""")
_RULE_PARAMETERS = re.compile(r"rule_parameters\s*=\s*(?:dict\s*\(|\{)")
_COLLECTION_CALL = re.compile(r"CollectionConfig\s*\(")
#: How far back the cursor's context is looked for (a call spans a few lines; a config file's key path, its file).
_WINDOW = 4000


@functools.lru_cache(maxsize=None)
def _hook() -> Dict[str, Any]:
    return datafiles.load("hook_parameters")  # type: ignore[no-any-return]


@functools.lru_cache(maxsize=None)
def collection_names() -> Dict[str, List[str]]:
    """Every built-in collection name and the frameworks it is built into (``data/hook_parameters.json``)."""
    out: Dict[str, List[str]] = {}
    for framework, entry in _hook()["frameworks"].items():
        for name in entry.get("builtin_collections", ()):
            out.setdefault(name, []).append(framework)
    return out


def _rule(name: str) -> Optional[Tuple[str, Dict[str, Any]]]:
    """``(catalogue name, entry)`` of the rule a ``rule_configs`` function or a catalogue name names."""
    real = catalogue.by_function(name) or name
    found = catalogue.lookup(real)
    if found is None or (real != found[1] and not catalogue.by_function(name)):
        return None  # a name in another case is no built-in rule's name as written
    return found[1], catalogue.rules(found[0])[found[1]]


def _rule_text(name: str) -> str:
    real, entry = _rule(name) or (name, {})
    info = catalogue.describe(real)
    reads = entry.get("reads") or {}
    read = list(reads.get("collections") or []) + [f"those named by its {p} parameter"
                                                   for p in reads.get("collection_parameters") or []]
    page = catalogue.format_description(info)
    if read:
        page += "\ncollections it reads: " + ", ".join(read)
    return f"```text\n{page}\n```"


def _parameter_text(rule: str, key: str) -> Optional[str]:
    found = _rule(rule)
    if found is None:
        return None
    real, _ = found
    spec = next((p for p in catalogue.describe(real)["parameters"] if p["name"] == key), None)
    if spec is None:
        return None
    lines = [f"**{key}** — a parameter of the built-in rule {real}", "", spec["description"] or "",
             "", f"allowed: {spec['allowed']}"]
    if spec["default"] is not None:
        lines.append(f"default: {spec['default']!r}")
    if spec["doc_default"] is not None and spec["doc_default"] != spec["default"]:
        lines.append(f"the developer guide's default: {spec['doc_default']!r}")
    if spec["set_by"] == "SageMaker":
        lines.append("set by SageMaker: not yours to give")
    return "\n".join(lines)


def _hook_parameter_text(key: str) -> Optional[str]:
    spec = _hook()["parameters"].get(key)
    if spec is None:
        return None
    out = [f"**{key}** — a hook or collection parameter (what the training job's smdebug hook reads)", "",
           spec.get("description", ""), "", f"type: {spec.get('type')}"]
    if "default" in spec:
        out.append(f"default: {spec['default']!r}")
    return "\n".join(out)


def _collection_text(name: str) -> Optional[str]:
    frameworks = collection_names().get(name)
    if frameworks is None:
        return None
    hook = _hook()
    stored = datafiles.load_catalogue("collections")["collections"].get(name) or {}
    parameters = stored.get("CollectionParameters", stored)
    saves = datafiles.load("collection_descriptions")["collections"].get(name)
    out = [f"**{name}** — a built-in collection of smdebug's hook", ""]
    if saves:
        out += [f"saves {saves}", ""]
    out.append(f"built into: {', '.join(frameworks)}")
    by_default = [f for f, entry in hook["frameworks"].items() if name in entry.get("saved_by_default", ())]
    if by_default:
        out.append(f"saved without being asked for: {', '.join(by_default)}")
    if name in hook["scalar_collections"]:
        out.append("holds scalars (losses, metrics): saved as scalars, not tensors")
    if parameters.get("include_regex"):
        out.append(f"saves the tensors whose names match `{parameters['include_regex']}`")
    if parameters.get("save_interval"):
        out.append(f"the rules' default save_interval for it: {parameters['save_interval']}")
    readers = sorted(real for real, entry in catalogue.rules("debugger").items()
                     if name in ((entry.get("reads") or {}).get("collections") or ()))
    if readers:
        out.append(f"read by the built-in rules: {', '.join(readers)}")
    return "\n".join(out)


def _word_at(line: str, character: int) -> Optional[Tuple[int, int, str]]:
    for match in _WORD.finditer(line):
        if match.start() <= character <= match.end():
            return match.start(), match.end(), match.group()
    return None


def hover(text: str, position: types.Position, encoding: str = "utf-16") -> Optional[types.Hover]:
    """What the word at ``position`` is: a built-in rule (its page, parameters, defaults, what it reads), a
    parameter of the rule it is written for, a hook parameter, or a built-in collection (what it saves)."""
    lines = TextLines(text, encoding)
    offset = lines.offset_of(position.line, position.character)
    line_start = lines.starts[min(position.line, len(lines.starts) - 1)]
    found = _word_at(lines.line(position.line), offset - line_start)
    if found is None:
        return None
    start, end, word = found
    before = text[max(0, line_start + start - _WINDOW):line_start + start]
    quoted = line_start + start > 0 and text[line_start + start - 1] in "\"'"
    value: Optional[str] = None
    if _rule(word) is not None and (re.search(r"rule_configs\s*\.\s*$", before) or not re.match(r"[a-z]", word)):
        value = _rule_text(word)
    if value is None:
        rule = _enclosing_rule(before)
        value = _parameter_text(rule, word) if rule else None
    if value is None and (quoted or text[line_start + end:line_start + end + 1] != "("):
        value = _collection_text(word) if (quoted or _after_colon(text, line_start + start)) else None
        value = value or _hook_parameter_text(word)
    if value is None:
        return None
    at = types.Range(types.Position(*lines.position_of(line_start + start)),
                     types.Position(*lines.position_of(line_start + end)))
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=value), range=at)


def _after_colon(text: str, offset: int) -> bool:
    """Whether ``offset`` is a YAML value or list item (``name: weights``, ``- weights``)."""
    head = text[text.rfind("\n", 0, offset) + 1:offset]
    return bool(re.search(r"(:\s*|^\s*-\s*|\[\s*|,\s*)$", head))


def _enclosing_rule(before: str) -> Optional[str]:
    """The built-in rule the text before the cursor is inside: the last ``rule_configs.x(`` or ``builtin: X``."""
    calls = list(_RULE_CALL.finditer(before))
    builtins = list(_BUILTIN.finditer(before))
    last = max(calls + builtins, key=lambda match: match.start(), default=None)
    return last.group(1) if last is not None else None


def _open_at(text: str, opener: "re.Pattern[str]") -> Optional[int]:
    """Where the last ``opener`` (a call or a dict) still open at the end of ``text`` starts."""
    for match in reversed(list(opener.finditer(text))):
        depth = 0
        for char in text[match.end():]:
            depth += char in "([{"
            depth -= char in ")]}"
            if depth < 0:
                break
        if depth >= 0:
            return match.start()
    return None


def _in_string(line_before: str) -> Optional[str]:
    """The quote of the string the cursor is in on its line, else None."""
    quote: Optional[str] = None
    for char in line_before:
        if quote is None and char in "\"'":
            quote = char
        elif char == quote:
            quote = None
    return quote


def completion(text: str, position: types.Position, command: Optional[str],
               encoding: str = "utf-16") -> Optional[types.CompletionList]:
    """Rule parameter names inside ``rule_parameters={...}`` of a built-in rule, built-in collection names in
    ``CollectionConfig(...)`` and where a config file names collections, and a config file's keys."""
    lines = TextLines(text, encoding)
    offset = lines.offset_of(position.line, position.character)
    before = text[max(0, offset - _WINDOW):offset]
    line_before = text[text.rfind("\n", 0, offset) + 1:offset]
    items: List[types.CompletionItem] = []
    if command == LINT:
        quote = _in_string(line_before)
        parameters_at = _open_at(before, _RULE_PARAMETERS)
        collection_at = _open_at(before, _COLLECTION_CALL)
        if parameters_at is not None and (collection_at is None or collection_at < parameters_at):
            rule = _enclosing_rule(before[:parameters_at])
            items = _parameter_items(rule, quote) if rule else []
        elif collection_at is not None and quote is not None:
            items = _collection_items()
    else:
        path, at_key = key_path(text, offset)
        items = _config_items(text[:offset], path, at_key)
    return types.CompletionList(is_incomplete=False, items=items) if items else None


def _parameter_items(rule: str, quote: Optional[str]) -> List[types.CompletionItem]:
    found = _rule(rule)
    if found is None:
        return []
    real, entry = found
    out = []
    for name, spec in catalogue.user_parameters(entry).items():
        default = f" (default {spec['default']!r})" if spec.get("default") is not None else ""
        out.append(types.CompletionItem(
            label=name, kind=types.CompletionItemKind.Property, detail=f"{real} parameter{default}",
            documentation=spec.get("description"), insert_text=name if quote else f'"{name}": '))
    return out


def _collection_items() -> List[types.CompletionItem]:
    return [types.CompletionItem(label=name, kind=types.CompletionItemKind.EnumMember,
                                 detail="built-in collection (" + ", ".join(frameworks) + ")")
            for name, frameworks in sorted(collection_names().items())]


def _config_items(before: str, path: List[Any], at_key: bool) -> List[types.CompletionItem]:
    """Keys of the object at ``path`` (``at_key``), or the values a key takes (rule and collection names)."""
    if not at_key:
        last = next((part for part in reversed(path) if isinstance(part, str)), None)
        if last == "builtin":
            return [types.CompletionItem(label=name, kind=types.CompletionItemKind.EnumMember,
                                         detail=f"built-in {kind} rule")
                    for kind in catalogue.KINDS for name in catalogue.rules(kind)]
        if last in ("collection_configs", "collections_to_save", "collection_names") or (
                last == "name" and _format_at(path[:-1]) == "collection"):
            return _collection_items()
        return []
    if path and path[-1] == "rule_parameters":
        rule = _enclosing_rule(before)
        return _parameter_items(rule, "'") if rule else []
    if path and path[-1] in ("hook_parameters", "parameters"):
        return [types.CompletionItem(label=name, kind=types.CompletionItemKind.Property,
                                     documentation=spec.get("description"))
                for name, spec in _hook()["parameters"].items()]
    form = _format_at(path)
    if form is None:
        return []
    return [types.CompletionItem(label=key.name, kind=types.CompletionItemKind.Property, documentation=key.doc)
            for key in fmt.formats()[form].keys.values()]


#: A key's value kind -> the format of each item of its list (the config format's ``rules`` and ``collections``).
_ITEMS = {"rules": "builtin_rule", "collections": "collection"}


def _format_at(path: List[Any]) -> Optional[str]:
    """The config format's object kind at ``path`` (keys and list indexes from the top), None where it has none."""
    formats = fmt.formats()
    form: Optional[str] = "config"
    kind: Optional[str] = None
    for part in path:
        if isinstance(part, int):
            form, kind = _ITEMS.get(kind or ""), None
        else:
            key = formats[form].keys.get(part) if form is not None else None
            if key is None:
                return None
            kind = key.kind
            form = kind if kind in formats else None
        if form is None and kind is None:
            return None
    return form


_KEY_LINE = re.compile(r"^(\s*)([\"']?)([^\s:\"'#\-][^:#]*?)\2\s*:(?=\s|$)")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def key_path(text: str, offset: int) -> Tuple[List[Any], bool]:
    """The keys (and list items, as 0) from the top of a YAML or JSON config file to the cursor at ``offset``,
    and whether the cursor is where a key is written (not a value).

    >>> text = "rules:\\n  - builtin: VanishingGradient\\n    rule_parameters:\\n      thr"
    >>> key_path(text, len(text))
    (['rules', 0, 'rule_parameters'], True)
    >>> key_path('{"rules": [{"builtin": "Van', 27)
    (['rules', 0, 'builtin'], False)
    """
    if text.lstrip().startswith("{"):
        return _json_path(text[:offset])
    line_start = text.rfind("\n", 0, offset) + 1
    current = text[line_start:offset]
    indent = _indent(current)
    body = current[indent:]
    path: List[Any] = []
    if body.startswith("-"):  # a list item: its first key, or a value
        path.append(0)
        body = body[1:].lstrip(" ")
    found = _KEY_LINE.match(body)
    if found:
        path.append(found.group(3))
    at_key = found is None and not (path and not body)
    for line in reversed(text[:line_start].split("\n")):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        width = _indent(line)
        if width >= indent:
            continue
        if stripped.startswith("-"):
            path.insert(0, 0)
        else:
            key = _KEY_LINE.match(line)
            if key is None:
                continue
            path.insert(0, key.group(3))
        indent = width
        if indent == 0:
            break
    return path, at_key


def _json_path(before: str) -> Tuple[List[Any], bool]:
    """:func:`key_path` of a JSON text up to the cursor."""
    frames: List[List[Any]] = []  # [kind "{" or "[", key or index, after the key's colon]
    index = 0
    while index < len(before):
        char = before[index]
        top = frames[-1] if frames else None
        if char == '"':
            end = index + 1
            while end < len(before) and before[end] != '"':
                end += 2 if before[end] == "\\" else 1
            if top is not None and top[0] == "{" and not top[2]:
                top[1] = before[index + 1:end]
            index = end + 1
            continue
        if char in "{[":
            frames.append([char, None if char == "{" else 0, False])
        elif char in "}]" and frames:
            frames.pop()
        elif char == ":" and top is not None and top[0] == "{":
            top[2] = True
        elif char == "," and top is not None:
            if top[0] == "{":
                top[1], top[2] = None, False
            else:
                top[1] += 1
        index += 1
    path: List[Any] = []
    at_key = False
    for position, (kind, key, after_colon) in enumerate(frames):
        last = position == len(frames) - 1
        if kind == "[":
            path.append(0)
        elif after_colon:
            path.append(key)
        elif last:
            at_key = True
    return path, at_key
