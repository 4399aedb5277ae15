"""The check process (server/worker.py): a job runs in it as in the server, and a stale one is stopped half-way, the
next job running in a fresh process. Skipped without the ``server`` extra."""
from __future__ import annotations

import threading
import time

import pytest

pytest.importorskip("pygls", reason="the language server needs the 'server' extra (pygls, lsprotocol)")

from sm_debug_config.server.checking import Piece, Settings, check_job
from sm_debug_config.server.worker import PATIENCE, Cancelled, Worker
from tests.server.lsphelpers import ROOT

LAUNCHER = ("from sagemaker.debugger import Rule, rule_configs\n"
            "rules = [Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={'threshhold': '0.1'})]\n")
#: lint of this takes seconds: what a stale check that must not delay the next one looks like
LARGE = "from sagemaker.debugger import Rule, rule_configs\n" + "x = 1\n" * 200_000


def _job(text: str):
    return {"path": f"{ROOT}/launcher.py", "command": "lint", "pieces": [Piece("file:///launcher.py", text)],
            "kinds": None, "settings": Settings()}


def test_a_stale_check_is_stopped_and_the_next_runs_in_a_fresh_process():
    worker = Worker()
    if not worker.available:
        pytest.skip("no fork server on this platform: checks run in the server's thread")
    worker.start()
    try:
        here = check_job(**_job(LAUNCHER))
        there = worker.run("check", lambda: False, **_job(LAUNCHER))
        assert [p.diagnostic for p in there] == [p.diagnostic for p in here] and here

        outcome = {}

        def slow() -> None:
            try:
                outcome["result"] = worker.run("check", lambda: True, **_job(LARGE))
            except Cancelled:
                outcome["cancelled"] = time.monotonic()

        thread = threading.Thread(target=slow)
        thread.start()
        time.sleep(PATIENCE + 0.2)
        stopped = time.monotonic()
        assert worker.stop_if_stale()
        thread.join(10)
        assert "cancelled" in outcome and outcome["cancelled"] - stopped < 2
        assert not worker.ready

        worker.start()
        assert [p.diagnostic for p in worker.run("check", lambda: False, **_job(LAUNCHER))] == [
            p.diagnostic for p in here]
    finally:
        worker.close()


def test_a_check_that_is_not_stale_or_not_long_is_left_to_run():
    worker = Worker()
    if not worker.available:
        pytest.skip("no fork server on this platform")
    worker.start()
    try:
        assert not worker.stop_if_stale()  # nothing runs
        result = {}
        thread = threading.Thread(target=lambda: result.setdefault(
            "found", worker.run("check", lambda: False, **_job(LAUNCHER))))
        thread.start()
        assert not worker.stop_if_stale()  # not stale
        thread.join(20)
        assert {p.diagnostic.code for p in result["found"]} == {"SMD120"}
    finally:
        worker.close()
