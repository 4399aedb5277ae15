"""Code actions: each finding's fix (:class:`~sm_debug_config.fixes.Fix`, its edits placed by the source that read
the text), labelled safe or unsafe; "ignore CODE on this line" (lint's suppression comment,
:data:`~sm_debug_config.lint.run.IGNORE_COMMENT`); and "fix all safe" for the document, computed as ``--fix``
does: apply one pass of non-overlapping safe fixes, check again, until none is left.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence

from lsprotocol import types

from sm_debug_config.cli import fixing
from sm_debug_config.fixes import Edit, apply_cell_edits, applicable
from sm_debug_config.lint.run import IGNORE_COMMENT
from sm_debug_config.server.checking import LINT, Piece, Diagnosed, Settings, check
from sm_debug_config.reports import FileReport
from sm_debug_config.server.text import TextLines

__all__ = ["FIX_ALL", "code_actions", "fix_all", "ignore_edit", "wants_fix_all"]

#: The kind of the "fix all safe" action (``source.fixAll`` as ruff's server names its own).
FIX_ALL = types.CodeActionKind.SourceFixAll.value + ".sm-debug-config"


def _wanted(params: types.CodeActionParams, kind: str) -> bool:
    only = params.context.only
    return not only or any(kind == str(getattr(each, "value", each)) or kind.startswith(
        str(getattr(each, "value", each)) + ".") for each in only)


def wants_fix_all(params: types.CodeActionParams, problems: Sequence[Diagnosed]) -> bool:
    """Whether the client asks for actions "fix all" is one of, and a safe fix has edits."""
    return _wanted(params, FIX_ALL) and any(
        problem.finding is not None and applicable(problem.finding.fix) for problem in problems)


def _overlaps(a: types.Range, b: types.Range) -> bool:
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and (
        b.start.line, b.start.character) <= (a.end.line, a.end.character)


def code_actions(
    params: types.CodeActionParams,
    problems: Sequence[Diagnosed],
    pieces: Sequence[Piece],
    versions: Dict[str, Optional[int]],
    command: str,
    fixed: Optional[Dict[str, str]] = None,
    encoding: str = "utf-16",
) -> List[types.CodeAction]:
    """The actions at ``params.range`` of ``params.text_document`` (a document or a notebook cell): the fix of each
    diagnostic there and its "ignore" comment (Python), then "fix all safe" (``fixed``: each changed piece's new
    text)."""
    uri = params.text_document.uri
    texts = {piece.uri: piece.text for piece in pieces}
    out: List[types.CodeAction] = []
    for problem in problems:
        finding = problem.finding
        if finding is None or problem.uri != uri or not _overlaps(problem.diagnostic.range, params.range):
            continue
        fix = finding.fix
        if fix is not None and fix.edits is not None and _wanted(params, types.CodeActionKind.QuickFix.value):
            changes = _edits(fix.edits, problem.uri, pieces, encoding)
            if changes:
                out.append(types.CodeAction(
                    title=f"{fix.title} ({fix.applicability} fix)", kind=types.CodeActionKind.QuickFix,
                    diagnostics=[problem.diagnostic], is_preferred=fix.safe,
                    edit=_workspace_edit(changes, versions)))
        if command == LINT and _wanted(params, types.CodeActionKind.QuickFix.value):
            found = ignore_edit(texts.get(problem.uri, ""), problem.diagnostic.range.start.line, finding.code, encoding)
            if found is not None:
                out.append(types.CodeAction(
                    title=f"Ignore {finding.code} on this line", kind=types.CodeActionKind.QuickFix,
                    diagnostics=[problem.diagnostic], edit=_workspace_edit({problem.uri: [found]}, versions)))
    if fixed and _wanted(params, FIX_ALL):
        changes = {}
        for piece_uri, text in fixed.items():
            old = TextLines(texts[piece_uri], encoding)
            end = old.position_of(len(old.text))
            changes[piece_uri] = [types.TextEdit(range=types.Range(types.Position(0, 0), types.Position(*end)),
                                                 new_text=text)]
        out.append(types.CodeAction(title="Fix all safe sm-debug-config findings", kind=FIX_ALL,
                                    edit=_workspace_edit(changes, versions)))
    return out


def _edits(edits: Sequence[Edit], uri: str, pieces: Sequence[Piece], encoding: str) -> Dict[str, List[types.TextEdit]]:
    """A fix's edits as LSP text edits by document: an edit of no cell is in the finding's document, a cell's in
    that cell (its index among all the notebook's cells)."""
    out: Dict[str, List[types.TextEdit]] = {}
    lines: Dict[str, TextLines] = {}
    for edit in edits:
        if edit.cell is None:
            piece = next((p for p in pieces if p.uri == uri), None)
        else:
            piece = pieces[edit.cell] if 0 <= edit.cell < len(pieces) else None
        if piece is None:
            return {}  # an edit the server cannot place: no action rather than half of one
        text = lines.setdefault(piece.uri, TextLines(piece.text, encoding))
        start, end = text.position_of(edit.start), text.position_of(edit.end)
        out.setdefault(piece.uri, []).append(types.TextEdit(
            range=types.Range(types.Position(*start), types.Position(*end)), new_text=edit.content))
    return out


def _workspace_edit(
    changes: Dict[str, List[types.TextEdit]], versions: Dict[str, Optional[int]]
) -> types.WorkspaceEdit:
    return types.WorkspaceEdit(document_changes=[
        types.TextDocumentEdit(text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri,
                                                                                           version=versions.get(uri)),
                               edits=edits)
        for uri, edits in changes.items()])


