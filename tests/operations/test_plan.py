"""``sm-debug-config plan``: the launchers of tests/data/launchers run against moto's in-process AWS.

The launchers run in subprocesses, a batch of ``cli.main`` calls per process: ``mock_aws`` resets
moto's backends, which the session's moto server (conftest) shares with this process, and the
SDK v2 import (about 15 s) is paid once per batch. Every batch runs with ``AWS_ENDPOINT_URL``
pointing at a closed port and ``AWS_PROFILE`` naming a profile that does not exist: had plan let
either through, the launchers' calls would fail.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import types
from typing import Any, Dict, List

import pytest

from sm_debug_config.findings import CHECKS, MESSAGE_LIMIT
from sm_debug_config.operations.plan import launcher as launching, training_steps
from tests import sarifhelpers

from tests.pairhelpers import PLAN_CASES, launcher

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_BATCH = r"""
import contextlib, io, json, os, sys, time, warnings
import botocore.session
import requests  # with urllib3: filters of their own at their import, which the first plan would make
from sm_debug_config.cli import main
results = []
for argv in json.loads(sys.argv[1]):
    out, err = io.StringIO(), io.StringIO()
    state = lambda: (dict(os.environ), sys.argv[:], sys.path[:], botocore.session.Session.create_client, sys.gettrace(),
                     time.sleep, warnings.showwarning, warnings.filters[:])
    before, started = state(), time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    results.append({"argv": argv, "code": code, "stdout": out.getvalue(), "stderr": err.getvalue(),
                    "seconds": round(time.perf_counter() - started, 2), "restored": state() == before})
