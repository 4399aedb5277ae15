"""Parse cost: 1 MiB config files of the costly shapes, read, refused or validated (CPU seconds).

    python benchmarks/parse_cost.py [--runs N]

Each shape is written to a temporary file and read through ``configfile.load`` in this process
and through ``sm-debug-config validate`` in a child process (CPU of the child, start-up included).
The target (issue 23) is under 0.5 s of CPU for any shape; nothing here is asserted by the tests.
The bounded refusals that tests/configfile/test_parse.py checks by their result only (a test asserts no
time) are rows here too: the bracket count on 1 MiB, a 2 MB file, an alias bomb, 100,000-deep nesting.
Documents larger than a config file (issue 32: sizes by kind) are rows too: a 6 MiB CreateTrainingJob request
validated, a 6 MiB JSON that is no Debugger document skipped, and (with python-hcl2) a 1 MiB ``.tf`` file
validated, each with the child's peak memory.
``benchmarks/run.py`` can add these rows with ``bench_parse_cost(runs, rows)``.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
ENV = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
ENV.pop("PYTHONDONTWRITEBYTECODE", None)  # as run.py: bytecode cached, as for an installed package


def shapes():
    """``[(name, file name, text)]``: about 1 MiB each, under the 1 MiB limit."""
    rule = {"builtin": "VanishingGradient", "rule_parameters": {"threshold": 0.1}}
    return [
        ("JSON array of 340,000 zeros", "zeros.json", json.dumps([0] * 340_000)),
        ("YAML block list of 262,000 zeros", "zeros.yaml", "- 0\n" * 262_000),
        ("YAML flow list of 520,000 zeros", "flow.yaml", "[" + "0," * 520_000 + "0]"),
        ("JSON unknown key holding 30,000 lists", "bigmap.json",
         json.dumps({"region": "us-east-1", "junk": {f"k{i}": [i, "x" * 10] for i in range(30_000)}})),
        ("YAML unknown key holding 50,000 lists", "bigmap.yaml",
         "region: us-east-1\njunk:\n" + "".join(f"  k{i}: [{i}, x]\n" for i in range(50_000))),
        ("JSON of 8,000 valid rules", "rules.json", json.dumps({"region": "us-east-1", "rules": [rule] * 8_000})),
        ("JSON 1 MiB string", "long.json", json.dumps({"region": "x" * ((1 << 20) - 100)})),
    ]


def refusals():
    """``[(name, text, format)]``: texts ``configfile.loads`` must refuse before doing work in their size."""
    aliases = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    aliases += [f"a{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * 10) + "]" for n in range(1, 9)]
    return [
        ("YAML aliases expanding to 10^9 values", "\n".join(aliases) + "\n", None),
        ("YAML flow nested 200,000 deep", "rules: " + "[" * 200_000, None),
        ("JSON nested 200,000 deep", '{"rules": ' + "[" * 200_000, "json"),
        ("YAML flow nested 100,000 deep, closed", "a: " + "[" * 100_000 + "]" * 100_000, None),
        ("YAML block list nested 100,000 deep", "a:\n" + "- " * 100_000 + "x\n", None),
        ("YAML mapping nested 100,000 deep", "a: " + "{b: " * 100_000 + "1" + "}" * 100_000, None),
    ]


def depth_counts():
    """``[(name, text)]``: 1 MiB inputs of the bracket count run before parsing (``parse.too_deep_at``)."""
    return [("1 MiB of [] pairs", "[]" * (1 << 19)), ("1 MiB of open brackets", "a: " + "[" * (1 << 20))]


def large_documents():
    """``[(name, file name, text)]``: 6 MiB documents validate reads as what they are (limits.MAX_FILE_BYTES)."""
    request = {
        "TrainingJobName": "large", "RoleArn": "arn:aws:iam::123456789012:role/R",
        "AlgorithmSpecification": {"TrainingImage": "763104351884.dkr.ecr.us-east-1.amazonaws.com/"
                                                    "pytorch-training:2.0.0-gpu-py310", "TrainingInputMode": "File"},
        "DebugHookConfig": {"S3OutputPath": "s3://b/debug", "HookParameters": {"save_interval": "0"}},
        "HyperParameters": {f"embedding_{i}": "0.1," * 510 for i in range(3073)},
    }
    rows = {"rows": [{"id": i, "label": "x" * 90} for i in range(51_000)]}
    out = [("a 6 MiB CreateTrainingJob request, validated", "request.json", json.dumps(request, indent=1)),
           ("a 6 MiB JSON of no Debugger kind, skipped", "data.json", json.dumps(rows, indent=1))]
    from sm_debug_config.documents.hcl import has_hcl2

    if has_hcl2():  # the terraform extra: a .tf file as large as it may be, training jobs written by hand
        with open(os.path.join(ROOT, "tests", "data", "documents", "terraform-debugger.tf"), encoding="utf-8") as f:
            body = f.read().split('resource "aws_sagemaker_pipeline"')[0].split('"train" ', 1)[1]
        jobs = []
        while sum(map(len, jobs)) + len(body) + 50 < 1 << 20:  # under the limit of a .tf file
            jobs.append(f'resource "aws_sagemaker_training_job" "job{len(jobs)}" {body}')
        out.append((f"a 1 MiB .tf file of {len(jobs)} training jobs (python-hcl2)", "main.tf", "".join(jobs)))
    return out


#: ``validate FILE`` that says its peak resident memory on exit (VmHWM of the process's own memory, Linux; the
#: rusage of a child counts the memory of the parent it was forked from).
_PEAK = ("import atexit, runpy, sys\n"
         "atexit.register(lambda: sys.stderr.write(next(l for l in open('/proc/self/status') if l[:6] == 'VmHWM:')))\n"
         "sys.argv = ['sm-debug-config', 'validate', sys.argv[1]]\n"
         "runpy.run_module('sm_debug_config', run_name='__main__', alter_sys=True)\n")


def _cli_cpu_and_memory(path):
    """CPU seconds and peak resident MiB of ``validate path`` in a child process."""
    child = subprocess.Popen([sys.executable, "-c", _PEAK, path], env=ENV, cwd=ROOT,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    said = child.stderr.read()
    _, _, usage = os.wait4(child.pid, 0)
    child.returncode = 0  # reaped here
    child.stderr.close()
    peak_kib = int(said.rsplit("VmHWM:", 1)[1].split()[0])
    return usage.ru_utime + usage.ru_stime, peak_kib / 1024


def _cpu(function, *args, **kwargs):
    """CPU seconds of ``function(*args, **kwargs)``; a ``ConfigError`` is the expected answer."""
    from sm_debug_config.errors import ConfigError

    start = time.process_time()
    with contextlib.suppress(ConfigError):
        function(*args, **kwargs)
    return time.process_time() - start


def _load_cpu(path):
    from sm_debug_config import configfile

    start = time.process_time()
    with contextlib.suppress(configfile.ConfigFileError):  # a refused file costs CPU too
        configfile.load(path)
    return time.process_time() - start


def _cli_cpu(path):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "sm_debug_config", "validate", path], env=ENV, cwd=ROOT,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def bench_parse_cost(runs, rows):
    """Append ``(measure, CPU seconds, note)`` rows: each shape through ``configfile.load`` and the CLI, then the
    refusals and the bracket count in this process."""
    from sm_debug_config import configfile
    from sm_debug_config.configfile.parse import too_deep_at

    with tempfile.TemporaryDirectory() as tmp:
        _cli_cpu(os.path.join(tmp, "missing.yaml"))  # warm-up: bytecode written
        for name, filename, text in shapes():
            path = os.path.join(tmp, filename)
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
            load = statistics.median(_load_cpu(path) for _ in range(runs))
            cli = statistics.median(_cli_cpu(path) for _ in range(runs))
            rows.append((f"parse cost, load: {name}", load, "CPU; target < 0.5 s"))
            rows.append((f"parse cost, validate CLI: {name}", cli, "CPU with start-up; target < 0.5 s"))
        for name, filename, text in large_documents():
            path = os.path.join(tmp, filename)
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
            measured = [_cli_cpu_and_memory(path) for _ in range(runs)]
            cpu = statistics.median(m[0] for m in measured)
            peak = statistics.median(m[1] for m in measured)
            rows.append((f"parse cost, validate CLI: {name}", cpu, f"CPU with start-up; peak {peak:.0f} MiB resident"))
        huge = os.path.join(tmp, "huge.yaml")
        with open(huge, "w", encoding="utf-8") as handle:
            handle.write("region: us-east-1\n" + "# padding\n" * 210_000)  # ~2 MB: over the size limit
        seconds = statistics.median(_cpu(configfile.load, huge) for _ in range(runs))
        rows.append(("parse cost, refuse: a 2 MB file", seconds, "CPU; refused by its size"))
    for name, text, fmt in refusals():
        seconds = statistics.median(_cpu(configfile.loads, text, filename="job.yaml", format=fmt) for _ in range(runs))
        rows.append((f"parse cost, refuse: {name}", seconds, "CPU; refused before the work grows"))
    for name, text in depth_counts():
        seconds = statistics.median(_cpu(too_deep_at, text) for _ in range(runs))
        rows.append((f"parse cost, depth count: {name}", seconds, "CPU of parse.too_deep_at"))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    rows = []
    bench_parse_cost(args.runs, rows)
    print(f"{'measure':<70} {'median':>10}  note")
    for name, seconds, note in rows:
        print(f"{name:<70} {seconds * 1000:>7.0f} ms  {note}")


if __name__ == "__main__":
    main()
