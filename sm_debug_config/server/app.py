"""The language server: pygls's ``LanguageServer`` with the handlers that adapt the editor's documents to the
command line's checks (:mod:`.checking`), fixes (:mod:`.actions`) and the catalogue (:mod:`.knowledge`).

A document is checked from one worker thread, so the event loop keeps answering (hover, completion, the next
edit) while a check runs. Edits are debounced by the check itself: the first edit is checked at once (after
:data:`DEBOUNCE`, the rest of a burst of notifications read together), and the edits that come while a check runs
are checked once, together, when it ends. A check of an older version is stale: its result is dropped, never
published, and the versions in between are never checked. A check is run in the thread (a fast one: tens of
milliseconds) or, for a document larger than :data:`LARGE` or whose last check took longer than
:data:`~.worker.PATIENCE`, in the check process (:mod:`.worker`), where a stale one is stopped half-way once it has
run that long, so a slow check does not hold back the diagnostics of the next edit. Nothing a document holds stops
the server: a check that fails says so as a diagnostic.
"""
from __future__ import annotations

import asyncio
import functools
import logging
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method

from sm_debug_config import __version__
from sm_debug_config.cli import project
from sm_debug_config.server import actions, knowledge
from sm_debug_config.server.checking import LINT, Diagnosed, Piece, Settings, command_of, file_path, refusal
from sm_debug_config.server.documents import Documents
from sm_debug_config.server.worker import JOBS, PATIENCE, Cancelled, Worker

__all__ = ["DEBOUNCE", "DebugConfigServer", "serve"]

#: Seconds between an edit and the start of its check when none runs (notifications read together join it).
DEBOUNCE = 0.005
#: Characters of a document whose checks run in the check process from the first (lint of 200 KB of Python takes
#: about a second): smaller ones run there once a check of them took longer than PATIENCE.
LARGE = 200_000
#: The section of the editor's settings that is ours (``workspace/didChangeConfiguration``).
SECTION = "sm-debug-config"
#: The keys of our settings (those of ``[tool.sm-debug-config]``, ``config`` and ``isolated``).
OURS = frozenset(key.name for key in project.KEYS) | {"config", "isolated"}
logger = logging.getLogger(__name__)
#: What a check reads of a target, taken in the event loop: ``(path, command, pieces, cell kinds or None)``.
Snapshot = Tuple[str, str, List[Piece], Optional[List[bool]]]


class Target:
    """A document the server checks: a text document, or a notebook (its cells the pieces)."""

    def __init__(self, uri: str, notebook: bool) -> None:
        self.uri, self.notebook = uri, notebook
        self.generation = 0  #: bumped by each change: a result of an older generation is stale
        self.pending: Optional["asyncio.Task[None]"] = None
        self.problems: List[Diagnosed] = []
        self.checked_generation = -1
        self.published: Tuple[str, ...] = ()  #: the URIs diagnostics were last published on
        #: its last check ran longer than PATIENCE: the next runs in the check process, where it can be stopped
        self.slow = False
        #: "fix all"'s new texts by piece, and the generation they are of
        self.fixed_all: Tuple[int, Optional[Dict[str, str]]] = (-1, None)


