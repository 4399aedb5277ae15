"""Helpers shared by the sources' tests: a file's findings as validate places them, and the file fixed as --fix
fixes it."""
from __future__ import annotations

from sm_debug_config.configfile import read_text
from sm_debug_config.engine import check
from sm_debug_config.fixes import apply_edits, applicable
from sm_debug_config.sources import detect

OPTIONS = {"region": "us-east-1"}
DEFAULTS = {"output_path": "s3://output-path-set-at-submit/"}  # as validate renders a config without one


def findings_of(text, name):
    """The file read as validate reads it, and every finding the engine places in it."""
    found = read_text(text, name)
    source = detect(found.document)
    jobs = source.jobs(found, {})
    return found, [f for job in jobs for f in check(job, OPTIONS, defaults=DEFAULTS).findings]


def fixed(text, name, unsafe=True):
    """``text`` with every fix applied, pass after pass as ``--fix`` does, until no fix is left to apply."""
    for _ in range(10):
        found, findings = findings_of(text, name)
        text, count = apply_edits(found.text, [f.fix.edits for f in findings if applicable(f.fix, unsafe=unsafe)])
        if count == 0:
            return text
    raise AssertionError("the fixes did not converge")
