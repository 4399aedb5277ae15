"""Every public model class: evolve(), the SDK's constructor signatures, errors placed at an attribute path.
Hook and collection objects are tested in test_hook.py, rules in test_rules.py."""

import attrs
import pytest
import smdebug_rulesconfig as upstream

import rule_configs
from sm_debug_config import (
    CollectionConfig,
    ConfigError,
    DataloaderProfilingConfig,
    DebuggerHookConfig,
    DetailedProfilingConfig,
    FrameworkProfile,
    Profiler,
    ProfilerConfig,
    ProfilerRule,
    PythonProfilingConfig,
    Rule,
    TensorBoardOutputConfig,
    render,
)
from sm_debug_config.model.actions import SMS, ActionList, Email, StopTraining
from sm_debug_config.model.profiler import StepRange, TimeRange
from sm_debug_config.model.rules import DetailedProfilerProcessingJobConfig
from sm_debug_config.model.settings import DebuggerSetup, JobSettings

from tests.warnhelpers import config_warnings

# the SDK v2 is the oracle of most tests here (scripts/test.sh installs it; scripts/test_deps_range.sh does not)
sdk = pytest.importorskip(
    "sagemaker.debugger", reason="the SageMaker Python SDK v2 (extra \"sagemaker\") is the oracle here"
)


# --- attrs-native objects: evolve everywhere, and errors that say where they are ------------------


