"""What the CLI's start-up and per-file work leave out stays correct (issue 23): lazy patterns, the catalogue's
name index, the unchanged-catalogue-config shortcut of ``Rule.sagemaker`` and the copy of ``rule_configs``.

Nothing here is timed; ``benchmarks/run.py`` measures the speed.
"""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

import rule_configs
from sm_debug_config.errors import ConfigError
from sm_debug_config.model import catalogue, rules
from sm_debug_config.model.rules import Rule

from tests.warnhelpers import config_warnings

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.mark.parametrize("name", catalogue.all_names("debugger"))
def test_every_catalogue_base_config_passes_the_shape_check_the_shortcut_skips(name, monkeypatch):
    base = getattr(rule_configs, catalogue.rules("debugger")[name]["function"])()
    assert rules._is_catalogue_config(base)
    monkeypatch.setattr(rules, "_is_catalogue_config", lambda config: False)
    # SimilarAcrossRuns compares with another trial, and its base config names none (SMD124)
    with config_warnings(*({"SimilarAcrossRuns": ("SMD124",)}.get(name, ()))):
        assert Rule.sagemaker(base).builtin_rule == name


class _EqualToAll:
    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


def test_a_changed_or_look_alike_base_config_is_still_checked():
    base = rule_configs.vanishing_gradient()
    base["DebugRuleConfiguration"]["RuleParameters"]["threshold"] = _EqualToAll()
    assert not rules._is_catalogue_config(base)
    with pytest.raises(ConfigError):
        Rule.sagemaker(base)
    base = rule_configs.vanishing_gradient()
    base["CollectionConfigurations"] = -1
    assert not rules._is_catalogue_config(base)
    with pytest.raises(ConfigError):
        Rule.sagemaker(base)


def test_rule_configs_functions_return_a_new_copy_each_call():
    first = rule_configs.vanishing_gradient()
    first["DebugRuleConfiguration"]["RuleParameters"]["threshold"] = "9"
    first["CollectionConfigurations"].append({"CollectionName": "x"})
    again = rule_configs.vanishing_gradient()
    assert again == catalogue.rules("debugger")["VanishingGradient"]["base_config"]
    assert again["DebugRuleConfiguration"]["RuleParameters"].get("threshold") != "9"


def test_rule_names_are_found_exactly_then_in_any_case():
    assert catalogue.find("VanishingGradient")[0] == "debugger"
    assert catalogue.canonical_name("vanishinggradient") == "VanishingGradient"
    assert catalogue.canonical_name("PROFILERREPORT") == "ProfilerReport"
    assert catalogue.find("cpubottleneck")[0] == "profiler"
    with pytest.raises(ConfigError, match="unknown built-in rule"):
        catalogue.canonical_name("VanishingGradients")
    with pytest.raises(ConfigError, match="expected a rule name"):
        catalogue.find(None)


def test_profiler_report_without_parameters_checks_nothing_and_with_them_still_does():
    catalogue.check_profiler_report({})
    with pytest.raises(ConfigError, match="CPUBottleneck_treshold"):
        catalogue.check_profiler_report({"CPUBottleneck_treshold": 70})


def test_yaml_is_imported_as_it_is_and_resolves_yaml_1_1_scalars():
    code = (
        "import re; from sm_debug_config.configfile.parse import pyyaml; compile_ = re.compile; yaml = pyyaml()\n"
        "import datetime\n"
        "assert re.compile is compile_ and isinstance(yaml.reader.Reader.NON_PRINTABLE, re.Pattern)\n"
        "kinds = {type(r) for rs in yaml.resolver.Resolver.yaml_implicit_resolvers.values() for _, r in rs}\n"
        "assert kinds == {re.Pattern}, kinds\n"
        "print(yaml.safe_load('a: yes\\nb: 2001-12-14\\nc: 1.5\\nd: ~\\ne: 0x1F\\nf: 2001-12-14 21:59:43.10 -5'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT,
                         env=dict(os.environ, PYTHONPATH=ROOT))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("{'a': True, 'b': datetime.date(2001, 12, 14), 'c': 1.5, 'd': None, 'e': 31, ")
    assert "'f': datetime.datetime(2001, 12, 14, 21, 59, 43, 100000, tzinfo=" in out.stdout


def test_finding_is_a_frozen_value_equal_without_its_position():
    import copy
    import pickle

    from sm_debug_config.findings import ERROR, Check, Finding

    finding = Finding(ERROR, "SMD100", "/ProfilerConfig/S3OutputPath", "m", line=3, column=4)
    assert finding.path == ("ProfilerConfig", "S3OutputPath")
    same = Finding(ERROR, "SMD100", ("ProfilerConfig", "S3OutputPath"), "m")
    assert finding == same and hash(finding) == hash(same) and len({finding, same}) == 1
    assert finding != same.replace(message="n") and finding != ("error", "SMD100")
    assert repr(same) == ("Finding(severity='error', code='SMD100', path=('ProfilerConfig', 'S3OutputPath'), "
                          "message='m', line=None, column=None, suppressed=False, fix=None)")
    moved = finding.replace(suppressed=True, line=9)
    assert (moved.suppressed, moved.line, moved.column, finding.suppressed) == (True, 9, 4, False)
    assert finding.under(("X", 0)).pointer == "/X/0/ProfilerConfig/S3OutputPath"
    with pytest.raises(AttributeError):
        finding.line = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        finding.replace(lines=5)
    for copied in (pickle.loads(pickle.dumps(finding)), copy.deepcopy(finding), copy.copy(finding)):  # noqa: S301 - our own bytes
        assert copied == finding and (copied.line, copied.column) == (3, 4)
    check = Check("SMD100", ERROR, "d.", "e.", "api-limit")
    assert check == Check("SMD100", ERROR, "d.", "e.", "api-limit") and pickle.loads(pickle.dumps(check)) == check  # noqa: S301 - our own bytes
    assert check.at(("A",), "m") == Finding(ERROR, "SMD100", ("A",), "m")


@pytest.mark.parametrize("changes", [
    {"image_uri": "111122223333.dkr.ecr.us-east-1.amazonaws.com/r:1", "rule_parameters": {"threshold": "0.5"}},
    {"image_uri": "", "rule_parameters": {}},
    {"image_uri": "x" * 300},
    {"rule_parameters": {"": "1"}},
    {"rule_parameters": ["threshold"]},
    {"instance_type": None, "volume_size_in_gb": None},
    {"instance_type": "ml.m5.xlarge", "volume_size_in_gb": -1},
])
def test_rule_request_with_changes_is_the_request_of_the_evolved_rule(changes):
    import attrs

    from sm_debug_config.model.rules import rule_request

    rule = Rule.sagemaker(rule_configs.vanishing_gradient())
    try:
        expected = rule_request(attrs.evolve(rule, **changes))
    except ConfigError as err:
        with pytest.raises(ConfigError) as caught:
            rule_request(rule, **dict(changes))
        assert (str(caught.value), caught.value.path) == (str(err), err.path)
    else:
        assert rule_request(rule, **dict(changes)) == expected
        assert list(rule_request(rule, **dict(changes))) == list(expected)
