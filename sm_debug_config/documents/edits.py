"""A fix's change to a request of an orchestration document, as edits of the document's text (:mod:`.fixes`).

The change's request path is carried to where the document writes it (:meth:`~.base.Located.relative_path`: a
``Key.$`` key, a Terraform block in snake_case, :func:`.terraform.written_path`), and the change is made there by
:func:`~sm_debug_config.textedit.change_edits` on the document's text (JSON, YAML or Terraform HCL, each a
:class:`~sm_debug_config.textedit.Tree`). A request read from JSON text in a string (:class:`~.base.Embedded`:
a pipeline body, a state machine's ``DefinitionString``, an ``Fn::Sub`` of one) is edited in that text, and each
edit carried into the file with the string's escaping (``\\"`` in a JSON template, the indentation of a YAML
block, ``${!`` for a ``${`` inside an ``Fn::Sub``, ``$${`` inside a Terraform string).

A value known only at run time (``{"Fn::Sub": "s3://${Bucket}/"}``, a ``Key.$`` path, a Terraform reference) is
written by whoever deploys the document: a ``set`` over it is not placed (None); text put before one is.
"""
from __future__ import annotations

from typing import Any, Callable, List, Optional

from sm_debug_config import textedit
from sm_debug_config.apischema import is_pipeline_expression
from sm_debug_config.documents import checking, cloudformation, terraform
from sm_debug_config.documents.base import Located, Path, step_into
from sm_debug_config.fixes import PREFIX, RENAME, SET, Change, Edit

__all__ = ["document_tree", "located_edits"]

#: The run-time values a text can be put before: string templates (their ``${...}`` filled in on deployment).
_TEMPLATES = ("Fn::Sub", "Terraform")


def document_tree(found: Any, kind: str) -> Optional[textedit.Tree]:
    """The text of ``found`` (a file read: a ``ConfigFile``, or an ``HclFile`` with its own tree) as a tree to edit,
    or None when there is no text to edit (data given as such, ``terraform show -json`` output)."""
    tree = getattr(found, "tree", None)
    if callable(tree):
        return tree()  # type: ignore[no-any-return]
    text = getattr(found, "text", None)
    if not isinstance(text, str):
        return None
    if kind == "terraform":
        if isinstance(found.document, dict) and terraform.is_output(found.document):
            return None  # what Terraform printed: fixed in the configuration, not here
        return textedit.JsonTree(text, textedit.template_literal) if found.is_json else None
    if found.is_json:
        return textedit.JsonTree(text)
    return textedit.YamlTree(text, dict(cloudformation.YAML_TAGS) if kind == "cloudformation" else None)


def _runtime(value: Any, kind: str) -> bool:
    with checking(kind):
        return is_pipeline_expression(value)


def _written(located: Located, kind: str, path: Path) -> Path:
    """The path below ``located``'s request object (or its embedding text's root) where ``path`` is written."""
    relative = terraform.written_path(located, path) if kind == "terraform" else located.relative_path(path)
    return (located.embedded.base if located.embedded is not None else located.base) + relative


def located_edits(tree: textedit.Tree, located: Located, kind: str, change: Change) -> Optional[List[Edit]]:
    """The edits of the document's text (``tree``) that make ``change`` (to ``located``'s request); None where the
    text cannot take it (a value known at run time set over, a member the text does not have, a string this
    reading cannot account for)."""
    if not change.path:
        return None
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
    if change.kind == PREFIX and isinstance(current, dict):
        if not (len(current) == 1 and next(iter(current)) in _TEMPLATES and _runtime(current, kind)):
            return None  # a reference, a path: no text of ours to put it before
        if kind == "cloudformation" and located.embedded is None:
            path += ("Fn::Sub",)  # {"Fn::Sub": text} (YAML's !Sub text reads the same)
    if located.embedded is None:
        return textedit.change_edits(tree, change.kind, path, value)
    host = tree.string(located.embedded.at)
    if host is None:
        return None
    inner = textedit.JsonTree(located.embedded.json.text)
    edits = textedit.change_edits(inner, change.kind, path, value)
    literal: Callable[[str], str] = textedit.fn_sub_literal if "Fn::Sub" in located.embedded.at else _same
    placed = [host.edit(edit, literal) for edit in edits or ()]
    return None if edits is None or any(edit is None for edit in placed) else [e for e in placed if e is not None]


def _same(text: str) -> str:
    return text
