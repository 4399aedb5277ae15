"""Plain ``estimator.fit()`` of the SDK v2 with our objects (the post-import hook of
``sm_debug_config.integrations.sdk_patch``): real Estimators against moto on 127.0.0.1, pipeline
definitions, tuners, running-job updates, import order and the switch-off variable in fresh
processes."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import types

import pytest

from sm_debug_config import (
    CollectionConfig,
    ConfigError,
    ConfigWarning,
    DebuggerHookConfig,
    FrameworkProfile,
    ProfilerConfig,
    ProfilerRule,
    Rule,
    TensorBoardOutputConfig,
    render,
    render_update,
    rule_configs,
)
from sm_debug_config.integrations import sdk_patch
from sm_debug_config.model.actions import StopTraining

from tests.integrations.v2helpers import BUCKET, common, debugger_fields, rendered_fields, snapshot
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

IMAGE = "123456789012.dkr.ecr.us-west-2.amazonaws.com/train:1"


def _rules():
    return [
        Rule.sagemaker(rule_configs.loss_not_decreasing(), actions=StopTraining()),
        Rule.sagemaker(
            rule_configs.vanishing_gradient(),
            collections_to_save=[CollectionConfig("gradients", {"save_interval": "20"})],
        ),
        ProfilerRule.sagemaker(rule_configs.ProfilerReport()),
    ]


def _estimators(sm, **debugger):
    code = dict(entry_point=sm.entry_point)
    return {
        "tensorflow": TensorFlow(
            framework_version="2.11",
            py_version="py39",
            output_path=f"s3://{BUCKET}/tf/",
            **code,
            **debugger,
            **common(sm),
        ),
        "pytorch": PyTorch(
            framework_version="1.13",
            py_version="py39",
            output_path=f"s3://{BUCKET}/pt/",
            **code,
            **debugger,
            **common(sm),
        ),
        "mxnet": MXNet(
            framework_version="1.9",
            py_version="py38",
            output_path=f"s3://{BUCKET}/mx/",
            **code,
            **debugger,
            **common(sm),
        ),
        "xgboost": XGBoost(
            framework_version="1.7-1", output_path=f"s3://{BUCKET}/xgb/", **code, **debugger, **common(sm)
        ),
        "estimator": Estimator(image_uri=IMAGE, output_path=f"s3://{BUCKET}/gen/", **debugger, **common(sm)),
    }


def test_the_sdk_is_wrapped_once():
    import sagemaker.estimator
    import sagemaker.tuner

    assert getattr(sagemaker.estimator.EstimatorBase.__dict__["_prepare_for_training"], sdk_patch.MARK)
    assert getattr(sagemaker.estimator.EstimatorBase.__dict__["update_profiler"], sdk_patch.MARK)
    assert getattr(sagemaker.tuner.HyperparameterTuner.__dict__["_prepare_for_tuning"], sdk_patch.MARK)
    wrapped = sagemaker.estimator.EstimatorBase.__dict__["_prepare_for_training"]
    sdk_patch.install()
    assert sagemaker.estimator.EstimatorBase.__dict__["_prepare_for_training"] is wrapped


@pytest.mark.parametrize("kind", ["tensorflow", "pytorch", "mxnet", "xgboost", "estimator"])
def test_plain_fit_sends_what_render_gives(sm, kind):
    rules = _rules()
    hook = DebuggerHookConfig(
        hook_parameters={"save_interval": "100"},
        collection_configs=[CollectionConfig("losses", {"save_interval": "10"})],
    )
    tensorboard = TensorBoardOutputConfig(f"s3://{BUCKET}/tb/")
    before = snapshot(rules, hook, tensorboard)
    estimator = _estimators(sm, rules=rules, debugger_hook_config=hook, tensorboard_output_config=tensorboard)[kind]
    with config_warnings(*({"xgboost": ("SMD123",)}.get(kind, ()))):  # VanishingGradient is not for XGBoost
        estimator.fit(wait=False, job_name=f"plain-{kind}-1")
    [body] = sm.sent
    assert debugger_fields(body) == rendered_fields(
        estimator, f"plain-{kind}-1", rules, hook, tensorboard_output_config=tensorboard
    )
    assert snapshot(rules, hook, tensorboard) == before


def test_refit_and_generated_names(sm):
    rules = _rules()
    estimator = Estimator(image_uri=IMAGE, output_path=f"s3://{BUCKET}/refit/", rules=rules, **common(sm))
    estimator.fit(wait=False)
    estimator.fit(wait=False)
    first, second = sm.sent
    assert first["TrainingJobName"] != second["TrainingJobName"]
    for body in (first, second):
        expected = rendered_fields(estimator, body["TrainingJobName"], rules)
        assert debugger_fields(body) == expected
        assert body["TrainingJobName"] in body["DebugRuleConfigurations"][0]["RuleParameters"]["action_json"]
    assert estimator.rules[0] is not rules[0]  # the Estimator holds converted SDK objects; ours are kept unchanged


def test_an_estimator_with_only_sdk_objects_calls_straight_through(sm, monkeypatch):
    from sm_debug_config.integrations import sagemaker_v2

    def refuse(*args, **kwargs):
        raise AssertionError("prepare must not run for an Estimator without our objects")

    monkeypatch.setattr(sagemaker_v2, "prepare", refuse)
    sdk_rules = [sdk_debugger.Rule.sagemaker(sdk_debugger.rule_configs.overfit())]
    estimator = Estimator(image_uri=IMAGE, output_path=f"s3://{BUCKET}/sdk-only/", rules=sdk_rules, **common(sm))
    estimator.fit(wait=False, job_name="sdk-only-plain")
    [body] = sm.sent
    assert [r["RuleConfigurationName"] for r in body["DebugRuleConfigurations"]] == ["Overfit"]


def test_mixing_is_refused_before_anything_is_sent(sm):
    estimator = Estimator(
        image_uri=IMAGE,
        output_path=f"s3://{BUCKET}/mix/",
        rules=[Rule.sagemaker(rule_configs.overfit())],
        debugger_hook_config=sdk_debugger.DebuggerHookConfig(),
        **common(sm),
    )
    with pytest.raises(ConfigError, match="mixes") as err:
        estimator.fit(wait=False, job_name="mix-plain")
    assert err.value.field == "estimator" and sm.sent == []


def test_checkpointing_with_distribution_is_refused_on_plain_fit(sm):
    estimator = PyTorch(
        entry_point=sm.entry_point, framework_version="1.13", py_version="py39", output_path=f"s3://{BUCKET}/ckpt/",
        rules=[Rule.sagemaker(rule_configs.vanishing_gradient())],
        **common(sm, checkpoint_s3_uri=f"s3://{BUCKET}/ckpt", checkpoint_local_path="/opt/ml/checkpoints"),
    )
    with pytest.raises(ConfigError, match="checkpointing.*VanishingGradient"):
        estimator.fit(wait=False, job_name="ckpt-plain")
    assert sm.sent == []


def _pipeline_session(sm):
    from sagemaker.workflow.pipeline_context import PipelineSession

    config = {"SchemaVersion": "1.0", "SageMaker": {"PythonSDK": {"Modules": {"TelemetryOptOut": True}}}}
    return PipelineSession(boto_session=sm.aws.session(), default_bucket=BUCKET, sagemaker_config=config)


def _definition_fields(session, step):
    from sagemaker.workflow.pipeline import Pipeline

    arguments = json.loads(Pipeline(name="debugger-plain", steps=[step], sagemaker_session=session).definition())[
        "Steps"
    ][0]["Arguments"]
    return {
        k: arguments[k]
        for k in (
            "DebugHookConfig",
            "DebugRuleConfigurations",
            "ProfilerConfig",
            "ProfilerRuleConfigurations",
            "TensorBoardOutputConfig",
        )
        if k in arguments
    }


@pytest.mark.parametrize("form", ["step_args", "estimator"])
def test_training_step_carries_render_fields(sm, form):
    from sagemaker.workflow.steps import TrainingStep

    session = _pipeline_session(sm)
    rules = [Rule.sagemaker(rule_configs.vanishing_gradient()), Rule.sagemaker(rule_configs.overfit())]
    hook = DebuggerHookConfig(collection_configs=[CollectionConfig("gradients", {"save_interval": "25"})])
    estimator = Estimator(
        image_uri=IMAGE,
        role=common(sm)["role"],
        instance_count=1,
        instance_type="ml.m5.xlarge",
        output_path=f"s3://{BUCKET}/pipe/",
        sagemaker_session=session,
        rules=rules,
        debugger_hook_config=hook,
    )
    step = (
        TrainingStep(name="Train", step_args=estimator.fit())
        if form == "step_args"
        else TrainingStep(name="Train", estimator=estimator)
    )
    fields = _definition_fields(session, step)
    assert fields == render(
        rules, hook, region=sm.region, output_path=f"s3://{BUCKET}/pipe/", instance_type="ml.m5.xlarge"
    )


def test_tuner_says_what_it_drops(sm):
    import warnings

    from sagemaker.tuner import ContinuousParameter, HyperparameterTuner
    from sagemaker.workflow.steps import TuningStep

    session = _pipeline_session(sm)
    estimator = Estimator(
        image_uri=IMAGE,
        role=common(sm)["role"],
        instance_count=1,
        instance_type="ml.m5.xlarge",
        output_path=f"s3://{BUCKET}/tune/",
        sagemaker_session=session,
        rules=[Rule.sagemaker(rule_configs.overfit())],
        profiler_config=ProfilerConfig(system_monitor_interval_millis=500),
    )
    tuner = HyperparameterTuner(
        estimator,
        "validation:loss",
        {"lr": ContinuousParameter(0.001, 0.1)},
        metric_definitions=[{"Name": "validation:loss", "Regex": "loss=(.*)"}],
        max_jobs=2,
        max_parallel_jobs=1,
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConfigWarning)
        step = TuningStep(name="Tune", tuner=tuner)
        json.loads(
            __import__("sagemaker.workflow.pipeline", fromlist=["Pipeline"])
            .Pipeline(name="tune", steps=[step], sagemaker_session=session)
            .definition()
        )
    ours = [w for w in caught if issubclass(w.category, ConfigWarning)]
    assert ours, [str(w.message) for w in caught]
    message = str(ours[0].message)
    for field in ("DebugHookConfig", "DebugRuleConfigurations", "ProfilerConfig"):
        assert field in message


def test_a_tuner_of_sdk_objects_stays_silent(sm):
    import warnings

    from sagemaker.tuner import ContinuousParameter, HyperparameterTuner

    estimator = Estimator(image_uri=IMAGE, output_path=f"s3://{BUCKET}/tune-sdk/", **common(sm),
                          rules=[sdk_debugger.Rule.sagemaker(sdk_debugger.rule_configs.overfit())])
    tuner = HyperparameterTuner(
        estimator,
        "validation:loss",
        {"lr": ContinuousParameter(0.001, 0.1)},
        metric_definitions=[{"Name": "validation:loss", "Regex": "loss=(.*)"}],
        max_jobs=2,
        max_parallel_jobs=1,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConfigWarning)
        tuner._prepare_for_tuning(job_name="tune-sdk-1")


def _capture_updates(sm):
    """UpdateTrainingJob answered locally (moto has no UpdateTrainingJob); the parameters captured."""
    sent = []

    def answer(**_):
        http = types.SimpleNamespace(status_code=200, headers={})
        return http, {
            "TrainingJobArn": "arn:aws:sagemaker:us-west-2:123456789012:training-job/x",
            "ResponseMetadata": {"HTTPStatusCode": 200},
        }

    events = sm.session.sagemaker_client.meta.events
    events.register("before-parameter-build.sagemaker.UpdateTrainingJob", lambda params, **_: sent.append(dict(params)))
    events.register("before-call.sagemaker.UpdateTrainingJob", answer)
    return sent


def test_update_profiler_with_our_objects_sends_render_update(sm, monkeypatch):
    estimator = Estimator(
        image_uri=IMAGE,
        output_path=f"s3://{BUCKET}/upd/",
        rules=[ProfilerRule.sagemaker(rule_configs.ProfilerReport())],
        **common(sm),
    )
    estimator.fit(wait=False, job_name="update-plain-1")
    sent = _capture_updates(sm)
    current = {
        "TrainingJobName": "update-plain-1",
        "ProfilingStatus": "Enabled",
        "ProfilerConfig": {"S3OutputPath": f"s3://{BUCKET}/upd/"},
        "ProfilerRuleConfigurations": [{"RuleConfigurationName": "ProfilerReport"}],
    }
    monkeypatch.setattr(type(estimator.latest_training_job), "describe", lambda self: current)
    rule = ProfilerRule.sagemaker(rule_configs.CPUBottleneck(threshold=70))
    profile = FrameworkProfile(start_step=5, num_steps=3)
    before = snapshot(rule, profile)
    with config_warnings():  # no SMD145: the HorovodProfilingConfig FrameworkProfile adds is not the user's
        estimator.update_profiler(rules=[rule], framework_profile_params=profile)
    [params] = sent
    with config_warnings():
        expected = render_update(
            ProfilerConfig(framework_profile_params=profile),
            [rule],
            region=sm.region,
            job_name="update-plain-1",
            current=current,
        )
    assert {k: params[k] for k in expected} == expected
    assert params["TrainingJobName"] == "update-plain-1"
    assert snapshot(rule, profile) == before
    with pytest.raises(ConfigError, match="already runs"):
        estimator.update_profiler(rules=[ProfilerRule.sagemaker(rule_configs.ProfilerReport())])
    with pytest.raises(ConfigError, match="mixes"):
        estimator.update_profiler(
            rules=[rule, sdk_debugger.ProfilerRule.sagemaker(sdk_debugger.rule_configs.CPUBottleneck())]
        )


def test_enable_and_disable_profiling_after_a_fit_with_our_objects(sm, monkeypatch):
    estimator = Estimator(
        image_uri=IMAGE,
        output_path=f"s3://{BUCKET}/toggle/",
        rules=[Rule.sagemaker(rule_configs.overfit())],
        disable_profiler=True,
        **common(sm),
    )
    estimator.fit(wait=False, job_name="toggle-plain-1")
    sent = _capture_updates(sm)
    status = {"ProfilingStatus": "Disabled"}
    monkeypatch.setattr(type(estimator.latest_training_job), "describe", lambda self: dict(status))
    estimator.enable_default_profiling()
    status["ProfilingStatus"] = "Enabled"
    estimator.disable_profiling()
    enable, disable = sent
    assert {"ProfilerConfig": enable["ProfilerConfig"]} == render_update(region=sm.region, output_path=f"s3://{BUCKET}/toggle/")
    assert {"ProfilerConfig": disable["ProfilerConfig"]} == render_update(disable_profiler=True, region=sm.region)


_ORDER_SCRIPT = """
import json, os, sys
os.environ["SAGEMAKER_SUPPRESS_V2_WARNING"] = "1"
order = sys.argv[1]
if order == "ours-first":
    import sm_debug_config
    assert "sagemaker" not in sys.modules, "import sm_debug_config imported sagemaker"
    import sagemaker.estimator
