"""What the commands share: the usage error, the one-line argument parser, the setting flags and file reading.

Nothing here imports the model: building a command's parser must not cost the model's import
(the choices of the flags are literals, tested against the model's own tuples).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Dict, List, NoReturn, Optional, Sequence


PROG = "sm-debug-config"
EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
#: ``catalogue.FRAMEWORKS``, ``catalogue.KINDS`` and ``settings.DEFAULTS_MODES`` (a test keeps them equal):
#: written out so that building a parser imports no model module.
FRAMEWORKS = ("tensorflow", "pytorch", "mxnet", "xgboost")
KINDS = ("debugger", "profiler")
DEFAULTS_MODES = ("sdk", "explicit")
#: ``validate --kind``/``explain --kind``: what a file is read as (``auto``: found from its content).
#: ``--kind``: ``auto`` and each source's name (:data:`sm_debug_config.sources.SOURCES`; written out so that
#: building a parser imports no source, a test keeps them equal).
DOCUMENT_KINDS = ("auto", "config", "request", "stepfunctions", "pipeline", "cloudformation", "terraform",
                  "kubernetes")


#: The files each command reads, by the end of their name, and what to call them: ``validate DIR`` and ``lint DIR``
#: search a directory for them, and a file named to the other command is refused with a hint (:func:`wrong_command`).
#: Written out so that building a parser imports no lint module (a test keeps lint's ``sources.SUFFIXES`` equal).
READS = {
    "validate": ((".yaml", ".yml", ".json", ".tf"), "YAML, JSON and Terraform files"),
    "lint": ((".py", ".ipynb"), "Python sources and notebooks"),
}


def wrong_command(path: str, command: str, reads: str = "") -> Optional[str]:
    """Why ``command`` (which reads as ``reads`` does, default itself) refuses ``path``, naming the command that
    reads it, when the end of its name says it is another command's file; else None.

    >>> print(wrong_command("train.ipynb", "validate"))
    train.ipynb: validate reads YAML, JSON and Terraform files; for Python sources ... use `sm-debug-config lint`
    >>> wrong_command("job.yaml", "validate") is None
    True
    """
    own = reads or command
    for other, (suffixes, what) in READS.items():
        if other != own and path.lower().endswith(suffixes):
            return f"{path}: {command} reads {READS[own][1]}; for {what} use `{PROG} {other}`"
    return None


class SettingFlag:
    """How a :class:`~sm_debug_config.JobSettings` field is a flag: ``kind`` is ``value``, ``switch``
    (a True/False setting), ``append`` (a list setting, the flag repeats) or ``choice`` (one of ``choices``)."""

    __slots__ = ("kind", "help", "choices")

    def __init__(self, kind: str, help: str, choices: Optional[Sequence[str]] = None) -> None:  # noqa: A002
        self.kind, self.help, self.choices = kind, help, choices


#: The flag of each :class:`~sm_debug_config.JobSettings` field but ``validate`` (render validates always;
#: the validate command reports instead): ``--output-path`` for ``output_path``, in the fields' order.
#: A test checks it against ``attrs.fields(JobSettings)`` (the names, switches for False defaults, lists).
SETTING_FLAGS: Dict[str, SettingFlag] = {
    "region": SettingFlag(
        "value", "AWS region of the jobs (default: what the file or the project says, else AWS_REGION, else "
                 "AWS_DEFAULT_REGION, else us-east-1, said as assumed)"),
    "output_path": SettingFlag("value", "S3 output path the hook and profiler paths default to"),
    "job_name": SettingFlag("value", "training job name (StopTraining prefix, detailed-profiler rule name)"),
    "instance_type": SettingFlag("value", "training instance type (ml.trn* has no profiler)"),
    "rule_image_uri": SettingFlag("value", "image URI for built-in rules instead of the region's"),
    "defaults": SettingFlag(
        "choice", "sdk: as the SDK v2 Estimator (default); explicit: only what is configured", DEFAULTS_MODES),
    "framework": SettingFlag("choice", "enable framework-specific checks", FRAMEWORKS),
    "disable_debugger": SettingFlag("switch", "turn off hook and profiler for the job"),
    "ignore": SettingFlag("append", "suppress the findings of these check codes (CODE,CODE or a prefix such as "
                          "SMD13; repeatable; see the checks command)"),
    "framework_version": SettingFlag(
        "value", "framework version of the training image (with --framework): says whether the hook runs there"),
    "image_uri": SettingFlag(
        "value", "the training image URI: says whether the hook and framework profiling run there"),
}

#: ``--strict`` of the commands that print output (render, explain, from-request).
STRICT_HELP = "exit 1 when a warning was reported on stderr (the output is still printed)"
CONFIG_WRONG = ("the configuration is wrong (an unknown key, a bad value, a validation error; "
                "with --strict, a warning too)")


class UsageError(Exception):
    """A problem with the command line or an input file (exit 2); ``line`` and ``column``: where in the file."""

    def __init__(self, message: str, line: Optional[int] = None, column: Optional[int] = None) -> None:
        super().__init__(message)
        self.line, self.column = line, column


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit 2 (a :class:`UsageError`), no usage dump."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message} (see --help)")

    def _get_formatter(self) -> argparse.HelpFormatter:
        # argparse builds a formatter for every add_argument (to check the metavar), and without a
        # width the formatter imports shutil (and bz2, lzma) to ask the terminal: the width asked here
        # is the same (COLUMNS, else the terminal's, else 80; minus 2 as argparse does), at no import.
        return self.formatter_class(prog=self.prog, width=_columns() - 2)  # type: ignore[call-arg]


def _columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size`` gives it: COLUMNS, else the terminal's, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns if sys.__stdout__ else 0
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


def jobs_count(text: str) -> int:
    """``--jobs N``: a whole number of processes, at least 1 (argparse names the flag in its error)."""
    try:
        count = int(text, 10) if len(text) <= 6 else 0
    except ValueError:
        count = 0
    if count < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of processes from 1, got {text[:20]!r}")
    return count


def exit_codes(findings: str, unusable: str = "an input file that cannot be read or parsed") -> str:
    """A command's ``--help`` epilog: its exit codes (what exit 1 and exit 2 mean for it)."""
    return f"exit codes: 0 success, 1 {findings}, 2 usage error or {unusable}"


