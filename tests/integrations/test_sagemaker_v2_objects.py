"""SageMaker Python SDK v2 without a job: our objects as the SDK's classes (to_sagemaker_object), converted
arguments that pickle and copy, and a collection order that does not depend on the hash seed. The jobs
sent to moto are in test_sagemaker_v2.py.
"""
from __future__ import annotations

import copy
import json
import os
import pickle
import subprocess
import sys
import textwrap

import pytest

from sm_debug_config import (
    CollectionConfig,
    ConfigError,
    DebuggerHookConfig,
    FrameworkProfile,
    Profiler,
    ProfilerConfig,
    Rule,
    TensorBoardOutputConfig,
    render,
    rule_configs,
)
from sm_debug_config.model.actions import SMS, ActionList, Email, StopTraining

pytestmark = pytest.mark.sagemaker

os.environ.setdefault("SAGEMAKER_SUPPRESS_V2_WARNING", "1")
sagemaker = pytest.importorskip("sagemaker")
pytest.importorskip("sagemaker.estimator")

import sagemaker.debugger as sdk_debugger  # noqa: E402 - needs the importorskip above
import sm_debug_config.integrations.sagemaker_v2 as smd_sagemaker  # noqa: E402 - it imports the SDK


def test_to_sagemaker_object_gives_the_sdks_classes():
    rule = Rule.sagemaker(rule_configs.vanishing_gradient(), actions=Email("a.b+c@example.com"))
    sdk_rule = smd_sagemaker.to_sagemaker_object(rule)
    assert type(sdk_rule) is sdk_debugger.Rule
    assert sdk_rule.image_uri == "DEFAULT_RULE_EVALUATOR_IMAGE"
    assert sdk_debugger.rule_configs.is_valid_action_object(sdk_rule.actions)
    assert sdk_rule.actions.serialize() == rule.actions.serialize()
    profile = FrameworkProfile(start_unix_time=1700000000, duration=10)
    sdk_profile = smd_sagemaker.to_sagemaker_object(ProfilerConfig(framework_profile_params=profile))
    assert sdk_profile._to_request_dict()["ProfilingParameters"] == profile.profiling_parameters
    assert (
        type(smd_sagemaker.to_sagemaker_object(TensorBoardOutputConfig("s3://b/tb")))
        is sdk_debugger.TensorBoardOutputConfig
    )
    with pytest.raises(ConfigError):
        smd_sagemaker.to_sagemaker_object("not an object")


def test_converted_kwargs_pickle_and_copy():
    rules = [
        Rule.sagemaker(rule_configs.loss_not_decreasing(), actions=ActionList(StopTraining(), SMS("+14155550100")))
    ]
    hook = DebuggerHookConfig(collection_configs=[CollectionConfig("losses", {"save_interval": "3"})])
    kwargs = smd_sagemaker.to_sagemaker(
        rules, hook, ProfilerConfig(profile_params=Profiler()), region="us-east-1", job_name="pickled-1"
    )
    pickled = pickle.loads(pickle.dumps(kwargs))  # noqa: S301 - our own bytes: the test proves pickling works
    for clone in (pickled, copy.deepcopy(kwargs)):
        clone["rules"][0].actions.update_training_job_prefix_if_not_specified("pickled-1")
        assert clone["rules"][0].actions.serialize() == rules[0].actions.serialize("pickled-1")
        assert [c._to_request_dict() for c in clone["debugger_hook_config"].collection_configs] == [
            {"CollectionName": "losses", "CollectionParameters": {"save_interval": "3"}}
        ]
        clone["debugger_hook_config"].collection_configs = set(clone["debugger_hook_config"].collection_configs)
        assert len(clone["debugger_hook_config"].collection_configs) == 1


_HASH_SEED_SCRIPT = textwrap.dedent(
    """
    import json, os
    os.environ["SAGEMAKER_SUPPRESS_V2_WARNING"] = "1"
    os.environ.update(AWS_ACCESS_KEY_ID="x", AWS_SECRET_ACCESS_KEY="x", AWS_DEFAULT_REGION="us-west-2",
                      AWS_EC2_METADATA_DISABLED="true", AWS_ENDPOINT_URL="http://127.0.0.1:9")
    import boto3, sagemaker, sagemaker.utils
    from sagemaker.estimator import Estimator, _TrainingJob
    import sm_debug_config.integrations.sagemaker_v2 as smd_sagemaker
    from sm_debug_config import Rule, CollectionConfig, DebuggerHookConfig, rule_configs
    hook = DebuggerHookConfig(
        collection_configs=[CollectionConfig("c%d" % i, {"include_regex": "layer%d" % i}) for i in range(12)]
    )
    rules = [Rule.sagemaker(getattr(rule_configs, f)()) for f in
             ("vanishing_gradient", "loss_not_decreasing", "weight_update_ratio", "all_zero", "class_imbalance",
              "dead_relu")]
    telemetry_off = {"SchemaVersion": "1.0", "SageMaker": {"PythonSDK": {"Modules": {"TelemetryOptOut": True}}}}
    session = sagemaker.Session(boto_session=boto3.Session(region_name="us-west-2"), default_bucket="b-b-b",
                                sagemaker_config=telemetry_off)
    sagemaker.utils.validate_sagemaker_config = lambda config=None: None  # validated once above; keeps this fast
    est = Estimator(image_uri="1.dkr.ecr.us-west-2.amazonaws.com/t:1", role="arn:aws:iam::1:role/r", instance_count=1,
                    instance_type="ml.m5.xlarge", output_path="s3://b-b-b/o/", sagemaker_session=session,
                    rules=rules, debugger_hook_config=hook)
    name = smd_sagemaker.prepare(est, "seeded")
    est._prepare_for_training(job_name=name)
    args = _TrainingJob._get_train_args(est, None, None)
    print(json.dumps([c["CollectionName"] for c in args["debugger_hook_config"]["CollectionConfigurations"]]))
    """
)


def test_collection_order_does_not_depend_on_the_hash_seed():
    expected_names = [
        c["CollectionName"]
        for c in render(
            [
                Rule.sagemaker(getattr(rule_configs, f)())
                for f in (
                    "vanishing_gradient",
                    "loss_not_decreasing",
                    "weight_update_ratio",
                    "all_zero",
                    "class_imbalance",
                    "dead_relu",
                )
            ],
            DebuggerHookConfig(
                collection_configs=[CollectionConfig("c%d" % i, {"include_regex": "layer%d" % i}) for i in range(12)]
            ),
            region="us-west-2",
            output_path="s3://b-b-b/o/",
        )["DebugHookConfig"]["CollectionConfigurations"]
    ]
    runs = []
    for seed in ("0", "1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        runs.append(
            subprocess.Popen(
                [sys.executable, "-c", _HASH_SEED_SCRIPT],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
                text=True,
            )
        )
    for run in runs:
        out, err = run.communicate(timeout=120)
        assert run.returncode == 0, err[-2000:]
        assert json.loads(out.strip().splitlines()[-1]) == expected_names


def test_merged_hook_sorts_a_set_into_its_own_order():
    collections = [
        sdk_debugger.CollectionConfig(name=f"n{i}", parameters={"save_interval": str(i + 1)}) for i in range(30)
    ]
    hook = smd_sagemaker.MergedDebuggerHookConfig(collection_configs=list(collections))
    extra = sdk_debugger.CollectionConfig(name="zzz")
    hook.collection_configs = set(reversed(collections)) | {extra}
    assert hook.collection_configs == collections + [extra]
    hook.collection_configs = copy.copy(collections[:3])
    assert hook.collection_configs == collections[:3]