elif order == "integration-first":  # importing it imports the SDK, which loads the wrappers midway through it
    import sm_debug_config.integrations.sagemaker_v2 as v2
    assert v2._IMPORT_ERROR is None, v2._IMPORT_ERROR
    import sagemaker.estimator
else:
    import sagemaker.estimator
    import sm_debug_config
import sagemaker.tuner
base = sagemaker.estimator.EstimatorBase.__dict__["_prepare_for_training"]
tuner = sagemaker.tuner.HyperparameterTuner.__dict__["_prepare_for_tuning"]
wrapped = [bool(getattr(f, "__sm_debug_config_wrapped__", False)) for f in (base, tuner)]
print(json.dumps(wrapped))
"""


@pytest.mark.parametrize("order,switch,expected", [
    ("ours-first", None, [True, True]),
    ("sdk-first", None, [True, True]),
    ("integration-first", None, [True, True]),
    ("ours-first", "0", [False, False]),
    ("sdk-first", "off", [False, False]),
])
def test_import_order_and_switch_in_fresh_processes(order, switch, expected):
    env = {k: val for k, val in os.environ.items() if k != sdk_patch.ENV_SWITCH}
    if switch is not None:
        env[sdk_patch.ENV_SWITCH] = switch
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(_ORDER_SCRIPT), order],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1]) == expected
