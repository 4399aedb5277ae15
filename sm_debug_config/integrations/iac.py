"""Debugger fields as infrastructure as code: CloudFormation properties and Terraform blocks.

Neither ``AWS::SageMaker::TrainingJob`` nor Terraform's ``aws_sagemaker_training_job`` resolves
built-in rule images or merges collections as ``render()`` does; these functions put its fields
in each tool's shape. One table (:data:`SHAPES`, read from ``data/api_schema.json``) names every member
as the API and CloudFormation (PascalCase, same nesting) and Terraform (snake_case, nested blocks) do,
with its kind. An
unknown member, a value of the wrong kind or a SageMaker Pipelines variable (which a template
cannot evaluate) raises :class:`~sm_debug_config.ConfigError` naming the field: nothing is dropped
silently. The table is checked against the published schemas (excerpts with their sources in
``tests/data/iac/``); ``tests/integrations/test_iac.py`` fails when the output stops conforming.
"""
from __future__ import annotations

import json
import re
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Tuple, Union

from sm_debug_config import datafiles
from sm_debug_config.errors import ConfigError, format_path, shorten

__all__ = [
    "NOT_PROVISIONABLE", "SHAPES", "from_terraform", "is_pipeline_value", "terraform_resource",
    "to_cloudformation", "to_cloudformation_pipeline", "to_pipeline_definition", "to_step_functions_task",
    "to_terraform", "to_terraform_json",
]


class Block(NamedTuple):
    """A nested structure: a CloudFormation object (a list when ``max_items > 1``), a Terraform nested block."""

    max_items: int
    members: Mapping[str, Tuple[str, "Kind"]]
    required: Tuple[str, ...] = ()


Kind = Union[str, Block]  # "string" | "integer" | "boolean" | "map" | Block

_DEFS = datafiles.load("api_schema")["$defs"]


def _member(name: str, ref: str) -> Tuple[str, Kind]:
    """An API member's ``(Terraform name, kind)``: its snake_case, its shape's kind in ``data/api_schema.json``."""
    shape = _DEFS[ref.rsplit("/", 1)[-1]]
    max_items = shape.get("maxItems", 1)
    if shape["type"] == "array":
        shape = _DEFS[shape["items"]["$ref"].rsplit("/", 1)[-1]]
    kind: Kind = "map" if shape["type"] == "object" else shape["type"]
    if "properties" in shape:
        members = {key: _member(key, spec["$ref"]) for key, spec in shape["properties"].items()}
        kind = Block(max_items, members, tuple(shape.get("required", ())))
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower(), kind


_FIELDS = _DEFS["CreateTrainingJobDebuggerFields"]["properties"]
#: API member -> (Terraform name, kind), for the five Debugger fields of ``CreateTrainingJob`` (each a Block).
SHAPES: Dict[str, Tuple[str, Block]] = {
    name: _member(name, spec["$ref"]) for name, spec in _FIELDS.items()  # type: ignore[misc]
}


def is_pipeline_value(value: Any) -> bool:
    """True for a SageMaker Pipelines variable or its JSON expression (``{"Get": "Parameters.X"}``...)."""
    from sm_debug_config.validation.api import is_pipeline_expression

    return is_pipeline_expression(value)


def _fail(target: str, path: Tuple[Union[str, int], ...], problem: str, allowed: str) -> ConfigError:
    return ConfigError(
        f"{format_path(path)}: {problem}, which {target} cannot take", field=format_path(path), allowed=allowed
    )


_SCALARS = {
    "string": (lambda x: isinstance(x, str), "a string"),
    # the API's integers and longs are 64-bit: a bigger one is refused by the service (and by json's str())
    "integer": (lambda x: isinstance(x, int) and not isinstance(x, bool) and -(2**63) <= x < 2**63, "a 64-bit integer"),
    "boolean": (lambda x: isinstance(x, bool), "true or false"),
}


