"""Issue 25: ``sm-debug-config lint`` on Python sources and notebooks, by static evaluation only.

The fixtures under ``tests/data/lint/`` are our own text, each imitating the shapes of a public
notebook or script it names (repository, commit, path) in its metadata or header comment. The
expected findings are those of ``/work/notes``' issue 25 research (M1-M11), and where lint
evaluates everything, the same as building the configuration at run time with our classes.
"""

from __future__ import annotations

import json
import os
import warnings
from typing import Any, Dict, List, Optional, Set, Tuple

import pytest

from sm_debug_config.lint import lint_file, lint_paths, lint_text
from sm_debug_config.lint.sources import mask

from tests.pairhelpers import LINT_CASES

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "lint")


def found(name: str, **kwargs: Any) -> Set[Tuple[Optional[int], Optional[int], str]]:
    """``{(cell, line, code)}`` (cell None for a .py file) of one fixture."""
    result = lint_file(os.path.join(HERE, name), **kwargs)
    assert "error" not in result, result["error"]
    cells = result.get("cells") or [None] * len(result["findings"])
    return {(cell, f.line, f.code) for f, cell in zip(result["findings"], cells)}


@pytest.mark.parametrize(
    "name, expected",
    [
        # EX21 pytorch_script_change_smdebug: split cells, parenthesised import, !pygmentize; the seeded typo at its key
        ("split_cells.ipynb", {(3, 2, "SMD120")}),
        # EX21 pt-resnet-profiling: !pip in an if block, f-string image (2.2.0: no smdebug), mixed rules, profiling
        ("install_if_block.ipynb", {(2, 5, "SMD171"), (5, 3, "SMD170"), (5, 10, "SMD170")}),
        # EX21 mnist-tensor-plot (M3): default_bucket() + .format(**kw), SDK v1 keywords, save_steps alone
        ("bucket_format.ipynb", {(3, 12, "SMD173")}),
        # EX24 huggingface_sentiment_parallel_batch (M1): the XGBoost 'metrics' recipe on PyTorch
        ("hf_metrics_rule.ipynb", {(2, 16, "SMD110")}),
        # EX24 object detection (M5): %%time, retrieve(...) with keywords, dict(...) + **, debugger_hook_config=None
        ("tf214_none_hook.ipynb", {(2, 10, "SMD172"), (2, 10, "SMD180")}),  # at the dict(...) keyword
        # EX21 tf-keras-custom-rule (M8): smdebug_rulesconfig as rule_configs; a local source that exists is fine
        ("custom_rule_local.ipynb", {(2, 15, "SMD152")}),
        # EX21 xgboost census: retrieve("xgboost", region, "0.90-2") runs the hook; "0.90-1" does not
        ("xgb_retrieve.ipynb", {(3, 2, "SMD170"), (3, 3, "SMD170")}),
        # EX21 mnist_tensor_analysis: smdebug's Rule rebinds the name; its calls are not ours
        ("smdebug_rule_class.ipynb", set()),
        # DSOAWS BERT (M2): one-name imports, %store, %%javascript, export_tensorboard + tensorboard_dir
        ("bert_hook.ipynb", {(3, 13, "SMD139"), (3, 14, "SMD139")}),
        # EX21 iterative pruning: an Estimator inside for (checked), rules rebound inside if (not checked)
        ("loop_and_rebind.ipynb", {(2, 2, "SMD173")}),
        # SDK guide example 3 (M6): placeholders left in
        ("docs_copy.py", {(None, 8, "SMD110"), (None, 10, "SMD120"), (None, 12, "SMD114"), (None, 12, "SMD135")}),
        # SDK integ tests: configs inside a function, submodule imports; the seeded ProfilerReport typo
        ("launch_functions.py", {(None, 26, "SMD120")}),  # refused, with its code everywhere (issue 36)
        # sagemaker-debugger docs: import sagemaker as sm, import sagemaker.debugger as d, int/bool hook parameters
        # (issue 30: the SDK v2 sends those as given, which botocore refuses: SMD100, as plan sees it)
        ("alias_chain.py", {(None, 7, "SMD135"), (None, 7, "SMD100")}),
    ],
)
def test_fixture_findings(name, expected):
    assert found(name) == expected