class Protocol(LanguageServerProtocol):
    """pygls's protocol, but for the changes of documents: the server applies them to its own copy
    (:mod:`.documents`) only. pygls 2.1 would apply them to its workspace's copy first, splitting lines where LSP
    does not (a form feed, U+2028) and clamping the change's positions to those lines in the message itself, so
    that the server would get the positions moved."""

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Iterator[Any]:
        handler = self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)
        if handler is not None:
            yield handler, (params,), None

    @lsp_method(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def lsp_notebook_document__did_change(self, params: types.DidChangeNotebookDocumentParams) -> Iterator[Any]:
        handler = self.fm.features.get(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
        if handler is not None:
            yield handler, (params,), None

    def _handle_notification(self, method_name: str, params: Any) -> None:
        # pygls 2.1 files the future of each notification it runs under a fresh id in _request_futures, which only a
        # response or a $/cancelRequest empties: a notification's stayed for ever (about 1.2 KB an edit)
        before = set(self._request_futures)
        super()._handle_notification(method_name, params)
        for key in set(self._request_futures) - before:
            self._request_futures[key].add_done_callback(lambda _done, key=key: self._request_futures.pop(key, None))


class DebugConfigServer(LanguageServer):
    """``sm-debug-config server``: diagnostics, code actions, hover and completion over stdio."""

    def __init__(self) -> None:
        super().__init__(
            "sm-debug-config", __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            notebook_document_sync=types.NotebookDocumentSyncOptions(notebook_selector=[
                types.NotebookDocumentFilterWithCells(cells=[types.NotebookCellLanguage("python")], notebook="*")]),
            protocol_cls=Protocol,
        )
        self.settings = Settings()
        self.documents = Documents()
        self.targets: Dict[str, Target] = {}
        self.shut_down = False  #: a shutdown request came (the exit status is 0 then, else 1)
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sm-debug-config-check")
        self.process = Worker()  #: the check process (:mod:`.worker`)
        self.starting: Optional[threading.Thread] = None

    @property
    def encoding(self) -> str:
        """The position encoding agreed with the client (``utf-16`` unless it offered another)."""
        chosen = self.workspace.position_encoding
        return str(getattr(chosen, "value", chosen) or "utf-16")

    # -- documents

    def target_of(self, uri: str) -> Optional[Target]:
        """The target a document or notebook cell ``uri`` belongs to."""
        return self.targets.get(self.documents.notebook_of.get(uri, uri))

    def snapshot(self, target: Target) -> Optional[Snapshot]:
        """``(path, command, pieces, cell kinds)`` of a target as the editor holds it now; None when no command
        reads it."""
        texts = self.documents.texts
        if target.notebook:
            cells = self.documents.notebooks.get(target.uri)
            if cells is None:
                return None
            pieces = [Piece(cell.uri, texts[cell.uri].text if cell.uri in texts else "") for cell in cells]
            path = file_path(target.uri, LINT)
            if not path.lower().endswith(".ipynb"):
                path += ".ipynb"
            return path, LINT, pieces, [cell.code for cell in cells]
        document = texts.get(target.uri)
        command = command_of(target.uri, document.language) if document is not None else None
        if document is None or command is None or target.uri.lower().endswith(".ipynb"):
            return None  # a notebook's JSON as text: its cells' places are not the text's (notebook documents are)
        return file_path(target.uri, command), command, [Piece(target.uri, document.text)], None

    def text_of(self, uri: str) -> str:
        """The text of an open document or cell as the editor holds it ("" when it is not open)."""
        found = self.documents.texts.get(uri)
        return found.text if found is not None else ""

    def execute(self, name: str, stale: Callable[[], bool], slow: bool, **arguments: Any) -> Any:
        """Run a job of :data:`~.worker.JOBS` (in the worker thread): a ``slow`` one in the check process when it
        runs, where it can be stopped when stale (:class:`~.worker.Cancelled`); else here, saving the trip to the
        process (a pickled document there and its diagnostics back: half again a fast check's time)."""
        if slow and self.process.ready:
            return self.process.run(name, stale, **arguments)
        if slow:
            self.start_process()
        return JOBS[name](**arguments)

    def start_process(self) -> None:
        """Start the check process in the background (its first start loads the checking modules: a second)."""
        if self.process.available and (self.starting is None or not self.starting.is_alive()):
            self.starting = threading.Thread(target=self.process.start, name="sm-debug-config-start", daemon=True)
            self.starting.start()

    def run_check(self, target: Target, taken: Optional[Snapshot], generation: int) -> List[Diagnosed]:
        """The problems of a target's snapshot (in the worker thread); never raises but
        :class:`~.worker.Cancelled`."""
        if taken is None:
            return []
        path, command, pieces, kinds = taken
        slow = target.slow or sum(len(piece.text) for piece in pieces) > LARGE
        started = time.monotonic()
        try:
            found = self.execute("check", lambda: generation != target.generation, slow, path=path, command=command,
                                 pieces=pieces, kinds=kinds, settings=self.settings, encoding=self.encoding)
            target.slow = time.monotonic() - started > PATIENCE
            return found  # type: ignore[no-any-return]
        except Cancelled:
            raise
        except Exception as err:  # the promise is: a diagnostic, never a dead server
            logger.exception("check of %s failed", target.uri)
            return refusal(pieces, f"internal error: {type(err).__name__}: {err} (please report this)")

    def changed(self, uri: str, notebook: bool = False) -> None:
        """A document was opened or edited: check its newest text, now if no check of it runs, else as soon as the
        one running ends (the edits that came meanwhile are checked once, together)."""
        target = self.targets.setdefault(uri, Target(uri, notebook))
        target.generation += 1
        # a check of an older text that runs long is stopped (now, or once it has run PATIENCE seconds)
        if not self.process.stop_if_stale():
            asyncio.get_running_loop().call_later(PATIENCE, self.process.stop_if_stale)
        if target.pending is None or target.pending.done():
            target.pending = asyncio.ensure_future(self._check_until_current(target))

    async def _check_until_current(self, target: Target) -> None:
        await asyncio.sleep(DEBOUNCE)  # the rest of a burst of notifications read together
        while target.checked_generation != target.generation and self.targets.get(target.uri) is target:
            await self.fresh(target)

    async def fresh(self, target: Target, generation: Optional[int] = None) -> List[Diagnosed]:
        """The target's problems for its current text: checked now unless the last check is of it; published."""
        generation = target.generation if generation is None else generation
        if target.checked_generation == generation:
            return target.problems
        loop = asyncio.get_running_loop()
        try:
            problems = await loop.run_in_executor(self.worker, self.run_check, target, self.snapshot(target),
                                                  generation)
        except Cancelled:  # stopped as stale: the next round checks the newest text
            self.start_process()
            return target.problems
        if generation != target.generation or self.targets.get(target.uri) is not target:
            return problems  # stale: a newer edit (or a close) came while it ran
        target.problems, target.checked_generation = problems, generation
        self.publish(target)
        if not self.process.ready:  # after the first diagnostics: its start-up takes the CPU they would wait for
            self.start_process()
        return problems

    def publish(self, target: Target) -> None:
        by_uri: Dict[str, List[types.Diagnostic]] = {}
        if target.notebook:
            for cell in self.documents.notebooks.get(target.uri, ()):
                by_uri[cell.uri] = []
        else:
            by_uri[target.uri] = []
        for problem in target.problems:
            by_uri.setdefault(problem.uri, []).append(problem.diagnostic)
        for uri in target.published:
            by_uri.setdefault(uri, [])  # a cell gone, or cleared
        for uri, found in by_uri.items():
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=found))
        target.published = tuple(by_uri)

    def closed(self, uri: str) -> None:
        target = self.targets.pop(uri, None)
        if target is None:
            return
        if target.pending is not None:
            target.pending.cancel()
        for each in target.published:
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=each, diagnostics=[]))

    def configure(self, given: Any) -> None:
        """Take the editor's settings (ours, or a mapping that holds ours under :data:`SECTION`) and check every
        open document again. Settings that say nothing of ours (``null``, another server's section: what editors
        send at start) keep those in force (``initializationOptions``'); ``{"sm-debug-config": {}}`` clears them."""
        if isinstance(given, dict) and isinstance(given.get(SECTION), dict):
            given = given[SECTION]
        elif not (isinstance(given, dict) and set(given) & OURS):
            given = self.settings.given
        self.settings = Settings(given)
        for problem in self.settings.problems:
            self.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning,
                                                             message=f"sm-debug-config: {problem}"))
        for uri, target in list(self.targets.items()):
            self.changed(uri, target.notebook)


