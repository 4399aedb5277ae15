"""Benchmarks: sm-debug-config side by side with the SageMaker Python SDK v2, with ratios.

    python benchmarks/run.py [--runs N] [--files N] [--json results.json]

Measured in one run on this machine (nothing here is asserted by the tests):
import time (separate processes, median of --runs), CLI validate/render on one example and
validate on --files files in one process, build+render+validate throughput of the
BERT-with-profiling scenario against the SDK v2 Estimator's own request building, and peak
RSS of the CLI. The SDK side is skipped when ``sagemaker`` is not installed.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
EXAMPLE = os.path.join(ROOT, "examples", "bert-attention-profiling.yaml")
ENV = dict(os.environ, SAGEMAKER_SUPPRESS_V2_WARNING="1", PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
# Measure installed-package conditions: bytecode cached (pip compiles site-packages, so the SDK
# has it; an editable checkout only gets it once Python may write it). Each measure is warmed up.
ENV.pop("PYTHONDONTWRITEBYTECODE", None)


def _time_process(argv, runs):
    subprocess.run(argv, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)  # warm-up
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        result = subprocess.run(argv, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
        samples.append(time.perf_counter() - start)
        if result.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(argv)} failed: {result.stderr.decode()[-500:]}")
    return statistics.median(samples)


def _peak_rss_mb(argv):
    code = (
        "import resource, subprocess, sys\n"
        f"subprocess.run({argv!r}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], env=ENV, capture_output=True, text=True, cwd=ROOT)
    return int(out.stdout.strip()) / 1024.0


def _has_sagemaker():
    return subprocess.run([sys.executable, "-c", "import sagemaker.debugger"], env=ENV, capture_output=True).returncode == 0


def _cli():
    exe = shutil.which("sm-debug-config", path=os.path.dirname(sys.executable))
    return [exe] if exe else [sys.executable, "-m", "sm_debug_config"]


def bench_imports(runs, rows, sdk):
    bare = _time_process([sys.executable, "-c", "pass"], runs)
    ours = _time_process([sys.executable, "-c", "import sm_debug_config"], runs)
    ours_used = _time_process([sys.executable, "-c", "import sm_debug_config as s; s.render([s.Rule.sagemaker(s.rule_configs.vanishing_gradient())], region='us-east-1', output_path='s3://b/o/')"], runs)
    rows.append(("import: python -c pass", bare, None))
    rows.append(("import sm_debug_config", ours, f"{ours / bare:.2f}x bare python"))
    rows.append(("import + build a rule + render + validate", ours_used, f"{ours_used / bare:.2f}x bare python"))
    if sdk:
        theirs = _time_process([sys.executable, "-c", "import sagemaker.debugger"], runs)
        rows.append(("import sagemaker.debugger (SDK v2)", theirs, f"{theirs / ours:.1f}x sm_debug_config; {theirs / ours_used:.1f}x import+render"))
    return bare


def bench_cli(runs, files, rows):
    cli = _cli()
    one = _time_process(cli + ["validate", EXAMPLE], runs)
    rows.append(("sm-debug-config validate (1 example)", one, None))
    rendered = _time_process(cli + ["render", EXAMPLE], runs)
    rows.append(("sm-debug-config render (1 example)", rendered, None))
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for index in range(files):
            path = os.path.join(tmp, f"config-{index:04d}.yaml")
            shutil.copyfile(EXAMPLE, path)
            paths.append(path)
        many = _time_process(cli + ["validate", "--format", "json"] + paths, max(1, runs // 3))
    rows.append((f"sm-debug-config validate ({files} files, one process)", many, f"{many / files * 1000:.2f} ms per file"))
    rss = _peak_rss_mb(cli + ["validate", EXAMPLE])
    rows.append(("peak RSS, sm-debug-config validate", None, f"{rss:.1f} MiB"))


def _ours_once(scenario):
    import sm_debug_config as ns

    kwargs = scenario.build(ns)
    return ns.render(**kwargs, region="us-east-1", output_path="s3://my-bucket/bert/", job_name="bert-1", framework="pytorch")


def _sdk_once(scenario, session):
    import sagemaker.debugger as ns
    from sagemaker.estimator import Estimator, _TrainingJob

    kwargs = scenario.build(ns)
    estimator = Estimator(
        image_uri="111122223333.dkr.ecr.us-east-1.amazonaws.com/bert:1",
        role="arn:aws:iam::111122223333:role/SageMaker",
        instance_count=1,
        instance_type="ml.p3.2xlarge",
        output_path="s3://my-bucket/bert/",
        sagemaker_session=session,
        **kwargs,
    )
    estimator._prepare_for_training(job_name="bert-1")
    return _TrainingJob._get_train_args(estimator, None, None)


def _rate(function, seconds=2.0):
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        function()
        count += 1
    return count / (time.perf_counter() - start)


def bench_throughput(rows, sdk):
    sys.path.insert(0, HERE)
    sys.path.insert(0, ROOT)
    import scenario

    ours = _rate(lambda: _ours_once(scenario))
    rows.append(("build + render + validate BERT scenario (ours)", None, f"{ours:,.0f} per second"))
    if sdk:
        import logging
        import warnings

        import boto3
        import sagemaker

        logging.disable(logging.WARNING)
        warnings.simplefilter("ignore")
        session = sagemaker.Session(boto_session=boto3.Session(region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x"), default_bucket="my-bucket")
        theirs = _rate(lambda: _sdk_once(scenario, session))
        rows.append(("build + SDK v2 Estimator request building (same objects)", None, f"{theirs:,.0f} per second; ours {ours / theirs:.1f}x"))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args(argv)
    sdk = _has_sagemaker()
    rows = []
    bench_imports(args.runs, rows, sdk)
    bench_cli(args.runs, args.files, rows)
    bench_throughput(rows, sdk)
    machine = f"{platform.python_implementation()} {platform.python_version()}, {platform.system()} {platform.machine()}, {os.cpu_count()} cores"
    print(f"machine: {machine}")
    print(f"{'measure':<58} {'median':>10}  note")
    for name, seconds, note in rows:
        shown = f"{seconds * 1000:.1f} ms" if seconds is not None else ""
        print(f"{name:<58} {shown:>10}  {note or ''}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump({"machine": machine, "rows": [{"measure": n, "seconds": s, "note": t} for n, s, t in rows]}, handle, indent=2)


if __name__ == "__main__":
    main()
