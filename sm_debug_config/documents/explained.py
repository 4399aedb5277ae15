"""``explain`` of the requests an orchestration document holds: each with ``validate``'s findings (the same places,
pointers and messages, :mod:`.checks`) and the report of :func:`~sm_debug_config.explaining.explain_model` for the
objects it renders from."""
from __future__ import annotations

from typing import Any, Dict, List, Optional

import attrs

from sm_debug_config.apischema import is_pipeline_expression
from sm_debug_config.documents import KINDS, Located, checking
from sm_debug_config.documents.checks import Locator, _checked
from sm_debug_config.errors import ConfigError
from sm_debug_config.explaining import explain_model
from sm_debug_config.findings import collecting
from sm_debug_config.rendering import render_arguments
from sm_debug_config.reverse import from_request

__all__ = ["Explained", "explain_document"]


def _known(value: Any, key: str = "") -> Any:
    """``value`` with each S3 path known only at run time written ``s3://run-time-value/`` (explain needs a path)."""

    if isinstance(value, dict) and not is_pipeline_expression(value):
        return {k: _known(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_known(v) for v in value]
    return "s3://run-time-value/" if key == "S3OutputPath" and is_pipeline_expression(value) else value


@attrs.frozen
class Explained:
    """One request of a document explained: its ``findings`` as :func:`validate_document` reports them (the same
    file positions, pointers and messages), and explain's ``report`` without its own request-relative findings;
    or, when the objects refuse a value of the request, no report and ``refused``, the error."""

    located: Located
    findings: List[Any]
    report: Optional[Dict[str, Any]] = None
    refused: Optional[ConfigError] = None


def explain_document(document: Any, kind: str, locate: Locator, options: Dict[str, Any],
                     **settings: Any) -> List[Explained]:
    """Every request in ``document`` :class:`Explained`: its findings are :func:`validate_document`'s with
    ``options``, its report that of :func:`~sm_debug_config.explaining.explain_model` for the objects the request
    renders from (``settings`` stand in for what it does not hold). An S3 path known only at run time is explained
    as ``s3://run-time-value/``. What the objects' constructors warn about is left to the findings, as
    ``validate`` leaves it.
    """
    out = []
    for located in KINDS[kind].requests(document):
        findings, _ = _checked(located, kind, locate, options)
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
