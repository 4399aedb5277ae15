#!/usr/bin/env python3
"""Write the text output of every check's bad case to ``tests/snapshots/<CODE>.txt``, as ruff keeps a snapshot of
each rule's fixture: what a user sees (the place, severity, code, pointer, message, the source line and its carets,
the summary), so that a change of any of them shows in review.

Each code's case is its paired case in the tests (``tests/checkpairs.py``): a request (``request.json``, checked
with ``validate`` and the flags of its options), a config file (``job.yaml``, ``validate``), a Python source
(``launch.py``, ``lint``). Each is written into an empty
folder and checked there by ``python -m sm_debug_config``, with no AWS region in the environment and no colour
(the test runs the same command line in its own process). :data:`SKIPPED` says which codes have no snapshot, and
why.

Usage::

    python scripts/update_snapshots.py            # rewrite them all (and delete the snapshot of a code that is gone)
    python scripts/update_snapshots.py --check    # exit 1 if any is out of date

``tests/reports/test_snapshots.py`` fails until all are current.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
from tests.checkpairs import examples  # noqa: E402  (the repository's tests, from the root)

SNAPSHOTS = os.path.join(ROOT, "tests", "snapshots")
COMMAND = "python scripts/update_snapshots.py"
PROG = "sm-debug-config"
#: How a command line is run in a folder: ``(exit code, stdout, stderr)``.
Runner = Callable[[List[str], str], Tuple[int, str, str]]

#: Codes with no snapshot, and why.
SKIPPED = {
    "SMD003": "text output names no code for a file that cannot be read (SMD003 is SARIF's; tests/cli/test_sarif.py), "
              "and its message is the YAML parser's own wording",
    "SMD122": "its case is checked with validate(request, passthrough=...), an option with no command-line flag",
    "SMD190": "plan's only: its case runs a launcher under moto (seconds; tests/operations/test_plan.py prints it)",
}
#: The environment variables that would change the output: the region validate defaults to, colour.
ENVIRONMENT = ("AWS_REGION", "AWS_DEFAULT_REGION", "FORCE_COLOR", "NO_COLOR")
#: The command and the file of each kind of case (the names the pages under docs/checks use).
_COMMANDS = {"request": ("validate", "request.json"), "config": ("validate", "job.yaml"),
             "document": ("validate", "manifest.yaml"),
             "python": ("lint", "launch.py")}
#: The command-line flag of each option a request case may be checked with.
_FLAGS = {"framework": "--framework", "region": "--region", "framework_version": "--framework-version",
          "image_uri": "--image-uri"}


def argv_of(example: Mapping[str, Any]) -> Optional[List[str]]:
    """The command line that checks ``example``'s bad case, or None when an option has no flag."""
    command, name = _COMMANDS[example["kind"]]
    options = dict(example.get("bad_options") or {})
    argv = [command]
    if options.pop("verbose", False):
        argv.append("--verbose")
    argv.append(name)
    for option, value in options.items():
        if option not in _FLAGS:
            return None
        argv += [_FLAGS[option], str(value)]
    return argv


def _input_text(example: Mapping[str, Any]) -> str:
    bad = example["bad"]
    return json.dumps(bad, indent=2) + "\n" if example["kind"] == "request" else str(bad)


def in_a_process(argv: List[str], folder: str) -> Tuple[int, str, str]:
    """``sm-debug-config ARGV`` of this checkout, run in ``folder`` without :data:`ENVIRONMENT`."""
    env = {name: value for name, value in os.environ.items() if name not in ENVIRONMENT}
    env["PYTHONPATH"] = ROOT
    done = subprocess.run([sys.executable, "-m", "sm_debug_config", *argv], cwd=folder, env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=120)
    return done.returncode, done.stdout, done.stderr


def snapshot(code: str, example: Mapping[str, Any], run: Runner = in_a_process) -> str:
    """The text output of ``example``'s bad case: the command line, its standard output, its standard error (when it
    wrote any) and its exit code, as ``run`` runs it in a folder that holds the file alone (the file is named as a
    user names it, relative to the current folder)."""
    argv = argv_of(example)
    if argv is None:
        raise ValueError(f"{code}: its case has an option with no flag; list it in SKIPPED")
    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, _COMMANDS[example["kind"]][1]), "w", encoding="utf-8") as handle:
            handle.write(_input_text(example))
        exit_code, out, err = run(argv, folder)
    text = f"$ {PROG} {' '.join(argv)}\n{out}"
    if err:
        text += f"--- stderr\n{err}"
    return text + f"--- exit {exit_code}\n"


def snapshots() -> Dict[str, str]:
    """Every code's snapshot but :data:`SKIPPED`'s, by code."""
    return {code: snapshot(code, example) for code, example in examples().items() if code not in SKIPPED}


def path_of(code: str) -> str:
    return os.path.join(SNAPSHOTS, f"{code}.txt")


def stale(current: Mapping[str, str]) -> List[str]:
    """The snapshots that differ from ``current`` (or are missing), and those of codes that have none any more."""
    found = []
    for code, text in current.items():
        try:
            with open(path_of(code), encoding="utf-8") as handle:
                if handle.read() == text:
                    continue
        except FileNotFoundError:
            pass
        found.append(path_of(code))
    gone = sorted(set(os.listdir(SNAPSHOTS)) - {f"{code}.txt" for code in current}) if os.path.isdir(SNAPSHOTS) else []
    return found + [os.path.join(SNAPSHOTS, name) for name in gone]


def main_(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a snapshot is out of date")
    args = parser.parse_args(argv)
    current = snapshots()
    out_of_date = stale(current)
    if args.check:
        for path in out_of_date:
            print(f"out of date: {os.path.relpath(path, ROOT)} (run: {COMMAND})", file=sys.stderr)
        return 1 if out_of_date else 0
    os.makedirs(SNAPSHOTS, exist_ok=True)
    for path in out_of_date:
        code = os.path.basename(path)[: -len(".txt")]
        if code in current:
            with open(path, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(current[code])
        else:
            os.remove(path)
        print(f"wrote {os.path.relpath(path, ROOT)}" if code in current else f"deleted {os.path.relpath(path, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main_())
