"""Checks of places (sm_debug_config/validation/paths.py: SMD151, SMD153, SMD154, SMD161): each code's request that
triggers it (code and path) and a near-identical one that does not, as cfn-lint keeps a rule's good and bad
templates beside it. The registry's drift test (test_validation.py) wants a pair for every code."""
import pytest

from tests.validation.valhelpers import OUT, assert_case, assert_fix_case, case_ids, fix_ids, hook, rule

CASES = [
    # code, path, bad request, good request, validate kwargs
    (
        "SMD151",
        "/DebugRuleConfigurations/0/RuleEvaluatorImage",
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("Overfit")]},
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("Overfit")]},
        {"region": "eu-west-1"},
    ),
    (
        "SMD153",
        "/TensorBoardOutputConfig/LocalPath",
        {"TensorBoardOutputConfig": {"S3OutputPath": OUT, "LocalPath": "tensorboard"}},
        {"TensorBoardOutputConfig": {"S3OutputPath": OUT, "LocalPath": "/opt/ml/output/tensorboard"}},
        {},
    ),
    (
        "SMD154",
        "/TensorBoardOutputConfig/LocalPath",
        {"TensorBoardOutputConfig": {"S3OutputPath": OUT, "LocalPath": "/opt/ml/output/tensorboard"}},
        {"TensorBoardOutputConfig": {"S3OutputPath": OUT, "LocalPath": "/tensorboard"}},
        {},
    ),
    (
        "SMD161",
        "/DebugHookConfig",
        {"DebugHookConfig": hook()},
        {"ProfilerConfig": {"DisableProfiler": True}},
        {"region": "ap-southeast-3"},
    ),
]


@pytest.mark.parametrize("code, path, bad, good, kwargs", CASES, ids=case_ids(CASES))
def test_check_fires_on_bad_and_not_on_near_identical_good(code, path, bad, good, kwargs):
    assert_case(code, path, bad, good, kwargs)


#: The place checks' fixes: code, applicability, bad request, the request the fix makes of it (exactly), kwargs.
FIX_CASES = [
    (  # the same built-in rule image, in the job's region
        "SMD151", "unsafe",
        {"DebugHookConfig": hook(("losses", {})), "DebugRuleConfigurations": [dict(rule("Overfit"), RuleEvaluatorImage=(
            "895741380848.dkr.ecr.us-west-2.amazonaws.com/sagemaker-debugger-rules:latest"))]},
        {"DebugHookConfig": hook(("losses", {})), "DebugRuleConfigurations": [rule("Overfit")]},
        {"region": "us-east-1"},
    ),
    (  # a reserved TensorBoard LocalPath: removed, SageMaker's default applies
        "SMD154", "unsafe",
        {"TensorBoardOutputConfig": {"S3OutputPath": OUT, "LocalPath": "/opt/ml/output/tensorboard"}},
        {"TensorBoardOutputConfig": {"S3OutputPath": OUT}},
        {},
    ),
    (  # a relative one
        "SMD153", "unsafe",
        {"TensorBoardOutputConfig": {"S3OutputPath": OUT, "LocalPath": "tensorboard"}},
        {"TensorBoardOutputConfig": {"S3OutputPath": OUT}},
        {},
    ),
    (
        "SMD153", "unsafe",
        {"DebugHookConfig": dict(hook(), LocalPath="tensors")},
        {"DebugHookConfig": hook()},
        {},
    ),
]


@pytest.mark.parametrize("code, applicability, bad, good, kwargs", FIX_CASES, ids=fix_ids(FIX_CASES))
def test_fix_makes_the_good_request_of_the_bad(code, applicability, bad, good, kwargs):
    assert_fix_case(code, applicability, bad, good, kwargs)
