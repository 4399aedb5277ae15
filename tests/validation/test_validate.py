"""validate() as a whole: every finding reported with its JSON pointer, sorted; the registry complete; severities
backed by evidence (issue 14) on real-world configurations; ignore; the generated docs current. The case per
check is in test_validation.py, whose request builders these tests share."""
import copy
import subprocess
import sys

import pytest

from sm_debug_config import (
    CollectionConfig,
    ConfigError,
    DebuggerHookConfig,
    ProfilerRule,
    Rule,
    TensorBoardOutputConfig,
    list_checks,
    render,
    rule_configs,
    validate,
)
from sm_debug_config.findings import CHECKS, finding_of_error
from sm_debug_config.fixes import REMOVE, RENAME, SET, Change
from tests.repo_scripts import script_path
from tests.validation.valhelpers import hook, profiler, rule
from tests.warnhelpers import config_warnings

IMAGE = "503895931360.dkr.ecr.us-east-1.amazonaws.com/sagemaker-debugger-rules:latest"
OUT = "s3://bucket/out/"


def test_every_error_is_reported_not_just_the_first():
    request = {
        "DebugHookConfig": hook(
            ("a", {"save_interval": "0"}), ("b", {"reductions": "median"}), ("c", {"include_regex": "("})
        )
    }
    assert {"SMD132", "SMD136", "SMD130"} <= {f.code for f in validate(request)}


def test_paths_are_json_pointers_into_the_request():
    request = {
        "DebugHookConfig": hook(
            *[(f"c{i}", {"include_regex": "x"}) for i in range(3)] + [("c3", {"include_regex": "conv0.*,dense{1,2}"})]
        )
    }
    [finding] = [f for f in validate(request) if f.code == "SMD131"]
    assert finding.pointer == "/DebugHookConfig/CollectionConfigurations/3/CollectionParameters/include_regex"
    assert finding.to_dict()["severity"] == "warning"  # issue 14: the pieces compile, the job runs (was "error")


def test_sdk_scenarios_stay_valid():
    # Overfit / Overtraining with the default hook: losses is saved without being asked
    fields = render(
        [Rule.sagemaker(rule_configs.overfit()), Rule.sagemaker(rule_configs.overtraining())],
        region="us-east-1",
        output_path=OUT,
    )
    for framework in (None, "tensorflow", "pytorch", "mxnet"):
        assert [f for f in validate(fields, framework=framework) if f.severity == "error"] == []


def test_every_builtin_rule_with_its_defaults_renders_valid():
    from sm_debug_config.model import catalogue
    needs_collections = {"Confusion": ["labels", "predictions"]}  # no default collections, reads these by name
    # no SMD173 for CreateXgboostReport's hyperparameters (save_steps 0): the rule's own default (issue 37)
    warns: dict = {}
    for name, entry in catalogue.rules("debugger").items():
        extra = {"other_trials_s3_input_paths": ["s3://bucket/other"]} if name == "SimilarAcrossRuns" else {}
        base = getattr(rule_configs, entry["function"])
        if name in needs_collections:  # issue 14: SMD110 is a warning, render no longer raises (was ConfigError)
            with config_warnings("SMD110"):
                fields = render([Rule.sagemaker(base())], region="us-east-1", output_path=OUT)
            assert "SMD110" in {f.code for f in validate(fields)}
            extra["collections_to_save"] = [CollectionConfig(c) for c in needs_collections[name]]
        with config_warnings(*warns.get(name, ())):
            fields = render([Rule.sagemaker(base(), **extra)], region="us-east-1", output_path=OUT)
        assert [f for f in validate(fields) if f.severity == "error"] == [], name
    for name in catalogue.rules("profiler"):
        fields = render([ProfilerRule.sagemaker(getattr(rule_configs, name)())], region="us-east-1", output_path=OUT)
        assert [f for f in validate(fields) if f.severity == "error"] == [], name


def test_render_raises_with_the_findings_and_can_skip_validation():
    rules = [Rule.sagemaker(rule_configs.overfit())]
    with pytest.raises(ConfigError) as err:
        render(rules, debugger_hook_config=False, region="us-east-1", output_path=OUT)
    assert "SMD111" in str(err.value) and [f.code for f in err.value.findings] == ["SMD111"]
    fields = render(rules, debugger_hook_config=False, region="us-east-1", output_path=OUT, validate=False)
    assert "DebugHookConfig" not in fields