def _check(value: Any, kind: Kind, path: Tuple[Union[str, int], ...], target: str) -> None:
    """Raise ConfigError unless ``value`` has ``kind``; every member of a block is checked."""
    # A map of strings may itself be {"Get": "..."}; only values where a map is not expected
    # are read as pipeline expressions.
    if is_pipeline_value(value) and not (kind == "map" and isinstance(value, dict)):
        raise _fail(
            target,
            path,
            f"a SageMaker Pipelines variable ({_describe(value)}) is evaluated only when a pipeline runs",
            "a literal value",
        )
    if isinstance(kind, Block):
        _check_block(value, kind, path, target)
    elif kind == "map":
        if not isinstance(value, dict):
            raise _fail(target, path, f"expected a map of strings, got {type(value).__name__}", "a map of strings")
        for key, item in value.items():
            if not isinstance(key, str):
                raise _fail(target, path + (key,), "map keys must be strings", "a string key")
            _check(item, "string", path + (key,), target)
    else:
        test, wanted = _SCALARS[kind]
        if not test(value):
            raise _fail(target, path, f"expected {wanted}, got {type(value).__name__} {shorten(value)}", wanted)


def _check_block(value: Any, block: Block, path: Tuple[Union[str, int], ...], target: str) -> None:
    items = value if block.max_items > 1 else [value]
    if block.max_items > 1 and not isinstance(value, list):
        raise _fail(target, path, f"expected a list, got {type(value).__name__}", "a list")
    if len(items) > block.max_items:
        raise _fail(target, path, f"{len(items)} entries, more than {block.max_items}", f"at most {block.max_items}")
    for index, item in enumerate(items):
        where = path + (index,) if block.max_items > 1 else path
        if not isinstance(item, dict):
            raise _fail(target, where, f"expected an object, got {type(item).__name__}", "an object")
        for name in block.required:
            if name not in item:
                raise _fail(target, where + (name,), "missing", "a value")
        for name, member in item.items():
            if name not in block.members:
                raise _fail(target, where + (name,), "not a member this converter knows", ", ".join(block.members))
            _check(member, block.members[name][1], where + (name,), target)


def _describe(value: Any) -> str:
    if isinstance(value, dict):
        return json.dumps(value)
    expr = getattr(value, "expr", None)
    return f"{type(value).__name__} {json.dumps(expr, default=str)}" if expr is not None else type(value).__name__


def _checked(fields: Mapping[str, Any], target: str) -> None:
    if not isinstance(fields, Mapping):
        raise ConfigError(
            f"expected the dict of Debugger fields that render() returns, got {type(fields).__name__}", field="fields"
        )
    from sm_debug_config.limits import check_depth

    check_depth(fields, field="fields")
    for name, value in fields.items():
        if name not in SHAPES:
            label = name if isinstance(name, str) else shorten(name)
            raise ConfigError(
                f"{label}: not a Debugger field; {target} output covers only the Debugger fields that render() returns",
                path=(name,), allowed=", ".join(SHAPES),
            )
        _check(value, SHAPES[name][1], (name,), target)
    from sm_debug_config.validation.api import validate_api

    # what json/HCL would choke on, and the service refuses
    limits = ("type", "maxLength", "maxItems", "maxProperties", "maximum", "minimum")
    broken = [e for e in validate_api(dict(fields)) if e.keyword in limits]
    if broken:
        raise ConfigError(broken[0].message, field=broken[0].path, findings=broken)


def to_cloudformation(fields: Mapping[str, Any]) -> Dict[str, Any]:
    """The ``Properties`` of an ``AWS::SageMaker::TrainingJob`` resource for ``fields``: a checked deep copy.

    >>> from sm_debug_config import Rule, render, rule_configs
    >>> fields = render([Rule.sagemaker(rule_configs.vanishing_gradient())],
    ...                 region="us-east-1", output_path="s3://bucket/out/")
    >>> to_cloudformation(fields)["DebugRuleConfigurations"][0]["RuleConfigurationName"]
    'VanishingGradient'
    """
    _checked(fields, "a CloudFormation template")
    return json.loads(json.dumps(dict(fields)))


def _terraform_value(value: Any, kind: Kind) -> Any:
    if not isinstance(kind, Block):
        return dict(value) if kind == "map" else value
    items = value if kind.max_items > 1 else [value]
    return [
        {
            kind.members[name][0]: _terraform_value(member, kind.members[name][1])
            for name, member in item.items()
            if not _no_blocks(member, kind.members[name][1])
        }
        for item in items
    ]


def _no_blocks(value: Any, kind: Kind) -> bool:
    """An empty list of blocks: in Terraform that is writing none of them."""
    return isinstance(kind, Block) and value == []


