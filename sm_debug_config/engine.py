"""The engine: every job of every source checked in one pass, its findings as values placed where they were written.

A source (:mod:`sm_debug_config.sources`) yields :class:`Job` values: a request as written (request JSON, an
orchestration document's request) or the arguments of a render as written (a config file's objects), the
refusals found while building them, and the way back from a request pointer to the source. :func:`check` renders
a job as written (an object refused at construction is kept with its value, so the request check of the same
code sees it; a setting refused is left out and reported), runs every registered check once over the request,
and places each finding through the job's source map. A refusal no request check reported is a finding of its
own code (SMD002 when it has none); nothing stops the pass, so every finding of a job shows in one run.

>>> job = Job(request={"DebugHookConfig": {"S3OutputPath": "s3://b/o", "HookParameters": {"save_interval": "0"}}})
>>> [(f.code, f.pointer) for f in check(job, {"region": "us-east-1"}).findings]
[('SMD132', '/DebugHookConfig/HookParameters/save_interval')]
"""
from __future__ import annotations

import contextlib
from typing import Any, Callable, ContextManager, Dict, Iterable, List, Optional, Sequence, Tuple

import attrs

from sm_debug_config.checked import render_model
from sm_debug_config.errors import ConfigError
from sm_debug_config.fixes import Change, Edit
from sm_debug_config.findings import ERROR, SMD002, Finding, collecting, error_message
from sm_debug_config.model.regions import JobRegion, job_region
from sm_debug_config.rendering import Rendered, render_arguments, with_refusals
from sm_debug_config.validation import validate_split

__all__ = ["Checked", "Job", "check", "in_file_order"]

#: ``place(finding, rendered)``: the finding at the source's pointer, line and column (``rendered`` is the job's
#: render, None for a request as written).
Place = Callable[[Finding, Optional[Rendered]], Finding]
#: ``edit(change, rendered)``: the edits of the source's text that make ``change`` (a change to the request), None
#: where the source cannot place it (:mod:`sm_debug_config.fixes`).
EditOf = Callable[[Change, Optional[Rendered]], Optional[Sequence[Edit]]]
#: ``refusal(error, rendered)``: a value refused while the job was built or rendered, as a placed finding.
Refusal = Callable[[ConfigError, Optional[Rendered]], Finding]


def _as_is(finding: Finding, rendered: Optional[Rendered]) -> Finding:
    return finding


def _no_edits(change: Change, rendered: Optional[Rendered]) -> Optional[Sequence[Edit]]:
    return None


def _refused_here(err: ConfigError, rendered: Optional[Rendered]) -> Finding:
    return Finding(ERROR, err.code or SMD002.code, err.path, error_message(err), fix=err.fix)


def _errors(errors: Iterable[ConfigError]) -> Tuple[ConfigError, ...]:
    return tuple(errors)


@attrs.frozen
class Job:
    """One training job as a source wrote it: ``request`` (the Debugger fields as the API takes them), or
    ``render_kwargs`` (the arguments of ``render``, its objects built as written by the source, in this process:
    their checks ran then and are not run again); ``refused``: what its
    constructors refused while it was built; ``place`` and ``refusal``: its source map; ``label``: where it is in
    a document that holds several (``state T``); ``found``: what the source itself found (never in a request);
    ``context``: what its checks run under (an orchestration
    document's run-time values, :func:`~sm_debug_config.documents.checking`); ``operation``: the API call the
    request is for (an ``UpdateTrainingJob`` request is checked without the job's framework and image)."""

    request: Optional[Dict[str, Any]] = None
    render_kwargs: Optional[Dict[str, Any]] = None
    refused: Tuple[ConfigError, ...] = attrs.field(default=(), converter=_errors)
    #: what the source itself found about what it read (SMD103 of a manifest), placed and suppressed as the rest
    found: Tuple[Finding, ...] = ()
    place: Place = _as_is
    refusal: Refusal = _refused_here
    edit: EditOf = _no_edits
    label: Optional[str] = None
    context: Callable[[], ContextManager[Any]] = contextlib.nullcontext
    operation: str = "CreateTrainingJob"


@attrs.frozen
class Checked:
    """What the engine found in one job: ``findings`` (placed, in file order), ``suppressed`` (by ``ignore``), and
    the ``region`` it was checked in (:func:`~sm_debug_config.model.regions.job_region`: given, from the
    environment, or assumed; only a region someone named is judged against)."""

    findings: List[Finding]
    suppressed: List[Finding]
    region: JobRegion


#: The settings of a check that come from the user (flags, project configuration), by ``validate_split``'s names.
OPTIONS = ("framework", "region", "ignore", "framework_version", "image_uri")


