#!/usr/bin/env python3
"""Refresh the smdebug-in-image column of ``sm_debug_config/data/containers.json`` from aws/deep-learning-containers.

Each framework row of the table cites the Dockerfile (or lock file) lines it rests on, at a
commit of aws/deep-learning-containers. This script re-reads those files in a local clone and
says, per row, whether the evidence still holds: the cited line still says what the table
quotes, and the smdebug version it installs is the row's ``smdebug`` (a file the table cites as
installing no smdebug still installs none).

Usage::

    python scripts/refresh_containers.py CLONE --check            # exit 1 if a row's evidence moved
    python scripts/refresh_containers.py CLONE --ref origin/master # re-read the cited files at another commit
    python scripts/refresh_containers.py CLONE --ref REF --write   # ... and rewrite the column, lines and commits

``CLONE`` is a git directory (a bare mirror) or a work tree. Rows whose evidence is elsewhere
(the XGBoost container, legacy images) are listed as not checked. ``hook_runs`` is not rewritten:
when a row's smdebug changes, the script says so and ``tests/model/test_images.py`` then fails until
the row agrees with smdebug's version check again.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from typing import Any, Dict, List, Optional, Tuple

REPO = "aws/deep-learning-containers"
DATA = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "sm_debug_config", "data", "containers.json"
)
# how a Dockerfile or lock file says which smdebug it installs
_INSTALL_RES = (
    re.compile(r"^ARG SMDEBUG_(?:VERSION|TAG)=(\S+)"),
    re.compile(r"\bsmdebug==([\w.]+)"),
    re.compile(r"sagemaker-debugger\.git@v?([\w.]+)"),
)
# mentions that are not an install: the rules-config package and comments
_NOT_INSTALL_RE = re.compile(r"smdebug[-_]rulesconfig|^\s*#")


def _git(clone: str, *args: str) -> Optional[str]:
    """stdout of a git command in ``clone`` (bare or work tree); None when it fails (missing file, unknown ref)."""
    where = ["--git-dir", clone] if os.path.isdir(os.path.join(clone, "objects")) else ["-C", clone]
    done = subprocess.run(["git", *where, *args], capture_output=True, text=True)
    return done.stdout if done.returncode == 0 else None


def installed_smdebug(text: str) -> Tuple[Optional[str], Optional[int]]:
    """The smdebug version a Dockerfile installs and the 1-based line saying so; (None, None) if it installs none.

    >>> installed_smdebug("FROM x\\nARG SMDEBUG_TAG=1.0.33\\n")
    ('1.0.33', 2)
    >>> installed_smdebug("    { name = \\"smdebug-rulesconfig\\" },\\n")
    (None, None)
    """
    for number, line in enumerate(text.splitlines(), 1):
        if _NOT_INSTALL_RE.search(line):
            continue
        for pattern in _INSTALL_RES:
            match = pattern.search(line.strip())
            if match:
                return match.group(1), number
    return None, None


def check_row(clone: str, row: Dict[str, Any], ref: Optional[str]) -> Tuple[str, List[str]]:
    """("ok" | "moved" | "not checked", messages) for one row, re-reading its aws/deep-learning-containers sources."""
    messages: List[str] = []
    cited = [s for s in row["sources"] if s.get("repo") == REPO and "path" in s]
    if "same_as" in row:
        return "not checked", [f"built FROM the {row['same_as']} image: its rows hold the evidence"]
    if not cited:
        return "not checked", ["no aws/deep-learning-containers file cited"]
    state = "ok"
    for source in cited:
        commit = ref or source["commit"]
        text = _git(clone, "show", f"{commit}:{source['path']}")
        if text is None:
            if ref:  # retired images' files go away: the evidence stays at the cited commit
                messages.append(f"{source['path']}: gone at {ref}, kept at {source['commit'][:12]}")
            else:
                messages.append(f"{source['path']}: not found at {commit}")
                state = "moved"
            continue
        lines = text.splitlines()
        if "line" in source and not ref:
            quoted = lines[source["line"] - 1].strip() if source["line"] <= len(lines) else ""
            if quoted != source["says"]:
                messages.append(
                    f"{source['path']}#L{source['line']}: now says {quoted!r}, the table quotes {source['says']!r}"
                )
                state = "moved"
        version, number = installed_smdebug(text)
        if source.get("says") == "installs no smdebug" and version is not None:
            messages.append(f"{source['path']}: now installs smdebug {version} (line {number})")
            state = "moved"
        elif (
            source is cited[0]
            and source.get("says") != "installs no smdebug"
            and version != _first_version(source, row)
        ):
            messages.append(f"{source['path']}: installs smdebug {version}, the row says {row['smdebug']}")
            state = "moved"
    return state, messages


def _first_version(source: Dict[str, Any], row: Dict[str, Any]) -> Optional[str]:
    """The version the cited line itself installs (the row may name another, e.g. a build from master)."""
    version, _ = installed_smdebug(source.get("says", ""))
    return version or row["smdebug"]


def rewrite(clone: str, table: Dict[str, Any], ref: str) -> int:
    """Point the rows' aws/deep-learning-containers sources at ``ref``; returns how many rows changed smdebug.

    An install line is re-read (the version and its line may move); any other quoted line
    (a FROM line, a lock-file entry) is looked up verbatim and keeps its old commit if gone.
    """
    commit = (_git(clone, "rev-parse", ref + "^{commit}") or "").strip()
    if not commit:
        raise SystemExit(f"unknown ref {ref!r} in {clone}")
    changed = 0
    for row in table["rows"]:
        cited = [s for s in row["sources"] if s.get("repo") == REPO and "path" in s]
        for index, source in enumerate(cited):
            text = _git(clone, "show", f"{commit}:{source['path']}")
            if text is None:
                continue  # the file is gone at ref: keep the older evidence
            about_install = (
                source.get("says") == "installs no smdebug" or installed_smdebug(source.get("says", ""))[0] is not None
            )
            if not about_install:
                quoted = [n for n, line in enumerate(text.splitlines(), 1) if line.strip() == source.get("says")]
                if quoted:
                    source.update(commit=commit, line=quoted[0])
                continue
            version, number = installed_smdebug(text)
            source["commit"] = commit
            if version is None or number is None:
                source.pop("line", None)
                source["says"] = "installs no smdebug"
            else:
                source.update(line=number, says=text.splitlines()[number - 1].strip())
            if index == 0 and "same_as" not in row and version != row["smdebug"]:
                print(f"{row['line']} {row['versions']}: smdebug {row['smdebug']} -> {version}; check hook_runs")
                row["smdebug"] = version
                changed += 1
    return changed


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("clone", help="a clone of aws/deep-learning-containers (git directory or work tree)")
    parser.add_argument("--ref", help="re-read the cited files at this commit instead of the cited ones")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="exit 1 if any row's evidence moved")
    mode.add_argument("--write", action="store_true", help="with --ref: rewrite the smdebug column and the sources")
    args = parser.parse_args(argv)
    with open(DATA, encoding="utf-8") as handle:
        table = json.load(handle)
    if args.write:
        if not args.ref:
            parser.error("--write needs --ref")
        changed = rewrite(args.clone, table, args.ref)
        with open(DATA, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(table, indent=1, ensure_ascii=False) + "\n")
        print(f"rewrote {DATA}: {changed} row(s) changed smdebug")
        return 0
    moved = 0
    for row in table["rows"]:
        state, messages = check_row(args.clone, row, args.ref)
        moved += state == "moved"
        print(f"{state:12} {row['line']} {row['versions']['min']}..{row['versions']['max'] or ''}")
        for message in messages:
            print("             " + message)
    return 1 if args.check and moved else 0


if __name__ == "__main__":
    sys.exit(main())
