"""Edits of YAML and JSON text (sm_debug_config.configfile.textedit): each kind of change in each format gives the
expected text byte for byte; comments, quoting, indentation and CRLF are kept; the edited text reads back as the
document with the change made; what the text cannot take reliably has no edits."""
from __future__ import annotations

import copy

import pytest

from sm_debug_config.configfile import read_text
from sm_debug_config.configfile import textedit
from sm_debug_config.configfile.textedit import yaml_scalar
from sm_debug_config.fixes import PREFIX, REMOVE, RENAME, SET, Change, apply_edits

BLOCK = """\
# a job's Debugger settings
region: us-east-1   # where it runs
rules:
  - builtin: VanishingGradient
    rule_parameters:
      threshold: 0.0001
      tensor_regexx: '.*'   # misspelt
      num_steps: 20
  - LossNotDecreasing
tensorboard_output_config: {s3_output_path: my-bucket/tb, container_local_output_path: /opt/ml/x}
debugger_hook_config:
  hook_parameters:
    save_interval: "20"
"""

JSON = """{
  "DebugHookConfig": {
    "S3OutputPath": "my-bucket/o",
    "HookParameters": {"save_interval": 20, "include_regex": "a.*"}
  },
  "TensorBoardOutputConfig": {"S3OutputPath": "s3://b/tb", "LocalPath": "tb"}
}
"""


def edited(text, name, change):
    found = read_text(text, name)
    edits = found.edits(change)
    assert edits is not None, change
    out, count = apply_edits(found.text, [edits])
    assert count == 1
    return out


def replaced(text, old, new, count=1):
    assert text.count(old) == count, old
    return text.replace(old, new)


YAML_CASES = [
    # set: a plain number that must become a string is quoted, in the style the file uses most (even: double)
    (Change(SET, ("rules", 0, "rule_parameters", "num_steps"), "20"),
     replaced(BLOCK, "num_steps: 20", 'num_steps: "20"')),
    # set: a quoted string keeps its quotes
    (Change(SET, ("debugger_hook_config", "hook_parameters", "save_interval"), "10"),
     replaced(BLOCK, 'save_interval: "20"', 'save_interval: "10"')),
    # set: a plain string stays plain where it reads back the same, in flow style too
    (Change(SET, ("tensorboard_output_config", "container_local_output_path"), "/opt/ml/output/tensorboard"),
     replaced(BLOCK, "/opt/ml/x}", "/opt/ml/output/tensorboard}")),
    (Change(SET, ("tensorboard_output_config", "container_local_output_path"), "a, b"),
     replaced(BLOCK, "/opt/ml/x}", '"a, b"}')),
    # set of an absent member: with its siblings' indentation, after the last one
    (Change(SET, ("debugger_hook_config", "hook_parameters", "include_regex"), "a.*"),
     BLOCK + "    include_regex: a.*\n"),
    (Change(SET, ("debugger_hook_config", "s3_output_path"), "s3://b/o"), BLOCK + "  s3_output_path: s3://b/o\n"),
    (Change(SET, ("tensorboard_output_config", "local_path"), "/opt/ml/tb"),
     replaced(BLOCK, "/opt/ml/x}", "/opt/ml/x, local_path: /opt/ml/tb}")),
    (Change(SET, ("debugger_hook_config", "collection_configs"), [{"name": "weights", "parameters": {"x": "1"}}]),
     BLOCK + "  collection_configs:\n    - name: weights\n      parameters:\n        x: \"1\"\n"),
    # rename: the key only, its value, comment and quotes kept
    (Change(RENAME, ("rules", 0, "rule_parameters", "tensor_regexx"), "tensor_regex"),
     replaced(BLOCK, "tensor_regexx: '.*'   # misspelt", "tensor_regex: '.*'   # misspelt")),
    (Change(RENAME, ("tensorboard_output_config", "container_local_output_path"), "local_path"),
     replaced(BLOCK, "container_local_output_path:", "local_path:")),
    # remove: a block member with its line (and its comment), no blank line left
    (Change(REMOVE, ("rules", 0, "rule_parameters", "tensor_regexx")),
     replaced(BLOCK, "      tensor_regexx: '.*'   # misspelt\n", "")),
    (Change(REMOVE, ("region",)), replaced(BLOCK, "region: us-east-1   # where it runs\n", "")),
    (Change(REMOVE, ("rules", 1)), replaced(BLOCK, "  - LossNotDecreasing\n", "")),
    (Change(REMOVE, ("rules", 0)), replaced(BLOCK, BLOCK[BLOCK.index("  - builtin"):BLOCK.index("  - Loss")], "")),
    (Change(REMOVE, ("debugger_hook_config", "hook_parameters", "save_interval")),
     replaced(BLOCK, 'hook_parameters:\n    save_interval: "20"', "hook_parameters: {}")),  # on the key's line
    # remove: a flow member with the comma that separated it
    (Change(REMOVE, ("tensorboard_output_config", "container_local_output_path")),
     replaced(BLOCK, ", container_local_output_path: /opt/ml/x}", "}")),
    (Change(REMOVE, ("tensorboard_output_config", "s3_output_path")),
     replaced(BLOCK, "{s3_output_path: my-bucket/tb, ", "{")),
    # prefix: before a plain string's first character, after a quote
    (Change(PREFIX, ("tensorboard_output_config", "s3_output_path"), "s3://"),
     replaced(BLOCK, "my-bucket/tb", "s3://my-bucket/tb")),
    (Change(PREFIX, ("debugger_hook_config", "hook_parameters", "save_interval"), "1"),
     replaced(BLOCK, '"20"', '"120"')),
]


