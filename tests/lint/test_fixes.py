"""Issue 38: a fix's changes (to the request) as edits of a Python source or notebook, at the literal the value came
from: a keyword's value, a dict item of ``rule_parameters={...}``, a variable of an earlier line or cell, a helper's
return, a loop's list, an f-string. Each case is a launcher as users write it and the launcher it becomes, byte for
byte."""

from __future__ import annotations

import json
import os
import re
from typing import List, Optional, Sequence

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sm_debug_config import pysource
from sm_debug_config.fixes import PREFIX, REMOVE, RENAME, SET, Change, Edit, apply_edits
from sm_debug_config.lint import lint_file, lint_text
from sm_debug_config.lint.check import Checker
from sm_debug_config.lint.evaluate import Evaluator
from sm_debug_config.lint.sources import (
    Cell,
    SourceError,
    apply_notebook_edits,
    mask,
    write_cells,
)

from tests.strategies import examples

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "lint", "fixes")
HEAD = (
    "from sagemaker.debugger import (CollectionConfig, DebuggerHookConfig, Rule, TensorBoardOutputConfig,\n"
    "                                rule_configs)\n"
    "from sagemaker.pytorch import PyTorch\n"
)


def _checker(cells: Sequence[Cell]) -> Checker:
    ev = Evaluator()
    trees = [pysource.parse(cell.text) for cell in cells]
    ev.trees = list(trees)
    for index, tree in enumerate(trees):
        ev.run(tree, index)
    ev.finish()
    checker = Checker(ev, ".", {}, cells)
    checker.run()
    return checker


def edits_of(text: str, change: Change, job: int = 0) -> Optional[List[Edit]]:
    """The edits that make ``change`` (a request change) in the launcher ``text``, for its job ``job``."""
    checker = _checker([Cell(text)])
    rendered, site = checker.jobs[job]
    return checker.edits.at_request(change, rendered, site)


def fixed(text: str, change: Change, job: int = 0) -> str:
    edits = edits_of(text, change, job)
    assert edits is not None, f"{change} not placed"
    out, count = apply_edits(text, [edits])
    assert count == 1
    pysource.parse(out)  # still Python
    return out


def launcher(body: str) -> str:
    return HEAD + body


RULE_PARAMETERS = ("DebugRuleConfigurations", 0, "RuleParameters")

# --- set ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad, good", [
    # a dict value, the key's quote style kept for a number written as a string
    ("rules = [Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={'num_steps': 20})]\n",
     "rules = [Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={'num_steps': '20'})]\n"),
    # a variable of an earlier line, its own quote style
    ('steps = "2o"\n'
     'rules = [Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={"num_steps": steps})]\n',
     'steps = "20"\n'
     'rules = [Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={"num_steps": steps})]\n'),
    # returned by a helper function
    ("def steps():\n    return '2o'\n\n"
     "rules = [Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={'num_steps': steps()})]\n",
     "def steps():\n    return '20'\n\n"
     "rules = [Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={'num_steps': steps()})]\n"),
])
def test_set_writes_the_value_at_its_literal(bad, good):
    est = "est = PyTorch(entry_point='t.py', rules=rules)\n"
    change = Change(SET, RULE_PARAMETERS + ("num_steps",), "20")
    assert fixed(launcher(bad + est), change) == launcher(good + est)


def test_set_of_a_member_not_written_adds_the_keyword():
    one_line = "est = PyTorch(entry_point='t.py', rules=[Rule.sagemaker(rule_configs.overfit())])\n"
    change = Change(SET, ("DebugRuleConfigurations", 0, "RuleConfigurationName"), "Overfit-2")
    assert fixed(launcher(one_line), change) == launcher(
        "est = PyTorch(entry_point='t.py', rules=[Rule.sagemaker(rule_configs.overfit(), name='Overfit-2')])\n")
    own_lines = ("est = PyTorch(\n    entry_point='t.py',\n    rules=[\n        Rule.sagemaker(\n"
                 "            rule_configs.overfit(),\n        ),\n    ],\n)\n")
    assert fixed(launcher(own_lines), change) == launcher(
        "est = PyTorch(\n    entry_point='t.py',\n    rules=[\n        Rule.sagemaker(\n"
        "            rule_configs.overfit(),\n            name='Overfit-2',\n        ),\n    ],\n)\n")


