"""What a command assumes when nothing says it, and how it says so: the region of the jobs
(:func:`~sm_debug_config.model.regions.job_region`, the one default of every surface).

A command marks each file's result with the region it assumed for it (:func:`assumed`); the report
then says it once, as a note on stderr in text output and as ``assumed`` in the JSON summary
(:func:`assumed_of`). A note is not a finding: it changes no count and no exit code.
"""
from __future__ import annotations

import sys
from typing import Any, Dict, Sequence

from sm_debug_config.cli.common import PROG, UsageError
from sm_debug_config.errors import ConfigError
from sm_debug_config.model.regions import ASSUMED, RENDERED, JobRegion, job_region

#: The key of a file's result that holds the region assumed for it.
ASSUMED_REGION = "assumed_region"


def environment_region(command: str) -> JobRegion:
    """The region of the environment (or the one assumed), checked when a command starts: a bad ``AWS_REGION`` is
    a usage error naming the variable, not an error of each file."""
    try:
        return job_region(None)
    except ConfigError as err:
        raise UsageError(f"{command}: {' '.join(str(err).split())}") from None


def assumed(result: Dict[str, Any], region: JobRegion) -> Dict[str, Any]:
    """``result`` (one file's) marked with ``region`` when it was assumed."""
    if region.assumed:
        result[ASSUMED_REGION] = region.name
    return result


def assumed_of(results: Sequence[Dict[str, Any]]) -> Dict[str, str]:
    """What the files of ``results`` were checked with that nobody named: ``{"region": name}`` or nothing (the JSON
    summary's ``assumed``)."""
    region = next((r[ASSUMED_REGION] for r in results if r.get(ASSUMED_REGION)), None)
    return {"region": region} if region else {}


def say_region(region: JobRegion, consequence: str = RENDERED) -> None:
    """The note of ``region`` on stderr when it was assumed (stdout stays the command's output)."""
    note = region.note(consequence)
    if note:
        sys.stderr.write(f"{PROG}: note: {note}\n")


def say_assumed(results: Sequence[Dict[str, Any]]) -> None:
    """The note of what the files of ``results`` assumed, once."""
    region = assumed_of(results).get("region")
    if region:
        say_region(JobRegion(region, ASSUMED))