def test_positions_point_at_the_argument_or_key():
    result = lint_file(os.path.join(HERE, "split_cells.ipynb"))
    (finding,) = result["findings"]
    assert (result["cells"][0], finding.line, finding.column) == (3, 2, 72)  # the "threshhold" key in code cell 3
    assert finding.pointer == "/DebugRuleConfigurations/0/RuleParameters/threshhold"
    assert finding.severity == "warning"


def test_not_checked_is_said_never_guessed():
    result = lint_file(os.path.join(HERE, "bucket_format.ipynb"))
    assert [n[:2] for n in result["notes"]] == [(3, 10)]  # s3_output_path=s3_bucket_for_tensors (default_bucket())
    result = lint_file(os.path.join(HERE, "loop_and_rebind.ipynb"))
    assert any("rules" in n[3] for n in result["notes"])
    result = lint_file(os.path.join(HERE, "launch_functions.py"))
    # the bucket from default_bucket() only: Rule.sagemaker(..., actions=actions()) calls a local function, followed
    assert [n[1] for n in result["notes"]] == [21]


def test_local_custom_rule_source_next_to_the_notebook_is_uploaded_not_refused():
    result = lint_file(os.path.join(HERE, "custom_rule_local.ipynb"))
    assert [f.code for f in result["findings"]] == ["SMD152"]  # only the missing one, never SMD151 (region unknown)


def test_unparsable_python_is_one_error_line_at_its_place(cli):
    out = cli("lint", "tests/data/lint/docs_broken.py")
    assert out.returncode == 2
    assert out.stderr == (
        "sm-debug-config: tests/data/lint/docs_broken.py:9:1: cannot parse: closing parenthesis '}' does not match "
        "opening parenthesis '(' on line 6\n"
    )


@pytest.mark.parametrize("code, bad, good", LINT_CASES, ids=[c[0] for c in LINT_CASES])
def test_lint_only_codes_fire_on_bad_and_not_on_near_identical_good(code, bad, good):
    def codes(text: str) -> Set[str]:
        result = lint_text(text)
        return {f.code for f in result["findings"]} | ({"SMD181"} if result["notes"] else set())

    assert code in codes(bad)
    assert code not in codes(good)


# --- suppression and the command line -------------------------------------------------------


def test_inline_ignore_comments_and_unknown_codes():
    result = lint_file(os.path.join(HERE, "suppress.py"))
    assert sorted((f.line, f.code) for f in result["findings"]) == [(9, "SMD120"), (9, "SMD182")]
    assert sorted((f.line, f.code) for f in result["suppressed"]) == [(4, "SMD120"), (7, "SMD120")]


def test_ignore_option_counts_suppressed(cli):
    out = cli("lint", "tests/data/lint/docs_copy.py", "--ignore", "SMD120", "--ignore", "smd135")
    assert out.returncode == 1  # SMD114 is an error
    assert "SMD120" not in out.stdout and "4 suppressed" in out.stdout
    assert cli("lint", "tests/data/lint/docs_copy.py", "--ignore", "SMD1200").returncode == 2


def test_text_json_github_formats(cli):
    text = cli("lint", "tests/data/lint/split_cells.ipynb")
    assert text.returncode == 0
    assert text.stdout.startswith(
        "tests/data/lint/split_cells.ipynb:cell 3:2:72: warning SMD120 [*] "  # [*]: --fix renames it
        "/DebugRuleConfigurations/0/RuleParameters/threshhold: "
    )
    assert text.stdout.splitlines()[1:] == [  # the cell's line, as written, with carets under the key
        '  2 |     Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"threshhold": "0.1"}),',
        "    |" + " " * 72 + "^" * 12,
        "1 file: 0 errors, 1 warning, 0 infos",
    ]
    assert cli("lint", "tests/data/lint/split_cells.ipynb", "--strict").returncode == 1
    doc = json.loads(cli("lint", "tests/data/lint/split_cells.ipynb", "--format", "json").stdout)
    (entry,) = doc["files"][0]["findings"]
    assert (entry["cell"], entry["line"], entry["column"], entry["code"]) == (3, 2, 72, "SMD120") and doc[
        "warnings"
    ] == 1
    github = cli("lint", "tests/data/lint/split_cells.ipynb", "--format", "github").stdout
    assert (
        github.startswith("::warning file=tests/data/lint/split_cells.ipynb,title=SMD120 ")
        and "cell 3%3A2%3A72" in github
    )
    py = cli("lint", "tests/data/lint/docs_copy.py", "--format", "github").stdout
    assert "::error file=tests/data/lint/docs_copy.py,line=12,col=13,title=SMD114" in py


