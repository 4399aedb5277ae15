"""API limits as data: the schema's interpreter, one violation of each kind with its valid twin, placeholders,
non-JSON values, valid requests. The schema against its sources (botocore, jsonschema) is in
test_apischema_sources.py."""
import os
import subprocess
import sys
from decimal import Decimal

import pytest

from sm_debug_config import apischema
from sm_debug_config.apischema import ApiCheck, PipelineValue, SchemaError, check_api, validate_api
from sm_debug_config.errors import ConfigError
from sm_debug_config.findings import collecting
from tests.apihelpers import PLACEHOLDERS, pairs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMA_PATH = os.path.join(ROOT, "sm_debug_config", "data", "api_schema.json")
ENGINES = apischema.ENGINES
S3 = "s3://bucket/prefix"
IMAGE = "895741380848.dkr.ecr.us-west-2.amazonaws.com/sagemaker-debugger-rules:latest"


# --- (b) one violation of each kind, and its near-identical valid twin -----------------------------


def hook(**extra):
    return {"DebugHookConfig": {"S3OutputPath": S3, **extra}}


def rule(**extra):
    return {"RuleConfigurationName": "Overfit", "RuleEvaluatorImage": IMAGE, **extra}


def collections(count, **params):
    return [
        {"CollectionName": f"c{i}", "CollectionParameters": {"save_interval": "10", **params}} for i in range(count)
    ]


def with_param(index, key, value):
    items = collections(5)
    items[index]["CollectionParameters"][key] = value
    return hook(CollectionConfigurations=items)


