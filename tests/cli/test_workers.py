"""cli.workers and ``validate --jobs``: files checked in forked workers give the output of one process, byte for
byte, results come back as values, and a worker's failure or Ctrl-C reaches the command as in one process."""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import threading

import pytest

from sm_debug_config.cli import workers

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENV = dict(os.environ, PYTHONPATH=ROOT, SAGEMAKER_SUPPRESS_V2_WARNING="1", AWS_REGION="us-east-1")
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux only")

#: Files of every outcome: clean, findings (errors and warnings), unreadable, skipped, a request, a document.
KINDS = {
    "ok.yaml": "examples/tensorflow-builtin-rules.yaml",
    "typos.yaml": "examples/mistakes/typos.yaml",
    "profiling.yaml": "examples/bert-attention-profiling.yaml",
    "pipeline.json": "tests/data/documents/pipeline-definition.json",
}
TEXTS = {
    "broken.yaml": "rules: [VanishingGradient\n",
    "other.yaml": "name: not a debugger file\n",
    "request.json": json.dumps(
        {"DebugHookConfig": {"S3OutputPath": "s3://b/o/", "HookParameters": {"save_interval": "0"}}}
    ),
    "warned.yaml": (
        "region: us-east-1\nrules:\n  - builtin: LossNotDecreasing\n    rule_parameters: {num_steps: '10'}\n"
    ),
}


def _corpus(tmp_path, copies):
    paths = []
    for index in range(copies):
        for name, source in KINDS.items():
            paths.append(tmp_path / f"{index:03d}-{name}")
            shutil.copyfile(os.path.join(ROOT, source), paths[-1])
        for name, text in TEXTS.items():
            paths.append(tmp_path / f"{index:03d}-{name}")
            paths[-1].write_text(text)
    return [str(p) for p in paths]


