"""Every check's printed text output (its paired case's bad side: place, severity, code, pointer, message, source line
and carets, summary) against its snapshot in tests/snapshots/<CODE>.txt, which scripts/update_snapshots.py writes."""
from __future__ import annotations

import os
import sys

import pytest

from sm_debug_config.cli import main
from sm_debug_config.findings import CHECKS
from tests.checkpairs import examples
from tests.repo_scripts import load_script

snapshots = load_script("update_snapshots")
EXAMPLES = examples()
REGENERATE = f"out of date; run: {snapshots.COMMAND}"


@pytest.fixture
def run(monkeypatch, capsys):
    """The script's command line, run here (a process each would take a minute): in the file's folder, without the
    environment that changes the output (the region validate defaults to, colour)."""
    for name in snapshots.ENVIRONMENT:
        monkeypatch.delenv(name, raising=False)

    def in_this_process(argv, folder):
        with monkeypatch.context() as here:
            here.chdir(folder)
            capsys.readouterr()
            code = main(list(argv))
            out, err = capsys.readouterr()
        return code, out, err

    return in_this_process


def test_every_code_has_a_snapshot_or_says_why_not():
    assert set(snapshots.SKIPPED) < set(CHECKS) and all(len(why) > 20 for why in snapshots.SKIPPED.values())
    present = {name[: -len(".txt")] for name in os.listdir(snapshots.SNAPSHOTS)}
    assert present == set(CHECKS) - set(snapshots.SKIPPED), REGENERATE


#: Snapshots whose text holds what Python itself writes: SMD140 the parser's own message about the container's
#: metric-config string, SMD181 the user's expression as ``ast.unparse`` writes it (3.8 has none). They are compared
#: on the Python the snapshots are written with (``scripts/test.sh``'s, :data:`WRITTEN_WITH`) only.
QUOTES_PYTHON = ("SMD140", "SMD181")
WRITTEN_WITH = (3, 11)


@pytest.mark.parametrize("code", sorted(set(EXAMPLES) - set(snapshots.SKIPPED)))
def test_the_printed_output_matches_its_snapshot(run, code):
    if code in QUOTES_PYTHON and sys.version_info[:2] != WRITTEN_WITH:
        pytest.skip(f"{code}'s text holds Python's own wording, which differs from Python {WRITTEN_WITH}'s here")
    printed = snapshots.snapshot(code, EXAMPLES[code], run)
    with open(snapshots.path_of(code), encoding="utf-8") as handle:
        assert printed == handle.read(), f"{code}: {REGENERATE}"
    assert f" {code} " in printed, "the snapshot shows the code"


def test_a_changed_output_is_reported_stale_with_the_command(run):
    code = "SMD132"
    current = {code: snapshots.snapshot(code, EXAMPLES[code], run).replace("save_interval", "save_intervals")}
    assert snapshots.path_of(code) in snapshots.stale(current)