def test_render_framework_enables_framework_checks():
    rules = [Rule.sagemaker(rule_configs.loss_not_decreasing(), collections_to_save=[CollectionConfig("weights")])]
    render(rules, region="us-east-1", output_path=OUT)  # losses is saved by default by TF/PyTorch/MXNet hooks
    render(rules, region="us-east-1", output_path=OUT, framework="pytorch")
    # issue 14: SMD110 is a warning (the trial creates the missing collection empty); render no longer raises
    with config_warnings("SMD110"):
        fields = render(rules, region="us-east-1", output_path=OUT, framework="xgboost")
    assert "SMD110" in {f.code for f in validate(fields, framework="xgboost")}


def test_whole_create_training_job_request_and_odd_inputs():
    request = {"TrainingJobName": "j", "RoleArn": "arn", "DebugHookConfig": hook()}
    assert validate(request) == []
    assert validate({}) == []
    with pytest.raises(ConfigError, match="request"):
        validate(["DebugHookConfig"])
    with pytest.raises(ConfigError, match="framework"):
        validate({}, framework="jax")
    with pytest.raises(ConfigError, match="region"):
        validate({}, region="moon")


def test_tensorboard_reserved_paths_are_refused_at_construction():
    with pytest.raises(ConfigError, match="reserves") as err:
        TensorBoardOutputConfig("s3://bucket/tb", "/opt/ml/output/tensorboard")
    assert (
        err.value.field == "TensorBoardOutputConfig.container_local_output_path" and "/tensorboard" in err.value.allowed
    )
    for path in ("/tmp/tb", "/usr/local/nvidia/tb"):
        with pytest.raises(ConfigError):
            TensorBoardOutputConfig("s3://bucket/tb", path)
    TensorBoardOutputConfig("s3://bucket/tb", "/tensorboard")
    # the hook's own default lives under /opt/ml and is not restricted
    DebuggerHookConfig(container_local_output_path="/opt/ml/output/tensors")


def test_findings_are_sorted_and_deterministic():
    request = {
        "ProfilerConfig": profiler(Foo="1"),
        "DebugHookConfig": hook(("b", {"save_interval": "0"}), ("a", {"save_interval": "-1"})),
    }
    paths = [f.pointer for f in validate(request)]
    assert paths == sorted(paths, key=lambda p: (not p.startswith("/DebugHookConfig"), p))
    assert validate(copy.deepcopy(request)) == validate(request)


def test_validate_still_runs_under_python_dash_o(tmp_path):
    code = ("from sm_debug_config import validate; print(len(validate({'DebugHookConfig': {'S3OutputPath': 's3://b/o', "
            "'HookParameters': {'save_interval': '0'}}})))")
    out = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "1", out.stderr


def test_every_code_in_the_package_source_is_registered():
    # drift guard: a code written anywhere in the package (a check, a constructor's ConfigError.code,
    # a CLI finding) must be registered with a severity and a description, so `checks` lists it
    import pathlib
    import re

    import sm_debug_config

    root = pathlib.Path(sm_debug_config.__file__).parent
    found = {
        code for path in root.rglob("*.py") for code in re.findall(r"\bSMD\d{3}\b", path.read_text(encoding="utf-8"))
    }
    found.discard("SMD999")  # the registry's doctest example
    assert found and found - set(CHECKS) == set()
    assert {row["code"] for row in list_checks()} == set(CHECKS)


# --- issue 14: severities backed by evidence, real-world configs, suppression ------------------