server = DebugConfigServer()


@server.feature(types.INITIALIZE)
def initialize(ls: DebugConfigServer, params: types.InitializeParams) -> None:
    if params.initialization_options is not None:
        ls.configure(params.initialization_options)


@server.feature(types.INITIALIZED)
async def initialized(ls: DebugConfigServer, params: types.InitializedParams) -> None:
    """Start the check process soon (after the first diagnostics, or in a second: its start-up takes CPU they would
    wait for), ask the client to say when a pyproject.toml changes (its settings apply at the next check of each
    document; a client that cannot watch files sends didSave of an open one), and ask for its settings."""
    asyncio.get_running_loop().call_later(1.0, ls.start_process)
    workspace = ls.client_capabilities.workspace
    watched = workspace.did_change_watched_files if workspace is not None else None
    if watched is not None and watched.dynamic_registration:
        ls.client_register_capability(types.RegistrationParams(registrations=[types.Registration(
            id="sm-debug-config-pyproject", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=types.DidChangeWatchedFilesRegistrationOptions(
                watchers=[types.FileSystemWatcher(glob_pattern="**/pyproject.toml")]))]))
    await pull_configuration(ls)


async def pull_configuration(ls: DebugConfigServer) -> None:
    """Ask a client that keeps settings (``workspace/configuration``, as VS Code) for our section, and take it; a
    client that has none for us (null) leaves the settings as they are."""
    workspace = ls.client_capabilities.workspace
    if workspace is None or not workspace.configuration:
        return
    try:
        found = await ls.workspace_configuration_async(types.ConfigurationParams(
            items=[types.ConfigurationItem(section=SECTION)]))
    except Exception:  # a client that fails to answer keeps what it set otherwise
        logger.info("the client did not answer workspace/configuration", exc_info=True)
        return
    if found and isinstance(found[0], dict):
        ls.configure({SECTION: found[0]})


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: DebugConfigServer, params: types.DidOpenTextDocumentParams) -> None:
    item = params.text_document
    ls.documents.open(item.uri, item.text, item.version, item.language_id)
    ls.changed(item.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: DebugConfigServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.documents.change(params.text_document.uri, params.text_document.version, params.content_changes, ls.encoding)
    ls.changed(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: DebugConfigServer, params: types.DidSaveTextDocumentParams) -> None:
    if params.text_document.uri.endswith("pyproject.toml"):  # its settings apply to every document open
        ls.configure(ls.settings.given)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: DebugConfigServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.documents.close(params.text_document.uri)
    ls.closed(params.text_document.uri)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
def notebook_open(ls: DebugConfigServer, params: types.DidOpenNotebookDocumentParams) -> None:
    ls.documents.open_notebook(params)
    ls.changed(params.notebook_document.uri, notebook=True)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
def notebook_change(ls: DebugConfigServer, params: types.DidChangeNotebookDocumentParams) -> None:
    ls.documents.change_notebook(params, ls.encoding)
    ls.changed(params.notebook_document.uri, notebook=True)


@server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
def notebook_close(ls: DebugConfigServer, params: types.DidCloseNotebookDocumentParams) -> None:
    ls.documents.close_notebook(params.notebook_document.uri)
    ls.closed(params.notebook_document.uri)


@server.feature(types.SHUTDOWN)
def shutdown(ls: DebugConfigServer, params: None) -> None:
    ls.shut_down = True
    ls.process.close()


@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(ls: DebugConfigServer, params: types.DidChangeConfigurationParams) -> None:
    """Settings pushed (ours, in the notification), or a word that they changed (null: ask for them, as VS Code
    expects)."""
    given = params.settings
    if isinstance(given, dict) and (isinstance(given.get(SECTION), dict) or set(given) & OURS):
        ls.configure(given)
    else:
        ls.configure(None)  # the settings in force, checked again (a pyproject.toml may have changed)
        await pull_configuration(ls)


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched(ls: DebugConfigServer, params: types.DidChangeWatchedFilesParams) -> None:
    if any(change.uri.endswith("pyproject.toml") for change in params.changes):
        ls.configure(ls.settings.given)


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
    code_action_kinds=[types.CodeActionKind.QuickFix, actions.FIX_ALL]))
