"""Issue 37 §1: lint follows the code people write (``lint/evaluate.py``): functions of the file called with
arguments, loops and comprehensions over known sequences, SDK v3's ``with_*`` builder methods, attributes set on
Estimators and SDK objects; and what it cannot follow (``while True``, recursion, huge ranges) is bounded and
counted as not checked, never dropped.

The launchers under ``tests/data/launchers/`` also run under ``plan`` (tests/operations/test_plan.py compares the
two answers); each carries several independent mistakes, and every one must show in one run, at the line of
the value it is about.
"""

from __future__ import annotations

import ast
import os
import time
from typing import Dict, Optional

import pytest

from sm_debug_config.lint import lint_file, lint_text
from sm_debug_config.lint.evaluate import Evaluator
from sm_debug_config.lint.values import Unknown

from tests.placehelpers import cell_lines

DATA = os.path.join("tests", "data")
#: Each file: the codes of its mistakes, and for each a text found on the line the finding is placed at (None: the
#: image verdict, placed at the hook and at the rules, not at one value).
CASES: Dict[str, Dict[str, Optional[str]]] = {
    # SMD117 (issue 37 section 2): the SDK v2 sends losses twice, the hook's interval and the rules' default "500"
    "launchers/v2_helpers.py": {"SMD170": None, "SMD120": "diff_percnt", "SMD133": "make_hook(every=-1)",
                                "SMD117": 'dbg.CollectionConfig("losses"'},
    "launchers/v2_folds.py": {"SMD102": "rules=rules", "SMD135": "save_intervall", "SMD120": "patiance_train"},
    "launchers/v2_rule_names.py": {"SMD101": 'name=f"{PROJECT}-{STAGE}"', "SMD154": "/opt/ml/tb",
                                   "SMD132": '"save_interval": "0"', "SMD117": 'dbg.CollectionConfig("losses"'},
    "launchers/v3_builder.py": {"SMD170": None, "SMD120": "treshold"},
    "lint/helper_cells.ipynb": {"SMD101": "dbg.Rule.sagemaker", "SMD132": "make_hook(0,", "SMD153": '"tensors"'},
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_mistake_in_one_run_at_the_line_of_its_value(name):
    path = os.path.join(DATA, name)
    result = lint_file(path)
    assert "error" not in result and "skipped" not in result, result
    cells = result.get("cells") or [None] * len(result["findings"])
    assert {f.code for f in result["findings"]} == set(CASES[name]), [(f.code, f.line) for f in result["findings"]]
    for finding, cell in zip(result["findings"], cells):
        token = CASES[name][finding.code]
        if token is not None:
            assert token in cell_lines(path, cell)[finding.line - 1], (finding.code, cell, finding.line)
    assert result["notes"] == []  # everything in them was followed


def test_the_v3_trainer_keeps_its_image_through_with_methods():
    source = (
        "from sagemaker.train import ModelTrainer\nfrom sm_debug_config import attach_debugger, Rule, rule_configs\n"
        "IMAGE = '763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.4.0-gpu-py311'\n"
        "trainer = ModelTrainer(training_image=IMAGE).with_retry_strategy(retry).with_metric_definitions([])\n"
        "trainer.with_checkpoint_config()\n"
        "with attach_debugger(trainer, rules=[Rule.sagemaker(rule_configs.overfit())]):\n    trainer.train()\n"
    )
    assert {f.code for f in lint_text(source)["findings"]} == {"SMD170"}
    # an image set on the trainer afterwards is the one the job runs
    later = source.replace("trainer.with_checkpoint_config()",
                           "trainer.training_image = IMAGE.replace('2.4.0', '1.13.1')")
    assert lint_text(later)["findings"] == []
    # a trainer lint cannot follow: the image verdict is counted as not checked, never silently dropped
    lost = source.replace("trainer.with_checkpoint_config()", "trainer = tuned(trainer)")
    result = lint_text(lost)
    assert result["findings"] == [] and result["not_checked"] == 1
    assert "training image of" in result["notes"][0][3] and result["notes"][0][1] == 6


HEAD = (
    "import os\nfrom sagemaker.debugger import Rule, rule_configs, CollectionConfig, DebuggerHookConfig\n"
    "from sagemaker.pytorch import PyTorch\n"
)
RULE = "Rule.sagemaker(rule_configs.overfit(), rule_parameters={'patiance': '1'})"


@pytest.mark.parametrize(
    "source, codes, not_checked",
    [
        # a known if takes its branch; __name__ is "__main__" in a launcher
        (f"def main():\n    PyTorch(framework_version='1.13', rules=[{RULE}])\nif __name__ == '__main__':\n"
         "    main()\n", {"SMD120"}, 0),
        # break and return where the code surely gets: the loop stops, the function returns there
        ("rules = []\nfor i in range(30):\n    if i == 2:\n        break\n"
         "    rules.append(Rule.sagemaker(rule_configs.overfit(), name='same'))\n"
         "PyTorch(framework_version='1.13', rules=rules)\n", {"SMD101"}, 0),
        ("def rules_for(kind):\n    if kind == 'x':\n        return []\n"
         "    return [Rule.sagemaker(rule_configs.overfit(), name='a'), Rule.sagemaker(rule_configs.dead_relu(), "
         "name='a')]\nPyTorch(framework_version='1.13', rules=rules_for(kind='y'))\n", {"SMD101"}, 0),
        # **kwargs collected by a function and passed on; a lambda in a dict, called in a comprehension
        (f"def est(**kw):\n    return PyTorch(framework_version='1.13', **kw)\nest(rules=[{RULE}])\n", {"SMD120"}, 0),
        ("MAKE = {'a': lambda: rule_configs.overfit(), 'b': lambda: rule_configs.dead_relu()}\n"
         "PyTorch(framework_version='1.13', rules=[Rule.sagemaker(m(), name='x') for m in MAKE.values()])\n",
         {"SMD101"}, 0),
        # a global rebound by a function; *args spread from a known list; a keyword-only default
        ("rules = []\ndef add(make, name):\n    global rules\n    rules = rules + [Rule.sagemaker(make(), name=name)]\n"
         "add(rule_configs.overfit, 'a')\nadd(rule_configs.dead_relu, 'a')\n"
         "PyTorch(framework_version='1.13', rules=rules)\n", {"SMD101"}, 0),
        ("def hook(*names, every='0'):\n    return DebuggerHookConfig(collection_configs=[CollectionConfig(n, "
         "{'save_interval': every}) for n in names])\nNAMES = ['losses']\n"
         "PyTorch(framework_version='1.13', debugger_hook_config=hook(*NAMES))\n", {"SMD132"}, 0),
        # attributes set on the Estimator are what fit() sends
        (f"est = PyTorch(framework_version='1.13')\nest.rules = [{RULE}]\nest.fit()\n", {"SMD120"}, 0),
        # ... where the code may not run, the field is not known (its objects are still checked)
        (f"est = PyTorch(framework_version='1.13')\nif os.environ.get('X'):\n    est.rules = [{RULE}]\n",
         {"SMD120"}, 1),
        # an exit that may or may not happen: what the loop or function did is not known after it
        ("rules = []\nfor i in range(3):\n    if os.environ.get('X'):\n        break\n"
         "    rules.append(Rule.sagemaker(rule_configs.overfit(), name=f'r{i}'))\n"
         "PyTorch(framework_version='2.3.0', rules=rules)\n", set(), 1),
        # getattr of a known module with a known name is the attribute; with a name not known, not checked
        ("rules = [Rule.sagemaker(getattr(rule_configs, n)(), name='same') for n in ('overfit', 'dead_relu')]\n"
         "PyTorch(framework_version='1.13', rules=rules)\n", {"SMD101"}, 0),
        ("rules = [Rule.sagemaker(getattr(rule_configs, os.environ['RULE'])())]\n"
         "PyTorch(framework_version='1.13', rules=rules)\n", set(), 1),
        # try: the body as it runs when nothing fails; the except block may run
        (f"try:\n    import smdebug\n    HAVE = True\nexcept ImportError:\n    HAVE = False\n"
         f"PyTorch(framework_version='1.13', rules=[{RULE}] if HAVE else [])\n", {"SMD120"}, 1),
    ],
)
def test_code_followed_as_python_runs_it(source, codes, not_checked):
    result = lint_text(HEAD + source)
    assert {f.code for f in result["findings"]} == codes, result["notes"]
    assert result["not_checked"] == not_checked, result["notes"]


@pytest.mark.parametrize(
    "source, note",
    [
        ("rules = []\nwhile True:\n    rules.append(Rule.sagemaker(rule_configs.overfit()))\n", "rules"),
        ("def f(n):\n    return f(n + 1)\nrules = f(0)\n", "deeper than lint follows"),
        ("rules = []\ndef f(n):\n    rules.append(Rule.sagemaker(rule_configs.overfit(), name=f'r{n}'))\n    f(n + 1)\n"
         "f(0)\n", "deeper than lint follows"),
        ("rules = []\nfor i in range(10 ** 12):\n"
         "    rules.append(Rule.sagemaker(rule_configs.overfit(), name=f'r{i}'))\n", "more often than lint follows"),
        ("rules = [Rule.sagemaker(rule_configs.overfit(), name=f'r{i}') for i in range(10 ** 9)]\n", "range(10 ** 9)"),
        ("rules = []\nfor i in range(900):\n    for j in range(900):\n        rules = rules + [i * j]\n", "rules"),
    ],
    ids=["while-true", "recursion", "recursion-changing-a-list", "huge-range", "huge-comprehension", "nested-loops"],
)
def test_bounded_and_counted_never_hung(source, note):
    started = time.process_time()
    result = lint_text(HEAD + source + "PyTorch(framework_version='2.3.0', rules=rules)\n")
    assert time.process_time() - started < 10  # bounded by steps, iterations and time, not by the source
    assert "error" not in result
    named = any(note in text for *_, text in result["notes"]) or not hasattr(ast, "unparse")  # 3.8: no source text
    assert result["not_checked"] >= 1 and named, result["notes"]
    # nothing made up: the rules lint could not count are not judged (no SMD102 for a list that kept growing)
    assert "SMD102" not in {f.code for f in result["findings"]}


def test_a_value_passed_to_a_parameter_is_reported_where_it_was_written():
    source = HEAD + (
        "def hook(every='0'):\n"
        "    return DebuggerHookConfig(collection_configs=[CollectionConfig('losses', {'save_interval': every})])\n"
        "PyTorch(framework_version='1.13', debugger_hook_config=hook(every='-1'))\n"
        "PyTorch(framework_version='1.13', debugger_hook_config=hook())\n"
    )
    found = {(f.code, f.line, f.column) for f in lint_text(source)["findings"]}
    assert found == {("SMD133", 6, 67), ("SMD132", 4, 16)}  # at '-1' in the call; at the default '0' in the def


@pytest.mark.parametrize("copy", ["base.copy()", "dict(base, ratio_threshold='0.1')", "{**base}"])
def test_a_copied_dict_keeps_the_places_of_its_keys(copy):
    source = (
        "from sagemaker.debugger import Rule, rule_configs\nbase = {'patiance': '1'}\n"
        f"Rule.sagemaker(rule_configs.overfit(), rule_parameters={copy})\n"
    )
    assert [(f.code, f.line, f.column) for f in lint_text(source)["findings"]] == [("SMD120", 2, 9)]


@pytest.mark.parametrize(
    "loop",
    ["x = 10 ** 60\nfor i in range(1000):\n    x = x * x\n", "x = [1]\nfor i in range(1000):\n    x = x + x\n",
     "x = [1]\nfor i in range(1000):\n    x += x\n", "x = [1]\nfor i in range(1000):\n    x.extend(x)\n",
     "x = 'ab'\nfor i in range(1000):\n    x = f'{x}{x}'\n",
     "x = []\nfor i in range(1000):\n    x = [{'k': x}]\nPyTorch(framework_version='1.13', rules=[x])\n"],
    ids=["int", "list", "list-in-place", "extend", "string", "nesting"],
)
def test_values_that_double_in_a_loop_stop_at_a_size(loop):
    started = time.process_time()
    result = lint_text(HEAD + loop + f"PyTorch(framework_version='1.13', rules=[{RULE}])\n")
    assert time.process_time() - started < 10 and [f.code for f in result["findings"]] == ["SMD120"]


def test_a_region_that_may_not_run_changes_nothing_made_before_it():
    source = HEAD + (
        "rules = [Rule.sagemaker(rule_configs.overfit(), name='a')]\nalias = rules\n"
        "def more():\n    rules.append(Rule.sagemaker(rule_configs.dead_relu(), name='b'))\n"
        "if os.environ.get('MORE'):\n    more()\n"
    )
    ev = Evaluator()
    ev.run(ast.parse(source), 0)
    assert isinstance(ev.module.names["rules"], Unknown)  # one rule or two
    assert len(ev.module.names["alias"]) == 1  # the list itself was not changed
    ev = Evaluator()
    ev.run(ast.parse(source.replace("if os.environ.get('MORE'):\n    more()", "more()")), 0)
    assert len(ev.module.names["rules"]) == 2 and ev.module.names["alias"] is ev.module.names["rules"]


def test_a_function_never_called_is_still_checked_once():
    source = HEAD + (
        "def launch(role, version):\n"
        f"    return PyTorch(role=role, framework_version=version, rules=[{RULE}])\n"
    )
    result = lint_text(source)
    assert [(f.code, f.line) for f in result["findings"]] == [("SMD120", 5)]
    called = lint_text(source + "launch('r', '1.13')\nlaunch('r', '2.3.0')\n")  # each call its own job
    assert sorted((f.code, f.line) for f in called["findings"]) == [("SMD120", 5), ("SMD170", 5)]


def test_objects_a_loop_builds_that_nothing_takes_are_checked_once():
    source = (
        "from sm_debug_config import Rule, rule_configs\nfor _ in range(2):\n"
        "    unused = Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={'num_steps': 'abc'})\n"
        "sent = Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={'treshold': '0.1'})\n"
    )
    assert [(f.code, f.line) for f in lint_text(source)["findings"]] == [("SMD121", 3), ("SMD120", 4)]  # no SMD101


def test_attributes_set_on_objects_after_they_are_built():
    source = HEAD + (
        "rules = [Rule.sagemaker(rule_configs.overfit()), Rule.sagemaker(rule_configs.dead_relu())]\n"
        "rules[1].name = 'Overfit'\n"
        "PyTorch(framework_version='1.13', rules=rules)\n"
    )
    result = lint_text(source)
    assert [(f.code, f.line) for f in result["findings"]] == [("SMD101", 5)]  # the name, where it was set
    # a rule's rule_parameters attribute holds its base configuration's too: not followed, that rule not checked
    changed = lint_text(source.replace("rules[1].name = 'Overfit'", "rules[0].rule_parameters = {'patiance': '1'}"))
    assert changed["findings"] == [] and [n[1] for n in changed["notes"]] == [5]


def test_verbose_lists_what_was_not_followed_with_its_line(cli, tmp_path):
    launcher = tmp_path / "sweep.py"
    launcher.write_text(HEAD + "rules = []\nfor i in range(10 ** 12):\n"
                        "    rules.append(Rule.sagemaker(rule_configs.overfit(), name=f'r{i}'))\n"
                        "PyTorch(framework_version='1.13', rules=rules)\n")
    out = cli("lint", str(launcher))
    assert out.returncode == 0 and out.stdout.splitlines()[-1].endswith("not checked (--verbose lists them)")
    verbose = cli("lint", "--verbose", str(launcher))
    assert f"{launcher}:5:10: info SMD181" in verbose.stderr and "runs more often than lint follows" in verbose.stderr
    assert f"{launcher}:7:41: info SMD181" in verbose.stderr  # rules=rules: the list is not known


def test_a_boto3_request_is_counted_not_checked_never_passed_as_clean():
    """Review of issue 36: a boto3 create_training_job with Debugger fields linted as "0 errors", nothing counted."""
    source = ("import boto3\nsm = boto3.client('sagemaker')\nrequest = {'TrainingJobName': 'j'}\n"
              "sm.create_training_job(**request, DebugHookConfig={'S3OutputPath': 's3://b/o'})\n"
              "sm.create_training_job(TrainingJobName='k')\n")  # no Debugger field: nothing to say
    result = lint_text(source)
    assert result["findings"] == [] and result["not_checked"] == 1
    assert "plan" in result["notes"][0][3] and result["notes"][0][1] == 4
