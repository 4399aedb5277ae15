"""model/hookparams: what the training-side hook reads in HookParameters and CollectionParameters, checked as the
hook parses them (the constructors and validation/hook.py share these findings)."""
from sm_debug_config.model import hookparams


def codes(parameters, scope="collection"):
    return [(p.code, p.path, p.severity) for p in hookparams.check(parameters, scope)]


def test_every_problem_of_a_map_is_found_at_its_key():
    assert codes({"save_interval": "0", "save_intervall": "5", "reductions": "maxx"}) == [
        ("SMD132", ("save_interval",), "error"), ("SMD135", ("save_intervall",), "warning"),
        ("SMD136", ("reductions",), "error")]


def test_what_the_hook_reads_passes():
    assert codes({"save_interval": "100", "reductions": "mean,max", "include_regex": ".*relu"}) == []
    assert codes({"save_interval": "100", "save_all": "true"}, "hook") == []
    assert codes(None) == []


def test_a_step_that_is_no_integer_is_an_error():
    assert codes({"start_step": "ten"}) == [("SMD134", ("start_step",), "error")]


def test_a_regex_that_does_not_compile_is_an_error():
    assert codes({"include_regex": "([a-z"}) == [("SMD130", ("include_regex",), "error")]


def test_a_parameter_only_read_outside_sagemaker_is_said():
    assert [c for c, _, _ in codes({"export_tensorboard": "true"}, "hook")] == ["SMD139"]
