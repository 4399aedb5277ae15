"""Edits of text held in a string, carried into the file with that string's escaping
(:mod:`sm_debug_config.stringedit`): for generated JSON documents held in a JSON string, a YAML double-quoted
scalar or a YAML ``|`` block (CRLF too), each change kind made by the JSON editor inside, carried through the host,
gives a file whose string reads back as :meth:`Fix.apply` of the document, no byte outside the edits changed;
``Fn::Sub`` text is written with ``${!``; a string this module cannot account for has no host."""
from __future__ import annotations

import json
from typing import Any, List, Tuple

import yaml
from hypothesis import given
from hypothesis import strategies as st

from sm_debug_config.configfile.jsonparse import JsonText
from sm_debug_config.configfile.textedit import JsonEditor
from sm_debug_config.fixes import PREFIX, REMOVE, RENAME, SET, Change, Edit, Fix
from sm_debug_config.limits import json_loads
from sm_debug_config.stringedit import fn_sub_literal, host_string
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
        return Change(RENAME, path, data.draw(KEYS.filter(lambda k: k not in parent)))
    if kind == REMOVE:
        return Change(REMOVE, path)
    return Change(kind, path, data.draw(st.text("ab1 :/'\"é{}", max_size=5) if kind == PREFIX else SCALARS))


def _hosted(style: str, inner: str, newline: str) -> Tuple[str, int, int]:
    """A file holding ``inner`` in a string of ``style``, and the span of that string."""
    if style == "json":
        text = '{"Body": {"Fn::Sub": ' + json.dumps(inner, ensure_ascii=False) + "}}\n"
        return text, text.index('": "') + 3, len(text) - 3
    if style == "double":
        text = "Body: # held\n  " + json.dumps(inner, ensure_ascii=False) + "  # kept\nNext: 1\n"
        start = text.index('"')
        return text, start, text.index("  # kept")
    lines = inner.split("\n")
    text = "Body: |  # a block\n" + "".join("    " + line + "\n" for line in lines) + "Next: 1\n"
    text = text.replace("\n", newline)
    start = text.index("|")
    return text, start, text.index("Next:")


def _read(style: str, text: str) -> str:
    if style == "json":
        return json.loads(text)["Body"]["Fn::Sub"]  # type: ignore[no-any-return]
    return yaml.safe_load(text)["Body"]  # type: ignore[no-any-return]


@examples(200)
@given(DOCUMENTS, st.sampled_from(["json", "double", "block"]), st.sampled_from(["\n", "\r\n"]),
       st.sampled_from([None, 2]), st.data())
def test_an_edit_of_json_held_in_a_string_reads_back_as_the_fixed_document(document, style, newline, indent, data):
    inner = json.dumps(document, indent=indent, ensure_ascii=False)
    text, start, end = _hosted(style, inner, newline)
    assert _read(style, text).rstrip("\n") == inner
    host = host_string(text, start, end, _read(style, text))
    assert host is not None
    change = _change(data, document)
    read_inner = _read(style, text)
    edits = JsonEditor(JsonText(read_inner), json_loads(read_inner), json_loads).edits(change)
    if edits is None:
        return  # what the JSON editor does not place (fixtext's tests say which)
    carried = [host.edit(edit) for edit in edits]
    assert None not in carried
    after = text
    for edit in sorted(carried, key=lambda e: -e.start):  # type: ignore[union-attr]
        after = edit.apply(after)  # type: ignore[union-attr]
    assert json.loads(_read(style, after)) == Fix("safe", "t", (change,)).apply(document)
    _kept_outside(text, after, carried)  # type: ignore[arg-type]
    assert (after.count("\r\n") == after.count("\n")) == (text.count("\r\n") == text.count("\n"))


def _kept_outside(before: str, after: str, edits: List[Edit]) -> None:
    cursor, rebuilt = 0, []
    for edit in sorted(edits, key=lambda e: e.start):
        assert edit.start >= cursor
        rebuilt += [before[cursor:edit.start], edit.content]
        cursor = edit.end
    assert "".join(rebuilt) + before[cursor:] == after


def test_json_held_in_a_yaml_double_quoted_sub_string_is_edited_with_its_escapes():
    text = 'Body: !Sub "{\\"a\\": 1, \\"b\\": \\"${X}\\"}"  # kept\n'
    value = yaml.safe_load(text.replace("!Sub ", ""))["Body"]
    host = host_string(text, text.index('"'), text.index("  # kept"), value)
    assert host is not None
    (edit,) = JsonEditor(JsonText(value), json.loads(value), json.loads).edits(Change(SET, ("c",), "${Y}")) or []
    placed = host.edit(edit, fn_sub_literal)
    assert placed is not None
    assert placed.apply(text) == 'Body: !Sub "{\\"a\\": 1, \\"b\\": \\"${X}\\", \\"c\\": \\"${!Y}\\"}"  # kept\n'


def test_a_single_quoted_host_takes_no_line_break():
    text = "Body: '{\"a\": 1}'\n"
    host = host_string(text, text.index("'"), len(text) - 1, '{"a": 1}')
    assert host is not None
    assert host.edit(Edit(1, 1, "\n")) is None
    assert host.edit(Edit(1, 1, "'")).apply(text) == "Body: '{''\"a\": 1}'\n"  # type: ignore[union-attr]


def test_a_string_this_module_cannot_account_for_has_no_host():
    folded = "Body: >\n  {\"a\":\n  1}\n"
    assert host_string(folded, folded.index(">"), len(folded), yaml.safe_load(folded)["Body"]) is None
    multi = 'Body: "{\\"a\\":\n  1}"\n'
    assert host_string(multi, multi.index('"'), len(multi) - 1, yaml.safe_load(multi)["Body"]) is None
    assert host_string('"ab"', 0, 4, "ax") is None  # a value other than what is written
