"""Rule checks (sm_debug_config/validation/rules.py: SMD101-SMD102, SMD110-SMD112, SMD120-SMD125, SMD150-SMD155): each
code's request that triggers it (code and path) and a near-identical one that does not, as cfn-lint keeps a rule's
good and bad templates beside it. The registry's drift test (test_validation.py) wants a pair for every code."""
import pytest

from sm_debug_config import validate
from tests.validation.valhelpers import CUSTOM, assert_case, assert_fix_case, case_ids, fix_ids, hook, profiler, rule

CASES = [
    # code, path, bad request, good request, validate kwargs
    (
        "SMD101",
        "/DebugRuleConfigurations/1/RuleConfigurationName",
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("Overfit"), rule("Overfit")]},
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("Overfit"), rule("Overfit2", "Overfit")]},
        {},
    ),
    (
        "SMD102",
        "/ProfilerRuleConfigurations",
        {
            "ProfilerConfig": profiler(),
            "ProfilerRuleConfigurations": [rule(f"R{i}", "CPUBottleneck") for i in range(21)],
        },
        {
            "ProfilerConfig": profiler(),
            "ProfilerRuleConfigurations": [rule(f"R{i}", "CPUBottleneck") for i in range(20)],
        },
        {},
    ),
    (
        "SMD110",
        "/DebugRuleConfigurations/0",
        {"DebugHookConfig": hook(("weights", {})), "DebugRuleConfigurations": [rule("VanishingGradient")]},
        {"DebugHookConfig": hook(("gradients", {})), "DebugRuleConfigurations": [rule("VanishingGradient")]},
        {},
    ),
    (
        "SMD110",
        "/DebugRuleConfigurations/0",
        {
            "DebugHookConfig": hook(("gradients", {"end_step": "0"})),
            "DebugRuleConfigurations": [rule("VanishingGradient")],
        },
        {
            "DebugHookConfig": hook(("gradients", {"end_step": "10"})),
            "DebugRuleConfigurations": [rule("VanishingGradient")],
        },
        {},
    ),
    (
        "SMD110",
        "/DebugRuleConfigurations/0",
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("LossNotDecreasing")]},
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("LossNotDecreasing")]},
        {"framework": "xgboost"},
    ),
    (
        "SMD110",
        "/DebugRuleConfigurations/0",
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("Confusion")]},
        {"DebugHookConfig": hook(("labels", {}), ("predictions", {})), "DebugRuleConfigurations": [rule("Confusion")]},
        {},
    ),
    (
        "SMD110",
        "/DebugRuleConfigurations/0",
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("AllZero", collection_names="weights")]},
        {
            "DebugHookConfig": hook(("weights", {})),
            "DebugRuleConfigurations": [rule("AllZero", collection_names="weights")],
        },
        {},
    ),
    (
        "SMD111",
        "/DebugRuleConfigurations",
        {"DebugRuleConfigurations": [rule("Overfit")]},
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("Overfit")]},
        {},
    ),
    (
        "SMD112",
        "/DebugRuleConfigurations/0",
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("DeadRelu")]},
        {
            "DebugHookConfig": hook(("relu_output", {"include_regex": ".*relu_output"})),
            "DebugRuleConfigurations": [rule("DeadRelu")],
        },
        {},
    ),
    (
        "SMD120",
        "/DebugRuleConfigurations/0/RuleParameters/threshhold",
        {
            "DebugHookConfig": hook(("gradients", {})),
            "DebugRuleConfigurations": [rule("VanishingGradient", threshhold="0.1")],
        },
        {
            "DebugHookConfig": hook(("gradients", {})),
            "DebugRuleConfigurations": [rule("VanishingGradient", threshold="0.1")],
        },
        {},
    ),
    (
        "SMD120",
        "/ProfilerRuleConfigurations/0/RuleParameters/threshhold",
        {"ProfilerConfig": profiler(), "ProfilerRuleConfigurations": [rule("CPUBottleneck", threshhold="50")]},
        {"ProfilerConfig": profiler(), "ProfilerRuleConfigurations": [rule("CPUBottleneck", threshold="50")]},
        {},
    ),
    (
        "SMD121",
        "/DebugRuleConfigurations/0/RuleParameters/mode",
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("LossNotDecreasing", mode="TRAINING")]},
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("LossNotDecreasing", mode="TRAIN")]},
        {},
    ),
    (
        "SMD121",
        "/ProfilerRuleConfigurations/0/RuleParameters/CPUBottleneck_threshold",
        {
            "ProfilerConfig": profiler(),
            "ProfilerRuleConfigurations": [rule("ProfilerReport", CPUBottleneck_threshold="150")],
        },
        {
            "ProfilerConfig": profiler(),
            "ProfilerRuleConfigurations": [rule("ProfilerReport", CPUBottleneck_threshold="90")],
        },
        {},
    ),
    (
        "SMD123",
        "/DebugRuleConfigurations/0",
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("TreeDepth")]},
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("TreeDepth")]},
        {"framework": "pytorch"},
    ),
    (
        "SMD124",
        "/DebugRuleConfigurations/0/RuleParameters",
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("SimilarAcrossRuns")]},
        {
            "DebugHookConfig": hook(),
            "DebugRuleConfigurations": [rule("SimilarAcrossRuns", other_trial_0="s3://bucket/other")],
        },
        {},
    ),
    (
        "SMD125",
        "/DebugRuleConfigurations/0/RuleParameters/rule_to_invoke",
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("X", "NoSuchRule")]},
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("X", "Overfit")]},
        {},
    ),
    (
        "SMD155",
        "/DebugRuleConfigurations/0/RuleParameters/action_json",
        {
            "DebugHookConfig": hook(),
            "DebugRuleConfigurations": [rule("Overfit", action_json='{\\"name\\": \\"page\\"}')],
        },
        {
            "DebugHookConfig": hook(),
            "DebugRuleConfigurations": [
                rule("Overfit", action_json='{\\"name\\": \\"sms\\", \\"endpoint\\": \\"+14155550100\\"}')
            ],
        },
        {},
    ),
    (
        "SMD150",
        "/DebugRuleConfigurations/0/RuleParameters/action_json",
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("Overfit", action_json='[{name: stoptraining}]')]},
        {
            "DebugHookConfig": hook(),
            "DebugRuleConfigurations": [
                rule("Overfit", action_json='[{"name": "stoptraining", "training_job_prefix": "j"}]')
            ],
        },
        {},
    ),
    (
        "SMD122",
        "/DebugRuleConfigurations/0/RuleParameters/new_knob",
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("Overfit", new_knob="1")]},
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("Overfit")]},
        {"passthrough": {"/DebugRuleConfigurations/0": ["new_knob"]}},
    ),
    (
        "SMD120",
        "/ProfilerRuleConfigurations/0/RuleParameters/CPUBottlenek_threshold",
        {
            "ProfilerConfig": profiler(),
            "ProfilerRuleConfigurations": [rule("ProfilerReport", CPUBottlenek_threshold="50")],
        },
        {
            "ProfilerConfig": profiler(),
            "ProfilerRuleConfigurations": [rule("ProfilerReport", CPUBottleneck_threshold="50")],
        },
        {},
    ),
    (
        "SMD121",
        "/DebugRuleConfigurations/0/RuleParameters/start_step",
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("Overfit", start_step="first")]},
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [rule("Overfit", start_step="17")]},
        {},
    ),
    (
        "SMD152",
        "/DebugRuleConfigurations/0/RuleParameters/source_s3_uri",
        {
            "DebugHookConfig": hook(),
            "DebugRuleConfigurations": [
                dict(CUSTOM, RuleParameters={"source_s3_uri": "rules/missing.py", "rule_to_invoke": "Mine"})
            ],
        },
        {"DebugHookConfig": hook(), "DebugRuleConfigurations": [CUSTOM]},
        {},
    ),
]


