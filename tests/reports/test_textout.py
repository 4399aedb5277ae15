"""Text output: the source line and carets under a finding (tabs, wide characters, long lines), and colour."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest

from sm_debug_config.reports.textout import WIDTH, SourceFile, colour, excerpt, paint

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _carets(text: str, line: int, column: int) -> tuple:
    shown, under = excerpt(text, line, column).splitlines()
    return shown, under


@pytest.mark.parametrize(
    "text, column, at, width",
    [
        ("      threshhold: 0.0000001", 7, 7, 10),  # a YAML key: up to its ": "
        ('    rules: {"threshhold": "0.1"}', 13, 13, 12),  # a quoted key, quotes included
        ("output_path: s3://bucket/x, y", 14, 14, 13),  # a ":" inside a value is not the key's
        ('x = "a \\" b"', 5, 5, 8),  # an escaped quote stays inside the string
        ("f(a=1)", 3, 3, 1),  # a name ends at "="
        ("short", 9, 6, 1),  # past the line's end: a caret after it
    ],
)
def test_the_carets_underline_the_token_at_the_column(text, column, at, width):
    shown, under = _carets(text, 7, column)
    assert shown == f"  7 | {text}"
    assert under == "    | " + " " * (at - 1) + "^" * width


def test_tabs_and_wide_characters_keep_the_carets_under_the_value():
    # a tab advances to the next stop of 4; 名前 takes two cells a character; a combining accent none
    text = '\t{"名前": 1,\tthreshhold: 0.1, "e\u0301": 2}'
    shown, under = _carets(text, 3, text.index("threshhold") + 1)
    assert shown == '  3 |     {"名前": 1, threshhold: 0.1, "e\u0301": 2}'
    assert under.index("^") == shown.index("threshhold") + 2  # two more cells: the two wide characters
    assert under.count("^") == len("threshhold")
    shown, under = _carets('"é": 1', 3, 1)
    assert under.endswith(" ^^^")


def test_controls_and_bidi_overrides_are_not_written_to_the_terminal():
    shown, under = _carets("a: \x1b[31mred\u202e\x07", 1, 4)
    assert "\x1b" not in shown and "\u202e" not in shown and "\x07" not in shown
    assert shown == "  1 | a: \ufffd[31mred\ufffd\ufffd" and under == "    |    ^"


def test_a_long_line_is_cut_around_the_column():
    text = json.dumps({"pad": "x" * 5000, "threshhold": "1", "tail": "y" * 5000})
    column = text.index('"threshhold"') + 1
    shown, under = _carets(text, 1, column)
    body, marks = shown[len("  1 | "):], under[len("    | "):]
    assert len(body) <= WIDTH and body.startswith("\u2026") and body.endswith("\u2026")
    assert body[marks.index("^"):].startswith('"threshhold"') and marks.count("^") == len('"threshhold"')
    near_start = text[:300]
    shown, under = _carets(near_start, 1, 2)
    assert shown[len("  1 | "):].startswith('{"pad"') and shown.endswith("\u2026") and under == "    |  ^^^^^"


def test_a_line_with_no_column_has_no_carets_and_an_unknown_line_no_excerpt(tmp_path):
    path = tmp_path / "job.yaml"
    path.write_bytes(b"a: 1\r\nb: 2\rc: 3\n")  # the line ends as written (write_text has no newline= on 3.8)
    source = SourceFile(str(path))
    assert source.excerpt(3, None, "error", False) == "  3 | c: 3\n"
    assert source.excerpt(2, 1, "error", False) == "  2 | b: 2\n    | ^\n"
    assert source.excerpt(9, 1, "error", False) == "" and source.excerpt(None, None, "error", False) == ""
    assert SourceFile(str(tmp_path / "gone.yaml")).excerpt(1, 1, "error", False) == ""
    assert SourceFile("-").excerpt(1, 1, "error", False) == ""


def test_a_python_source_is_read_in_its_declared_encoding(tmp_path):
    path = tmp_path / "launch.py"
    path.write_bytes("# -*- coding: latin-1 -*-\nname = 'caf\xe9'\n".encode("latin-1"))
    assert SourceFile(str(path)).line(2) == "name = 'café'"


@pytest.mark.parametrize(
    "env, tty, expected",
    [
        ({}, True, True),
        ({}, False, False),
        ({"NO_COLOR": "1"}, True, False),
        ({"NO_COLOR": ""}, True, True),  # empty: not set (no-color.org)
        ({"FORCE_COLOR": "1"}, False, True),
        ({"FORCE_COLOR": ""}, False, False),
        ({"NO_COLOR": "1", "FORCE_COLOR": "1"}, False, False),  # NO_COLOR wins, as CPython's own colour does
        ({"TERM": "dumb"}, True, False),
        ({"TERM": "dumb", "FORCE_COLOR": "1"}, False, True),
    ],
)
def test_the_colour_decision(env, tty, expected, monkeypatch):
    for name in ("NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)

    class Stream(io.StringIO):
        def isatty(self) -> bool:
            return tty

    assert colour(Stream()) is expected


def test_paint():
    assert paint("error", "error", True) == "\x1b[1;31merror\x1b[0m" and paint("error", "error", False) == "error"


def _cli(*argv: str, **env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    return subprocess.run([sys.executable, "-m", "sm_debug_config", *argv], capture_output=True, text=True,
                          env=dict(environ, PYTHONPATH=ROOT, **env), cwd=ROOT, timeout=120)


def test_only_text_output_is_coloured_and_only_when_asked():
    typos = "examples/mistakes/typos.yaml"
    forced = _cli("validate", typos, FORCE_COLOR="1").stdout
    assert "\x1b[1;33mwarning\x1b[0m SMD120" in forced and "|       \x1b[1;33m^^^^^^^^^^\x1b[0m" in forced
    assert "\x1b" not in _cli("validate", typos).stdout  # a pipe is no terminal
    assert "\x1b" not in _cli("validate", typos, FORCE_COLOR="1", NO_COLOR="1").stdout
    for form in ("json", "github"):
        assert "\x1b" not in _cli("validate", typos, "--format", form, FORCE_COLOR="1").stdout


def test_a_huge_one_line_request_is_shown_around_each_finding_in_little_time():
    import time

    text = json.dumps({"pad": "x" * 6_000_000, "RuleParameters": {"threshhold": "1"}})
    column = text.index('"threshhold"') + 1
    started = time.process_time()
    shown, under = _carets(text, 1, column)
    assert time.process_time() - started < 0.5  # a window of the line is looked at, not its 6 MB
    body, marks = shown[len("  1 | "):], under[len("    | "):]
    assert len(body) <= WIDTH and body.startswith("\u2026") and body.endswith("}")
    assert body[marks.index("^"):].startswith('"threshhold"')
