"""configfile.jsonparse: JSON read by json.loads first, its refusals positioned by a scan of the text when needed."""
from __future__ import annotations

import json

import pytest

from sm_debug_config import configfile as cf
from sm_debug_config.configfile.jsonparse import JsonText, load_json, past_limit
from sm_debug_config.configfile.parse import MAX_DEPTH, MAX_INT_DIGITS


def error_of(text):
    with pytest.raises(cf.ConfigFileError) as info:
        cf.loads(text, filename="job.json")
    return info.value


@pytest.mark.parametrize(
    "text, path, key, where",
    [
        ('{"a": 1, "b": {"c": [10, 20]}}', ("b", "c", 1), True, (1, 26)),
        ('{"a": 1, "b": {"c": [10, 20]}}', ("b",), False, (1, 15)),
        ('{"a\\"b": "x[{,", "c": 2}', ("c",), True, (1, 18)),
        ('{\n  "rules": [\n    "A",\n    {"builtin": "B"}\n  ]\n}', ("rules", 1, "builtin"), True, (4, 6)),
        ('{"é": "ü", "k": 1}', ("k",), True, (1, 12)),
    ],
)
def test_positions_are_found_in_the_text(text, path, key, where):
    assert JsonText(text).locate(path, key) == where


def test_missing_paths_have_no_position_and_the_deepest_part_is_found():
    text = JsonText('{"a": [1, 2], "b": "s"}')
    assert text.locate(("a", 2)) is None and text.locate(("c",)) is None and text.locate(("b", "x")) is None
    assert text.deepest(("a", 7, "x")) == (1, 2) and text.deepest(()) == (1, 1)


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1, "b": [1, {"x": [], "y": {}}], "c": [[], [1, 2]], "d": "[{,"}',
        "[]",
        "[1, 2, 3]",
        '"text"',
        "{}",
        '{"a": [ ]}',
    ],
)
def test_the_value_count_is_exact(text):
    def count(value):
        if isinstance(value, dict):
            return 1 + sum(count(v) for v in value.values())
        if isinstance(value, list):
            return 1 + sum(count(v) for v in value)
        return 1

    value, counted = load_json(text, "x.json")
    assert value == json.loads(text) and counted == count(value)


def test_past_limit_is_the_first_value_past_it():
    text = '{"a": [1, 2, 3, 4]}'
    assert text[past_limit(text, 3)] == "2"  # the document, the list and 1 are the first three


def test_duplicate_keys_are_placed_at_the_second_occurrence():
    text = '{"region": "us-east-1",\n "x": {"k": 1, "k": 2},\n "k": 3}'
    err = error_of('{"a": {"k": 1}, "debugger_hook_config": {"k": 1}, "rules": [], "rules": []}')
    assert "duplicate key 'rules' (first at line 1, column 51)" in str(err) and (err.line, err.column) == (1, 64)
    err = error_of(text)
    assert "duplicate key 'k' (first at line 2, column 8)" in str(err) and (err.line, err.column) == (2, 16)


def test_nan_and_long_integers_are_refused_at_their_value():
    err = error_of('{"region": "us-east-1",\n "rules": [NaN]}')
    assert "expected a value, found 'N'" in str(err) and (err.line, err.column) == (2, 12)
    err = error_of('{"profiler_config": {"system_monitor_interval_millis": ' + "9" * (MAX_INT_DIGITS + 1) + "}}")
    assert f"an integer of {MAX_INT_DIGITS + 1} digits" in str(err) and (err.line, err.column) == (1, 56)


def test_positions_after_a_long_integer_are_found():
    text = '{"a": ' + "9" * (MAX_INT_DIGITS + 700) + ', "b": 1}'
    assert JsonText(text).locate(("b",)) == (1, text.index('"b"') + 1)


def test_long_digit_runs_inside_strings_are_no_integers():
    value, _count = load_json('{"a": "' + "9" * (MAX_INT_DIGITS + 1) + '"}', "x.json")
    assert len(value["a"]) == MAX_INT_DIGITS + 1


def test_nesting_past_the_limit_is_refused_at_its_bracket():
    text = '{"rules": ' + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "}"
    err = error_of(text)
    assert f"nested more than {MAX_DEPTH} deep" in str(err) and (err.line, err.column) == (1, 11 + MAX_DEPTH - 1)
    err = error_of('{"a": "[[[[", "rules": ' + "[" * 5000 + "]" * 5000 + "}")
    assert f"nested more than {MAX_DEPTH} deep" in str(err) and err.line == 1


def test_numbers_keep_what_was_typed_where_text_is_expected():
    cfg = cf.loads(
        '{"job_name": 12.50, "rules": [{"builtin": "VanishingGradient", "rule_parameters": {"threshold": 1e-4}}]}',
        filename="job.json",
    )
    assert cfg.job_name == "12.50"
    assert cfg.rules[0].rule_parameters["threshold"] == "0.0001"


@pytest.mark.parametrize("text", ['{"a": ' + "[" * 100_000 + "]" * 100_000 + "}", "[" * 5_000 + "]" * 5_000])
def test_far_too_deep_json_is_refused_before_json_loads_recurses(monkeypatch, text):
    # json.loads recursing to Python's limit lets the garbage collector run Python code there, which Python 3.8
    # cannot recover from (the process aborted in test_deps_range.sh): such text never reaches it
    import json

    from sm_debug_config import limits
    from sm_debug_config.configfile import jsonparse
    from sm_debug_config.errors import ConfigError

    def refuse(*args, **kwargs):
        raise AssertionError("json.loads was asked")

    monkeypatch.setattr(json, "loads", refuse)
    err = error_of(text)
    assert "nested more than 32 deep" in str(err) and err.line == 1
    with pytest.raises(cf.ConfigFileError):
        jsonparse.load_json(text, "job.json")
    with pytest.raises(ConfigError):
        limits.json_loads(text)


def test_brackets_inside_strings_do_not_count_as_depth():
    from sm_debug_config import limits

    text = '{"a": "' + "[" * 1_000 + '"}'
    assert not limits.json_too_deep(text) and limits.json_loads(text) == {"a": "[" * 1_000}
