"""``sm-debug-config explain``: merged collections, where each parameter came from, and what each rule reads."""
from __future__ import annotations

import argparse
from typing import Any, Dict, Optional, Tuple

from sm_debug_config.cli import project
from sm_debug_config.cli.common import (
    CONFIG_WRONG,
    DOCUMENT_KINDS,
    EXIT_FINDINGS,
    PROG,
    STRICT_HELP,
    UsageError,
    add_setting_flags,
    dumps,
    exit_codes,
    settings_given,
    write_output,
)
from sm_debug_config.cli.defaults import environment_region, say_region
from sm_debug_config.cli.files import held_to, read
from sm_debug_config.cli.configured import configured, locate_pointer, positioned, say_findings
from sm_debug_config.cli.report import say
from sm_debug_config.reports.text import where
from sm_debug_config.documents import KINDS, detect_kind
from sm_debug_config.documents.checks import position
from sm_debug_config.documents.hcl import reads_as_hcl
from sm_debug_config.errors import ConfigError, pointer
from sm_debug_config.engine import check
from sm_debug_config.rendering import render_arguments
from sm_debug_config.reverse import from_request
from sm_debug_config.sources import kubernetes, request
from sm_debug_config.sources.explained import explain_document
from sm_debug_config.explaining import explain_model, format_explanation
from sm_debug_config.findings import ERROR, collecting
from sm_debug_config.model.regions import JobRegion, job_region
from sm_debug_config.validation import check_codes

EPILOG = exit_codes(CONFIG_WRONG)
#: The sources explain does not read (validate does): an ACK manifest is not rebuilt into objects yet.
NOT_EXPLAINED = ("kubernetes",)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", help="the config file, a CreateTrainingJob request or an orchestration document "
                        "(YAML or JSON; - for standard input)")
    add_setting_flags(parser)
    parser.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text: a report to read (default); json: the same as data",
    )
    parser.add_argument("--kind", choices=[k for k in DOCUMENT_KINDS if k not in NOT_EXPLAINED], default="auto",
                        help="what the file is (default auto: found from its content); each CreateTrainingJob request "
                             "of an orchestration document is explained")
    parser.add_argument("--strict", action="store_true", help=STRICT_HELP)
    project.add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    project.projects(args, [args.config])  # a bad pyproject.toml is a usage error
    args = project.settings_for(args, args.config, skip=("kind",))
    found = None
    if args.kind != "config":
        found = read(args.config, args.kind, command="explain")
        if kubernetes.detect(found.document):
            raise UsageError(f"{args.config}: explain does not read ACK TrainingJob manifests; "
                             f"`{PROG} validate {args.config}` checks it")
        kind = detect_kind(found.document) if args.kind == "auto" else args.kind
        kind = "terraform" if reads_as_hcl(args.config, args.kind) else kind
        if kind == "request" or (kind is None and request.detect(found.document)):
            text, failed, warned = _explain_request(args, found)
            code = write_output(text, args, warned)
            return EXIT_FINDINGS if failed else code
        if kind is not None:
            held_to(found, kind)
            text, failed, warned = _explain_document(args, found.document, found.locate, kind)
            code = write_output(text, args, warned)
            return EXIT_FINDINGS if failed else code
    loaded, setup, settings, given = configured(args, found)  # constructors' findings: the report's, at their key
    report = positioned(loaded, lambda: explain_model(setup, settings), given)
    rendered = loaded.render_model(validate=False, **given)  # explain rendered it already: this cannot fail

    def located(key: str) -> Optional[Tuple[int, int]]:
        return locate_pointer(loaded, key, rendered)

    report["findings"] = [dict(f, **_line_and_column(located(f["path"]))) for f in report["findings"]]
    warned = say_findings(report["findings"], loaded.source, located)
    # the findings are said once, on stderr as validate prints them: the text report leaves them out
    text = dumps(report) if args.format == "json" else format_explanation(dict(report, findings=[]), loaded.source)
    return write_output(text, args, warned)


def _line_and_column(position: Optional[Tuple[int, int]]) -> Dict[str, Optional[int]]:
    line, column = position or (None, None)
    return {"line": line, "column": column}


def _job_region(args: argparse.Namespace) -> JobRegion:
    """The region of the requests: the one given, else the environment's, else the one assumed (said on stderr)."""
    region = job_region(args.region) if args.region else environment_region(f"{PROG} explain")
    say_region(region)
    return region


def _stand_ins(args: argparse.Namespace, region: JobRegion) -> Dict[str, Any]:
    """The settings a request is explained with: those given, in ``region``, the output path to validate's stand-in
    (a request may leave the profiler's S3 path to the service, as Terraform's often do)."""
    given = settings_given(args)
    given["region"] = region.name
    given.setdefault("output_path", "s3://output-path-set-at-submit/")
    return given


