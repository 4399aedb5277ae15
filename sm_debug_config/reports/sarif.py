"""``--format sarif``: findings as one SARIF 2.1.0 log, the format GitHub code scanning and editors read.

One run, whose driver lists every declared check (``sm-debug-config checks``) as a rule: its
description, the evidence for its severity, its page (:attr:`~sm_debug_config.findings.Check.url`)
and its level. Every declared code rather than those found: a rule's index is then the same in
every log, and code scanning's tool status lists every check that ran, also those that found nothing.

The choices, in the order the code applies them:

- A result per finding: its code, level, ``pointer: message``, and its place: the file's path relative
  to the repository root (:func:`repository_root`) under ``%SRCROOT%``, the 1-based line and column our
  findings carry (columns count characters: ``columnKind`` is ``unicodeCodePoints``). A finding with
  no position (a notebook cell's, whose line counts in the cell) has a location without a region.
- Suppressed findings (``--ignore``, ``# sm-debug-config: ignore``) are left out and counted in the
  run's ``properties``: code scanning does not honour SARIF's ``suppressions`` (it would open an
  alert for each).
- A file that cannot be read is a result of SMD003 (code scanning shows results, not notifications) and
  a notification of the invocation, whose ``executionSuccessful`` is false when the exit code is 2.
- A finding with a fix whose edits are in the file carries it as the result's ``fixes`` (SARIF's proposed
  fix: ``artifactChanges`` with ``replacements``), safe or unsafe (``properties.applicability``).
- ``partialFingerprints``: a hash of the code, file, pointer and message, without the line, so that an
  alert follows its finding when lines move; the n-th equal finding of a file gets ``:n``.
- No time, host or command line: the log of the same files is the same bytes, run after run.

>>> from sm_debug_config.findings import CHECKS
>>> from sm_debug_config.reports.report import FileReport, Report
>>> finding = CHECKS["SMD120"].at(("DebugRuleConfigurations", 0), "unknown parameter 'threshhold'")
>>> log = sarif_log(Report([FileReport("job.yaml", [finding.replace(line=3, column=5)])]), exit_code=0, root=".")
>>> result = log["runs"][0]["results"][0]
>>> result["ruleId"], result["level"], result["locations"][0]["physicalLocation"]["region"]
('SMD120', 'warning', {'startLine': 3, 'startColumn': 5})
"""
from __future__ import annotations

import os
import pathlib
import urllib.parse
from typing import IO, Any, Dict, List, Optional

from sm_debug_config.errors import ERROR, INFO, WARNING
from sm_debug_config.findings import CHECKS, Finding, project_url
from sm_debug_config.reports.jsonout import dumps
from sm_debug_config.reports.report import Options, Report
from sm_debug_config.validation import list_checks
from sm_debug_config.validation.registry import SMD003

__all__ = ["SCHEMA_URI", "repository_root", "sarif_log", "write"]

#: The ``$schema`` of the log: the OASIS schema of SARIF 2.1.0 with its errata (tests/data/sarif holds a copy).
SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
#: The base the files' URIs are relative to; ``originalUriBaseIds`` says where it was.
SRCROOT = "%SRCROOT%"
#: The key of our ``partialFingerprints`` (versioned: a change of what is hashed is a new key, not churn).
FINGERPRINT = "smDebugConfigFinding/v1"
#: What a check's page holds (the rules' ``help``; the evidence for the severity is their ``fullDescription``).
_HELP = "What it catches, why, a bad and a fixed example, and how to suppress it"
#: The SARIF level of each severity.
LEVELS = {ERROR: "error", WARNING: "warning", INFO: "note"}