CASES = [
    # name, invalid request, (path, keyword) it must produce, the valid twin
    (
        "maxItems collections",
        hook(CollectionConfigurations=collections(25)),
        ("/DebugHookConfig/CollectionConfigurations", "maxItems"),
        hook(CollectionConfigurations=collections(20)),
    ),
    (
        "maxLength parameter value",
        with_param(3, "include_regex", "x" * 300),
        ("/DebugHookConfig/CollectionConfigurations/3/CollectionParameters/include_regex", "maxLength"),
        with_param(3, "include_regex", "x" * 256),
    ),
    (
        "required S3OutputPath",
        {"TensorBoardOutputConfig": {"LocalPath": "/opt/ml/output/tensorboard"}},
        ("/TensorBoardOutputConfig/S3OutputPath", "required"),
        {"TensorBoardOutputConfig": {"LocalPath": "/opt/ml/output/tensorboard", "S3OutputPath": S3}},
    ),
    (
        "required hook S3OutputPath",
        {"DebugHookConfig": {"HookParameters": {}}},
        ("/DebugHookConfig/S3OutputPath", "required"),
        hook(HookParameters={}),
    ),
    (
        "required rule image",
        {"DebugRuleConfigurations": [{"RuleConfigurationName": "Overfit"}]},
        ("/DebugRuleConfigurations/0/RuleEvaluatorImage", "required"),
        {"DebugRuleConfigurations": [rule()]},
    ),
    (
        "enum InstanceType",
        {"DebugRuleConfigurations": [rule(InstanceType="ml.m5.xlarg")]},
        ("/DebugRuleConfigurations/0/InstanceType", "enum"),
        {"DebugRuleConfigurations": [rule(InstanceType="ml.m5.xlarge")]},
    ),
    (
        "pattern S3 URI",
        {"ProfilerConfig": {"S3OutputPath": "bucket/prefix"}},
        ("/ProfilerConfig/S3OutputPath", "pattern"),
        {"ProfilerConfig": {"S3OutputPath": "s3://bucket/prefix"}},
    ),
    (
        "maxItems rules",
        {"ProfilerRuleConfigurations": [rule()] * 21},
        ("/ProfilerRuleConfigurations", "maxItems"),
        {"ProfilerRuleConfigurations": [rule()] * 20},
    ),
    (
        "maxItems debugger rules",
        {"DebugRuleConfigurations": [rule()] * 25},
        ("/DebugRuleConfigurations", "maxItems"),
        {"DebugRuleConfigurations": [rule()] * 20},
    ),
    (
        "minimum VolumeSizeInGB",
        {"DebugRuleConfigurations": [rule(VolumeSizeInGB=-1)]},
        ("/DebugRuleConfigurations/0/VolumeSizeInGB", "minimum"),
        {"DebugRuleConfigurations": [rule(VolumeSizeInGB=0)]},
    ),
    (
        "type int in string map",
        hook(HookParameters={"save_interval": 100}),
        ("/DebugHookConfig/HookParameters/save_interval", "type"),
        hook(HookParameters={"save_interval": "100"}),
    ),
    (
        "additionalProperties",
        {"ProfilerConfig": {"S3OutputPath": S3, "DisableProfiller": True}},
        ("/ProfilerConfig/DisableProfiller", "additionalProperties"),
        {"ProfilerConfig": {"S3OutputPath": S3, "DisableProfiler": True}},
    ),
    (
        "maxProperties",
        hook(HookParameters={f"k{i}": "v" for i in range(21)}),
        ("/DebugHookConfig/HookParameters", "maxProperties"),
        hook(HookParameters={f"k{i}": "v" for i in range(20)}),
    ),
    (
        "maxProperties rule parameters",
        {"DebugRuleConfigurations": [rule(RuleParameters={f"k{i}": "v" for i in range(101)})]},
        ("/DebugRuleConfigurations/0/RuleParameters", "maxProperties"),
        {"DebugRuleConfigurations": [rule(RuleParameters={f"k{i}": "v" for i in range(100)})]},
    ),
    (
        "minLength key",
        hook(HookParameters={"": "v"}),
        ("/DebugHookConfig/HookParameters/", "minLength"),
        hook(HookParameters={"k": "v"}),
    ),
    (
        "maxLength key",
        hook(HookParameters={"k" * 257: "v"}),
        ("/DebugHookConfig/HookParameters/" + "k" * 257, "maxLength"),
        hook(HookParameters={"k" * 256: "v"}),
    ),
    (
        "minLength name",
        hook(CollectionConfigurations=[{"CollectionName": ""}]),
        ("/DebugHookConfig/CollectionConfigurations/0/CollectionName", "minLength"),
        hook(CollectionConfigurations=[{"CollectionName": "g"}]),
    ),
    (
        "maxLength image",
        {"DebugRuleConfigurations": [rule(RuleEvaluatorImage="i" * 256)]},
        ("/DebugRuleConfigurations/0/RuleEvaluatorImage", "maxLength"),
        {"DebugRuleConfigurations": [rule(RuleEvaluatorImage="i" * 255)]},
    ),
    (
        "type boolean",
        {"ProfilerConfig": {"DisableProfiler": "false"}},
        ("/ProfilerConfig/DisableProfiler", "type"),
        {"ProfilerConfig": {"DisableProfiler": False}},
    ),
    (
        "type integer",
        {"ProfilerConfig": {"ProfilingIntervalInMilliseconds": "500"}},
        ("/ProfilerConfig/ProfilingIntervalInMilliseconds", "type"),
        {"ProfilerConfig": {"ProfilingIntervalInMilliseconds": 500}},
    ),
    (
        "type list",
        {"DebugRuleConfigurations": rule()},
        ("/DebugRuleConfigurations", "type"),
        {"DebugRuleConfigurations": [rule()]},
    ),
    (
        "newline in value",
        hook(HookParameters={"include_regex": "relu\n"}),
        ("/DebugHookConfig/HookParameters/include_regex", "pattern"),
        hook(HookParameters={"include_regex": "relu"}),
    ),
    (
        "pointer escaping",
        hook(HookParameters={"a/b~c": "v" * 257}),
        ("/DebugHookConfig/HookParameters/a~1b~0c", "maxLength"),
        hook(HookParameters={"a/b~c": "v"}),
    ),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name, bad, expected, good", CASES, ids=[c[0] for c in CASES])
def test_each_kind_of_limit(engine, name, bad, expected, good):
    assert pairs(bad, engine) == [expected]
    assert validate_api(good, engine=engine) == []


@pytest.mark.parametrize("engine", ENGINES)
def test_update_training_job_fields(engine):
    update = {
        "TrainingJobName": "job",
        "ProfilerConfig": {"ProfilingIntervalInMilliseconds": 100, "S3OutputPath": S3},
        "ProfilerRuleConfigurations": [rule()],
    }
    assert pairs(update, engine, "UpdateTrainingJob") == []
    bad = {
        "ProfilerConfig": {"S3OutputPath": "s3:/x", "Extra": 1},
        "ProfilerRuleConfigurations": [rule()] * 21,
        "DebugHookConfig": 5,
    }
    assert pairs(bad, engine, "UpdateTrainingJob") == [
        ("/ProfilerConfig/Extra", "additionalProperties"),
        ("/ProfilerConfig/S3OutputPath", "pattern"),
        ("/ProfilerRuleConfigurations", "maxItems"),
    ]
    assert ("/DebugHookConfig", "type") in pairs(bad, engine)  # a CreateTrainingJob field, checked there only


@pytest.mark.parametrize("engine", ENGINES)
def test_every_error_is_reported_in_path_order(engine):
    request = {
        "DebugHookConfig": {"S3Outputpath": S3, "CollectionConfigurations": collections(21, include_regex="x" * 300)},
        "DebugRuleConfigurations": [rule(InstanceType="ml.nope", VolumeSizeInGB=-5), {"RuleConfigurationName": 7}],
        "TensorBoardOutputConfig": {},
    }
    errors = validate_api(request, engine=engine)
    found = [(e.path, e.keyword) for e in errors]
    expected_params = [
        (f"/DebugHookConfig/CollectionConfigurations/{i}/CollectionParameters/include_regex", "maxLength")
        for i in range(21)
    ]
    assert found == [
        ("/DebugHookConfig/CollectionConfigurations", "maxItems"),
        *expected_params,
        ("/DebugHookConfig/S3OutputPath", "required"),
        ("/DebugHookConfig/S3Outputpath", "additionalProperties"),
        ("/DebugRuleConfigurations/0/InstanceType", "enum"),
        ("/DebugRuleConfigurations/0/VolumeSizeInGB", "minimum"),
        ("/DebugRuleConfigurations/1/RuleConfigurationName", "type"),
        ("/DebugRuleConfigurations/1/RuleEvaluatorImage", "required"),
        ("/TensorBoardOutputConfig/S3OutputPath", "required"),
    ]
    assert len(errors) == 29


@pytest.mark.parametrize("engine", ENGINES)
def test_messages_name_the_limit(engine):
    by_kw = {
        e.keyword: e
        for e in validate_api(
            {
                "DebugHookConfig": {
                    "S3OutputPath": "gs://b",
                    "s3OutputPath": S3,
                    "CollectionConfigurations": collections(25),
                    "HookParameters": {"save_interval": "x" * 300},
                },
                "DebugRuleConfigurations": [rule(InstanceType="ml.m5.xlarg", VolumeSizeInGB=-1)],
            },
            engine=engine,
        )
    }
    assert by_kw["maxItems"].message == "list has 25 items; the API allows at most 20"
    assert by_kw["maxLength"].message == "value is 300 characters long; the API allows at most 256"
    assert by_kw["minimum"].message == "value is -1; the API requires at least 0"
    assert by_kw["minimum"].value == -1
    assert "(https|s3)://([^/]+)/?(.*)" in by_kw["pattern"].message and "'gs://b'" in by_kw["pattern"].message
    assert "did you mean 'ml.m5.xlarge'" in by_kw["enum"].message
    assert "did you mean 'S3OutputPath'" in by_kw["additionalProperties"].message
    assert (
        str(by_kw["maxItems"])
        == "/DebugHookConfig/CollectionConfigurations: list has 25 items; the API allows at most 20"
    )


def test_schema_error_is_a_frozen_value():
    error = SchemaError("/a", "m", "type", value=[1])
    assert error == SchemaError("/a", "m", "type", value={"other": 1})  # value is not part of equality
    assert hash(error) == hash(SchemaError("/a", "m", "type"))
    with pytest.raises(AttributeError):
        error.path = "/b"


# --- pipeline placeholders and non-JSON values ---------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("placeholder", PLACEHOLDERS)
def test_pipeline_placeholders_are_skipped_not_errors(engine, placeholder):
    request = {
        "DebugHookConfig": {"S3OutputPath": placeholder, "HookParameters": {"save_interval": placeholder}},
        "DebugRuleConfigurations": [rule(VolumeSizeInGB=placeholder, InstanceType=placeholder)],
        "ProfilerConfig": {"DisableProfiler": placeholder, "ProfilingIntervalInMilliseconds": placeholder},
    }
    result = check_api(request, engine=engine)
    assert isinstance(result, ApiCheck) and result.ok and result.errors == ()
    assert [(p.path, p.expected) for p in result.skipped] == [
        ("/DebugHookConfig/HookParameters/save_interval", "string"),
        ("/DebugHookConfig/S3OutputPath", "string"),
        ("/DebugRuleConfigurations/0/InstanceType", "string"),
        ("/DebugRuleConfigurations/0/VolumeSizeInGB", "integer"),
        ("/ProfilerConfig/DisableProfiler", "boolean"),
        ("/ProfilerConfig/ProfilingIntervalInMilliseconds", "integer"),
    ]
    assert all(isinstance(p, PipelineValue) and "pipeline" in str(p) for p in result.skipped)
    assert validate_api(request, engine=engine) == []


@pytest.mark.parametrize("engine", ENGINES)
def test_real_pipeline_variable_objects_are_skipped(engine):
    os.environ.setdefault("SAGEMAKER_SUPPRESS_V2_WARNING", "1")
    from sagemaker.workflow.parameters import ParameterInteger, ParameterString

    request = {
        "TensorBoardOutputConfig": {"S3OutputPath": ParameterString(name="TbPath")},
        "DebugRuleConfigurations": [rule(VolumeSizeInGB=ParameterInteger(name="Size"))],
    }
    result = check_api(request, engine=engine)
    assert result.errors == ()
    assert [p.path for p in result.skipped] == [
        "/DebugRuleConfigurations/0/VolumeSizeInGB",
        "/TensorBoardOutputConfig/S3OutputPath",
    ]


@pytest.mark.parametrize("engine", ENGINES)
def test_placeholders_only_stand_in_for_scalars(engine):
    # a placeholder where a structure is expected is validated as that structure
    assert pairs({"DebugHookConfig": {"Get": "Parameters.Hook"}}, engine) == [
        ("/DebugHookConfig/Get", "additionalProperties"),
        ("/DebugHookConfig/S3OutputPath", "required"),
    ]
    # malformed expressions are ordinary type errors
    assert pairs({"TensorBoardOutputConfig": {"S3OutputPath": {"Get": 3}}}, engine) == [
        ("/TensorBoardOutputConfig/S3OutputPath", "type")
    ]
    assert pairs({"TensorBoardOutputConfig": {"S3OutputPath": {"Get": "a", "Std:Join": {}}}}, engine) == [
        ("/TensorBoardOutputConfig/S3OutputPath", "type")
    ]


class Opaque:
    def __repr__(self):
        raise RuntimeError("broken repr")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    "weird", [object(), Opaque(), 1 + 2j, Decimal("1.5"), {1, 2}, b"s3://b", float("nan"), float("inf"), None, True]
)
def test_non_json_values_are_type_errors(engine, weird):
    request = {
        "TensorBoardOutputConfig": {"S3OutputPath": weird},
        "DebugRuleConfigurations": [rule(VolumeSizeInGB=weird, InstanceType=weird)],
        "DebugHookConfig": {"S3OutputPath": S3, "HookParameters": {"k": weird}},
    }
    errors = validate_api(request, engine=engine)
    assert [(e.path, e.keyword) for e in errors] == [
        ("/DebugHookConfig/HookParameters/k", "type"),
        ("/DebugRuleConfigurations/0/InstanceType", "type"),
        ("/DebugRuleConfigurations/0/VolumeSizeInGB", "type"),
        ("/TensorBoardOutputConfig/S3OutputPath", "type"),
    ]
    assert all("0x" not in e.message for e in errors)  # no memory addresses: messages are deterministic


