"""Issue 38, "done when" 1: for every fixable check, its fix applied to its bad fixture gives its good fixture byte for
byte, in each format the check can occur in.

The cases are :func:`tests.checkpairs.fix_cases` (every fixable check's request pair) and SMD103's manifest pairs
(``DOCUMENT_FIX_CASES``); the formats are the writers of :mod:`tests.fixwriters`. For each case and format the bad
request and the good request are written by the same writer; the file of the bad one is checked as ``validate`` (or
``lint``) checks it, the fixes of the case's code are applied pass after pass until none is left (safe and unsafe:
``--fix --unsafe-fixes``), and the file must then be the good one's text.

Where a check cannot occur in a format, or its fix cannot be placed there by design, the pair is in
:data:`NOT_PLACEABLE` with the reason, and the test checks that reason still holds (no finding, or a finding
without edits, or nothing the writer can write): a skip that becomes wrong fails. Where the fix is placed but the
writer writes the good request in another form than the fix leaves (a config file's ``from-request`` picks the
shorter form of a rule), the pair is in :data:`OTHER_FORM` and the fixed file must read as the good request. The
table of docs/command-line.md ("Where fixes apply") is :func:`markdown_table`'s: ``python -m tests.test_fix_matrix``
prints it.
"""
from __future__ import annotations

import copy
import json
import os
from typing import Any, Callable, Dict, List, Optional, Tuple

import pytest

from sm_debug_config import sources
from sm_debug_config.checked import render_model
from sm_debug_config.cli.files import read
from sm_debug_config.documents import hcl
from sm_debug_config.engine import check
from sm_debug_config.errors import ConfigError
from sm_debug_config.findings import collecting
from sm_debug_config.fixes import applicable, apply_edits
from sm_debug_config.lint import lint_file, lint_text
from sm_debug_config.lint.sources import apply_notebook_edits
from sm_debug_config.rendering import render_arguments
from sm_debug_config.sourcemap import argument_path
from tests import fixwriters as w
from tests.checkpairs import fix_cases
from tests.pairhelpers import DOCUMENT_FIX_CASES

OPTIONS = {"region": "us-east-1"}
DEFAULTS = {"output_path": "s3://output-path-set-at-submit/"}  # as validate renders a config without one

Text = Optional[str]
Pair = Tuple[Text, Text]


def _request_pair(writer: Callable[[Dict[str, Any]], Text]) -> Callable[[Dict[str, Any], Dict[str, Any]], Pair]:
    return lambda bad, good: (writer(bad), writer(good))


_ABSENT = object()


def _differences(bad: Any, good: Any, path: Tuple[Any, ...] = ()) -> List[Tuple[Tuple[Any, ...], Any]]:
    """The paths where ``bad`` differs from ``good``, each with ``bad``'s value there (``_ABSENT``: not in ``bad``)."""
    if isinstance(bad, dict) and isinstance(good, dict):
        return [change for key in list(good) + [k for k in bad if k not in good]
                for change in _differences(bad.get(key, _ABSENT), good.get(key, _ABSENT), path + (key,))]
    if isinstance(bad, list) and isinstance(good, list) and len(bad) == len(good):
        return [change for index, (b, g) in enumerate(zip(bad, good))
                for change in _differences(b, g, path + (index,))]
    return [] if bad == good else [(path, bad)]


def _config_pair(text: Callable[[Dict[str, Any]], str]) -> Callable[[Dict[str, Any], Dict[str, Any]], Pair]:
    """Config files: the good request as ``sm-debug-config from-request`` writes it (:func:`w.config_data`); the bad
    one so too where ``from_request`` takes it, else the good file with the bad request's values written at their
    config keys (``from_request`` refuses a value its objects refuse, which a config file read for ``validate`` holds
    as written): None where the good file has no key to write them below."""
    def pair(bad: Dict[str, Any], good: Dict[str, Any]) -> Pair:
        good_data = w.config_data(good)
        try:
            return text(w.config_data(bad)), text(good_data)
        except ConfigError:
            pass
        data = copy.deepcopy(good_data)
        for path, value in _differences(bad, good):
            parent: Any = data
            place = argument_path(path)
            for part in place[:-1]:
                parent = parent.get(part) if isinstance(parent, dict) else (
                    parent[part] if isinstance(parent, list) and isinstance(part, int) else None)
            if not isinstance(parent, dict):
                return None, text(good_data)
            if value is _ABSENT:
                del parent[place[-1]]
            else:
                parent[place[-1]] = value
        return text(data), text(good_data)
    return pair


