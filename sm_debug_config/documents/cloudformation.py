"""CloudFormation templates (JSON, or YAML with the short-form tags ``!Ref``, ``!Sub``, ``!GetAtt``...).

Two resource types hold CreateTrainingJob requests:

* ``AWS::SageMaker::Pipeline``: ``PipelineDefinition.PipelineDefinitionBody`` is a pipeline definition
  (read by :mod:`.pipeline`), written as a JSON string (what CloudFormation's schema requires), an
  ``Fn::Sub`` of one, or an object. A request read from a string is positioned at the
  ``PipelineDefinitionBody`` key: the template has no line for what is inside the string.
* ``AWS::SageMaker::TrainingJob``: its ``Properties`` are the request. CloudFormation cannot create this
  type (it is in none of the registry schemas cfn-lint ships), but templates that name it are read all
  the same, so that a mistake is found before the deployment refuses the template.

Run-time values are the intrinsic functions: ``{"Ref": ...}`` and ``{"Fn::...": ...}`` (the YAML short
forms are read into these, :data:`YAML_TAGS`). In a body given as ``Fn::Sub``, a string with a
``${...}`` substitution is such a value too.
"""
from __future__ import annotations

from typing import Any, Dict, Iterator, Mapping, Tuple

from sm_debug_config.documents import pipeline
from sm_debug_config.documents.base import Located, interpolated

#: The run-time values of a template: ``Ref`` and the ``Fn::`` intrinsic functions.
RUNTIME: Tuple[Tuple[str, ...], Tuple[str, ...]] = (("Ref",), ("Fn::",))
PIPELINE, TRAINING_JOB = "AWS::SageMaker::Pipeline", "AWS::SageMaker::TrainingJob"

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


def _body(body: Any) -> Any:
    """The pipeline definition of a ``PipelineDefinitionBody``: parsed from a string, or as written."""
    sub = body.get("Fn::Sub") if isinstance(body, dict) and len(body) == 1 else None
    text = sub[0] if isinstance(sub, list) and sub else sub
    if isinstance(text, str):
        return interpolated(_parse(text), "Fn::Sub")  # read from an Fn::Sub string
    return _parse(body) if isinstance(body, str) else body


def _parse(text: str) -> Any:
    from sm_debug_config.limits import json_loads

    try:
        return json_loads(text)
    except ValueError:  # not JSON, or nested too deep (a ConfigError): no request to read in it
        return None


def requests(document: Any) -> Iterator[Located]:
    """The requests of every SageMaker Pipeline's training steps and every TrainingJob resource.

    >>> body = '{"Steps": [{"Name": "T", "Type": "Training", "Arguments": {"RoleArn": "r"}}]}'
    >>> template = {"Resources": {"Pipe": {"Type": "AWS::SageMaker::Pipeline",
    ...     "Properties": {"PipelineDefinition": {"PipelineDefinitionBody": body}}}}}
    >>> [(found.label, found.base[-4:], found.anchor[-1]) for found in requests(template)]
    [('resource Pipe, step T', ('PipelineDefinitionBody', 'Steps', 0, 'Arguments'), 'PipelineDefinitionBody')]
    """
    resources = document.get("Resources") if isinstance(document, dict) else None
    for name, resource in (resources or {}).items():
        if not isinstance(resource, dict) or not isinstance(resource.get("Properties"), dict):
            continue
        properties: Dict[str, Any] = resource["Properties"]
        where = ("Resources", name, "Properties")
        if resource.get("Type") == TRAINING_JOB:
            yield Located(where, properties, f"resource {name}")
        elif resource.get("Type") == PIPELINE and isinstance(properties.get("PipelineDefinition"), dict):
            written = properties["PipelineDefinition"].get("PipelineDefinitionBody")
            body_path = where + ("PipelineDefinition", "PipelineDefinitionBody")
            body = _body(written)
            opaque = not isinstance(written, dict) or "Fn::Sub" in written
            for found in pipeline.requests(body):
                label = f"resource {name}, {found.label}"
                yield Located(body_path + found.base, found.request, label, anchor=body_path if opaque else None)
