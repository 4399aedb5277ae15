"""Orchestration documents (Step Functions, Pipelines, CloudFormation, Terraform): a job per ``CreateTrainingJob``
request they hold, each finding at the document's pointer and position, its message ending with the request's label,
and each fix's changes placed as edits of the document's text (:mod:`sm_debug_config.documents.edits`).
The formats themselves are :mod:`sm_debug_config.documents` (one module each, reading and writing it);
``explain`` of each request is :mod:`.explained`.
"""
from __future__ import annotations

import functools
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence

from sm_debug_config.documents import KINDS, Located, checking
from sm_debug_config.documents.checks import position
from sm_debug_config.configfile.textedit import TextEditor
from sm_debug_config.documents.edits import document_editor, located_edits
from sm_debug_config.engine import Job
from sm_debug_config.findings import Finding
from sm_debug_config.fixes import Change, Edit
from sm_debug_config.rendering import Rendered


def jobs_of(kind: str) -> Callable[[Any, Dict[str, Any]], Iterator[Job]]:
    """The ``jobs`` function of the documents of ``kind`` (a key of :data:`~sm_debug_config.documents.KINDS`)."""
    return functools.partial(_jobs, kind)


class _Text:
    """The document's editor, made once and only when a first fix is placed."""

    def __init__(self, found: Any, kind: str) -> None:
        self.found, self.kind = found, kind
        self._editor: List[Optional[TextEditor]] = []

    def editor(self) -> Optional[TextEditor]:
        if not self._editor:
            self._editor.append(document_editor(self.found, self.kind))
        return self._editor[0]


def _jobs(kind: str, found: Any, settings: Dict[str, Any]) -> Iterator[Job]:
    text = _Text(found, kind)
    for located in KINDS[kind].requests(found.document):
        yield Job(request=located.request, place=functools.partial(_place, located, found.locate),
                  edit=functools.partial(_edit, text, located, kind),
                  label=located.label, context=functools.partial(checking, kind))


def _place(located: Located, locate: Any, finding: Finding, rendered: Optional[Rendered]) -> Finding:
    line, column = position(located, finding.path, locate) or (None, None)
    return finding.replace(path=located.document_path(finding.path), line=line, column=column,
                           message=f"{finding.message} ({located.label})")


def _edit(text: _Text, located: Located, kind: str, change: Change,
          rendered: Optional[Rendered]) -> Optional[Sequence[Edit]]:
    editor = text.editor()
    return None if editor is None else located_edits(editor, located, kind, change)
