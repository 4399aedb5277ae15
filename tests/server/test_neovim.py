"""A real editor as the server's client (issue 39): headless Neovim opens a launcher with mistakes, the server
publishes diagnostics, Neovim's own ``vim.diagnostic.get`` reads them back; they must be ``lint --format json``'s
findings on the same text: code, line, column (Neovim turns the server's UTF-16 positions into bytes: the
launcher has non-ASCII text before a value), severity and page. Then Neovim edits the buffer as a user types
(its own incremental ``didChange``) and the diagnostics must follow; last, it asks for the quick fixes of the
non-ASCII line as its ``vim.lsp.buf.code_action()`` does, applies the first with its own UTF-16 edit, and the
diagnostics must be lint's on the fixed text.

Neovim is Debian's ``neovim`` package (``scripts/install_neovim.sh``; bookworm ships 0.7.2, which has no
``vim.lsp.start`` (0.8): ``nvim_init.lua`` falls back to ``vim.lsp.start_client`` + ``vim.lsp.buf_attach_client``).
The test skips, saying why, where nvim is not installed or is older than 0.7.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from typing import Any, Dict, List, Set, Tuple

import pytest

pytest.importorskip("pygls", reason="the server extra (pygls) is not installed here: scripts/test_server.sh")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LAUNCHER = os.path.join(HERE, "data", "launcher_mistakes.py")
OLDEST = (0, 7)
# vim.diagnostic.severity: ERROR 1, WARN 2, INFO 3, HINT 4
SEVERITY = {"error": 1, "warning": 2, "info": 3}
HINT = 4
SERVER = [sys.executable, "-m", "sm_debug_config", "server"]

Seen = Set[Tuple[int, int, str, int, str]]


def _nvim() -> str:
    nvim = shutil.which("nvim")
    if nvim is None:
        pytest.skip("Neovim (nvim) is not installed: scripts/install_neovim.sh installs Debian's package as root")
    first = subprocess.run([nvim, "--version"], capture_output=True, text=True, timeout=30).stdout.split("\n")[0]
    match = re.search(r"v(\d+)\.(\d+)", first)
    if match is None or (int(match.group(1)), int(match.group(2))) < OLDEST:
        pytest.skip(f"Neovim {first!r} is older than {OLDEST[0]}.{OLDEST[1]}, the oldest this test was run with")
    return nvim


def _env(tmp_path: Any) -> Dict[str, str]:
    env = dict(os.environ)
    # Neovim's own configuration, state and lsp.log inside the test's folder; the package from this tree
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env[name] = str(tmp_path / "xdg" / name.lower())
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [ROOT, env.get("PYTHONPATH")]))
    return env


def lint_json(path: str, env: Dict[str, str]) -> Seen:
    """``{(line0, byte column0, code, severity, url)}`` of ``lint --format json`` on ``path``."""
    done = subprocess.run(
        [sys.executable, "-m", "sm_debug_config", "lint", "--format", "json", path],
        capture_output=True, text=True, env=env, cwd=os.path.dirname(path), timeout=120,
    )
    report = json.loads(done.stdout)
    (entry,) = report["files"]
    if "error" in entry or "skipped" in entry:
        raise AssertionError(f"lint could not check {path}: {entry}")
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    return {
        (f["line"] - 1, len(lines[f["line"] - 1][: f["column"] - 1].encode("utf-8")), f["code"],
         SEVERITY[f["severity"]], f["url"])
        for f in entry["findings"]
    }


def seen_by_nvim(diagnostics: List[Dict[str, Any]]) -> Seen:
    """The same tuple for what Neovim holds, the "not checked" hints left out (lint lists those on --verbose)."""
    return {(d["lnum"], d["col"], d["code"], d["severity"], d["href"]) for d in diagnostics if d["severity"] != HINT}


def test_neovim_reads_back_the_findings_of_lint(tmp_path):
    nvim = _nvim()
    launcher = tmp_path / "launch.py"
    shutil.copy(LAUNCHER, launcher)
    env = _env(tmp_path)
    out = tmp_path / "nvim.json"
    edit = {"line": 32, "from": "threshhold", "to": "threshold"}
    env.update(
        SMD_NVIM_CMD=json.dumps(SERVER), SMD_NVIM_FILE=str(launcher), SMD_NVIM_OUT=str(out),
        SMD_NVIM_EDIT=json.dumps(edit), SMD_NVIM_WAIT="30000", SMD_NVIM_ACTION_LINE="22",
    )
    done = subprocess.run(
        [nvim, "--headless", "-n", "-i", "NONE", "-u", os.path.join(HERE, "nvim_init.lua")],
        capture_output=True, text=True, env=env, cwd=str(tmp_path), timeout=180, stdin=subprocess.DEVNULL,
    )
    assert out.exists(), f"Neovim wrote no result (exit {done.returncode}): {done.stdout[-2000:]} {done.stderr[-2000:]}"
    result = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in result, result["error"]

    expected = lint_json(str(launcher), env)
    assert {code for _, _, code, _, _ in expected} >= {"SMD100", "SMD101", "SMD120", "SMD133"}
    assert seen_by_nvim(result["before"]) == expected
    # the non-ASCII line: lint's column counts characters, the server's UTF-16 units, Neovim's bytes
    assert any(line == 22 and code == "SMD120" for line, _, code, _, _ in expected)

    with open(LAUNCHER, encoding="utf-8") as handle:
        original = handle.read()
    edited = tmp_path / "edited.py"
    edited.write_text(result["text"], encoding="utf-8")
    assert result["text"] == original.replace("threshhold", "threshold", 1)
    after = lint_json(str(edited), env)
    assert any(line == 32 and code == "SMD120" for line, _, code, _, _ in expected)
    assert not any(line == 32 and code == "SMD120" for line, _, code, _, _ in after)
    assert seen_by_nvim(result["after"]) == after

    # the quick fix Neovim asked for on the non-ASCII line (Neovim 0.7 sends its diagnostics' byte columns as LSP
    # characters) and applied itself (UTF-16): a suppression comment at the end of that line, nothing else changed
    assert "fixed" in result, f"no quick fix offered on line 22: {result['actions']}"
    fixed = tmp_path / "fixed.py"
    fixed.write_text(result["fixed_text"], encoding="utf-8")
    before_lines, fixed_lines = result["text"].split("\n"), result["fixed_text"].split("\n")
    assert [line for n, line in enumerate(fixed_lines) if n != 22] == [
        line for n, line in enumerate(before_lines) if n != 22]
    assert fixed_lines[22].startswith(before_lines[22]) and fixed_lines[22] != before_lines[22]
    after_fix = lint_json(str(fixed), env)
    assert after_fix == {item for item in after if item[0] != 22}
    assert seen_by_nvim(result["fixed"]) == after_fix
