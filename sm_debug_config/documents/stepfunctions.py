"""Step Functions state machines (Amazon States Language, JSON or YAML): the SageMaker training tasks.

A Task state whose ``Resource`` is ``arn:<partition>:states:::sagemaker:createTrainingJob`` (request and
response) or ``...createTrainingJob.sync`` (run a job) passes its ``Parameters`` (JSONPath states) or its
``Arguments`` (JSONata states) to CreateTrainingJob; the SageMaker integration has no other pattern
(https://docs.aws.amazon.com/step-functions/latest/dg/connect-sagemaker.html). States are read at the top
level and inside Parallel branches (``Branches[].States``) and Map states (``ItemProcessor.States``, and the
older ``Iterator.States``).

Run-time values: a ``Key.$`` entry (its value a path or an intrinsic function, evaluated when the state
runs) is the request's ``Key`` with the value ``{"States.$": ...}``; a JSONata ``"{% ... %}"`` string is
``{"JSONata": ...}``. Both are never an error for being unknown.

:func:`to_step_functions_task` writes a training Task state that carries the Debugger fields.
"""
from __future__ import annotations

import re
from typing import Any, Dict, Iterator, List, Mapping, Tuple

from sm_debug_config.documents.base import Located, Path
from sm_debug_config.documents.shapes import check_fields, literal_copy

#: The run-time values of a state machine, as :func:`requests` writes them (``validation.api.RUNTIME_KEYS``).
RUNTIME: Tuple[Tuple[str, ...], Tuple[str, ...]] = (("States.$", "JSONata"), ())

# (the partition as a CloudFormation template writes it in a definition it substitutes: ${AWS::Partition})
_TRAINING = re.compile(r"arn:(aws[a-z-]*|\$\{AWS::Partition\}):states:::sagemaker:createTrainingJob(\.sync)?")


def is_training_task(state: Any) -> bool:
    """A Task state that creates a SageMaker training job."""
    return (isinstance(state, dict) and state.get("Type") == "Task" and isinstance(state.get("Resource"), str)
            and _TRAINING.fullmatch(state["Resource"]) is not None)


def detect(document: Any) -> bool:
    """A state machine: ``StartAt`` and a ``States`` mapping."""
    return isinstance(document, dict) and isinstance(document.get("States"), dict) and "StartAt" in document


def _states(machine: Any, path: Path) -> Iterator[Tuple[Path, str, Dict[str, Any]]]:
    """``(path, name, state)`` of every state of ``machine`` (a dict with ``States``), nested ones too."""
    states = machine.get("States") if isinstance(machine, dict) else None
    if not isinstance(states, dict):
        return
    for name, state in states.items():
        if not isinstance(state, dict):
            continue
        where = path + ("States", name)
        yield where, str(name), state
        for index, branch in enumerate(state.get("Branches") or () if isinstance(state.get("Branches"), list) else ()):
            yield from _states(branch, where + ("Branches", index))
        for key in ("ItemProcessor", "Iterator"):
            yield from _states(state.get(key), where + (key,))


def runtime_value(key: str, value: Any) -> bool:
    """Whether the entry ``key: value`` of a task's input is evaluated when the state runs."""
    return key.endswith(".$") or (isinstance(value, str) and value.startswith("{%") and value.rstrip().endswith("%}"))


def _convert(value: Any, path: Path, renamed: Dict[Path, Path], doc_path: Path) -> Any:
    """``value`` as the API takes it: ``Key.$`` entries become ``Key``, run-time values one-key objects."""
    if isinstance(value, dict):
        out: Dict[str, Any] = {}
        for key, item in value.items():
            name = str(key)
            if name.endswith(".$"):
                real = name[:-2]
                renamed[path + (real,)] = doc_path + (name,)
                out[real] = {"States.$": item}
            elif runtime_value(name, item):
                out[name] = {"JSONata": item}
            else:
                out[name] = _convert(item, path + (name,), renamed, doc_path + (name,))
        return out
    if isinstance(value, list):
        items: List[Any] = []
        for index, item in enumerate(value):
            if isinstance(item, str) and runtime_value("", item):
                items.append({"JSONata": item})
            else:
                items.append(_convert(item, path + (index,), renamed, doc_path + (index,)))
        return items
    return value


def requests(document: Any) -> Iterator[Located]:
    """Every training task's request, with its state's path; a task whose whole input is one JSONata
    expression holds nothing to check before it runs and is left out.

    >>> machine = {"StartAt": "P", "States": {"P": {"Type": "Parallel", "End": True, "Branches": [{"StartAt": "T",
    ...     "States": {"T": {"Type": "Task", "End": True, "Resource": "arn:aws:states:::sagemaker:createTrainingJob",
    ...                      "Parameters": {"DebugHookConfig": {"S3OutputPath.$": "$.out"}}}}}]}}}
    >>> [(found.base, found.request) for found in requests(machine)]
    [(('States', 'P', 'Branches', 0, 'States', 'T', 'Parameters'),
      {'DebugHookConfig': {'S3OutputPath': {'States.$': '$.out'}}})]
    """
    for path, name, state in _states(document, ()):
        if not is_training_task(state):
            continue
        key = "Arguments" if "Arguments" in state else "Parameters"
        body = state.get(key)
        if not isinstance(body, dict):
            continue
        renamed: Dict[Path, Path] = {}
        request = _convert(body, (), renamed, ())
        yield Located(path + (key,), request, f"state {name}", renamed)


def to_step_functions_task(fields: Mapping[str, Any], *, partition: str = "aws") -> Dict[str, Any]:
    """A Step Functions Task state that runs a training job carrying ``fields`` (``.sync``: the state waits for
    the job); the job name, role, image, output path and instance type come from the state's input (``Key.$``).

    >>> state = to_step_functions_task({"TensorBoardOutputConfig": {"S3OutputPath": "s3://b/tb/"}})
    >>> state["Resource"], state["Parameters"]["TensorBoardOutputConfig"]
    ('arn:aws:states:::sagemaker:createTrainingJob.sync', {'S3OutputPath': 's3://b/tb/'})
    """
    check_fields(fields, "a Step Functions state")
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
            **literal_copy(fields),
        },
        "End": True,
    }
