"""SageMaker Python SDK v2: real Estimators, real boto3, a local moto server.

Every test builds an Estimator (TensorFlow, PyTorch, MXNet, XGBoost or the generic one),
starts the job with a plain ``estimator.fit(wait=False)`` (the post-import hook converts our
objects; ``prepare``/``fit`` of ``sm_debug_config.integrations.sagemaker_v2`` are tested where named) against moto on
127.0.0.1, captures the ``CreateTrainingJob`` body on the wire and compares its Debugger fields with ``render()``
for the same objects and Estimator settings.
"""
from __future__ import annotations

import hashlib
import json
import os

import pytest

from sm_debug_config import (
    CollectionConfig,
    ConfigError,
    DebuggerHookConfig,
    DetailedProfilingConfig,
    FrameworkProfile,
    Profiler,
    ProfilerConfig,
    ProfilerRule,
    PythonProfilingConfig,
    Rule,
    TensorBoardOutputConfig,
    rule_configs,
)
from sm_debug_config.model.actions import SMS, ActionList, Email, StopTraining

from tests.integrations.v2helpers import (
    BUCKET,
    NO_TELEMETRY,
    ROLE,
    common,
    debugger_fields,
    rendered_fields,
    snapshot,
)
from tests.warnhelpers import config_warnings

pytestmark = pytest.mark.sagemaker

os.environ.setdefault("SAGEMAKER_SUPPRESS_V2_WARNING", "1")
sagemaker = pytest.importorskip("sagemaker")
pytest.importorskip("sagemaker.estimator")

import sagemaker.debugger as sdk_debugger  # noqa: E402 - needs the importorskip above
from sagemaker.estimator import Estimator  # noqa: E402 - needs the importorskip above
from sagemaker.mxnet import MXNet  # noqa: E402 - needs the importorskip above
from sagemaker.pytorch import PyTorch  # noqa: E402 - needs the importorskip above
from sagemaker.tensorflow import TensorFlow  # noqa: E402 - needs the importorskip above
from sagemaker.xgboost import XGBoost  # noqa: E402 - needs the importorskip above
import sm_debug_config.integrations.sagemaker_v2 as smd_sagemaker  # noqa: E402 - it imports the SDK


def test_tensorflow_builtin_rules_with_hook_overrides(sm):
    hook = DebuggerHookConfig(
        hook_parameters={"save_interval": "100", "include_workers": "one"},
        collection_configs=[
            CollectionConfig("gradients", {"save_interval": "50"}),
            CollectionConfig("my_layer", {"include_regex": "dense_1.*"}),
        ],
    )
    rules = [
        Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"threshold": 0.0001}),
        Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={"mode": "TRAIN"}),
        Rule.sagemaker(rule_configs.overfit()),
        Rule.sagemaker(rule_configs.exploding_tensor()),
        Rule.sagemaker(rule_configs.weight_update_ratio()),
    ]
    before = snapshot(hook, rules)
    estimator = TensorFlow(
        entry_point=sm.entry_point, framework_version="2.13", py_version="py310", output_path=f"s3://{BUCKET}/tf/",
        rules=rules, debugger_hook_config=hook, **common(sm),
    )
    with config_warnings("SMD170"):  # the TensorFlow 2.13 image has no smdebug
        estimator.fit(f"s3://{BUCKET}/data", wait=False, job_name="tf-builtin-1")

    [body] = sm.sent
    expected = rendered_fields(estimator, "tf-builtin-1", rules, hook)
    assert debugger_fields(body) == expected
    names = [c["CollectionName"] for c in body["DebugHookConfig"]["CollectionConfigurations"]]
    assert len(names) == len(set(names)) and names[:2] == ["gradients", "my_layer"]
    assert {"CollectionName": "gradients", "CollectionParameters": {"save_interval": "50"}} in body["DebugHookConfig"][
        "CollectionConfigurations"
    ]
    assert (
        body["DebugRuleConfigurations"][0]["RuleEvaluatorImage"]
        == "895741380848.dkr.ecr.us-west-2.amazonaws.com/sagemaker-debugger-rules:latest"
    )
    assert snapshot(hook, rules) == before  # our objects are never touched
    assert estimator.rules[0] is not rules[0] and isinstance(estimator.rules[0], sdk_debugger.Rule)


