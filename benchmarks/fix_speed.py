"""``--fix`` where nothing needs fixing costs what the check costs (issue 38): ``lint --fix`` beside ``lint`` and
``validate --fix`` beside ``validate``, on a generated repository of 2,000 files each.

    python benchmarks/fix_speed.py [--runs N] [--files N] [--base CHECKOUT]

The repository: ``launchers/`` holds 2,000 SDK v2 launchers that configure Debugger (each is linted, not passed
over by lint's text test) and ``configs/`` 2,000 config files (the examples' configs, each a little different);
none has a fix to apply, some have findings without one. Each command runs as a fresh process (as CI runs it),
the plain and the ``--fix`` run alternating, ``--runs`` times each; wall-clock time and the CPU time of the
process and its workers (``RUSAGE_CHILDREN``) are reported as medians, with ``--fix``'s ratio to the plain run;
``--base`` (a checkout of another commit, such as main before ``--fix``) adds its plain run to the rounds, so that
the plain run is compared with what it cost before too.
Nothing is written by a ``--fix`` run here (the script checks the files are unchanged). Nothing is asserted by the
tests.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Dict, List, Optional, Sequence, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

LAUNCHER = '''import sagemaker
from sagemaker.debugger import CollectionConfig, DebuggerHookConfig, Rule, rule_configs
from sagemaker.pytorch import PyTorch

bucket = sagemaker.Session().default_bucket()
save_interval = {interval}
rules = [
    Rule.sagemaker(rule_configs.vanishing_gradient()),
    Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={{"num_steps": str(save_interval * 2)}}),
]
hook = DebuggerHookConfig(
    s3_output_path=f"s3://{{bucket}}/debug/{index}",
    collection_configs=[CollectionConfig("weights", parameters={{"save_interval": str(save_interval)}})],
)
estimator = PyTorch(entry_point="train.py", framework_version="1.13.1", py_version="py39",
                    instance_type="ml.p3.2xlarge", instance_count=1, rules=rules, debugger_hook_config=hook)
estimator.fit(wait=False)
'''


def _configs() -> List[str]:
    """The example configs' texts (the mistakes folder's too: findings with no fix)."""
    folder = os.path.join(ROOT, "examples")
    names = sorted(n for n in os.listdir(folder) if n.endswith(".yaml"))
    names.append(os.path.join("mistakes", "typos.yaml"))
    out = []
    for name in names:
        with open(os.path.join(folder, name), encoding="utf-8") as handle:
            out.append(handle.read())
    return out


def repository(where: str, count: int) -> Tuple[str, str]:
    """``count`` launchers and ``count`` config files under ``where``; their two directories."""
    launchers, configs = os.path.join(where, "launchers"), os.path.join(where, "configs")
    texts = _configs()
    for index in range(count):
        for folder, name, text in (
            (launchers, f"team{index // 100}/launch_{index}.py", LAUNCHER.format(interval=100 + index, index=index)),
            (configs, f"team{index // 100}/job_{index}.yaml", texts[index % len(texts)] + f"# job {index}\n"),
        ):
            path = os.path.join(folder, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
    return launchers, configs


def _snapshot(folder: str) -> Dict[str, float]:
    return {os.path.join(d, n): os.stat(os.path.join(d, n)).st_mtime_ns for d, _, names in os.walk(folder)
            for n in names}


def once(argv: Sequence[str], tree: str = ROOT) -> Tuple[float, float, int]:
    """Wall-clock and CPU seconds (the process and its workers) of one run of the command of ``tree`` (a
    checkout), and its exit code."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "sm_debug_config", *argv], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, env=dict(os.environ, PYTHONPATH=tree), cwd=tree)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done.returncode


def side_by_side(name: str, plain: Sequence[str], fixing: Sequence[str], runs: int, folder: str,
                 base: Optional[str] = None) -> str:
    """The commands alternating ``runs`` times (``base``'s plain run too); one line of medians and ratios."""
    rounds = [("plain", plain, ROOT), ("fix", fixing, ROOT)] + ([("base", plain, base)] if base else [])
    samples: Dict[str, List[Tuple[float, float]]] = {key: [] for key, _, _ in rounds}
    codes = set()
    files = _snapshot(folder)
    once(plain)  # the page cache warm for both
    for _ in range(runs):
        for key, argv, tree in rounds:
            wall, cpu, code = once(argv, tree)
            samples[key].append((wall, cpu))
            codes.add((key, code))
    if _snapshot(folder) != files:
        raise SystemExit(f"{name}: a --fix run wrote a file where nothing needed fixing")
    med = {key: (statistics.median(w for w, _ in s), statistics.median(c for _, c in s)) for key, s in samples.items()}
    line = (f"{name}: plain {med['plain'][0]:.2f} s wall, {med['plain'][1]:.2f} s CPU; --fix {med['fix'][0]:.2f} s "
            f"wall, {med['fix'][1]:.2f} s CPU; ratio --fix/plain {med['fix'][0] / med['plain'][0]:.3f} wall, "
            f"{med['fix'][1] / med['plain'][1]:.3f} CPU")
    if base:
        line += (f"; base plain {med['base'][0]:.2f} s wall, {med['base'][1]:.2f} s CPU, ratio plain/base "
                 f"{med['plain'][0] / med['base'][0]:.3f} wall, {med['plain'][1] / med['base'][1]:.3f} CPU")
    return line + f" (median of {runs}; exit codes {sorted(codes)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--base", help="a checkout of another commit whose plain runs are measured beside")
    args = parser.parse_args()
    base = os.path.abspath(args.base) if args.base else None
    with tempfile.TemporaryDirectory() as where:
        launchers, configs = repository(where, args.files)
        print(f"{args.files} launchers, {args.files} config files; Python {sys.version.split()[0]}, "
              f"{os.cpu_count()} CPUs")
        print(side_by_side("lint", ["lint", "--isolated", launchers], ["lint", "--isolated", "--fix", launchers],
                           args.runs, launchers, base))
        print(side_by_side("validate", ["validate", "--isolated", configs],
                           ["validate", "--isolated", "--fix", configs], args.runs, configs, base))


if __name__ == "__main__":
    main()
