"""The API's own limits (sm_debug_config/validation/api.py: SMD001, SMD100): each code's request that triggers it (code
and path) and a near-identical one that does not, as cfn-lint keeps a rule's good and bad templates beside it. The
registry's drift test (test_validation.py) wants a pair for every code."""
import pytest

from sm_debug_config import validate

from tests.validation.valhelpers import OUT, assert_case, assert_fix_case, case_ids, fix_ids, hook, profiler, rule

CASES = [
    # code, path, bad request, good request, validate kwargs
    (
        "SMD100",
        "/DebugHookConfig/CollectionConfigurations",
        {"DebugHookConfig": hook(*[(f"c{i}", {"include_regex": "x"}) for i in range(21)])},
        {"DebugHookConfig": hook(*[(f"c{i}", {"include_regex": "x"}) for i in range(20)])},
        {},
    ),
    (
        "SMD100",
        "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/include_regex",
        {"DebugHookConfig": hook(("c", {"include_regex": "x" * 257}))},
        {"DebugHookConfig": hook(("c", {"include_regex": "x" * 256}))},
        {},
    ),
    (
        "SMD001",
        "/DebugHookConfig/S3OutputPath",
        {"DebugHookConfig": {"S3OutputPath": {"Get": "Parameters.Out"}}},
        {"DebugHookConfig": {"S3OutputPath": OUT}},
        {},
    ),
]


@pytest.mark.parametrize("code, path, bad, good, kwargs", CASES, ids=case_ids(CASES))
def test_check_fires_on_bad_and_not_on_near_identical_good(code, path, bad, good, kwargs):
    assert_case(code, path, bad, good, kwargs)


#: SMD100's fixes: code, applicability, bad request, the request the fix makes of it (exactly), validate kwargs.
FIX_CASES = [
    (  # the SDK v2 sends str() of a number (ProfilerRule.to_profiler_rule_config_dict)
        "SMD100", "safe",
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("Overfit", patience=20)]},
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("Overfit", patience="20")]},
        {},
    ),
    (
        "SMD100", "safe",
        {"DebugHookConfig": hook(("weights", {"save_interval": 100}), save_all=True)},
        {"DebugHookConfig": hook(("weights", {"save_interval": "100"}), save_all="True")},
        {},
    ),
    (
        "SMD100", "safe",
        {"ProfilerConfig": dict(profiler(), ProfilingIntervalInMilliseconds="500", DisableProfiler="false")},
        {"ProfilerConfig": dict(profiler(), ProfilingIntervalInMilliseconds=500, DisableProfiler=False)},
        {},
    ),
    (
        "SMD100", "unsafe",
        {"TensorBoardOutputConfig": {"S3OutputPath": "bucket/tensorboard"}},
        {"TensorBoardOutputConfig": {"S3OutputPath": "s3://bucket/tensorboard"}},
        {},
    ),
]


@pytest.mark.parametrize("code, applicability, bad, good, kwargs", FIX_CASES, ids=fix_ids(FIX_CASES))
def test_fix_makes_the_good_request_of_the_bad(code, applicability, bad, good, kwargs):
    assert_fix_case(code, applicability, bad, good, kwargs)


@pytest.mark.parametrize("value", [[1, 2], None, float("nan"), {"a": 1}, "+5", 10**5000], ids=range(6))
def test_no_fix_where_the_value_is_not_certain(value):
    request = {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("Overfit", patience=value)],
               "ProfilerConfig": dict(profiler(), ProfilingIntervalInMilliseconds=value),
               "TensorBoardOutputConfig": {"S3OutputPath": "/local/tensorboard"}}
    found = [f for f in validate(request) if f.code == "SMD100"]
    assert found and all(f.fix is None for f in found)
