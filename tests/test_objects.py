"""Hook, collection, TensorBoard and rule objects: SDK-compatible shapes, errors at construction."""
import copy

import pytest

# the SDK v2 is the oracle of most tests here (scripts/test.sh installs it; scripts/test_deps_range.sh does not)
sdk = pytest.importorskip("sagemaker.debugger", reason="the SageMaker Python SDK v2 (extra \"sagemaker\") is the oracle here")
import smdebug_rulesconfig as upstream

import rule_configs
from sm_debug_config import (
    ConfigWarning,
    CollectionConfig,
    ConfigError,
    DebuggerHookConfig,
    ProfilerRule,
    Rule,
    TensorBoardOutputConfig,
)
from sm_debug_config.model import catalogue


def warns(build):
    """Marks a case that the severity policy of issue 14 turned from a refusal into a warning."""
    build.warns = True
    return build

@pytest.mark.parametrize(
    "build, field",
    [
        (lambda: CollectionConfig(name=5), "CollectionConfig.name"),
        (lambda: CollectionConfig(name=""), "CollectionConfig.name"),
        (lambda: CollectionConfig("x" * 257), "CollectionConfig.name"),
        (lambda: CollectionConfig("g", {"save_interval": "0"}), "CollectionConfig('g').parameters.save_interval"),
        (warns(lambda: CollectionConfig("g", {"save_interval": "-5"})), "CollectionConfig('g').parameters.save_interval"),
        (warns(lambda: CollectionConfig("g", {"start_step": "-1"})), "CollectionConfig('g').parameters.start_step"),
        (lambda: CollectionConfig("g", {"save_steps": "1,two"}), "CollectionConfig('g').parameters.save_steps"),
        (warns(lambda: CollectionConfig("g", {"start_step": "10", "end_step": "5"})), "CollectionConfig('g').parameters.start_step"),
        (lambda: CollectionConfig("g", {"include_regex": "(a"}), "CollectionConfig('g').parameters.include_regex"),
        (warns(lambda: CollectionConfig("g", {"include_regex": "a{1,3}"})), "CollectionConfig('g').parameters.include_regex"),
        (lambda: CollectionConfig("g", {"reductions": "median"}), "CollectionConfig('g').parameters.reductions"),
        (warns(lambda: CollectionConfig("g", {"save_intervall": "5"})), "CollectionConfig('g').parameters.save_intervall"),
        (lambda: CollectionConfig("g", {"save_raw_tensor": "true"}), "CollectionConfig('g').parameters.save_raw_tensor"),
        (lambda: CollectionConfig("g", {"x" + str(i): "1" for i in range(21)}), "CollectionConfig.parameters"),
        (lambda: CollectionConfig("g", {"include_regex": "a" * 257}), "CollectionConfig.parameters.include_regex"),
        (lambda: CollectionConfig("g", {"save_interval": [1]}), "CollectionConfig.parameters.save_interval"),
        (lambda: CollectionConfig("g", "save_interval=5"), "CollectionConfig.parameters"),
        (lambda: DebuggerHookConfig(s3_output_path="bucket/prefix"), "DebuggerHookConfig.s3_output_path"),
        (warns(lambda: DebuggerHookConfig(container_local_output_path="tensors")), "DebuggerHookConfig.container_local_output_path"),
        (warns(lambda: DebuggerHookConfig(hook_parameters={"save_histogram": "true"})), "DebuggerHookConfig.hook_parameters.save_histogram"),
        (warns(lambda: DebuggerHookConfig(hook_parameters={"include_workers": "some"})), "DebuggerHookConfig.hook_parameters.include_workers"),
        (lambda: DebuggerHookConfig(collection_configs=["gradients"]), "DebuggerHookConfig.collection_configs[0]"),
        (lambda: DebuggerHookConfig(collection_configs=CollectionConfig("g")), "DebuggerHookConfig.collection_configs"),
        (lambda: TensorBoardOutputConfig(None), "TensorBoardOutputConfig.s3_output_path"),
        (lambda: TensorBoardOutputConfig("s3://b/tb", container_local_output_path=5), "TensorBoardOutputConfig.container_local_output_path"),
    ],
)
def test_bad_values_raise_config_error_naming_the_field(build, field):
    if getattr(build, "warns", False):  # runs, so a ConfigWarning at the same key since issue 14
        with pytest.warns(ConfigWarning) as caught:
            build()
        key = field.rsplit(".", 1)[-1]
        assert any(getattr(w.message, "path", ())[-1:] == (key,) for w in caught), [str(w.message) for w in caught]
        return
    with pytest.raises(ConfigError) as err:
        build()
    assert err.value.field == field
    assert isinstance(err.value, ValueError)