def test_pytorch_profiler_rules_with_a_framework_profile(sm):
    profile = FrameworkProfile(
        local_path="/opt/ml/output/profiler/",
        detailed_profiling_config=DetailedProfilingConfig(start_unix_time=1700000000, duration=30),
        python_profiling_config=PythonProfilingConfig(start_step=3, num_steps=2),
    )
    profiler_config = ProfilerConfig(system_monitor_interval_millis=500, framework_profile_params=profile)
    rules = [
        ProfilerRule.sagemaker(rule_configs.ProfilerReport(CPUBottleneck_threshold=90)),
        ProfilerRule.sagemaker(rule_configs.CPUBottleneck(threshold=70)),
        Rule.sagemaker(rule_configs.vanishing_gradient()),
    ]
    estimator = PyTorch(
        entry_point=sm.entry_point, framework_version="2.1", py_version="py310", output_path=f"s3://{BUCKET}/pt/",
        rules=rules, profiler_config=profiler_config, **common(sm),
    )
    with config_warnings("SMD170", "SMD171"):  # the PyTorch 2.1 image: no smdebug, no detailed profiling
        estimator.fit(wait=False, job_name="pt-profiler-1")

    [body] = sm.sent
    assert debugger_fields(body) == rendered_fields(estimator, "pt-profiler-1", rules, profiler_config=profiler_config)
    params = body["ProfilerConfig"]["ProfilingParameters"]
    assert params["DetailedProfilingConfig"] == '{"StartTimeInSecSinceEpoch": 1700000000, "DurationInSeconds": 30, }'
    assert [r["RuleConfigurationName"] for r in body["ProfilerRuleConfigurations"]] == [
        "ProfilerReport",
        "CPUBottleneck",
    ]
    assert body["ProfilerRuleConfigurations"][1]["RuleParameters"]["threshold"] == "70"


def test_mxnet_actions_with_a_generated_job_name(sm):
    actions = ActionList(StopTraining(), Email("first.last+tag@mail.example.co.uk"), SMS("+14155550100"))
    rules = [
        Rule.sagemaker(rule_configs.loss_not_decreasing(), actions=actions),
        Rule.sagemaker(rule_configs.overtraining(), actions=StopTraining("other-job")),
    ]
    estimator = MXNet(
        entry_point=sm.entry_point, framework_version="1.9.0", py_version="py38", output_path=f"s3://{BUCKET}/mx/",
        base_job_name="mx-actions", rules=rules, **common(sm),
    )
    name = smd_sagemaker.prepare(estimator)
    assert name.startswith("mx-actions-")
    estimator.fit(wait=False, job_name=name)

    [body] = sm.sent
    assert body["TrainingJobName"] == name
    assert debugger_fields(body) == rendered_fields(estimator, name, rules)
    action_json = body["DebugRuleConfigurations"][0]["RuleParameters"]["action_json"]
    assert f'\\"training_job_prefix\\": \\"{name}\\"' in action_json
    assert "first.last+tag@mail.example.co.uk" in action_json
    assert actions.actions[0].action_parameters == {"name": "stoptraining"}  # no prefix written into ours