def _validate(*argv):
    return subprocess.run([sys.executable, "-m", "sm_debug_config", "validate", *argv], env=ENV, cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


@linux_only
@pytest.mark.parametrize("output", ["text", "json", "github"])
def test_workers_print_what_one_process_prints(tmp_path, output):
    files = _corpus(tmp_path, 10)  # 80 files: the auto count forks 2 workers on two CPUs
    alone = _validate("--format", output, "--verbose", "-j", "1", *files)
    assert alone.returncode == 2 and "Traceback" not in alone.stderr  # an unreadable file among them
    for jobs in (["-j", "2"], ["-j", "3"], []):
        forked = _validate("--format", output, "--verbose", *jobs, *files)
        assert (forked.returncode, forked.stdout, forked.stderr) == (alone.returncode, alone.stdout, alone.stderr)
    if output == "json":
        codes = {f["code"] for result in json.loads(alone.stdout)["files"] for f in result["findings"]}
        assert {"SMD132"} <= codes and len(codes) > 3  # the corpus does hold findings of several checks


SCRIPT = textwrap.dedent(
    """
    import os, sys, warnings
    from sm_debug_config.cli.workers import run_per_file

    WARM = []

    def where(path):
        if not WARM:  # the first call fills a cache, as the first file's imports do
            WARM.append(os.getpid())
        if path == "warn":
            warnings.warn("worker " + path)
        if path == "boom":
            raise ValueError("bad file " + path)
        if path == "die":
            os._exit(9)  # killed mid-file (out of memory, say)
        if path == "slow":
            import time; time.sleep(0.2)
        return os.getpid(), WARM[0]

    mode = sys.argv[1]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            done = run_per_file(where, ["plain"] + [mode] * 8 + ["plain"] * 55, jobs=2)
        except ValueError as err:
            print("raised", err); sys.exit(0)
        except Exception as err:
            print("raised", type(err).__name__); sys.exit(0)
        except KeyboardInterrupt:
            print("interrupted"); sys.exit(0)
    here = os.getpid()
    pids = [pid for pid, _ in done]
    first_here_rest_there = pids[0] == here and here not in pids[1:] and len(set(pids[1:])) <= 2
    warm = all(filled == here for _, filled in done)  # the workers inherited what the first file filled here
    print(first_here_rest_there, warm, len(caught), sorted({str(w.message) for w in caught}))
    """
)


def _script(mode):
    done = subprocess.run([sys.executable, "-c", SCRIPT, mode], env=ENV, cwd=ROOT, capture_output=True, text=True,
                          timeout=120)  # a pool waiting for a dead worker would hang here
    return done.stdout.strip(), done.stderr


@linux_only
def test_files_run_in_warm_workers_and_return_values_not_relayed_warnings():
    out, err = _script("warn")
    # results come back as values; what a worker warns all the same is written there, not recorded here
    assert out == "True True 0 []", err  # (which worker took which chunk is the pool's choice)
    assert len(re.findall(r"^\S+:\d+: UserWarning: worker warn$", err, flags=re.M)) == 8, err


@linux_only
def test_a_worker_exception_stops_the_command_as_in_one_process():
    out, err = _script("boom")
    assert out == "raised bad file boom", err


@linux_only
def test_a_worker_that_dies_stops_the_command_instead_of_hanging():
    out, err = _script("die")
    assert out == "raised BrokenProcessPool", err


@linux_only
def test_ctrl_c_stops_the_workers_and_reaches_the_command():
    process = subprocess.Popen([sys.executable, "-c", SCRIPT, "slow"], env=ENV, cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        out, err = process.communicate(timeout=1.0)  # not finished yet: 8 slow files of 0.2 s
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=120)
    assert out.strip() in ("interrupted", "True True 0 []"), err  # (a very slow start may finish first)
    assert "Traceback" not in err


def test_worker_count():
    many = ["f.yaml"] * 1000
    assert workers.worker_count(many, 1) == 1
    assert workers.worker_count(["f.yaml"] * 3, 8) in (1, 3)  # no more workers than files
    assert workers.worker_count(["-"] + many, 4) == 1  # standard input is read here
    assert workers.worker_count(["f.yaml"] * (workers.MIN_FILES_PER_WORKER * 2 - 1), None) == 1


@linux_only
def test_auto_count_follows_the_cpus_and_the_files(monkeypatch):
    monkeypatch.setattr(workers, "_can_fork", lambda: True)
    monkeypatch.setattr(workers, "available_cpus", lambda: 64)
    per = workers.MIN_FILES_PER_WORKER
    assert workers.worker_count(["f"] * (per * 3), None) == 3
    assert workers.worker_count(["f"] * (per * 100), None) == workers.MAX_AUTO_WORKERS
    monkeypatch.setattr(workers, "available_cpus", lambda: 1)
    assert workers.worker_count(["f"] * (per * 100), None) == 1
    assert workers.worker_count(["f"] * (per * 100), 4) == 4  # asked for: as many as asked


def test_no_fork_off_linux_nor_beside_other_threads(monkeypatch):
    monkeypatch.setattr(sys, "platform", "darwin")
    assert not workers._can_fork()
    assert workers.worker_count(["f"] * 1000, 4) == 1
    monkeypatch.setattr(sys, "platform", "linux")
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not workers._can_fork()
    finally:
        stop.set()
        thread.join()


def test_one_process_when_the_first_file_started_a_thread(monkeypatch):
    answers = iter([True, False])  # the check before the first file, then the one after it
    monkeypatch.setattr(workers, "_can_fork", lambda: next(answers))
    monkeypatch.setattr(workers, "available_cpus", lambda: 2)
    pids = workers.run_per_file(lambda path: os.getpid(), ["f"] * (workers.MIN_FILES_PER_WORKER * 2), jobs=2)
    assert set(pids) == {os.getpid()}


def test_one_process_when_there_are_no_semaphores(monkeypatch):
    import concurrent.futures

    def refuse(*args, **kwargs):
        raise OSError("no /dev/shm")

    monkeypatch.setattr(workers, "worker_count", lambda files, jobs: 2)
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", refuse)
    assert workers.run_per_file(str.upper, ["a", "b"], jobs=2) == ["A", "B"]


@pytest.mark.parametrize("value", ["0", "-1", "two", "1.5", "9" * 30, ""])
def test_jobs_must_be_a_count_of_processes(cli, value):
    result = cli("validate", "--jobs", value, "examples/tensorflow-builtin-rules.yaml")
    assert result.returncode == 2
    assert "--jobs" in result.stderr and "whole number" in result.stderr


def test_the_docs_say_when_workers_are_used():
    with open(os.path.join(ROOT, "docs", "command-line.md"), encoding="utf-8") as readme:
        text = " ".join(readme.read().split())
    per, most = workers.MIN_FILES_PER_WORKER, workers.MAX_AUTO_WORKERS
    assert f"from {2 * per} files on" in text and f"up to {most} with at least {per} files each" in text
