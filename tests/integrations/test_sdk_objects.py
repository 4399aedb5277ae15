"""from_sdk: objects built with the real SageMaker Python SDK v2 render what the SDK sends.

Each test builds SDK v2 objects (``sagemaker.debugger``), starts a job with them on an
Estimator against moto, and compares the Debugger fields of the ``CreateTrainingJob`` body
with ``render()`` of ``from_sdk`` of the same objects. The SDK unions rule and hook
collections through a set, so collection lists are compared in name order (and rule actions as parsed JSON).
"""
from __future__ import annotations

import json
import os
import types

import pytest

import smdebug_rulesconfig as sdk_actions  # ActionList, StopTraining, Email, SMS
from sm_debug_config import ConfigError, Rule, render
from sm_debug_config.findings import collecting
from sm_debug_config.integrations.sdk_objects import from_sdk, is_sdk_object
from sm_debug_config.model.actions import ActionList, StopTraining

from tests.warnhelpers import config_warnings

pytestmark = pytest.mark.sagemaker

os.environ.setdefault("SAGEMAKER_SUPPRESS_V2_WARNING", "1")
sagemaker = pytest.importorskip("sagemaker")
pytest.importorskip("sagemaker.estimator")

import sagemaker.debugger as sdk  # noqa: E402 - needs the importorskip above
from sagemaker.estimator import Estimator  # noqa: E402 - needs the importorskip above
from sagemaker.pytorch import PyTorch  # noqa: E402 - needs the importorskip above

ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"
NO_TELEMETRY = {"SchemaVersion": "1.0", "SageMaker": {"PythonSDK": {"Modules": {"TelemetryOptOut": True}}}}
BUCKET = "smdc-from-sdk"
FIELDS = (
    "DebugHookConfig",
    "DebugRuleConfigurations",
    "ProfilerConfig",
    "ProfilerRuleConfigurations",
    "TensorBoardOutputConfig",
)


@pytest.fixture
def sm(aws, tmp_path):
    aws.bucket(BUCKET)
    session = sagemaker.Session(boto_session=aws.session(), sagemaker_config=NO_TELEMETRY, default_bucket=BUCKET)
    sent = []
    session.sagemaker_client.meta.events.register(
        "before-send.sagemaker.CreateTrainingJob", lambda request, **_: sent.append(json.loads(request.body))
    )
    entry_point = tmp_path / "train.py"
    entry_point.write_text("print('training')\n")
    return types.SimpleNamespace(session=session, sent=sent, entry_point=str(entry_point))


def _normalised(fields):
    out = {k: fields[k] for k in FIELDS if k in fields}
    hook = out.get("DebugHookConfig")
    if hook and "CollectionConfigurations" in hook:
        out["DebugHookConfig"] = dict(
            hook, CollectionConfigurations=sorted(hook["CollectionConfigurations"], key=lambda c: c["CollectionName"])
        )
    for rule in out.get("DebugRuleConfigurations", []):
        params = rule.get("RuleParameters", {})
        if "action_json" in params:
            # The SDK's own StopTraining() gets its prefix at fit time, after "name"; ours writes
            # it first. Same JSON, so actions are compared parsed.
            rule["RuleParameters"] = dict(params, action_json=json.loads(params["action_json"].replace('\\"', '"')))
    return out


def _sent_versus_ours(sm, estimator, job_name, **sdk_objects):
    ours = {name: from_sdk(value) for name, value in sdk_objects.items()}
    estimator.fit(wait=False, job_name=job_name)
    [body] = sm.sent[-1:]
    # (converted before fit(): the Estimator writes job details into the SDK's objects)
    with collecting():  # what the SDK's objects warn (SMD141 for its "Duration") is not what these tests compare
        rendered = render(**ours, region=sm.session.boto_region_name, output_path=estimator.output_path,
                          job_name=job_name, instance_type=estimator.instance_type)
    return _normalised(body), _normalised(rendered), ours