def test_setting_an_attribute_is_checked_too():
    config = CollectionConfig("gradients")
    with pytest.raises(ConfigError, match="CollectionConfig.name"):
        config.name = ""
    hook = DebuggerHookConfig()
    with pytest.raises(ConfigError):
        hook.s3_output_path = "not-s3"


def test_numbers_and_bools_become_api_strings_and_inputs_are_copied():
    params = {"save_interval": 100, "save_histogram": False}
    config = CollectionConfig("weights", params)
    assert config.parameters == {"save_interval": "100", "save_histogram": "false"}
    params["save_interval"] = 7
    assert config.parameters["save_interval"] == "100"


def test_mode_prefixes_and_disable_idiom_are_accepted():
    CollectionConfig("losses", {"train.save_interval": "10", "eval.save_interval": "1", "end_step": "0"})
    with pytest.warns(ConfigWarning, match="lower-case"):  # smdebug ignores the key (SMD135, a warning since issue 14)
        CollectionConfig("losses", {"TRAIN.save_interval": "10"})
    with pytest.warns(ConfigWarning, match="take a mode prefix"):  # ignored by smdebug: SMD135, a warning since issue 14
        CollectionConfig("losses", {"train.reductions": "mean"})


def test_request_dicts_match_the_sdk_objects():
    params = {"save_interval": "100", "include_regex": "conv0.*", "reductions": "mean,max"}
    assert CollectionConfig("c", params)._to_request_dict() == sdk.CollectionConfig("c", params)._to_request_dict()
    assert CollectionConfig("c")._to_request_dict() == sdk.CollectionConfig("c")._to_request_dict()
    kwargs = dict(s3_output_path="s3://b/x", container_local_output_path="/opt/ml/output/tensors", hook_parameters={"save_interval": "5"})
    ours = DebuggerHookConfig(collection_configs=[CollectionConfig("c", params)], **kwargs)
    theirs = sdk.DebuggerHookConfig(collection_configs=[sdk.CollectionConfig("c", params)], **kwargs)
    assert ours._to_request_dict() == theirs._to_request_dict()
    assert TensorBoardOutputConfig("s3://b/tb", "/tensorboard")._to_request_dict() == sdk.TensorBoardOutputConfig(
        "s3://b/tb", "/tensorboard"
    )._to_request_dict()


def test_collection_equality_and_hash_like_the_sdk():
    a, b = CollectionConfig("g", {"save_interval": "5"}), CollectionConfig("g", {"save_interval": "5"})
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != CollectionConfig("g", {"save_interval": "6"})
    assert a != "g"


@pytest.mark.parametrize("name", sorted(catalogue.rules("debugger")))
def test_builtin_rule_matches_sdk_rule(name):
    function = catalogue.rules("debugger")[name]["function"]
    extra = {"other_trials_s3_input_paths": ["s3://b/other/debug-output"]} if name == "SimilarAcrossRuns" else {}
    ours = Rule.sagemaker(getattr(rule_configs, function)(), **extra)
    theirs = sdk.Rule.sagemaker(getattr(upstream, function)(), **extra)
    assert ours.to_debugger_rule_config_dict() == theirs.to_debugger_rule_config_dict()
    assert [c._to_request_dict() for c in ours.collection_configs] == [c._to_request_dict() for c in theirs.collection_configs]
    assert ours.builtin_rule == name