def test_xgboost_tensorboard_and_custom_rule_with_s3_source(sm):
    tensorboard = TensorBoardOutputConfig(f"s3://{BUCKET}/tb", container_local_output_path="/tensorboard")
    custom = Rule.custom(
        "MyRule",
        "895741380848.dkr.ecr.us-west-2.amazonaws.com/sagemaker-debugger-rule-evaluator:latest",
        "ml.m5.xlarge",
        30,
        source=f"s3://{BUCKET}/rules/my_rule.py",
        rule_to_invoke="MyRule",
        rule_parameters={"threshold": 2},
        collections_to_save=[CollectionConfig("feature_importance", {"save_interval": "5"})],
    )
    rules = [
        Rule.sagemaker(rule_configs.tree_depth()),
        Rule.sagemaker(rule_configs.feature_importance_overweight()),
        custom,
    ]
    estimator = XGBoost(
        entry_point=sm.entry_point, framework_version="1.7-1", output_path=f"s3://{BUCKET}/xgb/",
        rules=rules, tensorboard_output_config=tensorboard, **common(sm),
    )
    estimator.fit(wait=False, job_name="xgb-tb-1")

    [body] = sm.sent
    assert debugger_fields(body) == rendered_fields(estimator, "xgb-tb-1", rules, tensorboard_output_config=tensorboard)
    assert body["TensorBoardOutputConfig"] == {"S3OutputPath": f"s3://{BUCKET}/tb", "LocalPath": "/tensorboard"}
    names = [c["CollectionName"] for c in body["DebugHookConfig"]["CollectionConfigurations"]]
    assert names.count("feature_importance") == 1


def test_generic_estimator_without_hook(sm):
    rules = [
        ProfilerRule.sagemaker(rule_configs.LowGPUUtilization()),
        ProfilerRule.sagemaker(rule_configs.ProfilerReport()),
    ]
    estimator = Estimator(image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/train:1", output_path=f"s3://{BUCKET}/gen/",
                          rules=rules, debugger_hook_config=False, **common(sm))
    estimator.fit(wait=False, job_name="generic-nohook-1")

    [body] = sm.sent
    assert "DebugHookConfig" not in body and "DebugRuleConfigurations" not in body
    assert debugger_fields(body) == rendered_fields(estimator, "generic-nohook-1", rules, False)


def test_no_hook_with_debugger_rules_is_refused_before_sending(sm):
    rules = [Rule.sagemaker(rule_configs.vanishing_gradient())]
    estimator = Estimator(image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/train:1", output_path=f"s3://{BUCKET}/gen/",
                          rules=rules, debugger_hook_config=False, **common(sm))
    with pytest.raises(ConfigError, match="SMD111"):
        estimator.fit(wait=False, job_name="generic-nohook-2")
    assert sm.sent == []


def test_profiler_processing_rule_is_named_from_the_job_and_refit_renames_it(sm):
    profiler_config = ProfilerConfig(profile_params=Profiler(cpu_profiling_duration=600))
    estimator = Estimator(image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/train:1", output_path=f"s3://{BUCKET}/smp/",
                          profiler_config=profiler_config, **common(sm))
    for name in ("smp-job-1", "smp-job-2"):
        estimator.fit(wait=False, job_name=name)
        assert debugger_fields(sm.sent[-1]) == rendered_fields(estimator, name, profiler_config=profiler_config)
        [rule] = sm.sent[-1]["ProfilerRuleConfigurations"]
        assert rule["RuleConfigurationName"] == f"DetailedProfilerProcessingJobConfig-{name}"
        assert rule["RuleEvaluatorImage"].endswith("/detailed-profiler-processing:latest")
    assert estimator._sm_debug_config_state["originals"]["profiler_config"] is profiler_config


def test_default_output_path_and_disabled_profiler(sm):
    rules = [Rule.sagemaker(rule_configs.dead_relu())]
    estimator = Estimator(
        image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/train:1",
        rules=rules,
        disable_profiler=True,
        **common(sm),
    )
    estimator.fit(wait=False, job_name="default-out-1")
    [body] = sm.sent
    assert estimator.output_path == f"s3://{BUCKET}/"
    assert debugger_fields(body) == rendered_fields(estimator, "default-out-1", rules, disable_profiler=True)
    assert body["ProfilerConfig"] == {"DisableProfiler": True}