def test_verbose_lists_what_was_not_checked_and_skipped(cli, tmp_path):
    (tmp_path / "plain.py").write_text("print('hello')\n")
    out = cli("lint", "tests/data/lint/bucket_format.ipynb", str(tmp_path), "--verbose")
    assert "bucket_format.ipynb:cell 3:10:24: info SMD181 /: not checked:" in out.stderr
    assert "plain.py: skipped: names no Debugger module" in out.stderr
    assert "SMD181" not in cli("lint", "tests/data/lint/bucket_format.ipynb").stderr


def test_a_directory_is_searched_in_order_and_results_are_deterministic():
    first = [(r["file"], [str(f) for f in r["findings"]]) for r in lint_paths([HERE])]
    assert first == [(r["file"], [str(f) for f in r["findings"]]) for r in lint_paths([HERE])]
    names = [os.path.relpath(name, HERE) for name, _ in first]
    assert names == sorted(names, key=lambda n: (n.count(os.sep), n)) or names == sorted(names)


# --- robustness: never a traceback, never a hang ---------------------------------------------


def _notebook(cells: List[str], **extra: Any) -> str:
    return json.dumps(
        {
            "cells": [
                {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": c}
                for c in cells
            ],
            "metadata": {},
            "nbformat": 4,
            "nbformat_minor": 5,
            **extra,
        }
    )


RULE_TYPO = (
    "from sagemaker.debugger import Rule, rule_configs\nr = Rule.sagemaker(rule_configs.overfit(), "
    "rule_parameters={'patiance': '1'})\n"
)


@pytest.mark.parametrize(
    "name, content, code, expect",
    [
        ("py2.py", "from sagemaker.debugger import Rule\nprint 'hello'\n", 2, "(Python 2?)"),
        ("bad.ipynb", '{"cells": [ {"cell_type": "code", "source": "sagemaker.debugger"', 2, "not valid JSON"),
        ("list.ipynb", '["sagemaker.debugger"]', 2, "not a Jupyter notebook"),
        ("nul.py", "from sagemaker.debugger import Rule\0\n", 2, "binary"),
        (
            "deep.py",
            "from sagemaker.debugger import Rule\nx = " + "(" * 100000 + "1" + ")" * 100000 + "\n",
            2,
            "cannot parse",
        ),
        ("latin.py", "# -*- coding: latin-1 -*-\nfrom sagemaker.debugger import Rule\nname = 'caf\xe9'\n", 0, ""),
    ],
)
def test_bad_files_give_one_line(cli, tmp_path, name, content, code, expect):
    path = tmp_path / name
    path.write_bytes(content.encode("latin-1") if "latin" in name else content.encode("utf-8", "surrogatepass"))
    out = cli("lint", str(path))
    assert out.returncode == code, out
    if expect:
        assert out.stderr.count("\n") == 1 and expect in out.stderr, out.stderr


def test_nbformat_3_and_cell_magics_and_magics_in_strings(tmp_path):
    v3 = {
        "nbformat": 3,
        "nbformat_minor": 0,
        "metadata": {"language": "python"},
        "worksheets": [
            {
                "cells": [
                    {"cell_type": "code", "input": RULE_TYPO, "prompt_number": 4, "language": "python", "outputs": []}
                ]
            }
        ],
    }
    (tmp_path / "v3.ipynb").write_text(json.dumps(v3))
    assert found_in(tmp_path / "v3.ipynb") == {(1, 2, "SMD120")}
    text = _notebook(
        [
            "%%bash\necho sagemaker.debugger\n",
            "%%capture\n" + RULE_TYPO,
            'doc = """\n!not a magic\n"""\n',
            "files = !ls\nfiles.append(1)\n",
        ]
    )
    (tmp_path / "magics.ipynb").write_text(text)
    result = lint_file(str(tmp_path / "magics.ipynb"))
    assert "error" not in result and [(c, f.line, f.code) for f, c in zip(result["findings"], result["cells"])] == [
        (2, 3, "SMD120")
    ]
    assert mask('doc = """\n!not a magic\n"""\n')[0] == 'doc = """\n!not a magic\n"""\n'


def test_a_bad_cell_is_reported_and_the_others_still_linted(tmp_path):
    (tmp_path / "nb.ipynb").write_text(_notebook(["print 'py2'\n", RULE_TYPO]))
    result = lint_file(str(tmp_path / "nb.ipynb"))
    assert ":cell 1:1:" in result["error"] and "cannot parse" in result["error"]
    assert [f.code for f in result["findings"]] == ["SMD120"]


def test_huge_outputs_and_other_languages(tmp_path):
    big = json.loads(_notebook([RULE_TYPO]))
    big["cells"][0]["outputs"] = [
        {"output_type": "display_data", "data": {"image/png": "A" * 5_000_000}, "metadata": {}}
    ]
    (tmp_path / "big.ipynb").write_text(json.dumps(big))
    assert found_in(tmp_path / "big.ipynb") == {(1, 2, "SMD120")}
    (tmp_path / "r.ipynb").write_text(_notebook([RULE_TYPO], metadata={"language_info": {"name": "R"}}))
    assert lint_file(str(tmp_path / "r.ipynb"))["skipped"] == "a r notebook"


def found_in(path: Any) -> Set[Tuple[Optional[int], Optional[int], str]]:
    result = lint_file(str(path))
    assert "error" not in result, result
    cells = result.get("cells") or [None] * len(result["findings"])
    return {(c, f.line, f.code) for f, c in zip(result["findings"], cells)}


# --- what lint evaluates, and the run-time oracle -------------------------------------------


@pytest.mark.parametrize(
    "source, expected",
    [
        (
            "from sagemaker.debugger import Rule as R\nfrom sagemaker.debugger import rule_configs as rc\n"
            "R.sagemaker(rc.overfit(), rule_parameters={'patiance': '1'})",
            "SMD120",
        ),
        (
            "import sagemaker.core.debugger as dbg\ndbg.Rule.sagemaker(dbg.rule_configs.overfit(), "
            "rule_parameters={'patiance': '1'})",
            "SMD120",
        ),
        (
            "from sm_debug_config import Rule, rule_configs\nk = 'patiance'\n"
            "Rule.sagemaker(rule_configs.overfit(), rule_parameters={k: str(1)})",
            "SMD120",
        ),
        (
            "from sagemaker.debugger import *\np = {}\np['patiance'] = '1'\n"
            "Rule.sagemaker(rule_configs.overfit(), rule_parameters=p)",
            "SMD120",
        ),
        (
            "from smdebug.rules.rule import Rule\nfrom sagemaker.debugger import rule_configs\n"
            "Rule.sagemaker(rule_configs.overfit(), rule_parameters={'patiance': '1'})",
            None,
        ),
        (
            "from sagemaker.debugger import Rule, rule_configs\nimport os\n"
            "Rule.sagemaker(rule_configs.overfit(), rule_parameters={os.environ['K']: '1'})",
            None,
        ),
        (
            "from sagemaker.debugger import CollectionConfig as C, DebuggerHookConfig as H\nn = 2\n"
            "H(collection_configs=[C('losses', {'save_interval': f'{n - 2}'})])",
            "SMD132",
        ),
        (
            "from sagemaker.debugger import CollectionConfig as C, DebuggerHookConfig as H\nn = '%d' % 0\n"
            "H(collection_configs=[C('losses', {'save_interval': n})])",
            "SMD132",
        ),
        (
            "from sagemaker.debugger import CollectionConfig as C, DebuggerHookConfig as H\nif x:\n    n = '5'\n"
            "H(collection_configs=[C('losses', {'save_interval': n})])",
            None,
        ),
        (
            "from sagemaker.debugger import CollectionConfig as C, DebuggerHookConfig as H\nn = '0'\n"
            "def f():\n    H(collection_configs=[C('losses', {'save_interval': n})])",
            "SMD132",
        ),
        (
            "from sagemaker.debugger import CollectionConfig as C, DebuggerHookConfig as H\nn = '0'\nn = '5'\n"
            "def f():\n    H(collection_configs=[C('losses', {'save_interval': n})])",
            None,
        ),
    ],
)
def test_evaluation_shapes(source, expected):
    codes = [f.code for f in lint_text(source)["findings"]]
    assert codes == ([expected] if expected else []), codes


def test_sdk_v3_module_paths_and_attach_debugger():
    source = (
        "from sagemaker.core.debugger.debugger import Rule\nfrom sagemaker.core.debugger import rule_configs\n"
        "from sm_debug_config import attach_debugger\n"
        "with attach_debugger(trainer, rules=[Rule.sagemaker(rule_configs.overfit(), "
        "rule_parameters={'patiance': '2'})],\n"
        "                     framework='pytorch', framework_version='{v}', defaults='explicit'):\n"
        "    trainer.train()\n"
    )
    assert {(f.code, f.pointer) for f in lint_text(source.replace("{v}", "1.13.1"))["findings"]} == {
        ("SMD120", "/DebugRuleConfigurations/0/RuleParameters/patiance")
    }
    assert "SMD170" in {f.code for f in lint_text(source.replace("{v}", "2.3.0"))["findings"]}


def _runtime(code: str, framework: Optional[str], instance_type: str) -> Tuple[Set[Tuple[str, str]], Dict[str, Any]]:
    """What building the snippet's objects with our classes and validating them reports (as ``validate`` does)."""
    import sm_debug_config
    from sm_debug_config.errors import ConfigWarning
    from sm_debug_config.model.settings import DebuggerSetup, JobSettings
    from sm_debug_config.checked import render_model
    from sm_debug_config.validation import validate
    from tests.corpus import OUTPUTS, SHARED_NAMES

    names: Dict[str, Any] = {name: getattr(sm_debug_config, name) for name in SHARED_NAMES}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConfigWarning)
        exec(compile(code, "<snippet>", "exec"), names)  # noqa: S102 - our own corpus, as tests/system/test_corpus.py does
        setup = DebuggerSetup(**{OUTPUTS[k]: names[k] for k in OUTPUTS if k in names})
        settings = JobSettings(
            region="us-east-1",
            output_path="s3://output-path-set-at-submit/",
            job_name="job-name-set-at-submit",
            validate=False,
            framework=framework,
            instance_type=instance_type,
        )
        rendered = render_model(setup, settings)
    found = {(f.code, f.pointer) for f in validate(rendered.request, framework=framework) if f.code != "SMD001"}
    return found, {k: names[k] for k in OUTPUTS if k in names}