@pytest.mark.parametrize("engine", ENGINES)
def test_odd_containers(engine):
    # tuples are arrays (boto3 accepts them); non-string map keys are type errors on the key
    assert pairs({"DebugRuleConfigurations": (rule(),)}, engine) == []
    assert pairs(hook(HookParameters={1: "v", None: "w"}), engine) == [
        ("/DebugHookConfig/HookParameters/1", "type"),
        ("/DebugHookConfig/HookParameters/None", "type"),
    ]
    assert pairs([{"DebugHookConfig": 1}], engine) == [("", "type")]
    assert (
        pairs({"DebugRuleConfigurations": [rule(VolumeSizeInGB=5.0)]}, engine) == []
    )  # JSON Schema: 5.0 is an integer
    assert pairs({"DebugRuleConfigurations": [rule(VolumeSizeInGB=True)]}, engine) == [
        ("/DebugRuleConfigurations/0/VolumeSizeInGB", "type")
    ]
    assert str(validate_api("x", engine=engine)[0]).startswith("(request): value is a string")


def test_bad_operation_or_engine_is_a_config_error():
    with pytest.raises(ConfigError, match="operation.*CreateTrainingJob or UpdateTrainingJob"):
        validate_api({}, operation="DescribeTrainingJob")
    with pytest.raises(ConfigError, match="engine.*builtin"):
        validate_api({}, engine="jsonschema")