def test_rule_with_everything_matches_sdk_rule():
    collections = [CollectionConfig("gradients", {"save_interval": "50"})]
    sdk_collections = [sdk.CollectionConfig("gradients", {"save_interval": "50"})]
    kwargs = dict(name="VG", container_local_output_path="/opt/ml/processing/output/rule", s3_output_path="s3://b/rules", rule_parameters={"threshold": "0.01"})
    ours = Rule.sagemaker(rule_configs.vanishing_gradient(), collections_to_save=collections, **kwargs)
    theirs = sdk.Rule.sagemaker(upstream.vanishing_gradient(), collections_to_save=sdk_collections, **kwargs)
    assert ours.to_debugger_rule_config_dict() == theirs.to_debugger_rule_config_dict()
    assert not ours.uses_default_collections


def test_custom_rules_match_sdk():
    kwargs = dict(
        name="CustomGradientRule",
        image_uri="111122223333.dkr.ecr.us-east-1.amazonaws.com/rules:1",
        instance_type="ml.t3.medium",
        volume_size_in_gb=30,
        source="s3://b/rules/custom.py",
        rule_to_invoke="CustomGradientRule",
        rule_parameters={"threshold": "20.0"},
        other_trials_s3_input_paths=["s3://b/other"],
    )
    assert Rule.custom(**kwargs).to_debugger_rule_config_dict() == sdk.Rule.custom(**kwargs).to_debugger_rule_config_dict()
    kwargs.pop("other_trials_s3_input_paths")
    assert ProfilerRule.custom(**kwargs).to_profiler_rule_config_dict() == sdk.ProfilerRule.custom(**kwargs).to_profiler_rule_config_dict()
    with pytest.raises(ConfigError, match="both source and rule_to_invoke"):
        Rule.custom("R", "img", "ml.m5.xlarge", 30, source="s3://b/x.py")
    with pytest.raises(ConfigError, match="instance_type"):
        Rule.custom("R", "img", None, None)


@pytest.mark.parametrize("name", ["ProfilerReport", "CPUBottleneck", "StepOutlier", "BatchSize", "LoadBalancing"])
def test_profiler_rules_match_sdk(name):
    ours = ProfilerRule.sagemaker(getattr(rule_configs, name)(), s3_output_path="s3://b/p")
    theirs = sdk.ProfilerRule.sagemaker(getattr(upstream, name)(), s3_output_path="s3://b/p")
    assert ours.to_profiler_rule_config_dict() == theirs.to_profiler_rule_config_dict()


def test_profiler_rule_from_upstream_object_is_checked():
    ProfilerRule.sagemaker(upstream.CPUBottleneck(threshold=50))
    with pytest.raises(ConfigError):
        ProfilerRule.sagemaker(rule_configs.vanishing_gradient())
    with pytest.raises(ConfigError, match="debugger rule"):
        ProfilerRule.sagemaker(type("X", (), {"rule_name": "VanishingGradient", "rule_parameters": {}})())


def test_rule_arguments_are_checked():
    with pytest.raises(ConfigError, match="base_config"):
        Rule.sagemaker("VanishingGradient")
    with pytest.raises(ConfigError, match="collections_to_save"):
        Rule.sagemaker(rule_configs.vanishing_gradient(), collections_to_save=["gradients"])
    with pytest.raises(ConfigError, match="actions"):
        Rule.sagemaker(rule_configs.vanishing_gradient(), actions="stop")
    with pytest.raises(ConfigError, match="action_json"):
        Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"action_json": "{}"})
    with pytest.raises(ConfigError, match="Rule.name"):
        Rule.sagemaker(rule_configs.vanishing_gradient(), name=5)


def test_rule_accepts_upstream_action_objects():
    rule = Rule.sagemaker(rule_configs.overfit(), actions=upstream.ActionList(upstream.StopTraining("job-a"), upstream.SMS("+14155550100")))
    assert rule.actions == rule_configs.ActionList(rule_configs.StopTraining("job-a"), rule_configs.SMS("+14155550100"))


