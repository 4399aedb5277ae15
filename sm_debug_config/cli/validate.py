"""``sm-debug-config validate``: check config files and CreateTrainingJob request JSON, every finding of every file.

Each file is parsed once: its content says which source it is (:mod:`sm_debug_config.sources`: a request, a config
file, an orchestration document) or that it is none (skipped), and the engine checks every job the source yields.
"""
from __future__ import annotations

import argparse
import functools
import os
from typing import FrozenSet, List

import attrs

from sm_debug_config.cli import fixing, project
from sm_debug_config.cli.common import (
    PROG,
    READS,
    UsageError,
    add_selection_flags,
    add_setting_flags,
    exit_codes,
    jobs_count,
    settings_given,
    wrong_command,
)
from sm_debug_config.cli.defaults import assumed, environment_region
from sm_debug_config.cli.files import encoded, held_to, parse, read_text
from sm_debug_config.cli.report import add_report_arguments
from sm_debug_config.cli.workers import MIN_FILES_PER_WORKER, run_per_file
from sm_debug_config.configfile.text import STDIN_NAMES
from sm_debug_config.documents.hcl import reads_as_hcl
from sm_debug_config.engine import OPTIONS, check, in_file_order
from sm_debug_config.errors import ConfigError
from sm_debug_config.findings import DEBUG_FIELDS, Finding
from sm_debug_config.limits import MAX_DOCUMENT_BYTES, MiB
from sm_debug_config.lint.sources import find_files
from sm_debug_config.reports import FileReport, Report, Unreadable, not_checked
from sm_debug_config.sources import SOURCES, detect, not_debugger

EPILOG = exit_codes("findings: an error (with --strict, a warning too)")


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
        "print each finding's page and fix (what it changes, which flags apply it) under it",
    )
    add_setting_flags(parser, ("region", "framework", "framework_version", "image_uri"))
    add_selection_flags(parser)
    project.add_arguments(parser, "per-file-ignores", "exclude", "kind")
    fixing.add_arguments(parser)
    parser.add_argument(
        "-j", "--jobs", type=jobs_count, default=None, metavar="N",
        help=f"check the files in N processes (1: this one only; default: one per CPU, with at least "
             f"{MIN_FILES_PER_WORKER} files each, on Linux); the output is the same",
    )


def run(args: argparse.Namespace) -> int:
    if not args.region:
        environment_region(PROG + " validate")  # a bad AWS_REGION it would fall back to stops the run, not each file
    files: List[str] = list(args.files)
    found: FrozenSet[str] = frozenset()  # the files a directory search found, not named
    if any(os.path.isdir(path) for path in files):  # searched as lint searches, for validate's files
        walked = list(find_files(files, READS["validate"][0]))
        files, found = [path for path, _ in walked], frozenset(path for path, given in walked if not given)
    used = project.projects(args, files)  # a bad pyproject.toml stops the run before any file is checked
    files = [path for path in files if not project.left_out(args, path, named=path not in found)]
    results = run_per_file(functools.partial(_validate_path, args=args, found=found), files, args.jobs)
    args.strict = project.strict(args, used)
    return fixing.finish(Report(results), args, used)


def _validate_path(path: str, args: argparse.Namespace, found: FrozenSet[str] = frozenset()) -> FileReport:
    """One file's result, or its own error when it cannot be read or parsed; a file ``found`` in a directory
    that cannot be read or parsed is skipped instead (a directory holds other tools' YAML and JSON too).
    ``not_checked``: its values known only at run time (each an SMD001 info: a Terraform reference, an intrinsic
    function, a pipeline variable). With ``--fix`` (:mod:`~sm_debug_config.cli.fixing`) the file is fixed and
    what remains reported."""
    hint = wrong_command(path, "validate")
    if hint:
        return FileReport(path, error=Unreadable(hint))
    args = project.settings_for(args, path)
    try:
        kind = getattr(args, "kind", None) or "auto"
        if kind == "auto" and _larger_than_any_document(path):
            return FileReport(path, skipped=f"larger than {MAX_DOCUMENT_BYTES // MiB} MiB, more than any Debugger "
                                            "document may be (--kind says what it is, to check it all the same)")
        data, text = read_text(path, kind)
        first = _validate_text(path, text, len(data), args)
    except (UsageError, ConfigError) as err:
        if path in found and not _names_debugger(path):
            return FileReport(path, skipped=f"cannot be read: {err}")
        return _unreadable(path, err)
    check = functools.partial(_checked, path, size=len(data), args=args)
    return fixing.fix_file(path, fixing.Read(data, text, encoded(data)), first, check, fixing.fixing_of(args))


