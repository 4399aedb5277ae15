"""What a command assumes when nothing says it, and how it says so: the region of the jobs
(:func:`~sm_debug_config.model.regions.job_region`, the one default of every surface).

A command marks each file's report with the region it assumed for it (:func:`assumed`); the report
then says it once, as a note on stderr (:func:`say_assumed`) and as ``assumed`` in the JSON summary
(:attr:`~sm_debug_config.reports.Report.assumed`). A note is not a finding: it changes no count and no exit code.
"""
from __future__ import annotations

import sys
import attrs

from sm_debug_config.cli.common import PROG, UsageError
from sm_debug_config.errors import ConfigError
from sm_debug_config.model.regions import ASSUMED, RENDERED, JobRegion, job_region
from sm_debug_config.reports import FileReport, Report


def environment_region(command: str) -> JobRegion:
    """The region of the environment (or the one assumed), checked when a command starts: a bad ``AWS_REGION`` is
    a usage error naming the variable, not an error of each file."""
    try:
        return job_region(None)
    except ConfigError as err:
        raise UsageError(f"{command}: {' '.join(str(err).split())}") from None


def assumed(result: FileReport, region: JobRegion) -> FileReport:
    """``result`` (one file's) marked with ``region`` when it was assumed."""
    return attrs.evolve(result, assumed_region=region.name) if region.assumed else result


def say_region(region: JobRegion, consequence: str = RENDERED) -> None:
    """The note of ``region`` on stderr when it was assumed (stdout stays the command's output)."""
    note = region.note(consequence)
    if note:
        sys.stderr.write(f"{PROG}: note: {note}\n")


def say_assumed(result: Report) -> None:
    """The note of what the files of ``result`` assumed, once."""
    region = result.assumed.get("region")
    if region:
        say_region(JobRegion(region, ASSUMED))
