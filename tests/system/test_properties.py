"""Property-based tests: random valid configs render valid requests that every consumer accepts;
random junk to every public entry point gives ConfigError (or findings), never another exception.

Profiles (see tests/conftest.py): ``ci`` (fixed seed, the default in scripts/test.sh) and
``long`` for local soak runs: ``HYPOTHESIS_PROFILE=long pytest tests/system/test_properties.py``.
Each property has its own example budget for the ``ci`` profile (``strategies.examples``).
"""
import copy
import functools
import json
import logging

import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from sm_debug_config import (
    CollectionConfig,
    ConfigError,
    DataloaderProfilingConfig,
    DebuggerHookConfig,
    DetailedProfilingConfig,
    FrameworkProfile,
    HorovodProfilingConfig,
    Profiler,
    ProfilerConfig,
    ProfilerRule,
    PythonProfilingConfig,
    Rule,
    SMDataParallelProfilingConfig,
    TensorBoardOutputConfig,
    render,
    rule_configs,
    validate,
)
from sm_debug_config.apischema import validate_api
from sm_debug_config.findings import collecting
from sm_debug_config.reverse import from_request

from tests.strategies import JUNK, configurations, examples

logging.getLogger("smdebug").setLevel(logging.ERROR)

# Examples per property in the ci profile (dev runs fewer, long at least its soak size): a round
# trip through every consumer costs ~0.1 s, a constructor call with junk well under 1 ms, and the
# 29 constructors share one budget's worth of the CI time.
CI_BUDGET = {"round_trip": 300, "constructor": 150, "render": 300, "validate": 300, "nesting": 100}

BASE_REQUEST = {
    "TrainingJobName": "job",
    "AlgorithmSpecification": {
        "TrainingImage": "111122223333.dkr.ecr.us-east-1.amazonaws.com/x:1",
        "TrainingInputMode": "File",
    },
    "RoleArn": "arn:aws:iam::111122223333:role/SageMaker",
    "OutputDataConfig": {"S3OutputPath": "s3://bucket/out/"},
    "ResourceConfig": {"InstanceType": "ml.m5.xlarge", "InstanceCount": 1, "VolumeSizeInGB": 30},
    "StoppingCondition": {"MaxRuntimeInSeconds": 3600},
}


@functools.lru_cache(maxsize=None)
def _create_training_job_shape():
    # Loading botocore's SageMaker model costs far more than validating against it: load it once.
    import botocore.session

    return (
        botocore.session.get_session().get_service_model("sagemaker").operation_model("CreateTrainingJob").input_shape
    )


def _botocore_errors(fields):
    from botocore.validate import ParamValidator

    report = ParamValidator().validate(dict(BASE_REQUEST, **fields), _create_training_job_shape())
    return report.generate_report() if report.has_errors() else ""


def _smdebug_parses(fields, tmp_path_factory):
    # a skip, not the ModuleNotFoundError conftest.py turns into one: Hypothesis would shrink an error first
    pytest.importorskip("smdebug.core.json_config", reason="smdebug, this test's last oracle, cannot be imported here")
    from smdebug.core.collection_manager import CollectionManager
    from smdebug.core.json_config import add_collections_to_manager, collect_hook_config_params

    hook = fields.get("DebugHookConfig")
    if hook:
        params = collect_hook_config_params(hook)
        add_collections_to_manager(CollectionManager(), hook, params)
    profiler = fields.get("ProfilerConfig", {})
    for key, value in (profiler.get("ProfilingParameters") or {}).items():
        if key.endswith("Config"):
            parsed = eval(value.lower())  # noqa: S307 - exactly what the training container does
            assert isinstance(parsed, dict) and "duration" not in parsed


@examples(
    CI_BUDGET["round_trip"], suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large], deadline=None
)
@given(config=configurations())
def test_valid_configs_render_requests_everyone_accepts(config, tmp_path_factory):
    with collecting():  # what a random configuration warns is not the point: that everyone accepts the request is
        _renders_requests_everyone_accepts(config, tmp_path_factory)


def _renders_requests_everyone_accepts(config, tmp_path_factory):
    snapshot = repr(config)
    fields = render(**config)
    assert repr(config) == snapshot  # inputs untouched
    assert [
        f for f in validate(fields, framework=config["framework"], region=config["region"]) if f.severity == "error"
    ] == []
    assert validate_api(fields) == []
    assert _botocore_errors(fields) == ""
    _smdebug_parses(fields, tmp_path_factory)
    names = [c["CollectionName"] for c in (fields.get("DebugHookConfig") or {}).get("CollectionConfigurations", [])]
    assert len(names) == len(set(names))
    assert json.dumps(fields) == json.dumps(render(**copy.deepcopy(config)))
    rebuilt = from_request(
        fields, region=config["region"], job_name=config["job_name"], output_path=config["output_path"]
    )
    assert rebuilt.render() == fields


def _only_config_errors(call):
    try:
        return call()
    except ConfigError:
        return None


