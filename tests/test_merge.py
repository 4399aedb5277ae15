"""The collection merge: one entry per name, include_regex the union, hook > collections_to_save > defaults, gcd for
intervals, otherwise the last source with SMD116; SMD117 for what the SDK v2 would send more than once."""

from sm_debug_config import CollectionConfig, DebuggerHookConfig, Rule, render, rule_configs
from sm_debug_config.merge import merge, merge_findings, sdk_v2_findings


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


def test_other_same_level_disagreement_sends_the_last_and_warns_smd116():
    rules = [
        Rule.sagemaker(
            rule_configs.all_zero(), collections_to_save=[CollectionConfig("weights", {"reductions": "mean"})]
        ),
        Rule.sagemaker(
            rule_configs.tensor_variance(), collections_to_save=[CollectionConfig("weights", {"reductions": "max"})]
        ),
    ]
    merged = merge([], rules)
    assert merged[0].parameters == {"reductions": "max"}  # the last, as smdebug keeps the last entry
    [finding] = merged[0].findings
    assert (finding.code, finding.severity) == ("SMD116", "warning")
    assert finding.pointer == "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/reductions"
    assert all(word in finding.message for word in ("'AllZero'", "'TensorVariance'", "'mean'", "'max'"))
    assert merge_findings(merged) == [finding]
    # resolved by setting it in the hook config: no finding
    chosen = merge([CollectionConfig("weights", {"reductions": "mean"})], rules)
    assert chosen[0].parameters == {"reductions": "mean"} and not merge_findings(chosen)


def test_rules_defaults_that_disagree_warn_as_defaults():
    defaults = [Rule.sagemaker(rule_configs.all_zero()), Rule.sagemaker(rule_configs.all_zero(), name="Again")]
    assert not merge_findings(merge([], defaults))  # the same defaults: nothing to choose
    first = Rule.sagemaker(rule_configs.all_zero(), collections_to_save=[CollectionConfig("w", {"include_regex": "a"})])
    rules = [first, Rule.sagemaker(rule_configs.tensor_variance(), collections_to_save=[
        CollectionConfig("w", {"include_regex": "b", "save_steps": "1,2"})]), Rule.sagemaker(
        rule_configs.overfit(), collections_to_save=[CollectionConfig("w", {"save_steps": "3"})])]
    [merged] = merge([], rules)
    assert merged.parameters == {"include_regex": "a,b", "save_steps": "3"}
    assert [f.path[-1] for f in merged.findings] == ["save_steps"]


def test_include_regex_is_the_union_of_every_source_in_order():
    """smdebug adds each entry's include_regex (split on commas) to the collection: nothing a source asks for is
    lost, at any level (issue 37: two rules saving metrics with .*train.* and .*validation.* were refused)."""
    rules = [
        Rule.sagemaker(rule_configs.overfit(), name=name,
                       collections_to_save=[CollectionConfig("metrics", {"include_regex": regex})])
        for name, regex in (("Train", ".*train.*"), ("Validation", ".*validation.*, .*train.*"))
    ]
    merged = merge([], rules)
    assert merged[0].to_request() == {
        "CollectionName": "metrics", "CollectionParameters": {"include_regex": ".*train.*,.*validation.*"}
    }
    assert not merged[0].findings and merged[0].sources["include_regex"].combined
    assert merged[0].sources["include_regex"].origins == ("Train", "Validation")
    hook = [CollectionConfig("metrics", {"include_regex": "loss ,acc"})]  # the first value is kept as written
    assert merge(hook, rules)[0].parameters == {"include_regex": "loss ,acc,.*train.*,.*validation.*"}
    assert merge(hook, [])[0].parameters == {"include_regex": "loss ,acc"}


def test_conflicting_duplicate_in_the_hook_sends_the_last_identical_is_fine():
    same = [CollectionConfig("losses", {"save_interval": "10"}), CollectionConfig("losses", {"save_interval": "10"})]
    assert _collections(same, []) == [{"CollectionName": "losses", "CollectionParameters": {"save_interval": "10"}}]
    merged = merge(
        [CollectionConfig("losses", {"reductions": "max"}), CollectionConfig("losses", {"reductions": "min"})], []
    )
    assert merged[0].parameters == {"reductions": "min"}
    assert [f.code for f in merged[0].findings] == ["SMD116"] and "twice" in merged[0].findings[0].message
    # no gcd for the hook's own intervals: the last, as smdebug applies the hook's entries in order
    intervals = [CollectionConfig("losses", {"save_interval": v}) for v in ("10", "15")]
    assert [(m.parameters, [f.code for f in m.findings]) for m in merge(intervals, [])] == [
        ({"save_interval": "15"}, ["SMD116"])
    ]


def test_sdk_v2_findings_name_both_values_and_their_sources():
    """What the SDK v2 would send for the same objects: each distinct CollectionConfig, in a set's order."""
    xgb = Rule.sagemaker(rule_configs.create_xgboost_report())
    merged = merge([CollectionConfig("feature_importance", {"save_interval": "500"})], [xgb])
    assert merged[0].parameters == {"save_interval": "500"} and not merge_findings(merged)  # ours: the hook wins
    [finding] = sdk_v2_findings(merged)
    assert (finding.code, finding.pointer) == ("SMD117", "/DebugHookConfig/CollectionConfigurations/0")
    assert "save_interval=500 (DebuggerHookConfig)" in finding.message
    assert "save_interval=5 (rule CreateXgboostReport's defaults)" in finding.message
    # the same parameters are one CollectionConfig to the SDK: sent once
    assert not sdk_v2_findings(merge([CollectionConfig("feature_importance", {"save_interval": "5"})], [xgb]))


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


def test_explain_says_the_union_and_the_merges_findings():
    from sm_debug_config import explain

    rules = [
        Rule.sagemaker(rule_configs.overfit(), name=name,
                       collections_to_save=[CollectionConfig("metrics", {"include_regex": regex, "reductions": red})])
        for name, regex, red in (("A", ".*train.*", "max"), ("B", ".*validation.*", "min"))
    ]
    report = explain(rules, region="us-east-1", output_path="s3://b/o/", framework="xgboost")
    regex = report["collections"][0]["parameters"]["include_regex"]
    assert regex["value"] == ".*train.*,.*validation.*" and regex["origins"] == ["A", "B"] and "note" in regex
    assert [f["code"] for f in report["findings"]] == ["SMD116"]
    assert explain(rules, region="us-east-1", output_path="s3://b/o/", ignore=["SMD116"])["findings"] == []
