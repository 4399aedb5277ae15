"""``sm-debug-config status``: the rule evaluation status of a training job."""
from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, Optional

from sm_debug_config.cli.common import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, PROG, exit_codes
from sm_debug_config.errors import ConfigError
from sm_debug_config.operations.status import (
    PROCESSING_JOB_LOG_GROUP,
    StatusUnavailable,
    format_summary_table,
    job_status,
)

if TYPE_CHECKING:
    from sm_debug_config.operations.status import JobStatus

EPILOG = exit_codes("a rule needs attention (IssuesFound or Error)", "the status cannot be read")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("job_name", metavar="JOB_NAME")
    parser.add_argument("--region")


def status_text(found: "JobStatus") -> str:
    """What ``status`` prints of ``found``: the job, its rules' table, their log links, the rules needing attention.

    >>> from sm_debug_config.operations.status import JobStatus
    >>> print(status_text(JobStatus("my-job", "Completed", region="us-east-1")), end="")
    Training job: my-job
    Status: Completed
    Region: us-east-1
    <BLANKLINE>
    No Debugger or profiler rules are configured for this training job.
    """

    lines = [f"Training job: {found.job_name}"]
    secondary = found.secondary_status
    lines.append(f"Status: {found.status}" + (f" ({secondary})" if secondary and secondary != found.status else ""))
    if found.region:
        lines.append(f"Region: {found.region}")
    text = "\n".join(lines) + "\n\n" + format_summary_table(found.rules)
    if found.rules:
        text += f"\nRule job logs (CloudWatch Logs group {PROCESSING_JOB_LOG_GROUP}):\n"
        text += "".join(f"  {row.kind} {row.rule_name}: {row.log_url or row.note or 'no log link'}\n"
                        for row in found.rules)
    if found.needs_attention:
        names = ", ".join(f"{row.rule_name} ({row.status})" for row in found.needs_attention)
        text += f"\nNeeds attention: {names}\n"
    return text


def show_status(job_name: str, region: Optional[str] = None, client: Any = None) -> int:
    """Print where the job stands (:func:`~sm_debug_config.operations.status.job_status`); the exit code: 0, 1 when
    a rule needs attention, 2 when the status cannot be read (an error line on stderr)."""

    try:
        found = job_status(job_name, region, client)
    except (ConfigError, StatusUnavailable) as err:
        sys.stderr.write(f"{PROG}: error: {str(err).rstrip()}\n")
        return EXIT_USAGE
    sys.stdout.write(status_text(found))
    return EXIT_FINDINGS if found.needs_attention else EXIT_OK


def run(args: argparse.Namespace) -> int:
    return show_status(args.job_name, args.region)
