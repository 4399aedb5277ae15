"""``explain`` of the requests an orchestration document holds: each with the engine's findings (those ``validate``
reports, placed in the document by :mod:`.documents`) and the report of
:func:`~sm_debug_config.explaining.explain_model` for the objects it renders from. Its own module, so that
``validate`` never loads the explainer.
"""
from __future__ import annotations

from typing import Any, Dict, List, NamedTuple, Optional

import attrs

from sm_debug_config.apischema import is_pipeline_expression
from sm_debug_config.documents import KINDS, Located, checking
from sm_debug_config.engine import check
from sm_debug_config.errors import ConfigError
from sm_debug_config.explaining import explain_model
from sm_debug_config.findings import Finding, collecting
from sm_debug_config.rendering import render_arguments
from sm_debug_config.reverse import from_request
from sm_debug_config.sources.documents import jobs_of

__all__ = ["Explained", "explain_document"]


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
    for located, job in zip(KINDS[kind].requests(document), jobs_of(kind)(found, {})):
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