async def code_action(ls: DebugConfigServer, params: types.CodeActionParams) -> Optional[List[types.CodeAction]]:
    target = ls.target_of(params.text_document.uri)
    if target is None:
        return None
    problems = await ls.fresh(target)
    taken = ls.snapshot(target)
    if taken is None:
        return None
    path, command, pieces, kinds = taken
    versions = {piece.uri: ls.documents.texts[piece.uri].version if piece.uri in ls.documents.texts else None
                for piece in pieces}
    fixed = None
    if actions.wants_fix_all(params, problems):  # computed once per version: editors ask at every cursor move
        generation = target.generation
        if target.fixed_all[0] != generation:
            loop = asyncio.get_running_loop()
            try:
                found = await loop.run_in_executor(
                    ls.worker, functools.partial(ls.execute, "fix_all", lambda: generation != target.generation,
                                                 True, path=path, command=command, pieces=pieces, kinds=kinds,
                                                 settings=ls.settings))
            except Cancelled:
                ls.start_process()
                return None
            target.fixed_all = (generation, found)
        fixed = target.fixed_all[1]
    return actions.code_actions(params, problems, pieces, versions, command, fixed, ls.encoding)


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: DebugConfigServer, params: types.HoverParams) -> Optional[types.Hover]:
    return knowledge.hover(ls.text_of(params.text_document.uri), params.position, ls.encoding)


@server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=["'", '"']))
def completion(ls: DebugConfigServer, params: types.CompletionParams) -> Optional[types.CompletionList]:
    uri = params.text_document.uri
    document = ls.documents.texts.get(uri)
    target = ls.target_of(uri)
    command = LINT if target is not None and target.notebook else command_of(
        uri, document.language if document is not None else None)
    return knowledge.completion(ls.text_of(uri), params.position, command, ls.encoding)


def serve(stdin: Optional[Any] = None, stdout: Optional[Any] = None) -> int:
    """Run the server over stdio until the client says exit; the exit status LSP asks for: 0 after a shutdown
    request, else 1. pygls closes the streams it is given at exit: it gets its own objects on the process's
    descriptors, so that the process's standard output stays open for whatever is written after."""
    reader = stdin or open(sys.stdin.fileno(), "rb", closefd=False)  # noqa: SIM115 - pygls closes it
    writer = stdout or open(sys.stdout.fileno(), "wb", closefd=False)  # noqa: SIM115 - pygls closes it
    server.start_io(reader, writer)
    return 0 if server.shut_down else 1
