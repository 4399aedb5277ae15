"""``validate`` of many config files, this tree side by side with another (by default 3cc04ae), with ratios.

    python benchmarks/bulk_validate.py --base /path/to/other/tree [--files 10000] [--runs 3] [--callgrind]
    python benchmarks/bulk_validate.py --base . --stages 200

Issue 36's goals, measured in one run (nothing here is asserted by the tests):

1. ``validate DIR`` of ``--files`` config files (variants of ``examples/*.yaml``: each its own ``job_name``, 100
   files a directory) with the default workers: wall time, at most half the base tree's.
2. The same with ``-j 1`` (one process): CPU per file, beside the CPU per file of PyYAML's libyaml ``compose``
   of the same files in this process (goal: at most 10x).
3. One-file ``validate examples/tensorflow-builtin-rules.yaml``: CPU time, and with ``--callgrind`` the
   instructions executed (load-independent), no more than the base tree's.

``--stages N`` instead splits this tree's per-file path (instructions per file under callgrind): libyaml's
``compose``, our composer, reading (file, parse, kind), loading (building the objects), all of validate.

Each tree runs as ``python -m sm_debug_config`` with ``PYTHONPATH`` set to it, bytecode compiled first and
cached (as in an installed package); the two trees' runs are interleaved (one round runs each once, so a
loaded machine slows them alike) and the median of ``--runs`` rounds is printed.
"""
from __future__ import annotations

import argparse
import glob
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Dict, List, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ONE = os.path.join("examples", "tensorflow-builtin-rules.yaml")
PER_DIRECTORY = 100


def make_corpus(folder: str, count: int) -> List[str]:
    """``count`` config files under ``folder``: the examples in turn, each with its own job name."""
    examples = sorted(glob.glob(os.path.join(ROOT, "examples", "*.yaml")))
    texts = []
    for path in examples:
        with open(path, encoding="utf-8") as handle:
            texts.append(handle.read())
    paths = []
    for number in range(count):
        text = texts[number % len(texts)]
        if re.search(r"^job_name:", text, re.M):
            text = re.sub(r"^job_name: *(\S+)", rf"job_name: \g<1>-{number}", text, count=1, flags=re.M)
        else:
            text += f"job_name: bulk-{number}\n"
        directory = os.path.join(folder, f"d{number // PER_DIRECTORY:03d}")
        os.makedirs(directory, exist_ok=True)
        path = os.path.join(directory, f"config-{number:05d}.yaml")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        paths.append(path)
    return paths


def _env(tree: str) -> Dict[str, str]:
    env = dict(os.environ, PYTHONPATH=tree, SAGEMAKER_SUPPRESS_V2_WARNING="1")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run(tree: str, arguments: List[str]) -> Tuple[float, float, int]:
    """Wall and CPU time (the child's and its workers') of ``python -m sm_debug_config ARGUMENTS`` in ``tree``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "sm_debug_config", *arguments], cwd=tree, env=_env(tree),
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{tree}: {' '.join(arguments)} exited {done.returncode}: {done.stderr[-2000:]}")
    return wall, cpu, done.returncode


def compose_cpu(paths: List[str]) -> float:
    """CPU seconds per file of ``yaml.compose(text, Loader=yaml.CSafeLoader)`` (reading the file included)."""
    import yaml

    start = time.process_time()
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            yaml.compose(handle.read(), Loader=yaml.CSafeLoader)
    return (time.process_time() - start) / len(paths)


def callgrind(tree: str, arguments: List[str]) -> int:
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("--callgrind needs valgrind on the PATH")
    out = subprocess.run(
        [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, *arguments],
        cwd=tree, env=_env(tree), capture_output=True, text=True,
    )
    found = re.search(r"refs:\s+([\d,]+)", out.stderr)
    if not found:
        raise SystemExit(f"callgrind said: {out.stderr[-1000:]}")
    return int(found.group(1).replace(",", ""))


#: ``--stages``: each a child run under callgrind over the same files, the stages before it included, so the
#: difference between two rows is one stage's instructions (``none``: imports and one warm-up file only).
STAGES = r"""
import glob, sys
from sm_debug_config.cli.files import read
from sm_debug_config.configfile.parse import compose_yaml, pyyaml
yaml = pyyaml()
stage, paths = sys.argv[1], sorted(glob.glob(sys.argv[2] + "/*/*.yaml"))
texts = [open(path, encoding="utf-8").read() for path in paths]
compose_yaml(texts[0], "x", top_mapping=True)
yaml.compose(texts[0], Loader=yaml.CSafeLoader)
read(paths[0], "auto").load(as_far_as_possible=True)
for path, text in zip(paths, texts):
    if stage == "libyaml compose":
        yaml.compose(text, Loader=yaml.CSafeLoader)
    elif stage == "our compose":
        compose_yaml(text, path, top_mapping=True)
    elif stage == "read (file, parse, kind)":
        read(path, "auto")
    elif stage == "load (+ build the objects)":
        read(path, "auto").load(as_far_as_possible=True)
