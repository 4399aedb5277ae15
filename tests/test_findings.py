"""The one finding type (sm_debug_config/findings.py): structured, declared once where it is produced,
the same from constructors, validation, config files and the CLI; the index of codes is the registry's."""

from __future__ import annotations

import pathlib
import re
import warnings

import pytest

from tests.repo_scripts import load_script
from sm_debug_config import JobSettings, render
from sm_debug_config.errors import ConfigError, ConfigWarning
from sm_debug_config.findings import CHECKS, ERROR, SEVERITIES, Finding, code_list, declare, is_error
from sm_debug_config.model import catalogue, hookparams
from sm_debug_config.validation import list_checks, raise_or_warn, validate

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "sm_debug_config"


def test_a_finding_has_a_tuple_path_and_derives_its_pointer():
    finding = hookparams.SMD132.at(
        ("DebugHookConfig", "CollectionConfigurations", 0, "CollectionParameters", "a/b"), "m"
    )
    assert finding.path == ("DebugHookConfig", "CollectionConfigurations", 0, "CollectionParameters", "a/b")
    assert finding.pointer == "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/a~1b"
    assert (finding.code, finding.severity) == ("SMD132", CHECKS["SMD132"].severity)
    assert finding.evidence == CHECKS["SMD132"].evidence
    assert finding.to_dict()["path"] == finding.pointer  # JSON output keeps the pointer text


def test_position_and_suppression_are_not_part_of_equality():
    finding = Finding(ERROR, "SMD100", ("ProfilerConfig",), "m")
    assert finding == Finding(ERROR, "SMD100", ("ProfilerConfig",), "m", line=3, column=4, suppressed=True)
    assert is_error(finding) and not is_error(Finding(ERROR, "SMD100", (), "m", suppressed=True))


def test_a_declaration_is_refused_twice_or_malformed():
    with pytest.raises(RuntimeError):
        declare("SMD132", ERROR, "Again.", "Again.")
    for bad in (("SMD13", ERROR, "X.", "Y."), ("SMD997", "fatal", "X.", "Y."), ("SMD997", ERROR, "no period", "Y.")):
        with pytest.raises(RuntimeError):
            declare(*bad)
    assert "SMD997" not in CHECKS


def test_every_severity_comes_from_the_one_table():
    assert {c.severity for c in CHECKS.values()} <= set(SEVERITIES)
    assert {row["code"]: row["severity"] for row in list_checks()} == {c: CHECKS[c].severity for c in CHECKS}


def test_constructors_and_validation_report_the_same_finding():
    problems = hookparams.check({"save_interval": "0"}, "collection")
    request = {
        "DebugHookConfig": {
            "S3OutputPath": "s3://b/o",
            "CollectionConfigurations": [
                {"CollectionName": "gradients", "CollectionParameters": {"save_interval": "0"}}
            ],
        }
    }
    [found] = validate(request)
    assert found == problems[0].under(("DebugHookConfig", "CollectionConfigurations", 0, "CollectionParameters"))
    [unknown] = catalogue.check_parameters("VanishingGradient", {"threshhold": "0.1"})
    assert (unknown.code, unknown.path) == ("SMD120", ("threshhold",))


def test_a_warning_carries_the_finding_as_attributes():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConfigWarning)
        raise_or_warn(
            validate({"DebugHookConfig": {"S3OutputPath": "s3://b/o", "HookParameters": {"save_steps": "1,2"}}})
        )
    [warning] = [w.message for w in caught if isinstance(w.message, ConfigWarning)]
    assert (warning.code, warning.severity) == ("SMD173", "warning")
    assert warning.path == ("DebugHookConfig", "HookParameters", "save_steps")
    assert warning.finding.pointer == warning.pointer == "/DebugHookConfig/HookParameters/save_steps"
    assert "SMD173" not in warning.message  # the text without code and place


def test_ignore_is_checked_for_type_at_construction_and_for_known_codes_at_render():
    assert code_list([" smd110"]) == ("SMD110",)
    settings = JobSettings(ignore=["SMD119"])  # well-formed: whether it exists is validation's question
    with pytest.raises(ConfigError) as err:
        render(region="us-east-1", output_path="s3://b/o", settings=settings)
    assert err.value.path == ("ignore", 0) and "did you mean" in str(err.value)
    for bad in ([110], ["SMD1100"], ["s3://bucket/x"]):
        with pytest.raises(ConfigError) as err:
            JobSettings(ignore=bad)
        assert err.value.path == ("ignore", 0)


def test_no_finding_is_built_from_text_or_given_a_severity_by_hand():
    # Problem and the (code, pointer, message) text tuples are gone; severities are the declarations'
    sources = {p: p.read_text(encoding="utf-8") for p in PACKAGE.rglob("*.py")}
    for path, text in sources.items():
        assert "Problem(" not in text, path
        assert ".replace(' (SMD" not in text, path
    owned = [
        p
        for p in sources
        if p.parent.name in ("model", "validation") or p.name in ("findings.py", "checked.py", "rendering.py")
    ]
    for path in owned:
        assert not re.search(r"severity\s*==\s*[\"'](error|warning|info)[\"']", sources[path]), path


def test_the_index_of_codes_is_the_registry():  # docs/checks.md, which the README links to
    script = load_script("generate_checks_doc")
    index = (PACKAGE.parent / "docs" / "checks.md").read_text(encoding="utf-8")
    assert script.build() == index
    rows = re.findall(r"^\| \[(SMD\d{3})\]\(checks/\1\.md\) \| `[a-z0-9-]+` \| (\w+) \|", index, flags=re.M)
    assert dict(rows) == {c: CHECKS[c].severity for c in CHECKS}