sys.__stdout__.write("\n@@RESULTS@@" + json.dumps(results))
"""


def line_of(name: str, text: str) -> int:
    """The first line of the launcher ``name`` that starts with ``text``."""
    with open(os.path.join(ROOT, launcher(name))) as handle:
        return next(number for number, line in enumerate(handle, 1) if line.strip().startswith(text))


def run_batch(
    runs: List[List[str]], python: str = sys.executable, sdk_warns: bool = False, region: bool = True
) -> List[Dict[str, Any]]:
    """``sm_debug_config.cli.main(argv)`` of each of ``runs`` in one new process: exit code, stdout, stderr, seconds.
    ``sdk_warns``: the SDK v2 warns of its deprecation (SAGEMAKER_SUPPRESS_V2_WARNING unset), once in the process.
    ``region``: AWS_REGION is us-east-1 (else no region variable is set)."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("AWS_")}
    env.update(
        AWS_ENDPOINT_URL="http://127.0.0.1:9",
        AWS_PROFILE="plan-test-no-such-profile",
        SAGEMAKER_SUPPRESS_V2_WARNING="1",
        PYTHONPATH=ROOT,
        **({"AWS_REGION": "us-east-1"} if region else {}),
    )
    if sdk_warns:
        del env["SAGEMAKER_SUPPRESS_V2_WARNING"]
    done = subprocess.run(
        [python, "-c", _BATCH, json.dumps(runs)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900
    )
    assert "@@RESULTS@@" in done.stdout, done.stderr[-3000:]
    results = json.loads(done.stdout.split("@@RESULTS@@", 1)[1])
    print("plan seconds:", {" ".join(r["argv"][1:]): r["seconds"] for r in results})  # shown with -s
    return results


# --- boto3 launchers and how a run ends (no SDK: quick) -----------------------------------------

FAST = {
    "boto3": ["plan", launcher("boto3_jobs.py"), "--", "one", "--two"],
    "boto3_json": ["plan", "--format", "json", launcher("boto3_jobs.py")],
    "boto3_github": ["plan", "--format", "github", launcher("boto3_jobs.py")],
    "boto3_sarif": ["plan", "--format", "sarif", launcher("boto3_jobs.py")],
    "raises_sarif": ["plan", "--format", "sarif", launcher("raises.py")],
    "boto3_ignored": ["plan", "--ignore", "SMD132", "--ignore", "SMD111", launcher("boto3_jobs.py")],
    "invalid_request": ["plan", "--format", "json", launcher("invalid_request.py")],
    "raises": ["plan", launcher("raises.py")],
    "exits": ["plan", launcher("exits.py")],
    "no_jobs": ["plan", launcher("no_jobs.py")],
    "no_jobs_strict": ["plan", "--strict", launcher("no_jobs.py")],
    "catches": ["plan", "--max-jobs", "3", "--format", "json", launcher("catches.py")],
    "sleeps": ["plan", "--timeout", "2", launcher("sleeps.py")],
    "environment": ["plan", "--region", "eu-west-1", launcher("environment.py"), "--flag", "value"],
    "environment_default": ["plan", launcher("environment.py")],
    "missing": ["plan", launcher("no_such_launcher.py")],
    "bad_ignore": ["plan", "--ignore", "SMD999", launcher("no_jobs.py")],
    "boto3_selected": ["plan", "--select", "SMD13", launcher("boto3_jobs.py")],
    "boto3_select_ignore": ["plan", "--format", "json", "--select", "SMD1,SMD170", "--ignore", "SMD13,SMD11",
                            launcher("boto3_jobs.py")],
    "bad_max_jobs": ["plan", "--max-jobs", "0", launcher("no_jobs.py")],
    "constructor_error": ["plan", "--format", "json", launcher("constructor_error.py")],
    "constructor_error_text": ["plan", launcher("constructor_error.py")],
    "constructor_error_no_code": ["plan", "--format", "json", launcher("constructor_error.py"), "nocode"],
    "warns": ["plan", launcher("warns.py")],
    "refused_request": ["plan", "--format", "json", launcher("refused_request.py")],
    "renders_only": ["plan", "--format", "json", launcher("renders_only.py")],
    "warns_json": ["plan", "--format", "json", launcher("warns.py")],
    "warns_ignored": ["plan", "--ignore", "SMD121", launcher("warns.py")],
    "catches_strict": ["plan", "--strict", "--max-jobs", "3", launcher("catches.py")],
    "catches_ignored": ["plan", "--strict", "--ignore", "SMD190", "--max-jobs", "3", launcher("catches.py")],
    **{f"{code}-{kind}": argv for code, bad, good in PLAN_CASES for kind, argv in (("bad", bad), ("good", good))},
}


@pytest.fixture(scope="module")
def fast() -> Dict[str, Dict[str, Any]]:
    return dict(zip(FAST, run_batch(list(FAST.values()))))


def test_the_process_is_restored_after_each_run(fast):
    assert [name for name, run in fast.items() if not run["restored"]] == []


def test_boto3_launcher_every_operation_at_its_line(fast):
    run = fast["boto3_json"]
    assert run["code"] == 1, run["stderr"]
    result = json.loads(run["stdout"])
    jobs = [(job["operation"], job["line"], job["label"]) for job in result["jobs"]]
    assert jobs == [
        ("CreateTrainingJob", line_of("boto3_jobs.py", "sm.create_training_job("), "plain-boto3-1"),
        ("UpdateTrainingJob", line_of("boto3_jobs.py", "sm.update_training_job("), "plain-boto3-1"),
        (
            "CreateHyperParameterTuningJob",
            line_of("boto3_jobs.py", "sm.create_hyper_parameter_tuning_job("),
            "plain-tuning-1",
        ),
        ("CreateTrainingJob", line_of("boto3_jobs.py", "sm.create_pipeline("), "pipeline plain-pipeline, step Train"),
        (
            "CreateTrainingJob",
            line_of("boto3_jobs.py", "sm.update_pipeline("),
            "pipeline plain-pipeline, step TrainAgain",
        ),
    ]
    created, update, tuning, step, s3_step = result["jobs"]
    assert [(f["code"], f["line"]) for f in created["findings"] if f["severity"] == "error"] == [("SMD132", jobs[0][1])]
    assert created["image"].endswith("pytorch-training:2.1.0-gpu-py310")
    assert "SMD170" in [f["code"] for f in created["findings"]]  # the hook verdict of the request's image
    assert update["fields"] == {"ProfilerConfig": {"ProfilingIntervalInMilliseconds": 500}} and update["note"] is None
    assert tuning["note"] and "no Debugger fields" in tuning["note"] and tuning["findings"] == []
    assert "SMD120" in [f["code"] for f in step["findings"]]  # the rule parameter typo, inside the Condition step
    assert s3_step["findings"] == [] and s3_step["note"] is None  # the definition read back from S3
    assert result["summary"] == "3 training jobs planned, 1 update, 1 not checked: 2 errors, 3 warnings, 0 infos"


def test_json_has_validate_and_lints_schema(fast, cli):
    # issue 36: one finding schema and the same summary counts for validate, lint and plan
    planned = json.loads(fast["boto3_json"]["stdout"])
    validated = json.loads(cli("validate", "--format", "json", "tests/data/differential/pytorch_job.yaml").stdout)
    linted = json.loads(cli("lint", "--format", "json", "tests/data/differential/pytorch_job_v2.py").stdout)
    summary = ["errors", "warnings", "infos", "suppressed", "skipped", "not_checked"]
    for document in (planned, validated, linted):
        assert [key for key in document if key in summary + ["files"]] == ["files"] + summary
        assert [list(file) for file in document["files"]] == [["file", "findings"]] and document["files"][0]["findings"]
        assert all(set(f) - {"fix"} == {"severity", "code", "path", "message", "line", "column", "url"}
                   for f in document["files"][0]["findings"])  # "fix": a finding whose intended value is known
    (file,) = planned["files"]
    every = [f for job in planned["jobs"] for f in job["findings"]] + planned["findings"]
    assert file["file"] == launcher("boto3_jobs.py") and sorted(map(json.dumps, file["findings"])) == sorted(
        map(json.dumps, every))  # every finding of the run, as its jobs list them
    assert [planned[key] for key in ("errors", "warnings", "infos")] == [
        sum(f["severity"] == severity for f in every) for severity in ("error", "warning", "info")]


def test_text_and_github_formats_place_findings_at_the_launcher_line(fast):
    line = line_of("boto3_jobs.py", "sm.create_training_job(")
    text = fast["boto3"]["stdout"]
    assert f"{launcher('boto3_jobs.py')}:{line}: CreateTrainingJob plain-boto3-1\n" in text
    assert (
        f"{launcher('boto3_jobs.py')}:{line}: error SMD132 "
        "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/save_interval: "
        in text
    )
    with open(launcher("boto3_jobs.py")) as handle:  # the launcher's line under the finding (no column: no carets)
        source = handle.read().splitlines()[line - 1]
    finding = text.index(f"{launcher('boto3_jobs.py')}:{line}: error SMD132 ")
    assert text[finding:].splitlines()[1] == f"  {line} | {source}".rstrip()
    assert text.endswith("3 training jobs planned, 1 update, 1 not checked: 2 errors, 3 warnings, 0 infos\n")
    github = fast["boto3_github"]["stdout"]
    assert f"::error file={launcher('boto3_jobs.py')},line={line},title=SMD132 /DebugHookConfig" in github
    assert "planned" not in github and fast["boto3_github"]["code"] == 1


def test_sarif_log_is_valid_with_each_job_finding_at_the_launcher_line(fast):
    json_findings = [
        (f["code"], f["severity"], f["line"]) for job in json.loads(fast["boto3_json"]["stdout"])["jobs"]
        for f in job["findings"]
    ]
    run = fast["boto3_sarif"]
    assert run["code"] == 1, run["stderr"]
    log = sarifhelpers.load(run["stdout"])
    [sarif_run] = log["runs"]
    levels = {"error": "error", "warning": "warning", "info": "note"}
    assert [
        (r["ruleId"], r["level"], r["locations"][0]["physicalLocation"]["region"]["startLine"])
        for r in sarif_run["results"]
    ] == [(code, levels[severity], line) for code, severity, line in json_findings]
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif_run["results"]}
    assert uris == {"tests/data/launchers/boto3_jobs.py"}  # relative to the repository root
    assert sarif_run["invocations"] == [{"executionSuccessful": True, "exitCode": 1}]
    raised = fast["raises_sarif"]
    assert raised["code"] == 2
    [invocation] = sarifhelpers.load(raised["stdout"])["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False and invocation["exitCode"] == 2
    [note] = invocation["toolExecutionNotifications"]
    assert note["level"] == "error" and note["message"]["text"].startswith("plan: the launcher failed at ")
    assert note["locations"][0]["physicalLocation"]["region"]["startLine"] == line_of("raises.py", "return")


def test_ignore_suppresses_and_counts(fast):
    run = fast["boto3_ignored"]
    assert run["code"] == 0, run["stdout"]
    assert (
        run["stdout"].splitlines()[-1]
        == "3 training jobs planned, 1 update, 1 not checked: 0 errors, 3 warnings, 0 infos, 2 suppressed"
    )


def test_select_narrows_and_ignore_removes(fast):
    selected = fast["boto3_selected"]
    assert re.findall(r" (?:error|warning|info) (SMD\d{3}) ", selected["stdout"]) == ["SMD132"]
    assert selected["stdout"].splitlines()[-1].endswith(": 1 error, 0 warnings, 0 infos, 4 suppressed")
    both = json.loads(fast["boto3_select_ignore"]["stdout"])
    codes = sorted(f["code"] for job in both["jobs"] for f in job["findings"])
    assert codes == ["SMD120", "SMD170", "SMD170"] and both["summary"].endswith(", 2 suppressed")
    assert both["assumed"] == {}  # AWS_REGION names the region
    assert fast["bad_ignore"]["stderr"].startswith("sm-debug-config: --ignore SMD999: no such check; did you mean")


def test_plan_says_the_region_it_assumed():
    [json_run, text_run] = run_batch([["plan", "--format", "json", launcher("environment.py")],
                                      ["plan", launcher("environment.py")]], region=False)
    assert json.loads(json_run["stdout"])["assumed"] == {"region": "us-east-1"}
    assert "sm-debug-config: note: region us-east-1 assumed (" in text_run["stderr"]
    assert '"region": "us-east-1"' in text_run["stderr"]  # the launcher runs in it


def test_the_launcher_gets_its_arguments_and_a_throwaway_aws(fast):
    seen = [json.loads(line[5:]) for line in fast["environment"]["stderr"].splitlines() if line.startswith("SEEN ")]
    assert seen == [
        {
            "argv": ["--flag", "value"],
            "__name__": "__main__",
            "aws_variables": [
                "AWS_ACCESS_KEY_ID",
                "AWS_CONFIG_FILE",
                "AWS_DEFAULT_REGION",
                "AWS_EC2_METADATA_DISABLED",
                "AWS_REGION",
                "AWS_SECRET_ACCESS_KEY",
                "AWS_SESSION_TOKEN",
                "AWS_SHARED_CREDENTIALS_FILE",
            ],
            "region": "eu-west-1",
            "identity": "arn:aws:sts::123456789012:assumed-role/SageMakerRole/sm-debug-config-plan",
        }
    ]
    assert fast["environment"]["code"] == 0
    assert "started no training job" in fast["environment"]["stderr"]
    assert '"region": "us-east-1"' in fast["environment_default"]["stderr"]  # AWS_REGION of the environment
    assert "argv ['one', '--two']" in fast["boto3"]["stderr"]  # after --; the launcher's prints go to stderr


def test_a_request_botocore_refuses_is_checked_and_the_error_reported(fast):
    run = fast["invalid_request"]
    assert run["code"] == 2
    [job] = json.loads(run["stdout"])["jobs"]
    assert [f["code"] for f in job["findings"] if f["severity"] == "error"] == ["SMD132"]
    assert "ParamValidationError" in run["stderr"] and f"{launcher('invalid_request.py')}" in run["stderr"]


def test_a_launcher_that_raises_says_where_in_one_line_and_that_nothing_after_was_planned(fast):
    run = fast["raises"]
    assert run["code"] == 2
    line = line_of("raises.py", "return")  # the innermost frame of the launcher, in the function that raised
    [message] = [m for m in run["stderr"].splitlines() if m.startswith("plan: ")]
    assert f"{launcher('raises.py')}:{line}: " in message and "KeyError" in message
    assert "nothing after it was planned" in message
    assert "Traceback" not in run["stderr"] and 'File "' not in run["stderr"]  # no traceback dump
    # the summary says the run did not end, never a bare "0 errors"
    assert run["stdout"] == (
        f"0 training jobs planned until the launcher raised at line {line}: 0 errors, 0 warnings, 0 infos\n"
    )


def test_a_value_our_constructor_refuses_is_a_finding_at_its_line_and_the_launcher_goes_on(fast):
    run = fast["constructor_error"]
    assert run["code"] == 1, run["stderr"]
    result = json.loads(run["stdout"])
    line = line_of("constructor_error.py", 'return CollectionConfig("weights"')  # innermost: the helper's line
    assert [(f["severity"], f["code"], f["line"]) for f in result["findings"]] == [("error", "SMD132", line)]
    # built as written: the launcher is not stopped by it, every job it starts is planned
    assert [job["label"] for job in result["jobs"]] == ["before-the-error", "after-the-error"]
    assert result["raised_at"] is None and result["error"] is None
    assert (result["errors"], result["warnings"]) == (1, 0)
    assert "Traceback" not in run["stderr"] and "nothing after it was planned" not in run["stderr"]
    text = fast["constructor_error_text"]
    assert text["code"] == 1
    assert text["stdout"].endswith("\n2 training jobs planned: 1 error, 0 warnings, 0 infos\n")  # the normal summary
    assert (text["stdout"] + text["stderr"]).count("SMD132") == 1
    assert f"{launcher('constructor_error.py')}:{line}: error SMD132 " in text["stdout"]


def test_what_cannot_be_built_at_all_ends_the_launcher_with_smd002_at_its_line(fast):
    run = fast["constructor_error_no_code"]
    result = json.loads(run["stdout"])
    line = line_of("constructor_error.py", 'return Rule.sagemaker("VanishingGradient")')
    assert [(f["code"], f["line"]) for f in result["findings"]] == [("SMD002", line)] and run["code"] == 1
    assert [job["label"] for job in result["jobs"]] == ["before-the-error"]  # nothing after it was planned
    assert result["raised_at"] == line and result["error"] is None
    assert "Traceback" not in run["stderr"] and "nothing after it was planned" in run["stderr"]


def test_our_constructor_warnings_are_findings_once_and_other_warnings_are_theirs(fast):
    run = fast["warns"]
    assert run["code"] == 0, run["stderr"]
    out, err = run["stdout"], run["stderr"]
    built = line_of("warns.py", "unused = Rule.sagemaker(")
    sent = line_of("warns.py", 'boto3.client("sagemaker").create_training_job(')
    # issue 36: a rule's parameters are checked by the pass over the request: the rule built twice and never sent
    # is in no job (no finding); the rule that reached the request: the request check's finding, once
    assert [line.split(" /", 1)[0] for line in out.splitlines() if " SMD" in line] == [
        f"{launcher('warns.py')}:{sent}: warning SMD120",
    ]
    assert built and "SMD" not in err
    assert out.endswith("\n1 training job planned: 0 errors, 1 warning, 0 infos\n")
    # the launcher's own warning: Python's form, not ours, not counted
    own = line_of("warns.py", "warnings.warn(")
    assert re.search(rf"^\S*warns\.py:{own}: UserWarning: the launcher's own warning$", err, flags=re.M), err
    assert "sm-debug-config: warning" not in err
    result = json.loads(fast["warns_json"]["stdout"])
    assert result["findings"] == []  # no finding outside a job: the unused rule's SMD121 is in no request
    ignored = fast["warns_ignored"]["stdout"]
    assert "SMD121" not in ignored and ignored.endswith("0 errors, 1 warning, 0 infos\n")


def test_a_request_we_would_refuse_is_started_and_every_finding_of_its_job_reported(fast):
    run = fast["refused_request"]
    assert run["code"] == 1, run["stderr"]
    result = json.loads(run["stdout"])
    line = line_of("refused_request.py", "client.create_training_job(")  # in the helper that starts the job
    [job] = result["jobs"]
    # the SMD154 that a user's call refuses hides nothing: the image's verdict on the same job, in the same run
    assert sorted((f["code"], f["path"], f["line"]) for f in job["findings"]) == [
        ("SMD154", "/TensorBoardOutputConfig/LocalPath", line),
        ("SMD170", "/DebugHookConfig", line),
        ("SMD170", "/DebugRuleConfigurations", line),
    ]
    assert result["findings"] == [] and result["raised_at"] is None  # once: not again at the constructor's line
    assert "started" in run["stderr"].splitlines() and "SMD" not in run["stderr"]  # the launcher ran to its end
    assert result["summary"] == "1 training job planned: 1 error, 2 warnings, 0 infos"


def test_a_render_no_job_carries_reports_each_problem_once_at_its_line(fast):
    run = fast["renders_only"]
    assert run["code"] == 1, run["stderr"]
    result = json.loads(run["stdout"])
    rendered, unused = line_of("renders_only.py", "fields = render("), line_of("renders_only.py", "unused = ")
    assert result["jobs"] == [] and result["raised_at"] is None  # the render refused nothing: the launcher ran on
    assert unused and [(f["code"], f["path"], f["line"]) for f in result["findings"]] == [
        # the rule built and never rendered: its SMD121 is the request check's (issue 36), in no request
        ("SMD132", "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/save_interval", rendered),
        ("SMD120", "/DebugRuleConfigurations/0/RuleParameters/treshold", rendered),
    ]  # the collection's SMD132 once: the render's, not again at the line that built the collection
    assert '"DebugHookConfig"' in run["stderr"]  # what the launcher wrote


def test_exit_status_and_no_job(fast):
    assert fast["exits"]["code"] == 2 and "exited with status 3" in fast["exits"]["stderr"]
    assert fast["no_jobs"]["code"] == 0 and "started no training job" in fast["no_jobs"]["stderr"]
    assert fast["no_jobs"]["stdout"] == "0 training jobs planned: 0 errors, 0 warnings, 0 infos\n"
    assert fast["no_jobs_strict"]["code"] == 1


def test_max_jobs_stops_a_launcher_that_catches_everything(fast):
    run = fast["catches"]
    result = json.loads(run["stdout"])
    assert [job["label"] for job in result["jobs"]] == ["catches-0", "catches-1", "catches-2"]
    assert "--max-jobs 3" in result["stopped"] and not result["timed_out"]
    assert result["seconds"] < 60
    # stopping where asked is no failure, but the plan is incomplete: a warning at the request it refused
    line = line_of("catches.py", "sm.create_training_job(")
    assert [(f["severity"], f["code"], f["line"]) for f in result["findings"]] == [("warning", "SMD190", line)]
    assert run["code"] == 0 and result["warnings"] == 1 and "SMD190" not in run["stderr"]
    strict = fast["catches_strict"]
    assert strict["code"] == 1 and strict["stdout"].count("SMD190") == 1 and "SMD190" not in strict["stderr"]
    assert strict["stdout"].endswith("3 training jobs planned: 0 errors, 1 warning, 0 infos\n")
    assert fast["catches_ignored"]["code"] == 0


@pytest.mark.parametrize("code, bad, good", PLAN_CASES, ids=[c[0] for c in PLAN_CASES])
def test_plan_codes_fire_on_bad_and_not_on_near_identical_good(fast, code, bad, good):
    def findings(run: Dict[str, Any]) -> List[Dict[str, Any]]:
        result = json.loads(run["stdout"])
        return result["findings"] + [f for j in result["jobs"] for f in j["findings"]]

    assert code in [f["code"] for f in findings(fast[f"{code}-bad"])]
    assert code not in [f["code"] for f in findings(fast[f"{code}-good"])]
    # one-line messages (tests/validation/test_pages.py measures the other codes'), each with its page
    for finding in findings(fast[f"{code}-bad"]):
        assert len(finding["message"]) < MESSAGE_LIMIT and finding["url"] == CHECKS[finding["code"]].url


def test_timeout_stops_a_launcher_that_hangs(fast):
    run = fast["sleeps"]
    assert run["code"] == 2 and "--timeout 2 s" in run["stderr"], run
    assert run["seconds"] < 30


def test_usage_errors(fast):
    assert fast["missing"]["code"] == 2 and "no_such_launcher.py: no such file" in fast["missing"]["stderr"]
    assert fast["bad_ignore"]["code"] == 2 and "SMD999" in fast["bad_ignore"]["stderr"]
    assert fast["bad_max_jobs"]["code"] == 2 and "max_jobs" in fast["bad_max_jobs"]["stderr"]


def test_without_moto_a_one_line_usage_error(cli, monkeypatch):
    monkeypatch.setitem(sys.modules, "moto", None)  # import moto raises ImportError
    result = cli("plan", launcher("no_jobs.py"))
    assert result.returncode == 2
    # the extra's requirement as setup.cfg declares it (the package is on no public index)
    assert result.stderr.strip().endswith('pip install "moto>=5"') and len(result.stderr.strip().splitlines()) == 1


# --- SDK v2 launchers (one process) -------------------------------------------------------------

V2 = {  # the first run imports the SDK, which warns (once in the process) of its deprecation where it does
    "pytorch": ["plan", "--format", "json", launcher("v2_pytorch.py"), "--", "--epochs", "7"],
    "loop": ["plan", "--max-jobs", "3", "--format", "json", launcher("v2_loop.py")],
    "pipeline": ["plan", "--format", "json", launcher("v2_pipeline.py")],
    "ours": ["plan", launcher("v2_ours.py")],
    "step_range": ["plan", "--format", "json", launcher("v2_step_range.py")],
    "own_bucket": ["plan", "--format", "json", launcher("v2_own_bucket.py")],
}
#: Issue 37: launchers in the shapes people write (helper functions, loops and comprehensions, attributes set on the
#: Estimator): lint's answer, without running them, is plan's.
AGREE = ("v2_helpers.py", "v2_folds.py", "v2_rule_names.py")
V2.update({name: ["plan", "--format", "json", launcher(name)] for name in AGREE})


@pytest.fixture(scope="module")
def v2() -> Dict[str, Dict[str, Any]]:
    pytest.importorskip("sagemaker.estimator", reason="needs the SageMaker Python SDK v2 (extra 'sagemaker')")
    return dict(zip(V2, run_batch(list(V2.values()), sdk_warns=True)))


@pytest.mark.sagemaker
def test_v2_launcher_with_its_own_bucket_is_planned(v2):
    """The launcher's bucket exists in its account, not in plan's empty local S3: plan makes it at first use, so the
    upload of the code and the job are not lost to NoSuchBucket."""
    run = v2["own_bucket"]
    assert run["code"] == 1, run["stderr"][-2000:]
    [job] = json.loads(run["stdout"])["jobs"]
    assert [f["code"] for f in job["findings"] if f["severity"] == "error"] == ["SMD132"]
    assert job["fields"]["DebugHookConfig"]["S3OutputPath"].startswith("s3://ml-team-artifacts/experiments/resnet/")


@pytest.mark.sagemaker
def test_v2_estimator_fit_waiting_checked_at_the_fit_line(v2):
    run = v2["pytorch"]
    assert run["code"] == 1, run["stderr"][-2000:]
    [job] = json.loads(run["stdout"])["jobs"]
    line = line_of("v2_pytorch.py", "estimator.fit(")
    assert (job["operation"], job["line"]) == ("CreateTrainingJob", line)
    assert [(f["code"], f["line"]) for f in job["findings"] if f["severity"] == "error"] == [("SMD132", line)]
    assert job["image"] == "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:1.13-gpu-py39"
    assert job["fields"]["DebugRuleConfigurations"][0]["RuleConfigurationName"] == "VanishingGradient"
    assert "fit returned" in run["stderr"]  # fit() waited for the job and came back
    # and SMD117: the SDK v2 sends gradients twice (the hook's "0", VanishingGradient's default "500"), in a set's order
    assert [f["code"] for f in job["findings"] if f["severity"] == "warning"] == ["SMD117"]
    assert result_counts(run) == (1, 1)


def result_counts(run: Dict[str, Any]) -> Any:
    result = json.loads(run["stdout"])
    return result["errors"], result["warnings"]


@pytest.mark.sagemaker
def test_v2_sdk_warnings_are_theirs_not_findings(v2):
    err = v2["pytorch"]["stderr"]
    deprecations = getattr(sys.modules.get("sagemaker.deprecations"), "SageMakerV2DeprecationWarning", None)
    if deprecations is not None:  # SDKs from 2.257 warn of v2's deprecation: in Python's own form, on stderr
        assert re.search(r"^\S+\.py:\d+: \w+: ", err, flags=re.M), err[-2000:]
    assert not [line for line in err.splitlines() if line.startswith("sm-debug-config:")]
    assert result_counts(v2["pytorch"]) == (1, 1)  # none of them counted: the warning is SMD117 (see above)


@pytest.mark.sagemaker
def test_v2_with_our_objects_each_finding_once(v2):
    run = v2["ours"]
    out, err = run["stdout"], run["stderr"]
    line = line_of("v2_ours.py", "estimator.fit(")
    found = [entry.split(":", 2)[1:] for entry in out.splitlines() if " SMD" in entry]
    assert sorted((int(at), text.split()[1]) for at, text in found) == [(line, "SMD120"), (line, "SMD170"),
                                                                        (line, "SMD170")]
    assert "SMD" not in err and "sm-debug-config:" not in err  # the integration's warnings were not printed again
    assert out.endswith("\n1 training job planned: 0 errors, 3 warnings, 0 infos\n") and run["code"] == 0


def _any_collection(pointer: str) -> str:
    # the SDK v2 sends the hook's and the rules' collections in the order of a set(), which varies between launches
    return re.sub(r"/CollectionConfigurations/\d+", "/CollectionConfigurations/*", pointer)


@pytest.mark.sagemaker
@pytest.mark.parametrize("name", AGREE)
def test_lint_agrees_with_plan_on_the_code_people_write(v2, name):
    from sm_debug_config.lint import lint_file

    run = v2[name]
    [job] = json.loads(run["stdout"])["jobs"]
    planned = sorted((f["code"], _any_collection(f["path"])) for f in job["findings"] if f["severity"] != "info")
    linted = lint_file(os.path.join(ROOT, launcher(name)))
    assert linted["notes"] == []  # lint followed all of it
    assert sorted((f.code, _any_collection(f.pointer)) for f in linted["findings"] if f.severity != "info") == planned
    assert len(planned) >= 3 and run["code"] == (1 if any(f["severity"] == "error" for f in job["findings"]) else 0)


@pytest.mark.sagemaker
def test_v2_with_our_objects_each_problem_once_at_the_request_pointer_and_the_fit_line(v2):
    run = v2["step_range"]
    assert run["code"] == 1, run["stderr"][-2000:]
    result = json.loads(run["stdout"])
    line = line_of("v2_step_range.py", "estimator.fit(")
    [job] = result["jobs"]  # the error refused nothing: the job was started
    assert sorted((f["code"], f["path"], f["line"]) for f in job["findings"]) == [
        ("SMD124", "/DebugRuleConfigurations/0/RuleParameters", line),
        ("SMD132", "/DebugHookConfig/CollectionConfigurations/0/CollectionParameters/save_interval", line),
        ("SMD133", "/DebugHookConfig/HookParameters/start_step", line),
    ]
    assert result["findings"] == []  # not again at the lines that built the objects, with their own pointers
    assert result["summary"] == "1 training job planned: 1 error, 2 warnings, 0 infos"  # three problems
    assert "SMD" not in run["stderr"]


@pytest.mark.sagemaker
def test_v2_runs_restore_the_process(v2):
    assert [name for name, run in v2.items() if not run["restored"]] == []


@pytest.mark.sagemaker
def test_v2_loop_stops_at_max_jobs_despite_the_telemetry_wrapper(v2):
    result = json.loads(v2["loop"]["stdout"])
    assert [job["label"] for job in result["jobs"]] == ["loop-0", "loop-1", "loop-2"]
    assert "--max-jobs 3" in result["stopped"] and v2["loop"]["code"] == 0
    line = line_of("v2_loop.py", ").fit(")
    assert [(f["code"], f["line"]) for f in result["findings"]] == [("SMD190", line)]


@pytest.mark.sagemaker
def test_v2_pipeline_upsert_checks_the_training_step(v2):
    run = v2["pipeline"]
    assert run["code"] == 0, run["stderr"][-2000:]
    [job] = json.loads(run["stdout"])["jobs"]
    assert (job["operation"], job["label"]) == ("CreateTrainingJob", "pipeline plan-v2-pipeline, step Train")
    assert job["line"] == line_of("v2_pipeline.py", "pipeline.upsert(")
    assert [f["path"] for f in job["findings"] if f["code"] == "SMD120"] == [
        "/DebugRuleConfigurations/0/RuleParameters/threshhold"
    ]
    assert "as arn:aws:iam::123456789012:role/SageMakerRole" in run["stderr"]  # get_execution_role() found the role


# --- the pieces, in this process ----------------------------------------------------------------


def test_training_steps_of_a_definition():
    step = {"Name": "T", "Type": "Training", "Arguments": {"RoleArn": "r"}}
    definition = {
        "Steps": [
            {"Name": "P", "Type": "Processing", "Arguments": {}},
            step,
            {
                "Name": "C",
                "Type": "Condition",
                "Arguments": {
                    "IfSteps": [],
                    "ElseSteps": [
                        {"Name": "C2", "Type": "Condition", "Arguments": {"IfSteps": [dict(step, Name="Deep")]}}
                    ],
                },
            },
            "junk",
            {"Type": "Training"},
        ]
    }
    found = list(training_steps(json.dumps(definition)))
    assert [(at, name) for at, name, _ in found] == [
        ("/Steps/1/Arguments", "T"),
        ("/Steps/2/Arguments/ElseSteps/0/Arguments/IfSteps/0/Arguments", "Deep"),
    ]
    assert found[0][2] == {"RoleArn": "r"}
    assert list(training_steps({"Steps": "none"})) == [] and list(training_steps([])) == []
    with pytest.raises(ValueError):
        list(training_steps("{not json"))


def _nap(seconds: float) -> None:
    time.sleep(seconds)


def _sleeper(module: str) -> Any:
    """:func:`_nap` as code of ``module`` (its globals) runs it: where plan looks to tell the SDKs' sleeps."""
    return types.FunctionType(_nap.__code__, {"__name__": module, "time": time})


def test_the_sdks_sleeps_return_at_once_and_the_launchers_own_sleep(monkeypatch):
    slept: List[float] = []
    monkeypatch.setattr(time, "sleep", slept.append)  # the real sleep, as the launcher would find it
    sdk, own = _sleeper("sagemaker.session"), _sleeper("__main__")
    with launching._sdk_waits_skipped():
        sdk(5)  # SDK v2's _wait_until, sagemaker-core's wait, botocore's waiters
        own(7)  # the launcher's own
    assert slept == [7] and time.sleep == slept.append  # restored
    monkeypatch.setattr(launching, "_MAX_SKIPPED_SLEEPS", 2)
    with launching._sdk_waits_skipped():
        for seconds in (1, 2, 3, 4):
            sdk(seconds)
    assert slept == [7, 3, 4]  # past the limit, the SDK's waits take their time again (no busy loop)


def test_a_config_warning_without_a_code_is_written_as_python_writes_it(capsys):
    from sm_debug_config.errors import ConfigWarning, warn_user

    with launching._launchers_warnings():
        # this package's integrations saying what they did: no finding code, the launcher's output
        warn_user(ConfigWarning("the SDK drops the Debugger fields of a tuning job"))
    err = capsys.readouterr().err
    assert re.search(r"^\S+\.py:\d+: ConfigWarning: the SDK drops", err, flags=re.M), err


def test_constructors_report_values_at_the_launchers_line_while_it_runs():
    from sm_debug_config import CollectionConfig, Rule, rule_configs
    from sm_debug_config.findings import collecting

    with collecting(as_written=True, where=lambda: 7) as found:
        weights = CollectionConfig("weights", {"save_interval": "0"})  # refused for a user: kept as written here
        Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={"num_steps": "abc"})
    assert weights.parameters == {"save_interval": "0"}
    assert [(f.code, f.path, f.line) for f in launching._constructed(found.placed)] == [
        ("SMD132", ("parameters", "save_interval"), 7),
    ]  # the rule's SMD121 is the request check's (issue 36): found once a job carries the rule


def test_every_botocore_session_shares_one_loader_meanwhile():
    import botocore.loaders
    import botocore.session

    with launching._one_data_loader():
        loaders = [botocore.session.Session().get_component("data_loader") for _ in range(2)]
        loaders.append(botocore.loaders.create_loader())  # as SDK v2 makes one for each image lookup
    assert loaders[0] is loaders[1] is loaders[2]
    assert botocore.session.Session().get_component("data_loader") is not loaders[0]  # restored


def test_help_says_the_defaults_and_exit_codes(cli):
    result = cli("plan", "--help")
    text = " ".join(result.stdout.split())
    assert result.returncode == 0
    assert "else us-east-1" in text and "(default 100)" in text and "(default 300; 0: no limit)" in text
    assert re.search(r"exit codes: 0 \S.*, 1 \S.*, 2 \S", text) and "Options go before SCRIPT" in text
