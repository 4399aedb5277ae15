"""SageMaker Pipelines values: accepted where the SDK v2 accepts them, rendered as expressions,
skipped (with an info finding) by validation, and identical in a real pipeline definition."""
import json


from sm_debug_config import (
    CollectionConfig,
    DebuggerHookConfig,
    Rule,
    render,
    rule_configs,
    validate,
)
from sm_debug_config.variables import is_pipeline_variable

from tests.warnhelpers import config_warnings

IMAGE = "111122223333.dkr.ecr.us-west-2.amazonaws.com/my-rule:1"


def parameters():
    from sagemaker.workflow.execution_variables import ExecutionVariables
    from sagemaker.workflow.functions import Join
    from sagemaker.workflow.parameters import ParameterInteger, ParameterString

    p = {
        "tensors": ParameterString("TensorsPath", default_value="s3://bucket/tensors"),
        "interval": ParameterString("SaveInterval", default_value="100"),
        "image": ParameterString("RuleImage", default_value=IMAGE),
        "volume": ParameterInteger("RuleVolume", default_value=30),
        "instance": ParameterString("RuleInstance", default_value="ml.m5.xlarge"),
        "threshold": ParameterString("Threshold", default_value="0.001"),
        "monitor": ParameterInteger("MonitorMillis", default_value=500),
        "tb": ParameterString("TensorBoardPath", default_value="s3://bucket/tb"),
    }
    p["run_path"] = Join(on="/", values=["s3://bucket/rules", ExecutionVariables.PIPELINE_EXECUTION_ID])
    return p


def build(ns, p):
    """The same scenario for our objects and the SDK's (same API)."""
    hook = ns.DebuggerHookConfig(
        s3_output_path=p["tensors"],
        hook_parameters={"save_interval": p["interval"]},
        collection_configs=[ns.CollectionConfig("losses", {"save_interval": p["interval"]})],
    )
    rules = [
        ns.Rule.sagemaker(ns.rule_configs.vanishing_gradient(), rule_parameters={"threshold": p["threshold"]}),
        ns.Rule.custom(
            "MyRule",
            p["image"],
            p["instance"],
            p["volume"],
            source="s3://bucket/rules/my_rule.py",
            rule_to_invoke="MyRule",
            s3_output_path=p["run_path"],
        ),
    ]
    profiler = ns.ProfilerConfig(system_monitor_interval_millis=p["monitor"])
    tensorboard = ns.TensorBoardOutputConfig(p["tb"])
    return dict(rules=rules, debugger_hook_config=hook, profiler_config=profiler, tensorboard_output_config=tensorboard)


