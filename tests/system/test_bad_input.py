"""Bad input never crashes (issue 16): each class of failure the fuzzing found, as one example each.

The property tests over every public entry point are in test_junk.py; these pin the classes down
(so that a regression names its class) and cover what a property cannot: the command line with
files of each kind (deep, huge numbers, wrong types, FIFOs, a full disk) and first use of the
package from many threads in a fresh process.
"""
from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
from typing import Any, Iterator, List

import pytest

import sm_debug_config as smd
from sm_debug_config import ConfigError, rule_configs as rc

from tests.warnhelpers import config_warnings

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HUGE = 10**5000


def _deep(depth: int) -> Any:
    value: Any = "bottom"
    for _ in range(depth):
        value = [value]
    return value


# --- 1. validate() answers with findings on requests botocore accepts ------------------------------


@pytest.mark.parametrize(
    "request_",
    [
        {"ProfilerConfig": {"ProfilingIntervalInMilliseconds": 10**4300}},
        {"DebugHookConfig": {"S3OutputPath": "s3://b/o", "HookParameters": {"²": "1"}}},
        {"ProfilerConfig": {"S3OutputPath": "s3://b/o", "ProfilingParameters": {"FileOpenFailThreshold": "9" * 5000}}},
        {
            "DebugRuleConfigurations": [
                {"RuleConfigurationName": "r", "RuleEvaluatorImage": "i", "RuleParameters": {"action_json": "[" * 3000}}
            ]
        },
    ],
    ids=["huge-int", "superscript-digit-key", "5000-digit-string", "deep-action-json"],
)
def test_validate_gives_findings_on_requests_botocore_accepts(request_):
    findings = smd.validate(request_)
    assert all(len(f.message) < 2000 for f in findings)


# --- 2. junk is a bounded ConfigError ----------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: smd.render(region="us-east-1", output_path=HUGE),
        lambda: rc.LoadBalancing(threshold=HUGE),
        lambda: smd.Rule.sagemaker(rc.vanishing_gradient(), rule_parameters={"threshold": _deep(100_000)}),
        lambda: smd.Rule.sagemaker({"DebugRuleConfiguration": {"RuleConfigurationName": ["x"]}}),
        lambda: smd.from_request({"OutputDataConfig": 1.5, "DebugHookConfig": 1.5}),
        lambda: smd.from_request({"DebugHookConfig": {"S3OutputPath": "s3://b/o", "CollectionConfigurations": [{}]}}),
        lambda: smd.load_config("a\x00b"),
        lambda: smd.load_config("\ud800.yaml"),
        lambda: smd.load_config(["not", "a", "path"]),
        lambda: smd.CollectionConfig("x" * 1_000_000),
        lambda: smd.JobSettings(region="x" * 1_000_000),
    ],
    ids=["render-huge-int", "rule-huge-int", "deep-value", "unhashable", "from-request-types", "from-request-required",
         "nul-path", "surrogate-path", "list-path", "huge-string", "huge-region"],
)
def test_junk_is_a_bounded_config_error(call):
    with pytest.raises(ConfigError) as info:
        call()
    assert len(str(info.value)) <= 5000


def test_shorten_is_bounded_and_never_raises():
    from sm_debug_config.errors import shorten

    loop: List[Any] = []
    loop.append(loop)

    class Broken:
        def __repr__(self) -> str:
            raise RuntimeError("no")

    for value in (HUGE, -HUGE, "x" * 1_000_000, _deep(100_000), loop, Broken(), {i: i for i in range(10_000)}):
        assert len(shorten(value)) < 400
    assert shorten("abc") == repr("abc") and shorten([1, {"a": None}]) == repr([1, {"a": None}])


# --- 3. pipeline variables wherever the SDK takes them -------------------------------------------------


