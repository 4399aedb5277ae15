"""Hook and collection parameter checks (sm_debug_config/validation/hook.py: SMD113-SMD117, SMD130-SMD139): each code's
request that triggers it (code and path) and a near-identical one that does not, as cfn-lint keeps a rule's good and
bad templates beside it. The registry's drift test (test_validation.py) wants a pair for every code."""
import pytest

from sm_debug_config import validate
from tests.validation.valhelpers import OUT, assert_case, assert_fix_case, case_ids, fix_ids, hook, job_request

CHECKPOINTS = {"S3Uri": "s3://my-bucket/checkpoints/", "LocalPath": "/opt/ml/checkpoints"}

CASES = [
    # code, path, bad request, good request, validate kwargs
    (
        "SMD175",
        "/DebugHookConfig",
        job_request(DebugHookConfig=hook(), CheckpointConfig=CHECKPOINTS,
                    ResourceConfig={"InstanceType": "ml.p4d.24xlarge", "InstanceCount": 2, "VolumeSizeInGB": 30}),
        job_request(DebugHookConfig=hook(), CheckpointConfig=CHECKPOINTS),
        {},
    ),
    (
        "SMD113",
        "/DebugHookConfig/CollectionConfigurations/0",
        {"DebugHookConfig": {"S3OutputPath": OUT, "CollectionConfigurations": [{"CollectionParameters": {}}]}},
        {
            "DebugHookConfig": {
                "S3OutputPath": OUT,
                "CollectionConfigurations": [{"CollectionName": "losses", "CollectionParameters": {}}],
            }
        },
        {},
    ),
    (
        "SMD114",
        "/DebugHookConfig/CollectionConfigurations/0",
        {"DebugHookConfig": hook(("attention", {}))},
        {"DebugHookConfig": hook(("attention", {"include_regex": ".*attention.*"}))},
        {},
    ),
    (
        "SMD114",
        "/DebugHookConfig/CollectionConfigurations/0",
        {"DebugHookConfig": hook(("trees", {}))},
        {"DebugHookConfig": hook(("trees", {}))},
        {"framework": "pytorch"},
    ),
    (
        "SMD117",
        "/DebugHookConfig/CollectionConfigurations/1",
        {"DebugHookConfig": hook(("feature_importance", {"save_interval": "500"}),
                                 ("feature_importance", {"save_interval": "5"}))},
        {"DebugHookConfig": hook(("feature_importance", {"save_interval": "5"}),
                                 ("feature_importance", {"save_interval": "5", "include_regex": "f.*"}))},
        {},
    ),
    (
        "SMD130",
        "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/include_regex",
        {"DebugHookConfig": hook(("c", {"include_regex": "conv0(.*"}))},
        {"DebugHookConfig": hook(("c", {"include_regex": "conv0(.*)"}))},
        {},
    ),
    (
        "SMD131",
        "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/include_regex",
        {"DebugHookConfig": hook(("c", {"include_regex": "layer_[0-9]{1,2}"}))},
        {"DebugHookConfig": hook(("c", {"include_regex": "layer_[0-9]+,conv.*"}))},
        {},
    ),
    (
        "SMD132",
        "/DebugHookConfig/HookParameters/save_interval",
        {"DebugHookConfig": hook(save_interval="0")},
        {"DebugHookConfig": hook(save_interval="1")},
        {},
    ),
    (
        "SMD133",
        "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/start_step",
        {"DebugHookConfig": hook(("losses", {"start_step": "100", "end_step": "100"}))},
        {"DebugHookConfig": hook(("losses", {"start_step": "100", "end_step": "101"}))},
        {},
    ),
    (
        "SMD134",
        "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/save_steps",
        {"DebugHookConfig": hook(("losses", {"save_steps": "1,,2"}))},
        {"DebugHookConfig": hook(("losses", {"save_steps": "1,2"}))},
        {},
    ),
    (
        "SMD135",
        "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/save_intervals",
        {"DebugHookConfig": hook(("losses", {"save_intervals": "5"}))},
        {"DebugHookConfig": hook(("losses", {"save_interval": "5"}))},
        {},
    ),
    (
        "SMD136",
        "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/reductions",
        {"DebugHookConfig": hook(("weights", {"reductions": "mean,l2"}))},
        {"DebugHookConfig": hook(("weights", {"reductions": "mean,l2_norm"}))},
        {},
    ),
    (
        "SMD137",
        "/DebugHookConfig/HookParameters/save_shape",
        {"DebugHookConfig": hook(save_shape="true", reductions="mean")},
        {"DebugHookConfig": hook(reductions="mean")},
        {},
    ),
    (
        "SMD138",
        "/DebugHookConfig/HookParameters/save_all",
        {"DebugHookConfig": hook(save_all="yes")},
        {"DebugHookConfig": hook(save_all="true")},
        {},
    ),
    (
        "SMD139",
        "/DebugHookConfig/HookParameters/export_tensorboard",
        {"DebugHookConfig": hook(export_tensorboard="true")},
        {"DebugHookConfig": hook(), "TensorBoardOutputConfig": {"S3OutputPath": OUT}},
        {},
    ),
    (
        "SMD115",
        "/DebugHookConfig/HookParameters/include_workers",
        {"DebugHookConfig": hook(include_workers="every")},
        {"DebugHookConfig": hook(include_workers="all")},
        {},
    ),
]