def to_terraform_json(fields: Mapping[str, Any]) -> Dict[str, Any]:
    """The Debugger arguments of ``aws_sagemaker_training_job`` in Terraform's JSON syntax (blocks as lists).

    >>> to_terraform_json({"TensorBoardOutputConfig": {"S3OutputPath": "s3://b/tb/"}})
    {'tensor_board_output_config': [{'s3_output_path': 's3://b/tb/'}]}
    """
    _checked(fields, "a Terraform configuration")
    return {
        SHAPES[name][0]: _terraform_value(value, SHAPES[name][1])
        for name, value in fields.items()
        if not _no_blocks(value, SHAPES[name][1])
    }


def _reverse(members: Mapping[str, Tuple[str, Kind]]) -> Dict[str, Tuple[str, Kind]]:
    """Terraform name -> (API name, kind) of ``members``: the same table read the other way."""
    return {terraform_name: (api_name, kind) for api_name, (terraform_name, kind) in members.items()}


_FROM_TERRAFORM = _reverse(SHAPES)


def _api_value(value: Any, kind: Kind, path: Tuple[Any, ...], paths: Dict[Tuple[Any, ...], Tuple[Any, ...]],
               where: Tuple[Any, ...]) -> Any:
    if not isinstance(kind, Block):
        return dict(value) if kind == "map" and isinstance(value, dict) else value
    items = value if isinstance(value, list) else [value]  # plan output writes lists, a .tf.json may write one object
    listed = isinstance(value, list)
    members = _reverse(kind.members)
    out = []
    for index, item in enumerate(items):
        here = path + (index,) if kind.max_items > 1 else path
        there = where + (index,) if listed else where
        paths[here] = there
        if not isinstance(item, dict):
            out.append(item)
            continue
        out.append(_api_object(item, members, here, paths, there))
    return out if kind.max_items > 1 else (out[0] if out else None)


def _api_object(values: Mapping[str, Any], members: Mapping[str, Tuple[str, Kind]], path: Tuple[Any, ...],
                paths: Dict[Tuple[Any, ...], Tuple[Any, ...]], where: Tuple[Any, ...]) -> Dict[str, Any]:
    if not isinstance(values, Mapping):
        problem = f"expected an object of Terraform arguments, got {type(values).__name__}"
        raise ConfigError(problem, path=where) if where else ConfigError(problem, field="values")
    fields = {}
    for name, value in values.items():
        if name not in members or value is None or (isinstance(members[name][1], Block) and value == []):
            continue  # another argument of the resource; an attribute not set (null); no block
        api_name, kind = members[name]
        paths[path + (api_name,)] = where + (name,)
        fields[api_name] = _api_value(value, kind, path + (api_name,), paths, where + (name,))
    return fields


def from_terraform(
    values: Mapping[str, Any], *, paths: Optional[Dict[Tuple[Any, ...], Tuple[Any, ...]]] = None
) -> Dict[str, Any]:
    """The Debugger fields of an ``aws_sagemaker_training_job``'s arguments: :func:`to_terraform_json` read back.

    Blocks may be lists (plan output, ``.tf.json``) or single objects (``.tf.json``); empty blocks and null
    attributes (plan output writes every attribute) are left out, other arguments of the resource ignored.
    ``paths``, when given, is filled with each field's path to the path of the Terraform value it came from.

    >>> from_terraform({"tensor_board_output_config": [{"s3_output_path": "s3://b/tb/", "local_path": None}],
    ...                 "role_arn": "arn:aws:iam::123456789012:role/R"})
    {'TensorBoardOutputConfig': {'S3OutputPath': 's3://b/tb/'}}
    """
    return _api_object(values, _FROM_TERRAFORM, (), {} if paths is None else paths, ())


def _hcl_string(text: str) -> str:
    # JSON string escapes are HCL's; "${" and "%{" would start a template, so they are doubled.
    return json.dumps(text, ensure_ascii=False).replace("${", "$${").replace("%{", "%%{")


def _hcl_scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return _hcl_string(value)


def _hcl_body(body: Mapping[str, Any], indent: str) -> List[str]:
    """Lines of a block body: attributes (``=`` aligned as ``terraform fmt`` does), maps, blocks."""
    scalars = [(k, v) for k, v in body.items() if not isinstance(v, (dict, list))]
    maps = [(k, v) for k, v in body.items() if isinstance(v, dict)]
    blocks = [(k, v) for k, v in body.items() if isinstance(v, list)]
    width = max((len(k) for k, _ in scalars), default=0)
    lines = [f"{indent}{k.ljust(width)} = {_hcl_scalar(v)}" for k, v in scalars]
    for name, mapping in maps:
        if not mapping:
            lines.append(f"{indent}{name} = {{}}")
            continue
        keys = {key: _hcl_string(key) for key in mapping}
        key_width = max(len(quoted) for quoted in keys.values())
        lines.append(f"{indent}{name} = {{")
        lines += [f"{indent}  {keys[key].ljust(key_width)} = {_hcl_string(item)}" for key, item in mapping.items()]
        lines.append(f"{indent}}}")
    for name, items in blocks:
        for item in items:
            if lines:
                lines.append("")
            inner = _hcl_body(item, indent + "  ")
            lines += [f"{indent}{name} {{"] + inner + [f"{indent}}}"] if inner else [f"{indent}{name} {{}}"]
    return lines


