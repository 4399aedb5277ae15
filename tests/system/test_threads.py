"""First use from many threads at once (issue 36): a notebook or a launcher may make its first calls from a
thread pool, and whatever the package initialises lazily (public names, PyYAML, the catalogue, the
patterns, the lint tables) must come out whole in every thread.

Each run is a fresh process (the first use is what is tested) whose threads wait on one barrier and then
make different first calls together: render, validate of a request, loading a YAML config file, lint of a
small source. The processes run two at a time (the machine's cores), 200 in a row per thread count.
"""
import concurrent.futures
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(ROOT, "examples", "tensorflow-builtin-rules.yaml")
PROCESSES = 200

pytestmark = pytest.mark.slow

CHILD = r"""
import sys, threading, traceback
import sm_debug_config as smd

THREADS, EXAMPLE = int(sys.argv[1]), sys.argv[2]
SOURCE = ("from sagemaker.debugger import Rule, rule_configs\n"
          "rules = [Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={'threshhold': '0.1'})]\n")


def render():
    rule = smd.Rule.sagemaker(smd.rule_configs.vanishing_gradient())
    out = smd.render([rule], region="us-east-1", output_path="s3://bucket/out/")
    assert out["DebugRuleConfigurations"][0]["RuleConfigurationName"] == "VanishingGradient", out


def validate():
    request = {"DebugHookConfig": {"S3OutputPath": "s3://bucket/out/", "HookParameters": {"save_interval": "0"}}}
    assert smd.validate(request, region="us-east-1"), "no finding for save_interval 0"


def load():
    assert smd.load_config(EXAMPLE).rules, "no rule loaded"


def lint():
    from sm_debug_config.lint import lint_text

    assert [f.code for f in lint_text(SOURCE)["findings"]] == ["SMD120"]


CALLS = [render, validate, load, lint]
barrier = threading.Barrier(THREADS)
errors = []


def run(index):
    barrier.wait()
    try:
        CALLS[index % len(CALLS)]()
    except BaseException:
        errors.append(traceback.format_exc())


threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
if errors:
    sys.stderr.write(errors[0])
    sys.exit(1)
"""


def _one(threads: int) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run(
        [sys.executable, "-c", CHILD, str(threads), EXAMPLE],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=120,
    )


@pytest.mark.parametrize("threads", [8, 16])
def test_first_calls_from_many_threads_raise_nothing(threads):
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        runs = list(pool.map(_one, [threads] * PROCESSES))
    failed = [run for run in runs if run.returncode != 0]
    assert not failed, f"{len(failed)} of {PROCESSES} processes failed; the first:\n{failed[0].stderr}"
