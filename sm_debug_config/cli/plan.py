"""``sm-debug-config plan``: run a launcher against a local AWS (moto) and check every training job it starts."""
from __future__ import annotations

import argparse
import json
import sys

from sm_debug_config.cli.common import (
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_USAGE,
    PROG,
    UsageError,
    add_setting_flags,
    dumps,
    exit_codes,
)
from sm_debug_config.cli.report import FORMATS, annotation, finding_out, where
from sm_debug_config.errors import ERROR, WARNING, ConfigError

DESCRIPTION = ("Run SCRIPT as __main__ (ARGS as sys.argv[1:]) against moto's in-process AWS with throw-away "
               "credentials: nothing reaches AWS. Each CreateTrainingJob, UpdateTrainingJob, "
               "CreateHyperParameterTuningJob and CreatePipeline/UpdatePipeline (its Training steps) is checked, "
               "the findings placed at the script's line that started the job; what sm_debug_config's own "
               "constructors warn or raise in the script are findings too, at its line. "
               "The script's other side effects (local files, non-AWS network calls) happen as they would; "
               "its output, and the warnings of the SDK and its own, go to stderr. Options go before SCRIPT.")
EPILOG = exit_codes("findings: an error (with --strict, a warning, or no job started)",
                    "a launcher that raised (other than an sm_debug_config ConfigError, a finding), exited non-zero "
                    "or ran past --timeout")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("script", metavar="SCRIPT", help="the launcher (a Python file)")
    parser.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS", help="arguments for the launcher (after --)")
    parser.add_argument(
        "--region",
        help="the region the launcher runs in (default: AWS_REGION, else AWS_DEFAULT_REGION, else us-east-1)",
    )
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
                             "json: one document; github: GitHub Actions annotations")
    add_setting_flags(parser, ("framework", "ignore"))
    parser.add_argument(
        "--strict", action="store_true", help="exit 1 on warnings too, and when the launcher starts no job"
    )


def run(args: argparse.Namespace) -> int:
    """Run the launcher under a local AWS (:mod:`~sm_debug_config.operations.plan`); print its jobs as validate does."""
    from sm_debug_config.operations.plan import PlanError, plan
    from sm_debug_config.validation import check_codes

    launcher_args = args.args[1:] if args.args[:1] == ["--"] else args.args  # argparse keeps the "--" on some Pythons
    try:
        ignore = check_codes(args.ignore, field="--ignore")
        result = plan(args.script, launcher_args, region=args.region, max_jobs=args.max_jobs,
                      timeout=args.timeout or None, framework=args.framework, ignore=ignore)
    except (PlanError, ConfigError) as err:  # no moto, no script; a bad --region, --ignore, --max-jobs or --timeout
        raise UsageError(f"{PROG} plan: {err}") from None
    github = args.format == "github"
    if args.format == "json":
        sys.stdout.write(dumps(result.to_dict()))
    for finding in () if args.format == "json" else result.findings:  # the launcher's own, before its jobs
        sys.stdout.write(finding_out(args.script, finding, github))
    for job in () if args.format == "json" else result.jobs:
        if not github:
            fields = "".join(
                f"    {name}: {json.dumps(value, ensure_ascii=False)}\n" for name, value in job.fields.items()
            )
            sys.stdout.write(f"{where(args.script, job.line, None)}: {job.operation} {job.label}"
                             + (f": not checked: {job.note}\n" if job.note else "\n")
                             + (f"    image: {job.image}\n" if job.image else "") + fields)
        for finding in job.findings:
            sys.stdout.write(finding_out(args.script, finding, github))
    for message in result.messages():
        sys.stderr.write(message + "\n")
        if github:
            level = "error" if result.failed else "warning"
            line = result.launch.raised_at if result.failed else None
            sys.stdout.write(annotation(level, args.script, line, None, "plan", message))
    if args.format == "text":
        sys.stdout.write(result.summary() + "\n")
    if result.failed:
        return EXIT_USAGE
    no_job = not result.launch.calls
    return EXIT_FINDINGS if result.count(ERROR) or (args.strict and (result.count(WARNING) or no_job)) else EXIT_OK
