"""Edits of JSON and YAML text at a member's span (:mod:`sm_debug_config.textedit`): for generated documents written
as JSON (any indentation) and as block YAML with comments, each change kind at a generated path gives a text that
reads back as :meth:`Fix.apply` of the document, with every byte outside the edit unchanged and the comments kept;
host strings carry an edit of the text they hold with their escaping; an alias's node is never edited."""
from __future__ import annotations

import json
from typing import Any, List, Tuple

import yaml
from hypothesis import assume, given
from hypothesis import strategies as st

from sm_debug_config.fixes import PREFIX, REMOVE, RENAME, SET, Change, Edit, Fix
from sm_debug_config.textedit import JsonTree, YamlTree, change_edits, fn_sub_literal
from tests.strategies import examples

KEYS = st.text("abcdeé_ ", min_size=1, max_size=5).filter(lambda k: k.strip() == k)
SCALARS = st.one_of(st.integers(-99, 99), st.booleans(), st.none(), st.text("ab01 :#'\"\\é\n", max_size=6))
DOCUMENTS = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, min_size=1, max_size=3),
                            st.dictionaries(KEYS, inner, min_size=1, max_size=3)),
    max_leaves=12,
).filter(lambda d: isinstance(d, dict))


def _paths(value: Any, path: Tuple[Any, ...] = ()) -> List[Tuple[Any, ...]]:
    out = [path] if path else []
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _paths(item, path + (index,))
    return out


def _at(document: Any, path: Tuple[Any, ...]) -> Any:
    for part in path:
        document = document[part]
    return document


def _change(data: Any, document: Any) -> Change:
    path = data.draw(st.sampled_from(_paths(document)))
    parent = _at(document, path[:-1])
    kinds = [SET, REMOVE] + ([RENAME] if isinstance(parent, dict) else []) + (
        [PREFIX] if isinstance(_at(document, path), str) else [])
    kind = data.draw(st.sampled_from(kinds))
    if kind == RENAME:
        new = data.draw(KEYS.filter(lambda k: k not in parent))
        return Change(RENAME, path, new)
    if kind == REMOVE:
        return Change(REMOVE, path)
    return Change(kind, path, data.draw(st.text("ab1 :/'\"é", max_size=5) if kind == PREFIX else SCALARS))


def _applied(text: str, edits: List[Edit]) -> str:
    for edit in sorted(edits, key=lambda e: -e.start):
        text = edit.apply(text)
    return text


def _kept_outside(before: str, after: str, edits: List[Edit]) -> None:
    """No character outside the edits' spans changed: the text between them is the text as it was."""
    cursor, rebuilt = 0, []
    for edit in sorted(edits, key=lambda e: e.start):
        assert edit.start >= cursor
        rebuilt += [before[cursor:edit.start], edit.content]
        cursor = edit.end
    assert "".join(rebuilt) + before[cursor:] == after


@examples(200)
@given(DOCUMENTS, st.sampled_from([None, 1, 2, 4]), st.data())
def test_a_change_to_json_text_reads_back_as_the_fixed_document(document, indent, data):
    change = _change(data, document)
    text = json.dumps(document, indent=indent, ensure_ascii=False)
    edits = change_edits(JsonTree(text), change.kind, change.path, change.value)
    expected = Fix("safe", "t", (change,)).apply(document)
    if edits is None:  # only an absent member with no sibling to follow, or a removal of an object's last member
        assert change.kind == SET and change.path[-1] not in _at(document, change.path[:-1])
        return
    after = _applied(text, edits)
    assert json.loads(after) == expected
    _kept_outside(text, after, edits)


@examples(200)
@given(DOCUMENTS, st.data())
def test_a_change_to_block_yaml_reads_back_as_the_fixed_document_and_keeps_its_comments(document, data):
    change = _change(data, document)
    assume(not (change.kind == REMOVE and len(_at(document, change.path[:-1])) == 1))  # an empty block: {} needed
    lines = yaml.safe_dump(document, default_flow_style=False, allow_unicode=True).splitlines()
    text = "".join(line + ("  # note\n" if line.rstrip().endswith(":") and "'" not in line and '"' not in line
                           else "\n") for line in lines)
    if _loads(text) != document:  # a "key:" line that was a quoted scalar's continuation: no comments then
        text = "".join(line + "\n" for line in lines)
    edits = change_edits(YamlTree(text), change.kind, change.path, change.value)
    if edits is None:
        return  # a member written where this module does not place it (a list item's only key, a folded scalar)
    after = _applied(text, edits)
    assert yaml.safe_load(after) == Fix("safe", "t", (change,)).apply(document)
    assert after.count("  # note") == text.count("  # note") - _removed_notes(text, edits)
    _kept_outside(text, after, edits)


def _loads(text: str) -> Any:
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return None


def _removed_notes(text: str, edits: List[Edit]) -> int:
    return sum(text[e.start:e.end].count("  # note") for e in edits)


def test_a_yaml_alias_is_never_edited():
    text = "base: &b {num_steps: 20}\nrule: *b\n"
    tree = YamlTree(text)
    assert change_edits(tree, SET, ("rule", "num_steps"), "20") is None
    assert change_edits(tree, SET, ("base", "num_steps"), "20") is None


def test_json_held_in_a_yaml_double_quoted_string_is_edited_with_its_escapes():
    text = 'Body: !Sub "{\\"a\\": 1, \\"b\\": \\"${X}\\"}"  # kept\n'
    host = YamlTree(text, {"!Sub": "Fn::Sub"}).string(("Body", "Fn::Sub"))
    inner = JsonTree(yaml.safe_load(text.replace("!Sub ", ""))["Body"])
    (edit,) = change_edits(inner, SET, ("c",), "${Y}") or []
    placed = host.edit(edit, fn_sub_literal)
    assert placed is not None
    assert placed.apply(text) == 'Body: !Sub "{\\"a\\": 1, \\"b\\": \\"${X}\\", \\"c\\": \\"${!Y}\\"}"  # kept\n'


def test_a_single_quoted_host_takes_no_line_break():
    text = "Body: '{\"a\": 1}'\n"
    host = YamlTree(text).string(("Body",))
    assert host is not None
    assert host.edit(Edit(1, 1, "\n")) is None
    assert host.edit(Edit(1, 1, "'")).apply(text) == "Body: '{''\"a\": 1}'\n"  # type: ignore[union-attr]
