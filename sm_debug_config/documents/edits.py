"""A fix's change to a request of an orchestration document, as edits of the document's text (:mod:`.fixes`).

The change's request path is carried to where the document writes it (:meth:`~.base.Located.relative_path`: a
``Key.$`` key, a Terraform block in snake_case, :func:`.terraform.written_path`), and the document's editor makes it
there (:mod:`sm_debug_config.configfile.textedit` for JSON and YAML, :class:`.hcl.HclEditor` for Terraform HCL),
each edit checked by reading the text again. A request read from JSON text in a string (:class:`~.base.Embedded`:
a pipeline body, a state machine's ``DefinitionString``, an ``Fn::Sub`` of one) is edited in that text, and each
edit carried into the file with the string's escaping (:mod:`sm_debug_config.stringedit`: ``\\"`` in a JSON
template, the indentation of a YAML ``|`` block or a heredoc).

Text written inside a template is written as literal text of it: ``${`` is ``${!`` in an ``Fn::Sub`` string and
``$${`` in any Terraform string. A value known only at run time (``{"Fn::Sub": "s3://${Bucket}/"}``, a ``Key.$``
path, a Terraform reference) is written by whoever deploys the document: a ``set`` over it is not placed (None);
text put before one is.
"""
from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence, Tuple

from sm_debug_config import stringedit
from sm_debug_config.apischema import is_pipeline_expression
from sm_debug_config.configfile.jsonparse import JsonText
from sm_debug_config.configfile.textedit import JsonEditor, TextEditor
from sm_debug_config.documents import checking, terraform
from sm_debug_config.documents.base import Located, Path, step_into
from sm_debug_config.documents.hcl import HclEditor
from sm_debug_config.fixes import PREFIX, RENAME, SET, Change, Edit
from sm_debug_config.limits import json_loads

__all__ = ["document_editor", "located_edits"]

#: The run-time values a text can be put before: string templates (their ``${...}`` filled in on deployment).
_TEMPLATES = ("Fn::Sub", "Terraform")


def document_editor(found: Any, kind: str) -> Optional[TextEditor]:
    """The editor of the text of ``found`` (a file read: a ``ConfigFile`` or an ``HclFile``), or None when there is
    no text of the user's to edit (``terraform show -json`` output: the configuration is what gets fixed)."""
    editor = getattr(found, "editor", None)
    if not callable(editor):
        return None
    if kind == "terraform" and isinstance(found.document, dict) and terraform.is_output(found.document):
        return None
    return editor()  # type: ignore[no-any-return]


def _same(text: str) -> str:
    return text


def _literal(kind: str, at: Sequence[Any]) -> Callable[[str], str]:
    """How text is written as literal text where ``at`` (a document path) is: inside an ``Fn::Sub`` string, any
    Terraform string, or plain."""
    if kind == "terraform":
        return stringedit.template_literal
    return stringedit.fn_sub_literal if "Fn::Sub" in at else _same


def _literals(value: Any, literal: Callable[[str], str]) -> Any:
    if isinstance(value, dict):
        return {key: _literals(item, literal) for key, item in value.items()}
    if isinstance(value, list):
        return [_literals(item, literal) for item in value]
    return literal(value) if isinstance(value, str) else value


def _runtime(value: Any, kind: str) -> bool:
    with checking(kind):
        return is_pipeline_expression(value)


def _written(located: Located, kind: str, path: Path) -> Path:
    """The path below ``located``'s request object (or its embedding text's root) where ``path`` is written."""
    relative = terraform.written_path(located, path) if kind == "terraform" else located.relative_path(path)
    return (located.embedded.base if located.embedded is not None else located.base) + relative


def _document_change(located: Located, kind: str, change: Change) -> Optional[Tuple[Change, bool]]:
    """``change`` to the request as a change at the document's (or its embedding text's) path, and whether it goes
    into an ``Fn::Sub`` string of the document itself; None where it cannot be written there."""
    current = step_into(located.request, tuple(change.path))
    if change.kind == SET and current is not None and _runtime(current, kind):
        return None
    path = _written(located, kind, tuple(change.path))
    value = change.value
    if change.kind == RENAME:
        if not isinstance(value, str):
            return None
        new = _written(located, kind, tuple(change.path[:-1]) + (value,))[-1]
        value = new if isinstance(new, str) else value
        if isinstance(path[-1], str) and path[-1].endswith(".$") and not value.endswith(".$"):
            value += ".$"  # a Key.$ entry keeps its run-time mark
    into_sub = False
    if change.kind == PREFIX and isinstance(current, dict):
        if not (len(current) == 1 and next(iter(current)) in _TEMPLATES and _runtime(current, kind)):
            return None  # a reference, a path: no text of the user's to put it before
        if next(iter(current)) == "Fn::Sub" and located.embedded is None:
            path, into_sub = path + ("Fn::Sub",), True  # {"Fn::Sub": text} (YAML's !Sub text reads the same)
    return Change(change.kind, path, value), into_sub


def located_edits(editor: TextEditor, located: Located, kind: str, change: Change) -> Optional[List[Edit]]:
    """The edits of the document's text (its ``editor``) that make ``change`` (to ``located``'s request); None
    where the text cannot take it (a value known at run time set over, a member the text does not have, a string
    this reading cannot account for, an edit that would not read back as the change)."""
    if not change.path:
        return None
    placed = _document_change(located, kind, change)
    if placed is None:
        return None
    moved, into_sub = placed
    embedded = located.embedded
    if embedded is None:
        if kind == "terraform" or into_sub:
            literal = _literal(kind, moved.path)
            moved = Change(moved.kind, moved.path, _literals(moved.value, literal) if moved.kind != RENAME else
                           moved.value)
        if into_sub and moved.kind == PREFIX:  # the tagged or Fn::Sub string, as a host of its text
            host = _host(editor, moved.path[:-1] if _tagged(editor, moved.path) else moved.path)
            made = host.edit(Edit(0, 0, str(moved.value))) if host is not None else None
            return None if made is None else [made]
        return editor.edits(moved)
    host = _host(editor, embedded.at)
    if host is None:
        return None
    inner = JsonEditor(JsonText(embedded.json.text), json_loads(embedded.json.text), json_loads)
    edits = inner.edits(moved)
    literal = _literal(kind, embedded.at)
    carried = [host.edit(edit, literal) for edit in edits or ()]
    if edits is None or any(edit is None for edit in carried):
        return None
    return [edit for edit in carried if edit is not None]


def _tagged(editor: TextEditor, path: Path) -> bool:
    """Whether ``path`` (ending ``Fn::Sub``) is a YAML ``!Sub`` string, read as the one-key mapping it stands for."""
    return editor.string_span(path) is None and editor.string_span(path[:-1]) is not None


def _host(editor: TextEditor, at: Path) -> Optional[stringedit.HostString]:
    """The string at document path ``at`` as a host of edits of its text."""
    if isinstance(editor, HclEditor):
        return editor.host(at)
    span = editor.string_span(at)
    value = step_into(editor.document, at)
    if span is None or not isinstance(value, str):
        return None
    return stringedit.host_string(editor.text, span[0], span[1], value)
