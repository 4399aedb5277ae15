"""``sm-debug-config validate``: check config files and CreateTrainingJob request JSON, every finding of every file.

Each file is parsed once: its keys say whether it is a request, a config file or neither (skipped),
and the same tree is then validated as a request or built as a config file.
"""
from __future__ import annotations

import argparse
import functools
import os
import sys
from typing import Any, Dict, FrozenSet, List, Optional, Sequence

from sm_debug_config.apischema import SMD001
from sm_debug_config.checked import render_model
from sm_debug_config.cli import project
from sm_debug_config.cli.common import (
    PROG,
    READS,
    UsageError,
    add_setting_flags,
    exit_codes,
    jobs_count,
    settings_given,
    wrong_command,
)
from sm_debug_config.cli.files import held_to, read
from sm_debug_config.cli.report import add_report_arguments, at, file_result, report, skipped, unreadable
from sm_debug_config.cli.workers import MIN_FILES_PER_WORKER, run_per_file
from sm_debug_config.configfile import ConfigFileError
from sm_debug_config.configfile import format as fmt
from sm_debug_config.configfile.text import STDIN_NAMES
from sm_debug_config.documents import KINDS, detect_kind
from sm_debug_config.documents.checks import validate_document
from sm_debug_config.documents.hcl import reads_as_hcl
from sm_debug_config.errors import ConfigError
from sm_debug_config.findings import DEBUG_FIELDS, ERROR, SMD002, Finding, collecting, error_message, sort_key
from sm_debug_config.limits import MAX_DOCUMENT_BYTES, MiB
from sm_debug_config.lint.sources import find_files
from sm_debug_config.merge import merge_findings
from sm_debug_config.rendering import render_arguments
from sm_debug_config.validation import check_codes, validate_split

EPILOG = exit_codes("findings: an error (with --strict, a warning too)")
#: Besides the Debugger fields, the keys that make a document a CreateTrainingJob request, not a config file.
REQUEST_KEYS = ("TrainingJobName", "AlgorithmSpecification", "RoleArn", "OutputDataConfig", "ResourceConfig",
                "TrainingJobArn")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="config files (YAML or JSON), CreateTrainingJob request JSON (recognised by its keys), "
                             "or orchestration documents (state machines, pipeline definitions, templates, "
                             "Terraform .tf and JSON); directories to search for .yaml, .yml, .json and .tf files; "
                             "- for standard input")
    add_report_arguments(parser)
    parser.add_argument(
        "--verbose",
        action="store_true",
        help="say which files were skipped and why (a document with no config-file or CreateTrainingJob key), and "
        "print each finding's page under it",
    )
    add_setting_flags(parser, ("region", "framework", "framework_version", "image_uri", "ignore"))
    project.add_arguments(parser, "per-file-ignores", "exclude", "kind")
    parser.add_argument(
        "-j", "--jobs", type=jobs_count, default=None, metavar="N",
        help=f"check the files in N processes (1: this one only; default: one per CPU, with at least "
             f"{MIN_FILES_PER_WORKER} files each, on Linux); the output is the same",
    )


def run(args: argparse.Namespace) -> int:
    try:
        args.ignore = list(check_codes(args.ignore, field="--ignore")) or None
    except ConfigError as err:
        raise UsageError(f"{PROG} validate: {err}") from None
    files: List[str] = list(args.files)
    found: FrozenSet[str] = frozenset()  # the files a directory search found, not named
    if any(os.path.isdir(path) for path in files):  # searched as lint searches, for validate's files
        walked = list(find_files(files, READS["validate"][0]))
        files, found = [path for path, _ in walked], frozenset(path for path, given in walked if not given)
    used = project.projects(args, files)  # a bad pyproject.toml stops the run before any file is checked
    files = [path for path in files if not _excluded(project.settings_for(args, path), path)]
    results = run_per_file(functools.partial(_validate_path, args=args, found=found), files, args.jobs)
    args.strict = project.strict(args, used)
    return report(results, args)