@pytest.mark.parametrize("region, instance_type", [("ap-south-2", "ml.m5.xlarge"), ("us-east-1", "ml.trn1.2xlarge")])
def test_regions_and_instances_without_debugger_or_profiler(sm, region, instance_type):
    session = sagemaker.Session(
        boto_session=sm.aws.session(region), sagemaker_config=NO_TELEMETRY, default_bucket=BUCKET
    )
    sent = []
    session.sagemaker_client.meta.events.register(
        "before-send.sagemaker.CreateTrainingJob", lambda request, **_: sent.append(json.loads(request.body))
    )
    tensorboard = TensorBoardOutputConfig(f"s3://{BUCKET}/tb/")
    estimator = Estimator(
        image_uri=f"123456789012.dkr.ecr.{region}.amazonaws.com/train:1",
        role=ROLE,
        instance_count=1,
        instance_type=instance_type,
        output_path=f"s3://{BUCKET}/{region}/",
        sagemaker_session=session,
        tensorboard_output_config=tensorboard,
    )
    estimator.fit(wait=False, job_name=f"limits-{region}")
    [body] = sent
    expected = rendered_fields(estimator, f"limits-{region}", tensorboard_output_config=tensorboard)
    assert debugger_fields(body) == expected
    assert body["ProfilerConfig"] == {"DisableProfiler": True}
    assert ("DebugHookConfig" in body) == (region == "us-east-1")


def test_local_custom_rule_source_is_uploaded_once_content_addressed(sm):
    source = sm.tmp / "my_rule.py"
    source.write_text("from smdebug.rules.rule import Rule\nclass MyRule(Rule):\n    pass\n")
    rule = Rule.custom(
        "MyRule",
        "123456789012.dkr.ecr.us-west-2.amazonaws.com/rules:1",
        "ml.m5.xlarge",
        30,
        source=str(source),
        rule_to_invoke="MyRule",
    )
    estimator = Estimator(image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/train:1", output_path=f"s3://{BUCKET}/local-src/",
                          rules=[rule], **common(sm))
    estimator.fit(wait=False, job_name="local-src-1")
    estimator.fit(wait=False, job_name="local-src-2")

    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    uri = f"s3://{BUCKET}/local-src/sm-debug-config/rule-sources/{digest}/my_rule.py"
    assert [b["DebugRuleConfigurations"][0]["RuleParameters"]["source_s3_uri"] for b in sm.sent] == [uri, uri]
    s3 = sm.aws.session().client("s3")
    keys = [o["Key"] for o in s3.list_objects_v2(Bucket=BUCKET, Prefix="local-src/sm-debug-config/")["Contents"]]
    assert keys == [f"local-src/sm-debug-config/rule-sources/{digest}/my_rule.py"]
    assert rule.rule_parameters["source_s3_uri"] == str(source)  # ours keeps the local path


def test_to_sagemaker_kwargs_work_with_plain_estimator_fit(sm):
    hook = DebuggerHookConfig(collection_configs=[CollectionConfig("losses", {"save_interval": "10"})])
    rules = [
        Rule.sagemaker(rule_configs.loss_not_decreasing(), actions=StopTraining()),
        Rule.sagemaker(rule_configs.overfit()),
    ]
    profiler_config = ProfilerConfig(profile_params=Profiler())
    kwargs = smd_sagemaker.to_sagemaker(rules, hook, profiler_config, region=sm.region, job_name="plain-fit-1")
    assert set(kwargs) == set(smd_sagemaker.ESTIMATOR_ATTRIBUTES)
    estimator = Estimator(
        image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/train:1",
        output_path=f"s3://{BUCKET}/plain/",
        **kwargs,
        **common(sm),
    )
    estimator.fit(wait=False, job_name="plain-fit-1")
    [body] = sm.sent
    assert debugger_fields(body) == rendered_fields(estimator, "plain-fit-1", rules, hook, profiler_config)


def test_to_sagemaker_without_job_name_takes_the_job_name_at_fit(sm):
    rules = [Rule.sagemaker(rule_configs.loss_not_decreasing(), actions=StopTraining())]
    kwargs = smd_sagemaker.to_sagemaker(rules, region=sm.region)
    estimator = Estimator(
        image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/train:1",
        output_path=f"s3://{BUCKET}/later/",
        **kwargs,
        **common(sm),
    )
    estimator.fit(wait=False, job_name="named-at-fit")
    assert debugger_fields(sm.sent[0]) == rendered_fields(estimator, "named-at-fit", rules)


