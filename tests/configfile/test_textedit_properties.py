"""Properties of text edits over generated YAML and JSON files (block and flow styles, every quoting style, comments,
CRLF): an edit changes no character outside its span, the edited text still parses, and it reads back as the
document with the change made; in these files every kind of change is placed."""
from __future__ import annotations

import copy
import json
from typing import Any, List, Tuple

from hypothesis import assume, given
from hypothesis import strategies as st

from sm_debug_config.configfile import read_text
from sm_debug_config.fixes import PREFIX, REMOVE, RENAME, SET, Change
from tests.configfile.cfhelpers import YamlEmitter
from tests.strategies import examples

KEYS = st.sampled_from(["a", "b", "num_steps", "save_interval", "s3_output_path", "rule_parameters", "x1"])
TEXT = st.text(alphabet=st.sampled_from(list("abz09 :#,'\"-/*{}[]é\\")), min_size=0, max_size=8)
SCALARS = st.one_of(TEXT, st.integers(-5, 50), st.booleans(), st.none(), st.sampled_from(["20", "true", "1.5"]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(KEYS, inner, max_size=3)), max_leaves=10)
DOCUMENTS = st.dictionaries(KEYS, VALUES, min_size=1, max_size=4)


@st.composite
def yaml_files(draw: Any) -> Tuple[str, Any]:
    document = draw(DOCUMENTS)
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    return YamlEmitter(draw, newline).document(document), document


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