"""


def stages(count: int) -> None:
    """Instructions per file of each stage of validate's per-file path, over ``count`` corpus files."""
    folder = tempfile.mkdtemp(prefix="smd-stages-")
    try:
        make_corpus(folder, count)
        rows = ["none", "libyaml compose", "our compose", "read (file, parse, kind)", "load (+ build the objects)"]
        base = callgrind(ROOT, ["-c", STAGES, "none", folder])
        print(f"instructions per file over {count} files (callgrind), this tree:")
        for row in rows[1:]:
            print(f"  {row:44} {(callgrind(ROOT, ['-c', STAGES, row, folder]) - base) / count / 1e6:6.2f} M")
        first = os.path.join(folder, "d000", "config-00000.yaml")
        start = callgrind(ROOT, ["-m", "sm_debug_config", "validate", first])
        bulk = callgrind(ROOT, ["-m", "sm_debug_config", "validate", "-j", "1", folder])
        print(f"  {'validate -j 1 (all of it)':44} {(bulk - start) / (count - 1) / 1e6:6.2f} M")
    finally:
        shutil.rmtree(folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", required=True, help="the other tree (e.g. a worktree of 3cc04ae)")
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--one-file-runs", type=int, default=7)
    parser.add_argument("--callgrind", action="store_true", help="also count one-file validate's instructions")
    parser.add_argument("--stages", type=int, metavar="N", default=0,
                        help="only: instructions per file of each stage of the per-file path, over N files")
    args = parser.parse_args()
    if args.stages:
        stages(args.stages)
        return
    trees = {"this": ROOT, "base": os.path.abspath(args.base)}
    for tree in trees.values():
        subprocess.run([sys.executable, "-m", "compileall", "-q", "sm_debug_config", "rule_configs"], cwd=tree,
                       env=_env(tree), stdout=subprocess.DEVNULL, check=True)
    folder = tempfile.mkdtemp(prefix="smd-bulk-")
    try:
        paths = make_corpus(folder, args.files)
        times: Dict[Tuple[str, str], List[Tuple[float, float]]] = {}
        for _ in range(args.runs):
            for name, tree in trees.items():
                for mode, extra in (("default", []), ("-j 1", ["-j", "1"])):
                    wall, cpu, _code = run(tree, ["validate", folder, *extra])
                    times.setdefault((name, mode), []).append((wall, cpu))
        one: Dict[str, List[float]] = {}
        for _ in range(args.one_file_runs):
            for name, tree in trees.items():
                one.setdefault(name, []).append(run(tree, ["validate", ONE])[1])
        compose = compose_cpu(paths)
    finally:
        shutil.rmtree(folder)

    def median(name: str, mode: str, index: int) -> float:
        return statistics.median(sample[index] for sample in times[(name, mode)])

    print(f"validate of {args.files} config files ({PER_DIRECTORY} a directory), median of {args.runs} rounds, "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'measure':44} {'this':>10} {'base':>10} {'this/base':>10}")
    for mode in ("default", "-j 1"):
        for index, what in ((0, "wall s"), (1, "CPU s")):
            this, base = median("this", mode, index), median("base", mode, index)
            print(f"{f'validate DIR ({mode}), {what}':44} {this:10.2f} {base:10.2f} {this / base:10.2f}x")
    for name in trees:
        per_file = median(name, "-j 1", 1) / args.files
        print(f"{name}: -j 1 CPU per file {per_file * 1000:.3f} ms = {per_file / compose:.1f}x libyaml compose "
              f"({compose * 1000:.3f} ms per file)")
    this_one, base_one = statistics.median(one["this"]), statistics.median(one["base"])
    print(f"{'one-file validate, CPU ms':44} {this_one * 1000:10.1f} {base_one * 1000:10.1f} "
          f"{this_one / base_one:10.2f}x")
    if args.callgrind:
        command = ["-m", "sm_debug_config", "validate", ONE]
        counts = {name: callgrind(tree, command) for name, tree in trees.items()}
        floor = callgrind(ROOT, ["-c", "import attrs, yaml"])
        print(f"{'one-file validate, instructions (M)':44} {counts['this'] / 1e6:10.0f} {counts['base'] / 1e6:10.0f} "
              f"{counts['this'] / counts['base']:10.2f}x  (import attrs, yaml: {floor / 1e6:.0f} M)")


if __name__ == "__main__":
    main()