def _excluded(settings: argparse.Namespace, path: str) -> bool:
    """Whether an ``exclude`` pattern matches ``path`` (``--verbose`` says which, on stderr)."""
    if settings.excluded and settings.verbose:
        sys.stderr.write(f"{PROG}: {path}: excluded by {settings.excluded!r}\n")
    return bool(settings.excluded)


def _validate_path(path: str, args: argparse.Namespace, found: FrozenSet[str] = frozenset()) -> Dict[str, Any]:
    """One file's result, or its own error when it cannot be read or parsed; a file ``found`` in a directory
    that cannot be read or parsed is skipped instead (a directory holds other tools' YAML and JSON too).
    ``not_checked``: its values known only at run time (each an SMD001 info: a Terraform reference, an intrinsic
    function, a pipeline variable)."""
    hint = wrong_command(path, "validate")
    if hint:
        return unreadable(path, hint)
    args = project.settings_for(args, path)
    try:
        result = _validate_one(path, args)
        result["not_checked"] = sum(1 for finding in result["findings"] if finding.code == SMD001.code)
        return result
    except (UsageError, ConfigError) as err:
        if path in found:
            return skipped(path, f"cannot be read: {err}")
        return unreadable(path, str(err), getattr(err, "line", None), getattr(err, "column", None))


def _validate_one(path: str, args: argparse.Namespace) -> Dict[str, Any]:
    """One file's findings (``findings``) and those its ``ignore`` codes suppressed (``suppressed``);
    ``skipped`` (why) for a document that is neither a config file nor a request."""

    kind = getattr(args, "kind", None) or "auto"
    if kind == "auto" and _larger_than_any_document(path):
        return skipped(path, f"larger than {MAX_DOCUMENT_BYTES // MiB} MiB, more than any Debugger document may be "
                             "(--kind says what it is, to check it all the same)")
    found = read(path, kind)
    document = found.document
    orchestration = detect_kind(document) if kind == "auto" else kind if kind not in ("request", "config") else None
    if reads_as_hcl(path, kind):
        orchestration = "terraform"  # whatever its blocks
    if orchestration is not None:
        held_to(found, orchestration)
        return _validate_document(path, document, found.locate, orchestration, args)
    keys = set(document) if isinstance(document, dict) else set()
    if kind == "request" or (kind == "auto" and keys & set(DEBUG_FIELDS + REQUEST_KEYS)):  # a request
        held_to(found, "request")
        findings, suppressed = validate_split(
            document,
            framework=args.framework,
            region=args.region,
            ignore=args.ignore,
            framework_version=args.framework_version,
            image_uri=args.image_uri,
        )
        return file_result(path, [at(f, found.locate(f.path)) for f in findings], suppressed)
    why = _not_debugger(document) if kind == "auto" else None
    if why:
        return skipped(path, why)
    held_to(found, "config")
    return _validate_config(path, found, args)


def _larger_than_any_document(path: str) -> bool:
    """Whether the file at ``path`` is larger than any document validate reads (standard input: not known)."""
    try:
        return path not in STDIN_NAMES and os.stat(path).st_size > MAX_DOCUMENT_BYTES
    except (OSError, ValueError):  # reading it says what is wrong
        return False


def _validate_document(path: str, document: Any, locator: Any, kind: str, args: argparse.Namespace) -> Dict[str, Any]:
    """The findings of every CreateTrainingJob request an orchestration document holds, at their place in it."""

    findings, suppressed, count = validate_document(
        document, kind, locator, framework=args.framework, region=args.region, ignore=args.ignore,
        framework_version=args.framework_version, image_uri=args.image_uri,
    )
    if not count:
        return skipped(path, f"{KINDS[kind].description} with no CreateTrainingJob request")
    return file_result(path, findings, suppressed)