def to_terraform(fields: Mapping[str, Any], *, indent: int = 2) -> str:
    """HCL blocks for the Debugger arguments of an ``aws_sagemaker_training_job`` resource's body.

    >>> print(to_terraform({"TensorBoardOutputConfig": {"S3OutputPath": "s3://b/tb/"}}, indent=0))
    tensor_board_output_config {
      s3_output_path = "s3://b/tb/"
    }
    <BLANKLINE>
    """
    if not isinstance(indent, int) or isinstance(indent, bool) or not 0 <= indent <= 32:
        raise ConfigError(f"got {shorten(indent)}", field="indent", allowed="0 to 32 spaces")
    lines = _hcl_body(to_terraform_json(fields), " " * indent)
    return "\n".join(line.rstrip() for line in lines) + "\n" if lines else ""


def terraform_resource(fields: Mapping[str, Any], name: str = "this", *, extra: Optional[str] = None) -> str:
    """A whole ``resource "aws_sagemaker_training_job" "<name>"``: the ``extra`` HCL (role, algorithm...)
    first, then the Debugger blocks."""
    for field, value in (("name", name), ("extra", "" if extra is None else extra)):
        if not isinstance(value, str):
            raise ConfigError(f"expected a string, got {type(value).__name__}", field=field)
    body = (
        ("\n".join("  " + line if line else line for line in extra.strip("\n").splitlines()) + "\n\n") if extra else ""
    )
    return f'resource "aws_sagemaker_training_job" {_hcl_string(name)} {{\n{body}{to_terraform(fields)}}}\n'


# --- deployable formats: a SageMaker Pipeline (in a CloudFormation template) and a Step Functions task ------

#: What ``render --format cloudformation`` is told: CloudFormation cannot create the type its properties are for.
NOT_PROVISIONABLE = (
    "AWS::SageMaker::TrainingJob is not a type CloudFormation can create (it is in none of the registry schemas "
    "that cfn-lint ships, in any region): these properties cannot be deployed as they are; "
    "--format cloudformation-pipeline writes an AWS::SageMaker::Pipeline template that can"
)
#: The version the SageMaker Python SDK writes in a pipeline definition.
PIPELINE_VERSION = "2020-12-01"
#: The training step's settings that are not Debugger fields: a pipeline parameter, or the template's.
INSTANCE_PARAMETER = "TrainingInstanceType"


