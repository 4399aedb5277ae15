"""Each format's writer (``sm_debug_config.documents``): CloudFormation and Terraform output checked against
excerpts of the published schemas, the deployable formats (a Pipelines template, a Step Functions task).

``tests/data/iac/`` holds the excerpts (each names its source and version). What
``to_cloudformation`` emits is validated with jsonschema against the CloudFormation excerpt;
what ``to_terraform`` emits is parsed back from HCL and walked against the provider's block
schema (names, nesting as blocks, list vs single block, attribute types, required members),
for the project's examples and for random valid renders.
"""
from __future__ import annotations

import glob
import json
import os
import re
from typing import Any, Dict, List, Tuple

import pytest
from hypothesis import HealthCheck, given, settings

from sm_debug_config import ConfigError, Rule, TensorBoardOutputConfig, render, rule_configs
from sm_debug_config.configfile import load
from sm_debug_config.documents import cloudformation
from sm_debug_config.documents.cloudformation import to_cloudformation, to_cloudformation_pipeline
from sm_debug_config.documents.pipeline import to_pipeline_definition
from sm_debug_config.documents.shapes import SHAPES, Block
from sm_debug_config.documents.stepfunctions import to_step_functions_task
from sm_debug_config.documents.terraform import from_terraform, to_terraform, to_terraform_json
from sm_debug_config.findings import collecting
from tests.strategies import configurations
from tests.warnhelpers import config_warnings, example_warnings

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(TESTS, "data", "iac")
EXAMPLES = sorted(glob.glob(os.path.join(TESTS, "..", "examples", "*.yaml")))


def _json(name: str) -> Dict[str, Any]:
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return json.load(f)


CFN = _json("cloudformation-aws-sagemaker-trainingjob-debugger.json")
TF = _json("terraform-aws_sagemaker_training_job-debugger.json")


# --- a small HCL reader for what to_terraform writes: blocks, attributes, maps, scalars -------------

_TOKEN = re.compile(
    r'\s*(?:(?P<str>"(?:[^"\\]|\\.)*")|(?P<num>-?\d+)|(?P<word>[A-Za-z_][A-Za-z0-9_-]*)|(?P<sym>[={}]))'
)


def _tokens(text: str) -> List[Tuple[str, str]]:
    out, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise ValueError(f"unexpected HCL at {text[pos:pos + 20]!r}")
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
        pos = m.end()
    return out


def _string(token: str) -> str:
    # Template sequences are escaped by doubling; JSON escapes are HCL's.
    return json.loads(token.replace("$${", "${").replace("%%{", "%{"))


def _value(tokens: List[Tuple[str, str]], i: int) -> Tuple[Any, int]:
    kind, text = tokens[i]
    if kind == "str":
        return _string(text), i + 1
    if kind == "num":
        return int(text), i + 1
    if kind == "word" and text in ("true", "false"):
        return text == "true", i + 1
    if text == "{":  # object constructor: "key" = "value" ...
        out, i = {}, i + 1
        while tokens[i][1] != "}":
            key = _string(tokens[i][1])
            if tokens[i + 1][1] != "=":
                raise ValueError("expected = in map")
            out[key], i = _value(tokens, i + 2)
        return out, i + 1
    raise ValueError(f"unexpected token {text!r}")


def _body(tokens: List[Tuple[str, str]], i: int) -> Tuple[Dict[str, Any], int]:
    """A body in Terraform's JSON shape: attributes as values, each block name as a list of bodies."""
    out: Dict[str, Any] = {}
    while i < len(tokens) and tokens[i][1] != "}":
        kind, name = tokens[i]
        if kind != "word":
            raise ValueError(f"expected a name, got {name!r}")
        if tokens[i + 1][1] == "=":
            if name in out:
                raise ValueError(f"attribute {name} given twice")
            out[name], i = _value(tokens, i + 2)
        elif tokens[i + 1][1] == "{":
            inner, i = _body(tokens, i + 2)
            out.setdefault(name, []).append(inner)
            i += 1
        else:
            raise ValueError(f"expected = or {{ after {name}")
    return out, i


