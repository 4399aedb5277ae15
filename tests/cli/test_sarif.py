"""``--format sarif`` of validate and lint (sm_debug_config/reports/sarif.py): a log the OASIS SARIF 2.1.0 schema
accepts, with a rule per declared check linked to its page, each finding at its file (relative to the repository
root), line and column, fingerprints that survive moved lines, and the same bytes run after run. plan's log is
checked in tests/operations/test_plan.py, where launchers run."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from sm_debug_config import __version__
from sm_debug_config.cli import main
from sm_debug_config.reports import FileReport, Report
from sm_debug_config.reports.sarif import SCHEMA_URI, repository_root, sarif_log
from sm_debug_config.findings import CHECKS, MESSAGE_LIMIT, project_url
from sm_debug_config.validation import list_checks
from tests.pairhelpers import UNREADABLE_CASES
from tests.placehelpers import place_of
from tests.sarifhelpers import ROOT, load, page_of, schema_errors

#: A config file as users write it, with three mistakes (a typo of a rule parameter, a zero save_interval and a
#: rule twice) below a comment, so that moving it down moves every finding.
CONFIG = """\
# training job debugger settings
region: us-east-1
output_path: s3://my-bucket/out/
debugger_hook_config:
  collection_configs:
    - name: gradients
      parameters: {save_interval: "0"}
rules:
  - VanishingGradient
  - VanishingGradient
"""

#: A CreateTrainingJob request on one line, with characters outside the BMP before the mistake: SARIF columns
#: here count code points (columnKind), as ours do; UTF-16 would count two for each.
REQUEST = (
    '{"TrainingJobName": "\U0001f600\U0001f600-job", "DebugHookConfig": {"S3OutputPath": "s3://b/o", '
    '"CollectionConfigurations": [{"CollectionName": "gradients", "CollectionParameters": {"save_interval": "0"}}]}}\n'
)


def sarif(capsys, *argv):
    code = main(list(argv) + ["--format", "sarif"])
    out, err = capsys.readouterr()
    return code, load(out), err


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """A git work tree (its ``.git``) with the config under ``sagemaker/debugger/``; the current directory is a
    folder below its root, as a CI step's may be."""
    (tmp_path / ".git").mkdir()
    folder = tmp_path / "sagemaker" / "debugger"
    folder.mkdir(parents=True)
    (folder / "job.yaml").write_text(CONFIG, encoding="utf-8")
    (folder / "request.json").write_text(REQUEST, encoding="utf-8")
    monkeypatch.chdir(folder)
    return tmp_path


def _region(result):
    return result["locations"][0]["physicalLocation"].get("region")


def _uri(result):
    return result["locations"][0]["physicalLocation"]["artifactLocation"]


def test_validate_log_is_valid_and_places_each_finding(capsys, repo):
    code, log, _ = sarif(capsys, "validate", "job.yaml", "request.json")
    assert code == 1 and log["$schema"] == SCHEMA_URI and log["version"] == "2.1.0"
    run = log["runs"][0]
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": repo.as_uri() + "/"}}
    assert run["invocations"] == [{"executionSuccessful": True, "exitCode": 1}]
    assert run["columnKind"] == "unicodeCodePoints"
    found = [(r["ruleId"], r["level"], _uri(r)["uri"], _region(r)) for r in run["results"]]
    config, request = "sagemaker/debugger/job.yaml", "sagemaker/debugger/request.json"
    save_interval = dict(zip(("startLine", "startColumn"), place_of(CONFIG, "save_interval")))
    assert found == [
        ("SMD132", "error", config, save_interval),
        ("SMD101", "error", config, dict(zip(("startLine", "startColumn"), place_of(CONFIG, "VanishingGradient", 1)))),
        ("SMD132", "error", request, dict(zip(("startLine", "startColumn"), place_of(REQUEST, '"save_interval"')))),
    ]
    assert place_of(REQUEST, '"save_interval"')[1] == REQUEST.index('"save_interval"') + 1  # code points, 1-based
    assert all(_uri(r)["uriBaseId"] == "%SRCROOT%" for r in run["results"])
    first = run["results"][0]
    assert first["message"]["text"].startswith(
        "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/save_interval: save_interval must be"
    )