@pytest.mark.parametrize("code, path, bad, good, kwargs", CASES, ids=case_ids(CASES))
def test_check_fires_on_bad_and_not_on_near_identical_good(code, path, bad, good, kwargs):
    assert_case(code, path, bad, good, kwargs)


def test_hints_name_the_request_member_not_one_surfaces_call():
    """Issue 37: SMD101 said "pass name= to Rule.sagemaker" in CloudFormation and Step Functions files too. The request
    checks' hints name what every surface writes (the request member), never one surface's Python call."""
    from sm_debug_config.validation import validate

    image = "503895931360.dkr.ecr.us-east-1.amazonaws.com/sagemaker-debugger-rules:latest"
    same = {"RuleConfigurationName": "A", "RuleEvaluatorImage": image, "RuleParameters": {"rule_to_invoke": "Overfit"}}
    findings = validate({"DebugRuleConfigurations": [same, dict(same)]})
    assert findings and all("Rule.sagemaker" not in f.message and "=" not in f.message for f in findings)
    assert any("RuleConfigurationName" in f.message for f in findings if f.code == "SMD101")


#: The rule checks' fixes: code, applicability, bad request, the request the fix makes of it (exactly), kwargs.
FIX_CASES = [
    (  # a second rule of the same name: the first free suffix
        "SMD101", "unsafe",
        {"DebugHookConfig": hook(("losses", {})),
         "DebugRuleConfigurations": [rule("Overfit"), rule("Overfit"), rule("Overfit-2", "Overfit")]},
        {"DebugHookConfig": hook(("losses", {})),
         "DebugRuleConfigurations": [rule("Overfit"), rule("Overfit-3", "Overfit"), rule("Overfit-2", "Overfit")]},
        {},
    ),
    (
        "SMD101", "unsafe",
        {"DebugHookConfig": hook(("losses", {})), "ProfilerConfig": profiler(),
         "DebugRuleConfigurations": [rule("Check", "Overfit")],
         "ProfilerRuleConfigurations": [rule("Check", "CPUBottleneck")]},
        {"DebugHookConfig": hook(("losses", {})), "ProfilerConfig": profiler(),
         "DebugRuleConfigurations": [rule("Check", "Overfit")],
         "ProfilerRuleConfigurations": [rule("Check-2", "CPUBottleneck")]},
        {},
    ),
    (  # one parameter within the did-you-mean distance: renamed to it
        "SMD120", "safe",
        {"DebugHookConfig": hook(("losses", {})), "DebugRuleConfigurations": [rule("Overfit", patiense="2")]},
        {"DebugHookConfig": hook(("losses", {})), "DebugRuleConfigurations": [rule("Overfit", patience="2")]},
        {},
    ),
    (
        "SMD120", "safe",
        {"ProfilerConfig": profiler(), "ProfilerRuleConfigurations": [rule("LowGPUUtilization", windw="5")]},
        {"ProfilerConfig": profiler(), "ProfilerRuleConfigurations": [rule("LowGPUUtilization", window="5")]},
        {},
    ),
]