def add_setting_flags(parser: argparse.ArgumentParser, names: Optional[Sequence[str]] = None) -> None:
    """A flag for each setting of :data:`SETTING_FLAGS` (or those of ``names``)."""
    for name, flag in SETTING_FLAGS.items():
        if names is not None and name not in names:
            continue
        option = "--" + name.replace("_", "-")
        if flag.kind == "switch":
            parser.add_argument(option, action="store_const", const=True, help=flag.help)
        elif name == "ignore":
            parser.add_argument(option, action="extend", type=code_list, metavar="CODE[,CODE]", help=flag.help)
        elif flag.kind == "append":
            parser.add_argument(option, action="append", metavar=name.upper(), help=flag.help)
        else:
            parser.add_argument(option, choices=flag.choices, help=flag.help)


#: ``--select`` of the commands that report findings (validate, lint, plan); ``--ignore`` is a setting flag.
SELECT_HELP = ("report only the findings of these check codes (CODE,CODE or a prefix such as SMD13; repeatable); "
               "the others are suppressed, and --ignore removes codes from them")


def code_list(text: str) -> List[str]:
    """``--select``/``--ignore``'s value: codes (or prefixes) separated by commas, upper-cased; which code each
    names is checked when the command starts (:func:`~sm_debug_config.cli.project.projects`)."""
    items = [item.strip().upper() for item in text.split(",") if item.strip()]
    if not items:
        raise argparse.ArgumentTypeError(f"expected check codes or prefixes separated by commas, got {text[:40]!r}")
    return items


def add_selection_flags(parser: argparse.ArgumentParser) -> None:
    """``--select`` and ``--ignore`` (ruff's semantics; :mod:`sm_debug_config.codes`)."""
    parser.add_argument("--select", action="extend", type=code_list, metavar="CODE[,CODE]", help=SELECT_HELP)
    add_setting_flags(parser, ("ignore",))


def settings_given(args: argparse.Namespace) -> Dict[str, Any]:
    """The :class:`JobSettings` values given as flags (see :data:`SETTING_FLAGS`)."""
    return {name: getattr(args, name) for name in SETTING_FLAGS if getattr(args, name, None) is not None}


def dumps(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def write_output(text: str, args: argparse.Namespace, warned: bool) -> int:
    """Print a command's output; its exit code: 1 when ``--strict`` and a warning was said
    (:func:`~sm_debug_config.cli.report.say`), else 0."""
    sys.stdout.write(text)
    return EXIT_FINDINGS if warned and bool(getattr(args, "strict", False)) else EXIT_OK
