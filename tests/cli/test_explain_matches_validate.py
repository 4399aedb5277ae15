"""``explain`` reports a file's findings as ``validate`` does: for every orchestration document of the fixtures
and every config-file example, the (line, column, code, pointer, message) of each finding are the same, in
explain's JSON report and on its stderr (where each is printed once, as validate prints it; the text report on stdout
does not repeat them).
"""
from __future__ import annotations

import glob
import json
import os
import re
from typing import List, Set, Tuple

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCUMENTS = sorted(glob.glob(os.path.join(ROOT, "tests", "data", "documents", "*.*[ln]")))  # .json, .yaml, .yml
EXAMPLES = sorted(glob.glob(os.path.join(ROOT, "examples", "*.yaml")) + glob.glob(
    os.path.join(ROOT, "examples", "mistakes", "*.yaml")))
FILES = [os.path.relpath(path, ROOT) for path in DOCUMENTS + EXAMPLES]

Row = Tuple[int, int, str, str, str]
# validate's text line: file:line:col: severity CODE /pointer: message (CODE [*] when --fix mends it)
LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<column>\d+): (?P<sev>error|warning|info) (?P<code>SMD\d+) "
                  r"(?:\[\*\] )?(?P<ptr>/\S*): (?P<msg>.*)$")


def _rows(text: str) -> Set[Row]:
    found = set()
    for line in text.splitlines():
        m = LINE.match(line)
        if m:
            found.add((int(m["line"]), int(m["column"]), m["code"], m["ptr"], m["msg"]))
    return found


def _json_rows(findings: List[dict]) -> Set[Row]:
    return {(f["line"], f["column"], f["code"], f["path"], f["message"]) for f in findings}


def _without_the_seeded_mistake(path: str, tmp_path) -> str:
    """A copy of a fixture document with its seeded save_interval mistake mended (the same length: the same places),
    so that explain explains each request instead of refusing it."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        text = f.read()
    mended = re.sub(r'(save_interval\\?"?: ?\\?")(0|-5)(\\?")', lambda m: m[1] + ("7" if m[2] == "0" else "50") + m[3],
                    text)
    assert mended != text
    copy = tmp_path / os.path.basename(path)
    copy.write_text(mended, encoding="utf-8")
    return str(copy)


def test_the_files_are_found():
    assert len(DOCUMENTS) >= 7 and len(EXAMPLES) >= 6, FILES


MENDED = [os.path.relpath(path, ROOT) for path in DOCUMENTS]


@pytest.mark.parametrize("path", MENDED)
def test_explain_explains_a_mended_document_and_reports_validates_findings(cli, tmp_path, path):
    copy = _without_the_seeded_mistake(path, tmp_path)
    test_explain_reports_the_findings_validate_reports(cli, copy)
    explained = json.loads(cli("explain", "--format", "json", copy).stdout)
    assert all(entry["explanation"] is not None for entry in explained), explained


@pytest.mark.parametrize("path", FILES)
def test_explain_reports_the_findings_validate_reports(cli, path):
    validated = cli("validate", "--format", "json", path)
    (result,) = json.loads(validated.stdout)["files"]
    assert "error" not in result and "skipped" not in result, result
    expected = _json_rows(result["findings"])
    assert expected or not path.startswith("tests"), "each document has its seeded mistake"

    report = cli("explain", "--format", "json", path)
    assert report.returncode == validated.returncode, report.stderr
    data = json.loads(report.stdout)
    if isinstance(data, list):  # an orchestration document: one entry per request
        got = _json_rows([f for entry in data for f in entry["findings"]])
    else:
        got = _json_rows(data["findings"])
    assert got == expected
    assert _rows(report.stderr) == expected  # each printed as validate prints it, once
    assert len(report.stderr.splitlines()) == len(expected), report.stderr

    text = cli("explain", path)  # each finding once: on stderr, not again in the report on stdout
    assert _rows(text.stderr) == expected and len(text.stderr.splitlines()) == len(expected), text.stderr
    assert not _rows("\n".join(line.strip() for line in text.stdout.splitlines()))
    assert _rows(cli("validate", path).stdout) == expected