def parse_hcl(text: str) -> Dict[str, Any]:
    tokens = _tokens(text)
    body, end = _body(tokens, 0)
    if end != len(tokens):
        raise ValueError("unbalanced braces")
    return body


# --- conformance ----------------------------------------------------------------------------------


def _cfn_errors(properties: Dict[str, Any]) -> List[str]:
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft7Validator(CFN)
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(properties)]


def _tf_block(name: str) -> Dict[str, Any]:
    block = TF["block"]["block_types"][name]["block"]
    return TF["shared_blocks"][block["$ref"]] if "$ref" in block else block


_TF_TYPES = {
    "string": lambda x: isinstance(x, str),
    "number": lambda x: isinstance(x, int) and not isinstance(x, bool),
    "bool": lambda x: isinstance(x, bool),
}


def _tf_errors(body: Dict[str, Any], block: Dict[str, Any], where: str = "") -> List[str]:
    errors = []
    attributes, nested = block.get("attributes", {}), block.get("block_types", {})
    for name, value in body.items():
        path = f"{where}{name}"
        if name in attributes:
            spec = attributes[name]
            if spec["type"] == ["map", "string"]:
                if not (isinstance(value, dict) and all(isinstance(v, str) for v in value.values())):
                    errors.append(f"{path}: not a map of strings")
                elif len(value) > spec.get("max_entries", len(value)):
                    errors.append(f"{path}: more than {spec['max_entries']} entries")
            elif not _TF_TYPES[spec["type"]](value):
                errors.append(f"{path}: not a {spec['type']}")
            elif "one_of" in spec and value not in spec["one_of"]:
                errors.append(f"{path}: {value} not one of {spec['one_of']}")
        elif name in nested:
            spec = nested[name]
            if not (isinstance(value, list) and all(isinstance(v, dict) for v in value)):
                errors.append(f"{path}: not written as blocks")
                continue
            if len(value) > spec["max_items"]:
                errors.append(f"{path}: {len(value)} blocks, at most {spec['max_items']}")
            inner = TF["shared_blocks"][spec["block"]["$ref"]] if "$ref" in spec["block"] else spec["block"]
            for index, item in enumerate(value):
                errors += _tf_errors(item, inner, f"{path}[{index}].")
        else:
            errors.append(f"{path}: not in the provider's schema")
    for name, spec in attributes.items():
        if spec.get("required") and name not in body:
            errors.append(f"{where}{name}: required by the provider, missing")
    return errors


def _tf_resource_errors(body: Dict[str, Any]) -> List[str]:
    return _tf_errors(body, TF["block"])


def _check_both(fields: Dict[str, Any]) -> None:
    properties = to_cloudformation(fields)
    assert properties == fields
    assert _cfn_errors(properties) == []
    as_json = to_terraform_json(fields)
    assert _tf_resource_errors(as_json) == []
    assert parse_hcl(to_terraform(fields)) == as_json
    assert from_terraform(as_json) == _without_empty_lists(fields)  # the same table read back


def _without_empty_lists(value: Any) -> Any:
    """``value`` without the empty lists of blocks, which Terraform writes as no block at all."""
    if isinstance(value, dict):
        return {k: _without_empty_lists(v) for k, v in value.items() if v != []}
    if isinstance(value, list):
        return [_without_empty_lists(v) for v in value]
    return value


@pytest.mark.parametrize("path", EXAMPLES, ids=[os.path.basename(p) for p in EXAMPLES])
def test_examples_conform_to_both_schemas(path):
    with config_warnings(*example_warnings(path)):
        fields = load(path).render()
    _check_both(fields)
    # every Debugger field render() returned is in the output; nothing dropped
    assert sorted(to_terraform_json(fields)) == sorted(SHAPES[name][0] for name, value in fields.items() if value != [])


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large], deadline=None)
@given(config=configurations())
def test_random_valid_renders_conform_to_both_schemas(config):
    with collecting():  # a random configuration's findings are not the point here
        fields = render(**config)
    _check_both(fields)