def test_the_sdks_own_objects_would_repeat_collection_names(sm):
    """Why the conversion arranges the collections itself: the SDK's set keeps both variants."""
    rules = [
        Rule.sagemaker(
            rule_configs.loss_not_decreasing(),
            collections_to_save=[CollectionConfig("losses", {"save_interval": "10"})],
        ),
        Rule.sagemaker(
            rule_configs.overtraining(), collections_to_save=[CollectionConfig("losses", {"save_interval": "15"})]
        ),
    ]
    plain = Estimator(image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/train:1", output_path=f"s3://{BUCKET}/plain-sdk/",
                      rules=[smd_sagemaker.to_sagemaker_object(r) for r in rules], **common(sm))
    plain.fit(wait=False, job_name="sdk-own-1")
    ours = Estimator(image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/train:1", output_path=f"s3://{BUCKET}/plain-sdk/",
                     rules=rules, **common(sm))
    ours.fit(wait=False, job_name="sdk-own-2")

    sdk_names = [c["CollectionName"] for c in sm.sent[0]["DebugHookConfig"]["CollectionConfigurations"]]
    assert sdk_names.count("losses") == 2
    assert sm.sent[1]["DebugHookConfig"]["CollectionConfigurations"] == [
        {"CollectionName": "losses", "CollectionParameters": {"save_interval": "5"}}
    ]
    assert debugger_fields(sm.sent[1]) == rendered_fields(ours, "sdk-own-2", rules)


def test_mixing_with_sdk_objects_is_refused(sm):
    estimator = Estimator(
        image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/train:1",
        output_path=f"s3://{BUCKET}/mix/",
        rules=[Rule.sagemaker(rule_configs.overfit())],
        debugger_hook_config=sdk_debugger.DebuggerHookConfig(),
        **common(sm),
    )
    with pytest.raises(ConfigError) as err:
        smd_sagemaker.prepare(estimator, "mix-1")
    assert err.value.field == "estimator" and "DebuggerHookConfig" in str(err.value)


def test_an_estimator_with_only_sdk_objects_is_left_alone(sm):
    sdk_rules = [sdk_debugger.Rule.sagemaker(sdk_debugger.rule_configs.overfit())]
    estimator = Estimator(
        image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/train:1",
        output_path=f"s3://{BUCKET}/sdk/",
        rules=sdk_rules,
        **common(sm),
    )
    assert smd_sagemaker.prepare(estimator, "sdk-only-1") == "sdk-only-1"
    assert estimator.rules is sdk_rules


def test_render_errors_surface_before_anything_is_sent(sm):
    # two rules of one name: an error only the rendered request shows (SMD101); two rules' include_regex for one
    # collection were refused here before issue 37, and are merged now, as smdebug adds them
    rules = [Rule.sagemaker(rule_configs.loss_not_decreasing(), name="Same"),
             Rule.sagemaker(rule_configs.overtraining(), name="Same")]
    estimator = Estimator(
        image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/train:1",
        output_path=f"s3://{BUCKET}/err/",
        rules=rules,
        **common(sm),
    )
    with pytest.raises(ConfigError, match="RuleConfigurationName"):
        estimator.fit(wait=False, job_name="err-1")
    assert sm.sent == []


def test_checkpointing_with_distribution_never_drops_the_hook_silently(sm):
    from sm_debug_config.errors import ConfigWarning

    checkpoint = dict(checkpoint_s3_uri=f"s3://{BUCKET}/ckpt", checkpoint_local_path="/opt/ml/checkpoints")
    # debugger rules on a job the SDK would strip the hook from: refused, with the reason
    estimator = PyTorch(
        entry_point=sm.entry_point, framework_version="2.1", py_version="py310", output_path=f"s3://{BUCKET}/pt/",
        rules=[Rule.sagemaker(rule_configs.vanishing_gradient())], **common(sm, **checkpoint),
    )
    with pytest.raises(ConfigError, match="checkpointing.*VanishingGradient"):
        estimator.fit(f"s3://{BUCKET}/data", wait=False, job_name="pt-ckpt-1")
    assert sm.sent == []
    # only the default hook: left out with a warning, and the request still equals render's
    estimator = MXNet(
        entry_point=sm.entry_point, framework_version="1.9", py_version="py38", output_path=f"s3://{BUCKET}/mx/",
        profiler_config=ProfilerConfig(system_monitor_interval_millis=500),
        **dict(common(sm, **checkpoint), instance_count=2),
    )
    with pytest.warns(ConfigWarning, match="multi-instance mxnet"):
        estimator.fit(f"s3://{BUCKET}/data", wait=False, job_name="mx-ckpt-1")
    [body] = sm.sent
    assert "DebugHookConfig" not in body
    assert debugger_fields(body) == rendered_fields(
        estimator,
        "mx-ckpt-1",
        debugger_hook_config=False,
        profiler_config=ProfilerConfig(system_monitor_interval_millis=500),
    )


