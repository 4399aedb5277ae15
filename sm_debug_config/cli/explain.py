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
from sm_debug_config.cli.report import say, where
from sm_debug_config.documents import KINDS, detect_kind
from sm_debug_config.documents.checks import position
from sm_debug_config.documents.hcl import reads_as_hcl
from sm_debug_config.errors import ConfigError, pointer
from sm_debug_config.sources import kubernetes
from sm_debug_config.sources.documents import explain_document
from sm_debug_config.explaining import explain_model, format_explanation, format_findings
from sm_debug_config.findings import ERROR
from sm_debug_config.model.regions import job_region
from sm_debug_config.validation import check_codes

EPILOG = exit_codes(CONFIG_WRONG)
#: The sources explain does not read (validate does): a request is ``from-request``'s; an ACK manifest is not
#: rebuilt into objects yet.
NOT_EXPLAINED = ("request", "kubernetes")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", help="the config file (YAML or JSON; - for standard input)")
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
        if kind is not None:
            held_to(found, kind)
            text, failed, warned = _explain_document(args, found.document, found.locate, kind)
            code = write_output(text, args, warned)
            return EXIT_FINDINGS if failed else code
    loaded, setup, settings, given = configured(args, found)  # constructors' findings: the report's, at their key
    report = positioned(loaded, lambda: explain_model(setup, settings), given)
    rendered = loaded.render_model(validate=False, **given)  # explain rendered it already: this cannot fail

    def at(key: str) -> Optional[Tuple[int, int]]:
        return locate_pointer(loaded, key, rendered)

    report["findings"] = [dict(f, **_line_and_column(at(f["path"]))) for f in report["findings"]]
    warned = say_findings(report["findings"], loaded.source, at)
    text = dumps(report) if args.format == "json" else format_explanation(report, loaded.source)
    return write_output(text, args, warned)


def _line_and_column(position: Optional[Tuple[int, int]]) -> Dict[str, Optional[int]]:
    line, column = position or (None, None)
    return {"line": line, "column": column}


def _explain_document(args: argparse.Namespace, document: Any, locator: Any, kind: str) -> Tuple[str, bool, bool]:
    """``explain`` of each CreateTrainingJob request of an orchestration document, headed by where it is, whether it
    found an error, and whether it said a warning. Its findings are ``validate``'s (the same places, pointers and
    messages), each also said on stderr as ``validate`` prints it; a request whose values the objects refuse is not
    explained."""

    given = settings_given(args)
    region = job_region(given.get("region")) if given.get("region") else environment_region(f"{PROG} explain")
    given["region"] = region.name
    say_region(region)
    # a request may leave the profiler's S3 path to the service (Terraform's often do): validate's stand-in then
    given.setdefault("output_path", "s3://output-path-set-at-submit/")
    try:  # validate's options, as validate takes them from the same flags
        ignore = list(check_codes(args.ignore, field="--ignore")) or None
    except ConfigError as err:
        raise UsageError(f"{PROG} explain: {err}") from None
    options = {"framework": args.framework, "region": region.checked, "ignore": ignore,
               "framework_version": args.framework_version, "image_uri": args.image_uri}
    explained = explain_document(document, kind, locator, options, **given)
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
        if each.report is not None:
            body = format_explanation(dict(each.report, findings=[f.to_dict() for f in each.findings]), args.config)
        else:
            body = (f"Not explained: a value is refused: {each.refused}\n"
                    + format_findings([f.to_dict() for f in each.findings], args.config))
        blocks.append(head + body)
    return "\n".join(blocks), failed, warned