def test_set_over_a_computed_value_is_not_placed():
    for value in ('f"{steps}0"', "str(2) + '0'", "'2' * 2"):
        text = launcher(f"steps = 2\nest = PyTorch(entry_point='t.py', rules=[Rule.sagemaker(\n"
                        f"    rule_configs.loss_not_decreasing(), rule_parameters={{'num_steps': {value}}})])\n")
        assert edits_of(text, Change(SET, RULE_PARAMETERS + ("num_steps",), "20")) is None, value
    # a member not written, in a call that passes **kwargs: it may be there
    text = launcher("kw = {}\n"
                    "est = PyTorch(entry_point='t.py', rules=[Rule.sagemaker(rule_configs.overfit(), **kw)])\n")
    assert edits_of(text, Change(SET, ("DebugRuleConfigurations", 0, "RuleConfigurationName"), "x")) is None


# --- rename -------------------------------------------------------------------------------------------------------


def test_rename_edits_the_dict_key_where_it_was_written():
    bad = launcher("params = {'threshhold': '0.1'}\n"
                   "est = PyTorch(entry_point='t.py', rules=[\n"
                   "    Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters=params)])\n")
    change = Change(RENAME, RULE_PARAMETERS + ("threshhold",), "threshold")
    assert fixed(bad, change) == bad.replace("'threshhold'", "'threshold'")


def test_rename_edits_a_keyword_name():
    """A profiler rule's parameters are keywords of its configuration (refused at construction: a path below it)."""
    bad = launcher("from sagemaker.debugger import ProfilerRule\n"
                   "est = PyTorch(entry_point='t.py', rules=[\n"
                   "    ProfilerRule.sagemaker(rule_configs.ProfilerReport(CPUBottleneck_threshhold=50))])\n")
    checker = _checker([Cell(bad)])
    call = next(c for c in checker.ev.calls if c.target == "rule_configs.ProfilerReport")
    change = Change(RENAME, ("rule_parameters", "CPUBottleneck_threshhold"), "CPUBottleneck_threshold")
    edits = checker.edits.below(change, call)
    assert edits is not None
    assert apply_edits(bad, [edits])[0] == bad.replace("_threshhold=", "_threshold=")
    assert checker.edits.below(attrs.evolve(change, value="not a name"), call) is None


# --- remove -------------------------------------------------------------------------------------------------------

LOCAL = ("TensorBoardOutputConfig", "LocalPath")


@pytest.mark.parametrize("bad, good", [
    ('TensorBoardOutputConfig(s3_output_path="s3://b/tb", container_local_output_path="tb")',
     'TensorBoardOutputConfig(s3_output_path="s3://b/tb")'),
    ('TensorBoardOutputConfig(container_local_output_path="tb", s3_output_path="s3://b/tb")',
     'TensorBoardOutputConfig(s3_output_path="s3://b/tb")'),
    ('TensorBoardOutputConfig(\n    s3_output_path="s3://b/tb",\n    container_local_output_path="tb",  # relative\n)',
     'TensorBoardOutputConfig(\n    s3_output_path="s3://b/tb",\n)'),
    ('TensorBoardOutputConfig(\n    s3_output_path="s3://b/tb",\n    container_local_output_path="tb"\n)',
     'TensorBoardOutputConfig(\n    s3_output_path="s3://b/tb"\n)'),
    ('TensorBoardOutputConfig(\n    container_local_output_path="tb",\n    s3_output_path="s3://b/tb",\n)',
     'TensorBoardOutputConfig(\n    s3_output_path="s3://b/tb",\n)'),
    ('TensorBoardOutputConfig(s3_output_path="s3://b/tb",\n                        container_local_output_path="tb")',
     'TensorBoardOutputConfig(s3_output_path="s3://b/tb")'),
])
def test_remove_drops_a_keyword_with_its_comma(bad, good):
    est = "\nest = PyTorch(entry_point='t.py', tensorboard_output_config=tb)\n"
    assert fixed(launcher("tb = " + bad + est), Change(REMOVE, LOCAL)) == launcher("tb = " + good + est)


