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
- ``partialFingerprints``: a hash of the code, file, pointer and message, without the line, so that an
  alert follows its finding when lines move; the n-th equal finding of a file gets ``:n``.
- No time, host or command line: the log of the same files is the same bytes, run after run.

>>> from sm_debug_config.findings import CHECKS
>>> finding = CHECKS["SMD120"].at(("DebugRuleConfigurations", 0), "unknown parameter 'threshhold'")
>>> log = sarif_log([Located("job.yaml", finding.replace(line=3, column=5))], exit_code=0, root=".")
>>> result = log["runs"][0]["results"][0]
>>> result["ruleId"], result["level"], result["locations"][0]["physicalLocation"]["region"]
('SMD120', 'warning', {'startLine': 3, 'startColumn': 5})
"""
from __future__ import annotations

import os
import pathlib
import urllib.parse
from typing import Any, Dict, Iterable, List, Optional, Sequence

import attrs

from sm_debug_config import __version__
from sm_debug_config.cli.common import EXIT_USAGE, PROG, dumps
from sm_debug_config.errors import ERROR, INFO, WARNING
from sm_debug_config.findings import CHECKS, Finding, project_url
from sm_debug_config.validation import list_checks
from sm_debug_config.validation.registry import SMD003

__all__ = ["Located", "Notice", "SCHEMA_URI", "repository_root", "sarif_log", "sarif_text"]

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


@attrs.frozen
class Located:
    """A finding of ``file`` (``cell``: the notebook code cell its line and column count in, else None)."""

    file: str
    finding: Finding
    cell: Optional[int] = None


@attrs.frozen
class Notice:
    """Something about the run rather than a finding: an unreadable file, how a launcher ended (``level`` is a
    SARIF level: error, warning or note), at ``file`` (None: the run's) ``line``, ``column`` when known."""

    level: str = attrs.field(validator=attrs.validators.in_(("error", "warning", "note")))
    message: str
    file: Optional[str] = None
    line: Optional[int] = None
    column: Optional[int] = None


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


def sarif_log(
    located: Iterable[Located],
    *,
    unreadable: Sequence[Notice] = (),
    notices: Sequence[Notice] = (),
    exit_code: int,
    suppressed: int = 0,
    root: Optional[str] = None,
) -> Dict[str, Any]:
    """The SARIF log of ``located`` findings and ``unreadable`` files (each a result of SMD003), with ``notices``
    about the run, the command's ``exit_code`` and how many findings were ``suppressed``; URIs relative to
    ``root`` (default: :func:`repository_root`)."""
    root = os.path.abspath(root if root is not None else repository_root())
    rules = _rules()
    index = {rule["id"]: number for number, rule in enumerate(rules)}
    results: List[Dict[str, Any]] = []
    seen: Dict[str, int] = {}

    def add(
        code: str, level: str, text: str, file: str, pointer: str, line: Optional[int], column: Optional[int]
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
        results.append(result)

    for item in located:
        finding, cell = item.finding, item.cell
        line, column = (None, None) if cell is not None else (finding.line, finding.column)
        add(finding.code, LEVELS[finding.severity], _text(finding, cell), item.file, finding.pointer, line, column)
    for notice in unreadable:
        add(SMD003.code, LEVELS[SMD003.severity], notice.message, notice.file or "-", "", notice.line, notice.column)
    notifications = []
    for notice, rule in [(n, SMD003.code) for n in unreadable] + [(n, None) for n in notices]:
        notification: Dict[str, Any] = {"level": notice.level, "message": {"text": notice.message}}
        location = _location(notice.file, root, notice.line, notice.column) if notice.file else None
        if location is not None:
            notification["locations"] = [location]
        if rule is not None:
            notification["associatedRule"] = {"id": rule, "index": index[rule]}
        notifications.append(notification)
    invocation: Dict[str, Any] = {"executionSuccessful": exit_code != EXIT_USAGE, "exitCode": exit_code}
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    driver = {"name": PROG, "version": __version__, "informationUri": project_url(), "rules": rules}
    run: Dict[str, Any] = {
        "tool": {"driver": driver},
        "invocations": [invocation],
        "originalUriBaseIds": {SRCROOT: {"uri": pathlib.Path(root).as_uri().rstrip("/") + "/"}},
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    if suppressed:
        run["properties"] = {"suppressed": suppressed}
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def sarif_text(located: Iterable[Located], **options: Any) -> str:
    """:func:`sarif_log` as the CLI writes JSON (indented, UTF-8, a final newline)."""
    return dumps(sarif_log(located, **options))