def _sub_escaped(value: Any) -> Any:
    """``value`` with each ``${`` written ``${!``: a literal in ``Fn::Sub``, not a substitution."""
    if isinstance(value, dict):
        return {key: _sub_escaped(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_sub_escaped(item) for item in value]
    return value.replace("${", "${!") if isinstance(value, str) else value


def to_pipeline_definition(
    fields: Mapping[str, Any], *, role_arn: str, training_image: str, output_path: str,
    instance_type: str = "ml.m5.xlarge", step_name: str = "Train",
) -> Dict[str, Any]:
    """A SageMaker Pipelines definition with one Training step carrying ``fields``, in the shape the SageMaker
    Python SDK's ``Pipeline.definition()`` writes (the instance type a pipeline parameter).

    >>> definition = to_pipeline_definition({"TensorBoardOutputConfig": {"S3OutputPath": "s3://b/tb/"}},
    ...     role_arn="arn:aws:iam::123456789012:role/R", training_image="img", output_path="s3://b/out/")
    >>> definition["Steps"][0]["Type"], definition["Steps"][0]["Arguments"]["TensorBoardOutputConfig"]
    ('Training', {'S3OutputPath': 's3://b/tb/'})
    """
    _checked(fields, "a SageMaker Pipelines definition")
    arguments = {
        "AlgorithmSpecification": {"TrainingImage": training_image, "TrainingInputMode": "File"},
        "OutputDataConfig": {"S3OutputPath": output_path},
        "StoppingCondition": {"MaxRuntimeInSeconds": 86400},
        "ResourceConfig": {
            "VolumeSizeInGB": 30, "InstanceCount": 1, "InstanceType": {"Get": f"Parameters.{INSTANCE_PARAMETER}"},
        },
        "RoleArn": role_arn,
        **json.loads(json.dumps(dict(fields))),
    }
    return {
        "Version": PIPELINE_VERSION,
        "Metadata": {},
        "Parameters": [{"Name": INSTANCE_PARAMETER, "Type": "String", "DefaultValue": instance_type}],
        "PipelineExperimentConfig": {
            "ExperimentName": {"Get": "Execution.PipelineName"},
            "TrialName": {"Get": "Execution.PipelineExecutionId"},
        },
        "Steps": [{"Name": step_name, "Type": "Training", "Arguments": arguments}],
    }


def to_cloudformation_pipeline(fields: Mapping[str, Any], *, pipeline_name: str = "debugger-training"
                               ) -> Dict[str, Any]:
    """A CloudFormation template that deploys ``fields``: an ``AWS::SageMaker::Pipeline`` whose
    ``PipelineDefinitionBody`` (a JSON string, as CloudFormation requires; an ``Fn::Sub``) holds one Training
    step (:func:`to_pipeline_definition`); the role, image and output path are template parameters.

    >>> template = to_cloudformation_pipeline({"TensorBoardOutputConfig": {"S3OutputPath": "s3://b/tb/"}})
    >>> resource = template["Resources"]["DebuggerTrainingPipeline"]
    >>> resource["Type"], sorted(template["Parameters"])
    ('AWS::SageMaker::Pipeline', ['OutputPath', 'RoleArn', 'TrainingImage'])
    """
    _checked(fields, "a CloudFormation template")  # before _sub_escaped walks it
    definition = to_pipeline_definition(
        _sub_escaped(dict(fields)),
        role_arn="${RoleArn}", training_image="${TrainingImage}", output_path="${OutputPath}",
    )
    return {
        "AWSTemplateFormatVersion": "2010-09-09",
        "Description": "A SageMaker pipeline with one training job carrying the Debugger configuration",
        "Parameters": {
            "RoleArn": {"Type": "String", "Description": "the IAM role SageMaker runs the pipeline and the job with"},
            "TrainingImage": {"Type": "String", "Description": "the training image URI"},
            "OutputPath": {"Type": "String", "Description": "the S3 URI of the model artifacts"},
        },
        "Resources": {
            "DebuggerTrainingPipeline": {
                "Type": "AWS::SageMaker::Pipeline",
                "Properties": {
                    "PipelineName": pipeline_name,
                    "RoleArn": {"Ref": "RoleArn"},
                    "PipelineDefinition": {"PipelineDefinitionBody": {"Fn::Sub": json.dumps(definition, indent=2)}},
                },
            }
        },
    }


def to_step_functions_task(fields: Mapping[str, Any], *, partition: str = "aws") -> Dict[str, Any]:
    """A Step Functions Task state that runs a training job carrying ``fields`` (``.sync``: the state waits for
    the job); the job name, role, image, output path and instance type come from the state's input (``Key.$``).

    >>> state = to_step_functions_task({"TensorBoardOutputConfig": {"S3OutputPath": "s3://b/tb/"}})
    >>> state["Resource"], state["Parameters"]["TensorBoardOutputConfig"]
    ('arn:aws:states:::sagemaker:createTrainingJob.sync', {'S3OutputPath': 's3://b/tb/'})
    """
    _checked(fields, "a Step Functions state")
    return {
        "Type": "Task",
        "Resource": f"arn:{partition}:states:::sagemaker:createTrainingJob.sync",
        "Parameters": {
            "TrainingJobName.$": "$.TrainingJobName",
            "RoleArn.$": "$.RoleArn",
            "AlgorithmSpecification": {"TrainingImage.$": "$.TrainingImage", "TrainingInputMode": "File"},
            "OutputDataConfig": {"S3OutputPath.$": "$.OutputPath"},
            "ResourceConfig": {"InstanceType.$": "$.InstanceType", "InstanceCount": 1, "VolumeSizeInGB": 30},
            "StoppingCondition": {"MaxRuntimeInSeconds": 86400},
            **json.loads(json.dumps(dict(fields))),
        },
        "End": True,
    }