def test_prepare_actions_is_sdk_compatible():
    rule = Rule.sagemaker(rule_configs.overfit(), actions=rule_configs.StopTraining())
    theirs = sdk.Rule.sagemaker(upstream.overfit(), actions=upstream.StopTraining())
    rule.prepare_actions("job-1")
    theirs.prepare_actions("job-1")
    assert rule.to_debugger_rule_config_dict() == theirs.to_debugger_rule_config_dict()


def test_objects_are_not_changed_by_building_rules_from_them():
    base = rule_configs.vanishing_gradient()
    snapshot = copy.deepcopy(base)
    params = {"threshold": 0.5}
    Rule.sagemaker(base, rule_parameters=params)
    assert base == snapshot and params == {"threshold": 0.5}


# --- attrs-native objects: evolve everywhere, and errors that say where they are ------------------

import attrs  # noqa: E402

from sm_debug_config import (  # noqa: E402
    DataloaderProfilingConfig,
    DetailedProfilingConfig,
    FrameworkProfile,
    Profiler,
    ProfilerConfig,
    PythonProfilingConfig,
)
from sm_debug_config.model.actions import SMS, ActionList, Email, StopTraining  # noqa: E402
from sm_debug_config.model.profiler import StepRange, TimeRange  # noqa: E402
from sm_debug_config.model.rules import DetailedProfilerProcessingJobConfig  # noqa: E402
from sm_debug_config.model.settings import DebuggerSetup, JobSettings  # noqa: E402


def _public_objects():
    return [
        CollectionConfig("gradients", {"save_interval": "5"}),
        DebuggerHookConfig(s3_output_path="s3://b/x", collection_configs=[CollectionConfig("g")]),
        TensorBoardOutputConfig("s3://b/tb"),
        Rule.sagemaker(rule_configs.overfit(), actions=ActionList(StopTraining(), Email("a@b.co"))),
        Rule.custom("R", "img", "ml.m5.xlarge", 30, source="s3://b/r.py", rule_to_invoke="R"),
        ProfilerRule.sagemaker(rule_configs.ProfilerReport(CPUBottleneck_threshold=70)),
        ProfilerRule.custom("R", "img", "ml.m5.xlarge", 30),
        StopTraining(), StopTraining("job-a"), Email("a@b.co"), SMS("+14155550100"), ActionList(StopTraining(), SMS("+14155550100")),
        DetailedProfilingConfig(start_step=3), DataloaderProfilingConfig(metrics_regex="a.*"), PythonProfilingConfig(python_profiler="pyinstrument"),
        StepRange(1, 2), TimeRange(10, 5),
        FrameworkProfile(start_step=2), FrameworkProfile(profiling_parameters={}), Profiler(), ProfilerConfig(profile_params=Profiler()),
        DetailedProfilerProcessingJobConfig(),
        rule_configs.CPUBottleneck(threshold=70), rule_configs.ProfilerReport(CPUBottleneck_threshold=70), rule_configs.ProfilerReport(),
        JobSettings(region="us-east-1"), DebuggerSetup(rules=[]),
    ]


@pytest.mark.parametrize("obj", _public_objects(), ids=lambda obj: type(obj).__name__)
def test_evolve_works_on_every_public_class(obj):
    copy_ = attrs.evolve(obj)
    assert copy_ == obj and copy_ is not obj
    assert repr(copy_) == repr(obj)


def test_evolve_changes_one_thing_and_leaves_the_original():
    rule = Rule.sagemaker(rule_configs.vanishing_gradient(), actions=StopTraining())
    quiet = attrs.evolve(rule, actions=None, collections_to_save=[])
    assert quiet.actions is None and quiet.collection_configs == [] and quiet.builtin_rule == "VanishingGradient"
    assert rule.actions == StopTraining() and rule.collection_configs
    assert attrs.evolve(rule_configs.CPUBottleneck(), threshold=70).rule_parameters["threshold"] == 70
    assert attrs.evolve(StopTraining(), job_name="job-1").serialize() == StopTraining().serialize("job-1")
    with pytest.warns(ConfigWarning, match="CPUBottleneck.threshold"):  # checked again on evolve (SMD121, a warning)
        attrs.evolve(rule_configs.CPUBottleneck(), threshold=500)