@pytest.mark.parametrize("change, expected", YAML_CASES, ids=lambda c: f"{c.kind}:{c.pointer}" if isinstance(
    c, Change) else "")
def test_yaml_edits_byte_for_byte(change, expected):
    assert edited(BLOCK, "job.yaml", change) == expected


JSON_CASES = [
    (Change(SET, ("DebugHookConfig", "HookParameters", "save_interval"), "20"),
     replaced(JSON, '"save_interval": 20', '"save_interval": "20"')),
    (Change(SET, ("DebugHookConfig", "LocalPath"), "/opt/ml/d\u00e9"),
     replaced(JSON, '"include_regex": "a.*"}\n', '"include_regex": "a.*"},\n    "LocalPath": "/opt/ml/d\u00e9"\n')),
    (Change(SET, ("DebugHookConfig", "HookParameters", "save_steps"), '1 "2"'),
     replaced(JSON, '"a.*"}', '"a.*", "save_steps": "1 \\"2\\""}')),
    (Change(RENAME, ("DebugHookConfig", "HookParameters", "include_regex"), "include_regex2"),
     replaced(JSON, '"include_regex":', '"include_regex2":')),
    (Change(REMOVE, ("DebugHookConfig", "S3OutputPath")), replaced(JSON, '    "S3OutputPath": "my-bucket/o",\n', "")),
    (Change(REMOVE, ("DebugHookConfig", "HookParameters")),
     replaced(JSON, ',\n    "HookParameters": {"save_interval": 20, "include_regex": "a.*"}', "")),
    (Change(REMOVE, ("TensorBoardOutputConfig", "LocalPath")), replaced(JSON, ', "LocalPath": "tb"', "")),
    (Change(REMOVE, ("DebugHookConfig", "HookParameters", "save_interval")),
     replaced(JSON, '"save_interval": 20, ', "")),
    (Change(PREFIX, ("DebugHookConfig", "S3OutputPath"), "s3://"), replaced(JSON, '"my-bucket/o"', '"s3://my-bucket/o"')),
]


@pytest.mark.parametrize("change, expected", JSON_CASES, ids=lambda c: f"{c.kind}:{c.pointer}" if isinstance(
    c, Change) else "")
def test_json_edits_byte_for_byte(change, expected):
    assert edited(JSON, "request.json", change) == expected


def test_crlf_and_comments_are_kept():
    text = BLOCK.replace("\n", "\r\n")
    out = edited(text, "job.yaml", Change(SET, ("debugger_hook_config", "hook_parameters", "include_regex"), "a.*"))
    assert out == text + "    include_regex: a.*\r\n"
    out = edited(text, "job.yaml", Change(REMOVE, ("rules", 0, "rule_parameters", "tensor_regexx")))
    assert out == text.replace("      tensor_regexx: '.*'   # misspelt\r\n", "")
    json_text = JSON.replace("\n", "\r\n")
    out = edited(json_text, "r.json", Change(SET, ("DebugHookConfig", "LocalPath"), "/x"))
    assert out == json_text.replace('"a.*"}\r\n', '"a.*"},\r\n    "LocalPath": "/x"\r\n')


