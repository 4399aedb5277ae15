"""Validate and explain the requests of an orchestration document, each finding placed in the document.

What ``validate`` and ``explain`` do with a document of a kind of :data:`~sm_debug_config.documents.KINDS`,
kept out of the command line so that Python callers get the same: every request is checked with its
kind's run-time values known (:func:`~sm_debug_config.documents.checking`), and each finding's path is the
document's JSON pointer, its position the document's line and column.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import attrs

from sm_debug_config.configfile import DocumentLocator
from sm_debug_config.documents import KINDS, Located, checking
from sm_debug_config.errors import ConfigError
from sm_debug_config.findings import collecting

Locator = Callable[[Sequence[Any]], Optional[Tuple[int, int]]]


def position(located: Located, path: Sequence[Any], locate: Locator) -> Optional[Tuple[int, int]]:
    """``(line, column)`` in the file of request ``path`` of ``located``: where ``locate`` puts its document path;
    for a request read from JSON text in a string, the key inside the text, when ``locate`` is a
    :class:`~sm_debug_config.configfile.DocumentLocator` that places the string's characters; else the string's own
    key (the key of a value the text does not have: that of its deepest part the text has).

    >>> from sm_debug_config.configfile.document import parse_text
    >>> from sm_debug_config.documents import requests
    >>> text = ('Resources:\\n  P:\\n    Type: AWS::SageMaker::Pipeline\\n    Properties:\\n'
    ...         '      PipelineDefinition:\\n        PipelineDefinitionBody: |\\n'
    ...         '          {"Steps": [{"Type": "Training", "Arguments": {"RoleArn": "r"}}]}\\n')
    >>> parsed = parse_text(text, "t.yaml", None, require_mapping=False)
    >>> (found,) = requests(parsed.data())
    >>> position(found, ("RoleArn",), parsed.locator()), position(found, ("RoleArn",), lambda path: (6, 9))
    ((7, 57), (6, 9))
    """
    embedded = located.embedded
    if embedded is None:
        return locate(located.document_path(path))
    places = locate.string(embedded.at) if isinstance(locate, DocumentLocator) else None
    index = embedded.index(located.relative_path(path)) if places is not None else None
    found = places.position(index) if places is not None and index is not None else None
    return found or locate(embedded.at)


def _checked(located: Located, kind: str, locate: Locator, options: Dict[str, Any]) -> Tuple[List[Any], List[Any]]:
    """``(findings, suppressed)`` of one request: each finding's ``path`` the document's pointer, its ``line`` and
    ``column`` :func:`position`'s, its message ending with the request's label."""
    from sm_debug_config.validation import validate_split

    with checking(kind):
        kept, dropped = validate_split(located.request, **options)
    findings = []
    for finding in kept:
        line, column = position(located, finding.path, locate) or (None, None)
        findings.append(finding.replace(path=located.document_path(finding.path), line=line, column=column,
                                        message=f"{finding.message} ({located.label})"))
    return _in_file_order(findings), dropped


def _in_file_order(findings: List[Any]) -> List[Any]:
    return sorted(findings, key=lambda f: (f.line is None, f.line or 0, f.column or 0))


def validate_document(document: Any, kind: str, locate: Locator, **options: Any) -> Tuple[List[Any], List[Any], int]:
    """``(findings, suppressed, requests)``: :func:`~sm_debug_config.validation.validate_split` of every request
    in ``document`` (``options`` as there), each finding's ``path`` the document's pointer, its ``line`` and
    ``column`` where :func:`position` puts it, its message ending with the request's label; in file order.

    >>> machine = {"StartAt": "T", "States": {"T": {"Type": "Task", "End": True,
    ...     "Resource": "arn:aws:states:::sagemaker:createTrainingJob",
    ...     "Parameters": {"DebugHookConfig": {"S3OutputPath.$": "$.out", "HookParameters": {"save_interval": "0"}}}}}}
    >>> findings, _, count = validate_document(machine, "stepfunctions", lambda path: None, region="us-east-1")
    >>> count, sorted((f.code, f.pointer) for f in findings)
    (1, [('SMD001', '/States/T/Parameters/DebugHookConfig/S3OutputPath.$'),
         ('SMD132', '/States/T/Parameters/DebugHookConfig/HookParameters/save_interval')])
    """
    findings: List[Any] = []
    suppressed: List[Any] = []
    found = list(KINDS[kind].requests(document))
    for located in found:
        kept, dropped = _checked(located, kind, locate, options)
        findings += kept
        suppressed += dropped
    return _in_file_order(findings), suppressed, len(found)


def _known(value: Any, key: str = "") -> Any:
    """``value`` with each S3 path known only at run time written ``s3://run-time-value/`` (explain needs a path)."""
    from sm_debug_config.apischema import is_pipeline_expression

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

    from sm_debug_config.explaining import explain_model
    from sm_debug_config.rendering import render_arguments
    from sm_debug_config.reverse import from_request

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
