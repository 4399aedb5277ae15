"""The ``sm-debug-config`` command: render, validate and explain Debugger configs in CI.

Exit codes: 0 no error (no warning either under ``--strict``), 1 findings, 2 usage errors and
files that cannot be read or parsed. Every failure is one line on stderr, never a traceback.
Heavy modules (yaml, boto3, the catalogue) are imported only by the commands that need them.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import warnings
from typing import TYPE_CHECKING, Any, Callable, Dict, List, NoReturn, Optional, Sequence, Tuple, Union

from sm_debug_config.errors import ConfigError, ConfigWarning, pointer, pointer_parts

if TYPE_CHECKING:
    from sm_debug_config.model.settings import DebuggerSetup, JobSettings

PROG = "sm-debug-config"
EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
#: Besides the Debugger fields, the keys that make a document a CreateTrainingJob request, not a config file.
REQUEST_KEYS = ("TrainingJobName", "AlgorithmSpecification", "RoleArn", "OutputDataConfig", "ResourceConfig",
                "TrainingJobArn")


#: The ``--flag`` help of each :class:`~sm_debug_config.JobSettings` field: every field but
#: those listed in ``_NOT_FLAGS`` is a flag of ``render`` and ``explain`` (``--output-path``
#: for ``output_path``; a True/False setting is a switch), overriding the config file.
SETTING_FLAGS = {
    "region": "AWS region (default: what the file or the request tells; render and explain then use AWS_REGION)",
    "output_path": "S3 output path the hook and profiler paths default to",
    "job_name": "training job name (StopTraining prefix, detailed-profiler rule name)",
    "instance_type": "training instance type (ml.trn* has no profiler)",
    "rule_image_uri": "image URI for built-in rules instead of the region's",
    "defaults": "sdk: as the SDK v2 Estimator (default); explicit: only what is configured",
    "framework": "enable framework-specific checks",
    "disable_debugger": "turn off hook and profiler for the job",
    "ignore": "suppress findings of this check code (repeatable; see the checks command)",
    "framework_version": "framework version of the training image (with --framework): says whether the hook runs there",
    "image_uri": "the training image URI: says whether the hook and framework profiling run there",
}
_NOT_FLAGS = ("validate",)  # render validates always; the validate command reports instead


class UsageError(Exception):
    """A problem with the command line or an input file (exit 2); ``line`` and ``column`` where the file has the problem."""

    def __init__(self, message: str, line: Optional[int] = None, column: Optional[int] = None) -> None:
        super().__init__(message)
        self.line, self.column = line, column


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2, no usage dump
        raise UsageError(f"{self.prog}: {message} (see --help)")


def _dumps(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def _read_json(path: str) -> Any:
    from sm_debug_config.configfile.text import read_bytes
    from sm_debug_config.limits import json_loads

    try:
        raw = read_bytes(path, 16 * 1024 * 1024, what="the file")
    except ConfigError as err:
        raise UsageError(str(err)) from None

    try:
        return json_loads(raw.decode("utf-8"))
    except ConfigError as err:
        raise UsageError(f"{path}: {err.message}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text") from None
    except json.JSONDecodeError as err:  # worded as validate words it
        from sm_debug_config.configfile.parse import json_error

        raise UsageError(str(json_error(err, raw.decode("utf-8"), path))) from None
    except ValueError as err:
        raise UsageError(f"{path}: invalid JSON: {err}") from None


def _read(path: str, kind: str = "config") -> Tuple[Any, Any]:
    """Parse any YAML/JSON document; an unreadable or unparsable file is a usage error (exit 2).

    CloudFormation's YAML tags (``!Ref``...) are read for a ``kind`` ``cloudformation`` document, and for
    ``auto`` when the file is a template once read with them; any other document refuses them as before.
    """
    from sm_debug_config.configfile import read_document
    from sm_debug_config.documents import cloudformation

    try:
        if kind == "cloudformation":
            return read_document(path, tags=cloudformation.YAML_TAGS)
        try:
            return read_document(path)
        except ConfigError:
            if kind != "auto" or path == "-":
                raise
            document, locator = read_document(path, tags=cloudformation.YAML_TAGS)
            if not cloudformation.detect(document):
                raise
            return document, locator
    except ConfigError as err:
        raise UsageError(str(err), getattr(err, "line", None), getattr(err, "column", None)) from None


def _settings_given(args: argparse.Namespace) -> Dict[str, Any]:
    """The :class:`JobSettings` values given as flags (see :data:`SETTING_FLAGS`)."""
    from sm_debug_config.model.settings import JobSettings

    return {name: getattr(args, name) for name in JobSettings.names() if getattr(args, name, None) is not None}


def _configured(args: argparse.Namespace) -> Tuple[Any, "DebuggerSetup", "JobSettings", Dict[str, Any]]:
    """The config file, its objects and settings, and the settings given (flags, the region defaulting to AWS_REGION).

    An unreadable or unparsable file is a usage error (exit 2), bad content (unknown key, bad value) a ConfigError (1).
    """
    from sm_debug_config.configfile import load
    from sm_debug_config.rendering import render_arguments

    if _read(args.config)[0] is None:  # validate skips an empty document; here it is the config asked for
        from sm_debug_config.configfile.parse import EMPTY_CONFIG

        raise UsageError(f"{args.config}:1:1: {EMPTY_CONFIG}", 1, 1)
    loaded = load(args.config)
    given = _settings_given(args)
    try:
        setup, settings = render_arguments(loaded.render_kwargs(**given))
        if settings.region is None:
            given["region"] = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")
            settings = settings.updated(region=given["region"])
    except ConfigError as err:
        raise loaded.error_at(err) from None
    if settings.region is None:
        raise UsageError(f"{loaded.source}: no region: set 'region:' in the file, pass --region, or set AWS_REGION")
    return loaded, setup, settings, given


def _positioned(loaded: Any, call: Any, given: Dict[str, Any]) -> Any:
    """``call()``, a ``ConfigError`` positioned at the config key it concerns (``given``: the settings used)."""
    try:
        return call()
    except ConfigError as err:
        raise loaded.error_at(err, **given) from None


# --- render -----------------------------------------------------------------------------------


def _warn_placed(caught: Sequence[Any], source: str, locate: Callable[[str], Optional[Tuple[int, int]]]) -> None:
    """Warn ``caught`` again, each validation finding's warning placed in ``source`` at ``locate(its pointer)``
    when that gives a position (``main`` prints them as ``validate`` prints findings)."""
    for message in caught:
        if isinstance(message, ConfigWarning) and message.code is not None and message.source is None:
            key = message.pointer
            position = locate(key) if key.startswith("/") else None
            warnings.warn(message.placed(source, position) if position else message)
        else:
            warnings.warn(message)


def _locate_pointer(loaded: Any, at: str, rendered: Any) -> Optional[Tuple[int, int]]:
    """``(line, column)`` of the config key behind the request pointer ``at``, if the file has one."""
    key = loaded.path_of_request_pointer(at, rendered)
    return loaded.locate(key) if key else None


def _warn_findings(findings: Sequence[Any], source: str, locate: Callable[[str], Optional[Tuple[int, int]]]) -> None:
    """Each non-error finding (a ``Finding`` or its dict) as a positioned :class:`ConfigWarning`."""
    from sm_debug_config.validation import ERROR, Finding

    rows = [f if isinstance(f, Finding) else Finding(f["severity"], f["code"], pointer_parts(f["path"]), f["message"]) for f in findings]
    _warn_placed([f.to_warning() for f in rows if f.severity != ERROR and not f.suppressed], source, locate)


def cmd_render(args: argparse.Namespace) -> str:
    from sm_debug_config.rendering import merge_into_request

    loaded, setup, settings, given = _configured(args)
    if args.update:
        return _render_update(args, loaded, setup, settings, given)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rendered = loaded.render_model(**given)  # errors positioned in the file
    _warn_placed([item.message for item in caught], loaded.source, lambda at: _locate_pointer(loaded, at, rendered))
    fields = rendered.request
    if args.into and args.format != "json":
        raise UsageError(f"--into merges into a request JSON; it does not go with --format {args.format}")
    if args.at is not None and not args.into:
        raise UsageError("--at says where in the --into document to merge; pass --into DOC too")
    if args.into and args.at is not None:
        return _merged_document(args.into, args.at, fields, args.replace)
    if args.into:
        request = _read_json(args.into)
        try:
            fields = merge_into_request(request, fields, replace=args.replace)
        except ConfigError as err:
            raise UsageError(f"{args.into}: {err.message}" + (" (pass --replace to overwrite them)" if "overwrite" in err.message else "")) from None
    if args.format == "json":
        return _dumps(fields)
    from sm_debug_config.integrations import iac

    if args.format == "cloudformation":
        warnings.warn(iac.NOT_PROVISIONABLE)
    if args.format == "stepfunctions":
        from sm_debug_config.model.regions import partition

        return _dumps(iac.to_step_functions_task(fields, partition=(partition(settings.region) or {}).get("id", "aws")))
    out = getattr(iac, RENDER_FORMATS[args.format])(fields)  # HCL text, or a JSON value
    return out if isinstance(out, str) else _dumps(out)


#: ``render --format``: the :mod:`~sm_debug_config.integrations.iac` function of each format but json.
RENDER_FORMATS = {
    "json": "",
    "cloudformation": "to_cloudformation",
    "terraform": "to_terraform",
    "terraform-json": "to_terraform_json",
    "cloudformation-pipeline": "to_cloudformation_pipeline",
    "stepfunctions": "to_step_functions_task",
}


def _merged_document(path: str, at: str, fields: Dict[str, Any], replace: bool) -> str:
    """The document ``path`` with ``fields`` merged into the request at JSON pointer ``at`` (Terraform blocks into
    a Terraform resource), in the document's format: JSON stays JSON, YAML is written as YAML."""
    from sm_debug_config.documents import merge_at

    document, _ = _read(path, "auto")
    try:
        merged = merge_at(document, at, fields, replace=replace)
    except ConfigError as err:
        hint = " (pass --replace to overwrite them)" if "overwrite" in err.message else ""
        raise UsageError(f"{path}: {err.message}{hint}") from None
    from sm_debug_config.configfile.text import read_bytes

    if path != "-" and read_bytes(path).lstrip()[:1] not in (b"{", b"["):
        import yaml

        return yaml.safe_dump(merged, sort_keys=False, allow_unicode=True, default_flow_style=False)
    return _dumps(merged)


