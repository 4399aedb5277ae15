"""The collection merge: one entry per name, hook > collections_to_save > defaults, gcd for intervals."""
import pytest

from sm_debug_config import CollectionConfig, ConfigError, DebuggerHookConfig, Rule, render, rule_configs
from sm_debug_config.merge import merge


def _collections(hook_collections, rules):
    return [m.to_request() for m in merge(hook_collections, rules)]


def vg():
    return Rule.sagemaker(rule_configs.vanishing_gradient())


def test_hook_override_gives_one_entry():  # the README example; SDK v2 sends two "gradients" entries
    assert _collections([CollectionConfig("gradients", {"save_interval": "100"})], [vg()]) == [
        {"CollectionName": "gradients", "CollectionParameters": {"save_interval": "100"}}
    ]


def test_keys_merge_key_by_key_with_precedence():
    rule = Rule.sagemaker(
        rule_configs.exploding_tensor(),
        collections_to_save=[CollectionConfig("gradients", {"save_interval": "250", "reductions": "max"})],
    )
    merged = merge([CollectionConfig("gradients", {"include_regex": "grad.*"})], [vg(), rule])
    assert merged[0].to_request()["CollectionParameters"] == {
        "include_regex": "grad.*",
        "save_interval": "250",
        "reductions": "max",
    }
    source = merged[0].sources["save_interval"]
    assert (source.level, source.origins) == ("rule", ("ExplodingTensor",))
    assert source.overridden == (("default", "VanishingGradient", "500"),)


def test_same_level_intervals_take_the_gcd_and_say_so():
    rules = [
        Rule.sagemaker(
            rule_configs.all_zero(),
            collections_to_save=[CollectionConfig("weights", {"save_interval": "400", "train.save_interval": "60"})],
        ),
        Rule.sagemaker(
            rule_configs.tensor_variance(),
            collections_to_save=[CollectionConfig("weights", {"save_interval": "600", "train.save_interval": "90"})],
        ),
    ]
    merged = merge([], rules)
    assert merged[0].parameters == {"save_interval": "200", "train.save_interval": "30"}
    assert merged[0].sources["save_interval"].combined


def test_three_rules_intervals_take_the_gcd_of_all_three():
    # math.gcd takes two arguments on Python 3.8 (the oldest python_requires allows)
    rules = [
        Rule.sagemaker(
            rule_configs.all_zero(), collections_to_save=[CollectionConfig("weights", {"save_interval": "400"})]
        ),
        Rule.sagemaker(
            rule_configs.tensor_variance(), collections_to_save=[CollectionConfig("weights", {"save_interval": "600"})]
        ),
        Rule.sagemaker(
            rule_configs.weight_update_ratio(),
            collections_to_save=[CollectionConfig("weights", {"save_interval": "150"})],
        ),
    ]
    assert merge([], rules)[0].parameters == {"save_interval": "50"}


def test_other_same_level_disagreement_names_both_rules_and_the_key():
    rules = [
        Rule.sagemaker(
            rule_configs.all_zero(), collections_to_save=[CollectionConfig("weights", {"reductions": "mean"})]
        ),
        Rule.sagemaker(
            rule_configs.tensor_variance(), collections_to_save=[CollectionConfig("weights", {"reductions": "max"})]
        ),
    ]
    with pytest.raises(ConfigError) as err:
        merge([], rules)
    message = str(err.value)
    assert "'AllZero'" in message and "'TensorVariance'" in message and "'reductions'" in message
    # resolved by setting it in the hook config
    assert merge([CollectionConfig("weights", {"reductions": "mean"})], rules)[0].parameters == {"reductions": "mean"}


def test_conflicting_duplicate_in_the_hook_is_an_error_identical_is_fine():
    same = [CollectionConfig("losses", {"save_interval": "10"}), CollectionConfig("losses", {"save_interval": "10"})]
    assert _collections(same, []) == [{"CollectionName": "losses", "CollectionParameters": {"save_interval": "10"}}]
    with pytest.raises(ConfigError, match="more than once"):
        merge(
            [CollectionConfig("losses", {"save_interval": "10"}), CollectionConfig("losses", {"save_interval": "20"})],
            [],
        )


def test_order_is_hook_then_rules_in_order():
    rules = [
        Rule.sagemaker(rule_configs.weight_update_ratio()),
        Rule.sagemaker(rule_configs.create_xgboost_report()),
        vg(),
    ]
    names = [
        c["CollectionName"]
        for c in _collections([CollectionConfig("custom", {"include_regex": "x"}), CollectionConfig("losses")], rules)
    ]
    assert names == [
        "custom",
        "losses",
        "weights",
        "metrics",
        "feature_importance",
        "hyperparameters",
        "predictions",
        "labels",
        "gradients",
    ]


def test_parameters_absent_everywhere_stay_absent():
    assert _collections([CollectionConfig("losses")], []) == [{"CollectionName": "losses"}]
    assert _collections([CollectionConfig("losses", {})], []) == [
        {"CollectionName": "losses", "CollectionParameters": {}}
    ]


def test_render_merges_and_leaves_inputs_alone():
    hook = DebuggerHookConfig(collection_configs=[CollectionConfig("gradients", {"save_interval": "100"})])
    rule = vg()
    before = (repr(hook), repr(rule))
    fields = render(
        [
            rule,
            Rule.sagemaker(
                rule_configs.exploding_tensor(),
                collections_to_save=[CollectionConfig("gradients", {"save_interval": "20"})],
            ),
        ],
        hook,
        region="us-east-1",
        output_path="s3://bucket/out/",
    )
    assert fields["DebugHookConfig"]["CollectionConfigurations"] == [
        {"CollectionName": "gradients", "CollectionParameters": {"save_interval": "100"}}
    ]
    assert (repr(hook), repr(rule)) == before