#: Each format: its family (the rows of the table), the command that reads it, and the writer of a case's pair.
FORMATS: Dict[str, Tuple[str, str, Callable[[Dict[str, Any], Dict[str, Any]], Pair]]] = {
    "request.json": ("request JSON", "validate", _request_pair(lambda r: json.dumps(r, indent=2) + "\n")),
    "request.yaml": ("request YAML", "validate", _request_pair(lambda r: "# the request\n" + w.yaml_text(r))),
    "sm.json": ("state machine JSON", "validate", _request_pair(w.WRITERS["sm.json"])),
    "sm.yaml": ("state machine YAML", "validate", _request_pair(w.WRITERS["sm.yaml"])),
    "pipe.json": ("pipeline JSON", "validate", _request_pair(w.WRITERS["pipe.json"])),
    "cfn.yaml": ("CloudFormation YAML !Sub body", "validate", _request_pair(w.WRITERS["cfn.yaml"])),
    "cfn.json": ("CloudFormation JSON Fn::Sub", "validate", _request_pair(w.WRITERS["cfn.json"])),
    "cfn-job.yaml": ("CloudFormation YAML TrainingJob", "validate", _request_pair(w.cloudformation_job)),
    "main.tf": ("Terraform HCL", "validate", _request_pair(w.terraform_hcl)),
    "main.tf.json": ("Terraform JSON", "validate", _request_pair(w.terraform_json)),
    "manifest.yaml": ("ACK manifest", "validate", _request_pair(w.manifest)),
    "config.yaml": ("config YAML", "validate", _config_pair(lambda data: "# Debugger settings\n" + w.yaml_text(data))),
    "config.json": ("config JSON", "validate", _config_pair(lambda data: json.dumps(data, indent=2) + "\n")),
    "launcher.py": ("SDK v2 launcher", "lint", _request_pair(w.launcher)),
    "launcher.ipynb": ("notebook", "lint", _request_pair(w.notebook)),
}
_PYTHON = ("launcher.py", "launcher.ipynb")

_CONFIG = ("config.yaml", "config.json")
_NUMBERS_AS_STRINGS = ("cannot occur: a config file's parameters are rendered as strings (a number or boolean written "
                       "there is the string the SDK sends)")
_TYPED_IN_CONFIG = ("cannot occur: a config file's profiler keys are typed; a string there is refused when the file "
                    "is read (SMD002, no fix)")
_NO_IMAGE = ("not placeable by design: the training image is a setting here (image_uri, framework_version), not "
             "the request's TrainingImage, the one place SMD170's fix rewrites (validation/images.py _image_fix)")
_SDK_KEYWORDS = ("cannot occur: SDK v2 takes {what} as keyword arguments; a misspelt one is a TypeError when the "
                 "launcher runs (lint: SMD002, no fix)")

#: (code, :func:`_mistake`, file) -> why the fix is not placed there. The test checks that it still is not.
NOT_PLACEABLE: Dict[Tuple[str, str, str], str] = {
    **{("SMD100", key, name): _NUMBERS_AS_STRINGS
       for key in ("DebugRuleConfigurations/patience", "DebugHookConfig/save_interval") for name in _CONFIG},
    **{("SMD100", "ProfilerConfig/DisableProfiler", name): _TYPED_IN_CONFIG for name in _CONFIG},
    **{("SMD170", "AlgorithmSpecification/TrainingImage", name): _NO_IMAGE for name in _CONFIG + _PYTHON},
    **{key + (name,): reason for name in _PYTHON for key, reason in {
        ("SMD100", "ProfilerConfig/DisableProfiler"): (
            "cannot occur: SDK v2's ProfilerConfig and disable_profiler= are typed arguments; a string there is "
            "refused when the estimator is built (lint: SMD002, no fix)"),
        ("SMD120", "ProfilerRuleConfigurations/window"): _SDK_KEYWORDS.format(what="a profiler rule's parameters"),
        ("SMD143", "ProfilerConfig/FileOpenFailThreshold"): _SDK_KEYWORDS.format(what="FrameworkProfile's parameters"),
        ("SMD151", "DebugRuleConfigurations/RuleEvaluatorImage"): (
            "cannot occur: SDK v2 picks a built-in rule's image from the session's region; a launcher writes none"),
    }.items()},
}

#: (code, :func:`_mistake`, file) -> why the fixed file is the good request in another form than the
#: writer's: the fixed file must read as the good request (its rendered request equal to the good file's).
OTHER_FORM: Dict[Tuple[str, str, str], str] = {
    **{("SMD120", "DebugRuleConfigurations/patience", name): (
        "from-request writes a known parameter's value as a number (patience: 2) and an unknown one's as the string "
        "written ('2'): the renamed key keeps the value as written") for name in _CONFIG},
    **{("SMD151", "DebugRuleConfigurations/RuleEvaluatorImage", name): (
        "from-request writes a rule with another region's image in full (rule: with image_uri) and the good one as "
        "builtin: Overfit: the fix sets image_uri in the full form") for name in _CONFIG},
    **{("SMD153", "DebugHookConfig/LocalPath", name): (
        "the hook's relative local_path removed leaves debugger_hook_config: {} where from-request leaves out a hook "
        "of defaults") for name in _CONFIG},
}