def test_a_file_without_a_last_line_break_gets_none():
    out = edited("region: us-east-1\nhook:\n  a: 1", "job.yaml", Change(SET, ("hook", "b"), "x"))
    assert out == "region: us-east-1\nhook:\n  a: 1\n  b: x"


def test_first_key_of_a_list_item_and_block_lists():
    text = "rules:\n  - builtin: X\n    name: r\n  - builtin: Y\n"
    assert edited(text, "job.yaml", Change(REMOVE, ("rules", 0, "builtin"))) == (
        "rules:\n  - name: r\n  - builtin: Y\n")
    assert edited(text, "job.yaml", Change(REMOVE, ("rules", 1, "builtin"))) == (
        "rules:\n  - builtin: X\n    name: r\n  - {}\n")
    assert edited(text, "job.yaml", Change(SET, ("rules", 1, "name"), "y")) == text + "    name: y\n"


def test_quoting_follows_the_file():
    doubled = 'a: "x"\nb: "y"\nc: 5\n'
    assert edited(doubled, "j.yaml", Change(SET, ("c",), "5")) == 'a: "x"\nb: "y"\nc: "5"\n'
    single = "a: 'x'\nb: 'y'\nd: \"z\"\nc: 5\n"
    assert edited(single, "j.yaml", Change(SET, ("c",), "5")) == single.replace("c: 5", "c: '5'")
    plain = "a: x\nc: 5\n"
    assert edited(plain, "j.yaml", Change(SET, ("c",), "true")) == 'a: x\nc: "true"\n'
    assert edited(plain, "j.yaml", Change(SET, ("a",), "it's: here")) == "a: \"it's: here\"\nc: 5\n"
    assert edited("a: 'x'\n", "j.yaml", Change(SET, ("a",), "line\nbreak")) == 'a: "line\\nbreak"\n'
    assert yaml_scalar("yes") == '"yes"' and yaml_scalar("null") == '"null"' and yaml_scalar("010") == '"010"'


def test_a_plain_number_prefixed_becomes_a_quoted_string():
    assert edited("a: bucket\n", "j.yaml", Change(PREFIX, ("a",), "s3://")) == "a: s3://bucket\n"
    assert edited("a: '10'\n", "j.yaml", Change(PREFIX, ("a",), "-")) == "a: '-10'\n"
    assert edited("a: x y\n", "j.yaml", Change(PREFIX, ("a",), "# ")) == 'a: "# x y"\n'


def test_a_block_scalar_and_a_null():
    text = "a: |\n  one\n  two\nb:\nc: 1\n"
    assert edited(text, "j.yaml", Change(SET, ("a",), "x")) == "a: x\nb:\nc: 1\n"
    assert edited(text, "j.yaml", Change(SET, ("b",), "x")) == "a: |\n  one\n  two\nb: x\nc: 1\n"
    assert edited(text, "j.yaml", Change(REMOVE, ("a",))) == "b:\nc: 1\n"


@pytest.mark.parametrize("text, change", [
    ("base: &b {x: 1}\nuse: *b\n", Change(SET, ("use", "x"), 2)),  # an alias: the anchor's value is shared
    ("base: &b {x: 1}\nuse: *b\n", Change(SET, ("base", "x"), 2)),
    ("a: !!str 5\n", Change(SET, ("a",), 5)),  # a tag says what the value is
    ("a: 1\nb: 2\n", Change(RENAME, ("a",), "b")),  # a key the mapping has already
    ("a: 1\n", Change(SET, ("b", "c"), 2)),  # below a member the file lacks
    ("a: [1, 2]\n", Change(SET, ("a", 2), 3)),  # a list item is set where it is, never added
    ("a: 1\n", Change(PREFIX, ("a",), "s3://")),  # text before a number
    ("a: [1, # one\n  2]\n", Change(REMOVE, ("a", 1))),  # a comment between flow items is not dropped
    ("a: 1\n", Change(REMOVE, ("z",))),
])
def test_what_the_text_cannot_take_has_no_edits(text, change):
    assert read_text(text, "j.yaml").edits(change) is None


