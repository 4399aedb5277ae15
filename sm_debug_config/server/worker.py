"""Checks in a child process, so that a stale check can be stopped half-way.

A thread cannot be stopped: a check of a large file (lint of a 2 MiB source takes seconds) would delay every
check after it. The server runs slow checks (a large document, or one whose last check was slow) in one child
process, started by multiprocessing's fork server with the checking modules loaded once in it, and kills it when
the check it runs is stale (a newer edit of its document came) and has run longer than :data:`PATIENCE`; the next
check starts in a fresh child. Fast checks stay in the server's thread (the trip to the child costs about half
their time); so do all checks until the first child is ready (a second or so after start-up) and where no child
can be started.

A job is a function of :data:`JOBS` and its arguments; what it returns comes back pickled.
"""
from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from multiprocessing.connection import Connection
from typing import Any, Callable, Dict, Optional, Tuple

from sm_debug_config.server import actions
from sm_debug_config.server.checking import Settings, check_job

__all__ = ["JOBS", "PATIENCE", "Cancelled", "Worker"]

#: Seconds a stale check may still run before its process is stopped (most checks take tens of milliseconds: they
#: end sooner than a new process is ready).
PATIENCE = 0.3
#: What a child runs, by name: ``check`` (a document's diagnostics) and ``fix_all`` (its safe fixes applied).
JOBS: Dict[str, Callable[..., Any]] = {"check": check_job, "fix_all": actions.fix_all}
#: The modules the fork server loads once, so that each child starts with them.
PRELOAD = ["sm_debug_config.server.worker", "sm_debug_config.lint.run", "sm_debug_config.validation"]
logger = logging.getLogger(__name__)


class Cancelled(Exception):
    """The check was stopped: its process killed because its result would be stale."""


def _serve(connection: Connection) -> None:
    """A child's loop: run each job received, send back ``("ok", result)`` or ``("error", text)``, until the server
    closes the pipe."""
    # the server's standard output is the editor's LSP channel: what anything here writes to it goes to stderr
    os.dup2(2, 1)
    settings: Dict[Any, Settings] = {}
    while True:
        try:
            name, arguments = connection.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        try:
            given = arguments.pop("settings")
            key = repr(sorted(given.items(), key=repr))
            arguments["settings"] = settings.setdefault(key, Settings(given))
            answer: Tuple[str, Any] = ("ok", JOBS[name](**arguments))
        except Exception as err:  # noqa: BLE001 - said to the server, which shows it as a diagnostic
            answer = ("error", f"{type(err).__name__}: {err}")
        try:
            connection.send(answer)
        except (OSError, ValueError):
            return


class Worker:
    """One child process that runs jobs, one at a time; :meth:`stop_if_stale` kills it when the job it runs is no
    longer wanted (a new one is started for the next job)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: Optional[Any] = None
        self._connection: Optional[Connection] = None
        self._started = 0.0  #: when the running job started (0: none runs)
        self._stale: Callable[[], bool] = lambda: False
        self._context: Optional[Any] = None
        try:
            self._context = multiprocessing.get_context("forkserver")
            self._context.set_forkserver_preload(PRELOAD)
        except ValueError:  # no fork server on this platform (Windows): checks run in the server's thread
            self._context = None

    @property
    def available(self) -> bool:
        """Whether this platform can start the check process."""
        return self._context is not None

    @property
    def ready(self) -> bool:
        """Whether a child is running to take the next job."""
        return self._process is not None and self._process.is_alive()

    def start(self) -> None:
        """Start a child (blocking until it runs: call it from a thread); nothing on a platform without one."""
        if self._context is None or self.ready:
            return
        try:
            mine, theirs = self._context.Pipe()
            process = self._context.Process(target=_serve, args=(theirs,), daemon=True,
                                            name="sm-debug-config-check")
            process.start()
            theirs.close()
        except OSError:
            logger.exception("no check process: checks run in the server")
            self._context = None
            return
        with self._lock:
            self._process, self._connection = process, mine

    def run(self, name: str, stale: Callable[[], bool], **arguments: Any) -> Any:
        """Run job ``name`` in the child (blocking: call it from a thread); :class:`Cancelled` when the child was
        stopped (:meth:`stop_if_stale`), a ``RuntimeError`` with the job's error text."""
        arguments["settings"] = dict(arguments["settings"].given)
        with self._lock:
            connection = self._connection
            self._started, self._stale = time.monotonic(), stale
        if connection is None:
            raise Cancelled
        try:
            connection.send((name, arguments))
            status, answer = connection.recv()
        except (EOFError, OSError, BrokenPipeError):
            raise Cancelled from None
        finally:
            with self._lock:
                self._started, self._stale = 0.0, lambda: False
        if status != "ok":
            raise RuntimeError(answer)
        return answer

    def stop_if_stale(self) -> bool:
        """Kill the child when the job it runs is stale and has run longer than :data:`PATIENCE`; whether it did."""
        with self._lock:
            process, started, stale = self._process, self._started, self._stale
            if process is None or not started or time.monotonic() - started < PATIENCE or not stale():
                return False
            self._process, self._connection = None, None
        process.kill()
        return True

    def close(self) -> None:
        with self._lock:
            process, self._process, self._connection = self._process, None, None
        if process is not None:
            process.kill()