#: (code, :func:`_mistake`, file) -> a known disagreement between the surfaces' fixes (strict xfail: it
#: fails once they agree, to be moved out of here).
DISAGREE: Dict[Tuple[str, str, str], str] = {}


def _mistake(case: Dict[str, Any]) -> str:
    """``Member/key``: the top member and the last key of the first place the bad request differs from the good one."""
    path = _differences(case["bad"], case["good"])[0][0]
    return f"{path[0]}/{next(part for part in reversed(path) if isinstance(part, str))}"


def _cases() -> List[Any]:
    out = []
    for index, case in enumerate(fix_cases()):
        for name in FORMATS:
            key = (case["code"], _mistake(case), name)
            marks = [pytest.mark.xfail(strict=True, reason=DISAGREE[key])] if key in DISAGREE else []
            out.append(pytest.param(case, name, id=f"{case['code']}-{index}-{name}", marks=marks))
    return out


def _findings(path: str, name: str, text: str, options: Dict[str, Any]) -> List[Any]:
    if name.endswith(".py"):
        return list(lint_text(text, path)["findings"])
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)
    if name.endswith(".ipynb"):
        result = lint_file(path)
        assert "error" not in result, result
        return list(result["findings"])
    found = read(path, "auto")
    source = sources.detect(found.document)
    assert source is not None, f"{name}: no source reads it"
    options = dict(OPTIONS, **options)
    return [f for job in source.jobs(found, {}) for f in check(job, options, defaults=DEFAULTS).findings]


def fixed(path: str, name: str, text: str, code: str, options: Dict[str, Any]) -> Tuple[str, int]:
    """``text`` with the fixes of ``code`` applied (safe and unsafe) pass after pass until none is left, and how many
    passes took one."""
    for passes in range(10):
        fixes = [f.fix.edits for f in _findings(path, name, text, options)
                 if f.code == code and applicable(f.fix, unsafe=True)]
        if not fixes:
            return text, passes
        text, count = (apply_notebook_edits if name.endswith(".ipynb") else apply_edits)(text, fixes)
        assert count >= 1
    raise AssertionError(f"{code} in {name}: the fixes did not settle")


def _rendered(path: str, name: str, text: str) -> Any:
    """The request the engine checks of the file ``text`` (a config file's render)."""
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)
    found = read(path, "auto")
    (job,) = sources.detect(found.document).jobs(found, {})
    if job.request is not None:
        return job.request
    with collecting(as_written=True):
        setup, settings = render_arguments(dict(job.render_kwargs, **DEFAULTS, region="us-east-1"))
        return render_model(setup, settings, built_here=True).request


def _skip_if_no_hcl2(name: str) -> None:
    if name == "main.tf" and not hcl.has_hcl2():
        pytest.skip("python-hcl2 is not installed (the 'terraform' extra)")


@pytest.mark.parametrize("case, name", _cases())
def test_the_fix_turns_the_bad_file_into_the_good_one_in_every_format(tmp_path, case, name):
    _skip_if_no_hcl2(name)
    code, options = case["code"], case["options"]
    key = (code, _mistake(case), name)
    bad, good = FORMATS[name][2](case["bad"], case["good"])
    path = str(tmp_path / name)
    if key in NOT_PLACEABLE:
        # the reason still holds: nothing to write, or no finding of the code, or one without edits
        if bad is not None:
            placed = [f for f in _findings(path, name, bad, options)
                      if f.code == code and applicable(f.fix, unsafe=True)]
            assert not placed, f"{key} is placed now: move it out of NOT_PLACEABLE ({NOT_PLACEABLE[key]})"
        return
    assert bad is not None and good is not None, f"{name} cannot write {code}'s case: say why in NOT_PLACEABLE"
    assert bad != good
    before = [f for f in _findings(path, name, bad, options) if f.code == code]
    assert before, f"no {code} in the bad {name}"
    assert any(applicable(f.fix, unsafe=True) for f in before), f"{code}'s fix has no edits in {name}"
    text, passes = fixed(path, name, bad, code, options)
    assert passes >= 1
    if key in OTHER_FORM:
        assert text != good
        assert _rendered(path, name, text) == _rendered(str(tmp_path / ("good-" + name)), name, good), OTHER_FORM[key]
        return
    assert text == good
    assert not [f for f in _findings(path, name, text, options) if f.code == code]  # none left