def _render_update(
    args: argparse.Namespace, loaded: Any, setup: "DebuggerSetup", settings: "JobSettings", given: Dict[str, Any]
) -> str:
    from sm_debug_config.rendering import split_rules
    from sm_debug_config.update import render_update

    debugger_rules, profiler_rules = split_rules(setup.rules)
    if debugger_rules:
        raise UsageError(f"{args.config}: --update changes profiling only; remove the debugger rules ({', '.join(r.name for r in debugger_rules)})")
    current = _read_json(args.current) if args.current else None
    fields = _positioned(loaded, lambda: render_update(
        setup.profiler_config,
        profiler_rules if setup.rules is not None else None,
        bool(setup.disable_profiler),
        current=current,
        settings=settings,
    ), given)
    return _dumps(fields)


# --- validate ---------------------------------------------------------------------------------


def _validate_one(path: str, args: argparse.Namespace) -> Dict[str, Any]:
    """One file's findings (``findings``) and those its ``ignore`` codes suppressed (``suppressed``);
    ``skipped`` (why) for a document that is neither a config file nor a request."""
    from sm_debug_config.documents import detect_kind
    from sm_debug_config.validation import DEBUG_FIELDS, validate_split

    kind = getattr(args, "kind", None) or "auto"
    if kind == "config":
        return _validate_config(path, args)
    document, locator = _read(path, kind)
    orchestration = detect_kind(document) if kind == "auto" else kind if kind != "request" else None
    if orchestration is not None:
        return _validate_document(path, document, locator, orchestration, args)
    keys = set(document) if isinstance(document, dict) else set()
    if kind == "request" or keys & set(DEBUG_FIELDS + REQUEST_KEYS):  # a request
        findings, suppressed = validate_split(document, framework=args.framework, region=args.region, ignore=args.ignore,
                                              framework_version=args.framework_version, image_uri=args.image_uri)
        return {"file": path, "findings": [_at(f, locator(f.path)) for f in findings], "suppressed": suppressed}
    skipped = _not_debugger(document)
    if skipped:
        return {"file": path, "findings": [], "suppressed": [], "skipped": skipped}
    return _validate_config(path, args)