def test_an_edit_reads_back_as_the_change_made():
    for text, name, cases in ((BLOCK, "job.yaml", YAML_CASES), (JSON, "r.json", JSON_CASES)):
        for change, _expected in cases:
            found = read_text(text, name)
            out, _ = apply_edits(found.text, [found.edits(change)])
            expected = copy.deepcopy(found.document)
            change.apply(expected)
            assert read_text(out, name).document == expected, change


def test_past_its_budget_an_editor_gives_no_edits(monkeypatch):
    monkeypatch.setattr(textedit, "REREAD_BUDGET", len(BLOCK) + 1)  # one check of this text, not two
    found = read_text(BLOCK, "job.yaml")
    change = Change(SET, ("region",), "eu-west-1")
    assert found.edits(change) is not None
    assert found.edits(change) is None  # the finding keeps its fix, without edits


def test_a_large_json_checks_its_edit_in_the_member_s_object(monkeypatch):
    monkeypatch.setattr(textedit, "REREAD_BUDGET", 1000)
    text = '{"Big": "' + "x" * 100_000 + '", "DebugHookConfig": {"S3OutputPath": "b/o"}}'
    found = read_text(text, "request.json")
    edits = found.edits(Change(PREFIX, ("DebugHookConfig", "S3OutputPath"), "s3://"))  # its object re-read only
    assert apply_edits(text, [edits])[0] == text.replace('"b/o"', '"s3://b/o"')
    assert found.edits(Change(SET, ("Big",), "y")) is None  # a top-level member: the whole text, past the budget


def test_a_value_under_a_cloudformation_tag_is_edited_the_tag_kept():
    tags = {"!Sub": "Fn::Sub", "!Ref": "Ref"}
    text = "Output: !Sub 'bucket/${Prefix}'  # where\nRole: !Ref Role\n"
    found = read_text(text, "t.yaml", tags=tags)
    edits = found.edits(Change(PREFIX, ("Output", "Fn::Sub"), "s3://"))
    assert apply_edits(text, [edits])[0] == text.replace("'bucket", "'s3://bucket")
    assert found.edits(Change(RENAME, ("Output", "Fn::Sub"), "Ref")) is None  # the tag is no key to rename
    edits = found.edits(Change(SET, ("Role", "Ref"), "OtherRole"))
    assert apply_edits(text, [edits])[0] == text.replace("!Ref Role", "!Ref OtherRole")


def test_a_member_added_to_an_object_of_several_members_a_line():
    text = '{\n  "a": 1, "b": 2,\n  "c": 3, "d": 4\n}\n'
    assert edited(text, "r.json", Change(SET, ("e",), 5)) == '{\n  "a": 1, "b": 2,\n  "c": 3, "d": 4,\n  "e": 5\n}\n'
    text = "x: {\n    a: 1, b: 2\n  }\n"
    assert edited(text, "j.yaml", Change(SET, ("x", "c"), 3)) == "x: {\n    a: 1, b: 2,\n    c: 3\n  }\n"


def test_a_yaml_edit_below_a_top_level_key_is_checked_in_that_member_s_lines(monkeypatch):
    monkeypatch.setattr(textedit, "REREAD_BUDGET", 1000)
    text = "Big: '" + "x" * 100_000 + "'\nDebugHookConfig:\n  S3OutputPath: b/o  # out\n"
    found = read_text(text, "request.yaml")
    edits = found.edits(Change(PREFIX, ("DebugHookConfig", "S3OutputPath"), "s3://"))
    assert apply_edits(text, [edits])[0] == text.replace(": b/o", ": s3://b/o")
    assert found.edits(Change(SET, ("Big",), "y")) is None  # a top-level member: the whole text, past the budget


def test_a_member_s_lines_that_do_not_read_alone_are_checked_in_the_whole_text():
    text = "base: &b {x: 1}\njob:\n  ref: *b\n  y: 2\n"  # the alias's anchor is in another member
    assert edited(text, "j.yaml", Change(SET, ("job", "y"), 3)) == text.replace("y: 2", "y: 3")