def _corpus_entries() -> List[Any]:
    from tests.corpus import family_entries

    return [entry for _, entry in family_entries() if entry.expect == "renders" and not entry.xfail and not entry.files]


@pytest.mark.parametrize("entry", _corpus_entries(), ids=lambda e: e.id)
def test_lint_agrees_with_building_the_corpus_at_run_time(entry):
    from sm_debug_config.errors import ConfigError
    from tests.corpus import OUTPUTS, SHARED_NAMES

    try:
        expected, bound = _runtime(entry.code, entry.framework, entry.instance_type)
    except ConfigError:
        pytest.skip("refused at run time: covered by the construction-error tests")
    keywords = ", ".join(f"{OUTPUTS[k]}={k}" for k in bound)
    source = (
        f"from sagemaker.debugger import {', '.join(SHARED_NAMES)}\nfrom sagemaker.estimator import Estimator\n"
        f"{entry.code}\n"
        f"estimator = Estimator(image_uri=None, role=None, instance_count=1, instance_type={entry.instance_type!r}, "
        f"{keywords})\n"
    )
    result = lint_text(source, defaults={"framework": entry.framework} if entry.framework else None)
    got = {(f.code, f.pointer) for f in result["findings"]}
    if result["notes"]:  # something was computed at run time: lint may say less, never something else
        assert got <= expected, (got, expected, result["notes"])
    else:
        assert got == expected, result["notes"]