def test_builtin_rules_actions_hook_and_tensorboard(sm):
    rules = [
        sdk.Rule.sagemaker(sdk.rule_configs.vanishing_gradient(), rule_parameters={"threshold": "0.0001"}),
        sdk.Rule.sagemaker(
            sdk.rule_configs.loss_not_decreasing(),
            name="LossTrain",
            rule_parameters={"mode": "TRAIN"},
            collections_to_save=[sdk.CollectionConfig("losses", {"save_interval": "20"})],
            actions=sdk_actions.ActionList(
                sdk_actions.StopTraining(), sdk_actions.Email("ml@example.com"), sdk_actions.SMS("+14155550100")
            ),
        ),
        sdk.Rule.sagemaker(sdk.rule_configs.overtraining(), actions=sdk_actions.StopTraining("other-job")),
    ]
    hook = sdk.DebuggerHookConfig(
        hook_parameters={"save_interval": "100"},
        collection_configs=[sdk.CollectionConfig("my_layer", {"include_regex": "dense_1.*"})],
    )
    tensorboard = sdk.TensorBoardOutputConfig(f"s3://{BUCKET}/tb", container_local_output_path="/tensorboard")
    estimator = PyTorch(entry_point=sm.entry_point, framework_version="2.1", py_version="py310", output_path=f"s3://{BUCKET}/pt/",
                        role=ROLE, instance_count=1, instance_type="ml.m5.xlarge", sagemaker_session=sm.session,
                        rules=rules, debugger_hook_config=hook, tensorboard_output_config=tensorboard)
    sent, rendered, ours = _sent_versus_ours(
        sm, estimator, "from-sdk-1", rules=rules, debugger_hook_config=hook, tensorboard_output_config=tensorboard
    )
    assert sent == rendered
    assert isinstance(ours["rules"][1].actions, ActionList) and isinstance(ours["rules"][2].actions, StopTraining)
    assert ours["rules"][0].builtin_rule == "VanishingGradient" and ours["rules"][0].uses_default_collections
    assert not ours["rules"][1].uses_default_collections


def test_profiler_rules_and_framework_profile(sm):
    profile = sdk.FrameworkProfile(
        detailed_profiling_config=sdk.DetailedProfilingConfig(start_unix_time=1700000000, duration=30),
        dataloader_profiling_config=sdk.DataloaderProfilingConfig(start_step=5, num_steps=2, metrics_regex="load.*"),
        python_profiling_config=sdk.PythonProfilingConfig(
            start_step=3, num_steps=2, python_profiler=sdk.PythonProfiler.PYINSTRUMENT
        ),
    )
    profiler_config = sdk.ProfilerConfig(system_monitor_interval_millis=500, framework_profile_params=profile)
    rules = [
        sdk.ProfilerRule.sagemaker(sdk.rule_configs.ProfilerReport(CPUBottleneck_threshold=90)),
        sdk.ProfilerRule.sagemaker(sdk.rule_configs.CPUBottleneck(threshold=70)),
        sdk.Rule.sagemaker(sdk.rule_configs.vanishing_gradient()),
    ]
    estimator = PyTorch(entry_point=sm.entry_point, framework_version="2.1", py_version="py310", output_path=f"s3://{BUCKET}/prof/",
                        role=ROLE, instance_count=1, instance_type="ml.m5.xlarge", sagemaker_session=sm.session,
                        rules=rules, profiler_config=profiler_config)
    sent, rendered, ours = _sent_versus_ours(sm, estimator, "from-sdk-2", rules=rules, profiler_config=profiler_config)
    assert sent == rendered
    assert ours["profiler_config"].framework_profile_params.profiling_parameters == profile.profiling_parameters


