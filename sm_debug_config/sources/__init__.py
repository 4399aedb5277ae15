"""Sources: one module per input kind, each detecting its documents and yielding their jobs.

A source turns what a user wrote into :class:`~sm_debug_config.engine.Job` values: the request or the objects as
written, the job's settings, and the way from a request pointer back to where it was written. The engine
(:mod:`sm_debug_config.engine`) checks every job alike, so a command never knows a format: it reads a file,
asks :func:`detect` which source it is, and hands the source's jobs to the engine.

:data:`SOURCES` is the table, in the order :func:`detect` tries them: the orchestration documents first (their
content says what they are), then a ``CreateTrainingJob`` request, then a config file. Adding an input kind is one
module with ``detect`` and ``jobs`` and a row here.

>>> machine = {"StartAt": "T", "States": {"T": {"Type": "Task", "End": True,
...     "Resource": "arn:aws:states:::sagemaker:createTrainingJob",
...     "Parameters": {"DebugHookConfig": {"S3OutputPath": "s3://b/o"}}}}}
>>> detect(machine).name
'stepfunctions'
>>> detect({"DebugHookConfig": {"S3OutputPath": "s3://b/o"}}).name, detect({"rules": ["VanishingGradient"]}).name
('request', 'config')
>>> detect({"name": "my-package"}) is None
True
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Iterator, NamedTuple, Optional

from sm_debug_config.documents import KINDS
from sm_debug_config.engine import Job
from sm_debug_config.sources import configfile, documents, kubernetes, request

__all__ = ["SOURCES", "Source", "detect", "not_debugger"]


class Source(NamedTuple):
    """One input kind: whether a parsed document is of it, and the jobs it holds (``jobs(found, settings)``, where
    ``found`` is the file read once, with ``document`` and ``locate``)."""

    name: str
    description: str
    detect: Callable[[Any], bool]
    jobs: Callable[[Any, Dict[str, Any]], Iterator[Job]]


#: Every input kind a file can be, in the order :func:`detect` tries them.
SOURCES: Dict[str, Source] = {
    **{name: Source(name, kind.description, kind.detect, documents.jobs_of(name)) for name, kind in KINDS.items()},
    "kubernetes": Source("kubernetes", "an ACK SageMaker TrainingJob manifest (Kubernetes, Kubeflow)",
                         kubernetes.detect, kubernetes.jobs),
    "request": Source("request", "a CreateTrainingJob request", request.detect, request.jobs),
    "config": Source("config", "a config file", configfile.detect, configfile.jobs),
}


def detect(document: Any) -> Optional[Source]:
    """The source ``document`` (parsed data) is, from its content; None for a document that is no Debugger input."""
    return next((source for source in SOURCES.values() if source.detect(document)), None)


def not_debugger(document: Any) -> str:
    """Why ``document`` is none of the sources' (pre-commit hands over every YAML and JSON file)."""
    if document is None:
        return "empty document"
    if not isinstance(document, dict):
        return f"a {'list' if isinstance(document, list) else type(document).__name__}, not a mapping of config keys"
    listed = ", ".join(sorted(map(str, document))[:5]) + (", ..." if len(document) > 5 else "")
    return f"none of its keys ({listed or 'none'}) is a config-file or CreateTrainingJob key"