def test_sdk_guide_example_3_weight_update_ratio_with_a_custom_collection_renders_with_a_warning():
    # sagemaker-python-sdk doc/amazon_sagemaker_debugger.rst, "Example 3": weight_update_ratio()
    # saving "a custom collection rather than weights". The API accepts it and the rule job runs
    # (smdebug's trial creates a missing collection empty), so SMD110 warns instead of refusing.
    rules = [
        Rule.sagemaker(
            base_config=rule_configs.weight_update_ratio(),
            collections_to_save=[
                CollectionConfig(
                    name="custom_collection_name", parameters={"include_regex": ".*weight", "save_interval": "500"}
                )
            ],
        )
    ]
    with config_warnings("SMD110"):
        fields = render(rules, region="us-east-1", output_path=OUT)
    found = {(f.code, f.severity) for f in validate(fields)}
    assert ("SMD110", "warning") in found and not [f for f in validate(fields) if f.severity == "error"]


def test_loss_not_decreasing_on_metrics_with_pytorch_renders_with_a_warning():
    # LossNotDecreasing(collection_names="metrics") as in the AWS examples, on a PyTorch job whose hook has no "metrics"
    rules = [Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={"collection_names": "metrics"})]
    with config_warnings("SMD110"):
        fields = render(rules, region="us-east-1", output_path=OUT, framework="pytorch")
    assert ("SMD110", "warning") in {(f.code, f.severity) for f in validate(fields, framework="pytorch")}


XGBOOST_CONFUSION = {
    # the official XGBoost Debugger notebooks, the SDK v2's unit tests and
    # https://github.com/aws/aws-step-functions-data-science-sdk-python/pull/27 : Confusion with start_step/end_step
    "DebugHookConfig": hook(
        ("hyperparameters", {}),
        ("metrics", {}),
        ("predictions", {}),
        ("labels", {}),
        ("feature_importance", {}),
        save_interval="1",
    ),
    "DebugRuleConfigurations": [
        rule("Confusion", category_no="15", min_diag="0.7", max_off_diag="0.3", start_step="17", end_step="19")
    ],
}


def test_start_step_and_end_step_are_taken_by_every_builtin_debugger_rule():
    # smdebug rules/rule_invoker.py invoke_rule(rule_obj, start_step, end_step) runs every rule on that step range
    assert validate(XGBOOST_CONFUSION, framework="xgboost") == []
    from sm_debug_config.model import catalogue
    for name in catalogue.rules("debugger"):
        request = {
            "DebugHookConfig": hook(save_all="true"),
            "DebugRuleConfigurations": [rule(name, start_step="5", end_step="10")],
        }
        assert not {f.code for f in validate(request)} & {"SMD120", "SMD121"}, name
    bad = copy.deepcopy(XGBOOST_CONFUSION)
    bad["DebugRuleConfigurations"][0]["RuleParameters"]["end_step"] = "-1"
    assert [(f.code, f.severity) for f in validate(bad)] == [("SMD121", "warning")]


def test_allow_unknown_parameters_is_an_escape_hatch_that_render_honours():
    # issue 14 item 5: SMD122 (issue 36: found once, by render's pass), never SMD120 for the same key
    made = Rule.sagemaker(
        rule_configs.vanishing_gradient(), rule_parameters={"new_knob": "1"}, allow_unknown_parameters=["new_knob"]
    )
    with config_warnings("SMD122"):
        fields = render([made], region="us-east-1", output_path=OUT)
    from sm_debug_config.validation import passthrough_of
    assert passthrough_of([made]) == {"/DebugRuleConfigurations/0": ("new_knob",)}  # issue 30: what was let through
    found = validate(fields, passthrough=passthrough_of([made]))
    assert [(f.code, f.severity) for f in found if f.pointer.endswith("new_knob")] == [("SMD122", "warning")]
    # the raw request alone cannot tell: it is flagged, as a warning (no evidence the rule job fails)
    assert [(f.code, f.severity) for f in validate(fields) if f.pointer.endswith("new_knob")] == [("SMD120", "warning")]