@pytest.mark.parametrize("case, name", [param for param in _cases() if not param.marks])
def test_the_command_fixes_the_file_as_the_engine_does(cli, tmp_path, case, name):
    """``validate``/``lint --fix --unsafe-fixes --select CODE`` of the bad file writes the good one (or, where the pair
    is not placeable, leaves the file as it was)."""
    _skip_if_no_hcl2(name)
    code = case["code"]
    key = (code, _mistake(case), name)
    bad, good = FORMATS[name][2](case["bad"], case["good"])
    if bad is None:
        return  # nothing to write (NOT_PLACEABLE says why)
    path = tmp_path / name
    path.write_bytes(bad.encode("utf-8"))
    result = cli(FORMATS[name][1], "--fix", "--unsafe-fixes", "--select", code, "--region", "us-east-1", str(path))
    assert result.returncode in (0, 1), result
    written = path.read_bytes().decode("utf-8")
    if key in NOT_PLACEABLE:
        assert written == bad
    elif key in OTHER_FORM:
        assert written != bad
    else:
        assert written == good, result


# --- SMD103: a manifest's own code (its changes are at the manifest's paths) ----------------------------------------

@pytest.mark.parametrize("code, applicability, bad, good", DOCUMENT_FIX_CASES)
@pytest.mark.parametrize("writer", [w.yaml_text, lambda document: json.dumps(document, indent=2) + "\n"],
                         ids=["manifest-yaml", "manifest-json"])
def test_a_manifest_s_own_fix_gives_the_good_manifest(tmp_path, code, applicability, bad, good, writer):
    path = str(tmp_path / "manifest.yaml")
    text, passes = fixed(path, "manifest.yaml", writer(bad), code, {})
    assert passes >= 1 and text == writer(good)


# --- the table docs/command-line.md shows ---------------------------------------------------------------------------

def matrix() -> Dict[Tuple[str, str], List[str]]:
    """(code, format family) -> the state of each of the code's cases there: "fixed", "fixed, another form: why",
    "fixed, another value: why" or the reason it is not placeable."""
    out: Dict[Tuple[str, str], List[str]] = {}
    for case in fix_cases():
        for name, (family, _command, _pair) in FORMATS.items():
            key = (case["code"], _mistake(case), name)
            state = (NOT_PLACEABLE.get(key) or (OTHER_FORM.get(key) and "fixed, another form: " + OTHER_FORM[key])
                     or (DISAGREE.get(key) and "fixed, another value: " + DISAGREE[key]) or "fixed")
            states = out.setdefault((case["code"], family), [])
            if name == next(n for n, (f, _c, _p) in FORMATS.items() if f == family):  # a family's first format
                states.append(state)
    return out


def test_every_pair_s_reason_names_a_case_that_exists():
    keys = {(case["code"], _mistake(case), name) for case in fix_cases() for name in FORMATS}
    for table in (NOT_PLACEABLE, OTHER_FORM, DISAGREE):
        assert set(table) <= keys, set(table) - keys


def markdown_table() -> str:
    """The table in Markdown: a row per code, a column per format family; a cell is ``yes`` (every case of the code
    fixed byte for byte), else how many of its cases are fixed and the notes on the others, listed below it
    (``-``: not placeable; ``form``: fixed, the writer writes the good request in another form; ``value``: fixed,
    another value than the request check's)."""
    cells = matrix()
    families = list(dict.fromkeys(family for family, _c, _p in FORMATS.values()))
    codes = sorted({code for code, _f in cells})
    reasons: List[str] = []
    lines = ["| code | " + " | ".join(families) + " |", "|---" * (len(families) + 1) + "|"]
    for code in codes:
        row = []
        for family in families:
            states = cells[(code, family)]
            if all(state == "fixed" for state in states):
                row.append("yes")
                continue
            notes = []
            for state in dict.fromkeys(s for s in states if s != "fixed"):
                if state not in reasons:
                    reasons.append(state)
                mark = "form" if state.startswith("fixed, another form") else (
                    "value" if state.startswith("fixed, another value") else "-")
                notes.append(f"{mark} ({reasons.index(state) + 1})")
            fixed_count = sum(1 for s in states if s == "fixed")
            row.append(f"{fixed_count}/{len(states)}, " * (len(states) > 1) + " ".join(notes))
        lines.append(f"| {code} | " + " | ".join(row) + " |")
    lines.append("")
    lines += [f"{index}. {reason}" for index, reason in enumerate(reasons, 1)]
    return "\n".join(lines) + "\n"


def test_the_docs_show_this_table():
    docs = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "command-line.md")
    with open(docs, encoding="utf-8") as handle:
        assert markdown_table() in handle.read(), "python -m tests.test_fix_matrix prints the table to paste there"


if __name__ == "__main__":  # python -m tests.test_fix_matrix: the table for docs/command-line.md
    os.environ.setdefault("SAGEMAKER_SUPPRESS_V2_WARNING", "1")
    print(markdown_table(), end="")