def test_pipeline_job_name_with_stop_training_renders_a_join():
    class Param:  # duck-types ParameterString without the SDK
        expr = {"Get": "Parameters.JobName"}

        def to_string(self) -> "Param":
            return self

        def __str__(self) -> str:
            raise TypeError("Pipeline variables do not support __str__ operation.")

    rule = smd.Rule.sagemaker(rc.vanishing_gradient(), actions=rc.StopTraining())
    with config_warnings("SMD001"):  # the pipeline variable is checked when the pipeline runs
        fields = smd.render([rule], region="us-east-1", output_path="s3://b/o", job_name=Param())
    action_json = fields["DebugRuleConfigurations"][0]["RuleParameters"]["action_json"]
    values = action_json["Std:Join"]["Values"]
    assert {"Get": "Parameters.JobName"} in values
    plain = smd.render([rule], region="us-east-1", output_path="s3://b/o", job_name="JOB")
    assert (
        "".join(v if isinstance(v, str) else "JOB" for v in values)
        == plain["DebugRuleConfigurations"][0]["RuleParameters"]["action_json"]
    )


def test_artifact_paths_take_a_pipeline_job_name():
    class Param:
        expr = {"Get": "Parameters.JobName"}

        def to_string(self) -> "Param":
            return self

    paths = smd.artifact_paths({"DebugHookConfig": {"S3OutputPath": "s3://b/o/"}}, Param())
    assert paths["debug-output"].expr == {
        "Std:Join": {"On": "", "Values": ["s3://b/o/", {"Get": "Parameters.JobName"}, "/debug-output"]}
    }
    assert smd.artifact_paths({"DebugHookConfig": {"S3OutputPath": "s3://b/o/"}}, "job-1") == {"debug-output": "s3://b/o/job-1/debug-output"}


# --- 4. public functions are never submodules; first use from many threads -------------------------


def test_no_public_name_is_a_submodule_name():
    import pkgutil

    submodules = {module.name for module in pkgutil.iter_modules(smd.__path__)}
    assert not submodules & set(smd.__all__)


_FIRST_USE = textwrap.dedent(
    r"""
    import json, random, re, sys, threading
    import sm_debug_config as smd

    CALLS = {
        "from_request": lambda f: f({"DebugHookConfig": {"S3OutputPath": "s3://b/o"}}, region="us-east-1", output_path="s3://b/o").render(),
        "render": lambda f: f([smd.Rule.sagemaker(smd.rule_configs.vanishing_gradient())], region="us-east-1", output_path="s3://b/o/"),
        "validate": lambda f: [
            x.code for x in f({"DebugHookConfig": {"S3OutputPath": "s3://b/o", "HookParameters": {"x": "1"}}})
        ],
        "explain": lambda f: sorted(f([smd.Rule.sagemaker(smd.rule_configs.vanishing_gradient())], region="us-east-1", output_path="s3://b/o/")),
    }

    def outcome(name):
        try:
            fn = getattr(smd, name)
            result = CALLS[name](fn) if name in CALLS else (fn() if callable(fn) else fn)
            text = "ok " + repr(result)
        except Exception as err:
            text = f"raised {type(err).__name__}: {err}"
        return re.sub(r" at 0x[0-9a-f]+", "", text)[:300]

    def run(seed):
        names = list(smd.__all__)
        random.Random(seed).shuffle(names)
        barrier.wait()
        return {name: outcome(name) for name in names}

    threads = int(sys.argv[1])
    barrier = threading.Barrier(threads)
    results = [None] * threads
    def work(i):
        results[i] = run(i)
    pool = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for t in pool: t.start()
    for t in pool: t.join()
    print(json.dumps(results))
    """
)


