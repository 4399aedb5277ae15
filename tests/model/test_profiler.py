"""Profiler objects: the SDK's ProfilingParameters strings, with DurationInSeconds, and clear errors."""
import ast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sm_debug_config import (
    ConfigError,
    DataloaderProfilingConfig,
    DetailedProfilingConfig,
    FrameworkProfile,
    HorovodProfilingConfig,
    Profiler,
    ProfilerConfig,
    PythonProfiler,
    PythonProfilingConfig,
    SMDataParallelProfilingConfig,
    cProfileTimer,
)

# the SDK v2 is the oracle of most tests here (scripts/test.sh installs it; scripts/test_deps_range.sh does not)
sdk = pytest.importorskip(
    "sagemaker.debugger", reason="the SageMaker Python SDK v2 (extra \"sagemaker\") is the oracle here"
)

PAIRS = [
    (DetailedProfilingConfig, sdk.DetailedProfilingConfig),
    (DataloaderProfilingConfig, sdk.DataloaderProfilingConfig),
    (PythonProfilingConfig, sdk.PythonProfilingConfig),
    (HorovodProfilingConfig, sdk.HorovodProfilingConfig),
    (SMDataParallelProfilingConfig, sdk.SMDataParallelProfilingConfig),
]


def _sdk_with_duration_fix(text):
    return text.replace('"Duration":', '"DurationInSeconds":')


@pytest.mark.parametrize("ours, theirs", PAIRS)
@settings(max_examples=50, deadline=None)
@given(
    start=st.one_of(st.none(), st.integers(0, 10**6)),
    num=st.one_of(st.none(), st.integers(1, 10**6)),
    default=st.booleans(),
)
def test_step_ranges_match_the_sdk(ours, theirs, start, num, default):
    assert ours(start_step=start, num_steps=num, profile_default_steps=default).to_json_string() == theirs(
        start_step=start, num_steps=num, profile_default_steps=default
    ).to_json_string()


@pytest.mark.parametrize("ours, theirs", PAIRS)
@settings(max_examples=30, deadline=None)
@given(
    start=st.one_of(st.none(), st.integers(0, 4 * 10**9)),
    duration=st.one_of(st.none(), st.integers(1, 10**5), st.floats(0.5, 1e5)),
)
def test_time_ranges_write_duration_in_seconds(ours, theirs, start, duration):
    expected = _sdk_with_duration_fix(theirs(start_unix_time=start, duration=duration).to_json_string())
    assert ours(start_unix_time=start, duration=duration).to_json_string() == expected


def test_python_profiler_options_match_the_sdk():
    for profiler in PythonProfiler:
        for timer in cProfileTimer:
            sdk_profiler = getattr(sdk.PythonProfiler, profiler.name)
            sdk_timer = getattr(sdk.cProfileTimer, timer.name)
            assert (
                PythonProfilingConfig(start_step=3, python_profiler=profiler, cprofile_timer=timer).to_json_string()
                == sdk.PythonProfilingConfig(
                    start_step=3, python_profiler=sdk_profiler, cprofile_timer=sdk_timer
                ).to_json_string()
            )
    assert PythonProfilingConfig(python_profiler="pyinstrument").python_profiler is PythonProfiler.PYINSTRUMENT


def test_framework_profile_matches_the_sdk():
    cases = [
        {},
        dict(start_step=2, num_steps=4),
        dict(local_path="/opt/ml/output/prof", file_max_size=100, file_close_interval=1.5, file_open_fail_threshold=3),
        dict(
            detailed_profiling_config=DetailedProfilingConfig(start_step=1),
            python_profiling_config=PythonProfilingConfig(num_steps=2),
        ),
    ]
    for kwargs in cases:
        sdk_kwargs = {
            k: (getattr(sdk, type(val).__name__)(**_ctor_args(val)) if hasattr(val, "to_json_string") else val)
            for k, val in kwargs.items()
        }
        assert (
            FrameworkProfile(**kwargs).profiling_parameters == sdk.FrameworkProfile(**sdk_kwargs).profiling_parameters
        )


def _ctor_args(config):
    rng = config.range
    return {"start_step": getattr(rng, "start_step", None), "num_steps": getattr(rng, "num_steps", None)}


