"""A small synchronous Language Server Protocol client over stdio, for the fuzz test and the latency benchmark.

Why not pytest-lsp's client here: these two need the server's processes (memory, CPU, exit status) and the
arrival time of every message, stamped by the thread that reads the pipe, without an event loop between the
server and the clock. The end-to-end tests of the server's features use pytest-lsp.

>>> with LspClient([sys.executable, "-m", "sm_debug_config", "server"]) as client:  # doctest: +SKIP
...     client.initialize()
...     client.open("file:///tmp/launch.py", "python", text)
...     diagnostics = client.wait_diagnostics("file:///tmp/launch.py", timeout=10)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from typing import IO, Any, Callable, Dict, List, Optional, Sequence, Tuple

import attrs

__all__ = ["LspClient", "Published", "ServerError", "cpu_seconds", "descendants", "memory_bytes", "utf16_column"]


class ServerError(Exception):
    """The server answered a request with an error, closed its output, or did not answer in time."""


@attrs.frozen
class Published:
    """One ``textDocument/publishDiagnostics`` as it arrived: ``at`` is ``time.perf_counter()`` on arrival."""

    uri: str
    version: Optional[int]
    diagnostics: Tuple[Dict[str, Any], ...]
    at: float


def descendants(pid: int) -> List[int]:
    """The processes ``pid`` started, and theirs (Linux ``/proc``): a server's check process, its fork server."""
    found: List[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as children:
                for child in children.read().split():
                    found += [int(child)] + descendants(int(child))
        except OSError:
            continue
    return found


def memory_bytes(pid: int) -> int:
    """The memory of process ``pid``: its proportional set size where Linux says it (a page shared with a forked
    child counts half in each), else its resident set size; 0 for a process that has ended."""
    for path, key in ((f"/proc/{pid}/smaps_rollup", "Pss:"), (f"/proc/{pid}/status", "VmRSS:")):
        try:
            with open(path, encoding="ascii") as handle:
                for line in handle:
                    if line.startswith(key):
                        return int(line.split()[1]) * 1024
        except OSError:
            continue
    return 0


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) process ``pid`` and the processes it started have used so far (Linux
    ``/proc``: those running, and those ended and waited for)."""
    total = 0
    for each in [pid] + descendants(pid):
        try:
            with open(f"/proc/{each}/stat", encoding="ascii") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(field) for field in fields[11:15])  # utime, stime, cutime, cstime
    return total / os.sysconf("SC_CLK_TCK")


def utf16_column(line: str, column: int) -> int:
    """The UTF-16 code-unit offset of Python character offset ``column`` in ``line`` (what LSP counts)."""
    return len(line[:column].encode("utf-16-le")) // 2


class LspClient:
    """Starts ``argv`` and speaks JSON-RPC to it: :meth:`request` waits for the answer, :meth:`notify` does not.

    Requests the server sends to the client are answered as an editor with no settings would
    (``workspace/configuration``: a null per item; the others: null). Every ``publishDiagnostics`` is kept in
    :attr:`published`, in arrival order.
    """

    def __init__(self, argv: Sequence[str], *, cwd: Optional[str] = None, env: Optional[Dict[str, str]] = None,
                 stderr: Optional[IO[bytes]] = None) -> None:
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr if stderr is not None
            else subprocess.DEVNULL, cwd=cwd, env=env,
        )
        self.published: List[Published] = []
        self.server_requests: List[Dict[str, Any]] = []
        self.messages: List[Dict[str, Any]] = []  # window/logMessage, window/showMessage
        self._answers: Dict[int, Dict[str, Any]] = {}
        self._next_id = 0
        self._closed = False
        self._lock = threading.Condition()
        self._write_lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, name="lsp-reader", daemon=True)
        self._reader.start()

    # -- the wire --------------------------------------------------------------------------------------

    def _send(self, message: Dict[str, Any]) -> None:
        body = json.dumps(dict(message, jsonrpc="2.0"), ensure_ascii=False).encode("utf-8")
        stdin = self.process.stdin
        if stdin is None:
            raise ServerError("the server's input is closed")
        with self._write_lock:
            try:
                stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
                stdin.flush()
            except (BrokenPipeError, ValueError) as err:
                raise ServerError(f"the server's input is closed ({self.process.poll()=})") from err

    def _read(self) -> None:
        stream = self.process.stdout
        if stream is None:  # not with Popen(stdout=PIPE); for the type checker
            return
        try:
            while True:
                length = None
                while True:
                    header = stream.readline()
                    if not header:
                        return
                    header = header.strip()
                    if not header:
                        break
                    name, _, value = header.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value.strip())
                if length is None:
                    continue
                body = stream.read(length)
                at = time.perf_counter()
                self._dispatch(json.loads(body.decode("utf-8")), at)
        finally:
            with self._lock:
                self._closed = True
                self._lock.notify_all()

    def _dispatch(self, message: Dict[str, Any], at: float) -> None:
        method = message.get("method")
        if method is None:
            with self._lock:
                self._answers[message["id"]] = dict(message, at=at)
                self._lock.notify_all()
            return
        if "id" in message:  # a request of the server's
            self.server_requests.append(message)
            result: Any = None
            if method == "workspace/configuration":
                result = [None for _ in message.get("params", {}).get("items", [])]
            self._send({"id": message["id"], "result": result})
            return
        params = message.get("params") or {}
        with self._lock:
            if method == "textDocument/publishDiagnostics":
                self.published.append(
                    Published(params["uri"], params.get("version"), tuple(params.get("diagnostics", ())), at)
                )
            elif method in ("window/logMessage", "window/showMessage"):
                self.messages.append(params)
            self._lock.notify_all()

    # -- requests and notifications --------------------------------------------------------------------

    def send_request(self, method: str, params: Any) -> int:
        """Sends a request and returns its id without waiting (see :meth:`answer`)."""
        with self._lock:
            self._next_id += 1
            ident = self._next_id
        self._send({"id": ident, "method": method, "params": params})
        return ident

    def answer(self, ident: int, timeout: float = 30.0) -> Dict[str, Any]:
        """The whole response message to request ``ident`` (``result`` or ``error``, and ``at``)."""
        with self._lock:
            if not self._lock.wait_for(lambda: ident in self._answers or self._closed, timeout):
                raise ServerError(f"request {ident} not answered within {timeout} s")
            if ident not in self._answers:
                raise ServerError(f"the server closed its output before answering request {ident} "
                                  f"(exit status {self.process.poll()})")
            return self._answers.pop(ident)

    def request(self, method: str, params: Any, timeout: float = 30.0) -> Any:
        """Sends a request and returns its ``result``; an ``error`` answer raises :class:`ServerError`."""
        response = self.answer(self.send_request(method, params), timeout)
        if "error" in response:
            raise ServerError(f"{method}: {response['error']}")
        return response.get("result")

    def notify(self, method: str, params: Any) -> None:
        self._send({"method": method, "params": params})

    def wait(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """Waits until ``predicate()`` (called under the lock, after each message) holds; False on time-out."""
        with self._lock:
            return self._lock.wait_for(lambda: predicate() or self._closed, timeout) and predicate()

    # -- the conversation an editor has ----------------------------------------------------------------

    def initialize(self, root: Optional[str] = None, **capabilities: Any) -> Dict[str, Any]:
        """``initialize`` (UTF-16 positions, pull and push diagnostics, notebooks) then ``initialized``."""
        root = os.path.abspath(root or os.getcwd())
        client_capabilities: Dict[str, Any] = {
            "general": {"positionEncodings": ["utf-16"]},
            "textDocument": {
                "synchronization": {"didSave": True, "dynamicRegistration": False},
                "publishDiagnostics": {"relatedInformation": True, "versionSupport": True,
                                       "codeDescriptionSupport": True, "dataSupport": True},
                "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix",
                                                                                             "source.fixAll"]}}},
                "hover": {"contentFormat": ["markdown", "plaintext"]},
                "completion": {"completionItem": {"snippetSupport": False}},
            },
            "notebookDocument": {"synchronization": {"dynamicRegistration": False}},
            "workspace": {"configuration": True, "workspaceFolders": True},
        }
        client_capabilities.update(capabilities)
        result = self.request("initialize", {
            "processId": os.getpid(),
            "rootUri": "file://" + root,
            "workspaceFolders": [{"uri": "file://" + root, "name": os.path.basename(root)}],
            "capabilities": client_capabilities,
        })
        self.notify("initialized", {})
        return result

    def open(self, uri: str, language: str, text: str, version: int = 1) -> None:
        self.notify("textDocument/didOpen",
                    {"textDocument": {"uri": uri, "languageId": language, "version": version, "text": text}})

    def change(self, uri: str, version: int, changes: Sequence[Dict[str, Any]]) -> None:
        self.notify("textDocument/didChange",
                    {"textDocument": {"uri": uri, "version": version}, "contentChanges": list(changes)})

    def open_notebook(self, uri: str, cells: Sequence[str], version: int = 1,
                      markdown: Sequence[int] = ()) -> List[str]:
        """``notebookDocument/didOpen`` of ``cells`` (code cells, but for the indexes in ``markdown``), as VS Code
        sends it; returns the cells' URIs."""
        cell_uris = [f"{uri}#cell{index}" for index in range(len(cells))]
        self.notify("notebookDocument/didOpen", {
            "notebookDocument": {
                "uri": uri, "notebookType": "jupyter-notebook", "version": version, "metadata": {},
                "cells": [{"kind": 1 if index in markdown else 2, "document": cell}
                          for index, cell in enumerate(cell_uris)],
            },
            "cellTextDocuments": [
                {"uri": cell, "languageId": "markdown" if index in markdown else "python", "version": version,
                 "text": text}
                for index, (cell, text) in enumerate(zip(cell_uris, cells))
            ],
        })
        return cell_uris

    def change_cell(self, uri: str, version: int, cell_uri: str, changes: Sequence[Dict[str, Any]]) -> None:
        """``notebookDocument/didChange`` of one cell's text."""
        self.notify("notebookDocument/didChange", {
            "notebookDocument": {"uri": uri, "version": version},
            "change": {"cells": {"textContent": [
                {"document": {"uri": cell_uri, "version": version}, "changes": list(changes)}
            ]}},
        })

    def diagnostics(self, uri: str) -> Optional[Published]:
        """The last diagnostics published for ``uri``, or None."""
        with self._lock:
            for published in reversed(self.published):
                if published.uri == uri:
                    return published
        return None

    def wait_diagnostics(self, uri: str, timeout: float, after: int = 0,
                         accept: Callable[[Published], bool] = lambda published: True) -> Published:
        """The first diagnostics for ``uri`` published at index ``after`` of :attr:`published` or later that
        ``accept`` takes; :class:`ServerError` on time-out."""
        found: List[Published] = []

        def arrived() -> bool:
            for published in self.published[after:]:
                if published.uri == uri and accept(published):
                    found.append(published)
                    return True
            return False

        if not self.wait(arrived, timeout):
            raise ServerError(f"no diagnostics for {uri} within {timeout} s (exit status {self.process.poll()})")
        return found[0]

    def close(self, timeout: float = 10.0) -> Optional[int]:
        """``shutdown`` then ``exit``; the server's exit status (killed, and None, if it does not exit)."""
        if self.process.poll() is None:
            try:
                self.request("shutdown", None, timeout=timeout)
                self.notify("exit", None)
            except ServerError:
                pass
            try:
                return self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                return None
        return self.process.returncode

    def __enter__(self) -> "LspClient":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()


if __name__ == "__main__":  # pragma: no cover - a manual check: python -m tests.server.lspclient FILE
    with LspClient([sys.executable, "-m", "sm_debug_config", "server"], stderr=sys.stderr.buffer) as client:
        client.initialize()
        path = os.path.abspath(sys.argv[1])
        with open(path, encoding="utf-8") as handle:
            client.open("file://" + path, "python", handle.read())
        print(json.dumps(list(client.wait_diagnostics("file://" + path, 30).diagnostics), indent=1))