def test_rules_are_every_declared_check_with_its_page_and_level(capsys, repo):
    _, log, _ = sarif(capsys, "validate", "job.yaml")
    driver = log["runs"][0]["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("sm-debug-config", __version__)
    assert driver["informationUri"] == project_url()
    rules = driver["rules"]
    assert [rule["id"] for rule in rules] == [row["code"] for row in list_checks()] == sorted(CHECKS)
    levels = {"error": "error", "warning": "warning", "info": "note"}
    for rule in rules:
        check = CHECKS[rule["id"]]
        assert rule["helpUri"] == check.url
        assert check.url in rule["help"]["text"] and check.url in rule["help"]["markdown"]
        assert rule["shortDescription"]["text"] == check.description
        assert rule["fullDescription"]["text"] == check.evidence
        assert rule["defaultConfiguration"]["level"] == levels[check.severity]
    for result in log["runs"][0]["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] == rules[result["ruleIndex"]]["defaultConfiguration"]["level"]


def test_a_file_that_cannot_be_read_is_a_result_and_a_notification(capsys, repo):
    (repo / "broken.yaml").write_text("rules: [Overfit\n", encoding="utf-8")
    code, log, _ = sarif(capsys, "validate", "job.yaml", "../../broken.yaml", "missing.yaml")
    run = log["runs"][0]
    assert code == 2
    unread = [r for r in run["results"] if r["ruleId"] == "SMD003"]
    assert [(_uri(r)["uri"], r["level"]) for r in unread] == [
        ("broken.yaml", "error"),
        ("sagemaker/debugger/missing.yaml", "error"),
    ]
    assert _region(unread[0])["startLine"] == 2 and _region(unread[1]) is None  # where the parser stopped; no place
    [invocation] = run["invocations"]
    assert invocation["executionSuccessful"] is False and invocation["exitCode"] == 2
    notes = invocation["toolExecutionNotifications"]
    assert [n["message"]["text"] for n in notes] == [r["message"]["text"] for r in unread]
    assert {n["associatedRule"]["id"] for n in notes} == {"SMD003"}


@pytest.mark.parametrize("code, bad, good", UNREADABLE_CASES, ids=[c[0] for c in UNREADABLE_CASES])
def test_unreadable_codes_fire_on_bad_and_not_on_near_identical_good(capsys, repo, code, bad, good):
    def results(text):
        (repo / "job.yaml").write_text(text, encoding="utf-8")
        return sarif(capsys, "validate", "../../job.yaml")[1]["runs"][0]["results"]

    found = [r for r in results(bad) if r["ruleId"] == code]
    assert found and all(len(r["message"]["text"]) < MESSAGE_LIMIT for r in found)  # as test_pages measures others'
    assert code not in [r["ruleId"] for r in results(good)]


def test_fingerprints_ignore_lines_and_tell_equal_findings_apart(capsys, repo):
    _, before, _ = sarif(capsys, "validate", "job.yaml")
    (repo / "sagemaker" / "debugger" / "job.yaml").write_text("# moved\n\n" + CONFIG, encoding="utf-8")
    _, after, _ = sarif(capsys, "validate", "job.yaml")
    old, new = before["runs"][0]["results"], after["runs"][0]["results"]
    assert [_region(r)["startLine"] + 2 for r in old] == [_region(r)["startLine"] for r in new]
    assert [r["partialFingerprints"] for r in old] == [r["partialFingerprints"] for r in new]
    same = CHECKS["SMD120"].at(("DebugRuleConfigurations", 0, "RuleParameters", "threshhold"), "no parameter")
    twice = sarif_log(Report([FileReport("launch.py", [same.replace(line=3), same.replace(line=9)])]),
                      exit_code=0, root=str(repo))  # two jobs of one launcher with the same typo
    prints = [r["partialFingerprints"]["smDebugConfigFinding/v1"] for r in twice["runs"][0]["results"]]
    assert prints[0].endswith(":1") and prints[1] == prints[0][:-2] + ":2"


def test_uris_are_relative_to_the_current_directory_outside_git_and_absolute_outside_the_root(
    capsys, tmp_path, monkeypatch
):
    if repository_root(str(tmp_path)) != str(tmp_path):
        pytest.skip("the temporary directory is inside a git work tree")
    (tmp_path / "here").mkdir()
    (tmp_path / "here" / "my job.yaml").write_text(CONFIG, encoding="utf-8")
    (tmp_path / "elsewhere.yaml").write_text(CONFIG, encoding="utf-8")
    monkeypatch.chdir(tmp_path / "here")
    _, log, _ = sarif(capsys, "validate", "my job.yaml", str(tmp_path / "elsewhere.yaml"))
    uris = {json.dumps(_uri(r), sort_keys=True) for r in log["runs"][0]["results"]}
    assert uris == {
        json.dumps({"uri": "my%20job.yaml", "uriBaseId": "%SRCROOT%"}, sort_keys=True),
        json.dumps({"uri": (tmp_path / "elsewhere.yaml").as_uri()}, sort_keys=True),
    }


def test_lint_log_leaves_suppressed_findings_out_and_places_notebook_findings_in_their_cell(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, log, _ = sarif(capsys, "lint", "tests/data/lint/suppress.py", "tests/data/lint/split_cells.ipynb")
    run = log["runs"][0]
    assert code == 0 and run["invocations"][0]["exitCode"] == 0
    results = {(r["ruleId"], _uri(r)["uri"]): r for r in run["results"]}
    assert sorted(results) == [
        ("SMD120", "tests/data/lint/split_cells.ipynb"),
        ("SMD120", "tests/data/lint/suppress.py"),
        ("SMD182", "tests/data/lint/suppress.py"),
    ]
    with open(os.path.join(ROOT, "tests", "data", "lint", "suppress.py"), encoding="utf-8") as handle:
        source = handle.read()
    assert _region(results["SMD120", "tests/data/lint/suppress.py"]) == dict(
        zip(("startLine", "startColumn"), place_of(source, '"patiance"'))
    )
    notebook = results["SMD120", "tests/data/lint/split_cells.ipynb"]
    assert _region(notebook) is None  # its line counts in the cell, not in the file
    assert notebook["message"]["text"].endswith(" (cell 3, line 2, column 72)")
    assert run["properties"] == {"suppressed": 2}  # counted, not reported: code scanning ignores "suppressions"


def test_the_log_is_the_same_bytes_in_every_process(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "job.yaml").write_text(CONFIG, encoding="utf-8")
    outputs = set()
    for seed in ("0", "1234"):
        env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=ROOT)
        done = subprocess.run([sys.executable, "-m", "sm_debug_config", "validate", "--format", "sarif", "job.yaml"],
                              cwd=tmp_path, env=env, capture_output=True, timeout=120)
        assert done.returncode == 1, done.stderr
        outputs.add(done.stdout)
    assert len(outputs) == 1 and not schema_errors(json.loads(outputs.pop()))


def test_the_schema_catches_a_broken_log(capsys, repo):
    _, log, _ = sarif(capsys, "validate", "job.yaml")
    log["runs"][0]["results"][0]["level"] = "fatal"
    del log["runs"][0]["tool"]["driver"]["name"]
    assert len(schema_errors(log)) == 2


def test_every_rule_links_to_its_page_in_docs(capsys, repo):
    _, log, _ = sarif(capsys, "validate", "job.yaml")
    missing = [rule["helpUri"] for rule in log["runs"][0]["tool"]["driver"]["rules"]
               if not (page_of(rule["helpUri"]) and os.path.isfile(page_of(rule["helpUri"]) or ""))]
    assert missing == []


def test_page_of_maps_a_check_address_to_its_file():
    assert page_of(CHECKS["SMD120"].url) == os.path.join(ROOT, "docs", "checks", "SMD120.md")
    assert page_of("https://example.com/SMD120.md") is None