def _members(block: Block) -> Dict[str, Any]:
    return {tf: (kind if not isinstance(kind, Block) else _members(kind)) for tf, kind in block.members.values()}


def _schema_members(block: Dict[str, Any]) -> Dict[str, Any]:
    out: Dict[str, Any] = {name: "attr" for name in block.get("attributes", {})}
    for name, spec in block.get("block_types", {}).items():
        inner = TF["shared_blocks"][spec["block"]["$ref"]] if "$ref" in spec["block"] else spec["block"]
        out[name] = _schema_members(inner)
    return out


def _names(tree: Dict[str, Any]) -> Dict[str, Any]:
    return {k: (_names(v) if isinstance(v, dict) else "attr") for k, v in tree.items()}


def test_the_table_covers_exactly_the_schemas_members():
    """Every Debugger member of each schema is one the converter knows, and no more."""
    assert {tf for tf, _ in SHAPES.values()} == set(TF["block"]["block_types"])
    for tf, block in SHAPES.values():
        assert _names(_members(block)) == _schema_members(_tf_block(tf)), tf
        spec = TF["block"]["block_types"][tf]
        assert spec["nesting_mode"] == "list" and spec["max_items"] == block.max_items, tf
    assert set(SHAPES) == set(CFN["properties"])

    def cfn_names(schema: Dict[str, Any]) -> Dict[str, Any]:
        while "$ref" in schema:
            schema = CFN["definitions"][schema["$ref"].rsplit("/", 1)[1]]
        if schema.get("type") == "array":
            return cfn_names(schema["items"])
        if schema.get("type") == "object" and "properties" in schema:
            return {k: cfn_names(v) for k, v in schema["properties"].items()}
        return "attr"

    def api_names(block: Block) -> Dict[str, Any]:
        return {
            name: (api_names(kind) if isinstance(kind, Block) else "attr") for name, (_, kind) in block.members.items()
        }

    for api, (_, block) in SHAPES.items():
        assert api_names(block) == cfn_names(CFN["properties"][api]), api


def test_terraform_required_members_match_the_table():
    for tf, block in SHAPES.values():
        schema = _tf_block(tf)
        required = {name for name, spec in schema.get("attributes", {}).items() if spec.get("required")}
        assert required == {block.members[name][0] for name in block.required}, tf


class _Parameter:
    """Shaped like a SageMaker Pipelines ParameterString: ``expr`` and ``to_string()``."""

    def __init__(self, name: str) -> None:
        self.name = name

    @property
    def expr(self) -> Dict[str, str]:
        return {"Get": f"Parameters.{self.name}"}

    def to_string(self) -> "_Parameter":
        return self


@pytest.mark.parametrize("convert", [to_cloudformation, to_terraform, to_terraform_json])
def test_pipeline_variables_are_refused_naming_the_field(convert):
    with config_warnings("SMD001"):  # the pipeline variable is checked when the pipeline runs
        fields = render(
            [Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"threshold": _Parameter("Threshold")})],
            region="us-east-1",
            output_path="s3://bucket/out/",
        )
    with pytest.raises(ConfigError) as err:
        convert(fields)
    assert err.value.field == "DebugRuleConfigurations[0].RuleParameters.threshold"
    assert "Parameters.Threshold" in str(err.value)
    # the expression form (what a pipeline definition holds) is refused the same way
    with pytest.raises(ConfigError) as err:
        convert({"TensorBoardOutputConfig": {"S3OutputPath": {"Get": "Parameters.Out"}}})
    assert err.value.field == "TensorBoardOutputConfig.S3OutputPath"
    # a map whose one key happens to be "Get" is a map, not an expression
    assert convert({"DebugHookConfig": {"S3OutputPath": "s3://b/", "HookParameters": {"Get": "x"}}})