def _check_node(node, where, defs):
    """Fails on a schema node that uses what validation/api.py does not implement."""
    assert isinstance(node, dict), f"{where} is not a schema object"
    for key, item in node.items():
        if key.startswith("x-") or key in ("title", "description", "$comment"):
            continue
        assert key in apischema._VALIDATION_KEYWORDS, f"{where} uses {key!r}, which the interpreter does not implement"
        if key == "$ref":
            assert isinstance(item, str) and item.startswith("#/$defs/") and item[8:] in defs, (
                f"{where} refers to {item!r}, not in $defs"
            )
            assert not any(k in apischema._VALIDATION_KEYWORDS for k in node if k != "$ref"), (
                f"{where} has keywords beside $ref"
            )
        elif key == "type" or key == "enum":
            assert item in apischema._TYPES if key == "type" else node.get("type") == "string", (
                f"{where} has {key} {item!r}"
            )
        elif key == "properties":
            for name, sub in item.items():
                _check_node(sub, f"{where}/properties/{name}", defs)
        elif key in ("propertyNames", "items") or (key == "additionalProperties" and item is not False):
            _check_node(item, f"{where}/{key}", defs)


def test_the_schema_uses_only_keywords_the_interpreter_implements():
    with pytest.raises(AssertionError, match="oneOf"):
        _check_node({"oneOf": [{"type": "string"}]}, "$defs/X", {})
    with pytest.raises(AssertionError, match="not in \\$defs"):
        _check_node({"$ref": "#/$defs/Missing"}, "$defs/X", {})
    defs = apischema.api_schema()["$defs"]
    for name, node in defs.items():  # the shipped file passes
        _check_node(node, f"$defs/{name}", defs)