@pytest.mark.parametrize("bad, good", [
    ("{'threshold': '0.1', 'bogus': '1'}", "{'threshold': '0.1'}"),
    ("{'bogus': '1', 'threshold': '0.1'}", "{'threshold': '0.1'}"),
    ("{\n    'bogus': '1',\n    'threshold': '0.1',\n}", "{\n    'threshold': '0.1',\n}"),
    ("{'bogus': '1'}", "{}"),
])
def test_remove_drops_a_dict_item_with_its_comma(bad, good):
    body = ("params = {}\nest = PyTorch(entry_point='t.py', rules=[\n"
            "    Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters=params)])\n")
    change = Change(REMOVE, RULE_PARAMETERS + ("bogus",))
    assert fixed(launcher(body.replace("{}", bad, 1)), change) == launcher(body.replace("{}", good, 1))


def test_remove_drops_the_list_element_the_request_item_came_from():
    bad = launcher("hook = DebuggerHookConfig(\n    s3_output_path='s3://b/debug',\n    collection_configs=[\n"
                   "        CollectionConfig(name='weights'),\n        CollectionConfig(name='gradients'),\n    ],\n)\n"
                   "est = PyTorch(entry_point='t.py', debugger_hook_config=hook)\n")
    checker = _checker([Cell(bad)])
    rendered, _ = checker.jobs[0]
    names = [c["CollectionName"] for c in rendered.request["DebugHookConfig"]["CollectionConfigurations"]]
    index = names.index("gradients")
    assert fixed(bad, Change(REMOVE, ("DebugHookConfig", "CollectionConfigurations", index))) == bad.replace(
        "        CollectionConfig(name='gradients'),\n", "")


# --- prefix -------------------------------------------------------------------------------------------------------

TB = ("TensorBoardOutputConfig", "S3OutputPath")


@pytest.mark.parametrize("bad, good", [
    ('tb = TensorBoardOutputConfig("bucket/tb")', 'tb = TensorBoardOutputConfig("s3://bucket/tb")'),
    ("tb = TensorBoardOutputConfig(s3_output_path=f'{bucket}/tb')",
     "tb = TensorBoardOutputConfig(s3_output_path=f's3://{bucket}/tb')"),
    ('path = rf"""{bucket}/tb"""\ntb = TensorBoardOutputConfig(path)',
     'path = rf"""s3://{bucket}/tb"""\ntb = TensorBoardOutputConfig(path)'),
    ("def tb_path(name):\n    return f'{bucket}/{name}'\ntb = TensorBoardOutputConfig(tb_path('tb'))",
     "def tb_path(name):\n    return f's3://{bucket}/{name}'\ntb = TensorBoardOutputConfig(tb_path('tb'))"),
])
def test_prefix_goes_after_the_opening_quote(bad, good):
    head = "import os\nbucket = os.environ['BUCKET']\n"
    est = "\nest = PyTorch(entry_point='t.py', tensorboard_output_config=tb)\n"
    assert fixed(launcher(head + bad + est), Change(PREFIX, TB, "s3://")) == launcher(head + good + est)


def test_non_ascii_before_the_value():
    bad = launcher("# Étape 1 : la configuration — 🚀\n"
                   "tb = TensorBoardOutputConfig(s3_output_path='bücket/tb', container_local_output_path='/opt/ml/é')\n"
                   "est = PyTorch(entry_point='entraînement.py', tensorboard_output_config=tb)\n")
    assert fixed(bad, Change(PREFIX, TB, "s3://")) == bad.replace("'bücket/tb'", "'s3://bücket/tb'")
    assert fixed(bad, Change(SET, TB, "s3://bücket/tb")) == bad.replace("'bücket/tb'", "'s3://bücket/tb'")
    assert fixed(bad, Change(REMOVE, LOCAL)) == bad.replace(", container_local_output_path='/opt/ml/é'", "")


