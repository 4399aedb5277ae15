"""``sm-debug-config explain``: merged collections, where each parameter came from, and what each rule reads."""
from __future__ import annotations

import argparse
import os
from typing import Any

from sm_debug_config.cli.common import (
    CONFIG_WRONG,
    STRICT_HELP,
    UsageError,
    add_setting_flags,
    dumps,
    exit_codes,
    read,
    recorded_warnings,
    settings_given,
    write_output,
)
from sm_debug_config.cli.configured import configured, locate_pointer, positioned, warn_findings
from sm_debug_config.cli.report import where
from sm_debug_config.cli.validate import DOCUMENT_KINDS
from sm_debug_config.errors import ConfigError, pointer

HELP = "show merged collections, where each parameter came from, and what each rule reads"
EPILOG = exit_codes(CONFIG_WRONG)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", help="the config file (YAML or JSON; - for standard input)")
    add_setting_flags(parser)
    parser.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text: a report to read (default); json: the same as data",
    )
    parser.add_argument("--kind", choices=[k for k in DOCUMENT_KINDS if k != "request"], default="auto",
                        help="what the file is (default auto: found from its content); each CreateTrainingJob request "
                             "of an orchestration document is explained")
    parser.add_argument("--strict", action="store_true", help=STRICT_HELP)


def run(args: argparse.Namespace) -> int:
    from sm_debug_config.explaining import explain_model, format_explanation

    with recorded_warnings() as caught:
        found = None
        if args.kind != "config":
            from sm_debug_config.documents import detect_kind

            found = read(args.config, args.kind)
            kind = detect_kind(found.document) if args.kind == "auto" else args.kind
            if kind is not None:
                return write_output(_explain_document(args, found.document, found.locate, kind), args, caught)
        loaded, setup, settings, given = configured(args, found)
        report = positioned(loaded, lambda: explain_model(setup, settings), given)
        rendered = loaded.render_model(validate=False, **given)  # explain rendered it already: this cannot fail
        warn_findings(report["findings"], loaded.source, lambda at: locate_pointer(loaded, at, rendered))
        text = dumps(report) if args.format == "json" else format_explanation(report)
    return write_output(text, args, caught)


def _explain_document(args: argparse.Namespace, document: Any, locator: Any, kind: str) -> str:
    """``explain`` of each CreateTrainingJob request of an orchestration document, headed by where it is;
    a value refused is a ConfigError at its request's place in the document (exit 1)."""
    from sm_debug_config.documents import KINDS
    from sm_debug_config.documents.checks import explain_document, position
    from sm_debug_config.explaining import format_explanation

    given = settings_given(args)
    given.setdefault("region", os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1")
    try:
        explained = explain_document(document, kind, **given)
    except ConfigError as err:
        located = getattr(err, "located", None)
        line, column = (position(located, (), locator) if located else None) or (None, None)
        label = f"{located.label}: " if located else ""
        raise ConfigError(f"{where(args.config, line, column)}: {label}{err}") from None
    if not explained:
        raise UsageError(f"{args.config}: {KINDS[kind].description} with no CreateTrainingJob request")
    if args.format == "json":
        return dumps([{"request": pointer(*at.base), "label": at.label, "explanation": report}
                      for at, report in explained])
    return "\n".join(f"== {at.label} ({pointer(*at.base)})\n{format_explanation(report)}" for at, report in explained)