def test_constructors_keep_the_sdk_signatures():
    import inspect

    for ours, theirs in [(Rule, sdk.Rule), (ProfilerRule, sdk.ProfilerRule), (CollectionConfig, sdk.CollectionConfig), (DebuggerHookConfig, sdk.DebuggerHookConfig),
                         (TensorBoardOutputConfig, sdk.TensorBoardOutputConfig), (ProfilerConfig, sdk.ProfilerConfig), (FrameworkProfile, sdk.FrameworkProfile),
                         (Profiler, sdk.Profiler), (DetailedProfilingConfig, sdk.DetailedProfilingConfig), (DataloaderProfilingConfig, sdk.DataloaderProfilingConfig),
                         (PythonProfilingConfig, sdk.PythonProfilingConfig), (StopTraining, upstream.StopTraining), (Email, upstream.Email), (SMS, upstream.SMS)]:
        sdk_params = list(inspect.signature(theirs.__init__).parameters.values())[1:]
        ours_params = [p for p in inspect.signature(ours).parameters.values() if p.kind is not p.KEYWORD_ONLY]
        assert [p.name for p in ours_params] == [p.name for p in sdk_params], ours
        assert [p.default for p in ours_params if p.default is not p.empty] == [p.default for p in sdk_params if p.default is not p.empty] or ours is PythonProfilingConfig, ours
        assert [p.default is p.empty for p in ours_params] == [p.default is p.empty for p in sdk_params], ours


def _attribute_names(cls):
    """attrs fields, and for the profiler rule classes the ``rule_parameters`` map (where an unknown keyword would go)."""
    extra = {"rule_parameters"} if issubclass(cls, rule_configs.ProfilerRuleBase) else set()
    return {field.alias if field.name.startswith("_") else field.name for field in attrs.fields(cls)} | extra