def test_one_literal_feeding_jobs_built_in_a_loop_is_one_edit():
    bad = launcher("params = {'threshhold': '0.1'}\nfor name in ['a.py', 'b.py']:\n"
                   "    PyTorch(entry_point=name, rules=[\n"
                   "        Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters=params)])\n")
    change = Change(RENAME, RULE_PARAMETERS + ("threshhold",), "threshold")
    first, second = edits_of(bad, change, 0), edits_of(bad, change, 1)
    assert first is not None and first == second
    assert apply_edits(bad, [first, second]) == (bad.replace("'threshhold'", "'threshold'"), 1)


def test_each_job_of_a_loop_over_a_list_edits_its_own_item():
    bad = launcher("for path in ['bucket/a', \"bucket/b\"]:\n"
                   "    PyTorch(entry_point='t.py', tensorboard_output_config=TensorBoardOutputConfig(path))\n")
    edits = [edits_of(bad, Change(PREFIX, TB, "s3://"), job) for job in (0, 1)]
    assert apply_edits(bad, edits) == (bad.replace("'bucket/a', \"bucket/b\"", "'s3://bucket/a', \"s3://bucket/b\""), 2)


def test_a_second_rule_of_one_name_is_renamed_only_where_one_call_built_it():
    """SMD101's fix names the later rule apart: at a call that built one rule, ``name=`` is added; at a call in a
    comprehension, which built every rule of the list, a name set there would be every rule's, so it is not placed
    and the finding keeps its fix as text."""
    once = launcher("est = PyTorch(entry_point='t.py', rules=[Rule.sagemaker(rule_configs.overfit()),\n"
                    "                                        Rule.sagemaker(rule_configs.overfit())])\n")
    duplicate = [f for f in lint_text(once)["findings"] if f.code == "SMD101"]
    assert len(duplicate) == 1 and duplicate[0].fix.edits is not None
    out, count = apply_edits(once, [duplicate[0].fix.edits])
    assert count == 1 and [f for f in lint_text(out)["findings"] if f.code == "SMD101"] == []
    looped = launcher("def rules_for(names):\n    return [Rule.sagemaker(RULES[n]()) for n in names]\n"
                      "RULES = {'overfit': rule_configs.overfit, 'vanishing': rule_configs.vanishing_gradient}\n"
                      "est = PyTorch(entry_point='t.py', rules=rules_for(['overfit', 'vanishing', 'overfit']))\n")
    duplicate = [f for f in lint_text(looped)["findings"] if f.code == "SMD101"]
    assert len(duplicate) == 1 and duplicate[0].fix is not None and duplicate[0].fix.edits is None


def test_lint_findings_carry_their_edits():
    """SDK v2 sends a number among string rule parameters as given (SMD100): a safe fix, through a variable."""
    text = launcher("steps = 20\nest = PyTorch(entry_point='t.py', rules=[Rule.sagemaker(\n"
                    "    rule_configs.loss_not_decreasing(),\n"
                    "    rule_parameters={'num_steps': steps, 'use_losses_collection': True})])\n")
    findings = [f for f in lint_text(text)["findings"] if f.code == "SMD100"]
    assert [f.fix.changes[0].path for f in findings] == [RULE_PARAMETERS + ("num_steps",),
                                                         RULE_PARAMETERS + ("use_losses_collection",)]
    out, count = apply_edits(text, [f.fix.edits for f in findings])
    assert count == 2 and out == text.replace("steps = 20", "steps = '20'").replace(": True", ": 'True'")
    assert not [f for f in lint_text(out)["findings"] if f.code == "SMD100"]


