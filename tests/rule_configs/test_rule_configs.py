"""rule_configs equals smdebug-rulesconfig 1.0.1, and every rule's schema catches bad parameters."""
import inspect
import json
import warnings

import pytest
import smdebug_rulesconfig as upstream
from hypothesis import given, settings
from hypothesis import strategies as st

import rule_configs
from sm_debug_config import ConfigWarning, ConfigError, ProfilerRule, Rule, render
from sm_debug_config.model import catalogue
from sm_debug_config import rule_configs as via_package
from tests.repo_scripts import load_script

DEBUGGER = catalogue.rules("debugger")
PROFILER = catalogue.rules("profiler")
UPSTREAM_FUNCTIONS = sorted(
    name
    for name, obj in vars(upstream).items()
    if inspect.isfunction(obj) and name not in ("is_valid_action_object", "get_collection")
)
UPSTREAM_CLASSES = sorted(
    name for name, obj in vars(upstream.profiler_rules.rules).items()
    if inspect.isclass(obj) and name not in ("ProfilerRuleBase",) and obj.__module__.endswith("profiler_rules.rules")
)


def _warned(rule):
    """The rule-parameter warnings (SMD120-SMD122) ``render`` of ``rule`` says: a rule's parameters are checked by
    the one pass over the request and warned by the edge (issue 36), not by the constructor."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConfigWarning)
        render([rule], region="us-east-1", output_path="s3://bucket/out/")
    return [w.message for w in caught if w.message.code in ("SMD120", "SMD121", "SMD122")]


def test_same_module_both_ways():
    assert via_package is rule_configs
    from rule_configs import vanishing_gradient

    assert vanishing_gradient is rule_configs.vanishing_gradient


def test_catalogue_covers_every_upstream_rule():
    ours = {e["function"] for e in DEBUGGER.values()}
    assert set(UPSTREAM_FUNCTIONS) == ours
    assert len(DEBUGGER) == 21
    assert set(UPSTREAM_CLASSES) <= set(PROFILER)
    assert len(PROFILER) == 12  # 11 in rulesconfig + OverallFrameworkMetrics from the docs


@pytest.mark.parametrize("function", UPSTREAM_FUNCTIONS)
def test_functions_return_the_same_dicts(function):
    assert getattr(rule_configs, function)() == getattr(upstream, function)()
    # a fresh copy each call: callers may mutate what they get
    first = getattr(rule_configs, function)()
    first["DebugRuleConfiguration"]["RuleParameters"]["x"] = "y"
    assert "x" not in getattr(rule_configs, function)()["DebugRuleConfiguration"]["RuleParameters"]


@pytest.mark.parametrize("name", UPSTREAM_CLASSES)
def test_classes_have_same_defaults_signature_and_attributes(name):
    ours, theirs = getattr(rule_configs, name), getattr(upstream.profiler_rules.rules, name)
    assert ours().rule_name == theirs().rule_name == name
    assert ours().rule_parameters == theirs().rule_parameters
    if name != "ProfilerReport":
        ours_sig = [(p.name, p.default) for p in inspect.signature(ours).parameters.values()]
        theirs_sig = [(p.name, p.default) for p in list(inspect.signature(theirs.__init__).parameters.values())[1:]]
        assert ours_sig == theirs_sig


def _valid_value(spec):
    low, high = spec.get("min"), spec.get("max")
    if spec.get("validation") == "string_or_none":
        return st.one_of(st.none(), st.sampled_from(["TRAIN", "EVAL", "GLOBAL"]))
    if spec["type"] == "integer":
        return st.integers(
            min_value=(low or 0) + 1 if spec.get("min_exclusive") else (low or 0),
            max_value=high if high is not None else 10**9,
        )
    return st.floats(
        min_value=low if low is not None else 0,
        max_value=high if high is not None else 1e6,
        exclude_min=bool(spec.get("min_exclusive")),
        allow_nan=False,
    )


@pytest.mark.parametrize("name", [n for n in UPSTREAM_CLASSES if n != "ProfilerReport"])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_classes_equal_upstream_for_random_valid_arguments(name, data):
    specs = catalogue.user_parameters(PROFILER[name])
    chosen = data.draw(st.sets(st.sampled_from(sorted(specs))))
    kwargs = {k: data.draw(_valid_value(specs[k])) for k in sorted(chosen)}
    ours = getattr(rule_configs, name)(**kwargs)
    theirs = getattr(upstream.profiler_rules.rules, name)(**kwargs)
    assert ours.rule_parameters == theirs.rule_parameters


def test_profiler_report_keys_like_upstream_and_rejects_the_rest():
    kwargs = {"CPUBottleneck_threshold": 70, "lowgpuutilization_window": 100, "StepOutlier_mode": "TRAIN"}
    assert rule_configs.ProfilerReport(**kwargs).rule_parameters == upstream.ProfilerReport(**kwargs).rule_parameters
    with pytest.raises(ConfigError, match="did you mean 'CPUBottleneck_threshold'"):
        rule_configs.ProfilerReport(CPUBottleneck_threshhold=70)
    with pytest.raises(ConfigError, match="covered rules"):
        rule_configs.ProfilerReport(OverallFrameworkMetrics_scan_interval_us=5)
    with pytest.raises(ConfigError, match="opt_out_telemetry"):
        rule_configs.ProfilerReport(opt_out_telemetry=True)
    # issue 14: a value out of range runs (SMD121, warning)
    [warned] = _warned(ProfilerRule.sagemaker(rule_configs.ProfilerReport(CPUBottleneck_threshold=500)))
    assert warned.code == "SMD121" and "CPUBottleneck.threshold" in str(warned) and "<= 100" in str(warned)


@pytest.mark.parametrize("name", sorted(PROFILER))
def test_profiler_schema_rejects_misspelling_and_wrong_type_and_accepts_defaults(name):
    cls = getattr(rule_configs, name)
    instance = cls()  # documented package defaults are valid
    ProfilerRule.sagemaker(instance)
    if name == "ProfilerReport":
        return
    first = list(catalogue.user_parameters(PROFILER[name]))[0]
    with pytest.raises(ConfigError, match="did you mean"):
        cls(**{first + "x": 1})
    [warned] = _warned(ProfilerRule.sagemaker(cls(**{first: [1, 2]})))  # issue 14: SMD121 is a warning
    assert warned.code == "SMD121" and f"{name}.{first}" in str(warned)


def _misspell(key):
    return key[:-1] + ("x" if key[-1] != "x" else "y") + key[-1]


def _wrong_value(spec):
    if spec["type"] in ("integer", "float"):
        return "not-a-number"
    if spec["type"] == "boolean":
        return "maybe"
    if spec["type"] == "regex":
        return "([unclosed"
    if spec["type"] == "list":
        return {"a": 1}
    if spec.get("allowed"):
        return "NOT_ALLOWED"
    return 12345


def _default_as_user_value(spec):
    default = spec.get("default")
    return default


@pytest.mark.parametrize("name", sorted(DEBUGGER))
def test_debugger_schema_rejects_misspelling_and_wrong_type_and_accepts_defaults(name):
    base = getattr(rule_configs, DEBUGGER[name]["function"])()
    extra = (
        {"other_trials_s3_input_paths": ["s3://bucket/other-job/debug-output"]} if name == "SimilarAcrossRuns" else {}
    )
    params = catalogue.user_parameters(DEBUGGER[name])
    defaults = {k: s["default"] for k, s in params.items() if s.get("default") is not None}
    rule = Rule.sagemaker(base, rule_parameters=defaults, **extra)
    for key, value in defaults.items():
        assert rule.rule_parameters[key] == catalogue.to_api_string(value)
    for key, spec in params.items():  # issue 14: unknown names (SMD120) and bad values (SMD121) warn
        caught = _warned(Rule.sagemaker(base, rule_parameters={_misspell(key): "1"}, **extra))
        assert any("did you mean" in str(w) and repr(key) in str(w) for w in caught), caught
        wrong = _wrong_value(spec)
        if spec["type"] == "string" and not spec.get("allowed"):  # a number is sent as its text: a string (issue 36)
            assert _warned(Rule.sagemaker(base, rule_parameters={key: 12345}, **extra)) == []
            continue
        if isinstance(wrong, dict):  # not a value the API can carry: refused (SMD100), whatever the rule
            with pytest.raises(ConfigError, match="RuleParameters value is a string"):
                Rule.sagemaker(base, rule_parameters={key: wrong}, **extra)
            continue
        caught = _warned(Rule.sagemaker(base, rule_parameters={key: wrong}, **extra))
        assert any(f"{name}.{key} must be" in str(w) for w in caught), caught


def test_threshhold_is_caught_with_a_suggestion():
    """A warning since issue 14 (the API takes any RuleParameters; no evidence the rule job fails)."""
    [warning] = _warned(Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"threshhold": "0.01"}))
    assert "did you mean 'threshold'?" in str(warning) and warning.code == "SMD120"
    assert warning.path == ("DebugRuleConfigurations", 0, "RuleParameters", "threshhold")


def test_escape_hatch_passes_unknown_parameters_with_a_warning():
    rule = Rule.sagemaker(
        rule_configs.vanishing_gradient(), rule_parameters={"new_knob": "3"}, allow_unknown_parameters=["new_knob"]
    )
    assert rule.rule_parameters["new_knob"] == "3"
    assert [w.code for w in _warned(rule)] == ["SMD122"]
    other = Rule.sagemaker(
        rule_configs.vanishing_gradient(), rule_parameters={"other": "3"}, allow_unknown_parameters=["new_knob"]
    )
    assert [w.code for w in _warned(other)] == ["SMD120"]


def test_rule_to_invoke_on_builtin_is_refused():
    with pytest.raises(ConfigError, match="rule_to_invoke"):
        Rule.sagemaker(rule_configs.overfit(), rule_parameters={"rule_to_invoke": "Other"})


def test_base_trial_is_set_by_sagemaker():
    [warned] = _warned(Rule.sagemaker(rule_configs.overfit(), rule_parameters={"base_trial": "job"}))
    assert "set by SageMaker" in str(warned)


def test_similar_across_runs_warns_without_another_trial_and_renders_other_trial_keys():
    # the SDK builds it and the API accepts it (SMD124 is a warning): the constructor warns, as validation does
    with pytest.warns(ConfigWarning, match=r"another trial and none was given \(SMD124\)"):
        alone = Rule.sagemaker(rule_configs.similar_across_runs())
    assert not any(k.startswith("other_trial") for k in alone.rule_parameters)
    paths = ["s3://bucket/a/debug-output", "s3://bucket/b/debug-output"]
    ours = Rule.sagemaker(rule_configs.similar_across_runs(), other_trials_s3_input_paths=paths)
    from sagemaker.debugger import Rule as SdkRule

    theirs = SdkRule.sagemaker(upstream.similar_across_runs(), other_trials_s3_input_paths=paths)
    assert ours.rule_parameters == theirs.rule_parameters
    assert list(ours.rule_parameters)[:2] == ["other_trial_0", "other_trial_1"]
    with pytest.raises(ConfigError, match="s3://"):
        Rule.sagemaker(rule_configs.similar_across_runs(), other_trials_s3_input_paths=["/local/path"])


def test_values_render_as_api_strings_in_sdk_spelling():
    rule = Rule.sagemaker(
        rule_configs.loss_not_decreasing(),
        rule_parameters={
            "use_losses_collection": False,
            "num_steps": 20,
            "diff_percent": 0.5,
            "collection_names": ["losses", "metrics"],
        },
    )
    assert rule.rule_parameters == {
        "rule_to_invoke": "LossNotDecreasing",
        "use_losses_collection": "False",
        "num_steps": "20",
        "diff_percent": "0.5",
        "collection_names": "losses,metrics",
    }


def test_list_rules_and_describe():
    names = [r["name"] for r in rule_configs.list_rules()]
    assert len(names) == 33 and names[0] == "AllZero"
    xgb = {r["name"] for r in rule_configs.list_rules(kind="debugger", framework="xgboost")}
    assert {"TreeDepth", "CreateXgboostReport", "Overfit"} <= xgb and "VanishingGradient" not in xgb
    assert {r["kind"] for r in rule_configs.list_rules(kind="profiler")} == {"profiler"}
    info = rule_configs.describe("vanishinggradient")
    assert info["name"] == "VanishingGradient"
    assert info["default_collections"] == [
        {"CollectionName": "gradients", "CollectionParameters": {"save_interval": "500"}}
    ]
    assert [p["name"] for p in info["parameters"]] == ["base_trial", "threshold"]
    text = rule_configs.format_description(rule_configs.describe("CPUBottleneck"))
    assert "patience" in text and "(docs: 100)" in text
    with pytest.raises(ConfigError, match="did you mean 'VanishingGradient'"):
        rule_configs.describe("VanishingGradiant")
    with pytest.raises(ConfigError, match="framework"):
        rule_configs.list_rules(framework="jax")


def test_doc_discrepancies_are_recorded_in_the_data():
    assert PROFILER["CPUBottleneck"]["parameters"]["patience"]["default"] == 1000
    assert PROFILER["CPUBottleneck"]["parameters"]["patience"]["doc_default"] == 100
    assert PROFILER["StepOutlier"]["parameters"]["stddev"]["doc_default"] == 5


def test_get_collection_and_actions_live_here():
    assert rule_configs.get_collection("gradients") == upstream.get_collection("gradients")
    assert rule_configs.get_collection("nope") is None
    assert rule_configs.is_valid_action_object(rule_configs.StopTraining())
    assert not rule_configs.is_valid_action_object([rule_configs.StopTraining()])


def test_catalogue_files_are_valid_json_with_schemas_for_every_parameter():
    for kind in ("debugger", "profiler"):
        for name, entry in catalogue.rules(kind).items():
            for key, spec in entry["parameters"].items():
                assert "type" in spec and spec.get("description"), (name, key)
            json.dumps(entry)


def _stub_script():
    return load_script("generate_rule_configs_stub")


def test_stub_is_up_to_date_and_declares_every_public_name():
    import ast

    script = _stub_script()
    with open(script.OUTPUT, encoding="utf-8") as handle:
        text = handle.read()
    assert text == script.render_stub(), (
        "rule_configs/__init__.pyi is out of date: run python scripts/generate_rule_configs_stub.py"
    )
    tree = ast.parse(text)
    declared = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    declared |= {
        alias.asname or alias.name for node in tree.body if isinstance(node, ast.ImportFrom) for alias in node.names
    }
    assert set(rule_configs.__all__) <= declared
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    for name in PROFILER:
        if name == "ProfilerReport":
            continue
        init = next(
            item for item in classes[name].body if isinstance(item, ast.FunctionDef) and item.name == "__init__"
        )
        stub_params = [
            (arg.arg, ast.literal_eval(default)) for arg, default in zip(init.args.args[1:], init.args.defaults)
        ]
        assert stub_params == [
            (p.name, p.default) for p in inspect.signature(getattr(rule_configs, name)).parameters.values()
        ]


def test_package_data_ships_the_stub_and_py_typed():
    import configparser
    import os

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert os.path.exists(os.path.join(root, "rule_configs", "py.typed"))
    config = configparser.ConfigParser()
    config.read(os.path.join(root, "setup.cfg"))
    shipped = [p.strip() for p in config["options.package_data"]["rule_configs"].split(",")]
    assert {"*.json", "*.pyi", "py.typed"} <= set(shipped)
