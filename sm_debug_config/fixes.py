"""Fixes: what a finding would change, as a value, in the request and in the text the user wrote.

A check that knows the intended value attaches a :class:`Fix` to its finding (as ruff's ``Fix``): an
``applicability`` (``safe``: the meaning is certain and kept; ``unsafe``: the change is likely what was meant but
changes what runs) and its :class:`Change` values, each a change to the **request** at a path (set a member, rename
a key, remove a member, put text before a string). That is the fix a Python caller applies to a request dict
(:meth:`Fix.apply`). A source (:mod:`sm_debug_config.sources`) turns each change into :class:`Edit` values on the
text it read (a character range and its replacement, in that format's syntax), through its source map; the engine
stores them in :attr:`Fix.edits`. A change the source cannot place leaves the fix without edits: the finding still
says what to change, the text is not touched.

:func:`apply_edits` applies the edits of several fixes to one text in one pass: a fix whose edits overlap an edit
already taken is deferred to the next pass (the caller checks again and applies again until nothing is left, as
ruff does).

>>> fix = Fix(SAFE, "write 20 as the string '20'",
...           (Change(SET, ("DebugRuleConfigurations", 0, "RuleParameters", "num_steps"), "20"),))
>>> fix.apply({"DebugRuleConfigurations": [{"RuleParameters": {"num_steps": 20}}]})
{'DebugRuleConfigurations': [{'RuleParameters': {'num_steps': '20'}}]}
>>> apply_edits('{"num_steps": 20}', [(Edit(14, 16, '"20"'),)])
('{"num_steps": "20"}', 1)
"""
from __future__ import annotations

import copy
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import attrs

from sm_debug_config.codes import FIX_APPLICABILITIES
from sm_debug_config.errors import PathT, pointer

__all__ = [
    "APPLICABILITIES",
    "KINDS",
    "PREFIX",
    "REMOVE",
    "RENAME",
    "SAFE",
    "SET",
    "UNSAFE",
    "Change",
    "Edit",
    "Fix",
    "apply_cell_edits",
    "apply_edits",
    "applicable",
]

#: The applicabilities of a fix, as ruff names them: ``--fix`` applies the safe ones, ``--unsafe-fixes`` both (the
#: table of codes names them too: each code's row says which its findings carry).
APPLICABILITIES = FIX_APPLICABILITIES
SAFE, UNSAFE = APPLICABILITIES

SET = "set"  #: set the member at ``path`` to ``value`` (adding it when absent)
RENAME = "rename"  #: rename the key at ``path`` to ``value`` (its value kept)
REMOVE = "remove"  #: remove the member at ``path`` (a key and its value, or a list item)
PREFIX = "prefix"  #: put the text ``value`` before the string at ``path`` (``s3://`` before ``bucket/out``)
#: Every kind of :class:`Change`; a source places each kind in its own syntax.
KINDS = (SET, RENAME, REMOVE, PREFIX)


def _path(parts: Sequence[Union[str, int]]) -> PathT:
    return tuple(parts)


def _kind(instance: Any, attribute: Any, value: str) -> None:
    if value not in KINDS:
        raise ValueError(f"{attribute.name}: {value!r} (allowed: {', '.join(KINDS)})")


def _applicability(instance: Any, attribute: Any, value: str) -> None:
    if value not in APPLICABILITIES:
        raise ValueError(f"{attribute.name}: {value!r} (allowed: {', '.join(APPLICABILITIES)})")


@attrs.frozen
class Change:
    """One change to a request: ``kind`` (:data:`KINDS`), the ``path`` it is at (the same space as the finding's
    path: a request path, or a path below an object for a constructor's finding) and its ``value`` (the new value,
    the new key, or the text put before; None for a removal).

    >>> Change(RENAME, ("RuleParameters", "tensor_regexx"), "tensor_regex").pointer
    '/RuleParameters/tensor_regexx'
    """

    kind: str = attrs.field(validator=_kind)
    path: PathT = attrs.field(converter=_path)
    value: Any = None

    @property
    def pointer(self) -> str:
        """``path`` as a JSON pointer."""
        return pointer(*self.path)

    def under(self, prefix: Sequence[Union[str, int]]) -> "Change":
        """The same change with ``prefix`` put before its path."""
        return attrs.evolve(self, path=tuple(prefix) + self.path)

    def apply(self, document: Any) -> None:
        """Make this change in ``document`` (nested dicts and lists), in place. A path the document does not have is
        a ``LookupError`` naming it."""
        if not self.path:
            raise LookupError("a change needs a path below the document's root")
        try:
            self._apply(document)
        except (LookupError, TypeError):
            raise LookupError(f"{self.pointer}: cannot {self.kind} there: the document has no such place (apply a "
                              "fix to the request its finding was found in)") from None

    def _apply(self, document: Any) -> None:
        parent = document
        for part in self.path[:-1]:
            parent = parent[part]
        last = self.path[-1]
        if self.kind == SET:
            if isinstance(parent, list) and not (isinstance(last, int) and -len(parent) <= last < len(parent)):
                raise LookupError(last)
            parent[last] = self.value
        elif self.kind == RENAME:
            if not isinstance(parent, dict):
                raise LookupError(last)  # only an object's key can be renamed
            parent[self.value] = parent.pop(last)
        elif self.kind == REMOVE:
            del parent[last]
        else:
            if not isinstance(parent[last], str):
                raise TypeError(last)  # text is put before a string only
            parent[last] = str(self.value) + parent[last]

    def to_dict(self) -> Dict[str, Any]:
        """The change as JSON output writes it."""
        out: Dict[str, Any] = {"kind": self.kind, "path": self.pointer}
        if self.kind != REMOVE:
            out["value"] = self.value
        return out


