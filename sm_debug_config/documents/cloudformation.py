"""CloudFormation templates (JSON, or YAML with the short-form tags ``!Ref``, ``!Sub``, ``!GetAtt``...).

Three resource types hold CreateTrainingJob requests:

* ``AWS::SageMaker::Pipeline``: ``PipelineDefinition.PipelineDefinitionBody`` is a pipeline definition
  (read by :mod:`.pipeline`), written as a JSON string (what CloudFormation's schema requires), an
  ``Fn::Sub`` of one (``!Sub |`` and a block of JSON, or the long form ``[body, {variables}]``), or an object.
* ``AWS::StepFunctions::StateMachine`` (and SAM's ``AWS::Serverless::StateMachine``): its ``Definition``
  object, or its ``DefinitionString`` (a JSON string, or an ``Fn::Sub`` of one), read by :mod:`.stepfunctions`.
* ``AWS::SageMaker::TrainingJob``: its ``Properties`` are the request (the CloudFormation template reference
  documents the type with its Debugger properties; cfn-lint's schemas may not list it yet, :data:`LINT_NOTE`).

A request read from JSON text in a string is :class:`~.base.Embedded` in it: its findings are placed at the
key inside the text, wherever the file writes the string (a block scalar, a quoted string with escapes);
``${...}`` substitutions are left as written, so lines and columns are those of the text as written.

Run-time values are the intrinsic functions: ``{"Ref": ...}`` and ``{"Fn::...": ...}`` (the YAML short
forms are read into these, :data:`YAML_TAGS`), and a state machine's own (``Key.$``, JSONata). In a body
given as ``Fn::Sub`` (or a state machine with ``DefinitionSubstitutions``), a string with a ``${...}``
substitution is such a value too, and so is a substitution written outside any string
(``"InstanceCount": ${Count}``), which leaves the text JSON only once substituted.

Writing: :func:`to_cloudformation` gives the ``AWS::SageMaker::TrainingJob`` properties of the Debugger fields,
:func:`to_cloudformation_pipeline` a template with an ``AWS::SageMaker::Pipeline`` with one Training step
(a type every cfn-lint knows).
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable, Dict, Iterator, Mapping, Optional, Tuple

import attrs

from sm_debug_config.configfile.jsonparse import JsonText
from sm_debug_config.documents import pipeline, stepfunctions
from sm_debug_config.documents.base import Embedded, Located, Path, fn_sub, interpolated, substitution
from sm_debug_config.documents.shapes import check_fields, literal_copy
from sm_debug_config.limits import json_loads

#: The run-time values of a template: ``Ref`` and the ``Fn::`` intrinsic functions, and a state machine's.
RUNTIME: Tuple[Tuple[str, ...], Tuple[str, ...]] = (("Ref",) + stepfunctions.RUNTIME[0], ("Fn::",))
PIPELINE, TRAINING_JOB = "AWS::SageMaker::Pipeline", "AWS::SageMaker::TrainingJob"
#: The state machine types, and whether each may give its definition as a string (``DefinitionString``).
STATE_MACHINES: Mapping[str, bool] = {"AWS::StepFunctions::StateMachine": True, "AWS::Serverless::StateMachine": False}

#: CloudFormation's YAML short forms, the tag to the key of the long form it stands for
#: (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/intrinsic-function-reference.html).
YAML_TAGS: Mapping[str, str] = {
    "!Ref": "Ref", "!Condition": "Condition",
    **{"!" + name: "Fn::" + name for name in (
        "And", "Base64", "Cidr", "Equals", "FindInMap", "ForEach", "GetAtt", "GetAZs", "If", "ImportValue", "Join",
        "Length", "Not", "Or", "Select", "Split", "Sub", "ToJsonString", "Transform",
    )},
}


def detect(document: Any) -> bool:
    """A template: a ``Resources`` mapping, with ``AWSTemplateFormatVersion`` or a resource ``Type`` ``AWS::...``."""
    if not isinstance(document, dict) or not isinstance(document.get("Resources"), dict):
        return False
    return "AWSTemplateFormatVersion" in document or any(
        isinstance(r, dict) and str(r.get("Type", "")).startswith("AWS::") for r in document["Resources"].values()
    )


# A JSON string, or a ${...} substitution outside one (the string first: a ${...} inside it is its own).
_SUBSTITUTION = re.compile(r'"(?:[^"\\]|\\.)*"|\$\{[^{}"\\\s]*\}')


def _unquoted(text: str) -> Tuple[str, Dict[str, str]]:
    """``text`` with each ``${...}`` outside a JSON string made a string of the same length (``${Count}`` ->
    ``"{Count"``, so positions stay), and what each such string stands for."""
    placed: Dict[str, str] = {}

    def quote(match: "re.Match[str]") -> str:
        written = match.group()
        if written.startswith('"'):
            return written
        placed[written[1:-1]] = written
        return '"' + written[1:-1] + '"'

    return _SUBSTITUTION.sub(quote, text), placed


def _restored(value: Any, placed: Mapping[str, str]) -> Any:
    """``value`` with the strings :func:`_unquoted` made back to the substitutions they stand for."""
    if isinstance(value, dict):
        return {key: _restored(item, placed) for key, item in value.items()}
    if isinstance(value, list):
        return [_restored(item, placed) for item in value]
    return placed.get(value, value) if isinstance(value, str) else value


def _json_text(text: str, substituted: bool) -> Optional[Tuple[Any, JsonText]]:
    """The value of JSON ``text`` and the text as read; ``substituted``: an Fn::Sub's, whose ``${...}`` may stand
    outside strings. None when it is no JSON: there is no request to read in it."""
    placed: Dict[str, str] = {}
    try:
        value = json_loads(text)
    except ValueError:  # not JSON, or nested too deep (a ConfigError); or JSON only once substituted
        if not substituted or "${" not in text:
            return None
        text, placed = _unquoted(text)
        try:
            value = json_loads(text)
        except ValueError:
            return None
    return _restored(value, placed), JsonText(text)


def _string(written: Any, at: Path) -> Optional[Tuple[str, Path, bool]]:
    """``(text, its document path, an Fn::Sub)`` of a property written as a string or an ``Fn::Sub`` of one
    (``{"Fn::Sub": text}``, ``{"Fn::Sub": [text, {variables}]}``); None for anything else (an object)."""
    if isinstance(written, str):
        return written, at, False
    sub = written.get("Fn::Sub") if isinstance(written, dict) and len(written) == 1 else None
    if isinstance(sub, str):
        return sub, at + ("Fn::Sub",), True
    if isinstance(sub, list) and sub and isinstance(sub[0], str):
        return sub[0], at + ("Fn::Sub", 0), True
    return None


def _embedded(written: Any, at: Path, substituted: bool) -> Optional[Tuple[Any, Embedded, bool]]:
    """The JSON value of a property written as text (see :func:`_string`), the text it is :class:`Embedded` in,
    and whether its ``${...}`` are substituted at deployment (an Fn::Sub, or ``substituted``)."""
    string = _string(written, at)
    if string is None:
        return None
    text, where, sub = string
    read = _json_text(text, sub or substituted)
    return None if read is None else (read[0], Embedded(where, read[1]), sub or substituted)


def _substituted(request: Dict[str, Any], literal: Callable[[str], Optional[str]]) -> Dict[str, Any]:
    """``request`` with each string holding a ``${...}`` an Fn::Sub run-time value (other run-time values kept), and
    each that only escapes one (``literal``: :func:`~.base.fn_sub`'s ``${!x}``) the literal string it stands for."""
    return interpolated(request, "Fn::Sub", RUNTIME[0], literal)  # type: ignore[no-any-return]


def _pipeline(properties: Dict[str, Any], where: Path, name: str) -> Iterator[Located]:
    if not isinstance(properties.get("PipelineDefinition"), dict):
        return
    written = properties["PipelineDefinition"].get("PipelineDefinitionBody")
    body_path = where + ("PipelineDefinition", "PipelineDefinitionBody")
    read = _embedded(written, body_path, False)
    body, embedded, substituted = (written, None, False) if read is None else read
    for found in pipeline.requests(body):
        request = _substituted(found.request, fn_sub) if substituted else found.request
        inside = None if embedded is None else attrs.evolve(embedded, base=found.base)
        yield Located(body_path + found.base, request, f"resource {name}, {found.label}", embedded=inside)


def _state_machine(properties: Dict[str, Any], where: Path, name: str, strings: bool) -> Iterator[Located]:
    substituted = "DefinitionSubstitutions" in properties  # ${...} in the definition filled in at deployment
    # (whose ${...} have no literal form: after an Fn::Sub's ${!x} is ${x}, they fill that in too)
    literal = substitution if substituted else fn_sub
    embedded: Optional[Embedded] = None
    if isinstance(properties.get("Definition"), dict):
        at, machine = where + ("Definition",), properties["Definition"]
    elif strings and "DefinitionString" in properties:
        at = where + ("DefinitionString",)
        read = _embedded(properties["DefinitionString"], at, substituted)
        if read is None:
            return
        machine, embedded, substituted = read
    else:
        return  # a DefinitionS3Location or DefinitionUri: a file elsewhere
    for found in stepfunctions.requests(machine):
        request = _substituted(found.request, literal) if substituted else found.request
        inside = None if embedded is None else attrs.evolve(embedded, base=found.base)
        yield Located(at + found.base, request, f"resource {name}, {found.label}", found.renamed, inside)


def requests(document: Any) -> Iterator[Located]:
    """The requests of every SageMaker Pipeline's training steps, every state machine's training tasks and every
    TrainingJob resource.

    >>> body = '{"Steps": [{"Name": "T", "Type": "Training", "Arguments": {"RoleArn": "r"}}]}'
    >>> template = {"Resources": {"Pipe": {"Type": "AWS::SageMaker::Pipeline",
    ...     "Properties": {"PipelineDefinition": {"PipelineDefinitionBody": body}}}}}
    >>> [(found.label, found.base[-4:], found.embedded.at[-1]) for found in requests(template)]
    [('resource Pipe, step T', ('PipelineDefinitionBody', 'Steps', 0, 'Arguments'), 'PipelineDefinitionBody')]
    """
    resources = document.get("Resources") if isinstance(document, dict) else None
    for name, resource in (resources or {}).items():
        if not isinstance(resource, dict) or not isinstance(resource.get("Properties"), dict):
            continue
        properties: Dict[str, Any] = resource["Properties"]
        where = ("Resources", name, "Properties")
        kind = resource.get("Type")
        if kind == TRAINING_JOB:
            yield Located(where, properties, f"resource {name}")
        elif kind == PIPELINE:
            yield from _pipeline(properties, where, name)
        elif isinstance(kind, str) and kind in STATE_MACHINES:
            yield from _state_machine(properties, where, name, STATE_MACHINES[kind])


# --- writing: the TrainingJob properties, and a template that deploys them ------------------------------------

#: What ``render --format cloudformation`` notes: the CloudFormation template reference documents the type (with
#: DebugHookConfig, DebugRuleConfigurations, ProfilerConfig, ProfilerRuleConfigurations, TensorBoardOutputConfig),
#: but cfn-lint 1.58.0's registry schemas have none for it (tests/documents/test_writers.py watches them).
LINT_NOTE = (
    f"{TRAINING_JOB}: cfn-lint may not know this type until its schemas catch up (1.58.0's have none) and then "
    "reports it as an unknown resource type; --format cloudformation-pipeline writes an AWS::SageMaker::Pipeline "
    "template that every cfn-lint knows"
)


def to_cloudformation(fields: Mapping[str, Any]) -> Dict[str, Any]:
    """The ``Properties`` of an ``AWS::SageMaker::TrainingJob`` resource for ``fields``: a checked deep copy.

    >>> from sm_debug_config import Rule, render, rule_configs
    >>> fields = render([Rule.sagemaker(rule_configs.vanishing_gradient())],
    ...                 region="us-east-1", output_path="s3://bucket/out/")
    >>> to_cloudformation(fields)["DebugRuleConfigurations"][0]["RuleConfigurationName"]
    'VanishingGradient'
    """
    check_fields(fields, "a CloudFormation template")
    return literal_copy(fields)


def _sub_escaped(value: Any) -> Any:
    """``value`` with each ``${`` written ``${!``: a literal in ``Fn::Sub``, not a substitution."""
    if isinstance(value, dict):
        return {key: _sub_escaped(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_sub_escaped(item) for item in value]
    return value.replace("${", "${!") if isinstance(value, str) else value


def to_cloudformation_pipeline(fields: Mapping[str, Any], *, pipeline_name: str = "debugger-training"
                               ) -> Dict[str, Any]:
    """A CloudFormation template that deploys ``fields``: an ``AWS::SageMaker::Pipeline`` whose
    ``PipelineDefinitionBody`` (a JSON string, as CloudFormation requires; an ``Fn::Sub``) holds one Training
    step (:func:`~sm_debug_config.documents.pipeline.to_pipeline_definition`); the role, image and output path
    are template parameters.

    >>> template = to_cloudformation_pipeline({"TensorBoardOutputConfig": {"S3OutputPath": "s3://b/tb/"}})
    >>> resource = template["Resources"]["DebuggerTrainingPipeline"]
    >>> resource["Type"], sorted(template["Parameters"])
    ('AWS::SageMaker::Pipeline', ['OutputPath', 'RoleArn', 'TrainingImage'])
    """
    check_fields(fields, "a CloudFormation template")  # before _sub_escaped walks it
    definition = pipeline.to_pipeline_definition(
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
                "Type": PIPELINE,
                "Properties": {
                    "PipelineName": pipeline_name,
                    "RoleArn": {"Ref": "RoleArn"},
                    "PipelineDefinition": {"PipelineDefinitionBody": {"Fn::Sub": json.dumps(definition, indent=2)}},
                },
            }
        },
    }