#: ``validate --kind``/``explain --kind``: what a file is read as (``auto``: found from its content).
DOCUMENT_KINDS = ("auto", "config", "request", "stepfunctions", "pipeline", "cloudformation", "terraform")


def _validate_document(path: str, document: Any, locator: Any, kind: str, args: argparse.Namespace) -> Dict[str, Any]:
    """The findings of every CreateTrainingJob request an orchestration document holds, at their place in it."""
    from sm_debug_config.documents import KINDS
    from sm_debug_config.documents.checks import validate_document

    findings, suppressed, count = validate_document(
        document, kind, locator, framework=args.framework, region=args.region, ignore=args.ignore,
        framework_version=args.framework_version, image_uri=args.image_uri,
    )
    if not count:
        why = f"{KINDS[kind].description} with no CreateTrainingJob request"
        return {"file": path, "findings": [], "suppressed": [], "skipped": why}
    return {"file": path, "findings": findings, "suppressed": suppressed}


def _not_debugger(document: Any) -> Optional[str]:
    """Why ``document`` is no Debugger config file (nor a request), or None: pre-commit hands over every YAML/JSON file."""
    from sm_debug_config.configfile import format as fmt

    if document is None:
        return "empty document"
    if not isinstance(document, dict):
        return f"a {'list' if isinstance(document, list) else type(document).__name__}, not a mapping of config keys"
    if set(map(str, document)) & set(fmt.formats()["config"].keys):
        return None
    listed = ", ".join(sorted(map(str, document))[:5]) + (", ..." if len(document) > 5 else "")
    return f"none of its keys ({listed or 'none'}) is a config-file or CreateTrainingJob key"


def _validate_config(path: str, args: argparse.Namespace) -> Dict[str, Any]:
    """A config file's findings: what its objects' constructors refused and what the request it renders breaks, in one run.

    An object a constructor refuses is rendered as written (:func:`load_with_errors`), so its
    problem is found once, by the request check of the same code; a construction error no request
    check sees is reported with its own code (SMD002 when it has none), at its key.
    """
    from sm_debug_config.configfile import load_with_errors
    from sm_debug_config.checked import render_model
    from sm_debug_config.rendering import render_arguments
    from sm_debug_config.validation import validate_split

    with warnings.catch_warnings():  # what constructors warn about, validation reports below, at its key
        warnings.simplefilter("ignore", ConfigWarning)
        loaded, build_errors = load_with_errors(path)
    errors: List[ConfigError] = list(build_errors)
    kwargs = loaded.render_kwargs(**_settings_given(args))
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
        rendered = render_model(setup, settings)
    except ConfigError as err:  # e.g. two collection configs of one name that disagree
        return _with_errors(path, [], errors + [loaded.error_at(err)], loaded, None)
    findings, suppressed = validate_split(rendered.request, framework=settings.framework, region=settings.region, ignore=settings.ignore,
                                          framework_version=settings.framework_version, image_uri=settings.image_uri)
    key_paths = [loaded.path_of_request_pointer(f.pointer, rendered) for f in findings]  # one the file has, or ()
    positioned = [_at(f, loaded.locate(key) if key else None) for f, key in zip(findings, key_paths)]
    result = _with_errors(path, positioned, errors, loaded, rendered)
    result["suppressed"] = suppressed
    return result


def _with_errors(path: str, findings: List[Any], errors: Sequence[ConfigError], loaded: Any, rendered: Any) -> Dict[str, Any]:
    """``findings`` and the construction ``errors`` as findings (those a request check reported already left out), in file order."""
    from sm_debug_config.configfile import ConfigFileError
    from sm_debug_config.validation import ERROR, Finding

    seen = {(f.code, f.line, f.column) for f in findings}
    out = list(findings)
    for err in errors:
        if not isinstance(err, ConfigFileError):
            err = loaded.error_at(err)
        code = err.code or "SMD002"  # SMD002: a problem no request check has a code for
        if (code, err.line, err.column) in seen:
            continue
        seen.add((code, err.line, err.column))
        where = loaded.request_pointer_of(err.path, rendered) if rendered is not None else ""
        text = str(ConfigError(err.message, field=err.field, allowed=err.allowed))  # without a ConfigFileError's position
        out.append(Finding(ERROR, code, pointer_parts(where), " ".join(text.split()), line=err.line, column=err.column))
    out.sort(key=lambda f: (f.line is None, f.line or 0, f.column or 0))
    return {"file": path, "findings": out, "suppressed": []}