def _validate_options(args: argparse.Namespace, region: JobRegion) -> Dict[str, Any]:
    """validate's options, as validate takes them from the same flags (an assumed region judges nothing)."""
    try:
        ignore = list(check_codes(args.ignore, field="--ignore")) or None
    except ConfigError as err:
        raise UsageError(f"{PROG} explain: {err}") from None
    return {"framework": args.framework, "region": region.checked, "ignore": ignore,
            "framework_version": args.framework_version, "image_uri": args.image_uri}


def _explain_request(args: argparse.Namespace, found: Any) -> Tuple[str, bool, bool]:
    """``explain`` of a CreateTrainingJob request: the report of the objects it renders from (the settings given,
    and its training image, stand in for what it does not hold), whether it found an error, and whether it said a
    warning. Its findings are the engine's, as ``validate`` reports them, said on stderr as ``validate`` prints them
    and listed in the JSON report; a request whose values the objects refuse is not explained."""

    held_to(found, "request")  # as large as a request may be
    if not request.detect(found.document):  # --kind request of something else: nothing to explain
        raise UsageError(f"{args.config}: not a CreateTrainingJob request: it has no Debugger field nor a key only a "
                         f"request has ({', '.join(request.REQUEST_KEYS[:3])}...)")
    region = _job_region(args)
    options = _validate_options(args, region)
    findings = [f for job in request.jobs(found, {}) for f in check(job, options).findings]
    warned = say(findings, args.config, errors=True)  # as validate prints them
    failed = any(f.severity == ERROR for f in findings)
    given = _stand_ins(args, region)
    spec = found.document.get("AlgorithmSpecification")
    image = spec.get("TrainingImage") if isinstance(spec, dict) else None
    if isinstance(image, str):  # the image validate reads: whether the hook runs there
        given.setdefault("image_uri", image)
    try:
        with collecting():  # what its objects report, the request's findings above say
            rebuilt = from_request(found.document, **given)
            setup, settings = render_arguments(rebuilt.render_kwargs())
            report = explain_model(setup, settings)
    except ConfigError as err:
        if not failed:  # refused by the objects, found by no check: the refusal is the error
            raise ConfigError(f"{args.config}: {err}") from None
        if args.format == "json":
            return dumps({"findings": [f.to_dict() for f in findings], "refused": str(err)}), failed, warned
        return f"Not explained: a value is refused: {err}\n", failed, warned
    report["findings"] = [f.to_dict() for f in findings]
    text = dumps(report) if args.format == "json" else format_explanation(dict(report, findings=[]), args.config)
    return text, failed, warned


def _explain_document(args: argparse.Namespace, document: Any, locator: Any, kind: str) -> Tuple[str, bool, bool]:
    """``explain`` of each CreateTrainingJob request of an orchestration document, headed by where it is, whether it
    found an error, and whether it said a warning. Its findings are ``validate``'s (the same places, pointers and
    messages), each also said on stderr as ``validate`` prints it; a request whose values the objects refuse is not
    explained."""

    region = _job_region(args)
    explained = explain_document(document, kind, locator, _validate_options(args, region),
                                 **_stand_ins(args, region))
    if not explained:
        raise UsageError(f"{args.config}: {KINDS[kind].description} with no CreateTrainingJob request")
    findings = [finding for each in explained for finding in each.findings]
    for each in explained:
        if each.refused is not None and not any(f.severity == ERROR for f in each.findings):
            # refused by the objects, found by no check: the refusal is the error, at the request
            line, column = position(each.located, (), locator) or (None, None)
            raise ConfigError(f"{where(args.config, line, column)}: {each.located.label}: {each.refused}")
    ordered = sorted(findings, key=lambda f: (f.line is None, f.line or 0, f.column or 0))
    warned = say(ordered, args.config, errors=True)  # as validate prints them
    failed = any(f.severity == ERROR for f in findings)
    if args.format == "json":
        return dumps([{"request": pointer(*each.located.base), "label": each.located.label,
                       "findings": [f.to_dict() for f in each.findings],
                       "explanation": each.report,
                       **({"refused": str(each.refused)} if each.refused is not None else {})}
                      for each in explained]), failed, warned
    blocks = []
    for each in explained:
        head = f"== {each.located.label} ({pointer(*each.located.base)})\n"
        if each.report is not None:  # its findings were said on stderr (once): the report leaves them out
            body = format_explanation(dict(each.report, findings=[]), args.config)
        else:
            body = f"Not explained: a value is refused: {each.refused}\n"
        blocks.append(head + body)
    return "\n".join(blocks), failed, warned
