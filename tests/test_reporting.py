"""Issue 30: one path for findings. A constructor's finding is a value (collected where a source is built) or one
warning at the user's line; render does not warn it again, nor under another code; building as written is safe in
threads (a context variable, no process-wide switch)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import warnings
from typing import Any, List, Tuple

import pytest

from sm_debug_config import (
    CollectionConfig,
    DebuggerHookConfig,
    Rule,
    TensorBoardOutputConfig,
    render,
    rule_configs,
)
from sm_debug_config.errors import ConfigError, ConfigWarning
from sm_debug_config.findings import collecting, reported
from sm_debug_config.model.building import build

from tests.warnhelpers import config_warnings

OUT = "s3://bucket/out/"


def _caught(call: Any) -> List[ConfigWarning]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConfigWarning)
        call()
    return [w.message for w in caught if isinstance(w.message, ConfigWarning)]


def test_render_warns_nothing_a_constructor_warned_and_no_false_smd122():
    with warnings.catch_warnings(record=True) as built:
        warnings.simplefilter("always", ConfigWarning)
        rule = Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={"num_stepz": "10"})
        line = sys._getframe().f_lineno - 1
        hook = DebuggerHookConfig(hook_parameters={"save_intervall": "5"}, container_local_output_path="tensors")
        board = TensorBoardOutputConfig("s3://b/tb", container_local_output_path="tb")
    # issue 36: a rule's parameters are the pass's to check (SMD120 once, at render), not its constructor's
    assert sorted(w.message.code for w in built) == ["SMD135", "SMD153", "SMD153"]
    with warnings.catch_warnings(record=True) as again:
        warnings.simplefilter("always", ConfigWarning)
        render([rule], hook, tensorboard_output_config=board, region="us-east-1", output_path=OUT)
    assert [(w.message.code, w.message.pointer, w.filename, w.lineno) for w in again] == [
        ("SMD120", "/DebugRuleConfigurations/0/RuleParameters/num_stepz", __file__, line)  # where the rule was built
    ]  # each said once; no SMD122 invented


def test_render_still_warns_what_no_constructor_said():
    hook = DebuggerHookConfig(collection_configs=[CollectionConfig("weights", {"save_steps": "1,2"})])
    again = _caught(lambda: render(debugger_hook_config=hook, region="us-east-1", output_path=OUT))
    assert [w.code for w in again] == ["SMD173"]  # save_steps beside smdebug's default interval: the job's business


def test_allowed_unknown_parameters_are_smd122_once_at_render():
    made = _caught(lambda: Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"new_knob": "1"},
                                          allow_unknown_parameters=True))
    assert made == []  # issue 36: found by the one pass, warned by the edge
    rule = Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"new_knob": "1"},
                          allow_unknown_parameters=True)
    assert rule.passed_through == ("new_knob",) and reported(rule) == ()
    warned = _caught(lambda: render([rule], region="us-east-1", output_path=OUT))
    assert [(w.code, w.pointer) for w in warned] == [("SMD122", "/DebugRuleConfigurations/0/RuleParameters/new_knob")]


_SCRIPT = """\
import warnings
warnings.simplefilter("always")
from sm_debug_config import Rule, rule_configs, render
rule = Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={"num_stepz": "10"})
def make():
    return Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"threshhold": "5"})
made = make()
from sm_debug_config import DebuggerHookConfig, CollectionConfig
hook = DebuggerHookConfig(collection_configs=[CollectionConfig("weights", {"save_steps": "1,2"})])
def go():
    render([rule, made], debugger_hook_config=hook, region="us-east-1", output_path="s3://b/o")
