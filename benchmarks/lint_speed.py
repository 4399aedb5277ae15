"""Speed of ``sm-debug-config lint`` (issue 25): a 200-cell notebook, and 1,000 .py files with no Debugger name.

    python benchmarks/lint_speed.py [--runs N]

Wall-clock and CPU time (``time.process_time``: on a shared, loaded machine the fairer number),
measured in one process after start-up (the first lint of a notebook pays the lazy imports of the
catalogue and the validation registry once; it is reported apart), plus the whole command in a
fresh process for the tree. Nothing here is asserted by the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

CONFIG_CELLS = [
    "import sagemaker\nfrom sagemaker.debugger import Rule, ProfilerRule, rule_configs, DebuggerHookConfig, "
    "CollectionConfig\nfrom sagemaker.debugger import ProfilerConfig, FrameworkProfile\nfrom sagemaker.pytorch import "
    "PyTorch\n",
    "bucket = sagemaker.Session().default_bucket()\nsave_interval = 100\n",
    "rules = [\n    Rule.sagemaker(rule_configs.vanishing_gradient()),\n"
    "    Rule.sagemaker(rule_configs.loss_not_decreasing(), "
    "rule_parameters={'num_steps': str(save_interval * 2)}),\n"
    "    ProfilerRule.sagemaker(rule_configs.ProfilerReport()),\n]\n",
    "hook = DebuggerHookConfig(s3_output_path=f's3://{bucket}/debug', collection_configs=[\n"
    "    CollectionConfig('weights', parameters={'save_interval': str(save_interval)}),\n"
    "    CollectionConfig('gradients'),\n])\n",
    "profiler_config = ProfilerConfig(system_monitor_interval_millis=500, "
    "framework_profile_params=FrameworkProfile(start_step=5, num_steps=2))\n",
    "estimator = PyTorch(entry_point='train.py', framework_version='1.13.1', py_version='py39', "
    "instance_type='ml.p3.2xlarge',\n"
    "                    instance_count=1, rules=rules, debugger_hook_config=hook, profiler_config=profiler_config)\n",
]
FILLER = (
    "import numpy as np\nimport pandas as pd\n\ndef load(path):\n    frame = pd.read_csv(path)\n"
    "    return frame.describe()\n\n"
    "for i in range(10):\n    print(i, np.sqrt(i))\n%matplotlib inline\n!ls -la\n"
)


def notebook(cells: int = 200) -> str:
    """A notebook of ``cells`` code cells: the configuration cells spread out, filler between, and 20 KB outputs."""
    sources = [FILLER] * cells
    step = cells // len(CONFIG_CELLS)
    for index, cell in enumerate(CONFIG_CELLS):
        sources[index * step] = cell
    output = [{"output_type": "stream", "name": "stdout", "text": ["x" * 200 + "\n"] * 100}]
    return json.dumps(
        {
            "cells": [
                {
                    "cell_type": "code",
                    "execution_count": None,
                    "metadata": {},
                    "outputs": output,
                    "source": s.splitlines(keepends=True),
                }
                for s in sources
            ],
            "metadata": {"language_info": {"name": "python"}},
            "nbformat": 4,
            "nbformat_minor": 4,
        },
        indent=1,
    )


def median_ms(func, runs: int, clock=time.perf_counter) -> float:
    samples = []
    for _ in range(runs):
        start = clock()
        func()
        samples.append((clock() - start) * 1000)
    return statistics.median(samples)


def both(func, runs: int) -> str:
    """Wall-clock and CPU time of this process (on a loaded machine the second is the fairer one)."""
    return (
        f"median {median_ms(func, runs):.1f} ms wall, {median_ms(func, runs, time.process_time):.1f} ms CPU "
        f"over {runs} runs"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    from sm_debug_config.lint import lint_file, lint_paths

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "big.ipynb")
        with open(path, "w") as handle:
            handle.write(notebook())
        start = time.perf_counter()
        first = lint_file(path)
        first_ms = (time.perf_counter() - start) * 1000
        codes = sorted(f.code for f in first["findings"])
        print(
            f"200-cell notebook ({os.path.getsize(path) // 1024} KiB): first lint {first_ms:.1f} ms (with lazy "
            f"imports), then {both(lambda: lint_file(path), args.runs)}; findings {codes}"
        )

        tree = os.path.join(tmp, "tree")
        for index in range(1000):
            folder = os.path.join(tree, f"pkg{index // 50}")
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, f"module_{index}.py"), "w") as handle:
                handle.write(FILLER.replace("%matplotlib inline\n!ls -la\n", "") * 20)
        print(f"1,000 .py files with no Debugger name, in process: {both(lambda: lint_paths([tree]), args.runs)}")
        command = [sys.executable, "-m", "sm_debug_config", "lint", tree]
        env = dict(os.environ, PYTHONPATH=ROOT)
        subprocess.run(command, env=env, stdout=subprocess.DEVNULL)  # warm-up (bytecode, file cache)
        runs = max(3, args.runs // 2)
        whole = median_ms(lambda: subprocess.run(command, env=env, stdout=subprocess.DEVNULL), runs)
        cpu = median_ms(lambda: subprocess.run(command, env=env, stdout=subprocess.DEVNULL), runs, _children_cpu)
        print(
            f"  the same as a command (fresh process, interpreter start included): median {whole:.1f} ms wall, "
            f"{cpu:.1f} ms CPU"
        )


def _children_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    main()