def test_custom_rules_keep_image_instance_and_parameters(sm):
    rules = [
        sdk.Rule.custom(
            "MyRule",
            "895741380848.dkr.ecr.us-west-2.amazonaws.com/sagemaker-debugger-rule-evaluator:latest",
            "ml.m5.xlarge",
            30,
            source=f"s3://{BUCKET}/rules/my_rule.py",
            rule_to_invoke="MyRule",
            rule_parameters={"threshold": "2"},
            collections_to_save=[sdk.CollectionConfig("feature_importance", {"save_interval": "5"})],
        ),
        sdk.ProfilerRule.custom(
            "MyProfilerRule",
            "895741380848.dkr.ecr.us-west-2.amazonaws.com/sagemaker-debugger-rule-evaluator:latest",
            "ml.m5.xlarge",
            30,
            source=f"s3://{BUCKET}/rules/p.py",
            rule_to_invoke="MyProfilerRule",
        ),
    ]
    estimator = Estimator(
        image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/train:1",
        output_path=f"s3://{BUCKET}/custom/",
        role=ROLE,
        instance_count=1,
        instance_type="ml.m5.xlarge",
        sagemaker_session=sm.session,
        rules=rules,
    )
    sent, rendered, _ = _sent_versus_ours(sm, estimator, "from-sdk-3", rules=rules)
    assert sent == rendered


def test_metrics_configs_and_profiler_convert_alone():
    ours = from_sdk(
        sdk.PythonProfilingConfig(
            start_step=1,
            num_steps=3,
            python_profiler=sdk.PythonProfiler.CPROFILE,
            cprofile_timer=sdk.cProfileTimer.CPU_TIME,
        )
    )
    assert (
        ours.to_json_string()
        == sdk.PythonProfilingConfig(
            start_step=1,
            num_steps=3,
            python_profiler=sdk.PythonProfiler.CPROFILE,
            cprofile_timer=sdk.cProfileTimer.CPU_TIME,
        ).to_json_string()
    )
    profiler = from_sdk(sdk.Profiler(cpu_profiling_duration="600"))
    assert (profiler.cpu_profiling_duration, type(profiler).__module__.startswith("sm_debug_config")) == ("600", True)


def test_estimator_kwargs_convert_as_a_whole_and_ours_pass_through():
    ours_rule = Rule.sagemaker(__import__("rule_configs").overfit())
    kwargs = from_sdk(
        {"rules": [sdk.Rule.sagemaker(sdk.rule_configs.overfit()), ours_rule], "debugger_hook_config": False}
    )
    assert kwargs["rules"][1] is ours_rule and kwargs["debugger_hook_config"] is False
    assert kwargs["rules"][0] == ours_rule
    assert is_sdk_object(sdk.CollectionConfig("x")) and not is_sdk_object(ours_rule)


def test_what_is_not_a_debugger_object_is_refused():
    with pytest.raises(ConfigError) as err:
        from_sdk(sagemaker.Session)  # a class, not a debugger object
    assert "cannot convert" in str(err.value)


def test_a_collection_the_sdk_sends_twice_warns_smd117_and_ours_send_one():
    """Issue 37: the SDK v2 sends the hook's feature_importance (every 500) and the report rule's default (every 5)
    as two entries, in a set's order: smdebug keeps whichever comes last. Ours send the hook's, once."""
    every_500 = sdk.CollectionConfig("feature_importance", {"save_interval": "500"})
    hook = sdk.DebuggerHookConfig(s3_output_path="s3://b/o", collection_configs=[every_500])
    rule = sdk.Rule.sagemaker(sdk.rule_configs.create_xgboost_report())
    with config_warnings("SMD117") as warned:
        ours = from_sdk({"rules": [rule], "debugger_hook_config": hook})
    assert "save_interval=500 (DebuggerHookConfig)" in str(warned[0]) and "CreateXgboostReport" in str(warned[0])
    fields = render(ours["rules"], ours["debugger_hook_config"], region="us-east-1", output_path="s3://b/o",
                    framework="xgboost")
    assert [c for c in fields["DebugHookConfig"]["CollectionConfigurations"]
            if c["CollectionName"] == "feature_importance"] == [
        {"CollectionName": "feature_importance", "CollectionParameters": {"save_interval": "500"}}
    ]
    with config_warnings():  # one rule, or the hook alone: nothing sent twice
        from_sdk([rule])
        from_sdk(hook)
