"""The table of check codes (sm_debug_config/codes.py): a row per declared code, names, lifecycles, the inputs each
applies to, and selecting codes as ruff does (``select`` narrows, ``ignore`` removes, prefixes, did-you-mean)."""
from __future__ import annotations

import pytest

from sm_debug_config import codes
from sm_debug_config.codes import EVERY_INPUT, INPUTS, LIFECYCLES, PREVIEW, REMOVED, TABLE, Code
from sm_debug_config.findings import CHECKS, declare
from sm_debug_config.validation.pages import examples
from sm_debug_config.validation.registry import FUNCTIONS

#: The inputs a code's paired example says it is reported for (the kind of the example, as its page says).
_EXAMPLE_INPUTS = {
    "request": set(EVERY_INPUT),
    "config": {"config-file"},
    "document": {"documents"},
    "python": {"lint"},
    "plan": {"plan"},
    "unreadable": {"config-file", "lint"},
}


def test_the_table_and_the_declarations_are_the_same_codes():
    assert set(TABLE) == set(CHECKS)
    assert list(TABLE) == sorted(TABLE)  # in code order, as a reader looks a code up
    for code, row in TABLE.items():
        check = CHECKS[code]
        assert (check.name, check.lifecycle, check.applies_to, check.fixes) == tuple(row), code


def test_names_are_kebab_case_and_unique_and_lifecycles_known():
    names = [row.name for row in TABLE.values()]
    assert len(set(names)) == len(names)
    assert all(codes.NAME_PATTERN.match(name) for name in names)
    assert {row.lifecycle for row in TABLE.values()} <= set(LIFECYCLES)
    assert CHECKS["SMD120"].name == "unknown-rule-parameter"


def test_applies_to_is_derived_from_where_a_code_is_produced():
    registered = {code for emitted in FUNCTIONS.values() for code in emitted}
    for code, check in CHECKS.items():
        assert set(check.applies_to) <= set(INPUTS), code
        if code in registered:  # a request check runs on every input: the table does not narrow it
            assert check.applies_to == EVERY_INPUT, code
        else:  # produced by one surface or a few: the row says which
            assert check.applies_to != EVERY_INPUT, code
    assert CHECKS["SMD180"].applies_to == ("lint",) and CHECKS["SMD190"].applies_to == ("plan",)
    for code, example in examples().items():  # the example a page shows is one of the inputs the code applies to
        assert _EXAMPLE_INPUTS[example["kind"]] <= set(CHECKS[code].applies_to), code


def test_a_declaration_needs_a_row_or_a_name():
    with pytest.raises(RuntimeError):
        declare("SMD996", "info", "No row.", "None.")
    for bad in ({"name": "Not Kebab"}, {"name": "ok", "lifecycle": "beta"}, {"name": "ok", "applies_to": ("cli",)}):
        with pytest.raises(RuntimeError):
            declare("SMD996", "info", "Bad row.", "None.", **bad)
    assert "SMD996" not in CHECKS
    declared = declare("SMD996", "info", "A row of its own.", "None.", name="a-test", applies_to=("lint",))
    try:
        assert (declared.name, declared.lifecycle, declared.applies_to) == ("a-test", "stable", ("lint",))
    finally:
        CHECKS.pop("SMD996")


@pytest.mark.parametrize("given, wanted", [
    ("SMD12O", "SMD120"),  # a letter O: the code it looks like, not SMD182 (difflib's choice)
    ("smd120", "SMD120"),
    ("SMD 120", "SMD120"),
    ("SMD1200", "SMD120"),
    ("SMD12", "SMD120"),  # the first code it starts
    ("SMD129", "SMD125"),  # one digit off: the nearest number
    ("SMD999", "SMD190"),
    ("unknown-rule-parametr", "SMD120"),  # by name
    ("XYZ", None),
])
def test_nearest_code(given, wanted):
    assert codes.nearest(given) == wanted


def test_a_selector_is_a_code_or_a_prefix():
    assert codes.codes_of("SMD132") == ("SMD132",)
    assert codes.codes_of(" smd13 ") == tuple(code for code in TABLE if code.startswith("SMD13"))
    assert codes.codes_of("SMD") == tuple(TABLE) and codes.codes_of("SMD19") == ("SMD190",)
    for bad, message in (("SMD999", "SMD999: no such check; did you mean SMD190?"),
                         ("SMD12O", "SMD12O: no such check; did you mean SMD120?"),
                         ("SMD19O", "SMD19O: no such check; did you mean SMD190?"),
                         ("nothing", "nothing: no such check (`sm-debug-config checks` lists them)")):
        with pytest.raises(ValueError) as err:
            codes.codes_of(bad)
        assert str(err.value) == message


def test_select_narrows_and_ignore_removes():
    every = set(TABLE)
    assert codes.suppressed(None) == ()
    assert set(codes.suppressed(["SMD13"])) == every - set(codes.codes_of("SMD13"))
    assert set(codes.suppressed(["SMD13", "SMD120"], ["SMD132"])) == every - (
        set(codes.codes_of("SMD13")) - {"SMD132"}) - {"SMD120"}
    assert set(codes.suppressed(None, ["SMD1"])) == set(codes.codes_of("SMD1"))
    assert set(codes.suppressed(["SMD120"], ["SMD12"])) == every  # ignore wins over select


def test_a_preview_code_only_when_selected_in_full_and_a_removed_one_never(monkeypatch):
    monkeypatch.setitem(TABLE, "SMD198", Code("a-preview-check", PREVIEW))
    monkeypatch.setitem(TABLE, "SMD199", Code("a-removed-check", REMOVED))
    assert {"SMD198", "SMD199"} <= set(codes.suppressed(None))
    assert {"SMD198", "SMD199"} <= set(codes.suppressed(["SMD19"]))
    assert "SMD198" not in codes.suppressed(["SMD198"]) and "SMD199" in codes.suppressed(["SMD199"])