def test_a_list_changed_inside_a_block_is_unknown_there_and_after():
    source = (
        "from sagemaker.debugger import Rule, rule_configs\nfrom sagemaker.pytorch import PyTorch\nrules = []\n"
        "if ok:\n    rules.append(Rule.sagemaker(rule_configs.overfit()))\n"
        "    PyTorch(framework_version='2.3.0', rules=rules)\n"
        "PyTorch(framework_version='2.3.0', rules=rules)\n"
    )
    result = lint_text(source)
    assert result["findings"] == [] and len([n for n in result["notes"] if "rules" in n[3]]) == 2


def test_docs_copy_fixture_agrees_with_running_its_configuration():
    # the fixture's configuration part run with our classes (the imports switched to ours), then validated
    from sm_debug_config.errors import ConfigWarning
    from sm_debug_config.model.settings import DebuggerSetup, JobSettings
    from sm_debug_config.checked import render_model
    from sm_debug_config.validation import validate

    with open(os.path.join(HERE, "docs_copy.py")) as handle:
        source = handle.read()
    ours = source.replace("from sagemaker.debugger import", "from sm_debug_config import")
    ours = ours.replace("from smdebug_rulesconfig import", "from rule_configs import")
    names: Dict[str, Any] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConfigWarning)
        exec(compile(ours, "docs_copy.py", "exec"), names)  # noqa: S102 - our own fixture
        settings = JobSettings(region="us-east-1", output_path="s3://output-path-set-at-submit/", validate=False)
        rendered = render_model(DebuggerSetup(rules=names["rules"]), settings)
    expected = {(f.code, f.pointer) for f in validate(rendered.request)}
    assert {(f.code, f.pointer) for f in lint_file(os.path.join(HERE, "docs_copy.py"))["findings"]} == expected


