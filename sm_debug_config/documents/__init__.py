"""Orchestration documents that hold ``CreateTrainingJob`` requests: Step Functions state machines,
SageMaker Pipelines definitions, CloudFormation templates and Terraform JSON.

Each kind is one module with ``detect(document) -> bool`` and ``requests(document)``, which yields
every ``CreateTrainingJob`` request the document holds as a :class:`Located`: the request, written
the way the API takes it (a value known only at run time as a one-key object that
:func:`~sm_debug_config.validation.api.is_pipeline_expression` knows, so it is never an error), and
the way back from a pointer into the request to a pointer into the document, for positions.
:data:`KINDS` is the table of kinds; :func:`detect_kind` picks one from the content.
Each kind's module also writes it (``to_cloudformation``, ``to_terraform``, ``to_pipeline_definition``,
``to_step_functions_task``...): one module per format, owning both directions; :mod:`.shapes` holds what
every writer checks.

>>> doc = {"StartAt": "T", "States": {"T": {"Type": "Task", "End": True,
...        "Resource": "arn:aws:states:::sagemaker:createTrainingJob.sync",
...        "Parameters": {"TrainingJobName.$": "$.name", "DebugHookConfig": {"S3OutputPath": "s3://b/o"}}}}}
>>> detect_kind(doc)
'stepfunctions'
>>> [(found.label, found.request["TrainingJobName"]) for found in requests(doc)]
[('state T', {'States.$': '$.name'})]
"""
from __future__ import annotations

import copy
from typing import Any, Callable, ContextManager, Dict, Iterator, NamedTuple, Optional, Tuple

from sm_debug_config.apischema import runtime_values
from sm_debug_config.documents import cloudformation, pipeline, stepfunctions, terraform
from sm_debug_config.documents.base import Located, Path, step_into
from sm_debug_config.documents.shapes import SHAPES
from sm_debug_config.errors import ConfigError, pointer_parts, shorten
from sm_debug_config.rendering import FIELDS, merge_into_request


class Kind(NamedTuple):
    """One kind of document: whether a document is of it, and the requests it holds."""

    detect: Callable[[Any], bool]
    requests: Callable[[Any], Iterator[Located]]
    description: str
    #: the one-key objects of its run-time values: keys and key prefixes (``validation.api.RUNTIME_KEYS``)
    runtime: Tuple[Tuple[str, ...], Tuple[str, ...]]


#: Each orchestration kind, in the order :func:`detect_kind` tries them.
KINDS: Dict[str, Kind] = {
    "stepfunctions": Kind(stepfunctions.detect, stepfunctions.requests, "a Step Functions state machine (ASL)",
                          stepfunctions.RUNTIME),
    "pipeline": Kind(pipeline.detect, pipeline.requests, "a SageMaker Pipelines definition", pipeline.RUNTIME),
    "cloudformation": Kind(cloudformation.detect, cloudformation.requests, "a CloudFormation template",
                           cloudformation.RUNTIME),
    "terraform": Kind(terraform.detect, terraform.requests, "Terraform (.tf, .tf.json or terraform show -json)",
                      terraform.RUNTIME),
}


def detect_kind(document: Any) -> Optional[str]:
    """The orchestration kind of ``document`` from its content, or None (a config file, a request, anything else)."""
    return next((name for name, kind in KINDS.items() if kind.detect(document)), None)


def requests(document: Any, kind: Optional[str] = None) -> Iterator[Located]:
    """Every ``CreateTrainingJob`` request in ``document``, of ``kind`` (found from the content when None)."""
    name = kind if kind is not None else detect_kind(document)
    if not isinstance(name, str) or name not in KINDS:  # the type first: a dict or an object with its own __eq__
        raise ConfigError(f"unknown document kind {shorten(name)}", field="kind", allowed=", ".join(KINDS))
    return KINDS[name].requests(document)


def checking(kind: str) -> ContextManager[None]:
    """A block in which ``kind``'s run-time values are known to validation as such (never errors).

    >>> from sm_debug_config.validation import validate
    >>> with checking("cloudformation"):
    ...     validate({"DebugHookConfig": {"S3OutputPath": {"Fn::Sub": "s3://${Bucket}/debug"}}})[0].code
    'SMD001'
    """

    keys, prefixes = KINDS[kind].runtime
    return runtime_values(keys, prefixes)


def merge_at(document: Any, at: str, fields: Dict[str, Any], *, replace: bool = False) -> Any:
    """A copy of ``document`` with the rendered Debugger ``fields`` merged into the request at JSON pointer ``at``:
    written as Terraform blocks when that is a Terraform resource, as the API's fields otherwise. A ``ConfigError``
    when ``at`` is no object of the document, or for Debugger fields already there (unless ``replace``).

    >>> machine = {"StartAt": "T", "States": {"T": {"Type": "Task", "Parameters": {"RoleArn": "r"}}}}
    >>> fields = {"TensorBoardOutputConfig": {"S3OutputPath": "s3://b/tb/"}}
    >>> merge_at(machine, "/States/T/Parameters", fields)["States"]["T"]
    {'Type': 'Task', 'Parameters': {'RoleArn': 'r', 'TensorBoardOutputConfig': {'S3OutputPath': 's3://b/tb/'}}}
    """
    path = pointer_parts(at) if isinstance(at, str) and (at == "" or at.startswith("/")) else None
    if path is None:
        raise ConfigError(f"--at {shorten(at)} is not a JSON Pointer", field="at",
                          allowed="a JSON Pointer such as /States/Train/Parameters")
    target = step_into(document, path)
    if not isinstance(target, dict):
        raise ConfigError(f"{at} is {'not in the document' if target is None else 'not an object'}", field="at",
                          allowed="the pointer of the request object (Parameters, Arguments, Properties, a body)")
    if detect_kind(document) == "terraform":
        blocks = terraform.to_terraform_json(fields)
        present = [SHAPES[name][0] for name in FIELDS if name in SHAPES and SHAPES[name][0] in target]
        if present and not replace:
            raise ConfigError(f"{at} already has {', '.join(present)}; refusing to overwrite them silently", field="at",
                              allowed="a resource without Debugger blocks, or replace")
        merged = {k: v for k, v in target.items() if k not in {shape[0] for shape in SHAPES.values()}}
        merged.update(blocks)
    else:
        merged = merge_into_request(target, fields, replace=replace)
    out = copy.deepcopy(document)
    if not path:
        return merged
    parent = step_into(out, path[:-1])
    parent[path[-1]] = merged
    return out


__all__ = ["KINDS", "Kind", "Located", "Path", "checking", "detect_kind", "merge_at", "requests", "step_into"]