def _at(finding: Any, position: Optional[Tuple[int, int]]) -> Any:
    """``finding`` at ``(line, column)`` of the file (both None when the file has no position for it)."""
    import attrs

    line, column = position if position else (None, None)
    return attrs.evolve(finding, line=line, column=column)


def _github_escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def _where(file: str, line: Optional[int], column: Optional[int]) -> str:
    """``file:line:col`` (``file:line``, ``file``) as compilers print it, for text output."""
    return ":".join([file] + [str(n) for n in (line, column if line else None) if n])


def _annotation(level: str, file: str, line: Optional[int], column: Optional[int], title: str, message: str) -> str:
    """A GitHub Actions workflow command: ``::error file=F,line=L,col=C,title=T::message``."""
    props = [f"file={_github_escape(file, True)}"] + [f"{name}={n}" for name, n in (("line", line), ("col", column if line else None)) if n]
    return f"::{level} {','.join(props + [f'title={_github_escape(title, True)}'])}::{_github_escape(message)}\n"


def _finding_out(file: str, finding: Any, github: bool, cell: Optional[int] = None) -> str:
    """One finding as validate prints it: ``file:line:col: severity CODE /pointer: message``, or a GitHub annotation.

    ``cell``: the notebook code cell the finding's line and column count in (lint), shown in the place.
    """
    if github:
        level = {"error": "error", "warning": "warning", "info": "notice"}[finding.severity]
        title = f"{finding.code} {finding.pointer}".strip()
        title += f" (cell {cell}:{finding.line}:{finding.column})" if cell else ""
        line, column = (None, None) if cell else (finding.line, finding.column)
        return _annotation(level, file, line, column, title, finding.message)
    where = _where(file + (f":cell {cell}" if cell else ""), finding.line, finding.column)
    return f"{where}: {finding.severity} {finding.code} {finding.pointer or '/'}: {finding.message}\n"


def cmd_validate(args: argparse.Namespace) -> int:
    from sm_debug_config.validation import check_codes

    try:
        args.ignore = list(check_codes(args.ignore, field="--ignore")) or None
    except ConfigError as err:
        raise UsageError(f"{PROG} validate: {err}") from None
    results: List[Dict[str, Any]] = []
    for path in args.files:
        try:
            results.append(_validate_one(path, args))
        except UsageError as err:
            results.append({"file": path, "error": str(err), "line": err.line, "column": err.column, "findings": [], "suppressed": []})
        except ConfigError as err:
            results.append({"file": path, "error": str(err), "line": getattr(err, "line", None), "column": getattr(err, "column", None),
                            "findings": [], "suppressed": []})
    return print_results(results, args)


def print_results(results: List[Dict[str, Any]], args: argparse.Namespace) -> int:
    """Print ``validate``'s (and ``lint``'s) results in ``args.format`` with the summary; the exit code.

    A result may carry ``cells``: each finding's notebook code-cell number (``file:cell N:line:col``).
    """
    unreadable = ["error" for result in results if "error" in result]  # an unreadable file is an error of its own
    severities = [finding.severity for result in results for finding in result["findings"]] + unreadable
    counts = {severity: severities.count(severity) for severity in ("error", "warning", "info")}
    suppressed = sum(len(r["suppressed"]) for r in results)
    skipped = [r for r in results if "skipped" in r]
    if args.verbose:  # on stderr: stdout stays the findings (json and github formats are read by tools)
        for result in skipped:
            sys.stderr.write(f"{PROG}: {result['file']}: skipped: {result['skipped']}\n")
    if args.format == "json":
        payload = {
            "files": [_file_json(r) for r in results],
            "errors": counts["error"],
            "warnings": counts["warning"],
            "infos": counts["info"],
            "suppressed": suppressed,
            "skipped": len(skipped),
        }
        sys.stdout.write(_dumps(payload))
    else:
        for result in results:
            if "error" in result:
                message = result["error"]
                if args.format == "github":
                    sys.stdout.write(_annotation("error", result["file"], result["line"], result["column"], "unreadable", message))
                else:
                    sys.stderr.write(f"{PROG}: {message}\n")
            for finding, cell in zip(result["findings"], result.get("cells") or [None] * len(result["findings"])):
                sys.stdout.write(_finding_out(result["file"], finding, args.format == "github", cell))
        if args.format == "text":
            files = len(results)
            plural = lambda n, word: f"{n} {word}{'s' if n != 1 else ''}"  # noqa: E731
            sys.stdout.write(f"{plural(files, 'file')}: {plural(counts['error'], 'error')}, {plural(counts['warning'], 'warning')}"
                             + (f", {suppressed} suppressed" if suppressed else "")
                             + (f", {len(skipped)} skipped (not Debugger config; --verbose says why)" if skipped and not args.verbose
                                else f", {len(skipped)} skipped" if skipped else "") + "\n")
    if unreadable:
        return EXIT_USAGE
    if counts["error"] or (args.strict and counts["warning"]):
        return EXIT_FINDINGS
    return EXIT_OK


