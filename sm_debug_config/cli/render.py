"""``sm-debug-config render``: the CreateTrainingJob Debugger fields of a config file (or UpdateTrainingJob's)."""
from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, Callable, Dict, Tuple, Union

from sm_debug_config.cli import project
from sm_debug_config.cli.common import (
    CONFIG_WRONG,
    PROG,
    STRICT_HELP,
    UsageError,
    add_setting_flags,
    dumps,
    exit_codes,
    write_output,
)
from sm_debug_config.cli.files import read, read_json
from sm_debug_config.cli.configured import configured, positioned, say_findings
from sm_debug_config.cli.report import say
from sm_debug_config.configfile.text import read_bytes
from sm_debug_config.configfile.parse import pyyaml
from sm_debug_config.documents import cloudformation, merge_at, stepfunctions, terraform
from sm_debug_config.documents.hcl import reads_as_hcl
from sm_debug_config.errors import ConfigError
from sm_debug_config.findings import collecting
from sm_debug_config.model.regions import partition
from sm_debug_config.rendering import merge_into_request, split_rules
from sm_debug_config.update import render_update

if TYPE_CHECKING:
    from sm_debug_config.model.settings import DebuggerSetup, JobSettings

EPILOG = exit_codes(CONFIG_WRONG)


def _cloudformation(fields: Dict[str, Any], region: str) -> Union[str, Any]:
    return cloudformation.to_cloudformation(fields)


def _terraform(fields: Dict[str, Any], region: str) -> Union[str, Any]:
    return terraform.to_terraform(fields)


def _terraform_json(fields: Dict[str, Any], region: str) -> Union[str, Any]:
    return terraform.to_terraform_json(fields)


def _cloudformation_pipeline(fields: Dict[str, Any], region: str) -> Union[str, Any]:
    return cloudformation.to_cloudformation_pipeline(fields)


def _step_functions(fields: Dict[str, Any], region: str) -> Union[str, Any]:
    return stepfunctions.to_step_functions_task(fields, partition=(partition(region) or {}).get("id", "aws"))


def _json(fields: Dict[str, Any], region: str) -> Any:
    return fields


#: ``render --format``: the function that turns the request fields (and the job's region) into each format's
#: output (HCL text, or a JSON value printed as JSON); the format's module is imported only when asked for.
RENDER_FORMATS: Dict[str, Callable[[Dict[str, Any], str], Any]] = {
    "json": _json,
    "cloudformation": _cloudformation,
    "terraform": _terraform,
    "terraform-json": _terraform_json,
    "cloudformation-pipeline": _cloudformation_pipeline,
    "stepfunctions": _step_functions,
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", help="the config file (YAML or JSON; - for standard input)")
    add_setting_flags(parser)
    parser.add_argument("--into", metavar="REQUEST.json",
                        help="merge the fields into this CreateTrainingJob request "
                             "(with --at, into any document: print it merged)")
    parser.add_argument("--at", metavar="POINTER",
                        help="with --into, the JSON Pointer of the request inside an orchestration document "
                             "(/States/Train/Parameters, /resource/aws_sagemaker_training_job/train...)")
    parser.add_argument(
        "--replace", action="store_true", help="with --into, overwrite Debugger fields already in the request"
    )
    parser.add_argument("--format", choices=RENDER_FORMATS, default="json",
                        help="json: the CreateTrainingJob fields; cloudformation: AWS::SageMaker::TrainingJob "
                             "properties; terraform: "
                             "aws_sagemaker_training_job blocks (HCL); terraform-json: the same as Terraform JSON; "
                             "cloudformation-pipeline: a template with an AWS::SageMaker::Pipeline running one "
                             "training job; stepfunctions: a Task state")
    parser.add_argument(
        "--update", action="store_true", help="print UpdateTrainingJob profiler fields for a running job instead"
    )
    parser.add_argument("--current", metavar="DESCRIBE.json",
                        help="with --update, the job's DescribeTrainingJob response to check the change against")
    parser.add_argument("--strict", action="store_true", help=STRICT_HELP)
    project.add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    project.projects(args, [args.config])  # a bad pyproject.toml is a usage error
    args = project.settings_for(args, args.config)
    text, warned = _render(args)
    return write_output(text, args, warned)


def _render(args: argparse.Namespace) -> Tuple[str, bool]:
    """The output, and whether a warning was said on stderr."""

    loaded, setup, settings, given = configured(args)
    if args.update:
        return _render_update(args, loaded, setup, settings, given)
    rendered, findings = loaded.render_checked(**given)  # an error raised, positioned in the file
    warned = say(findings, loaded.source)
    fields = rendered.request
    if args.into and args.format != "json":
        raise UsageError(f"--into merges into a request JSON; it does not go with --format {args.format}")
    if args.at is not None and not args.into:
        raise UsageError("--at says where in the --into document to merge; pass --into DOC too")
    if args.into and args.at is not None:
        return _merged_document(args.into, args.at, fields, args.replace), warned
    if args.into:
        request = read_json(args.into)
        try:
            fields = merge_into_request(request, fields, replace=args.replace)
        except ConfigError as err:
            hint = " (pass --replace to overwrite them)" if "overwrite" in err.message else ""
            raise UsageError(f"{args.into}: {err.message}{hint}") from None
    if args.format == "cloudformation":
        sys.stderr.write(f"{PROG}: note: {cloudformation.LINT_NOTE}\n")  # a note, not a finding
    out = RENDER_FORMATS[args.format](fields, settings.region or "us-east-1")  # HCL text, or a JSON value
    return (out if isinstance(out, str) else dumps(out)), warned


def _merged_document(path: str, at: str, fields: Dict[str, Any], replace: bool) -> str:
    """The document ``path`` with ``fields`` merged into the request at JSON pointer ``at`` (Terraform blocks into
    a Terraform resource), in the document's format: JSON stays JSON, YAML is written as YAML."""

    if reads_as_hcl(path):  # what is written would be JSON or YAML, not the file's HCL
        raise UsageError(f"{path}: --into --at writes JSON or YAML documents; for a .tf file, put the blocks "
                         "of --format terraform into the resource (or merge into its .tf.json)")
    document = read(path, "auto").document
    try:
        merged = merge_at(document, at, fields, replace=replace)
    except ConfigError as err:
        hint = " (pass --replace to overwrite them)" if "overwrite" in err.message else ""
        raise UsageError(f"{path}: {err.message}{hint}") from None

    if path != "-" and read_bytes(path, "auto").lstrip()[:1] not in (b"{", b"["):
        return pyyaml().safe_dump(merged, sort_keys=False, allow_unicode=True, default_flow_style=False)
    return dumps(merged)


def _render_update(
    args: argparse.Namespace, loaded: Any, setup: "DebuggerSetup", settings: "JobSettings", given: Dict[str, Any]
) -> Tuple[str, bool]:
    debugger_rules, profiler_rules = split_rules(setup.rules)
    if debugger_rules:
        names = ", ".join(r.name for r in debugger_rules)
        raise UsageError(f"{args.config}: --update changes profiling only; remove the debugger rules ({names})")
    current = read_json(args.current) if args.current else None
    with collecting() as found:  # render_update validates: its findings said here, placed where the file has them
        fields = positioned(loaded, lambda: render_update(
            setup.profiler_config,
            profiler_rules if setup.rules is not None else None,
            bool(setup.disable_profiler),
            current=current,
            settings=settings,
        ), given)
    return dumps(fields), say_findings(found.findings, loaded.source, lambda at: None)
