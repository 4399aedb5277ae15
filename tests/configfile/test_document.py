"""configfile.document: a file parsed once; 1 MiB files of any shape read, refused or validated cheaply.

The shapes are those that cost seconds before (issue 23). No time is asserted here (benchmarks/parse_cost.py
measures them): each test checks that the file is refused early, with the right message and position.
"""
from __future__ import annotations

import json

import pytest

from sm_debug_config import configfile as cf
from sm_debug_config.configfile.document import Positions, parse_text
from sm_debug_config.configfile.jsonparse import JsonText
from sm_debug_config.configfile.parse import MAX_VALUES
from sm_debug_config.configfile.read import MAX_RULES

MIB = 1 << 20


def shapes():
    """``{name: (file name, text)}``: the costly shapes of about 1 MiB (kept under MAX_BYTES)."""
    rule = {"builtin": "VanishingGradient", "rule_parameters": {"threshold": 0.1}}
    return {
        "json zeros": ("zeros.json", json.dumps([0] * 340_000)),
        "yaml block list": ("zeros.yaml", "- 0\n" * 262_000),
        "yaml flow list": ("flow.yaml", "[" + "0," * 520_000 + "0]"),
        "deep-ish lists": ("deep.json", json.dumps({"region": "us-east-1", "junk": [[[[[0, 1]]]]] * 40_000})),
        "one unknown key, many lists": (
            "bigmap.json",
            json.dumps({"region": "us-east-1", "junk": {f"k{i}": [i, "x" * 10] for i in range(30_000)}}),
        ),
        "yaml unknown key, many lists": (
            "bigmap.yaml",
            "region: us-east-1\njunk:\n" + "".join(f"  k{i}: [{i}, x]\n" for i in range(50_000)),
        ),
        "many valid rules": ("rules.json", json.dumps({"region": "us-east-1", "rules": [rule] * 8_000})),
        "long string": ("long.json", json.dumps({"region": "x" * (MIB - 100)})),
        "yaml long string": ("long.yaml", "region: " + "x" * (MIB - 100) + "\n"),
    }


