"""Validate and explain the requests of an orchestration document, each finding placed in the document.

What ``validate`` and ``explain`` do with a document of a kind of :data:`~sm_debug_config.documents.KINDS`,
kept out of the command line so that Python callers get the same: every request is checked with its
kind's run-time values known (:func:`~sm_debug_config.documents.checking`), and each finding's path is the
document's JSON pointer, its position the document's line and column.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple


from sm_debug_config.configfile import DocumentLocator
from sm_debug_config.documents import KINDS, Located, checking
from sm_debug_config.validation import validate_split

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