def cmd_lint(args: argparse.Namespace) -> int:
    """Lint Python sources and notebooks (:mod:`sm_debug_config.lint`), printed as ``validate`` prints."""
    from sm_debug_config.lint import lint_paths

    ignore: Sequence[str] = ()
    if args.ignore:  # the registry is imported only when needed: a tree with no Debugger file never loads it
        from sm_debug_config.validation import check_codes

        try:
            ignore = check_codes(args.ignore, field="--ignore")
        except ConfigError as err:
            raise UsageError(f"{PROG} lint: {err}") from None
    given = ("framework", "framework_version", "image_uri")
    defaults = {name: getattr(args, name) for name in given if getattr(args, name)}
    results = lint_paths(args.paths, ignore=ignore, defaults=defaults)
    if args.verbose:  # on stderr, as validate's skip reasons: stdout stays the findings
        for result in results:
            for cell, line, column, text in result.get("notes", ()):
                where = _where(result["file"] + (f":cell {cell}" if cell else ""), line, column)
                sys.stderr.write(f"{where}: info SMD181 /: {text}\n")
    return print_results(results, args)


def _file_json(result: Dict[str, Any]) -> Dict[str, Any]:
    """One file of ``validate --format json``: its findings, and ``error`` (with ``line``, ``column``) or ``skipped`` (why)."""
    cells = result.get("cells") or [None] * len(result["findings"])
    findings = [dict(f.to_dict(), **({"cell": c} if c else {})) for f, c in zip(result["findings"], cells)]
    out: Dict[str, Any] = {"file": result["file"], "findings": findings}
    if "error" in result:
        out.update(error=result["error"], line=result["line"], column=result["column"])
    if "skipped" in result:
        out["skipped"] = result["skipped"]
    return out


# --- plan -------------------------------------------------------------------------------------


def cmd_plan(args: argparse.Namespace) -> int:
    """Run the launcher under a local AWS (:mod:`~sm_debug_config.operations.plan`); print its jobs as validate does."""
    from sm_debug_config.operations.plan import PlanError, plan
    from sm_debug_config.validation import check_codes

    launcher_args = args.args[1:] if args.args[:1] == ["--"] else args.args  # argparse keeps the "--" on some Pythons
    try:
        ignore = check_codes(args.ignore, field="--ignore")
        result = plan(args.script, launcher_args, region=args.region, max_jobs=args.max_jobs,
                      timeout=args.timeout or None, framework=args.framework, ignore=ignore)
    except (PlanError, ConfigError) as err:  # no moto, no script; a bad --region, --ignore, --max-jobs or --timeout
        raise UsageError(f"{PROG} plan: {err}") from None
    github = args.format == "github"
    if args.format == "json":
        sys.stdout.write(_dumps(result.to_dict()))
    for job in () if args.format == "json" else result.jobs:
        if not github:
            fields = "".join(f"    {name}: {json.dumps(value, ensure_ascii=False)}\n" for name, value in
                             job.fields.items())
            sys.stdout.write(f"{_where(args.script, job.line, None)}: {job.operation} {job.label}"
                             + (f": not checked: {job.note}\n" if job.note else "\n")
                             + (f"    image: {job.image}\n" if job.image else "") + fields)
        for finding in job.findings:
            sys.stdout.write(_finding_out(args.script, finding, github))
    for message in result.messages():
        sys.stderr.write(message + "\n")
        if github:
            level = "error" if result.failed else "warning"
            sys.stdout.write(_annotation(level, args.script, None, None, "plan", message.split("\n", 1)[0]))
    if args.format == "text":
        sys.stdout.write(result.summary() + "\n")
    if result.failed:
        return EXIT_USAGE
    no_job = not result.launch.calls
    return EXIT_FINDINGS if result.count("error") or (args.strict and (result.count("warning") or no_job)) else EXIT_OK


# --- explain ----------------------------------------------------------------------------------


def cmd_explain(args: argparse.Namespace) -> str:
    from sm_debug_config.explaining import explain_model, format_explanation

    if args.kind != "config":
        from sm_debug_config.documents import detect_kind

        document, locator = _read(args.config, args.kind)
        kind = detect_kind(document) if args.kind == "auto" else args.kind
        if kind is not None:
            return _explain_document(args, document, locator, kind)
    loaded, setup, settings, given = _configured(args)
    report = _positioned(loaded, lambda: explain_model(setup, settings), given)
    rendered = loaded.render_model(validate=False, **given)  # explain rendered it already: this cannot fail
    _warn_findings(report["findings"], loaded.source, lambda at: _locate_pointer(loaded, at, rendered))
    return _dumps(report) if args.format == "json" else format_explanation(report)


