"""Latency of ``sm-debug-config server`` (issue 39), with a real client over stdio.

    python benchmarks/server_latency.py [--edits N] [--starts N] [--json results.json] [--server CMD...]

Measures, on the running machine:

* **didChange -> diagnostics** on a 300-line launcher: the client types one character (``threshold`` <->
  ``threshhold`` of a rule parameter, an incremental change) and stops the clock when the server publishes
  diagnostics for that document that show the change (the SMD120 on that line appears or goes); the next edit is
  sent after that. Median and 95th percentile over ``--edits`` edits (after 4 untimed ones), and the server's CPU
  time per edit (``/proc``: its threads and the processes it starts), which a loaded machine does not inflate as
  it does wall time.
* the same on a **30-cell notebook** (``notebookDocument/didChange`` of one code cell's text), the clock stopped
  by the diagnostics of the edited cell's document.
* **start-up to first diagnostics**: from starting the process (``python -m sm_debug_config server``) to the first
  ``publishDiagnostics`` of the launcher opened right after ``initialize``; median of ``--starts`` starts, with
  the time to the ``initialize`` answer beside it (interpreter and imports) and the server's CPU time until its
  first diagnostics.
* **the engine alone**: the same check in this process (``lint`` of the same texts, no server; wall and CPU), which
  tells how much of each latency is the check and how much the server around it.

The goals (issue 39): 50 ms median and 150 ms p95 after a didChange, start-up within 1 s. Nothing here is
asserted by the tests (``tests/server/test_fuzz.py`` drives the same client); numbers go to docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from typing import Any, Callable, Dict, List, Sequence, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from tests.server.lspclient import LspClient, Published, cpu_seconds, utf16_column  # noqa: E402 - after the path is set

SERVER = [sys.executable, "-m", "sm_debug_config", "server"]
TYPO, FIXED = '"threshhold"', '"threshold"'

DEBUGGER = '''\
import sagemaker
from sagemaker.debugger import (
    CollectionConfig,
    DebuggerHookConfig,
    FrameworkProfile,
    ProfilerConfig,
    ProfilerRule,
    Rule,
    TensorBoardOutputConfig,
    rule_configs,
)
from sagemaker.pytorch import PyTorch

session = sagemaker.Session()
bucket = session.default_bucket()
prefix = f"s3://{bucket}/experiments/{args.run}"
save_every = 100


def rule(name, **parameters):
    config = getattr(rule_configs, name)()
    return Rule.sagemaker(config, rule_parameters={k: str(v) for k, v in parameters.items()})


rules = [rule(name) for name in ("exploding_tensor", "overfit", "poor_weight_initialization")]
rules.append(rule("loss_not_decreasing", num_steps=save_every * 2))
rules.append(Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={THE_KEY: "0.0001"}))
rules.append(ProfilerRule.sagemaker(rule_configs.ProfilerReport()))

hook = DebuggerHookConfig(
    s3_output_path=f"{prefix}/debug",
    collection_configs=[
        CollectionConfig("weights", parameters={"save_interval": str(save_every)}),
        CollectionConfig("gradients", parameters={"save_interval": str(save_every)}),
        CollectionConfig("losses", parameters={"save_interval": "10"}),
    ],
)
profiler = ProfilerConfig(
    system_monitor_interval_millis=500,
    framework_profile_params=FrameworkProfile(start_step=5, num_steps=3),
)
estimator = PyTorch(
    entry_point="train.py",
    source_dir="src",
    role=args.role,
    framework_version="2.0.1",
    py_version="py310",
    instance_count=args.instances,
    instance_type="ml.g5.2xlarge",
    hyperparameters=hyperparameters(args),
    rules=rules,
    debugger_hook_config=hook,
    profiler_config=profiler,
    tensorboard_output_config=TensorBoardOutputConfig(s3_output_path=f"{prefix}/tensorboard"),
)
'''

HELPERS = '''\


def step_{n}(frame, columns, threshold=0.5):
    """Data preparation step {n}: drop sparse columns, scale the rest."""
    kept = []
    for column in columns:
        values = frame[column]
        if values.isna().mean() > threshold:
            continue
        kept.append(column)
    scaled = {{}}
    for column in kept:
        low, high = frame[column].min(), frame[column].max()
        scaled[column] = (frame[column] - low) / ((high - low) or 1)
    return pd.DataFrame(scaled)
'''

HEAD = '''\
"""Launch a PyTorch training job with Debugger rules, a hook and profiling (benchmark launcher)."""
import argparse
import os

import pandas as pd


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--run", default="baseline")
    parser.add_argument("--role", default=os.environ.get("SAGEMAKER_ROLE"))
    parser.add_argument("--instances", type=int, default=1)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--lr", type=float, default=1e-3)
    return parser.parse_args()


def hyperparameters(args):
    return {"epochs": args.epochs, "lr": args.lr, "batch-size": 64}


args = parse_args()
'''

TAIL = '''
if __name__ == "__main__":
    frame = pd.read_csv(os.path.join("data", "train.csv"))
    for index, step in enumerate([{steps}]):
        frame = step(frame, list(frame.columns))
    frame.to_csv("prepared.csv")
    estimator.fit({{"train": f"{{prefix}}/data"}}, wait=False)
'''


def launcher(lines: int = 300) -> str:
    """A launcher of ``lines`` lines: argument parsing, data-preparation helpers, then the Debugger configuration
    (with the rule parameter ``"threshold"`` of VanishingGradient the benchmark misspells and fixes)."""
    head = HEAD + DEBUGGER.replace("THE_KEY", FIXED)
    count = 0
    helpers = ""
    while len((head + helpers + TAIL).splitlines()) < lines - len(HELPERS.splitlines()):
        helpers += HELPERS.format(n=count)
        count += 1
    text = head + helpers + TAIL.format(steps=", ".join(f"step_{n}" for n in range(count)))
    padding = lines - len(text.splitlines())
    return text + "# end of the launcher\n" * max(0, padding)


CELL_FILLER = '''\
import numpy as np
import pandas as pd

frame = pd.read_csv("data/train-{n}.csv")
summary = frame.describe()
for column in frame.columns:
    print(column, np.nanmean(frame[column]))
%matplotlib inline
'''


def notebook_cells(cells: int = 30) -> List[str]:
    """``cells`` code cells: the launcher's Debugger configuration split over 4 cells spread out, filler between."""
    config = [HEAD, DEBUGGER.replace("THE_KEY", FIXED)]
    parts = [config[0], config[1].split("\n\n\ndef rule")[0], "def rule" + config[1].split("\n\n\ndef rule")[1]]
    rule_cell, rest = parts[2].split("\nhook = ", 1)
    sources = [CELL_FILLER.format(n=n) for n in range(cells)]
    for index, source in enumerate([parts[0], parts[1], rule_cell, "hook = " + rest]):
        sources[index * (cells // 4)] = source
    return sources


def toggle_edit(text: str) -> Tuple[int, int, int]:
    """(line, UTF-16 column, length) of the rule parameter key the edits toggle."""
    for number, line in enumerate(text.split("\n")):
        if FIXED in line:
            column = line.index(FIXED) + len('"thresh')
            return number, utf16_column(line, column), 0
    raise SystemExit("benchmark text has no rule parameter to edit")


def has_typo_at(line: int) -> Callable[[Published], bool]:
    return lambda published: any(
        d.get("code") == "SMD120" and d["range"]["start"]["line"] == line for d in published.diagnostics
    )


def lacks_typo_at(line: int) -> Callable[[Published], bool]:
    return lambda published: not has_typo_at(line)(published)


def percentile(samples: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile (95th of 50 samples: the 48th smallest)."""
    ordered = sorted(samples)
    rank = max(1, int(-(-fraction * len(ordered) // 1)))
    return ordered[rank - 1]


def edit_loop(client: LspClient, uri: str, text: str, edits: int,
              send: Callable[[int, Dict[str, Any]], None]) -> List[float]:
    """Types and deletes an ``h`` at the rule parameter ``edits`` times (an even number leaves the text as it
    was); milliseconds of each, from sending the change to the diagnostics that show it. ``send(version,
    change)`` sends one change (versions from 2)."""
    line, column, _ = toggle_edit(text)
    samples: List[float] = []
    for number in range(edits):
        typo = number % 2 == 0
        if typo:
            change = {"range": {"start": {"line": line, "character": column},
                                "end": {"line": line, "character": column}}, "text": "h"}
        else:
            change = {"range": {"start": {"line": line, "character": column},
                                "end": {"line": line, "character": column + 1}}, "text": ""}
        mark = len(client.published)
        start = time.perf_counter()
        send(number + 2, change)
        published = client.wait_diagnostics(uri, 30, after=mark, accept=has_typo_at(line) if typo
                                            else lacks_typo_at(line))
        samples.append((published.at - start) * 1000)
    return samples


def summary(samples: Sequence[float]) -> Dict[str, float]:
    return {"median_ms": round(statistics.median(samples), 1), "p95_ms": round(percentile(samples, 0.95), 1),
            "max_ms": round(max(samples), 1), "n": len(samples)}


def timed_edits(client: LspClient, uri: str, text: str, edits: int,
                send: Callable[[int, Dict[str, Any]], None]) -> Dict[str, float]:
    """:func:`edit_loop`'s summary, with the server's CPU time per edit (user + system, its threads and
    the processes it started)."""
    before = cpu_seconds(client.process.pid)
    samples = edit_loop(client, uri, text, edits, send)
    cpu = (cpu_seconds(client.process.pid) - before) * 1000 / len(samples)
    return dict(summary(samples), server_cpu_per_edit_ms=round(cpu, 1))


def bench_launcher(server: List[str], edits: int, folder: str) -> Dict[str, float]:
    text = launcher()
    path = os.path.join(folder, "launch.py")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    uri = "file://" + path
    with LspClient(server, cwd=folder) as client:
        client.initialize(folder)
        client.open(uri, "python", text)
        client.wait_diagnostics(uri, 60)
        edit_loop(client, uri, text, 4, lambda version, change: client.change(uri, version, [change]))
        return timed_edits(client, uri, text, edits,
                           lambda version, change: client.change(uri, version + 4, [change]))


def bench_notebook(server: List[str], edits: int, folder: str) -> Dict[str, float]:
    cells = notebook_cells()
    uri = "file://" + os.path.join(folder, "train.ipynb")
    edited = next(index for index, cell in enumerate(cells) if FIXED in cell)
    with LspClient(server, cwd=folder) as client:
        client.initialize(folder)
        cell_uris = client.open_notebook(uri, cells)
        client.wait_diagnostics(cell_uris[0], 60)
        edit_loop(client, cell_uris[edited], cells[edited], 4,
                  lambda version, change: client.change_cell(uri, version, cell_uris[edited], [change]))
        return timed_edits(client, cell_uris[edited], cells[edited], edits,
                           lambda version, change: client.change_cell(uri, version + 4, cell_uris[edited], [change]))


def bench_startup(server: List[str], starts: int, folder: str) -> Dict[str, float]:
    text = launcher()
    path = os.path.join(folder, "launch.py")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    first: List[float] = []
    initialized: List[float] = []
    cpu: List[float] = []
    for _ in range(starts):
        with LspClient(server, cwd=folder) as client:
            ident = client.send_request("initialize", {"processId": os.getpid(), "rootUri": "file://" + folder,
                                                       "capabilities": {}})
            answered = client.answer(ident, 60)["at"]
            client.notify("initialized", {})
            client.open("file://" + path, "python", text)
            published = client.wait_diagnostics("file://" + path, 60)
            cpu.append(cpu_seconds(client.process.pid) * 1000)
            initialized.append((answered - client.started) * 1000)
            first.append((published.at - client.started) * 1000)
    return {"first_diagnostics_median_ms": round(statistics.median(first), 1),
            "first_diagnostics_max_ms": round(max(first), 1),
            "server_cpu_to_first_diagnostics_median_ms": round(statistics.median(cpu), 1),
            "initialize_answered_median_ms": round(statistics.median(initialized), 1), "n": starts}


def bench_engine(runs: int, folder: str) -> Dict[str, float]:
    """The check alone, in this process: ``lint`` of the launcher's text and of the notebook, warm."""
    from sm_debug_config.lint import lint_file, lint_text

    text = launcher()
    notebook = os.path.join(folder, "engine.ipynb")
    with open(notebook, "w", encoding="utf-8") as handle:
        json.dump({"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                              "source": source} for source in notebook_cells()],
                   "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, handle)
    lint_text(text)
    lint_file(notebook)

    def timed(func: Callable[[], Any]) -> Dict[str, float]:
        samples, cpu = [], []
        for _ in range(runs):
            start, start_cpu = time.perf_counter(), time.process_time()
            func()
            samples.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
        return dict(summary(samples), cpu_median_ms=round(statistics.median(cpu), 1))

    return {"launcher": timed(lambda: lint_text(text)),
            "notebook": timed(lambda: lint_file(notebook))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=60, help="timed edits per document (default 60)")
    parser.add_argument("--starts", type=int, default=5, help="server starts timed (default 5)")
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--server", nargs=argparse.REMAINDER, help="the server's command (default: %(default)s)",
                        default=SERVER)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        results: Dict[str, Any] = {
            "machine": f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}, "
                       f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start",
        }
        results["startup"] = bench_startup(args.server, args.starts, folder)
        results["launcher_300_lines"] = bench_launcher(args.server, args.edits, folder)
        results["notebook_30_cells"] = bench_notebook(args.server, args.edits, folder)
        results["engine_alone"] = bench_engine(args.edits, folder)
        results["load_average_at_end"] = round(os.getloadavg()[0], 2)
    print(json.dumps(results, indent=1))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(results, handle, indent=1)


if __name__ == "__main__":
    main()