def _checked(path: str, text: str, size: int, args: argparse.Namespace) -> FileReport:
    """:func:`_validate_text`, a file that cannot be read or parsed as its own error (the fix loop's check)."""
    try:
        return _validate_text(path, text, size, args)
    except (UsageError, ConfigError) as err:
        return _unreadable(path, err)


def validate_text(path: str, text: str, args: argparse.Namespace) -> FileReport:
    """validate's report of ``text``, the unsaved content of the file ``path`` (an editor's document: the language
    server), under ``args`` (validate's parsed flags) and the project configuration of ``path``; nothing is fixed."""
    return _checked(path, text, len(text.encode("utf-8", "surrogatepass")), project.settings_for(args, path))


def _unreadable(path: str, err: Exception) -> FileReport:
    return FileReport(path, error=Unreadable(str(err), getattr(err, "line", None), getattr(err, "column", None)))


#: What a file that configures Debugger names (a request's fields, in the API's case or a manifest's, and the config
#: file's keys): a file found in a directory that names one of them and cannot be read is an error, not skipped, so
#: that "0 errors" never stands for a Debugger file nobody read.
DEBUGGER_NAMES = tuple(DEBUG_FIELDS) + tuple(f[:1].lower() + f[1:] for f in DEBUG_FIELDS) + (
    "debugger_hook_config", "profiler_config", "tensorboard_output_config")


def _names_debugger(path: str) -> bool:
    """Whether the text of ``path`` names a Debugger field (see :data:`DEBUGGER_NAMES`); False when unreadable."""
    try:
        with open(path, "rb") as handle:
            text = handle.read(MAX_DOCUMENT_BYTES + 1).decode("utf-8", "replace")
    except OSError:
        return False
    return any(name in text for name in DEBUGGER_NAMES)


def _validate_text(path: str, text: str, size: int, args: argparse.Namespace) -> FileReport:
    """The report of the file ``path`` whose text is ``text`` (``size`` bytes, read once; ``--fix`` gives the fixed
    text, checked before it is written): its findings (``findings``), those its ``ignore`` codes suppressed
    (``suppressed``) and its values ``not_checked``; ``skipped`` (why) for a document that no source reads
    (:func:`~sm_debug_config.sources.detect`)."""
    kind = getattr(args, "kind", None) or "auto"
    found = parse(path, text, kind, size)
    source = SOURCES["terraform"] if reads_as_hcl(path, kind) else (
        detect(found.document) if kind == "auto" else SOURCES[kind])
    if source is None:
        return FileReport(path, skipped=not_debugger(found.document))
    held_to(found, source.name)
    options = {name: getattr(args, name) for name in OPTIONS}
    findings: List[Finding] = []
    suppressed: List[Finding] = []
    region = None
    for job in source.jobs(found, settings_given(args)):
        checked = check(job, options, defaults={"output_path": "s3://output-path-set-at-submit/"})
        findings += checked.findings
        suppressed += checked.suppressed
        region = region or checked.region
    if region is None:
        return FileReport(path, skipped=f"{source.description} with no CreateTrainingJob request")
    result = assumed(FileReport(path, in_file_order(findings), suppressed), region)
    return attrs.evolve(result, not_checked=not_checked(result.findings))


def _larger_than_any_document(path: str) -> bool:
    """Whether the file at ``path`` is larger than any document validate reads (standard input: not known)."""
    try:
        return path not in STDIN_NAMES and os.stat(path).st_size > MAX_DOCUMENT_BYTES
    except (OSError, ValueError):  # reading it says what is wrong
        return False