go()
"""


def test_python_warnings_name_the_users_line_at_module_level_and_in_functions(tmp_path):
    script = tmp_path / "launch.py"
    script.write_text(_SCRIPT)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, check=True).stderr
    lines = [line for line in out.splitlines() if "ConfigWarning" in line]
    where = [line.split(": ConfigWarning")[0] for line in lines]
    # issue 36: each warned by render, at the line that built its object: the hook (SMD173), then the rules
    # (SMD120), built at module level and inside make()
    assert where == [f"{script}:9", f"{script}:4", f"{script}:6"], out
    assert "sys:1" not in out


def test_a_source_built_as_written_keeps_every_refused_value_and_warns_nothing():
    def make() -> Any:
        return DebuggerHookConfig(
            s3_output_path="bucket/no-scheme",
            container_local_output_path="relative",
            collection_configs=[],
            hook_parameters={"save_interval": "0"},
        )

    assert _caught(lambda: build(make)) == []
    built = build(make)
    assert built.built and built.value.hook_parameters == {"save_interval": "0"}
    assert sorted(f.code for f in built.findings) == ["SMD100", "SMD132", "SMD153"]
    with pytest.raises(ConfigError):  # a user's own call stops at the first refusal
        make()


def test_what_cannot_be_built_at_all_is_one_finding_and_no_object():
    built = build(Rule.sagemaker, ("not a rule config",))
    assert not built.built and built.value is None
    assert [f.code for f in built.findings] == ["SMD002"]


def test_collecting_is_per_thread():
    # a thread building as written must not make another thread's user call accept a refused value
    results: List[Tuple[str, Any]] = []
    start = threading.Barrier(2)

    def as_written() -> None:
        start.wait()
        for _ in range(200):
            with collecting(as_written=True):
                CollectionConfig("weights", {"save_interval": "0"})
        results.append(("as-written", None))

    def users() -> None:
        start.wait()
        refused = 0
        for _ in range(200):
            try:
                CollectionConfig("weights", {"save_interval": "0"})
            except ConfigError:
                refused += 1
        results.append(("user", refused))

    threads = [threading.Thread(target=as_written), threading.Thread(target=users)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert ("user", 200) in results


def test_what_was_reported_is_forgotten_with_its_object_and_the_map_stays_small():
    import gc

    from sm_debug_config import findings

    def warned() -> TensorBoardOutputConfig:
        with config_warnings("SMD153"):
            return TensorBoardOutputConfig("s3://b/tb", container_local_output_path="tb")

    board = warned()
    assert [f.code for f in reported(board)] == ["SMD153"]
    key = id(board)
    del board
    gc.collect()
    assert findings._REPORTED[key][0]() is None if key in findings._REPORTED else True  # dead: nobody's any more
    for _ in range(5000):
        warned()
    assert len(findings._REPORTED) < 2100  # swept as it grows
    # no callback on the references: Python 3.8 aborts when the collector runs Python code deep in a failing
    # recursion (json.loads of a 100,000-deep document, tests/configfile/test_parse.py, under test_deps_range.sh)
    assert all(ref.__callback__ is None for ref, _ in findings._REPORTED.values())


def test_a_users_script_sees_each_warning_once_through_textwrap():  # the README's snippet, run as a user would
    source = textwrap.dedent(
        """
        from sm_debug_config import Rule, rule_configs, render
        rules = [Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={"num_stepz": "10"})]
        render(rules, region="us-east-1", output_path="s3://b/o")
        """
    )
    seen = _caught(lambda: exec(compile(source, "<user>", "exec"), {}))  # noqa: S102 - the test's own text
    assert [w.code for w in seen] == ["SMD120"]


def test_pythons_own_notes_on_a_users_regex_do_not_escape():
    # "[[a]" makes re.compile warn FutureWarning ("possible nested set"): validate says what it finds, no more
    from sm_debug_config import validate

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        findings = validate({"DebugHookConfig": {"S3OutputPath": "s3://b/o", "CollectionConfigurations": [
            {"CollectionName": "custom", "CollectionParameters": {"include_regex": "[[a]"}}]}})
    assert all(f.code != "SMD130" for f in findings)  # it compiles


def test_a_loaded_config_hands_its_findings_to_the_collector_of_the_block():
    from sm_debug_config.configfile import loads

    text = ("region: us-east-1\n"
            "tensorboard_output_config: {s3_output_path: s3://b/tb, container_local_output_path: tb}\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with collecting() as found:
            loads(text, filename="job.yaml")
    assert [(f.code, f.line) for f in found.findings] == [("SMD153", 2)]


def test_a_warning_through_pydantic_validated_calls_names_the_users_line():
    # the SDK v3's ModelTrainer methods are wrapped by pydantic's validate_call: its frames are not the user's
    import types

    from sm_debug_config.errors import warn_user

    wrapper = types.ModuleType("pydantic._internal._validate_call")
    exec("def call(f):\n    return f()\n", wrapper.__dict__)  # noqa: S102 - a frame of that module's name
    ours = types.ModuleType("sm_debug_config._in_a_test")
    ours.__dict__.update(warn_user=warn_user, ConfigWarning=ConfigWarning)
    exec("def emit():\n    warn_user(ConfigWarning('x'))\n", ours.__dict__)  # noqa: S102 - one of our frames
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        wrapper.call(ours.emit)  # the user's line: here
    assert [os.path.basename(w.filename) for w in caught] == ["test_reporting.py"]