@pytest.mark.parametrize("convert", [to_cloudformation, to_terraform])
@pytest.mark.parametrize(
    "fields, field",
    [
        ({"OutputDataConfig": {"S3OutputPath": "s3://b/"}}, "OutputDataConfig"),
        ({"DebugHookConfig": {"S3OutputPath": "s3://b/", "Unknown": 1}}, "DebugHookConfig.Unknown"),
        ({"DebugHookConfig": {"LocalPath": "/x"}}, "DebugHookConfig.S3OutputPath"),
        (
            {"ProfilerConfig": {"ProfilingIntervalInMilliseconds": "500"}},
            "ProfilerConfig.ProfilingIntervalInMilliseconds",
        ),
        ({"ProfilerConfig": {"DisableProfiler": "false"}}, "ProfilerConfig.DisableProfiler"),
        ({"DebugRuleConfigurations": {"RuleConfigurationName": "x"}}, "DebugRuleConfigurations"),
        (
            {
                "DebugRuleConfigurations": [
                    {"RuleConfigurationName": "x", "RuleEvaluatorImage": "i", "RuleParameters": {"a": 1}}
                ]
            },
            "DebugRuleConfigurations[0].RuleParameters.a",
        ),
    ],
)
def test_what_cannot_be_written_is_refused_never_dropped(convert, fields, field):
    with pytest.raises(ConfigError) as err:
        convert(fields)
    assert err.value.field == field


def test_hcl_strings_survive_quotes_backslashes_and_template_sequences():
    tricky = 's3://b/${not_interpolated}/%{nor_this}/"q"\\back\nline'
    fields = {"DebugHookConfig": {"S3OutputPath": "s3://b/", "HookParameters": {"a.b": tricky, 'k"ey': "v"}}}
    text = to_terraform(fields)
    assert "$${not_interpolated}" in text and "%%{nor_this}" in text
    assert parse_hcl(text) == to_terraform_json(fields)


def test_terraform_output_reads_as_the_provider_documents_it():
    fields = render([Rule.sagemaker(rule_configs.vanishing_gradient())],
                    tensorboard_output_config=TensorBoardOutputConfig("s3://b/tb/", "/logs/tb"),
                    region="eu-west-1", output_path="s3://b/out/", disable_profiler=True)
    text = to_terraform(fields, indent=0)
    assert (
        "tensor_board_output_config {\n  local_path     = \"/logs/tb\"\n  s3_output_path = \"s3://b/tb/\"\n}" in text
        or "tensor_board_output_config {\n  s3_output_path = \"s3://b/tb/\"\n  local_path     = \"/logs/tb\"\n}" in text
    )
    assert "debug_rule_configurations {" in text and "rule_evaluator_image" in text
    # the blocks go into a resource's body beside its other arguments, as the provider documents it
    parsed = parse_hcl('training_job_name = "x"\n\n' + to_terraform(fields))
    assert parsed.pop("training_job_name") == "x"
    assert parsed == to_terraform_json(fields)


def test_empty_rule_lists_write_no_blocks_and_empty_blocks_stay():
    assert to_terraform_json({"DebugRuleConfigurations": [], "ProfilerConfig": {}}) == {"profiler_config": [{}]}
    assert parse_hcl(to_terraform({"ProfilerConfig": {}})) == {"profiler_config": [{}]}
    assert to_terraform({}) == ""


def test_from_terraform_reads_plan_output_and_single_blocks():
    plan_values = {"debug_hook_config": [{"s3_output_path": "s3://b/d", "local_path": None, "hook_parameters": None,
                                          "collection_configurations": []}],
                   "profiler_config": [], "role_arn": "arn:aws:iam::123456789012:role/R"}
    paths: Dict[Tuple[Any, ...], Tuple[Any, ...]] = {}
    assert from_terraform(plan_values, paths=paths) == {"DebugHookConfig": {"S3OutputPath": "s3://b/d"}}
    assert paths[("DebugHookConfig", "S3OutputPath")] == ("debug_hook_config", 0, "s3_output_path")
    single = {"debug_rule_configurations": {"rule_configuration_name": "R", "rule_evaluator_image": "i"}}
    rules = [{"RuleConfigurationName": "R", "RuleEvaluatorImage": "i"}]
    assert from_terraform(single) == {"DebugRuleConfigurations": rules}


# --- deployable formats: CloudFormation's registry (cfn-lint's schemas), the SDK's pipeline definition ------------


