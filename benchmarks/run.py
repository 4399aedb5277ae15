"""Benchmarks: sm-debug-config side by side with bare Python and the SageMaker Python SDK v2, with ratios.

    python benchmarks/run.py [--runs N] [--files N] [--startup-only] [--plan-only] [--json results.json]

Measured in one run on this machine (nothing here is asserted by the tests). Start-up: bare
``python -c pass``, ``import sm_debug_config``, ``import attrs, yaml`` (what any attrs + PyYAML tool pays
before its own code: validate's floor), import + render, the CLI's validate and render of
one example, ``--help``, and validate of --files copies of an example in one process (``-j 1``) and in
the default worker processes (CPU time is then that of all of them), all run
interleaved (one round runs each command once, so a loaded machine slows them alike), each the
median of --runs rounds, wall time beside CPU time (user + system of the child), with the ratio
of each to bare Python. Goals (issue 31): ``import sm_debug_config`` at most 1.2x bare Python; validate of one
file at most 1.8x its floor (the note gives the ratio), and no slower than before; 1,000 files within 1 s.
Bytecode is cached as in an installed package (PYTHONDONTWRITEBYTECODE is unset for the
children). Then build+render+validate throughput of the BERT-with-profiling scenario against
the SDK v2 Estimator's own request building, and peak RSS of the CLI. The SDK side is skipped
when ``sagemaker`` is not installed. ``plan`` of an SDK v2 Estimator launcher
(tests/data/launchers/v2_pytorch.py: a PyTorch Estimator with a rule, ``fit()`` waiting, logs on)
beside the bare ``import sagemaker`` it cannot go below, interleaved the same way (goal: at most
``import sagemaker`` + 2 s wall); ``--plan-only`` runs those two alone (needs the SDK and moto).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
EXAMPLE = os.path.join(ROOT, "examples", "bert-attention-profiling.yaml")
#: The file of the start-up target (validate one file at most 1.8x its floor) and of the many-files run.
ONE_EXAMPLE = os.path.join(ROOT, "examples", "tensorflow-builtin-rules.yaml")
RENDER_ONE = ("import sm_debug_config as s; s.render([s.Rule.sagemaker(s.rule_configs.vanishing_gradient())], "
              "region='us-east-1', output_path='s3://b/o/')")
#: validate's floor as issue 31 defines it: what any attrs + PyYAML tool pays before its own code (validate imports
#: PyYAML as it is, since issue 36: configfile.parse.pyyaml).
FLOOR = "import attrs, yaml"
ENV = dict(
    os.environ, SAGEMAKER_SUPPRESS_V2_WARNING="1", PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")
)
# Measure installed-package conditions: bytecode cached (pip compiles site-packages, so the SDK
# has it; an editable checkout only gets it once Python may write it). Each measure is warmed up.
ENV.pop("PYTHONDONTWRITEBYTECODE", None)


def _run(argv):
    """One run of ``argv``: (wall seconds, CPU seconds of the child: user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(argv, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} failed: {result.stderr.decode()[-500:]}")
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def _time_interleaved(commands, runs):
    """Median (wall, CPU) of each command, the runs interleaved (one round runs each command once).

    Interleaving spreads the load of a shared machine over all commands alike, so that their
    ratios hold even when the absolute times drift. Each command runs once first, unmeasured.
    """
    for argv in commands.values():
        subprocess.run(argv, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    samples = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            samples[name].append(_run(argv))
    return {
        name: (statistics.median(w for w, _ in rows), statistics.median(c for _, c in rows))
        for name, rows in samples.items()
    }


def _peak_rss_mb(argv):
    code = (
        "import resource, subprocess, sys\n"
        f"subprocess.run({argv!r}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], env=ENV, capture_output=True, text=True, cwd=ROOT)
    return int(out.stdout.strip()) / 1024.0


def _has_sagemaker():
    return (
        subprocess.run([sys.executable, "-c", "import sagemaker.debugger"], env=ENV, capture_output=True).returncode
        == 0
    )


def _cli():
    exe = shutil.which("sm-debug-config", path=os.path.dirname(sys.executable))
    return [exe] if exe else [sys.executable, "-m", "sm_debug_config"]


def _copies(tmp, count):
    """``count`` copies of the example in ``tmp``: the files of ``validate`` many files in one run."""
    paths = []
    for index in range(count):
        path = os.path.join(tmp, f"config-{index:04d}.yaml")
        shutil.copyfile(ONE_EXAMPLE, path)
        paths.append(path)
    return paths


def bench_startup(runs, files, rows, sdk):
    """Start-up of ``import sm_debug_config`` and of the CLI beside bare Python, interleaved; ratios of CPU time."""
    cli = _cli()
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "import sm_debug_config": [sys.executable, "-c", "import sm_debug_config"],
        # what validate cannot go below: the libraries it needs, imported (PyYAML as the CLI imports it)
        "import attrs + yaml (validate's floor)": [sys.executable, "-c", FLOOR],
        "import + build a rule + render + validate": [sys.executable, "-c", RENDER_ONE],
        "sm-debug-config validate (1 example)": cli + ["validate", ONE_EXAMPLE],
        "sm-debug-config render (1 example)": cli + ["render", EXAMPLE],
        "sm-debug-config --help": cli + ["--help"],
    }
    if sdk:
        commands["import sagemaker.debugger (SDK v2)"] = [sys.executable, "-c", "import sagemaker.debugger"]
    with tempfile.TemporaryDirectory() as tmp:
        copies = _copies(tmp, files)
        # the default spreads the files over forked workers (validate --jobs); -j 1 is one process
        commands[f"sm-debug-config validate ({files} files, -j 1)"] = cli + ["validate", "--format", "json",
                                                                              "-j", "1"] + copies
        commands[f"sm-debug-config validate ({files} files, default jobs)"] = cli + ["validate", "--format",
                                                                                     "json"] + copies
        times = _time_interleaved(commands, runs)
    bare_wall, bare_cpu = times["python -c pass"]
    floor_cpu = times["import attrs + yaml (validate's floor)"][1]
    for name, (wall, cpu) in times.items():
        note = f"{wall / files * 1000:.2f} ms per file" if "files" in name else None
        if name in ("sm-debug-config validate (1 example)", "sm-debug-config render (1 example)"):
            note = f"{cpu / floor_cpu:.2f}x the floor's CPU (goal: 1.8x)"
        rows.append((name, wall, cpu, cpu / bare_cpu, wall / bare_wall, note))
    rss = _peak_rss_mb(cli + ["validate", EXAMPLE])
    rows.append(("peak RSS, sm-debug-config validate", None, None, None, None, f"{rss:.1f} MiB"))


PLAN_LAUNCHER = os.path.join("tests", "data", "launchers", "v2_pytorch.py")


def _has_moto():
    return subprocess.run([sys.executable, "-c", "import moto"], env=ENV, capture_output=True).returncode == 0


def bench_plan(runs, rows):
    """``plan`` of an SDK v2 Estimator launcher beside bare ``import sagemaker``, interleaved: the difference is
    what plan adds (moto, the role, the launcher's own work under moto, the checks) to what the launcher imports."""
    commands = {
        "import sagemaker (SDK v2)": [sys.executable, "-c", "import sagemaker"],
        "sm-debug-config plan: an SDK v2 Estimator launcher": _cli() + ["plan", PLAN_LAUNCHER],
    }
    times = _time_interleaved(commands, runs)
    (base_wall, base_cpu), (wall, cpu) = times.values()
    rows.append(("import sagemaker (SDK v2)", base_wall, base_cpu, None, None, "plan's floor"))
    note = f"import sagemaker + {wall - base_wall:.2f} s wall, + {cpu - base_cpu:.2f} s CPU (goal: + 2 s wall)"
    rows.append(("sm-debug-config plan: an SDK v2 Estimator launcher", wall, cpu, None, None, note))


def _ours_once(scenario):
    import sm_debug_config as ns

    kwargs = scenario.build(ns)
    return ns.render(
        **kwargs, region="us-east-1", output_path="s3://my-bucket/bert/", job_name="bert-1", framework="pytorch"
    )


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
    estimator._prepare_for_training(job_name="bert-1")  # noqa: SLF001 - what the SDK's fit() runs first
    return _TrainingJob._get_train_args(estimator, None, None)  # noqa: SLF001 - the request the SDK would send


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
    rows.append(("build + render + validate BERT scenario (ours)", None, None, None, None, f"{ours:,.0f} per second"))
    if sdk:
        import logging
        import warnings

        import boto3
        import sagemaker

        logging.disable(logging.WARNING)
        warnings.simplefilter("ignore")
        session = sagemaker.Session(
            boto_session=boto3.Session(region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x"),
            default_bucket="my-bucket",
        )
        theirs = _rate(lambda: _sdk_once(scenario, session))
        rows.append(("build + SDK v2 Estimator request building (same objects)", None, None, None, None,
                     f"{theirs:,.0f} per second; ours {ours / theirs:.1f}x"))


def _ms(seconds):
    return f"{seconds * 1000:.1f} ms" if seconds is not None else ""


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--json", metavar="PATH")
    parser.add_argument("--startup-only", action="store_true", help="skip the SDK's import and the throughput scenario")
    parser.add_argument("--plan-only", action="store_true", help="only plan of an SDK v2 launcher and import sagemaker")
    args = parser.parse_args(argv)
    sdk = _has_sagemaker()
    rows = []
    if not args.plan_only:
        bench_startup(args.runs, args.files, rows, sdk and not args.startup_only)
    if not args.startup_only:
        if sdk and _has_moto():
            bench_plan(args.runs, rows)
        elif args.plan_only:
            raise SystemExit("--plan-only needs the SageMaker Python SDK v2 and moto")
    if not args.startup_only and not args.plan_only:
        bench_throughput(rows, sdk)
    machine = (
        f"{platform.python_implementation()} {platform.python_version()}, {platform.system()} {platform.machine()}, "
        f"{os.cpu_count()} cores"
    )
    load = "/".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "unknown"
    print(
        f"machine: {machine}; medians of {args.runs} interleaved runs, bytecode cached (PYTHONDONTWRITEBYTECODE unset)"
    )
    print(f"load average at the end (1/5/15 min): {load}")
    print(f"{'measure':<58} {'wall':>10} {'CPU':>10} {'CPU/bare':>9} {'wall/bare':>9}  note")
    for name, wall, cpu, cpu_ratio, wall_ratio, note in rows:
        ratios = [f"{r:.2f}x" if r is not None else "" for r in (cpu_ratio, wall_ratio)]
        print(f"{name:<58} {_ms(wall):>10} {_ms(cpu):>10} {ratios[0]:>9} {ratios[1]:>9}  {note or ''}")
    if args.json:
        keys = ("measure", "wall_seconds", "cpu_seconds", "cpu_ratio_to_bare", "wall_ratio_to_bare", "note")
        with open(args.json, "w", encoding="utf-8") as handle:
            rows_out = [dict(zip(keys, row)) for row in rows]
            json.dump({"machine": machine, "load": load, "rows": rows_out}, handle, indent=2)


if __name__ == "__main__":
    main()
