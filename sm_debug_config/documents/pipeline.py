"""SageMaker Pipelines definitions (the JSON that ``Pipeline.definition()`` writes and CreatePipeline takes).

A step ``{"Name", "Type": "Training", "Arguments": {...}}`` carries a CreateTrainingJob request without its
``TrainingJobName`` (the pipeline names the job). Condition steps keep their steps in
``Arguments.IfSteps``/``ElseSteps``, read here too. Run-time values (``{"Get": ...}``, ``{"Std:Join": ...}``)
are what :func:`~sm_debug_config.validation.api.is_pipeline_expression` already knows.
"""
from __future__ import annotations

from typing import Any, Dict, Iterator, Tuple

from sm_debug_config.documents.base import Located, Path


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
        from sm_debug_config.limits import json_loads

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
