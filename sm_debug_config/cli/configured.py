"""The config file of render and explain: read once, built, its settings merged with the flags;
findings said at their place in it."""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, Callable, Dict, Optional, Sequence, Tuple

from sm_debug_config.cli.common import PROG, UsageError, settings_given
from sm_debug_config.cli.defaults import environment_region, say_region
from sm_debug_config.cli.files import held_to, read
from sm_debug_config.cli.report import at, say
from sm_debug_config.reports.text import finding_text
from sm_debug_config.configfile.parse import EMPTY_CONFIG
from sm_debug_config.engine import check
from sm_debug_config.errors import ConfigError
from sm_debug_config.findings import ERROR, Finding
from sm_debug_config.rendering import render_arguments
from sm_debug_config.sources import configfile

if TYPE_CHECKING:
    from sm_debug_config.model.settings import DebuggerSetup, JobSettings


def configured(
    args: argparse.Namespace, found: Any = None
) -> Tuple[Any, "DebuggerSetup", "JobSettings", Dict[str, Any]]:
    """The config file, its objects and settings, and the settings given (flags; the region: the file's or the flag's,
    else the environment's, else assumed and said, :func:`~sm_debug_config.model.regions.job_region`).
    ``found``: the file as :func:`~sm_debug_config.cli.common.read` read it already (it is then not read again).

    An unreadable or unparsable file is a usage error (exit 2), bad content (unknown key, bad value) a ConfigError (1).
    """

    found = found if found is not None else read(args.config, command=getattr(args, "command", None))
    held_to(found, "config")  # read as any document first (explain), it is a config file
    if found.document is None:  # validate skips an empty document; here it is the config asked for
        raise UsageError(f"{args.config}:1:1: {EMPTY_CONFIG}", 1, 1)
    given = settings_given(args)
    try:
        loaded, _ = found.load()  # the first error raised, carrying every one (``errors``), as load raises it
        # (what its constructors warned, the request's validation says at its key: render_checked)
        try:
            setup, settings = render_arguments(loaded.render_kwargs(**given))
        except ConfigError as err:
            raise loaded.error_at(err) from None
    except ConfigError as err:
        raise every_finding(args.config, found, given, err) from None
    if settings.region is None:  # the one default (model.regions.job_region), said when assumed
        region = environment_region(f"{PROG} {getattr(args, 'command', 'render')}")
        given["region"] = region.name
        settings = settings.updated(region=region.name)
        say_region(region)
    return loaded, setup, settings, given


def every_finding(source: str, found: Any, given: Dict[str, Any], first: ConfigError) -> ConfigError:
    """A config file its command cannot build: every finding of it said on stderr as ``validate`` says them (the
    engine's pass, an error never hiding the rest), and the error to exit with; ``first`` when the pass finds none."""
    stand_in = {"output_path": "s3://output-path-set-at-submit/"}  # as validate: a missing one is said when rendering
    findings = [f for job in configfile.jobs(found, given) for f in check(job, {}, defaults=stand_in).findings]
    errors = [f for f in findings if f.severity == ERROR and not f.suppressed]
    if not errors:
        return first
    if len(findings) == 1:  # one problem, one line: validate's, with its code
        return ConfigError(" ".join(finding_text(source, errors[0]).split("\n")[0].split()))
    say(findings, source, errors=True)
    return ConfigError(f"{len(errors)} error{'s' if len(errors) != 1 else ''}, said above as validate says them",
                       field=source)


def positioned(loaded: Any, call: Any, given: Dict[str, Any]) -> Any:
    """``call()``, a ``ConfigError`` positioned at the config key it concerns (``given``: the settings used)."""
    try:
        return call()
    except ConfigError as err:
        raise loaded.error_at(err, **given) from None


def locate_pointer(loaded: Any, at: str, rendered: Any) -> Optional[Tuple[int, int]]:
    """``(line, column)`` of the config key behind the request pointer ``at``, if the file has one."""
    key = loaded.path_of_request_pointer(at, rendered)
    return loaded.locate(key) if key else None


def say_findings(findings: Sequence[Any], source: str, locate: Callable[[str], Optional[Tuple[int, int]]]) -> bool:
    """Each finding (a ``Finding`` or its dict) that is no error, said on stderr at ``locate(its pointer)`` of
    ``source`` (:func:`~sm_debug_config.cli.report.say`); whether one is a warning."""
    rows = [
        f if isinstance(f, Finding)
        else Finding(f["severity"], f["code"], f["path"], f["message"], f.get("line"), f.get("column"))
        for f in findings
    ]
    # (a finding's dict carries its path as a JSON pointer, which Finding reads back into a path)
    return say([f if f.line is not None else at(f, locate(f.pointer) if f.pointer else None) for f in rows], source)