def repository_root(cwd: Optional[str] = None) -> str:
    """The git work tree ``cwd`` (default: the current directory) is in (a ``.git`` directory, or file for a
    worktree, in it or a parent), else ``cwd`` itself: what the files' URIs are relative to, as code scanning's
    checkout is."""
    start = os.path.abspath(cwd or os.getcwd())
    folder = start
    while True:
        if os.path.exists(os.path.join(folder, ".git")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return start
        folder = parent


def _artifact(file: str, root: str) -> Optional[Dict[str, Any]]:
    """``file``'s ``artifactLocation``: relative to ``root`` (``%SRCROOT%``), or an absolute ``file:`` URI when it
    is outside; None for standard input (``-``)."""
    if file == "-":
        return None
    path = os.path.abspath(file)
    try:
        relative = os.path.relpath(path, root)
    except ValueError:  # another drive (Windows)
        relative = path
    if relative == os.pardir or relative.startswith(os.pardir + os.sep) or os.path.isabs(relative):
        return {"uri": pathlib.Path(path).as_uri()}
    return {"uri": urllib.parse.quote(relative.replace(os.sep, "/")), "uriBaseId": SRCROOT}


def _location(file: str, root: str, line: Optional[int], column: Optional[int]) -> Optional[Dict[str, Any]]:
    """A ``location`` in ``file``, with a region when ``line`` is known (and ``startColumn`` when ``column`` is)."""
    artifact = _artifact(file, root)
    if artifact is None:
        return None
    physical: Dict[str, Any] = {"artifactLocation": artifact}
    if isinstance(line, int) and line >= 1:
        physical["region"] = {"startLine": line}
        if isinstance(column, int) and column >= 1:
            physical["region"]["startColumn"] = column
    return {"physicalLocation": physical}


def _rules() -> List[Dict[str, Any]]:
    """A ``reportingDescriptor`` for every declared check, by code."""
    rules = []
    for row in list_checks(verbose=True):
        url = CHECKS[row["code"]].url
        rules.append({
            "id": row["code"],
            "shortDescription": {"text": row["description"]},
            "fullDescription": {"text": row["evidence"]},
            "help": {"text": f"{_HELP}: {url}", "markdown": f"{_HELP}: [{row['code']}]({url})."},
            "helpUri": url,
            "defaultConfiguration": {"level": LEVELS[row["severity"]]},
        })
    return rules


def _fingerprint(code: str, artifact: Optional[Dict[str, Any]], pointer: str, message: str) -> str:
    import hashlib  # loads OpenSSL (a few ms): paid by --format sarif only, not by every command's start

    parts = (code, artifact["uri"] if artifact else "-", pointer, message)
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:32]


def _text(finding: Finding, cell: Optional[int]) -> str:
    """The result's message: ``/pointer: message`` as text output writes it, with the place in a notebook cell."""
    text = f"{finding.pointer}: {finding.message}" if finding.pointer else finding.message
    if cell is not None:
        text += f" (cell {cell}" + "".join(
            f", {name} {n}" for name, n in (("line", finding.line), ("column", finding.column)) if n
        ) + ")"
    return text


def _fixes(finding: Finding, file: str, root: str, text: Optional[str]) -> Optional[List[Dict[str, Any]]]:
    """The result's ``fixes``: its fix as one ``artifactChange`` of the file, each edit a ``replacement`` of the
    region it deletes (1-based lines and columns in characters; the end column is the one after the region) by the
    content it inserts. None without a fix whose edits are in the file's ``text`` (a notebook cell's edits count in
    the cell: SARIF regions count in the file)."""
    fix = finding.fix
    artifact = _artifact(file, root)
    if fix is None or not fix.edits or text is None or artifact is None or any(e.cell is not None for e in fix.edits):
        return None
    replacements = []
    for edit in fix.edits:
        placed = edit.to_dict(text)
        start, end = placed["location"], placed["end_location"]
        replacements.append({
            "deletedRegion": {"startLine": start["line"], "startColumn": start["column"],
                              "endLine": end["line"], "endColumn": end["column"]},
            "insertedContent": {"text": edit.content},
        })
    return [{"description": {"text": fix.title}, "artifactChanges": [
        {"artifactLocation": artifact, "replacements": replacements}], "properties": {
        "applicability": fix.applicability}}]


