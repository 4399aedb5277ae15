"""What ``sm-debug-config plan`` writes of a plan (sm_debug_config.cli.plan): its summary line and how the run
ended. The launchers run end to end in ``tests/operations/test_plan.py``."""
from __future__ import annotations

from sm_debug_config.cli.plan import messages, summary
from sm_debug_config.operations.plan import Call, Launch, Plan, PlannedJob
from sm_debug_config.findings import Finding


def test_summary_counts():
    launch = Launch("x.py", (Call("CreateTrainingJob", 3, "us-east-1", {}),))
    error = Finding("error", "SMD132", "/DebugHookConfig", "m")
    jobs = (PlannedJob("CreateTrainingJob", 3, "a", findings=(error,)), PlannedJob("CreateTrainingJob", 4, "b"))
    assert summary(Plan(launch, jobs)) == "2 training jobs planned: 1 error, 0 warnings, 0 infos"
    assert messages(Plan(launch, ())) == [] and not Plan(launch, ()).failed
    assert messages(Plan(Launch("x.py", ()), ())) == [
        "plan: the launcher started no training job (nothing to check; --strict makes this exit 1)"
    ]


def test_summary_says_how_a_launcher_that_did_not_end_stopped():
    raised = Launch("x.py", (), error="ValueError: no", raised_at=8)
    assert summary(Plan(raised, ())) == (
        "0 training jobs planned until the launcher raised at line 8: 0 errors, 0 warnings, 0 infos")
    assert messages(Plan(raised, ())) == [
        "plan: the launcher failed at x.py:8: it raised ValueError: no; nothing after it was planned "
        "(the jobs it started until then are listed)"
    ]
    exited = Launch("x.py", (), exit_status=3)
    assert summary(Plan(exited, ())).startswith("0 training jobs planned until the launcher exited with status 3:")


def test_a_failure_after_an_error_plan_let_through_says_so():
    refused = Finding("error", "SMD002", ("parameters", "include_regex"), "m", line=10)
    launch = Launch("x.py", (), error="TypeError: unhashable type: 'list'", raised_at=24, constructed=(refused,))
    assert messages(Plan(launch, ())) == [
        "plan: the launcher failed at x.py:24: it raised TypeError: unhashable type: 'list'; nothing after it was "
        "planned (the jobs it started until then are listed); plan let it go on past the error at line 10 (a plain "
        "run raises there), which may be why"
    ]
