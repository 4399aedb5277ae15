"""Properties of text edits over generated YAML and JSON files (block and flow styles, every quoting style, comments,
CRLF): an edit changes no character outside its span, the edited text still parses, and it reads back as the
document with the change made; in these files every kind of change is placed."""
from __future__ import annotations

import copy
import json
import re
from typing import Any, List, Tuple

from hypothesis import assume, given
from hypothesis import strategies as st

from sm_debug_config.configfile import read_text
from sm_debug_config.configfile.textedit import _plain_ok
from sm_debug_config.fixes import PREFIX, REMOVE, RENAME, SET, Change
from tests.strategies import examples

KEYS = st.sampled_from(["a", "b", "num_steps", "save_interval", "s3_output_path", "rule_parameters", "x1"])
TEXT = st.text(alphabet=st.sampled_from(list("abz09 :#,'\"-/*{}[]é\\")), min_size=0, max_size=8)
SCALARS = st.one_of(TEXT, st.integers(-5, 50), st.booleans(), st.none(), st.sampled_from(["20", "true", "1.5"]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(KEYS, inner, max_size=3)), max_leaves=10)
DOCUMENTS = st.dictionaries(KEYS, VALUES, min_size=1, max_size=4)


class Emitter:
    """YAML text of a document, each node's style drawn: block or flow, plain or quoted, comments here and there."""

    def __init__(self, draw: Any, newline: str) -> None:
        self.draw, self.nl = draw, newline

    def comment(self) -> str:
        return "  # note" if self.draw(st.integers(0, 4)) == 0 else ""

    def scalar(self, value: Any, flow: bool) -> str:
        if value is None:
            return self.draw(st.sampled_from(["null", "~"]))
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int):
            return str(value)
        styles = ["'", '"'] + (["plain"] if _plain_ok(value, flow) else [])
        style = self.draw(st.sampled_from(styles))
        if style == "plain":
            return value
        if style == "'":
            return "'" + value.replace("'", "''") + "'"
        return json.dumps(value, ensure_ascii=False)

    def flow(self, value: Any) -> str:
        if isinstance(value, dict):
            return "{" + ", ".join(f"{self.scalar(k, True)}: {self.flow(v)}" for k, v in value.items()) + "}"
        if isinstance(value, list):
            return "[" + ", ".join(self.flow(v) for v in value) + "]"
        return self.scalar(value, True)

    def block(self, value: Any, indent: int) -> List[str]:
        """The lines of a non-empty mapping or list in block style at ``indent``."""
        pad, lines = " " * indent, []
        if self.draw(st.integers(0, 5)) == 0:
            lines.append(pad + "# a comment line")
        for key, item in (value.items() if isinstance(value, dict) else enumerate(value)):
            head = f"{pad}{self.scalar(key, False)}:" if isinstance(value, dict) else f"{pad}-"
            if isinstance(item, dict) and item and head.endswith("-") and self.draw(st.booleans()):
                inner = self.block(item, indent + 2)  # a compact mapping: its first key on the dash's line
                lines.append(f"{head} {inner[0].lstrip()}")
                lines.extend(inner[1:])
            elif isinstance(item, (dict, list)) and item and self.draw(st.booleans()):
                inner = self.block(item, indent + 2)
                lines.append(head + self.comment())
                lines.extend(inner)
            elif isinstance(item, str) and re.fullmatch(r"[a-z0-9]+( [a-z0-9]+)*", item) and self.draw(st.booleans()):
                lines.append(f"{head} |-{self.comment()}")  # a literal block scalar, its line break stripped
                lines.append(f"{pad}  {item}")
            elif isinstance(item, (dict, list)):
                lines.append(f"{head} {self.flow(item)}{self.comment()}")
            else:
                lines.append(f"{head} {self.scalar(item, False)}{self.comment()}")
        return lines

    def document(self, value: Any) -> str:
        return self.nl.join(self.block(value, 0)) + self.draw(st.sampled_from([self.nl, ""]))


@st.composite
def yaml_files(draw: Any) -> Tuple[str, Any]:
    document = draw(DOCUMENTS)
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    return Emitter(draw, newline).document(document), document


@st.composite
def json_files(draw: Any) -> Tuple[str, Any]:
    document = draw(DOCUMENTS)
    indent = draw(st.sampled_from([None, 2, 4]))
    text = json.dumps(document, indent=indent, ensure_ascii=draw(st.booleans()))
    return text.replace("\n", draw(st.sampled_from(["\n", "\r\n"]))), document


def _members(value: Any, path: Tuple[Any, ...] = ()) -> List[Tuple[Tuple[Any, ...], Any]]:
    out = []
    for key, item in (value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list)
                      else ()):
        out.append((path + (key,), item))
        out.extend(_members(item, path + (key,)))
    return out


@st.composite
def changes(draw: Any, document: Any) -> Change:
    members = _members(document)
    path, value = draw(st.sampled_from(members))
    parent = document
    for part in path[:-1]:
        parent = parent[part]
    kinds = [SET, REMOVE] + ([RENAME] if isinstance(parent, dict) else []) + (
        [PREFIX] if isinstance(value, str) else [])
    adding = [p for p, v in [((), document)] + members if isinstance(v, dict)]
    kind = draw(st.sampled_from(kinds + ["add"]))
    if kind == "add":
        where = draw(st.sampled_from(adding))
        container = document
        for part in where:
            container = container[part]
        key = draw(KEYS.filter(lambda k: k not in container))
        return Change(SET, where + (key,), draw(VALUES))
    if kind == RENAME:
        return Change(RENAME, path, draw(KEYS.filter(lambda k: k not in parent)))
    if kind == PREFIX:
        return Change(PREFIX, path, draw(st.sampled_from(["s3://", "x", "'", '"', "# "])))
    return Change(kind, path, None if kind == REMOVE else draw(VALUES))


def _check(text: str, name: str, change: Change) -> None:
    found = read_text(text, name)
    edits = found.edits(change)
    assert edits is not None, (text, change)
    out = found.text
    for edit in sorted(edits, key=lambda e: e.start, reverse=True):
        before = out
        out = edit.apply(out)
        assert out[:edit.start] == before[:edit.start]
        assert out[edit.start + len(edit.content):] == before[edit.end:]
    expected = copy.deepcopy(found.document)
    change.apply(expected)
    assert read_text(out, name).document == expected


@examples(300)
@given(data=st.data(), file=yaml_files())
def test_yaml_edits_touch_only_their_span_and_read_back_changed(data, file):
    text, document = file
    assume(read_text(text, "g.yaml").document == document)  # the emitter wrote what it was given
    _check(text, "g.yaml", data.draw(changes(document)))


@examples(300)
@given(data=st.data(), file=json_files())
def test_json_edits_touch_only_their_span_and_read_back_changed(data, file):
    text, document = file
    _check(text, "g.json", data.draw(changes(document)))