def check(job: Job, options: Dict[str, Any], *, defaults: Optional[Dict[str, Any]] = None) -> Checked:
    """Every finding of ``job``: rendered as written, checked once, placed. ``options``: the user's settings for a
    request's checks (:data:`OPTIONS`; a render's come from its arguments, the source having put the user's over
    its own); ``defaults``: settings a render uses when its arguments give none (a stand-in output path). The
    region is :func:`~sm_debug_config.model.regions.job_region`'s, the one default of every surface; the codes of
    ``ignore`` suppress a refusal as they suppress a request check's finding."""
    refused: List[ConfigError] = list(job.refused)
    rendered: Optional[Rendered] = None
    request = job.request
    if request is None:
        rendered, given, region, more = _render(dict(job.render_kwargs or {}), defaults or {})
        refused += more
        request = rendered.request if rendered is not None else None
    else:
        region = job_region(options.get("region"))
        given = dict({k: options.get(k) for k in OPTIONS}, region=region.checked)
    kept: List[Finding] = []
    suppressed: List[Finding] = []
    if request is not None:
        with job.context():
            kept, suppressed = validate_split(request, operation=job.operation, **given)
        if rendered is not None:  # what the render could not send as written, at its request pointer
            kept = with_refusals(rendered, kept)
    every = [job.place(f, rendered)
             for f in kept + [f.replace(suppressed=False) for f in suppressed] + list(job.found)]
    every = _with_construction_refusals(every, refused, job, rendered)
    every = [_with_edits(f, job, rendered) if f.fix is not None and f.fix.edits is None else f for f in every]
    codes = set(given.get("ignore") or ())
    return Checked(in_file_order([f for f in every if f.code not in codes]),
                   [f.replace(suppressed=True) for f in every if f.code in codes], region)


def _with_edits(finding: Finding, job: Job, rendered: Optional[Rendered]) -> Finding:
    """``finding`` with its fix's edits of the source's text, when the source places every change of it."""
    if finding.fix is None:  # pragma: no cover - called for findings with a fix
        return finding
    edits: List[Edit] = []
    for change in finding.fix.changes:
        made = job.edit(change, rendered)
        if made is None:
            return finding.replace(fix=attrs.evolve(finding.fix, edits=None))
        edits.extend(made)
    return finding.replace(fix=attrs.evolve(finding.fix, edits=edits))


def _render(
    kwargs: Dict[str, Any], defaults: Dict[str, Any]
) -> Tuple[Optional[Rendered], Dict[str, Any], JobRegion, List[ConfigError]]:
    """The render of ``kwargs`` as written, the settings its checks use, its region, and what was refused on the way:
    a setting refused is left out and the rest rendered with the others."""
    refused: List[ConfigError] = []
    for _ in range(len(kwargs) + 1):
        try:
            setup, settings = render_arguments(kwargs)
            break
        except ConfigError as err:
            refused.append(err)
            head = err.path[0] if err.path else None
            if not (isinstance(head, str) and kwargs.get(head) is not None):
                return None, {}, job_region(None), refused
            kwargs[head] = None
    else:  # pragma: no cover - each round leaves one setting out
        return None, {}, job_region(None), refused
    region = job_region(settings.region)
    settings = settings.updated(**dict({k: v for k, v in defaults.items() if getattr(settings, k) is None},
                                       region=region.name, validate=False))
    given = {"framework": settings.framework, "region": region.checked, "ignore": settings.ignore,
             "framework_version": settings.framework_version, "image_uri": settings.image_uri}
    try:
        with collecting(as_written=True):  # an object refused at construction is rendered as written
            return render_model(setup, settings, built_here=True), given, region, refused
    except ConfigError as err:  # a refusal of the render itself (no request to check)
        return None, given, region, refused + [err]


def _with_construction_refusals(
    placed: List[Finding], refused: Sequence[ConfigError], job: Job, rendered: Optional[Rendered]
) -> List[Finding]:
    """``placed`` and each of the job's own refusals (what its source's constructors refused, or its render as a
    whole) as a finding, but those a request check reported already (the same code at the same place). What the
    render could not send as written is :func:`~sm_debug_config.rendering.with_refusals`', merged above."""
    seen = {(f.code, f.line, f.column) for f in placed}
    out = list(placed)
    for err in refused:
        finding = job.refusal(err, rendered)
        key = (finding.code, finding.line, finding.column)
        if key not in seen:
            seen.add(key)
            out.append(finding)
    return out


def in_file_order(findings: List[Finding]) -> List[Finding]:
    """``findings`` by line and column (those with no position last), stable otherwise."""
    return sorted(findings, key=lambda f: (f.line is None, f.line or 0, f.column or 0))
