"""Orchestration documents (Step Functions, Pipelines, CloudFormation, Terraform): a job per ``CreateTrainingJob``
request they hold, each finding at the document's pointer and position, its message ending with the request's label.
The formats themselves are :mod:`sm_debug_config.documents` (one module each, reading and writing it);
``explain`` of each request is :mod:`.explained`.
"""
from __future__ import annotations

import functools
from typing import Any, Callable, Dict, Iterator, Optional

from sm_debug_config.documents import KINDS, Located, checking
from sm_debug_config.documents.checks import position
from sm_debug_config.engine import Job
from sm_debug_config.findings import Finding
from sm_debug_config.rendering import Rendered


def jobs_of(kind: str) -> Callable[[Any, Dict[str, Any]], Iterator[Job]]:
    """The ``jobs`` function of the documents of ``kind`` (a key of :data:`~sm_debug_config.documents.KINDS`)."""
    return functools.partial(_jobs, kind)


def _jobs(kind: str, found: Any, settings: Dict[str, Any]) -> Iterator[Job]:
    for located in KINDS[kind].requests(found.document):
        yield Job(request=located.request, place=functools.partial(_place, located, found.locate),
                  label=located.label, context=functools.partial(checking, kind))


def _place(located: Located, locate: Any, finding: Finding, rendered: Optional[Rendered]) -> Finding:
    line, column = position(located, finding.path, locate) or (None, None)
    return finding.replace(path=located.document_path(finding.path), line=line, column=column,
                           message=f"{finding.message} ({located.label})")