def _public_objects():
    return [
        CollectionConfig("gradients", {"save_interval": "5"}),
        DebuggerHookConfig(s3_output_path="s3://b/x", collection_configs=[CollectionConfig("g")]),
        TensorBoardOutputConfig("s3://b/tb"),
        Rule.sagemaker(rule_configs.overfit(), actions=ActionList(StopTraining(), Email("a@b.co"))),
        Rule.custom("R", "img", "ml.m5.xlarge", 30, source="s3://b/r.py", rule_to_invoke="R"),
        ProfilerRule.sagemaker(rule_configs.ProfilerReport(CPUBottleneck_threshold=70)),
        ProfilerRule.custom("R", "img", "ml.m5.xlarge", 30),
        StopTraining(),
        StopTraining("job-a"),
        Email("a@b.co"),
        SMS("+14155550100"),
        ActionList(StopTraining(), SMS("+14155550100")),
        DetailedProfilingConfig(start_step=3),
        DataloaderProfilingConfig(metrics_regex="a.*"),
        PythonProfilingConfig(python_profiler="pyinstrument"),
        StepRange(1, 2),
        TimeRange(10, 5),
        FrameworkProfile(start_step=2),
        FrameworkProfile(profiling_parameters={}),
        Profiler(),
        ProfilerConfig(profile_params=Profiler()),
        DetailedProfilerProcessingJobConfig(),
        rule_configs.CPUBottleneck(threshold=70),
        rule_configs.ProfilerReport(CPUBottleneck_threshold=70),
        rule_configs.ProfilerReport(),
        JobSettings(region="us-east-1"),
        DebuggerSetup(rules=[]),
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
    evolved = attrs.evolve(rule_configs.CPUBottleneck(), threshold=500)  # a warning: the pass finds it (issue 36)
    with config_warnings("SMD121"):
        render([ProfilerRule.sagemaker(evolved)], region="us-east-1", output_path="s3://bucket/out/")


def test_constructors_keep_the_sdk_signatures():
    import inspect

    for ours, theirs in [
        (Rule, sdk.Rule),
        (ProfilerRule, sdk.ProfilerRule),
        (CollectionConfig, sdk.CollectionConfig),
        (DebuggerHookConfig, sdk.DebuggerHookConfig),
        (TensorBoardOutputConfig, sdk.TensorBoardOutputConfig),
        (ProfilerConfig, sdk.ProfilerConfig),
        (FrameworkProfile, sdk.FrameworkProfile),
        (Profiler, sdk.Profiler),
        (DetailedProfilingConfig, sdk.DetailedProfilingConfig),
        (DataloaderProfilingConfig, sdk.DataloaderProfilingConfig),
        (PythonProfilingConfig, sdk.PythonProfilingConfig),
        (StopTraining, upstream.StopTraining),
        (Email, upstream.Email),
        (SMS, upstream.SMS),
    ]:
        sdk_params = list(inspect.signature(theirs.__init__).parameters.values())[1:]
        ours_params = [p for p in inspect.signature(ours).parameters.values() if p.kind is not p.KEYWORD_ONLY]
        assert [p.name for p in ours_params] == [p.name for p in sdk_params], ours
        assert [p.default for p in ours_params if p.default is not p.empty] == [
            p.default for p in sdk_params if p.default is not p.empty
        ] or ours is PythonProfilingConfig, ours
        assert [p.default is p.empty for p in ours_params] == [p.default is p.empty for p in sdk_params], ours


def _attribute_names(cls):
    """attrs fields, and for the profiler rule classes the ``rule_parameters`` map (where an unknown keyword
    would go)."""
    extra = {"rule_parameters"} if issubclass(cls, rule_configs.ProfilerRuleBase) else set()
    return {field.alias if field.name.startswith("_") else field.name for field in attrs.fields(cls)} | extra


CONSTRUCTOR_ERRORS = [
    (CollectionConfig, lambda: CollectionConfig(name=""), ("name",)),
    (CollectionConfig, lambda: CollectionConfig("g", {"save_interval": "0"}), ("parameters", "save_interval")),
    (CollectionConfig, lambda: CollectionConfig("g", {"include_regex": "a" * 257}), ("parameters", "include_regex")),
    (DebuggerHookConfig, lambda: DebuggerHookConfig(s3_output_path="bucket/prefix"), ("s3_output_path",)),
    (
        DebuggerHookConfig,
        lambda: DebuggerHookConfig(hook_parameters={"save_interval": "0"}),
        ("hook_parameters", "save_interval"),
    ),
    (
        DebuggerHookConfig,
        lambda: DebuggerHookConfig(collection_configs=[CollectionConfig("g"), "gradients"]),
        ("collection_configs", 1),
    ),
    (
        TensorBoardOutputConfig,
        lambda: TensorBoardOutputConfig("s3://b/tb", "/opt/ml/output/tensorboard"),
        ("container_local_output_path",),
    ),
    (Rule, lambda: Rule.sagemaker("VanishingGradient"), ("builtin_rule",)),
    (
        Rule,
        lambda: Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters=["threshold"]),
        ("rule_parameters",),
    ),
    (
        Rule,
        lambda: Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"action_json": "{}"}),
        ("rule_parameters", "action_json"),
    ),
    (Rule, lambda: Rule.sagemaker(rule_configs.vanishing_gradient(), name=5), ("name",)),
    (
        Rule,
        lambda: Rule.sagemaker(rule_configs.vanishing_gradient(), collections_to_save=["g"]),
        ("collection_configs", 0),
    ),
    (Rule, lambda: Rule.sagemaker(rule_configs.vanishing_gradient(), actions="stop"), ("actions",)),
    (
        Rule,
        lambda: Rule.sagemaker(rule_configs.similar_across_runs(), other_trials_s3_input_paths=["/local"]),
        ("rule_parameters", "other_trial_0"),
    ),
    (
        Rule,
        lambda: Rule.custom("R", "img", "ml.m5.xlarge", 30, source="s3://b/x.py"),
        ("rule_parameters", "rule_to_invoke"),
    ),
    (Rule, lambda: Rule.custom("R", "img", None, 30), ("instance_type",)),
    (Rule, lambda: Rule.custom("R", "img", "ml.m5.xlarge", -1), ("volume_size_in_gb",)),
    (ProfilerRule, lambda: ProfilerRule.sagemaker(rule_configs.vanishing_gradient()), ("builtin_rule",)),
    (
        ProfilerRule,
        lambda: ProfilerRule.sagemaker(upstream.CPUBottleneck(threshold=5), s3_output_path="x"),
        ("s3_output_path",),
    ),
    (DetailedProfilingConfig, lambda: DetailedProfilingConfig(start_step=-1), ("start_step",)),
    (DetailedProfilingConfig, lambda: DetailedProfilingConfig(start_step=1, duration=5), ()),
    (PythonProfilingConfig, lambda: PythonProfilingConfig(cprofile_timer="cpu"), ("cprofile_timer",)),
    (DataloaderProfilingConfig, lambda: DataloaderProfilingConfig(metrics_regex="("), ("metrics_regex",)),
    (FrameworkProfile, lambda: FrameworkProfile(file_max_size=0), ("file_max_size",)),
    (FrameworkProfile, lambda: FrameworkProfile(start_step=1, duration=3), ()),
    (FrameworkProfile, lambda: FrameworkProfile(profiling_parameters={"a": 5}), ("profiling_parameters", "a")),
    (
        ProfilerConfig,
        lambda: ProfilerConfig(profile_params=Profiler(), framework_profile_params=FrameworkProfile()),
        (),
    ),
    (ProfilerConfig, lambda: ProfilerConfig(system_monitor_interval_millis=0), ("system_monitor_interval_millis",)),
    (Profiler, lambda: Profiler(cpu_profiling_duration="an hour"), ("cpu_profiling_duration",)),
    (StopTraining, lambda: StopTraining("has_underscore"), ("training_job_prefix",)),
    (Email, lambda: Email(5), ("email_address",)),
    (SMS, lambda: SMS(5550100), ("phone_number",)),
    (ActionList, lambda: ActionList(StopTraining(), "email"), ("actions", 1)),
    (rule_configs.CPUBottleneck, lambda: rule_configs.CPUBottleneck(threshhold=5), ("rule_parameters", "threshhold")),
    (rule_configs.CPUBottleneck, lambda: rule_configs.CPUBottleneck(1, 2, 3, 4, 5, 6), None),
    (
        rule_configs.ProfilerReport,
        lambda: rule_configs.ProfilerReport(CPUBottleneck_threshhold=5),
        ("rule_parameters", "CPUBottleneck_threshhold"),
    ),
    (JobSettings, lambda: JobSettings(output_path="bucket"), ("output_path",)),
    (JobSettings, lambda: JobSettings(region="mars-1"), ("region",)),
]


@pytest.mark.parametrize(
    "cls, build, path",
    CONSTRUCTOR_ERRORS,
    ids=[f"{c.__name__}-{i}" for i, (c, _b, _p) in enumerate(CONSTRUCTOR_ERRORS)],
)
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