# --- (d) importing the module stays cheap -----------------------------------------------------------


def test_import_does_not_load_jsonschema():
    code = (
        "import sys, sm_debug_config.apischema as a\n"
        "assert 'jsonschema' not in sys.modules, 'import'\n"
        "errors = a.validate_api({'DebugHookConfig': {'S3OutputPath': 'gs://x'}})\n"
        "assert [e.keyword for e in errors] == ['pattern'], errors\n"
        "heavy = sorted(m for m in ('jsonschema', 'botocore', 'boto3', 'yaml', 'sagemaker') if m in sys.modules)\n"
        "assert not heavy, heavy\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr


# --- (e) valid requests pass --------------------------------------------------------------------------


def _rendered():
    import sm_debug_config as smd
    from sm_debug_config import rule_configs as rc

    rules = [
        smd.Rule.sagemaker(rc.vanishing_gradient()),
        smd.Rule.sagemaker(rc.loss_not_decreasing()),
        smd.Rule.sagemaker(rc.overfit()),
        smd.ProfilerRule.sagemaker(rc.ProfilerReport()),
        smd.ProfilerRule.sagemaker(rc.CPUBottleneck(threshold=70)),
    ]
    hook_config = smd.DebuggerHookConfig(
        hook_parameters={"save_interval": "100"},
        collection_configs=[
            smd.CollectionConfig("weights", {"save_interval": "50"}),
            smd.CollectionConfig("custom", {"include_regex": ".*relu_output"}),
        ],
    )
    profiler = smd.ProfilerConfig(system_monitor_interval_millis=500, framework_profile_params=smd.FrameworkProfile())
    with collecting():  # its findings are not what these tests check
        return smd.render(
            rules,
            hook_config,
            profiler,
            smd.TensorBoardOutputConfig("s3://bucket/tensorboard"),
            region="us-west-2",
            output_path="s3://bucket/output/",
            job_name="my-job-1",
        )


@pytest.mark.parametrize("engine", ENGINES)
def test_valid_requests_pass(engine):
    rendered = _rendered()
    assert sorted(rendered) == [
        "DebugHookConfig",
        "DebugRuleConfigurations",
        "ProfilerConfig",
        "ProfilerRuleConfigurations",
        "TensorBoardOutputConfig",
    ]
    assert validate_api({}, engine=engine) == []
    unrelated = {
        "TrainingJobName": "job",
        "RoleArn": "arn:aws:iam::123456789012:role/x",
        "ResourceConfig": {"InstanceCount": 1},
        "HyperParameters": {"a": 1},
    }
    assert validate_api(unrelated, engine=engine) == []
    result = check_api({**unrelated, **rendered}, engine=engine)
    assert result.errors == () and result.skipped == ()
    assert (
        validate_api({"ProfilerConfig": rendered["ProfilerConfig"]}, operation="UpdateTrainingJob", engine=engine) == []
    )
