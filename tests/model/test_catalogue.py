"""model/catalogue: the built-in rules (names, kinds, parameters) and the check of a rule's parameters, which both
Rule.sagemaker and the request check (validation/rules.py) run, so that they agree."""
import pytest

from sm_debug_config.errors import ConfigError
from sm_debug_config.model import catalogue


def test_names_are_found_exactly_then_in_any_case():
    assert catalogue.find("VanishingGradient")[0] == "debugger"
    assert catalogue.find("ProfilerReport")[0] == "profiler"
    assert catalogue.canonical_name("vanishinggradient") == "VanishingGradient"
    assert catalogue.lookup("overfit") == ("debugger", "Overfit")
    assert catalogue.lookup(5) is None


def test_an_unknown_rule_is_refused_with_a_did_you_mean():
    with pytest.raises(ConfigError) as info:
        catalogue.find("VanishingGradiant")
    assert "VanishingGradient" in str(info.value) and info.value.allowed


def test_check_parameters_finds_every_problem_of_a_rule():
    problems = catalogue.check_parameters("VanishingGradient", {"threshhold": "1", "threshold": "x"})
    assert [(p.code, p.path, p.severity) for p in problems] == [
        ("SMD120", ("threshhold",), "warning"), ("SMD121", ("threshold",), "warning")]
    assert catalogue.check_parameters("VanishingGradient", {"threshold": "0.001"}) == []


def test_allowed_unknown_parameters_pass_as_smd122_only_for_the_names_given():
    allowed = catalogue.check_parameters("VanishingGradient", {"new_knob": "1", "other": "2"},
                                         allow_unknown=["new_knob"])
    assert [(p.code, p.path) for p in allowed] == [("SMD122", ("new_knob",)), ("SMD120", ("other",))]


def test_a_value_no_api_string_holds_is_smd100():
    (problem,) = catalogue.check_parameters("VanishingGradient", {"threshold": {"a": 1}})
    assert problem.code == "SMD100"


@pytest.mark.parametrize("given, name", [("PyTorch", "pytorch"), ("tensorflow", "tensorflow"), (None, None)])
def test_framework_names(given, name):
    assert catalogue.framework_name(given) == name


def test_an_unknown_framework_names_the_allowed_ones():
    with pytest.raises(ConfigError) as info:
        catalogue.framework_name("jax")
    assert info.value.field == "framework" and "pytorch" in str(info.value.allowed)