def _not_debugger(document: Any) -> Optional[str]:
    """Why ``document`` is no Debugger config file (nor a request), or None:
    pre-commit hands over every YAML/JSON file."""

    if document is None:
        return "empty document"
    if not isinstance(document, dict):
        return f"a {'list' if isinstance(document, list) else type(document).__name__}, not a mapping of config keys"
    if set(map(str, document)) & set(fmt.formats()["config"].keys):
        return None
    listed = ", ".join(sorted(map(str, document))[:5]) + (", ..." if len(document) > 5 else "")
    return f"none of its keys ({listed or 'none'}) is a config-file or CreateTrainingJob key"


def _validate_config(path: str, found: Any, args: argparse.Namespace) -> Dict[str, Any]:
    """A config file's findings: what its objects' constructors refused and what the request it renders breaks,
    in one run.

    An object a constructor refuses is rendered as written (``load_with_errors``), so its
    problem is found once, by the request check of the same code; a construction error no request
    check sees is reported with its own code (SMD002 when it has none), at its key.
    """

    loaded, build_errors = found.load(as_far_as_possible=True)  # constructors' warnings: validation reports them
    errors: List[ConfigError] = list(build_errors)
    kwargs = loaded.render_kwargs(**settings_given(args))
    for _ in range(len(kwargs)):  # a setting refused is left out (and reported), the others still used
        try:
            setup, settings = render_arguments(kwargs)
            break
        except ConfigError as err:
            errors.append(loaded.error_at(err))
            head = err.path[0] if err.path else None
            if not (isinstance(head, str) and kwargs.get(head) is not None):
                return _with_errors(path, [], errors, loaded, None)
            kwargs[head] = None
    else:  # pragma: no cover - each round leaves one setting out
        return _with_errors(path, [], errors, loaded, None)
    settings = settings.updated(
        region=settings.region or os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1",
        output_path=settings.output_path or "s3://output-path-set-at-submit/",
        validate=False,
    )
    try:
        with collecting(as_written=True):  # an object refused at construction is rendered as written, not refused again
            rendered = render_model(setup, settings)
    except ConfigError as err:  # e.g. two collection configs of one name that disagree
        return _with_errors(path, [], errors + [loaded.error_at(err)], loaded, None)
    findings, suppressed = validate_split(rendered.request, framework=settings.framework, region=settings.region,
                                          ignore=settings.ignore, framework_version=settings.framework_version,
                                          image_uri=settings.image_uri)
    merged = merge_findings(rendered.collections)  # the merge's SMD116: not in the request
    findings = sorted(findings + [f for f in merged if f.code not in settings.ignore], key=sort_key)
    suppressed = suppressed + [f.replace(suppressed=True) for f in merged if f.code in settings.ignore]
    key_paths = [loaded.path_of_request_pointer(f.pointer, rendered) for f in findings]  # one the file has, or ()
    positioned = [at(f, loaded.locate(key) if key else None) for f, key in zip(findings, key_paths)]
    return file_result(path, _with_errors(path, positioned, errors, loaded, rendered)["findings"], suppressed)


def _with_errors(
    path: str, findings: List[Any], errors: Sequence[ConfigError], loaded: Any, rendered: Any
) -> Dict[str, Any]:
    """``findings`` and the construction ``errors`` as findings (those a request check reported already left out),
    in file order."""

    seen = {(f.code, f.line, f.column) for f in findings}
    out = list(findings)
    for err in errors:
        if not isinstance(err, ConfigFileError):
            err = loaded.error_at(err)
        code = err.code or SMD002.code  # a problem no request check has a code for
        if (code, err.line, err.column) in seen:
            continue
        seen.add((code, err.line, err.column))
        where = loaded.request_pointer_of(err.path, rendered) if rendered is not None else ""
        # without a ConfigFileError's position
        text = error_message(ConfigError(err.message, field=err.field, allowed=err.allowed))
        out.append(Finding(ERROR, code, where, text, line=err.line, column=err.column))
    out.sort(key=lambda f: (f.line is None, f.line or 0, f.column or 0))
    return file_result(path, out)