def _example_fields() -> Dict[str, Any]:
    return load(EXAMPLES[0]).render(output_path="s3://bucket/out/") if EXAMPLES else render(
        [Rule.sagemaker(rule_configs.vanishing_gradient())], region="us-east-1", output_path="s3://bucket/out/")


def _provider_types() -> Dict[str, set]:
    """Each region file of cfn-lint's provider schemas: the resource types CloudFormation can create there."""
    cfnlint = pytest.importorskip("cfnlint", reason="cfn-lint is in the test extra; without it the registry is unknown")
    providers = os.path.join(os.path.dirname(cfnlint.__file__), "data", "schemas", "providers")
    out = {}
    for name in sorted(os.listdir(providers)):
        if name.endswith(".json") and name != "sam.json":
            with open(os.path.join(providers, name), encoding="utf-8") as f:
                out[name[:-5]] = set(json.load(f))
    return out


def _training_job_template(fields: Dict[str, Any]) -> str:
    return json.dumps({"AWSTemplateFormatVersion": "2010-09-09",
                       "Resources": {"Job": {"Type": cloudformation.TRAINING_JOB, "Properties": fields}}})


def test_cfn_lint_has_no_schema_for_the_training_job_type_yet():
    """LINT_NOTE, printed by ``render --format cloudformation``, rests on this. The CloudFormation template reference
    documents AWS::SageMaker::TrainingJob; when cfn-lint's schemas gain it, this fails and says what to do."""
    regions = _provider_types()
    assert len(regions) > 20 and all(cloudformation.PIPELINE in types for types in regions.values())
    knowing = [region for region, types in regions.items() if cloudformation.TRAINING_JOB in types]
    if knowing:
        pytest.fail(f"cfn-lint's schemas now have {cloudformation.TRAINING_JOB} ({len(knowing)} regions, "
                    f"{knowing[0]}...): lint to_cloudformation()'s properties with it, as "
                    "test_the_training_job_properties_pass_cfn_lint_but_for_the_type does, and reword "
                    "documents.cloudformation.LINT_NOTE")


def test_the_training_job_properties_pass_cfn_lint_but_for_the_type():
    """cfn-lint's one objection to the properties is the type it has no schema for (rule E3006, unknown type):
    once it has one, its other rules check them too, and this test says whether they pass."""
    lint = pytest.importorskip("cfnlint.api", reason="cfn-lint is in the test extra")
    template = _training_job_template(to_cloudformation(_example_fields()))
    matches = lint.lint(template, config=lint.ManualArgs(regions=["us-east-1"]))
    assert [m.rule.id for m in matches if m.rule.id != "E3006"] == []


def test_cloudformation_notes_that_cfn_lint_may_not_know_the_type(cli):
    result = cli("render", EXAMPLES[0], "--output-path", "s3://b/o/", "--format", "cloudformation")
    assert result.returncode == 0 and result.stderr.count("\n") == 1
    assert cloudformation.TRAINING_JOB in result.stderr and "cfn-lint" in result.stderr
    assert "cannot" not in result.stderr  # the stale claim: CloudFormation creates the type
    assert json.loads(result.stdout) == to_cloudformation(load(EXAMPLES[0]).render(output_path="s3://b/o/"))


def test_the_pipeline_template_passes_cfn_lint_and_reads_back(cli):
    lint = pytest.importorskip("cfnlint.api", reason="cfn-lint is in the test extra")
    result = cli("render", EXAMPLES[0], "--output-path", "s3://b/o/", "--format", "cloudformation-pipeline")
    assert result.returncode == 0 and result.stderr == ""
    matches = lint.lint(result.stdout, config=lint.ManualArgs(regions=["us-east-1", "eu-west-1"]))
    assert [(m.rule.id, m.linenumber, m.message) for m in matches] == []
    from sm_debug_config.documents import requests

    (found,) = requests(json.loads(result.stdout))
    fields = load(EXAMPLES[0]).render(output_path="s3://b/o/")
    assert {k: v for k, v in found.request.items() if k in fields} == fields