def test_pipeline_variables_are_recognised_without_importing_the_workflow_module():
    class Fake:
        @property
        def expr(self):
            return {"Get": "Parameters.X"}

        def to_string(self):
            return self

    assert (
        is_pipeline_variable(Fake()) and not is_pipeline_variable("s3://b") and not is_pipeline_variable({"Get": "x"})
    )
    import subprocess
    import sys

    code = ("import sys, sm_debug_config as s; s.CollectionConfig('g', {'save_interval': '5'}); "
            "print('sagemaker.workflow' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "False"


def test_render_writes_expressions_and_validation_skips_them_with_info():
    import sm_debug_config

    p = parameters()
    with config_warnings("SMD001"):  # each pipeline variable: checked when the pipeline runs (an info)
        fields = render(**build(sm_debug_config, p), region="us-west-2", output_path="s3://bucket/out/")
    hook = fields["DebugHookConfig"]
    assert hook["S3OutputPath"] == {"Get": "Parameters.TensorsPath"}
    assert hook["HookParameters"] == {"save_interval": {"Get": "Parameters.SaveInterval"}}
    custom = fields["DebugRuleConfigurations"][1]
    assert custom["RuleEvaluatorImage"] == {"Get": "Parameters.RuleImage"} and custom["VolumeSizeInGB"] == {
        "Get": "Parameters.RuleVolume"
    }
    assert custom["S3OutputPath"] == {
        "Std:Join": {"On": "/", "Values": ["s3://bucket/rules", {"Get": "Execution.PipelineExecutionId"}]}
    }
    assert fields["DebugRuleConfigurations"][0]["RuleParameters"]["threshold"] == {"Get": "Parameters.Threshold"}
    assert fields["ProfilerConfig"]["ProfilingIntervalInMilliseconds"] == {"Get": "Parameters.MonitorMillis"}
    findings = validate(fields, region="us-west-2")
    assert [f for f in findings if f.severity == "error"] == []
    skipped = {f.pointer for f in findings if f.code == "SMD001"}
    assert {
        "/DebugHookConfig/S3OutputPath",
        "/DebugRuleConfigurations/1/RuleEvaluatorImage",
        "/ProfilerConfig/ProfilingIntervalInMilliseconds",
    } <= skipped
    assert all(f.severity == "info" for f in findings if f.code == "SMD001")
    assert json.loads(json.dumps(fields)) == fields  # plain JSON


def test_merge_with_pipeline_values():
    from sagemaker.workflow.parameters import ParameterString

    interval = ParameterString("Interval", default_value="10")
    rules = [
        Rule.sagemaker(
            rule_configs.exploding_tensor(),
            collections_to_save=[CollectionConfig("gradients", {"save_interval": interval})],
        ),
        Rule.sagemaker(
            rule_configs.all_zero(), collections_to_save=[CollectionConfig("gradients", {"save_interval": "300"})]
        ),
    ]
    with config_warnings("SMD116"):  # a value known only at run time and "300": the last is sent, said
        sent = render(rules, region="us-west-2", output_path="s3://bucket/out/")
    assert sent["DebugHookConfig"]["CollectionConfigurations"][0]["CollectionParameters"] == {"save_interval": "300"}
    hook = DebuggerHookConfig(collection_configs=[CollectionConfig("gradients", {"save_interval": interval})])
    with config_warnings("SMD001"):
        fields = render(rules, hook, region="us-west-2", output_path="s3://bucket/out/")
    assert fields["DebugHookConfig"]["CollectionConfigurations"] == [
        {"CollectionName": "gradients", "CollectionParameters": {"save_interval": {"Get": "Parameters.Interval"}}}
    ]
    same = [
        Rule.sagemaker(
            rule_configs.exploding_tensor(),
            collections_to_save=[CollectionConfig("gradients", {"save_interval": interval})],
        )
    ] * 1
    with config_warnings("SMD001"):
        render(
            same
            + [
                Rule.sagemaker(
                    rule_configs.all_zero(),
                    name="AZ",
                    collections_to_save=[CollectionConfig("gradients", {"save_interval": interval})],
                )
            ],
            region="us-west-2",
            output_path="s3://bucket/out/",
        )


def _step_arguments(aws, kwargs, parameter_list):
    from sagemaker.estimator import Estimator
    from sagemaker.workflow.pipeline import Pipeline
    from sagemaker.workflow.pipeline_context import PipelineSession
    from sagemaker.workflow.steps import TrainingStep

    bucket = aws.bucket("pipeline-bucket")
    config = {"SchemaVersion": "1.0", "SageMaker": {"PythonSDK": {"Modules": {"TelemetryOptOut": True}}}}
    session = PipelineSession(boto_session=aws.session(), default_bucket=bucket, sagemaker_config=config)
    estimator = Estimator(
        image_uri="111122223333.dkr.ecr.us-west-2.amazonaws.com/train:1",
        role="arn:aws:iam::111122223333:role/SageMaker",
        instance_count=1,
        instance_type="ml.m5.xlarge",
        output_path=f"s3://{bucket}/out/",
        sagemaker_session=session,
        **kwargs,
    )
    step = TrainingStep(name="Train", step_args=estimator.fit())
    pipeline = Pipeline(name="debugger-pipeline", parameters=parameter_list, steps=[step], sagemaker_session=session)
    arguments = json.loads(pipeline.definition())["Steps"][0]["Arguments"]
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


def _order_free(fields):
    out = json.loads(json.dumps(fields))
    hook = out.get("DebugHookConfig")
    if hook:
        hook["CollectionConfigurations"] = sorted(hook["CollectionConfigurations"], key=lambda c: c["CollectionName"])
    return out


def test_training_step_with_our_objects_equals_the_sdk_objects(aws):
    import sagemaker.debugger as sdk

    import sm_debug_config
    from sm_debug_config.integrations.sagemaker_v2 import to_sagemaker

    p = parameters()
    plist = [value for key, value in p.items() if key != "run_path"]
    with config_warnings("SMD001"):  # each pipeline variable: checked when the pipeline runs (an info)
        ours = _step_arguments(aws, to_sagemaker(**build(sm_debug_config, p), region="us-west-2"), plist)
    theirs = _step_arguments(aws, build(sdk, p), plist)
    assert _order_free(ours) == _order_free(theirs)
    with config_warnings("SMD001"):
        expected = render(**build(sm_debug_config, p), region="us-west-2", output_path="s3://pipeline-bucket/out/")
    assert ours == expected