def _first_use(threads: int) -> List[dict]:
    env = dict(os.environ, PYTHONPATH=ROOT, SAGEMAKER_SUPPRESS_V2_WARNING="1")
    done = subprocess.run(
        [sys.executable, "-c", _FIRST_USE, str(threads)], capture_output=True, text=True, env=env, timeout=120, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_first_use_from_eight_threads_matches_one_thread():
    (alone,) = _first_use(1)
    assert alone["from_request"].startswith("ok ") and alone["render"].startswith("ok ")
    for _ in range(3):  # fresh processes: the race is on first use only
        for index, result in enumerate(_first_use(8)):
            different = {name: (result[name], alone[name]) for name in alone if result[name] != alone[name]}
            assert not different, f"thread {index}: {different}"


# --- 5 and 6. the command line: one line and exit 1 or 2, never 70, never a hang ------------------------


@pytest.fixture
def files(tmp_path):
    deep = "[" * 100_000 + "]" * 100_000
    made = {
        "deep.json": deep,
        "ok.yaml": "region: us-east-1\noutput_path: s3://b/o\nrules:\n  - builtin: VanishingGradient\n",
        "profiling.yaml": "region: us-east-1\noutput_path: s3://b/o\nprofiler_config:\n"
                          "  system_monitor_interval_millis: 500\n",
        "huge.yaml": "region: us-east-1\noutput_path: s3://b/o\nrules:\n  - builtin: LoadBalancing\n"
                     "    rule_parameters:\n      threshold: "
        + "9" * 5000
        + "\n",
        "huge.json": '{"ProfilerConfig": {"ProfilingIntervalInMilliseconds": ' + "9" * 5000 + "}}",
        "action-object.json": json.dumps(
            {
                "DebugRuleConfigurations": [
                    {
                        "RuleConfigurationName": "r",
                        "RuleEvaluatorImage": "i",
                        "RuleParameters": {"rule_to_invoke": "VanishingGradient", "action_json": {"a": 1}},
                    }
                ]
            }
        ),
        "profiler-string.json": json.dumps({"ProfilerConfig": "x"}),
    }
    for name, text in made.items():
        (tmp_path / name).write_text(text)
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "fifo.yaml")
    return tmp_path


def _one_line_error(result, codes=(1, 2)):
    assert result.returncode in codes, (result.returncode, result.stderr)
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


@pytest.mark.parametrize(
    "argv",
    [
        ["from-request", "{deep.json}"],
        ["render", "{ok.yaml}", "--into", "{deep.json}"],
        ["render", "{profiling.yaml}", "--update", "--current", "{deep.json}"],
        ["validate", "{deep.json}"],
        ["validate", "{huge.yaml}"],
        ["render", "{huge.yaml}"],
        ["explain", "{huge.yaml}"],
        ["validate", "{huge.json}"],
        ["from-request", "{huge.json}"],
        ["from-request", "{action-object.json}"],
        ["render", "{profiling.yaml}", "--update", "--current", "{profiler-string.json}"],
    ],
    ids=lambda argv: " ".join(argv),
)
def test_cli_bad_files_are_one_line_errors(cli, files, argv):
    _one_line_error(cli(*[str(files / a[1:-1]) if a.startswith("{") else a for a in argv]))


@contextlib.contextmanager
def _fails_if_blocked(seconds: int = 30) -> Iterator[None]:
    """A watchdog, not a timing: the block must return at all (a blocked open would never return)."""

    def blocked(signum: int, frame: Any) -> None:
        pytest.fail(f"still blocked after {seconds} s")

    previous = signal.signal(signal.SIGALRM, blocked)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize(
    "argv",
    [
        ["validate", "{fifo}"], ["from-request", "{fifo}"], ["render", "{fifo}"], ["explain", "{fifo}"],
        ["render", "{ok}", "--into", "{fifo}"], ["render", "{profiling}", "--update", "--current", "{fifo}"],
    ],
    ids=lambda argv: " ".join(argv),
)
def test_cli_refuses_a_fifo_without_waiting(cli, files, argv):
    names = {"fifo": str(files / "fifo.yaml"), "ok": str(files / "ok.yaml"), "profiling": str(files / "profiling.yaml")}
    with _fails_if_blocked():  # opening a FIFO for reading blocks until a writer comes: none will
        result = cli(*[a.format(**names) for a in argv])
    _one_line_error(result, (2,))
    assert "not a regular file" in result.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_load_config_refuses_a_fifo(files):
    with pytest.raises(ConfigError, match="not a regular file"):
        smd.load_config(files / "fifo.yaml")