@pytest.mark.parametrize("code, path, bad, good, kwargs", CASES, ids=case_ids(CASES))
def test_check_fires_on_bad_and_not_on_near_identical_good(code, path, bad, good, kwargs):
    assert_case(code, path, bad, good, kwargs)


@pytest.mark.parametrize(
    "name, framework, hint",
    [
        ("gradiants", "pytorch", "; did you mean 'gradients'?"),
        ("weight", None, "; did you mean 'weights'?"),
        ("my_layers", "pytorch", ""),  # a name of its own: nothing close
    ],
)
def test_an_unknown_collection_name_says_the_closest_built_in_one(name, framework, hint):
    from sm_debug_config.validation import validate

    (finding,) = [f for f in validate({"DebugHookConfig": hook((name, {}))}, framework=framework) if f.code == "SMD114"]
    assert finding.message.endswith("InvalidCollectionConfiguration" + hint) and len(finding.message) < 200


def test_the_smd114_message_stays_short_for_a_long_name():
    from sm_debug_config.validation import validate

    long_name = "optimizer_variables" + "x" * 300
    (finding,) = [f for f in validate({"DebugHookConfig": hook((long_name, {}))}) if f.code == "SMD114"]
    assert len(finding.message) < 200 and "did you mean" not in finding.message


#: The hook checks' fixes: code, applicability, bad request, the request the fix makes of it (exactly), kwargs.
FIX_CASES = [
    (  # a misspelt built-in collection with one close name
        "SMD114", "safe",
        {"DebugHookConfig": hook(("gradient", {"save_interval": "10"}))},
        {"DebugHookConfig": hook(("gradients", {"save_interval": "10"}))},
        {},
    ),
    (  # a step range written backwards: swapped, each value as written
        "SMD133", "unsafe",
        {"DebugHookConfig": hook(("losses", {"train.start_step": "100", "train.end_step": "10"}))},
        {"DebugHookConfig": hook(("losses", {"train.start_step": "10", "train.end_step": "100"}))},
        {},
    ),
    (
        "SMD133", "unsafe",
        {"DebugHookConfig": hook(start_step="50", end_step="5")},
        {"DebugHookConfig": hook(start_step="5", end_step="50")},
        {},
    ),
    (  # a mode prefix in capitals: the hook reads lower-case ones only
        "SMD135", "safe",
        {"DebugHookConfig": hook(**{"TRAIN.save_interval": "10"})},
        {"DebugHookConfig": hook(**{"train.save_interval": "10"})},
        {},
    ),
    (
        "SMD135", "safe",
        {"DebugHookConfig": hook(("custom", {"include_regx": "dense.*"}))},
        {"DebugHookConfig": hook(("custom", {"include_regex": "dense.*"}))},
        {},
    ),
    (  # one reduction misspelt, the rest of the list as written
        "SMD136", "safe",
        {"DebugHookConfig": hook(("weights", {"reductions": "maxx, min"}))},
        {"DebugHookConfig": hook(("weights", {"reductions": "max, min"}))},
        {},
    ),
    (  # the word the hook takes, written in capitals
        "SMD115", "safe",
        {"DebugHookConfig": hook(include_workers="All")},
        {"DebugHookConfig": hook(include_workers="all")},
        {},
    ),
    (
        "SMD138", "safe",
        {"DebugHookConfig": hook(save_all="TRUE")},
        {"DebugHookConfig": hook(save_all="true")},
        {},
    ),
    (  # the job fails with it: removed
        "SMD137", "unsafe",
        {"DebugHookConfig": hook(("weights", {"save_raw_tensor": "true"}))},
        {"DebugHookConfig": hook(("weights", {}))},
        {},
    ),
]


@pytest.mark.parametrize("code, applicability, bad, good, kwargs", FIX_CASES, ids=fix_ids(FIX_CASES))
def test_fix_makes_the_good_request_of_the_bad(code, applicability, bad, good, kwargs):
    assert_fix_case(code, applicability, bad, good, kwargs)


@pytest.mark.parametrize("request_", [
    {"DebugHookConfig": hook(("gradients", {"include_regex": "g"}), ("gradient", {}))},  # renaming duplicates one
    {"DebugHookConfig": hook(("attention", {}))},  # nothing close
    {"DebugHookConfig": hook(start_step="5", end_step="5")},  # not backwards: an empty range, intent unknown
    {"DebugHookConfig": hook(("gradients", {"save_interval": "0"}))},  # SMD132: no value is certain
    {"DebugHookConfig": hook(save_all="yes")},  # true, probably, but not certainly
], ids=["would-duplicate", "nothing-close", "equal-steps", "save-interval-0", "yes"])
def test_no_fix_where_the_intent_is_unknown(request_):
    found = [f for f in validate(request_) if f.code in ("SMD114", "SMD132", "SMD133", "SMD138")]
    assert found and all(f.fix is None for f in found)