def test_bert_workshop_relative_tensorboard_dir_is_only_the_sagemaker_fact():
    # "Data Science on AWS" BERT workshop (chapter 7, tf_bert_reviews.py estimator): hook_parameters with
    # tensorboard_dir "hook_tensorboard/". smdebug ignores tensorboard_dir on SageMaker (core/json_config.py),
    # so SMD139 says so and SMD153 does not refuse the relative path.
    with config_warnings("SMD139"):  # said at construction, once for each key; render does not say it again
        hook_config = DebuggerHookConfig(
            hook_parameters={
                "save_interval": "10", "export_tensorboard": "true", "tensorboard_dir": "hook_tensorboard/"
            }
        )
    fields = render(
        [Rule.sagemaker(rule_configs.loss_not_decreasing())],
        debugger_hook_config=hook_config,
        region="us-east-1",
        output_path=OUT,
    )
    found = {(f.code, f.pointer.rsplit("/", 1)[-1]) for f in validate(fields)}
    assert found == {("SMD139", "export_tensorboard"), ("SMD139", "tensorboard_dir")}


def test_constructors_and_validation_share_one_severity_per_code():
    from sm_debug_config.model import hookparams
    from sm_debug_config.validation import severity_of

    problems = hookparams.check(
        {
            "save_interval": "0",
            "start_step": "9",
            "end_step": "3",
            "save_intervall": "5",
            "include_workers": "x",
            "tensorboard_dir": "rel/",
            "include_regex": "a{1,2}",
            "reductions": "median",
        },
        "hook",
    )
    assert problems and all(p.severity == severity_of(p.code) for p in problems)
    assert {p.code for p in problems} == {"SMD132", "SMD133", "SMD135", "SMD115", "SMD139", "SMD131", "SMD136"}
    # warnings do not stop a constructor; errors do
    with config_warnings("SMD135"):
        DebuggerHookConfig(hook_parameters={"save_intervall": "5"})
    with pytest.raises(ConfigError, match="save_interval"):
        CollectionConfig("losses", {"save_interval": "0"})


def test_ignore_suppresses_codes_and_keeps_them_countable():
    from sm_debug_config.validation import errors, raise_for_errors, validate_split
    request = {"DebugRuleConfigurations": [rule("Overfit")]}
    assert [f.code for f in validate(request)] == ["SMD111"]
    assert validate(request, ignore=["SMD111"]) == []
    kept, suppressed = validate_split(request, ignore=["smd111"])
    assert kept == [] and [(f.code, f.suppressed, f.to_dict()["suppressed"]) for f in suppressed] == [
        ("SMD111", True, True)
    ]
    assert errors(suppressed) == [] and raise_for_errors(suppressed) is None
    assert "suppressed" not in validate(request)[0].to_dict()
    with pytest.raises(ConfigError, match="did you mean 'SMD111'") as err:
        validate(request, ignore=["SMD1111"])
    assert err.value.field == "ignore[0]"


def test_render_ignore_is_a_job_setting():
    from sm_debug_config.model.settings import JobSettings
    rules = [Rule.sagemaker(rule_configs.overfit())]
    with pytest.raises(ConfigError, match="SMD111"):
        render(rules, debugger_hook_config=False, region="us-east-1", output_path=OUT)
    fields = render(rules, debugger_hook_config=False, region="us-east-1", output_path=OUT, ignore=["SMD111"])
    assert "DebugHookConfig" not in fields
    assert JobSettings(ignore=["smd110", "SMD110"]).ignore == ("SMD110",)
    with pytest.raises(ConfigError, match="unknown check code 'SMD999'") as err:
        render(rules, region="us-east-1", output_path=OUT, ignore=["SMD999"])
    assert err.value.field == "ignore[0]"


