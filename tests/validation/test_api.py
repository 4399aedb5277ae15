"""The API's own limits (sm_debug_config/validation/api.py: SMD001, SMD100): each code's request that triggers it (code
and path) and a near-identical one that does not, as cfn-lint keeps a rule's good and bad templates beside it. The
registry's drift test (test_validation.py) wants a pair for every code."""
import pytest

from tests.validation.valhelpers import OUT, assert_case, case_ids, hook

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
