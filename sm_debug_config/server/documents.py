"""The documents the editor has open, as the server checks them: text documents, and notebooks as their cells.

The server keeps its own copy rather than pygls's workspace: pygls 2.1 applies an incremental change through
``str.splitlines``, which also ends a line at a form feed, ``\\x1c``-``\\x1e``, ``\\x85``, U+2028 and U+2029, so
a Python source with a form feed (legal whitespace) would drift from the editor's text at the first edit below it.
Here a change is applied with LSP's own line ends (:class:`~sm_debug_config.server.text.TextLines`) and the
position encoding agreed with the client.

>>> store = Documents()
>>> store.open("file:///a.py", "import os\\x0c\\nx = 1\\n", 1, "python")
>>> store.change("file:///a.py", 2, [types.TextDocumentContentChangePartial(
...     range=types.Range(types.Position(1, 0), types.Position(1, 1)), text="y")])
>>> store.texts["file:///a.py"].text
'import os\\x0c\\ny = 1\\n'
"""
from __future__ import annotations

from typing import Dict, List, NamedTuple, Optional, Sequence

from lsprotocol import types

from sm_debug_config.server.text import TextLines

__all__ = ["Cell", "Documents", "Text"]


class Text(NamedTuple):
    """An open text document (or notebook cell): its text, version and the editor's language id."""

    text: str
    version: Optional[int]
    language: str


class Cell(NamedTuple):
    """A notebook cell: its document's URI and whether it is a code cell."""

    uri: str
    code: bool


class Documents:
    """The open documents by URI (:attr:`texts`, cells included) and notebooks' cells in order (:attr:`notebooks`)."""

    def __init__(self) -> None:
        self.texts: Dict[str, Text] = {}
        self.notebooks: Dict[str, List[Cell]] = {}
        self.notebook_of: Dict[str, str] = {}  #: cell URI -> its notebook's URI

    def open(self, uri: str, text: str, version: Optional[int], language: str) -> None:
        self.texts[uri] = Text(text, version, language)

    def change(self, uri: str, version: Optional[int], changes: Sequence[types.TextDocumentContentChangeEvent],
               encoding: str = "utf-16") -> None:
        """Apply the editor's changes in order (a whole text, or a range's replacement)."""
        found = self.texts.get(uri)
        if found is None:
            return
        text = found.text
        for change in changes:
            if isinstance(change, types.TextDocumentContentChangePartial):
                lines = TextLines(text, encoding)
                start = lines.offset_of(change.range.start.line, change.range.start.character)
                end = max(start, lines.offset_of(change.range.end.line, change.range.end.character))
                text = text[:start] + change.text + text[end:]
            else:
                text = change.text
        self.texts[uri] = Text(text, version, found.language)

    def close(self, uri: str) -> None:
        self.texts.pop(uri, None)

    def open_notebook(self, params: types.DidOpenNotebookDocumentParams) -> None:
        uri = params.notebook_document.uri
        self.notebooks[uri] = [Cell(cell.document, cell.kind == types.NotebookCellKind.Code)
                               for cell in params.notebook_document.cells]
        for item in params.cell_text_documents:
            self.open(item.uri, item.text, item.version, item.language_id)
            self.notebook_of[item.uri] = uri

    def change_notebook(self, params: types.DidChangeNotebookDocumentParams, encoding: str = "utf-16") -> None:
        """A notebook's structure (cells added, removed, moved), its cells' kinds and their texts changed."""
        uri = params.notebook_document.uri
        cells = self.notebooks.get(uri)
        change = params.change.cells
        if cells is None or change is None:
            return
        if change.structure is not None:
            array = change.structure.array
            added = [Cell(cell.document, cell.kind == types.NotebookCellKind.Code) for cell in array.cells or ()]
            cells[array.start:array.start + array.delete_count] = added
            for item in change.structure.did_open or ():
                self.open(item.uri, item.text, item.version, item.language_id)
                self.notebook_of[item.uri] = uri
            for closed in change.structure.did_close or ():
                self.close(closed.uri)
                self.notebook_of.pop(closed.uri, None)
        kinds = {cell.document: cell.kind == types.NotebookCellKind.Code for cell in change.data or ()}
        if kinds:
            cells[:] = [Cell(cell.uri, kinds.get(cell.uri, cell.code)) for cell in cells]
        for content in change.text_content or ():
            self.change(content.document.uri, content.document.version, content.changes, encoding)

    def close_notebook(self, uri: str) -> None:
        for cell in self.notebooks.pop(uri, ()):
            self.close(cell.uri)
            self.notebook_of.pop(cell.uri, None)
