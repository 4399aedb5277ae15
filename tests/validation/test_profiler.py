"""Profiler checks (sm_debug_config/validation/profiler.py: SMD140-SMD145, SMD160): each code's request that triggers
it (code and path) and a near-identical one that does not, as cfn-lint keeps a rule's good and bad templates beside
it. The registry's drift test (test_validation.py) wants a pair for every code."""
import pytest

from tests.validation.valhelpers import OUT, assert_case, case_ids, profiler, rule

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