def test_lint_fixes_what_the_checks_know_end_to_end():
    """SMD120 (a misspelt parameter in rule_parameters={...}), SMD114 (a misspelt collection), a TensorBoard path in
    an f-string without s3:// (SMD100, unsafe), a relative LocalPath (SMD153, unsafe): fixed in one pass, none left
    after it, and a second pass has nothing to change."""
    bad = launcher(
        'bucket = "my-bucket"\n'
        "est = PyTorch(\n"
        '    entry_point="train.py",\n'
        '    framework_version="1.13",\n'
        '    py_version="py39",\n'
        "    rules=[Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={'threshhold': '0.1'})],\n"
        "    debugger_hook_config=DebuggerHookConfig(\n"
        '        s3_output_path=f"s3://{bucket}/debug",\n'
        '        collection_configs=[CollectionConfig(name="weigths")],\n'
        "    ),\n"
        '    tensorboard_output_config=TensorBoardOutputConfig(s3_output_path=f"{bucket}/tb",\n'
        '                                                      container_local_output_path="tb"),\n'
        ")\n")
    good = (bad.replace("'threshhold'", "'threshold'").replace('"weigths"', '"weights"')
            .replace('f"{bucket}/tb",\n' + " " * 54 + 'container_local_output_path="tb"', 'f"s3://{bucket}/tb"'))
    findings = lint_text(bad)["findings"]
    assert {(f.code, f.fix.applicability) for f in findings if f.fix is not None} == {
        ("SMD120", "safe"), ("SMD114", "safe"), ("SMD100", "unsafe"), ("SMD153", "unsafe")}
    out, count = apply_edits(bad, _fix_all(findings))
    assert (out, count) == (good, 4)
    assert lint_text(out)["findings"] == []
    assert _fix_all(lint_text(out)["findings"]) == []


# --- notebooks ----------------------------------------------------------------------------------------------------


def _fix_all(findings: Sequence) -> List[Sequence[Edit]]:
    return [f.fix.edits for f in findings if f.fix is not None and f.fix.edits is not None]


def test_a_notebook_is_fixed_in_its_cells_and_keeps_everything_else(tmp_path):
    """Values from earlier cells (a rule's parameters, a number, an f-string TensorBoard path), IPython lines, a
    %%time cell and outputs: the findings' fixes (safe and unsafe) edit the cells' sources where the values were
    written, and nothing else of the notebook."""
    path = os.path.join(DATA, "earlier_cells.ipynb")
    with open(path, encoding="utf-8") as handle:
        raw = handle.read()
    result = lint_file(path)
    assert {f.code for f in result["findings"]} == {"SMD100", "SMD114", "SMD120"}
    fixes = _fix_all(result["findings"])
    assert len(fixes) == len(result["findings"]) == 4 and all(e.cell in (2, 4) for edits in fixes for e in edits)
    out, count = apply_notebook_edits(raw, fixes)
    assert count == 4
    with open(os.path.join(DATA, "earlier_cells.fixed.ipynb"), encoding="utf-8") as handle:
        assert out == handle.read()
    before, after = json.loads(raw), json.loads(out)
    for old, new in zip(before["cells"], after["cells"]):
        assert {k: v for k, v in old.items() if k != "source"} == {k: v for k, v in new.items() if k != "source"}
    again = tmp_path / "fixed.ipynb"
    again.write_text(out, encoding="utf-8")
    assert lint_file(str(again))["findings"] == []  # fixed: a second run has nothing to do


def test_masked_ipython_lines_do_not_shift_the_edits():
    source = HEAD + "!pip install -q smdebug\n%time x = 1\ntb = TensorBoardOutputConfig('bucket/tb')\n"
    checker = _checker([Cell(mask(source)[0], number=1, index=2, source=source)])
    call = next(c for c in checker.ev.calls if c.target == "TensorBoardOutputConfig")
    at = source.index("bucket/tb")
    assert checker.edits.below(Change(PREFIX, ("s3_output_path",), "s3://"), call) == [Edit(at, at, "s3://", cell=2)]