def ignore_edit(text: str, line: int, code: str, encoding: str = "utf-16") -> Optional[types.TextEdit]:
    """The edit that makes lint ignore ``code`` on the 0-based ``line`` of ``text``: the code added to the line's
    ``# sm-debug-config: ignore[...]`` comment, or such a comment put at the line's end; None when the line ignores
    it already.

    >>> ignore_edit("x = 1\\n", 0, "SMD120").new_text
    '  # sm-debug-config: ignore[SMD120]'
    >>> ignore_edit("x = 1  # sm-debug-config: ignore[SMD121]\\n", 0, "SMD120").new_text
    ', SMD120'
    """
    lines = TextLines(text, encoding)
    written = lines.line(line)
    found = IGNORE_COMMENT.search(written)
    if found is not None:
        if found.group(1) is None or code in {c.strip().upper() for c in found.group(1).split(",")}:
            return None
        at = lines.starts[line] + found.end(1)
        insert = f", {code}" if found.group(1).strip() else code
    else:
        at = lines.starts[line] + len(written)
        insert = f"  # sm-debug-config: ignore[{code}]"
    position = types.Position(*lines.position_of(at))
    return types.TextEdit(range=types.Range(position, position), new_text=insert)


def fix_all(path: str, command: str, pieces: Sequence[Piece], kinds: Optional[Sequence[bool]],
            settings: Settings) -> Optional[Dict[str, str]]:
    """The new text of each piece the safe fixes change, as ``--fix`` makes them (its loop,
    :func:`~sm_debug_config.cli.fixing.fix_loop`, over the pieces' texts by cell); None when nothing changes."""
    keys: List[Optional[int]] = list(range(len(pieces))) if kinds is not None else [None]

    def checked(texts: Dict[Optional[int], str]) -> FileReport:
        return check(path, command, [Piece(piece.uri, texts[key]) for key, piece in zip(keys, pieces)], settings,
                     cell_kinds=kinds)

    start = {key: piece.text for key, piece in zip(keys, pieces)}
    texts, _, _ = fixing.fix_loop(start, checked(start), checked, fixing.Fixing(write=True), apply=apply_cell_edits)
    changed = {piece.uri: texts[key] for key, piece in zip(keys, pieces) if texts[key] != piece.text}
    return changed or None