EXPECTED = {  # name -> (message part, (line, column) or None for "any position")
    "json zeros": ("the top level must be a mapping of settings (region:, rules:, ...), got a list", (1, 1)),
    "yaml block list": ("the top level must be a mapping of settings (region:, rules:, ...), got a list", (1, 1)),
    "yaml flow list": ("the top level must be a mapping of settings (region:, rules:, ...), got a list", (1, 1)),
    "deep-ish lists": (f"the config holds more than {MAX_VALUES} values", None),
    "one unknown key, many lists": (f"the config holds more than {MAX_VALUES} values", None),
    "yaml unknown key, many lists": (f"the config holds more than {MAX_VALUES} values", None),
    "many valid rules": (f"the config holds more than {MAX_VALUES} values", None),
    "long string": ("region: ", (1, 2)),
    "yaml long string": ("region: ", (1, 1)),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_large_files_of_every_shape_are_refused_early_with_the_right_message(tmp_path, name):
    filename, text = shapes()[name]
    assert len(text.encode()) <= cf.MAX_BYTES
    path = tmp_path / filename
    path.write_text(text, encoding="utf-8")
    with pytest.raises(cf.ConfigFileError) as info:
        cf.load(path)
    words, where = EXPECTED[name]
    assert words in info.value.message or words in str(info.value)
    assert info.value.line is not None
    if where is not None:
        assert (info.value.line, info.value.column) == where
    assert "aliases" not in str(info.value)  # no alias in any of them


def test_the_value_count_position_is_where_the_limit_is_passed(tmp_path):
    text = '{"region": "us-east-1",\n "junk": [' + ", ".join(["[1, 2]"] * MAX_VALUES) + "]}"
    path = tmp_path / "big.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(cf.ConfigFileError) as info:
        cf.load(path)
    assert info.value.line == 2 and info.value.column > 10


def test_many_rules_under_the_value_limit_are_refused_before_they_are_built():
    text = json.dumps({"region": "us-east-1", "rules": ["VanishingGradient"] * (MAX_RULES + 1)})
    with pytest.raises(cf.ConfigFileError) as info:
        cf.loads(text, filename="job.json")
    assert f"at most {MAX_RULES} rules, got {MAX_RULES + 1}" in str(info.value)
    assert info.value.field == "rules" and (info.value.line, info.value.column) == (1, 25)


def test_a_file_of_valid_rules_is_read_and_validated(tmp_path):
    rules = [
        {"builtin": "VanishingGradient", "name": f"vg{i}", "rule_parameters": {"threshold": 0.1}} for i in range(20)
    ]
    path = tmp_path / "rules.json"
    text = json.dumps({"region": "us-east-1", "output_path": "s3://b/o/", "rules": rules})
    path.write_text(text, encoding="utf-8")
    config = cf.load(path)
    assert [r.name for r in config.rules] == [f"vg{i}" for i in range(20)]
    assert config.locate(("rules", 19, "name")) == (1, 1 + text.index('"name": "vg19"'))
    assert config.render()["DebugRuleConfigurations"][19]["RuleConfigurationName"] == "vg19"


def test_any_document_keeps_large_json_lists(tmp_path):
    """read_document (validate reads every file pre-commit hands over) takes a JSON data file of any size."""
    path = tmp_path / "data.json"
    path.write_text(json.dumps([0] * 300_000), encoding="utf-8")
    document, locate = cf.read_document(path)
    assert len(document) == 300_000 and locate((5,)) == (1, 17)


def test_any_document_in_yaml_is_refused_past_the_value_limit(tmp_path):
    path = tmp_path / "data.yaml"
    path.write_text("- 0\n" * (MAX_VALUES + 5), encoding="utf-8")
    with pytest.raises(cf.ConfigFileError) as info:
        cf.read_document(path)
    assert f"more than {MAX_VALUES} values" in str(info.value) and "aliases" not in str(info.value)


def test_read_file_parses_once_and_loads_from_the_same_parse(tmp_path, monkeypatch):
    path = tmp_path / "job.yaml"
    path.write_text("region: us-east-1\nrules: [VanishingGradient]\ncolour: red\n", encoding="utf-8")
    found = cf.read_file(path)
    assert found.document == {"region": "us-east-1", "rules": ["VanishingGradient"], "colour": "red"}
    assert found.locate(("rules", 0)) == (2, 9) and found.locate(("nothing", 3)) == (1, 1)
    path.unlink()  # the file is not read again
    config, errors = found.load(as_far_as_possible=True)
    assert config.rules[0].name == "VanishingGradient"
    assert [(e.line, e.column, e.field) for e in errors] == [(3, 1, "colour")]
    with pytest.raises(cf.ConfigFileError) as info:
        found.load()
    assert info.value.errors == (info.value,) and info.value.field == "colour"


def test_read_file_of_a_list_is_a_document_and_no_config(tmp_path):
    path = tmp_path / "list.json"
    path.write_text("[1, 2]", encoding="utf-8")
    found = cf.read_file(path)
    assert found.document == [1, 2]
    with pytest.raises(cf.ConfigFileError, match="top level must be a mapping"):
        found.load()


def test_json_positions_are_found_only_when_asked():
    positions = Positions(JsonText('{"region": "us-east-1",\n "rules": [\n  "VanishingGradient"]}').locate)
    positions.add(("rules",), None, None)
    positions.add(("rules", 0), None, None)
    positions.add(("missing",), None, None)
    assert positions._known == {("rules",): None, ("rules", 0): None, ("missing",): None}
    assert positions[("rules", 0)] == (3, 3) and ("missing",) not in positions
    assert dict(positions) == {("rules",): (2, 2), ("rules", 0): (3, 3)}


def test_parse_text_refuses_a_top_level_list_before_composing_it():
    with pytest.raises(cf.ConfigFileError) as info:
        parse_text("- [unclosed\n" + "- 0\n" * 10, "job.yaml", None)
    assert "got a list" in str(info.value)  # the broken item after it was never read