@pytest.mark.parametrize("code, applicability, bad, good, kwargs", FIX_CASES, ids=fix_ids(FIX_CASES))
def test_fix_makes_the_good_request_of_the_bad(code, applicability, bad, good, kwargs):
    assert_fix_case(code, applicability, bad, good, kwargs)


@pytest.mark.parametrize("rules, meant", [
    ([rule("CPUBottleneck", threshhold="5")], "threshold"),  # gpu_threshold and cpu_threshold are far farther
    ([rule("ProfilerReport", CPUBottleneck_patiense="5")], "CPUBottleneck_patience"),  # IOBottleneck_: 4 edits
])
def test_a_rename_to_the_clearly_nearest_of_several_close_names(rules, meant):
    found = [f for f in validate({"ProfilerConfig": profiler(), "DebugHookConfig": hook(),
                                  "ProfilerRuleConfigurations": rules}) if f.code == "SMD120"]
    assert [f.fix.changes[0].value for f in found] == [meant]


@pytest.mark.parametrize("rules", [
    [rule("CPUBottleneck", pu_threshold="5")],  # gpu_threshold and cpu_threshold: one edit each
    [rule("Overfit", patiense="2", patience="3")],  # the one close name is set already: a rename would lose one
    [rule("ProfilerReport", Bottleneck_patience="5")],  # IOBottleneck_ (2 edits) or CPUBottleneck_patience (3)?
    [rule("Overfit", zzz="2")],  # nothing close
], ids=["several-close", "set-already", "report-several-close", "none-close"])
def test_no_rename_where_the_name_is_not_certain(rules):
    """Several names are close and none is clearly nearest (errors.only_close), or the name is set already."""
    field = "ProfilerRuleConfigurations" if rules[0]["RuleParameters"]["rule_to_invoke"] != "Overfit" else (
        "DebugRuleConfigurations")
    found = [f for f in validate({"ProfilerConfig": profiler(), "DebugHookConfig": hook(), field: rules})
             if f.code == "SMD120"]
    assert found and all(f.fix is None for f in found)