@pytest.mark.parametrize("source, new, written", [
    # a list of lines: the unchanged lines keep their text, the changed one is written as the notebook escapes
    ('[\n    "a = \\u00e9\\n",\n    "b = 1\\n",\n    "c"\n   ]', "a = é\nb = '1'\nc",
     '[\n    "a = \\u00e9\\n",\n    "b = \'1\'\\n",\n    "c"\n   ]'),
    ('[\n    "a\\n",\n    "b = 1\\n",\n    "c"\n   ]', "a\nc", '[\n    "a\\n",\n    "c"\n   ]'),
    ('[\n    "a\\n",\n    "b = 1"\n   ]', "a\n", '[\n    "a\\n"\n   ]'),
    ('[\n    "a\\n",\n    "b = 1"\n   ]', "a\nb = 1,\nc = 2", '[\n    "a\\n",\n    "b = 1,\\n",\n    "c = 2"\n   ]'),
    ('"a = 1\\nb"', "a = 'é'\nb", '"a = \'é\'\\nb"'),
])
def test_the_writer_changes_only_the_cell_source(source, new, written):
    template = ('{\n "cells": [\n  {\n   "cell_type": "markdown",\n   "metadata": {},\n   "source": ["# é"]\n  },\n'
                '  {\n   "cell_type": "code",\n   "execution_count": 3,\n   "metadata": {"tags": []},\n'
                '   "outputs": [{"name": "stdout", "output_type": "stream", "text": ["x\\n"]}],\n'
                '   "source": %s\n  }\n ],\n "metadata": {},\n "nbformat": 4,\n "nbformat_minor": 5\n}\n')
    assert write_cells(template % source, {1: new}) == template % written
    assert json.loads(template % written)["cells"][1]["source"] in (new, json.loads(written))


def test_the_writer_keeps_an_ascii_only_notebook_ascii():
    raw = '{"cells": [{"cell_type": "code", "source": ["# caf\\u00e9\\n", "x = 1"]}], "nbformat": 4}'
    assert write_cells(raw, {0: "# café\nx = 'é'"}) == (
        '{"cells": [{"cell_type": "code", "source": ["# caf\\u00e9\\n", "x = \'\\u00e9\'"]}], "nbformat": 4}')


def test_the_writer_refuses_what_is_no_notebook_cell():
    with pytest.raises(SourceError, match="cell 4"):
        write_cells('{"cells": [{"cell_type": "code", "source": ""}]}', {4: "x"})
    with pytest.raises(SourceError, match="not valid JSON"):
        write_cells('{"cells": [', {0: "x"})


_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12) | st.sampled_from(
    ["", "\n", "x = 'é'\n", 'path = f"{b}/tb"\n', "\\", '"', "\r\n", "\u2028"])


def _jupyter_lines(text: str) -> List[str]:
    return re.findall(r"[^\n]*\n|[^\n]+\Z", text)


@examples(200)
@given(sources=st.lists(st.lists(_TEXT, max_size=4).map("".join), min_size=1, max_size=3), data=st.data(),
       ascii_only=st.booleans(), as_string=st.booleans())
def test_the_writer_changes_only_the_cell_source_as_jupyter_writes_it(sources, data, ascii_only, as_string):
    """Any cell source, any edit of it: the notebook reads back with the new source and every other value as it
    was, and the text is what Jupyter would write (``json.dumps(indent=1)``, its ``ensure_ascii``) for it."""
    def notebook(texts: List[str]) -> str:
        cells = [{"cell_type": "code", "execution_count": i, "metadata": {"tags": ["é"]},
                  "outputs": [{"name": "stdout", "output_type": "stream", "text": ["é\n"]}],
                  "source": text if as_string else _jupyter_lines(text)} for i, text in enumerate(texts)]
        return json.dumps({"cells": cells, "metadata": {"authors": ["Zoë"]}, "nbformat": 4, "nbformat_minor": 5},
                          indent=1, ensure_ascii=ascii_only) + "\n"

    index = data.draw(st.integers(0, len(sources) - 1))
    old = sources[index]
    start = data.draw(st.integers(0, len(old)))
    end = data.draw(st.integers(start, len(old)))
    new = old[:start] + data.draw(_TEXT) + old[end:]
    changed = list(sources)
    changed[index] = new
    assert write_cells(notebook(sources), {index: new}) == notebook(changed)


