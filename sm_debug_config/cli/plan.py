"""``sm-debug-config plan``: run a launcher against a local AWS (moto) and check every training job it starts."""
from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, List, Optional

from sm_debug_config.cli import project
from sm_debug_config.cli.common import (
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_USAGE,
    PROG,
    UsageError,
    add_selection_flags,
    add_setting_flags,
    exit_codes,
)
from sm_debug_config.cli.defaults import say_region
from sm_debug_config.cli.report import FORMATS, print_report
from sm_debug_config.errors import ERROR, SEVERITIES, WARNING, ConfigError
from sm_debug_config.model.regions import job_region
from sm_debug_config.operations.plan import PlanError, plan
from sm_debug_config.reports import FileReport, Heading, Notice, Report, Summary, not_checked
from sm_debug_config.reports.text import counted, plural, where
from sm_debug_config.validation import check_codes

if TYPE_CHECKING:
    from sm_debug_config.operations.plan import Launch, Plan, PlannedJob

#: What follows from an assumed region in plan (its note).
LAUNCHER_RUNS_IN = "the launcher runs in it, and its jobs are checked there"

DESCRIPTION = ("Run SCRIPT as __main__ (ARGS as sys.argv[1:]) against moto's in-process AWS with throw-away "
               "credentials: nothing reaches AWS. Each CreateTrainingJob, UpdateTrainingJob, "
               "CreateHyperParameterTuningJob and CreatePipeline/UpdatePipeline (its Training steps) is checked, "
               "the findings placed at the script's line that started the job, each problem once; what "
               "sm_debug_config's own constructors find in objects that reach no job is a finding too, at its line. "
               "The script's other side effects (local files, non-AWS network calls) happen as they would; "
               "its output, and the warnings of the SDK and its own, go to stderr. Options go before SCRIPT.")
EPILOG = exit_codes("findings: an error (with --strict, a warning, or no job started)",
                    "a launcher that raised (other than an sm_debug_config ConfigError, a finding), exited non-zero "
                    "or ran past --timeout")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("script", metavar="SCRIPT", help="the launcher (a Python file)")
    parser.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS", help="arguments for the launcher (after --)")
    parser.add_argument(
        "--max-jobs",
        type=int,
        default=100,
        metavar="N",
        help="stop the launcher at its job request number N+1 (default 100): a launcher that loops ends",
    )
    parser.add_argument("--timeout", type=float, default=300.0, metavar="SECONDS",
                        help="stop the launcher after this many seconds (default 300; 0: no limit); exit 2")
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="text: each job, its Debugger fields and findings, and a summary (default); "
                             "json: one document; github: GitHub Actions annotations; sarif: a SARIF 2.1.0 log "
                             "(GitHub code scanning)")
    add_setting_flags(parser, ("region", "framework"))  # --region: the region the launcher runs in
    add_selection_flags(parser)
    parser.add_argument(
        "--strict", action="store_true", help="exit 1 on warnings too, and when the launcher starts no job"
    )
    project.add_arguments(parser)


def _until(launch: "Launch") -> str:
    """How a launcher that did not run to its end ended, for the summary (empty when it did)."""
    if launch.error:
        return " until the launcher raised" + (f" at line {launch.raised_at}" if launch.raised_at else "")
    if launch.timed_out:
        return " until --timeout stopped the launcher"
    if isinstance(launch.exit_status, str) or launch.exit_status:
        return " until the launcher exited" + ("" if isinstance(launch.exit_status, str) else
                                               f" with status {launch.exit_status}")
    return ""


def subject(result: "Plan") -> str:
    """What the summary counts: ``3 training jobs planned``, with updates and requests not checked when there are;
    ``... planned until the launcher raised at line 8`` when it did not run to its end."""
    jobs = result.jobs
    trainings = sum(1 for job in jobs if job.operation != "UpdateTrainingJob" and job.checked)
    updates = sum(1 for job in jobs if job.operation == "UpdateTrainingJob")
    others = sum(1 for job in jobs if not job.checked)
    return (
        f"{plural(trainings, 'training job')} planned"
        + (f", {plural(updates, 'update')}" if updates else "")
        + (f", {others} not checked" if others else "")
        + _until(result.launch)
    )


def summary(result: "Plan") -> str:
    """``3 training jobs planned: 1 error, 2 warnings, 0 infos`` (:func:`subject`), with suppressed findings when
    there are."""
    suppressed = sum(len(job.suppressed) for job in result.jobs) + len(result.suppressed)
    return (
        f"{subject(result)}: {counted({severity: result.count(severity) for severity in SEVERITIES})}"
        + (f", {suppressed} suppressed" if suppressed else "")
    )


