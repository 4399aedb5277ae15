"""configfile.strings: each character of a string value placed in the file, whatever the scalar's style."""
from __future__ import annotations

import json

import pytest
import yaml
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from sm_debug_config.configfile.document import parse_text
from sm_debug_config.configfile.strings import StringPositions, line_starts
from tests.strategies import examples

TAGS = {"!Sub": "Fn::Sub"}


def _places(text: str, path, fmt=None):
    parsed = parse_text(text, "t." + (fmt or "yaml"), fmt, require_mapping=False, tags=TAGS)
    return parsed.data(), parsed.string_positions(path)


def _char_at(text: str, where) -> str:
    line, column = where
    return _lines(text)[line - 1][column - 1]


def _lines(text):
    """The lines of ``text`` as YAML counts them (a ``\\r\\n`` is one break)."""
    starts = line_starts(text)
    return [text[a:b] for a, b in zip(starts, starts[1:] + [len(text)])]


# (the scalar as written in a file, the path of the string, the character asked for, what the file has there)
STYLES = {
    "literal": ("Body: !Sub |\n  {\n    \"a\": \"${X}\", \"b\": 1\n  }\n", ("Body", "Fn::Sub"), '"b"', '"b"'),
    "literal strip, indicator and comment": (
        "Body: |2- # the body\n    {\"a\":\n   \"b\"}\n", ("Body",), '"b"', '"b"'),
    "folded": ("Body: >\n  {\"a\": 1,\n   \"b\": 2}\n\n  {\"c\": 3}\n", ("Body",), '"c"', '"c"'),
    "double-quoted, escapes and folding": (
        'Body: "{\\"a\\": \\"\\u00e9\\",\n  \\"b\\": 2}"\n', ("Body",), '"b"', '\\"b'),
    "single-quoted": ("Body: '{\"it''s\": 1,\n  \"b\": 2}'\n", ("Body",), '"b"', '"b"'),
    "plain": ("Body: a b\n  c\n", ("Body",), "c", "c"),
    "list item": ("Body:\n  Fn::Sub:\n    - |\n      {\"b\": 1}\n    - {X: y}\n", ("Body", "Fn::Sub", 0), '"b"', '"b"'),
    "crlf": ("Body: |\r\n  {\r\n   \"b\": 1}\r\n", ("Body",), '"b"', '"b"'),
}


@pytest.mark.parametrize("text, path, asked, written", STYLES.values(), ids=list(STYLES))
def test_a_character_is_placed_where_it_is_written(text, path, asked, written):
    data, places = _places(text, path)
    value = data
    for part in path:
        value = value[part]
    where = places.position(value.index(asked))
    line_of_written = next(n for n, line in enumerate(_lines(text), 1) if written in line)
    assert where == (line_of_written, _lines(text)[line_of_written - 1].index(written) + 1)


def test_json_escapes_are_placed_at_their_backslash():
    text = json.dumps({"Body": 'x\u00e9\U0001F600\n"b"\\/'}, ensure_ascii=True)  # \u00e9, a surrogate pair, \n
    data, places = _places(text, ("Body",), "json")
    value = data["Body"]
    assert _char_at(text, places.position(value.index("b"))) == "b"
    assert text[places.position(value.index('"'))[1] - 1:][:2] == '\\"'
    assert text[places.position(value.index("\U0001F600"))[1] - 1:][:6] == "\\ud83d"


def test_no_string_at_the_path_has_no_places():
    assert _places("Body: {a: 1}\n", ("Body",))[1] is None
    assert _places("Body: 1\n", ("Body",))[1] is None
    assert _places("Body: x\n", ("Other",))[1] is None
    assert _places('{"Body": 1}', ("Body",), "json")[1] is None


def test_where_the_text_and_the_value_disagree_there_is_no_place():
    text = "Body: |\n  {\"a\": 1}\n"
    places = StringPositions.of(text, text.index("|"), '{"a": 2}', line_starts(text))
    assert places.position(text.index("1") - text.index("{")) is None  # the 2 is not written there
    assert places.position(1) == (2, 4)  # before the disagreement, placed
    assert places.position(100) is None and places.position(-1) is None


STYLE_NAMES = [None, "|", ">", '"', "'"]


@examples(200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    value=st.text(st.characters(blacklist_categories=("Cs",)), max_size=60),
    style=st.sampled_from(STYLE_NAMES),
    width=st.integers(10, 80),
    indent=st.sampled_from(["", "  ", "    "]),
)
def test_every_non_blank_character_is_placed_at_itself_or_its_escape(value, style, width, indent):
    """Whatever PyYAML writes (any style, folded at any width, nested), each non-blank character of the value read
    back is placed at that character in the file, or at the backslash (quote) of the escape that writes it."""
    text = yaml.safe_dump({"k": [{"Body": value}]} if indent else {"Body": value}, default_style=style,
                          width=width, allow_unicode=bool(width % 2))
    path = ("k", 0, "Body") if indent else ("Body",)
    data, places = _places(text, path)
    read = data["k"][0]["Body"] if indent else data["Body"]
    if read != value or places is None:  # (a style that cannot write the value: PyYAML chose another)
        return
    lines = _lines(text)
    last = (0, 0)
    for index, char in enumerate(read):
        where = places.position(index)
        assert where is not None, (text, index)
        assert where >= last, "in order"
        last = where
        if char in " \t\r\n\x85\u2028\u2029":
            continue
        at = lines[where[0] - 1][where[1] - 1]
        assert at == char or at in "\\'", (text, index, char, where)


@examples(200, deadline=None)
@given(value=st.text(max_size=60), ascii_only=st.booleans())
def test_every_character_of_a_json_string_is_placed_at_itself_or_its_escape(value, ascii_only):
    text = json.dumps({"a": [1, {"Body": value}]}, ensure_ascii=ascii_only, indent=1)
    try:
        data, places = _places(text, ("a", 1, "Body"), "json")
    except Exception:  # noqa: BLE001 - a lone surrogate json.dumps writes and the file reader refuses
        return
    assert data["a"][1]["Body"] == value
    lines = text.split("\n")
    for index, char in enumerate(value):
        where = places.position(index)
        assert where is not None, (text, index)
        if char in " \t\r\n\x85\u2028\u2029":  # blanks are placed loosely (the module says why)
            continue
        at = lines[where[0] - 1][where[1] - 1]
        assert at == char or at == "\\", (text, index, char, where)
