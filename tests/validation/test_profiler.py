"""Profiler checks (sm_debug_config/validation/profiler.py: SMD140-SMD145, SMD160): each code's request that triggers
it (code and path) and a near-identical one that does not, as cfn-lint keeps a rule's good and bad templates beside
it. The registry's drift test (test_validation.py) wants a pair for every code."""
import pytest

from tests.validation.valhelpers import OUT, assert_case, assert_fix_case, case_ids, fix_ids, profiler, rule

CASES = [
    # code, path, bad request, good request, validate kwargs
    (
        "SMD140",
        "/ProfilerConfig/ProfilingParameters/DetailedProfilingConfig",
        {"ProfilerConfig": profiler(DetailedProfilingConfig='{"StartStep": 5, "NumSteps": null}')},
        {"ProfilerConfig": profiler(DetailedProfilingConfig='{"StartStep": 5, "NumSteps": 1}')},
        {},
    ),
    (
        "SMD140",
        "/ProfilerConfig/ProfilingParameters/PythonProfilingConfig",
        {"ProfilerConfig": profiler(PythonProfilingConfig='{"StartStep": 5')},
        {"ProfilerConfig": profiler(PythonProfilingConfig='{"StartStep": 5}')},
        {},
    ),
    (
        "SMD140",
        "/ProfilerConfig/ProfilingParameters/DetailedProfilingConfig",
        {"ProfilerConfig": profiler(DetailedProfilingConfig="")},
        {"ProfilerConfig": profiler(DetailedProfilingConfig="dict(StartStep=5, NumSteps=2)")},
        {},
    ),
    (
        "SMD141",
        "/ProfilerConfig/ProfilingParameters/DetailedProfilingConfig",
        {
            "ProfilerConfig": profiler(
                DetailedProfilingConfig='{"StartTimeInSecSinceEpoch": 1900000000, "Duration": 60}'
            )
        },
        {
            "ProfilerConfig": profiler(
                DetailedProfilingConfig='{"StartTimeInSecSinceEpoch": 1900000000, "DurationInSeconds": 60}'
            )
        },
        {},
    ),
    (
        "SMD141",
        "/ProfilerConfig/ProfilingParameters/PythonProfilingConfig",
        {"ProfilerConfig": profiler(PythonProfilingConfig='{"StartStep": 1, "NumSteps": 1, "cProfileTimer": "cpu"}')},
        {
            "ProfilerConfig": profiler(
                PythonProfilingConfig='{"StartStep": 1, "NumSteps": 1, "cProfileTimer": "cpu_time"}'
            )
        },
        {},
    ),
    (
        "SMD141",
        "/ProfilerConfig/ProfilingParameters/DetailedProfilingConfig",
        {"ProfilerConfig": profiler(DetailedProfilingConfig='{"StartStep": 1, "DurationInSeconds": 5}')},
        {"ProfilerConfig": profiler(DetailedProfilingConfig='{"StartStep": 1, "NumSteps": 5}')},
        {},
    ),
    (
        "SMD141",
        "/ProfilerConfig/ProfilingParameters/DetailedProfilingConfig",
        {"ProfilerConfig": profiler(DetailedProfilingConfig="[5, 1]")},
        {"ProfilerConfig": profiler(DetailedProfilingConfig="{'StartStep': 5, 'NumSteps': 1}")},
        {},
    ),
    (
        "SMD142",
        "/ProfilerConfig/ProfilingParameters/DataloaderProfilingConfig",
        {
            "ProfilerConfig": profiler(
                DataloaderProfilingConfig='{"StartStep": 1, "NumSteps": 1, "MetricsRegex": "\\\\S+Loader"}'
            )
        },
        {
            "ProfilerConfig": profiler(
                DataloaderProfilingConfig='{"StartStep": 1, "NumSteps": 1, "MetricsRegex": "\\\\s+loader"}'
            )
        },
        {},
    ),
    (
        "SMD142",
        "/ProfilerConfig/ProfilingParameters/LocalPath",
        {"ProfilerConfig": profiler(LocalPath="/opt/ml/output/Profiler")},
        {"ProfilerConfig": profiler(LocalPath="/opt/ml/output/profiler")},
        {},
    ),
    (
        "SMD143",
        "/ProfilerConfig/ProfilingParameters/RotateMaxFileSizeInBytes",
        {"ProfilerConfig": profiler(RotateMaxFileSizeInBytes="10MB")},
        {"ProfilerConfig": profiler(RotateMaxFileSizeInBytes="1e7")},
        {},
    ),
    (
        "SMD143",
        "/ProfilerConfig/ProfilingParameters/DetailedProfilerConfig",
        {"ProfilerConfig": profiler(DetailedProfilerConfig='{"StartStep": 5}')},
        {"ProfilerConfig": profiler(DetailedProfilingConfig='{"StartStep": 5}')},
        {},
    ),
    (
        "SMD144",
        "/ProfilerConfig/ProfilingIntervalInMilliseconds",
        {"ProfilerConfig": {"S3OutputPath": OUT, "DisableProfiler": False, "ProfilingIntervalInMilliseconds": 250}},
        {"ProfilerConfig": {"S3OutputPath": OUT, "DisableProfiler": False, "ProfilingIntervalInMilliseconds": 200}},
        {},
    ),
    (
        "SMD145",
        "/ProfilerConfig/ProfilingParameters/HorovodProfilingConfig",
        {"ProfilerConfig": profiler(HorovodProfilingConfig='{"StartStep": 13, "NumSteps": 1, }')},
        {"ProfilerConfig": profiler(SMDataParallelProfilingConfig='{"StartStep": 13, "NumSteps": 1, }')},
        {},
    ),
    (
        "SMD160",
        "/ProfilerRuleConfigurations",
        {"ProfilerConfig": {"DisableProfiler": True}, "ProfilerRuleConfigurations": [rule("ProfilerReport")]},
        {
            "ProfilerConfig": {"DisableProfiler": False, "S3OutputPath": OUT},
            "ProfilerRuleConfigurations": [rule("ProfilerReport")],
        },
        {},
    ),
]