def messages(result: "Plan") -> List[str]:
    """How the run ended, when that is worth saying (each once: the ``--max-jobs`` stop is a finding): timed out,
    exited, raised, stopped by an error of ours, or no job started."""
    launch = result.launch
    at = f"{launch.script}:{launch.raised_at}" if launch.raised_at else launch.script
    out = [f"plan: {launch.stopped}"] if launch.timed_out and launch.stopped else []
    if isinstance(launch.exit_status, str):
        out.append(f"plan: the launcher exited with the message: {launch.exit_status}")
    elif launch.exit_status:
        out.append(
            f"plan: the launcher exited with status {launch.exit_status}; the jobs it started until then are listed"
        )
    if launch.error:
        out.append(
            f"plan: the launcher failed at {at}: it raised {launch.error}; nothing after it was planned "
            "(the jobs it started until then are listed)" + _let_through(launch)
        )
    elif launch.raised_at is not None:
        out.append(f"plan: the launcher stopped at {at} on that error; nothing after it was planned")
    if not launch.calls and not result.failed and launch.raised_at is None:
        out.append("plan: the launcher started no training job (nothing to check; --strict makes this exit 1)")
    return out


def _let_through(launch: "Launch") -> str:
    """Where plan let a launcher that then failed go on past this package's errors, for its failure's message: plan
    builds the objects as written, so a value a plain run refuses there goes on into the SDK's code (empty: none)."""
    lines = sorted({f.line for f in launch.constructed if f.severity == ERROR and f.line is not None})
    if not lines:
        return ""
    listed = ", ".join(map(str, lines))
    where = f"the error at line {listed}" if len(lines) == 1 else f"the errors at lines {listed}"
    return f"; plan let it go on past {where} (a plain run raises there), which may be why"


def run(args: argparse.Namespace) -> int:
    """Run the launcher under a local AWS (:mod:`~sm_debug_config.operations.plan`); print its jobs as validate does."""

    project.projects(args, [args.script])  # a bad pyproject.toml is a usage error
    args = project.settings_for(args, args.script)
    launcher_args = args.args[1:] if args.args[:1] == ["--"] else args.args  # argparse keeps the "--" on some Pythons
    try:
        ignore = check_codes(args.ignore, field="--ignore")
        region = job_region(args.region)  # the one default (cli/defaults.py), said below when assumed
        result = plan(args.script, launcher_args, region=region.name, max_jobs=args.max_jobs,
                      timeout=args.timeout or None, framework=args.framework, ignore=ignore)
    except (PlanError, ConfigError) as err:  # no moto, no script; a bad --region, --ignore, --max-jobs or --timeout
        raise UsageError(f"{PROG} plan: {err}") from None
    say_region(region, LAUNCHER_RUNS_IN)
    no_job = not result.launch.calls
    if result.failed:
        code = EXIT_USAGE
    else:
        code = EXIT_FINDINGS if result.count(ERROR) or (args.strict and (result.count(WARNING) or no_job)) else EXIT_OK
    assumed_region = region.name if region.assumed else None
    return print_report(plan_report(result, args.script, assumed_region), args, code)


def _job_heading(script: str, job: "PlannedJob") -> str:
    """A job's lines above its findings: the launcher's line that started it, the operation and label (why it was
    not checked), its image and its Debugger fields."""
    fields = "".join(f"    {name}: {json.dumps(value, ensure_ascii=False)}\n" for name, value in job.fields.items())
    return (f"{where(script, job.line, None)}: {job.operation} {job.label}"
            + (f": not checked: {job.note}\n" if job.note else "\n")
            + (f"    image: {job.image}\n" if job.image else "") + fields)


def plan_report(result: "Plan", script: str, assumed_region: Optional[str] = None) -> Report:
    """The plan as a report of one file, the launcher: its own findings, then each job's under the job's lines (text
    output), every finding at the launcher's line that started its job, in ``assumed_region`` when nobody named
    one; how the run ended as notices; the plan's own fields (``script``, ``jobs``, ``findings`` (the launcher's
    own), how the launcher ended and the summary line) in the JSON document."""
    findings = list(result.findings)
    headings = []
    for job in result.jobs:
        headings.append(Heading(len(findings), _job_heading(script, job)))
        findings += job.findings
    suppressed = list(result.suppressed) + [f for job in result.jobs for f in job.suppressed]
    level = "error" if result.failed else "warning"
    line = result.launch.raised_at if result.failed else None
    notices = [Notice(level, message, script, line, title="plan") for message in messages(result)]
    details = {key: value for key, value in result.to_dict().items() if key not in Summary._fields}
    details["summary"] = summary(result)
    file = FileReport(script, findings, suppressed, not_checked=not_checked(findings), headings=headings,
                      assumed_region=assumed_region)
    return Report([file], notices, subject=subject(result), details=details)