def test_shipped_as_a_second_pre_commit_hook():
    import yaml

    with open(os.path.join(os.path.dirname(HERE), "..", "..", ".pre-commit-hooks.yaml")) as handle:
        hooks = {hook["id"]: hook for hook in yaml.safe_load(handle)}
    lint = hooks["sm-debug-config-lint"]
    assert lint["entry"] == "sm-debug-config lint --force-exclude" and lint["types_or"] == ["python", "jupyter"]
    assert "sm-debug-config-validate" in hooks


def test_a_collection_the_sdk_v2_sends_twice_is_smd117_ours_merge_to_one():
    """Issue 37: the SDK v2 sends each distinct CollectionConfig, in a set's order; ours are merged into one entry
    (the hook's value over a rule's defaults), and two of our rules that disagree are SMD116."""
    job = (
        "{imports}\nEstimator(image_uri='i', role='r', instance_count=1, instance_type='ml.m5.xlarge',\n"
        "    debugger_hook_config=DebuggerHookConfig(collection_configs=[\n"
        "        CollectionConfig('feature_importance', {{'save_interval': '500'}})]),\n"
        "    rules=[Rule.sagemaker(rule_configs.create_xgboost_report())])\n"
    )
    sdk = "from sagemaker.debugger import CollectionConfig, DebuggerHookConfig, Rule, rule_configs\n"
    sdk += "from sagemaker.estimator import Estimator"
    ours = "from sm_debug_config import CollectionConfig, DebuggerHookConfig, Rule, rule_configs\n"
    ours += "from sagemaker.estimator import Estimator"
    [finding] = [f for f in lint_text(job.format(imports=sdk))["findings"] if f.code in ("SMD116", "SMD117")]
    assert finding.code == "SMD117" and finding.line == 5  # the hook's CollectionConfig
    assert "(DebuggerHookConfig)" in finding.message and "CreateXgboostReport" in finding.message
    assert not [f for f in lint_text(job.format(imports=ours))["findings"] if f.code in ("SMD116", "SMD117")]
    two = (
        ours + "\nEstimator(image_uri='i', role='r', instance_count=1, instance_type='ml.m5.xlarge', rules=[\n"
        "    Rule.sagemaker(rule_configs.overfit(),\n"
        "                   collections_to_save=[CollectionConfig('losses', {'reductions': 'max'})]),\n"
        "    Rule.sagemaker(rule_configs.overtraining(),\n"
        "                   collections_to_save=[CollectionConfig('losses', {'reductions': 'min'})])])\n"
    )
    assert [f.code for f in lint_text(two)["findings"] if f.code in ("SMD116", "SMD117")] == ["SMD116"]