def test_tensorflow_parameter_server_is_refused_with_rules(sm):
    estimator = TensorFlow(
        entry_point=sm.entry_point, framework_version="2.13", py_version="py310", output_path=f"s3://{BUCKET}/tfps/",
        distribution={"parameter_server": {"enabled": True}},
        rules=[Rule.sagemaker(rule_configs.loss_not_decreasing())], **dict(common(sm), instance_count=2),
    )
    with pytest.raises(ConfigError, match="parameter_server"):
        smd_sagemaker.prepare(estimator)


def test_old_botocore_is_named_before_the_estimator_calls_the_api(sm, monkeypatch):
    import botocore.model
    import botocore.session

    loader = botocore.session.get_session().get_component("data_loader")
    raw = json.loads(json.dumps(loader.load_service_model("sagemaker", "service-2")))
    del raw["shapes"]["ProfilerConfig"]["members"]["DisableProfiler"]
    monkeypatch.setattr(
        sm.session.sagemaker_client.meta, "_service_model", botocore.model.ServiceModel(raw, service_name="sagemaker")
    )
    estimator = Estimator(
        image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/x:1",
        output_path=f"s3://{BUCKET}/old/",
        rules=[Rule.sagemaker(rule_configs.overfit())],
        **common(sm),
    )
    with pytest.raises(ConfigError, match=r"ProfilerConfig.DisableProfiler.*botocore >="):
        smd_sagemaker.prepare(estimator)
    assert sm.sent == []


def test_settings_for_the_job_and_those_the_estimator_decides(sm):
    from sm_debug_config import JobSettings

    rules = [Rule.sagemaker(rule_configs.overfit())]
    estimator = Estimator(
        image_uri="123456789012.dkr.ecr.us-west-2.amazonaws.com/train:1",
        rules=rules,
        output_path=f"s3://{BUCKET}/set/",
        **common(sm),
    )
    assert smd_sagemaker.estimator_settings(estimator) == {
        "region": sm.region,
        "output_path": f"s3://{BUCKET}/set/",
        "instance_type": "ml.m5.xlarge",
        "image_uri": "123456789012.dkr.ecr.us-west-2.amazonaws.com/train:1",
    }
    pytorch = PyTorch(entry_point=sm.entry_point, framework_version="2.3", py_version="py311", **common(sm))
    assert smd_sagemaker.estimator_settings(pytorch)["framework_version"] == "2.3"  # so validation knows the image
    with pytest.raises(ConfigError) as err:
        smd_sagemaker.prepare(estimator, "set-1", region="eu-west-1" if sm.region != "eu-west-1" else "us-east-1")
    assert err.value.field == "region" and "the Estimator" in err.value.message and sm.sent == []
    image = f"123456789012.dkr.ecr.{sm.region}.amazonaws.com/mirror:1"
    smd_sagemaker.fit(estimator, wait=False, job_name="set-1", settings=JobSettings(rule_image_uri=image))
    assert sm.sent[-1]["DebugRuleConfigurations"][0]["RuleEvaluatorImage"] == image
    kwargs = smd_sagemaker.to_sagemaker(rules, settings=JobSettings(region=sm.region), output_path=f"s3://{BUCKET}/set/")
    assert set(kwargs) == set(smd_sagemaker.ESTIMATOR_ATTRIBUTES)