def sarif_log(report: Report, *, exit_code: int, succeeded: bool = True, root: Optional[str] = None,
              program: str = "sm-debug-config", version: str = "") -> Dict[str, Any]:
    """The SARIF log of ``report``: its findings, its unreadable files (each a result of SMD003) and its notices
    about the run; the command's ``exit_code`` and whether it ``succeeded``; URIs relative to ``root`` (default:
    :func:`repository_root`); ``program`` and ``version``: the tool's."""
    root = os.path.abspath(root if root is not None else repository_root())
    rules = _rules()
    index = {rule["id"]: number for number, rule in enumerate(rules)}
    results: List[Dict[str, Any]] = []
    seen: Dict[str, int] = {}

    def add(
        code: str, level: str, text: str, file: str, pointer: str, line: Optional[int], column: Optional[int],
        fixes: Optional[List[Dict[str, Any]]] = None,
    ) -> None:
        if code not in index:  # not declared (never so far): a rule of its code alone, so that the log stays valid
            index[code] = len(rules)
            rules.append({"id": code, "shortDescription": {"text": code}})
        location = _location(file, root, line, column)
        digest = _fingerprint(code, location and location["physicalLocation"]["artifactLocation"], pointer, text)
        seen[digest] = seen.get(digest, 0) + 1
        result: Dict[str, Any] = {"ruleId": code, "ruleIndex": index[code], "level": level, "message": {"text": text}}
        if location is not None:
            result["locations"] = [location]
        result["partialFingerprints"] = {FINGERPRINT: f"{digest}:{seen[digest]}"}
        if fixes:
            result["fixes"] = fixes
        results.append(result)

    for file in report.files:
        texts = dict(file.texts)
        for placed in file.findings:
            finding, cell = placed.finding, placed.cell
            line, column = (None, None) if cell is not None else (finding.line, finding.column)
            add(finding.code, LEVELS[finding.severity], _text(finding, cell), file.path, finding.pointer, line, column,
                _fixes(finding, file.path, root, texts.get(None)))
    unreadable = [(file.path, file.error) for file in report.unreadable if file.error is not None]
    for path, error in unreadable:
        add(SMD003.code, LEVELS[SMD003.severity], error.message, path, "", error.line, error.column)
    notifications = []

    def notify(level: str, message: str, file: Optional[str], line: Optional[int], column: Optional[int],
               rule: Optional[str] = None) -> None:
        notification: Dict[str, Any] = {"level": level, "message": {"text": message}}
        location = _location(file, root, line, column) if file else None
        if location is not None:
            notification["locations"] = [location]
        if rule is not None:
            notification["associatedRule"] = {"id": rule, "index": index[rule]}
        notifications.append(notification)

    for path, error in unreadable:
        notify(LEVELS[ERROR], error.message, path, error.line, error.column, SMD003.code)
    for notice in report.notices:
        notify(notice.level, notice.message, notice.file, notice.line, notice.column)
    for file in report.files:  # never a clean log for what was not looked at
        if file.not_checked:
            notify("note", f"{file.not_checked} value{'s' if file.not_checked != 1 else ''} computed at run time "
                   "not checked", file.path, None, None)
    invocation: Dict[str, Any] = {"executionSuccessful": succeeded, "exitCode": exit_code}
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    driver = {"name": program, "version": version, "informationUri": project_url(), "rules": rules}
    run: Dict[str, Any] = {
        "tool": {"driver": driver},
        "invocations": [invocation],
        "originalUriBaseIds": {SRCROOT: {"uri": pathlib.Path(root).as_uri().rstrip("/") + "/"}},
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    counts = {"suppressed": report.summary.suppressed, "notChecked": report.summary.not_checked}
    if any(counts.values()):
        run["properties"] = {key: count for key, count in counts.items() if count}
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def write(report: Report, out: IO[str], err: IO[str], options: Options) -> None:
    """:func:`sarif_log` as the CLI writes JSON (indented, UTF-8, a final newline)."""
    out.write(dumps(sarif_log(report, exit_code=options.exit_code, succeeded=options.succeeded,
                              program=options.program, version=options.version)))