def _explain_document(args: argparse.Namespace, document: Any, locator: Any, kind: str) -> str:
    """``explain`` of each CreateTrainingJob request of an orchestration document, headed by where it is;
    a value refused is a ConfigError at its request's place in the document (exit 1)."""
    from sm_debug_config.documents import KINDS
    from sm_debug_config.documents.checks import explain_document
    from sm_debug_config.explaining import format_explanation

    given = _settings_given(args)
    given.setdefault("region", os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1")
    try:
        explained = explain_document(document, kind, **given)
    except ConfigError as err:
        located = getattr(err, "located", None)
        line, column = (locator(located.position_path(())) if located else None) or (None, None)
        label = f"{located.label}: " if located else ""
        raise ConfigError(f"{_where(args.config, line, column)}: {label}{err}") from None
    if not explained:
        raise UsageError(f"{args.config}: {KINDS[kind].description} with no CreateTrainingJob request")
    if args.format == "json":
        return _dumps([{"request": pointer(*at.base), "label": at.label, "explanation": report}
                       for at, report in explained])
    return "\n".join(f"== {at.label} ({pointer(*at.base)})\n{format_explanation(report)}" for at, report in explained)


# --- rules, schema, checks, from-request -------------------------------------------------------


def cmd_rules(args: argparse.Namespace) -> str:
    from sm_debug_config.model import catalogue

    if args.rules_command == "show":
        try:
            info = catalogue.describe(args.name)
        except ConfigError as err:  # a name not in the catalogue is a usage error (exit 2), with its did-you-mean
            raise UsageError(f"{PROG} rules show: {err.message} (see '{PROG} rules list')") from None
        return _dumps(info) if args.format == "json" else catalogue.format_description(info) + "\n"
    rows = catalogue.list_rules(kind=args.kind, framework=args.framework)
    if args.format == "json":
        return _dumps(rows)
    width = max((len(r["name"]) for r in rows), default=4)
    return "".join(f"{r['name']:<{width}}  {r['kind']:<8}  {','.join(r['frameworks']):<31}  {r['description']}\n" for r in rows)


def cmd_schema(args: argparse.Namespace) -> str:
    from sm_debug_config.configfile import config_schema

    return _dumps(config_schema())


def cmd_checks(args: argparse.Namespace) -> str:
    from sm_debug_config.validation import list_checks

    rows = list_checks(verbose=args.verbose)
    if args.format == "json":
        return _dumps(rows)
    line = "{code}  {severity:<7}  {description}\n" + ("{:16}evidence: {evidence}\n" if args.verbose else "")
    return "".join(line.format("", **row) for row in rows)


def cmd_from_request(args: argparse.Namespace) -> str:
    from sm_debug_config.configfile import dump
    from sm_debug_config.reverse import from_request

    from sm_debug_config.validation import validate

    request = _read_json(args.request)
    if not isinstance(request, dict):
        raise UsageError(f"{args.request}: expected a JSON object")
    rebuilt = from_request(request, **_settings_given(args))
    _, locator = _read(args.request)  # read again for positions (only once the request is known to be valid JSON)
    findings = validate(request, region=rebuilt.settings.region)  # the config renders these again: say so now
    _warn_findings(findings, args.request, lambda at: locator(pointer_parts(at)))
    config = dump(**rebuilt.render_kwargs())
    if args.format == "json":
        return _dumps(config)
    import yaml

    return yaml.safe_dump(config, sort_keys=False, allow_unicode=True, default_flow_style=False)


def cmd_status(args: argparse.Namespace) -> int:
    from sm_debug_config.operations.status import status_main

    text, code = status_main(args.job_name, args.region)
    if code == EXIT_USAGE:
        sys.stderr.write(f"{PROG}: {text.strip()}\n")
    else:
        sys.stdout.write(text)  # status_main's text ends with a newline
    return code


def cmd_events(args: argparse.Namespace) -> str:
    from sm_debug_config.operations.events import command_line_pattern

    return _dumps(command_line_pattern(args.rule, args.status, args.include_profiler, args.job_status))


# --- parser and entry point -------------------------------------------------------------------


def _setting_flags(sub: argparse.ArgumentParser, names: Optional[Sequence[str]] = None) -> None:
    """A flag for each JobSettings field (or those of ``names``), from the field itself: its name, True/False or choices."""
    import attrs

    from sm_debug_config.model.catalogue import FRAMEWORKS
    from sm_debug_config.model.settings import DEFAULTS_MODES, JobSettings

    choices: Dict[str, Sequence[str]] = {"defaults": DEFAULTS_MODES, "framework": FRAMEWORKS}
    for field in attrs.fields(JobSettings):
        if field.name in _NOT_FLAGS or (names is not None and field.name not in names):
            continue
        flag = "--" + field.name.replace("_", "-")
        if field.default is False:
            sub.add_argument(flag, action="store_const", const=True, help=SETTING_FLAGS.get(field.name))
        elif isinstance(field.default, tuple):  # a list setting: the flag repeats
            sub.add_argument(flag, action="append", metavar=field.name.upper().replace("IGNORE", "CODE"), help=SETTING_FLAGS.get(field.name))
        else:
            sub.add_argument(flag, choices=choices.get(field.name), help=SETTING_FLAGS.get(field.name))


#: ``--strict`` of the commands that print output (render, explain, from-request).
_STRICT_HELP = "exit 1 when a warning was reported on stderr (the output is still printed)"


def _exit_codes(findings: str, unusable: str = "an input file that cannot be read or parsed") -> str:
    """A command's ``--help`` epilog: its exit codes (what exit 1 and exit 2 mean for it)."""
    return f"exit codes: 0 success, 1 {findings}, 2 usage error or {unusable}"


_CONFIG_WRONG = "the configuration is wrong (an unknown key, a bad value, a validation error; with --strict, a warning too)"
_EPILOGS = {
    "render": _exit_codes(_CONFIG_WRONG),
    "validate": _exit_codes("findings: an error (with --strict, a warning too)"),
    "explain": _exit_codes(_CONFIG_WRONG),
    "from-request": _exit_codes("the request cannot be turned into a config file (with --strict, a warning too)"),
    "status": _exit_codes("a rule needs attention (IssuesFound or Error)", "the status cannot be read"),
    "plan": _exit_codes("findings: an error (with --strict, a warning, or no job started)",
                        "a launcher that raised, exited non-zero or ran past --timeout"),
}


def build_parser() -> argparse.ArgumentParser:
    """The command line; ``main`` runs the function ``cmd_<command>`` of the command given."""
    parser = _Parser(prog=PROG, description="Render, validate and explain SageMaker Debugger configuration.",
                     epilog="exit codes: 0 success, 1 findings or a wrong configuration, 2 usage error or an unreadable file "
                            "(each command's --help says what they mean for it)")
    from sm_debug_config import __version__
    from sm_debug_config.model import catalogue

    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    render = commands.add_parser("render", help="print the CreateTrainingJob Debugger fields of a config file", epilog=_EPILOGS["render"])
    render.add_argument("config", help="the config file (YAML or JSON; - for standard input)")
    _setting_flags(render)
    render.add_argument("--into", metavar="REQUEST.json",
                        help="merge the fields into this CreateTrainingJob request "
                             "(with --at, into any document: print it merged)")
    render.add_argument("--at", metavar="POINTER",
                        help="with --into, the JSON Pointer of the request inside an orchestration document "
                             "(/States/Train/Parameters, /resource/aws_sagemaker_training_job/train...)")
    render.add_argument("--replace", action="store_true", help="with --into, overwrite Debugger fields already in the request")
    render.add_argument("--format", choices=RENDER_FORMATS, default="json",
                        help="json: the CreateTrainingJob fields; cloudformation: AWS::SageMaker::TrainingJob "
                             "properties (a type CloudFormation cannot create); terraform: aws_sagemaker_training_job "
                             "blocks (HCL); "
                             "terraform-json: the same as Terraform JSON; cloudformation-pipeline: a template with an "
                             "AWS::SageMaker::Pipeline running one training job; stepfunctions: a Task state")
    render.add_argument("--update", action="store_true", help="print UpdateTrainingJob profiler fields for a running job instead")
    render.add_argument("--current", metavar="DESCRIBE.json", help="with --update, the job's DescribeTrainingJob response to check the change against")
    render.add_argument("--strict", action="store_true", help=_STRICT_HELP)

    validate = commands.add_parser("validate", help="check config files and request JSON", epilog=_EPILOGS["validate"])
    validate.add_argument("files", nargs="+", metavar="FILE",
                          help="config files (YAML or JSON), CreateTrainingJob request JSON (recognised by its keys), "
                               "or orchestration documents (state machines, pipeline definitions, templates, "
                               "Terraform JSON); - for standard input")
    validate.add_argument("--format", choices=("text", "json", "github"), default="text",
                          help="text: a line per finding and a summary (default); json: one document; github: GitHub Actions annotations")
    validate.add_argument("--verbose", action="store_true",
                          help="say which files were skipped and why (a document with no config-file or CreateTrainingJob key)")
    _setting_flags(validate, ("region", "framework", "framework_version", "image_uri", "ignore"))
    validate.add_argument("--kind", choices=DOCUMENT_KINDS, default="auto",
                          help="what each file is (default auto: found from its content); an orchestration document's "
                               "CreateTrainingJob requests are each checked")
    validate.add_argument("--strict", action="store_true", help="exit 1 on warnings too")

    lint = commands.add_parser(
        "lint", help="check Debugger configuration in Python sources and notebooks without running them",
        epilog=_exit_codes("findings: an error (with --strict, a warning too)", "a file that cannot be read or parsed"))
    lint.add_argument("paths", nargs="+", metavar="PATH", help=".py and .ipynb files, or directories to search")
    lint.add_argument("--format", choices=("text", "json", "github"), default="text",
                      help="text: a line per finding and a summary (default); json: one document; "
                           "github: GitHub Actions annotations")
    lint.add_argument("--verbose", action="store_true",
                      help="also say what was not checked (computed at run time) and which files were skipped")
    _setting_flags(lint, ("framework", "framework_version", "image_uri", "ignore"))
    lint.add_argument("--strict", action="store_true", help="exit 1 on warnings too")

    explain = commands.add_parser("explain", help="show merged collections, where each parameter came from, and what each rule reads",
                                  epilog=_EPILOGS["explain"])
    explain.add_argument("config", help="the config file (YAML or JSON; - for standard input)")
    _setting_flags(explain)
    explain.add_argument("--format", choices=("text", "json"), default="text", help="text: a report to read (default); json: the same as data")
    explain.add_argument("--kind", choices=[k for k in DOCUMENT_KINDS if k != "request"], default="auto",
                         help="what the file is (default auto: found from its content); each CreateTrainingJob request "
                              "of an orchestration document is explained")
    explain.add_argument("--strict", action="store_true", help=_STRICT_HELP)

    plan = commands.add_parser(
        "plan", help="run a launcher script against a local AWS (moto) and check every training job it starts",
        description="Run SCRIPT as __main__ (ARGS as sys.argv[1:]) against moto's in-process AWS with throw-away "
                    "credentials: nothing reaches AWS. Each CreateTrainingJob, UpdateTrainingJob, "
                    "CreateHyperParameterTuningJob and CreatePipeline/UpdatePipeline (its Training steps) is checked, "
                    "the findings placed at the script's line that started the job. The script's other side effects "
                    "(local files, non-AWS network calls) happen as they would; its output goes to stderr. "
                    "Options go before SCRIPT.",
        epilog=_EPILOGS["plan"])
    plan.add_argument("script", metavar="SCRIPT", help="the launcher (a Python file)")
    plan.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS", help="arguments for the launcher (after --)")
    plan.add_argument("--region",
                      help="the region the launcher runs in "
                           "(default: AWS_REGION, else AWS_DEFAULT_REGION, else us-east-1)")
    plan.add_argument("--max-jobs", type=int, default=100, metavar="N",
                      help="stop the launcher at its job request number N+1 (default 100): a launcher that loops ends")
    plan.add_argument("--timeout", type=float, default=300.0, metavar="SECONDS",
                      help="stop the launcher after this many seconds (default 300; 0: no limit); exit 2")
    plan.add_argument("--format", choices=("text", "json", "github"), default="text",
                      help="text: each job, its Debugger fields and findings, and a summary (default); "
                           "json: one document; github: GitHub Actions annotations")
    _setting_flags(plan, ("framework", "ignore"))
    plan.add_argument("--strict", action="store_true",
                      help="exit 1 on warnings too, and when the launcher starts no job")

    rules = commands.add_parser("rules", help="the built-in rule catalogue")
    rules_commands = rules.add_subparsers(dest="rules_command", metavar="list|show", parser_class=_Parser)
    rules_commands.required = True
    listing = rules_commands.add_parser("list", help="list built-in rules")
    listing.add_argument("--framework", choices=catalogue.FRAMEWORKS)
    listing.add_argument("--kind", choices=catalogue.KINDS)
    listing.add_argument("--format", choices=("text", "json"), default="text")
    show = rules_commands.add_parser("show", help="parameters, defaults and collections of one rule")
    show.add_argument("name")
    show.add_argument("--format", choices=("text", "json"), default="text")

    commands.add_parser("schema", help="print the config-file JSON Schema")

    checks = commands.add_parser("checks", help="list the validation finding codes")
    checks.add_argument("--format", choices=("text", "json"), default="text")
    checks.add_argument("--verbose", action="store_true", help="also the evidence behind each code's severity")

    from_request = commands.add_parser(
        "from-request",
        help="the config file that renders a CreateTrainingJob request",
        description="Print the config file that renders a CreateTrainingJob request; settings given stand in for what the request does not hold.",
        epilog=_EPILOGS["from-request"],
    )
    from_request.add_argument("request", metavar="REQUEST.json", help="a CreateTrainingJob request (or just its Debugger fields)")
    from_request.add_argument("--format", choices=("yaml", "json"), default="yaml", help="the config file's format (default yaml)")
    _setting_flags(from_request, ("region", "job_name", "output_path", "instance_type", "rule_image_uri"))
    from_request.add_argument("--strict", action="store_true", help=_STRICT_HELP)

    status = commands.add_parser("status", help="rule evaluation status of a training job", epilog=_EPILOGS["status"])
    status.add_argument("job_name", metavar="JOB_NAME")
    status.add_argument("--region")

    events = commands.add_parser("events", help="EventBridge helpers")
    events_commands = events.add_subparsers(dest="events_command", metavar="pattern", parser_class=_Parser)
    events_commands.required = True
    pattern = events_commands.add_parser("pattern", help="the event pattern for rules reporting IssuesFound")
    pattern.add_argument("--rule", action="append", help="only these rule names (repeatable)")
    pattern.add_argument("--status", action="append", help="rule statuses to match (default IssuesFound; repeatable)")
    pattern.add_argument("--include-profiler", action="store_true", help="match profiler rule statuses too")
    pattern.add_argument("--job-status", action="append", help="only events with this TrainingJobStatus (repeatable)")
    return parser


def _warning_line(warning: Union[Warning, str]) -> str:
    """A warning as one line, like a finding: ``file:line:col: warning SMD120 /pointer: message``."""
    if isinstance(warning, ConfigWarning):
        return warning.one_line(PROG)
    return f"{PROG}: warning " + " ".join(str(warning).split())


def _strict_fails(args: argparse.Namespace, caught: Sequence[Any]) -> bool:
    """``--strict`` and a warning (not an info) was reported."""
    return bool(getattr(args, "strict", False)) and any(isinstance(w.message, ConfigWarning) and w.message.severity == "warning" for w in caught)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit code (0, 1 or 2)."""
    try:
        args = build_parser().parse_args(argv)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = globals()["cmd_" + args.command.replace("-", "_")](args)  # its output, or its exit code
                sys.stdout.write(result if isinstance(result, str) else "")
                sys.stdout.flush()  # a full disk or closed pipe shows here, not as a traceback at exit
                if isinstance(result, str):  # render, explain, from-request...: --strict fails on what they warned
                    return EXIT_FINDINGS if _strict_fails(args, caught) else EXIT_OK
                return int(result)
            finally:
                for warning in caught:
                    sys.stderr.write(_warning_line(warning.message) + "\n")
    except UsageError as err:  # every command's errors start with the program's name, as validate's do
        text = str(err)
        sys.stderr.write(f"{text if text.startswith(PROG) else PROG + ': ' + text}\n")
        return EXIT_USAGE
    except ConfigError as err:  # the configuration is wrong (unknown key, bad value, failed validation)
        sys.stderr.write(f"{PROG}: " + " ".join(str(err).split()) + "\n")
        return EXIT_FINDINGS
    except BrokenPipeError:
        return EXIT_OK
    except OSError as err:  # e.g. writing the output failed (a full disk: render > /dev/full)
        if sys.stdout is sys.__stdout__:  # drop the unwritten output, or the flush at exit fails (unless embedded)
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - lives until exit
        sys.stderr.write(f"{PROG}: " + " ".join(f"{err.strerror or err}".split()) + "\n")
        return EXIT_FINDINGS
    except KeyboardInterrupt:
        sys.stderr.write(f"{PROG}: interrupted\n")
        return 130
    except SystemExit as err:  # argparse --help / --version
        return int(err.code or 0)
    except Exception as err:  # noqa: BLE001 - the promise is: never a traceback
        sys.stderr.write(f"{PROG}: internal error: {type(err).__name__}: {err} (please report this)\n")
        return 70


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
