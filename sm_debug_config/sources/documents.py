"""Orchestration documents (Step Functions, Pipelines, CloudFormation, Terraform): a job per ``CreateTrainingJob``
request they hold, each finding at the document's pointer and position, its message ending with the request's label.
The formats themselves are :mod:`sm_debug_config.documents` (one module each, reading and writing it);
:func:`explain_document` is ``explain`` of each request, with the engine's findings.
"""
from __future__ import annotations

import functools
from typing import Any, Callable, Dict, Iterator, List, NamedTuple, Optional

import attrs

from sm_debug_config.apischema import is_pipeline_expression
from sm_debug_config.documents import KINDS, Located, checking
from sm_debug_config.documents.checks import position
from sm_debug_config.engine import Job, check
from sm_debug_config.errors import ConfigError
from sm_debug_config.explaining import explain_model
from sm_debug_config.findings import Finding, collecting
from sm_debug_config.rendering import Rendered, render_arguments
from sm_debug_config.reverse import from_request


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


@attrs.frozen
class Explained:
    """One request of a document explained: its ``findings`` as ``validate`` reports them (the engine's, placed in
    the document) and explain's ``report`` without its own request-relative findings; or, when the objects refuse
    a value of the request, no report and ``refused``, the error."""

    located: Located
    findings: List[Finding]
    report: Optional[Dict[str, Any]] = None
    refused: Optional[ConfigError] = None


def _known(value: Any, key: str = "") -> Any:
    """``value`` with each S3 path known only at run time written ``s3://run-time-value/`` (explain needs a path)."""
    if isinstance(value, dict) and not is_pipeline_expression(value):
        return {k: _known(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_known(v) for v in value]
    return "s3://run-time-value/" if key == "S3OutputPath" and is_pipeline_expression(value) else value


def explain_document(document: Any, kind: str, locate: Any, options: Dict[str, Any],
                     **settings: Any) -> List[Explained]:
    """Every request in ``document`` :class:`Explained`: its findings are the engine's with ``options`` (those
    ``validate`` reports), its report that of :func:`~sm_debug_config.explaining.explain_model` for the objects the
    request renders from (``settings`` stand in for what it does not hold). An S3 path known only at run time is
    explained as ``s3://run-time-value/``. What the objects' constructors warn about is left to the findings.
    """
    out = []
    found = _Found(document, locate)
    for located, job in zip(KINDS[kind].requests(document), _jobs(kind, found, {})):
        findings = check(job, options).findings
        try:
            with checking(kind), collecting():  # what its objects report, the request's findings above say
                rebuilt = from_request(_known(located.request), **settings)
                setup, job_settings = render_arguments(rebuilt.render_kwargs())
                report = explain_model(setup, job_settings)
        except ConfigError as err:
            out.append(Explained(located, findings, refused=err))
        else:
            out.append(Explained(located, findings, {k: v for k, v in report.items() if k != "findings"}))
    return out


class _Found(NamedTuple):
    document: Any
    locate: Any