def test_profiler_config_request_matches_the_sdk():
    for kwargs in [
        dict(s3_output_path="s3://b/p"),
        dict(s3_output_path="s3://b/p", system_monitor_interval_millis=100),
        dict(disable_profiler=True, s3_output_path="s3://b/p"),
        dict(s3_output_path="s3://b/p", framework_profile_params="fp"),
        dict(profile_params="p"),
    ]:
        ours_kwargs = dict(kwargs)
        sdk_kwargs = dict(kwargs)
        if kwargs.get("framework_profile_params"):
            ours_kwargs["framework_profile_params"], sdk_kwargs["framework_profile_params"] = (
                FrameworkProfile(),
                sdk.FrameworkProfile(),
            )
        if kwargs.get("profile_params"):
            ours_kwargs["profile_params"], sdk_kwargs["profile_params"] = Profiler(), sdk.Profiler()
        assert ProfilerConfig(**ours_kwargs)._to_request_dict() == sdk.ProfilerConfig(**sdk_kwargs)._to_request_dict()


@pytest.mark.parametrize(
    "build, field",
    [
        (lambda: DetailedProfilingConfig(start_step=-1), "DetailedProfilingConfig.start_step"),
        (lambda: DetailedProfilingConfig(num_steps=0), "DetailedProfilingConfig.num_steps"),
        (lambda: DetailedProfilingConfig(num_steps=1.5), "DetailedProfilingConfig.num_steps"),
        (lambda: DetailedProfilingConfig(start_step=1, duration=5), "DetailedProfilingConfig"),
        (lambda: DetailedProfilingConfig(duration=0), "DetailedProfilingConfig.duration"),
        (lambda: DetailedProfilingConfig(start_unix_time=10**20), "DetailedProfilingConfig.start_unix_time"),
        (lambda: DetailedProfilingConfig(profile_default_steps="yes"), "DetailedProfilingConfig.profile_default_steps"),
        (lambda: DataloaderProfilingConfig(metrics_regex="("), "DataloaderProfilingConfig.metrics_regex"),
        (lambda: PythonProfilingConfig(python_profiler="yappi"), "PythonProfilingConfig.python_profiler"),
        (lambda: PythonProfilingConfig(cprofile_timer="cpu"), "PythonProfilingConfig.cprofile_timer"),
        (lambda: FrameworkProfile(file_max_size=0), "FrameworkProfile.file_max_size"),
        (lambda: FrameworkProfile(file_close_interval=-1), "FrameworkProfile.file_close_interval"),
        (lambda: FrameworkProfile(start_step=1, duration=3), "FrameworkProfile.DetailedProfilingConfig"),
        (
            lambda: FrameworkProfile(detailed_profiling_config=PythonProfilingConfig()),
            "FrameworkProfile.detailed_profiling_config",
        ),
        (lambda: ProfilerConfig(system_monitor_interval_millis=0), "ProfilerConfig.system_monitor_interval_millis"),
        (lambda: ProfilerConfig(s3_output_path="bucket"), "ProfilerConfig.s3_output_path"),
        (lambda: ProfilerConfig(disable_profiler="false"), "ProfilerConfig.disable_profiler"),
        (
            lambda: ProfilerConfig(profile_params=Profiler(), framework_profile_params=FrameworkProfile()),
            "ProfilerConfig",
        ),
        (
            lambda: ProfilerConfig(framework_profile_params={"LocalPath": "/x"}),
            "ProfilerConfig.framework_profile_params",
        ),
        (lambda: Profiler(cpu_profiling_duration="an hour"), "Profiler.cpu_profiling_duration"),
    ],
)
def test_bad_profiler_values_raise_config_error(build, field):
    with pytest.raises(ConfigError) as err:
        build()
    assert err.value.field == field


def test_a_relative_profiler_path_warns():
    """Issue 14: the API takes any LocalPath; a relative one runs (resolved against the working directory)."""
    from sm_debug_config import ConfigWarning

    with pytest.warns(ConfigWarning, match="FrameworkProfile.local_path.*SMD153"):
        FrameworkProfile(local_path="profiler")


def test_metric_strings_eval_like_the_container_after_lowercasing():
    config = DataloaderProfilingConfig(start_step=3, metrics_regex='Data"Loader\\d+')
    parsed = eval(config.to_json_string().lower())  # noqa: S307 - what the training container does
    assert parsed == {"startstep": 3, "numsteps": 1, "metricsregex": 'data"loader\\d+'}
    # plain values keep the SDK's exact bytes
    assert (
        DataloaderProfilingConfig(start_step=3).to_json_string()
        == '{"StartStep": 3, "NumSteps": 1, "MetricsRegex": ".*", }'
    )
    ast.literal_eval(FrameworkProfile().profiling_parameters["PythonProfilingConfig"])


def test_profiling_parameters_can_be_replaced_like_the_sdk_does():
    profile = FrameworkProfile()
    profile.profiling_parameters = {}
    assert profile.profiling_parameters == {}
    assert ProfilerConfig(framework_profile_params=profile)._to_request_dict()["ProfilingParameters"] == {}