@attrs.frozen
class Edit:
    """A replacement of the characters ``start``..``end`` (Python string indexes, end excluded) of a source's text by
    ``content``; ``cell``: the index of the notebook cell whose source the offsets are in (None: the file's text).
    An insertion has ``start == end``, a deletion an empty ``content``.

    >>> Edit(3, 3, "s3://").apply("tb=bucket"[:3] + "bucket")
    'tb=s3://bucket'
    """

    start: int
    end: int
    content: str
    cell: Optional[int] = None

    def apply(self, text: str) -> str:
        """``text`` with this edit made."""
        return text[: self.start] + self.content + text[self.end:]

    def overlaps(self, other: "Edit") -> bool:
        """Whether the two edits touch the same characters (two insertions at one place count as overlapping: their
        order would be a guess)."""
        if self.cell != other.cell:
            return False
        if self.start == self.end or other.start == other.end:
            return self.start <= other.end and other.start <= self.end
        return self.start < other.end and other.start < self.end

    def to_dict(self, text: Optional[str] = None) -> Dict[str, Any]:
        """The edit as JSON output writes it: offsets, and with ``text`` (the text the offsets are in) the 1-based
        ``location`` and ``end_location`` (line and column in characters), as ruff's JSON output has them."""
        out: Dict[str, Any] = {"content": self.content, "start": self.start, "end": self.end}
        if self.cell is not None:
            out["cell"] = self.cell
        if text is not None:
            out["location"] = _position(text, self.start)
            out["end_location"] = _position(text, self.end)
        return out


def _position(text: str, index: int) -> Dict[str, int]:
    line = text.count("\n", 0, index) + 1
    return {"line": line, "column": index - (text.rfind("\n", 0, index) + 1) + 1}


def _order(edit: Edit) -> Tuple[int, int, int, int]:
    return (edit.cell is not None, edit.cell or 0, edit.start, edit.end)


def _changes(value: Sequence[Change]) -> Tuple[Change, ...]:
    return tuple(value)


def _edits(value: Any) -> Optional[Tuple[Edit, ...]]:
    return None if value is None else tuple(sorted(value, key=_order))


@attrs.frozen
class Fix:
    """How to mend one finding: ``applicability`` (:data:`APPLICABILITIES`), ``title`` (what it does, for people),
    ``changes`` (to the request) and ``edits`` (to the source's text, sorted; None when the source could not place
    every change, or before a source placed them)."""

    applicability: str = attrs.field(validator=_applicability)
    title: str
    changes: Tuple[Change, ...] = attrs.field(converter=_changes)
    edits: Optional[Tuple[Edit, ...]] = attrs.field(default=None, converter=_edits)

    @property
    def safe(self) -> bool:
        return self.applicability == SAFE

    def under(self, prefix: Sequence[Union[str, int]]) -> "Fix":
        """The same fix with ``prefix`` put before each change's path."""
        return attrs.evolve(self, changes=tuple(change.under(prefix) for change in self.changes))

    def apply(self, request: Any) -> Any:
        """A copy of ``request`` with every change made (the original is not touched).

        >>> Fix(UNSAFE, "add s3://", (Change(PREFIX, ("TensorBoardOutputConfig", "S3OutputPath"), "s3://"),)).apply(
        ...     {"TensorBoardOutputConfig": {"S3OutputPath": "bucket/tb"}})
        {'TensorBoardOutputConfig': {'S3OutputPath': 's3://bucket/tb'}}
        """
        out = copy.deepcopy(request)
        for change in self.changes:
            change.apply(out)
        return out

    def to_dict(self, text: Optional[str] = None) -> Dict[str, Any]:
        """The fix as JSON output writes it (ruff's shape: ``applicability``, ``message``, ``edits``), with the
        request changes; ``edits`` is empty where the source could not place them."""
        return {
            "applicability": self.applicability,
            "message": self.title,
            "changes": [change.to_dict() for change in self.changes],
            "edits": [edit.to_dict(text) for edit in self.edits or ()],
        }


def applicable(fix: Optional[Fix], *, unsafe: bool = False) -> bool:
    """Whether ``fix`` is applied to the text: it has edits, and it is safe or ``unsafe`` fixes are on."""
    return fix is not None and fix.edits is not None and (fix.safe or unsafe)


def apply_edits(text: str, fixes: Sequence[Sequence[Edit]]) -> Tuple[str, int]:
    """``text`` (a file's text: edits of no cell) with the edits of as many of ``fixes`` as one pass can take, and
    how many were taken (:func:`apply_cell_edits`)."""
    texts, count = apply_cell_edits({None: text}, fixes)
    return texts[None], count


def apply_cell_edits(
    texts: Dict[Optional[int], str], fixes: Sequence[Sequence[Edit]]
) -> Tuple[Dict[Optional[int], str], int]:
    """``texts`` (by cell: a notebook's cells' sources, or ``{None: text}``) with the edits of as many of ``fixes``
    (each a sequence of edits) as one pass can take, and how many were taken: in order, a fix none of whose edits
    overlaps an edit taken already; the rest wait for the next pass. A fix with an edit in a text not given is
    left out."""
    taken: List[Edit] = []
    count = 0
    for edits in fixes:
        if not edits or any(edit.cell not in texts for edit in edits):
            continue
        if any(edit.overlaps(other) for edit in edits for other in taken) or _self_overlapping(edits):
            continue
        taken.extend(edits)
        count += 1
    out = dict(texts)
    for edit in sorted(taken, key=_order, reverse=True):
        out[edit.cell] = edit.apply(out[edit.cell])  # from the end, so earlier offsets stay right
    return out, count


def _self_overlapping(edits: Sequence[Edit]) -> bool:
    ordered = sorted(edits, key=_order)
    return any(a.overlaps(b) for a, b in zip(ordered, ordered[1:]))
