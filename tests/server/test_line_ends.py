"""The server's copy of a document follows the editor's edits whatever characters the text holds (issue 39).

LSP counts lines at ``\\n``, ``\\r\\n`` and ``\\r`` only; Python's ``str.splitlines`` also breaks at form feed,
vertical tab, ``\\x1c``-``\\x1e``, NEL and U+2028/U+2029 (pygls 2.1's ``TextDocument`` applies incremental changes
by those lines). A form feed is ordinary in Python sources (a page break) and any of them can sit in a comment or a
string: an edit on a later line must still land where the editor made it. Each document below has one such
character on its second line, then gets an ``h`` typed into a rule parameter on its fourth line; its diagnostics
must be ``lint --format json``'s on the text the editor holds, with the SMD120 at the misspelt key.
"""

from __future__ import annotations

import sys

import pytest

from tests.server.lspclient import LspClient, utf16_column
from tests.server.lsphelpers import cli_json

pytest.importorskip("pygls", reason="the server extra (pygls) is not installed here: scripts/test_server.sh")

SERVER = [sys.executable, "-m", "sm_debug_config", "server"]
SEPARATORS = {
    "form feed": "\x0c", "vertical tab": "\x0b", "file separator": "\x1c", "NEL": "\x85",
    "line separator": "\u2028", "paragraph separator": "\u2029", "CRLF": "\r\n", "CR": "\r",
}
LINES = [
    "from sagemaker.debugger import Rule, rule_configs",
    "# a comment with {sep}# inside",
    "SUFFIX = 'é🚀'",
    "rules = [Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={'threshold': '0.1'})]",
    "",
]


def test_an_edit_lands_where_the_editor_made_it_after_any_line_separator(tmp_path):
    texts = {name: "\n".join(LINES).replace("{sep}", sep) for name, sep in SEPARATORS.items()}
    uris = {name: "file://" + str(tmp_path / f"{name.replace(' ', '_')}.py") for name in texts}
    with LspClient(SERVER, cwd=str(tmp_path)) as client:
        client.initialize(str(tmp_path))
        for name, text in texts.items():
            client.open(uris[name], "python", text)
        for name in texts:
            client.wait_diagnostics(uris[name], 60)
        mark = len(client.published)
        for name, text in texts.items():
            line = 3 + (1 if name == "CRLF" or name == "CR" else 0)  # the separator itself ends line 1 there
            column = utf16_column(LINES[3], LINES[3].index("threshold") + len("thresh"))
            client.change(uris[name], 2, [{"range": {"start": {"line": line, "character": column},
                                                     "end": {"line": line, "character": column}}, "text": "h"}])
            texts[name] = text.replace("threshold", "threshhold")
        got = {}
        for name in texts:
            published = client.wait_diagnostics(uris[name], 60, after=mark)
            got[name] = sorted((d["range"]["start"]["line"], d["range"]["start"]["character"], d.get("code"))
                               for d in published.diagnostics if d.get("severity") != 4)
    wanted = {}
    for name, text in texts.items():
        path = tmp_path / f"cli_{name.replace(' ', '_')}.py"
        path.write_text(text, encoding="utf-8", newline="")
        found = cli_json("lint", str(path))
        assert "error" not in found, found
        lsp_lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        wanted[name] = sorted((f["line"] - 1, utf16_column(lsp_lines[f["line"] - 1], f["column"] - 1), f["code"])
                              for f in found["findings"])
        # at the key, counted as the editor counts (lint placed it by splitlines' lines before: column 14)
        rules = lsp_lines.index(next(line for line in lsp_lines if line.startswith("rules")))
        key = utf16_column(lsp_lines[rules], lsp_lines[rules].index("'threshhold'"))
        assert (rules, key, "SMD120") in wanted[name], (name, found)
    assert got == wanted