def test_cli_standard_input_is_still_read():
    env = dict(os.environ, PYTHONPATH=ROOT, SAGEMAKER_SUPPRESS_V2_WARNING="1")
    done = subprocess.run(
        [sys.executable, "-m", "sm_debug_config", "validate", "-"],
        input="region: us-east-1\noutput_path: s3://b/o\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode in (0, 1) and "internal error" not in done.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
def test_cli_full_disk_is_one_line(files):
    env = dict(os.environ, PYTHONPATH=ROOT, SAGEMAKER_SUPPRESS_V2_WARNING="1")
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "sm_debug_config", "render", str(files / "ok.yaml")], stdout=full,
                              stderr=subprocess.PIPE, text=True, env=env, timeout=60, cwd=ROOT)
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().splitlines() == ["sm-debug-config: No space left on device"]


# --- 7. objects own their data ------------------------------------------------------------------------


def test_objects_copy_the_callers_lists_and_dicts():
    collections = [smd.CollectionConfig("losses")]
    hook = smd.DebuggerHookConfig(collection_configs=collections)
    saved = [smd.CollectionConfig("gradients")]
    rule = smd.Rule.sagemaker(rc.vanishing_gradient(), collections_to_save=saved)
    parameters = {"threshold": "0.1"}
    other = smd.Rule.sagemaker(rc.vanishing_gradient(), rule_parameters=parameters, name="other")
    hook_parameters = {"save_interval": "10"}
    hook2 = smd.DebuggerHookConfig(hook_parameters=hook_parameters)
    collections.append("x")
    saved.append("x")
    parameters["threshold"] = ["not", "a", "string"]
    hook_parameters["save_interval"] = "-1"
    assert hook.collection_configs == [smd.CollectionConfig("losses")]
    assert rule.collection_configs == [smd.CollectionConfig("gradients")]
    assert other.rule_parameters["threshold"] == "0.1" and hook2.hook_parameters == {"save_interval": "10"}
    smd.render([rule, other], debugger_hook_config=hook, region="us-east-1", output_path="s3://b/o")


# --- 8. sizes before expensive work ---------------------------------------------------------------


def test_a_huge_regex_is_refused_before_it_is_compiled(monkeypatch):
    compiled: List[int] = []  # the lengths of the huge patterns something tried to compile
    for name in ("compile", "_compile"):  # re.match(p, s) and friends go through re._compile
        real = getattr(re, name)

        def spy(pattern: Any, *args: Any, _real: Any = real, **kwargs: Any) -> Any:
            if isinstance(pattern, str) and len(pattern) > 100_000:
                compiled.append(len(pattern))
            return _real(pattern, *args, **kwargs)

        monkeypatch.setattr(re, name, spy)
    with pytest.raises(ConfigError, match="characters long"):
        smd.CollectionConfig("c", {"include_regex": "(a" * 500_000})
    findings = smd.validate({"DebugHookConfig": {"S3OutputPath": "s3://b/o", "CollectionConfigurations": [
        {"CollectionName": "c", "CollectionParameters": {"include_regex": "(" * 1_000_000}}]}})
    assert {"SMD100", "SMD130"} <= {f.code for f in findings}
    assert compiled == []


@pytest.mark.parametrize("name", ["-", "/dev/stdin"])
def test_piped_config_is_read_once_by_every_command(name):
    """``cat job.yaml | sm-debug-config validate -`` (or /dev/stdin): read once, so validate's two reads agree
    (issue 14)."""
    import subprocess
    import sys

    with open(os.path.join(ROOT, "examples", "tensorflow-builtin-rules.yaml"), "rb") as handle:
        example = handle.read()
    for command in (["validate", name], ["render", name]):
        done = subprocess.run(
            [sys.executable, "-m", "sm_debug_config", *command], input=example, capture_output=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
    assert (
        b"0 errors"
        in subprocess.run(
            [sys.executable, "-m", "sm_debug_config", "validate", name], input=example, capture_output=True, timeout=120
        ).stdout
    )