_MISTAKES = {  # mistake -> (its code, the value written, how it is used: {v} the value or the name holding it)
    "parameter": ("SMD120", "{q}threshhold{q}",
                  "Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={{{v}: {q}0.1{q}}})"),
    "number": ("SMD100", "20",
               "Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={{{q}num_steps{q}: {v}}})"),
    "collection": ("SMD114", "{q}weigths{q}", "CollectionConfig(name={v})"),
    "scheme": ("SMD100", "f{q}{{bucket}}/tb{q}", "TensorBoardOutputConfig(s3_output_path={v})"),
    "local path": ("SMD153", "{q}tb{q}",
                   "TensorBoardOutputConfig(s3_output_path=f{q}s3://{{bucket}}/tb{q}, "
                   "container_local_output_path={v})"),
}


@examples(40)
@given(mistakes=st.sets(st.sampled_from(sorted(_MISTAKES)), min_size=1), data=st.data())
def test_launchers_with_several_mistakes_are_fixed_until_none_is_left(mistakes, data):
    """Mistakes written as users write them (inline, in a variable, returned by a helper; either quote; one line or
    one argument a line): fixed pass after pass, the launcher still parses, none of them is left, and a further
    pass changes nothing."""
    q = data.draw(st.sampled_from(["'", '"']))
    lines = [f"bucket = {q}my-bucket{q}"]
    uses = {}
    for mistake in sorted(mistakes):
        _, value, use = _MISTAKES[mistake]
        value = value.format(q=q)
        style = data.draw(st.sampled_from(["inline", "variable", "helper"]))
        name = mistake.replace(" ", "_")
        if style == "variable":
            lines.append(f"value_{name} = {value}")
            value = f"value_{name}"
        elif style == "helper":
            lines.append(f"def helper_{name}():\n    return {value}")
            value = f"helper_{name}()"
        uses[mistake] = use.format(q=q, v=value)
    rules = [uses[m] for m in ("parameter", "number") if m in uses]
    arguments = [f"entry_point={q}train.py{q}", f"framework_version={q}1.13{q}", f"py_version={q}py39{q}"]
    if rules:
        arguments.append("rules=[" + ", ".join(rules) + "]")
    if "collection" in uses:
        arguments.append(f"debugger_hook_config=DebuggerHookConfig(s3_output_path=f{q}s3://{{bucket}}/d{q}, "
                         f"collection_configs=[{uses['collection']}])")
    tensorboard = uses.get("scheme") or uses.get("local path")
    if "scheme" in uses and "local path" in uses:
        tensorboard = uses["local path"].replace(f"f{q}s3://{{bucket}}/tb{q}", uses["scheme"][len(
            "TensorBoardOutputConfig(s3_output_path="):-1])
    if tensorboard:
        arguments.append("tensorboard_output_config=" + tensorboard)
    if data.draw(st.booleans()):
        call = "est = PyTorch(\n" + "".join(f"    {a},\n" for a in arguments) + ")\n"
    else:
        call = "est = PyTorch(" + ", ".join(arguments) + ")\n"
    text = launcher("\n".join(lines) + "\n" + call)
    assert sorted(f.code for f in lint_text(text)["findings"]) == sorted(_MISTAKES[m][0] for m in mistakes)
    for _ in range(len(mistakes) + 1):
        fixes = _fix_all(lint_text(text)["findings"])
        if not fixes:
            break
        text, count = apply_edits(text, fixes)
        assert count >= 1
        pysource.parse(text)
    assert lint_text(text)["findings"] == []


def test_the_writer_reads_nbformat_3_worksheets():
    raw = ('{"worksheets": [{"cells": [{"cell_type": "markdown", "source": ["a"]}]},\n'
           ' {"cells": [{"cell_type": "code", "input": ["x = 1\\n", "y = 2"], "outputs": [], "prompt_number": 4}]}],\n'
           ' "nbformat": 3}')
    assert write_cells(raw, {1: "x = '1'\ny = 2"}) == raw.replace('"x = 1\\n"', '"x = \'1\'\\n"')
    bom = "\ufeff" + raw
    assert write_cells(bom, {1: "x = '1'\ny = 2"}) == bom.replace('"x = 1\\n"', '"x = \'1\'\\n"')