def test_fn_sub_escapes_what_would_be_a_substitution():
    template = to_cloudformation_pipeline({"TensorBoardOutputConfig": {"S3OutputPath": "s3://b/${x}/"}})
    properties = template["Resources"]["DebuggerTrainingPipeline"]["Properties"]
    body = properties["PipelineDefinition"]["PipelineDefinitionBody"]
    assert "s3://b/${!x}/" in body["Fn::Sub"] and "${RoleArn}" in body["Fn::Sub"]


def test_the_step_functions_task_reads_back():
    from sm_debug_config.documents import requests

    fields = _example_fields()
    machine = {"StartAt": "Train", "States": {"Train": to_step_functions_task(fields)}}
    (found,) = requests(machine)
    assert {k: v for k, v in found.request.items() if k in fields} == fields
    assert found.request["RoleArn"] == {"States.$": "$.RoleArn"}


def _sdk_definition() -> Dict[str, Any]:
    """What SageMaker Python SDK v2 writes for a TrainingStep of an Estimator with a Debugger rule, offline."""
    pytest.importorskip("sagemaker.workflow.pipeline", reason="the SDK v2 (the sagemaker extra)")
    moto = pytest.importorskip("moto")
    import boto3
    from sagemaker.debugger import Rule as SdkRule, rule_configs as sdk_rule_configs
    from sagemaker.estimator import Estimator
    from sagemaker.inputs import TrainingInput
    from sagemaker.workflow.parameters import ParameterString
    from sagemaker.workflow.pipeline import Pipeline
    from sagemaker.workflow.pipeline_context import PipelineSession
    from sagemaker.workflow.steps import TrainingStep

    with moto.mock_aws():
        session = PipelineSession(boto_session=boto3.Session(region_name="us-east-1", aws_access_key_id="t",
                                                             aws_secret_access_key="t"), default_bucket="my-bucket-1")
        instance = ParameterString("TrainingInstanceType", default_value="ml.m5.xlarge")
        estimator = Estimator(image_uri="123456789012.dkr.ecr.us-east-1.amazonaws.com/train:1",
                              role="arn:aws:iam::123456789012:role/R", instance_count=1, instance_type=instance,
                              sagemaker_session=session, output_path="s3://my-bucket-1/out",
                              rules=[SdkRule.sagemaker(sdk_rule_configs.vanishing_gradient())])
        step = TrainingStep(name="Train", step_args=estimator.fit({"train": TrainingInput("s3://my-bucket-1/train/")}))
        pipeline = Pipeline(name="p", parameters=[instance], steps=[step], sagemaker_session=session)
        return json.loads(pipeline.definition())


def test_the_pipeline_definition_has_the_sdks_shape():
    sdk = _sdk_definition()
    ours = to_pipeline_definition(_example_fields(), role_arn="arn:aws:iam::123456789012:role/R",
                                  output_path="s3://b/out",
                                  training_image="123456789012.dkr.ecr.us-east-1.amazonaws.com/train:1")
    assert sorted(ours) == sorted(sdk)
    assert ours["Version"] == sdk["Version"] and ours["PipelineExperimentConfig"] == sdk["PipelineExperimentConfig"]
    assert ours["Parameters"] == sdk["Parameters"]
    (step,), (sdk_step,) = ours["Steps"], sdk["Steps"]
    assert sorted(step) == sorted(sdk_step) and step["Type"] == sdk_step["Type"]
    arguments, sdk_arguments = step["Arguments"], sdk_step["Arguments"]
    assert set(arguments) - {"TensorBoardOutputConfig", "ProfilerRuleConfigurations"} <= set(sdk_arguments)
    for name in ("AlgorithmSpecification", "ResourceConfig", "StoppingCondition"):
        assert sorted(arguments[name]) == sorted(sdk_arguments[name])
    assert arguments["ResourceConfig"]["InstanceType"] == sdk_arguments["ResourceConfig"]["InstanceType"]
    from sm_debug_config.documents.pipeline import training_steps

    assert [path for path, _ in training_steps(json.dumps(ours))] == [path for path, _ in training_steps(sdk)]
