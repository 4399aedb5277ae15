"""Per-file work of a command spread over worker processes (``validate --jobs``), results in input order.

Files are independent, so a command checking hundreds of them (a repository's configs in CI) may
check them in several processes, as flake8 and ruff do. The first file is checked here, which
imports what the work needs and fills its lazy caches (about 100 ms); the workers are forked after
it, so each starts warm instead of paying that again, and shares those pages with this process. The
output is the same as one process gives, byte for byte: the results come back in the order of the
files, and a file's findings are values in its result, never warnings. A warning a worker issues all
the same (a library's notice) is written to standard error there, as Python writes it, rather than
recorded into the worker's copy of this process's state, where it would be lost.

Forking is safe only from a single-threaded process and costs more than a few files' work, so
``jobs=None`` (auto) stays in this process for fewer than :data:`MIN_FILES_PER_WORKER` files a
worker, where fork is not the platform's way (macOS, Windows), when threads run (an embedding
application) and for standard input (``-``), which only this process can read.

>>> run_per_file(len, ["a", "bb"], jobs=1)
[1, 2]
"""
from __future__ import annotations

import gc
import os
import sys
import warnings
from typing import Any, Callable, List, Optional, Sequence

from sm_debug_config.errors import write_warning

#: Below this many files a worker, forking costs more than it saves (each file takes a few ms).
MIN_FILES_PER_WORKER = 32
#: ``jobs=None`` uses at most this many workers, however many CPUs there are.
MAX_AUTO_WORKERS = 8

#: The function the workers apply: set before forking, so that the children inherit it (nothing is pickled).
_WORK: List[Callable[[str], Any]] = []


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity, as a container or ``taskset`` limits it), at least 1."""
    affinity = getattr(os, "sched_getaffinity", None)
    try:
        return max(1, len(affinity(0))) if affinity else max(1, os.cpu_count() or 1)
    except OSError:  # pragma: no cover - a kernel that refuses the call
        return max(1, os.cpu_count() or 1)


def _can_fork() -> bool:
    """Whether workers may be forked here: Linux (fork is macOS's unsafe choice, Windows has none) and no
    other thread running (a forked child inherits their locks held)."""
    if not sys.platform.startswith("linux"):
        return False
    threading = sys.modules.get("threading")  # not imported: no thread but this one
    return threading is None or threading.active_count() == 1


def worker_count(files: Sequence[str], jobs: Optional[int]) -> int:
    """How many processes check ``files``: ``jobs`` when given (1: this process only), else one per available
    CPU, up to :data:`MAX_AUTO_WORKERS`, each with at least :data:`MIN_FILES_PER_WORKER` files.

    >>> worker_count(["a.yaml"] * 10, None), worker_count(["a.yaml"] * 10, 1)
    (1, 1)
    """
    if "-" in files or not _can_fork():
        return 1
    if jobs is not None:
        return max(1, min(jobs, len(files)))
    return max(1, min(available_cpus(), MAX_AUTO_WORKERS, len(files) // MIN_FILES_PER_WORKER))


def _start_worker() -> None:
    """A worker leaves Ctrl-C to the command's process, which stops them all (else a worker dies mid-file and
    the pool waits for its result for ever); it writes a warning where Python writes it (the command's process
    may be recording its warnings: a forked worker would record into a copy nobody reads)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    warnings.showwarning = write_warning  # this process is the command's, forked


def _chunk(paths: Sequence[str]) -> List[Any]:
    """In a worker: the result of each file of a chunk."""
    return [_WORK[0](path) for path in paths]


def run_per_file(function: Callable[[str], Any], files: Sequence[str], jobs: Optional[int] = None) -> List[Any]:
    """``[function(f) for f in files]``, in :func:`worker_count` processes; ``function`` must catch what a bad
    file raises (an exception it lets through stops the command, as in one process) and return its findings as
    values (a warning is written where the worker runs, not reported here). Its results are pickled back, so
    they hold plain data, findings and exceptions. A worker that dies (killed, out of
    memory) stops the command with ``BrokenProcessPool``, not a hang.

    >>> run_per_file(str.upper, ["a.yaml", "b.json"])
    ['A.YAML', 'B.JSON']
    """
    # What is loaded by now (the imports) lives for the whole run: kept out of the collector's scans, which
    # otherwise walk it again and again as each file's values come and go (~10% of a bulk run's CPU), and, in
    # forked workers, out of the pages a scan would copy. As it was again when the files are done.
    gc.freeze()
    try:
        return _run_per_file(function, files, jobs)
    finally:
        gc.unfreeze()


def _run_per_file(function: Callable[[str], Any], files: Sequence[str], jobs: Optional[int]) -> List[Any]:
    count = worker_count(files, jobs)
    if count == 1:
        return [function(path) for path in files]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    results = [function(files[0])]  # here: the imports and lazy caches the workers then inherit
    rest = files[1:]
    if not _can_fork():  # the first file's work started a thread: forking now could copy a held lock
        return results + [function(path) for path in rest]
    sys.stdout.flush()  # a forked child flushes its copy of what is buffered: it would be written twice
    sys.stderr.flush()
    size = max(1, len(rest) // (count * 4))  # a few chunks a worker, so that one slow file delays little
    try:
        executor = ProcessPoolExecutor(
            count, mp_context=multiprocessing.get_context("fork"), initializer=_start_worker
        )
    except (OSError, ImportError):  # no usable semaphores (a container without /dev/shm): one process does it
        return results + [function(path) for path in rest]
    _WORK[:] = [function]
    futures = [executor.submit(_chunk, rest[start:start + size]) for start in range(0, len(rest), size)]
    try:
        done = [item for future in futures for item in future.result()]
    except BaseException:  # Ctrl-C or a failed file: the chunks not started are dropped, not waited for
        for future in futures:
            future.cancel()
        raise
    finally:
        executor.shutdown(wait=True)
        _WORK[:] = []
    return results + done