CONSTRUCTORS = [
    lambda a, b: CollectionConfig(a, b),
    lambda a, b: DebuggerHookConfig(a, b),
    lambda a, b: DebuggerHookConfig(hook_parameters=a, collection_configs=b),
    lambda a, b: TensorBoardOutputConfig(a, b),
    lambda a, b: Rule.sagemaker(a, rule_parameters=b),
    lambda a, b: Rule.sagemaker(rule_configs.vanishing_gradient(), name=a, rule_parameters=b),
    lambda a, b: Rule.sagemaker(
        rule_configs.similar_across_runs(), other_trials_s3_input_paths=a, collections_to_save=b
    ),
    lambda a, b: Rule.sagemaker(rule_configs.overfit(), actions=a, container_local_output_path=b),
    lambda a, b: Rule.custom(a, b, "ml.m5.xlarge", 30),
    lambda a, b: Rule.custom("R", "img", a, b, source="s3://b/r.py", rule_to_invoke="R"),
    lambda a, b: ProfilerRule.sagemaker(a, name=b),
    lambda a, b: ProfilerRule.custom("R", "img", "ml.m5.xlarge", 30, rule_parameters=a, s3_output_path=b),
    lambda a, b: ProfilerConfig(a, b),
    lambda a, b: ProfilerConfig(framework_profile_params=a, disable_profiler=b),
    lambda a, b: FrameworkProfile(a, b),
    lambda a, b: FrameworkProfile(start_step=a, duration=b),
    lambda a, b: FrameworkProfile(file_close_interval=a, detailed_profiling_config=b),
    lambda a, b: DetailedProfilingConfig(a, b),
    lambda a, b: DataloaderProfilingConfig(start_unix_time=a, metrics_regex=b),
    lambda a, b: PythonProfilingConfig(python_profiler=a, cprofile_timer=b),
    lambda a, b: HorovodProfilingConfig(duration=a, profile_default_steps=b),
    lambda a, b: SMDataParallelProfilingConfig(a, b),
    lambda a, b: Profiler(a, b),
    lambda a, b: rule_configs.CPUBottleneck(a, b),
    lambda a, b: rule_configs.ProfilerReport(**({a: b} if isinstance(a, str) else {})),
    lambda a, b: rule_configs.Email(a),
    lambda a, b: rule_configs.SMS(a),
    lambda a, b: rule_configs.StopTraining(a),
    lambda a, b: rule_configs.ActionList(a, b),
]


@pytest.mark.parametrize("build", CONSTRUCTORS, ids=[f"ctor{i}" for i in range(len(CONSTRUCTORS))])
@examples(CI_BUDGET["constructor"], suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(a=JUNK, b=JUNK)
def test_constructors_raise_only_config_errors(build, a, b):
    with collecting():  # junk may warn (unknown keys, odd values): what is said is not the point here
        _only_config_errors(lambda: build(a, b))


RENDER_ARGS = [
    "rules",
    "debugger_hook_config",
    "profiler_config",
    "tensorboard_output_config",
    "disable_profiler",
    "region",
    "output_path",
    "job_name",
    "instance_type",
    "rule_image_uri",
    "defaults",
    "framework",
    "disable_debugger",
]


@examples(CI_BUDGET["render"], suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    kwargs=st.dictionaries(st.sampled_from(RENDER_ARGS), JUNK, max_size=4),
    region=st.sampled_from(["us-east-1", "eu-west-1"]),
)
def test_render_raises_only_config_errors_and_never_emits_a_bad_request(kwargs, region):
    kwargs.setdefault("region", region)
    with collecting():  # junk may warn (odd values that run): what is said is not the point here
        fields = _only_config_errors(lambda: render(**kwargs))
    if fields is not None:
        assert validate_api(fields) == []


@examples(CI_BUDGET["validate"], suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    request=st.one_of(
        JUNK,
        st.fixed_dictionaries(
            {},
            optional={
                f: JUNK
                for f in (
                    "DebugHookConfig",
                    "DebugRuleConfigurations",
                    "ProfilerConfig",
                    "ProfilerRuleConfigurations",
                    "TensorBoardOutputConfig",
                )
            },
        ),
    )
)
def test_validate_returns_findings_or_config_error(request):
    findings = _only_config_errors(lambda: validate(request))
    for finding in findings or []:
        assert finding.severity in ("error", "warning", "info") and finding.code.startswith("SMD")


@examples(CI_BUDGET["nesting"], deadline=None)
@given(depth=st.integers(50, 3000))
def test_deep_nesting_is_not_a_crash(depth):
    nested = "leaf"
    for _ in range(depth):
        nested = {"CollectionParameters": nested}
    _only_config_errors(
        lambda: validate({"DebugHookConfig": {"S3OutputPath": "s3://b/o", "CollectionConfigurations": [nested]}})
    )
    _only_config_errors(
        lambda: validate(
            {"ProfilerConfig": {"ProfilingParameters": {"DetailedProfilingConfig": "[" * depth + "]" * depth}}}
        )
    )
