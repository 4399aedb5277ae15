"""SageMaker Pipelines definitions (the JSON that ``Pipeline.definition()`` writes and CreatePipeline takes).

A step ``{"Name", "Type": "Training", "Arguments": {...}}`` carries a CreateTrainingJob request without its
``TrainingJobName`` (the pipeline names the job). Condition steps keep their steps in
``Arguments.IfSteps``/``ElseSteps``, read here too. Run-time values (``{"Get": ...}``, ``{"Std:Join": ...}``)
are what :func:`~sm_debug_config.validation.api.is_pipeline_expression` already knows.
:func:`to_pipeline_definition` writes a definition with one Training step that carries the Debugger fields.
"""
from __future__ import annotations

from typing import Any, Dict, Iterator, Mapping, Tuple

from sm_debug_config.documents.base import Located, Path
from sm_debug_config.documents.shapes import check_fields, literal_copy
from sm_debug_config.limits import json_loads

#: The run-time values of a pipeline definition beyond what every request may hold: none (``Get``, ``Std:``).
RUNTIME: Tuple[Tuple[str, ...], Tuple[str, ...]] = ((), ())


def detect(document: Any) -> bool:
    """A pipeline definition: a ``Steps`` list, and a ``Version`` or steps with ``Type`` and ``Arguments``."""
    if not isinstance(document, dict) or not isinstance(document.get("Steps"), list):
        return False
    steps = document["Steps"]
    return "Version" in document or any(isinstance(s, dict) and "Type" in s and "Arguments" in s for s in steps)


def _steps(steps: Any, path: Path) -> Iterator[Tuple[Path, Dict[str, Any]]]:
    if not isinstance(steps, list):
        return
    for index, step in enumerate(steps):
        if not isinstance(step, dict):
            continue
        where = path + (index,)
        yield where, step
        arguments = step.get("Arguments")
        if step.get("Type") == "Condition" and isinstance(arguments, dict):
            for branch in ("IfSteps", "ElseSteps"):
                yield from _steps(arguments.get(branch), where + ("Arguments", branch))


def training_steps(definition: Any) -> Iterator[Tuple[Path, Dict[str, Any]]]:
    """``(path, request)`` of every Training step of a pipeline ``definition`` (a dict, or the JSON string
    CreatePipeline takes), Condition branches included: the path is that of the step's ``Arguments``.

    >>> body = '{"Steps": [{"Name": "Train", "Type": "Training", "Arguments": {"RoleArn": "r"}}]}'
    >>> list(training_steps(body))
    [(('Steps', 0, 'Arguments'), {'RoleArn': 'r'})]
    """
    if isinstance(definition, str):
        try:
            definition = json_loads(definition)
        except ValueError:  # not JSON, or nested too deep (a ConfigError)
            return
    if not isinstance(definition, dict):
        return
    for path, step in _steps(definition.get("Steps"), ("Steps",)):
        if step.get("Type") == "Training" and isinstance(step.get("Arguments"), dict):
            yield path + ("Arguments",), step["Arguments"]


def requests(document: Any) -> Iterator[Located]:
    """Every Training step's request, labelled with the step's name."""
    for path, request in training_steps(document):
        step = document
        for part in path[:-1]:
            step = step[part]
        yield Located(path, request, f"step {step.get('Name', path[-2])}")


#: The version the SageMaker Python SDK writes in a pipeline definition.
PIPELINE_VERSION = "2020-12-01"
#: The training step's settings that are not Debugger fields: a pipeline parameter, or the template's.
INSTANCE_PARAMETER = "TrainingInstanceType"


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
    check_fields(fields, "a SageMaker Pipelines definition")
    arguments = {
        "AlgorithmSpecification": {"TrainingImage": training_image, "TrainingInputMode": "File"},
        "OutputDataConfig": {"S3OutputPath": output_path},
        "StoppingCondition": {"MaxRuntimeInSeconds": 86400},
        "ResourceConfig": {
            "VolumeSizeInGB": 30, "InstanceCount": 1, "InstanceType": {"Get": f"Parameters.{INSTANCE_PARAMETER}"},
        },
        "RoleArn": role_arn,
        **literal_copy(fields),
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