@pytest.mark.parametrize("code, path, bad, good, kwargs", CASES, ids=case_ids(CASES))
def test_check_fires_on_bad_and_not_on_near_identical_good(code, path, bad, good, kwargs):
    assert_case(code, path, bad, good, kwargs)


def test_smd145_only_for_a_horovod_config_the_user_set():
    """Issue 37: FrameworkProfile renders a HorovodProfilingConfig for every profile without per-metric configs (the
    SDK does); only one the user set is reported."""
    from sm_debug_config import FrameworkProfile, HorovodProfilingConfig, ProfilerConfig, render
    from sm_debug_config.validation import validate

    def smd145(profile):
        request = render(profiler_config=ProfilerConfig(framework_profile_params=profile), region="us-east-1",
                         output_path=OUT, validate=False)
        return [f.pointer for f in validate(request) if f.code == "SMD145"]

    assert smd145(FrameworkProfile()) == []  # the default windows
    assert smd145(FrameworkProfile(start_step=3, num_steps=2)) == []  # one window for all five
    assert smd145(FrameworkProfile(start_unix_time=1_900_000_000, duration=60)) == []
    assert smd145(FrameworkProfile(horovod_profiling_config=HorovodProfilingConfig(start_step=2))) == [
        "/ProfilerConfig/ProfilingParameters/HorovodProfilingConfig"
    ]
    # the five written out with Horovod's own window: the user chose it
    written = dict(FrameworkProfile(start_step=3, num_steps=2).profiling_parameters)
    written["HorovodProfilingConfig"] = '{"StartStep": 8, "NumSteps": 1, }'
    request = {"ProfilerConfig": profiler(**written)}
    assert [f.code for f in validate(request) if f.code == "SMD145"] == ["SMD145"]


#: The profiler checks' fixes: code, applicability, bad request, the request the fix makes of it (exactly), kwargs.
FIX_CASES = [
    (
        "SMD143", "safe",
        {"ProfilerConfig": profiler(FileOpenFailThreshhold="50")},
        {"ProfilerConfig": profiler(FileOpenFailThreshold="50")},
        {},
    ),
]


@pytest.mark.parametrize("code, applicability, bad, good, kwargs", FIX_CASES, ids=fix_ids(FIX_CASES))
def test_fix_makes_the_good_request_of_the_bad(code, applicability, bad, good, kwargs):
    assert_fix_case(code, applicability, bad, good, kwargs)