def test_set_of_a_dict_item_not_written_adds_it_to_the_display():
    bad = launcher("est = PyTorch(entry_point='t.py', rules=[Rule.sagemaker(rule_configs.loss_not_decreasing(),\n"
                   "    rule_parameters={'num_steps': '10'})])\n")
    change = Change(SET, RULE_PARAMETERS + ("diff_percent",), "5")
    assert fixed(bad, change) == bad.replace("{'num_steps': '10'}", "{'num_steps': '10', 'diff_percent': '5'}")


def test_windows_line_endings_are_kept():
    bad = launcher("tb = TensorBoardOutputConfig(\n    s3_output_path='bucket/tb',\n"
                   "    container_local_output_path='tb',\n)\n"
                   "est = PyTorch(entry_point='t.py', tensorboard_output_config=tb, rules=[Rule.sagemaker(\n"
                   "    rule_configs.overfit()\n)])\n").replace("\n", "\r\n")
    assert fixed(bad, Change(REMOVE, LOCAL)) == bad.replace("    container_local_output_path='tb',\r\n", "")
    assert fixed(bad, Change(PREFIX, TB, "s3://")) == bad.replace("'bucket/tb'", "'s3://bucket/tb'")
    name = Change(SET, ("DebugRuleConfigurations", 0, "RuleConfigurationName"), "Overfit-2")
    assert fixed(bad, name) == bad.replace("rule_configs.overfit()", "rule_configs.overfit(),\r\n    name='Overfit-2'")


def test_a_variable_other_code_reads_too_is_left_as_it_is():
    """``steps`` also counts epochs: ``set`` writes the value where the rule uses it; ``s3://`` before a bucket name
    the session also takes is not placed."""
    bad = launcher("import sagemaker\nsteps = 20\nbucket = 'my-bucket'\n"
                   "session = sagemaker.Session(default_bucket=bucket)\n"
                   "epochs = list(range(steps))\n"
                   "est = PyTorch(entry_point='t.py', tensorboard_output_config=TensorBoardOutputConfig(bucket),\n"
                   "              rules=[Rule.sagemaker(rule_configs.loss_not_decreasing(),\n"
                   "                                    rule_parameters={'num_steps': steps})])\n")
    change = Change(SET, RULE_PARAMETERS + ("num_steps",), "20")
    assert fixed(bad, change) == bad.replace("{'num_steps': steps}", "{'num_steps': '20'}")
    assert edits_of(bad, Change(PREFIX, TB, "s3://")) is None
    once = bad.replace("session = sagemaker.Session(default_bucket=bucket)\n", "")
    assert fixed(once, Change(PREFIX, TB, "s3://")) == once.replace("'my-bucket'", "'s3://my-bucket'")


def test_a_fix_of_two_changes_is_two_edits():
    """SMD133: a step range written backwards is swapped (unsafe), each value where it was written."""
    bad = launcher("start = '10'\nhook = DebuggerHookConfig(s3_output_path='s3://b/d',\n"
                   "                          hook_parameters={'start_step': start, 'end_step': '5'})\n"
                   "est = PyTorch(entry_point='t.py', framework_version='1.13', py_version='py39',\n"
                   "              debugger_hook_config=hook)\n")
    findings = [f for f in lint_text(bad)["findings"] if f.code == "SMD133"]
    assert len(findings) == 1 and findings[0].fix is not None and len(findings[0].fix.edits) == 2
    out, count = apply_edits(bad, _fix_all(findings))
    good = bad.replace("start = '10'", "start = '5'").replace("'end_step': '5'", "'end_step': '10'")
    assert (out, count) == (good, 1)
    assert not [f for f in lint_text(out)["findings"] if f.code == "SMD133"]
