"""The oldest end of the dependency range setup.cfg declares (scripts/test_deps_range.sh).

    python scripts/deps_lower_bounds.py setup.cfg      constraints: each install_requires lower bound, pinned
    python scripts/deps_lower_bounds.py --botocore     botocore pinned to the lowest the installed boto3 accepts
    python scripts/deps_lower_bounds.py --check setup.cfg   exit 1 unless the installed versions are those bounds
    python scripts/deps_lower_bounds.py --versions     one line: Python and the runtime dependencies' versions

Standard library only: it runs in a fresh venv before anything is installed.
"""
from __future__ import annotations

import configparser
import re
import sys
from importlib import metadata
from typing import Dict, List

RUNTIME = ("PyYAML", "attrs", "boto3", "botocore")
#: ``name>=bound``, maybe with more specifiers after a comma and an environment marker after a semicolon.
_LOWER = re.compile(r"^\s*([A-Za-z0-9_.-]+)\s*>=\s*([0-9][0-9A-Za-z.]*)\s*(?:,[^;]*)?(;.*)?$")


def lower_bounds(setup_cfg: str) -> Dict[str, str]:
    """``{"PyYAML": "5.4", ...}``: the ``>=`` bound of every install_requires line (each must have one)."""
    parser = configparser.ConfigParser()
    parser.read(setup_cfg, encoding="utf-8")
    bounds: Dict[str, str] = {}
    for line in parser["options"]["install_requires"].strip().splitlines():
        match = _LOWER.match(line)
        if match is None:
            raise SystemExit(f"deps_lower_bounds.py: install_requires line {line.strip()!r} has no '>=' lower bound")
        if match.group(3) is None or _applies(match.group(3)[1:]):
            bounds[match.group(1)] = match.group(2)
    return bounds


def _applies(marker: str) -> bool:
    """Whether an environment marker of the one form install_requires uses (``python_version<"3.11"``) holds
    on this Python; any other marker stops the script (standard library only: no ``packaging`` here)."""
    match = re.match(r"^\s*python_version\s*<\s*[\"']([0-9]+)\.([0-9]+)[\"']\s*$", marker)
    if match is None:
        raise SystemExit(f"deps_lower_bounds.py: marker {marker.strip()!r} is not python_version<\"X.Y\"")
    return sys.version_info[:2] < (int(match.group(1)), int(match.group(2)))


def botocore_lower_bound() -> str:
    """The lowest botocore the installed boto3 declares it works with."""
    for requirement in metadata.requires("boto3") or []:
        match = re.match(r"^botocore\s*\(?\s*([^;)]*)", requirement)
        if match:
            for part in match.group(1).split(","):
                if part.strip().startswith(">="):
                    return part.strip()[2:].strip()
    raise SystemExit("deps_lower_bounds.py: boto3 declares no botocore lower bound")


def _same(installed: str, bound: str) -> bool:
    pad = lambda v: [int(p) for p in re.findall(r"\d+", v)] + [0] * 3  # noqa: E731 - 5.4 == 5.4.0
    return pad(installed)[:4] == pad(bound)[:4]


def main(argv: List[str]) -> int:
    if argv[:1] == ["--botocore"]:
        print(f"botocore=={botocore_lower_bound()}")
    elif argv[:1] == ["--versions"]:
        names = ", ".join(f"{name} {metadata.version(name)}" for name in RUNTIME)
        print(f"Python {sys.version.split()[0]}, {names}")
    elif argv[:1] == ["--check"]:
        wanted = dict(lower_bounds(argv[1]), botocore=botocore_lower_bound())
        wrong = {
            name: metadata.version(name) for name, bound in wanted.items() if not _same(metadata.version(name), bound)
        }
        for name, version in wrong.items():
            print(
                f"deps_lower_bounds.py: {name} {version} installed, the lower bound is {wanted[name]}", file=sys.stderr
            )
        return 1 if wrong else 0
    else:
        for name, bound in lower_bounds(argv[0] if argv else "setup.cfg").items():
            print(f"{name}=={bound}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