def test_checks_doc_is_current():
    done = subprocess.run(
        [sys.executable, script_path("generate_checks_doc"), "--check"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr + " (run: python scripts/generate_checks_doc.py)"


def test_sdk_integration_test_sms_number_is_a_warning_in_validation():
    # sagemaker-python-sdk tests/integ (actions, 2020-2024) used SMS("+01234567890"): not E.164, but the rule
    # container catches and logs the SNS error (smdebug rules/action/message_action.py) and the rule runs on
    request = {
        "DebugHookConfig": hook(),
        "DebugRuleConfigurations": [
            rule("Overfit", action_json='{\\"name\\": \\"sms\\", \\"endpoint\\": \\"+01234567890\\"}')
        ],
    }
    assert [(f.code, f.severity) for f in validate(request)] == [("SMD155", "warning")]


def test_the_check_index_lists_every_code_with_its_severity():  # docs/checks.md, which the README links to
    import pathlib
    import re

    index = (pathlib.Path(__file__).parent.parent.parent / "docs" / "checks.md").read_text()
    table = dict(re.findall(r"^\| \[(SMD\d{3})\]\(checks/\1\.md\) \| `[a-z0-9-]+` \| (error|warning|info) \|", index,
                            flags=re.M))
    from sm_debug_config.validation import list_checks

    assert table == {row["code"]: row["severity"] for row in list_checks()}


def test_the_framework_is_the_one_given_else_the_training_images():
    """One framework default for every surface (validation.run.job_framework): a request, a document, plan and lint
    all validate through it, so a PyTorch image is PyTorch to each of them."""
    pytorch = "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.1.0-gpu-py310"
    request = {"DebugHookConfig": hook(("gradients", {})), "DebugRuleConfigurations": [rule("TreeDepth")]}
    assert "SMD123" not in [f.code for f in validate(request)]  # nothing says the framework: not judged
    with_image = dict(request, AlgorithmSpecification={"TrainingImage": pytorch})
    found = [f.message for f in validate(with_image) if f.code == "SMD123"]
    assert found == ["TreeDepth is meant for xgboost, not pytorch"]
    assert "SMD123" in [f.code for f in validate(request, image_uri=pytorch)]
    assert "SMD123" not in [f.code for f in validate(with_image, framework="xgboost")]  # the user's setting wins
    custom = dict(request, AlgorithmSpecification={"TrainingImage": "123456789012.dkr.ecr.us-east-1.amazonaws.com/x:1"})
    assert "SMD123" not in [f.code for f in validate(custom)]


def test_a_caller_applies_each_fix_to_the_request_and_validates_clean():
    """Issue 38: validate(request)'s findings expose their fix as a value; applying the safe ones (as --fix does,
    again until none is left) gives the request meant, which validates clean of their codes."""
    request = {"DebugHookConfig": hook(("gradient", {"save_interval": 10})),
               "DebugRuleConfigurations": [rule("VanishingGradient", threshhold="0.1")]}
    assert {"SMD100", "SMD114", "SMD120"} <= {f.code for f in validate(request) if f.fix is not None}
    fixed = request
    for _ in range(10):
        fix = next((f.fix for f in validate(fixed) if f.fix is not None and f.fix.safe), None)
        if fix is None:
            break
        fixed = fix.apply(fixed)
    assert fixed == {"DebugHookConfig": hook(("gradients", {"save_interval": "10"})),
                     "DebugRuleConfigurations": [rule("VanishingGradient", threshold="0.1")]}
    assert validate(fixed) == []
    assert request["DebugRuleConfigurations"][0]["RuleParameters"]["threshhold"] == "0.1"  # a copy was changed


def test_the_python_edge_keeps_each_fix_on_its_warnings_and_errors():
    with config_warnings("SMD120") as caught:
        render(rules=[Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"threshhold": "0.1"})],
               output_path=OUT, region="us-east-1", debugger_hook_config=DebuggerHookConfig(
                   collection_configs=[CollectionConfig("gradients")]))
    (warning,) = caught
    assert warning.fix is warning.finding.fix
    assert warning.fix.changes == (Change(RENAME, ("DebugRuleConfigurations", 0, "RuleParameters", "threshhold"),
                                          "threshold"),)
    with config_warnings("SMD153") as caught:
        TensorBoardOutputConfig(OUT, container_local_output_path="tb")
    assert caught[0].fix.changes == (Change(REMOVE, ("container_local_output_path",)),)  # below the object
    with pytest.raises(ConfigError) as raised:
        TensorBoardOutputConfig(OUT, container_local_output_path="/opt/ml/tb")
    assert raised.value.code == "SMD154"
    assert raised.value.fix.changes == (Change(REMOVE, ("container_local_output_path",)),)
    assert finding_of_error(raised.value).fix == raised.value.fix
    with config_warnings("SMD133") as caught:
        CollectionConfig("weights", {"start_step": "10", "end_step": "5"})
    assert caught[0].fix.changes == (Change(SET, ("parameters", "start_step"), "5"),
                                     Change(SET, ("parameters", "end_step"), "10"))