CONSTRUCTOR_ERRORS = [
    (CollectionConfig, lambda: CollectionConfig(name=""), ("name",)),
    (CollectionConfig, lambda: CollectionConfig("g", {"save_interval": "0"}), ("parameters", "save_interval")),
    (CollectionConfig, lambda: CollectionConfig("g", {"include_regex": "a" * 257}), ("parameters", "include_regex")),
    (DebuggerHookConfig, lambda: DebuggerHookConfig(s3_output_path="bucket/prefix"), ("s3_output_path",)),
    (DebuggerHookConfig, lambda: DebuggerHookConfig(hook_parameters={"save_interval": "0"}), ("hook_parameters", "save_interval")),
    (DebuggerHookConfig, lambda: DebuggerHookConfig(collection_configs=[CollectionConfig("g"), "gradients"]), ("collection_configs", 1)),
    (TensorBoardOutputConfig, lambda: TensorBoardOutputConfig("s3://b/tb", "/opt/ml/output/tensorboard"), ("container_local_output_path",)),
    (Rule, lambda: Rule.sagemaker("VanishingGradient"), ("builtin_rule",)),
    (Rule, lambda: Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters=["threshold"]), ("rule_parameters",)),
    (Rule, lambda: Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"action_json": "{}"}), ("rule_parameters", "action_json")),
    (Rule, lambda: Rule.sagemaker(rule_configs.vanishing_gradient(), name=5), ("name",)),
    (Rule, lambda: Rule.sagemaker(rule_configs.vanishing_gradient(), collections_to_save=["g"]), ("collection_configs", 0)),
    (Rule, lambda: Rule.sagemaker(rule_configs.vanishing_gradient(), actions="stop"), ("actions",)),
    (Rule, lambda: Rule.sagemaker(rule_configs.similar_across_runs(), other_trials_s3_input_paths=["/local"]), ("rule_parameters", "other_trial_0")),
    (Rule, lambda: Rule.custom("R", "img", "ml.m5.xlarge", 30, source="s3://b/x.py"), ("rule_parameters", "rule_to_invoke")),
    (Rule, lambda: Rule.custom("R", "img", None, 30), ("instance_type",)),
    (Rule, lambda: Rule.custom("R", "img", "ml.m5.xlarge", -1), ("volume_size_in_gb",)),
    (ProfilerRule, lambda: ProfilerRule.sagemaker(rule_configs.vanishing_gradient()), ("builtin_rule",)),
    (ProfilerRule, lambda: ProfilerRule.sagemaker(upstream.CPUBottleneck(threshold=5), s3_output_path="x"), ("s3_output_path",)),
    (DetailedProfilingConfig, lambda: DetailedProfilingConfig(start_step=-1), ("start_step",)),
    (DetailedProfilingConfig, lambda: DetailedProfilingConfig(start_step=1, duration=5), ()),
    (PythonProfilingConfig, lambda: PythonProfilingConfig(cprofile_timer="cpu"), ("cprofile_timer",)),
    (DataloaderProfilingConfig, lambda: DataloaderProfilingConfig(metrics_regex="("), ("metrics_regex",)),
    (FrameworkProfile, lambda: FrameworkProfile(file_max_size=0), ("file_max_size",)),
    (FrameworkProfile, lambda: FrameworkProfile(start_step=1, duration=3), ()),
    (FrameworkProfile, lambda: FrameworkProfile(profiling_parameters={"a": 5}), ("profiling_parameters", "a")),
    (ProfilerConfig, lambda: ProfilerConfig(profile_params=Profiler(), framework_profile_params=FrameworkProfile()), ()),
    (ProfilerConfig, lambda: ProfilerConfig(system_monitor_interval_millis=0), ("system_monitor_interval_millis",)),
    (Profiler, lambda: Profiler(cpu_profiling_duration="an hour"), ("cpu_profiling_duration",)),
    (StopTraining, lambda: StopTraining("has_underscore"), ("training_job_prefix",)),
    (Email, lambda: Email(5), ("email_address",)),
    (SMS, lambda: SMS(5550100), ("phone_number",)),
    (ActionList, lambda: ActionList(StopTraining(), "email"), ("actions", 1)),
    (rule_configs.CPUBottleneck, lambda: rule_configs.CPUBottleneck(threshhold=5), ("rule_parameters", "threshhold")),
    (rule_configs.CPUBottleneck, lambda: rule_configs.CPUBottleneck(1, 2, 3, 4, 5, 6), None),
    (rule_configs.ProfilerReport, lambda: rule_configs.ProfilerReport(CPUBottleneck_threshhold=5), ("rule_parameters", "CPUBottleneck_threshhold")),
    (JobSettings, lambda: JobSettings(output_path="bucket"), ("output_path",)),
    (JobSettings, lambda: JobSettings(region="mars-1"), ("region",)),
]


@pytest.mark.parametrize("cls, build, path", CONSTRUCTOR_ERRORS, ids=[f"{c.__name__}-{i}" for i, (c, _b, _p) in enumerate(CONSTRUCTOR_ERRORS)])
def test_constructor_errors_carry_an_attribute_path(cls, build, path):
    """``()`` is a conflict between attributes: the error is the whole object's."""
    with pytest.raises(ConfigError) as err:
        build()
    if path == ():
        assert err.value.path == () and err.value.field.startswith(cls.__name__)
        return
    assert err.value.path, err.value
    assert err.value.path[0] in _attribute_names(cls), err.value.path
    if path is not None:
        assert err.value.path == path
    assert err.value.field  # the text the tests above assert is still there


def test_nested_errors_are_placed_under_the_attribute_that_holds_them():
    base = rule_configs.vanishing_gradient()
    base["CollectionConfigurations"] = [{"CollectionName": "gradients", "CollectionParameters": {"save_interval": "0"}}]
    with pytest.raises(ConfigError) as err:
        Rule.sagemaker(base)
    assert err.value.path == ("collection_configs", 0, "parameters", "save_interval")
    assert err.value.field == "CollectionConfig('gradients').parameters.save_interval"
