"""explain(): what each rule reads, whether the hook saves it, and the findings (issue 10)."""
from sm_debug_config import CollectionConfig, Rule, explain, rule_configs

US = dict(region="us-east-1", output_path="s3://bucket/out/")


def test_explain_says_what_each_rule_reads_and_whether_it_is_saved():
    report = explain(
        [
            Rule.sagemaker(rule_configs.vanishing_gradient()),
            Rule.sagemaker(rule_configs.loss_not_decreasing(), collections_to_save=[CollectionConfig("weights")]),
            Rule.sagemaker(rule_configs.confusion()),
        ],
        framework="pytorch",
        validate=False,
        **US,
    )
    reads = {r["name"]: r["reads"] for r in report["rules"]}
    assert reads["VanishingGradient"] == [
        {"collection": "gradients", "how": "by name", "saved": True, "steps": "every 500 steps"}
    ]
    assert reads["LossNotDecreasing"][0]["saved"] and "saved by default" in reads["LossNotDecreasing"][0]["note"]
    assert [r["saved"] for r in reads["Confusion"]] == [False, False]
    assert {f["code"] for f in report["findings"]} == {"SMD110"}
