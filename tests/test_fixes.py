"""Fixes as values: changes to a request, edits of a text, one pass of non-overlapping fixes."""
import pytest

from sm_debug_config.fixes import (
    PREFIX, REMOVE, RENAME, SAFE, SET, UNSAFE, Change, Edit, Fix, apply_cell_edits, apply_edits, applicable,
)
from sm_debug_config.findings import Finding


def test_each_kind_of_change_applies_to_a_copy():
    request = {"R": [{"P": {"num_steps": 20, "tensor_regexx": "a"}}], "T": {"S3OutputPath": "b/tb", "LocalPath": "x"}}
    fix = Fix(UNSAFE, "all", [Change(SET, ("R", 0, "P", "num_steps"), "20"),
                              Change(RENAME, ("R", 0, "P", "tensor_regexx"), "tensor_regex"),
                              Change(REMOVE, ("T", "LocalPath")),
                              Change(PREFIX, ("T", "S3OutputPath"), "s3://")])
    assert fix.apply(request) == {"R": [{"P": {"num_steps": "20", "tensor_regex": "a"}}],
                                  "T": {"S3OutputPath": "s3://b/tb"}}
    assert request["R"][0]["P"]["num_steps"] == 20  # the original is kept


def test_a_change_at_a_path_the_request_lacks_says_so():
    with pytest.raises(LookupError, match="^/Missing/a: cannot set there"):
        Fix(SAFE, "x", [Change(SET, ("Missing", "a"), "1")]).apply({})
    with pytest.raises(LookupError, match="^/a: cannot prefix there"):
        Change(PREFIX, ("a",), "s3://").apply({"a": 1})
    with pytest.raises(LookupError, match="^/L/5: cannot set there"):
        Change(SET, ("L", 5), "1").apply({"L": []})
    with pytest.raises(LookupError, match="^/L/0: cannot rename there"):
        Change(RENAME, ("L", 0), "x").apply({"L": [1]})


def test_kind_and_applicability_are_checked():
    with pytest.raises(ValueError, match="allowed"):
        Change("swap", ("a",))
    with pytest.raises(ValueError, match="allowed"):
        Fix("maybe", "x", ())


def test_overlapping_fixes_wait_for_the_next_pass():
    text = "abcdef"
    first, overlapping, apart = [Edit(0, 2, "XY")], [Edit(1, 3, "Z")], [Edit(4, 4, "+")]
    assert apply_edits(text, [first, overlapping, apart]) == ("XYcd+ef", 2)
    assert apply_edits("XYcd+ef", [[Edit(2, 3, "Z")]]) == ("XYZd+ef", 1)
    assert apply_edits(text, [[Edit(2, 2, "a")], [Edit(2, 2, "b")]]) == ("abacdef", 1)  # one insertion per place


def test_cell_edits_stay_in_their_cell():
    texts = {0: "x = 20\n", 1: "y = 'weigths'\n"}
    out, count = apply_cell_edits(texts, [[Edit(4, 6, "'20'", cell=0)], [Edit(4, 13, "'weights'", cell=1)],
                                          [Edit(0, 1, "z", cell=5)]])
    assert out == {0: "x = '20'\n", 1: "y = 'weights'\n"} and count == 2


def test_a_finding_carries_its_fix_under_a_prefix_and_in_json():
    fix = Fix(SAFE, "write '20'", [Change(SET, ("num_steps",), "20")], edits=[Edit(14, 16, '"20"')])
    finding = Finding("error", "SMD100", ("num_steps",), "m", fix=fix).under(("R", 0, "P"))
    assert finding.fix.changes[0].path == ("R", 0, "P", "num_steps")
    out = finding.to_dict()["fix"]
    assert out["applicability"] == "safe" and out["changes"] == [{"kind": "set", "path": "/R/0/P/num_steps",
                                                                  "value": "20"}]
    assert fix.to_dict('{"num_steps": 20}')["edits"] == [{"content": '"20"', "start": 14, "end": 16,
                                                          "location": {"line": 1, "column": 15},
                                                          "end_location": {"line": 1, "column": 17}}]
    assert applicable(fix) and not applicable(Fix(UNSAFE, "x", [], edits=[])) and applicable(
        Fix(UNSAFE, "x", [], edits=[]), unsafe=True)
    assert not applicable(Fix(SAFE, "x", []))  # no edits: the source could not place it
