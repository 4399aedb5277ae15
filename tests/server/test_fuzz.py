"""The server is never down (issue 39): 1,000 random edits through a real client over stdio.

A launcher, a notebook (code cells and a markdown cell) and a YAML config file are opened, then edited at random,
in bursts, as a user types, pastes and deletes: deletions (some across lines), junk (brackets, quotes, escapes,
non-ASCII: accents, CJK, emoji outside the BMP, a combining mark; form feed, NEL and U+2028, which
``str.splitlines`` takes for line ends and LSP does not), half-typed calls, unbalanced brackets, new
lines (LF, CRLF), several changes in one ``didChange``, now and then the whole text put back (a full change), and
notebook cells added and removed (``notebookDocument/didChange`` structure).
Hover, completion and code-action requests (those the server offers) are sent between edits.

Checked: the server never exits and never logs a traceback; every request is answered (an error answer only as
the protocol allows for stale work: cancelled, content modified); at every 100th edit, once the server has caught
up, the diagnostics of each document are ``lint``'s / ``validate``'s ``--format json`` on the text the client holds
(so the server's copy of each text follows the edits exactly, UTF-16 positions included); the server's own memory
grows by at most ``SERVER_GROWTH`` from the first checkpoint to the last, and the processes it starts to check
stay few and bounded in memory. The seed is fixed: a failure replays. Under a minute on a 2-core machine;
marked ``slow`` (scripts/test_server.sh runs it; the main suite's venv has no pygls, so it skips there).
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import time
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

import pytest

from tests.server.lspclient import LspClient, Published, descendants, memory_bytes, utf16_column

pytest.importorskip("pygls", reason="the server extra (pygls) is not installed here: scripts/test_server.sh")

pytestmark = pytest.mark.slow

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SERVER = [sys.executable, "-m", "sm_debug_config", "server"]
#: Fixed, so a failure replays; another for a soak run: SM_DEBUG_CONFIG_FUZZ_SEED=7 pytest tests/server/test_fuzz.py
SEED = int(os.environ.get("SM_DEBUG_CONFIG_FUZZ_SEED", "39"))
EDITS = 1000
CHECK_EVERY = 100
#: Memory (PSS) the server's own process may gain between the first and the last checkpoint (900 edits), where the
#: documents, their diagnostics and pygls' state live. Measured: it gains 1-2 MiB (pygls 2.1.1 keeps a future for
#: every notification, ~1.2 KB each); the same server made to keep each edited version of the launcher's text (11 KB)
#: gains 22 MiB.
SERVER_GROWTH = 8 * 1024 * 1024
#: The processes the server may have started (its check process, multiprocessing's fork server and resource
#: tracker: 3), and the memory of all of them with the server's (about 110 MiB): a killed check process must be
#: reaped, not piled up.
PROCESSES = 4
TOTAL = 200 * 1024 * 1024
#: JSON-RPC errors the protocol allows for a request overtaken by edits: RequestCancelled, ContentModified
STALE = {-32800, -32801}

JUNK = list("()[]{}'\"\\,:;=.#@!%*+-/<>|&^~`$?_ \t") + ["é", "ß", "中文", "🚀", "e\u0301", "ø", "λ", "\u00a0",
                                                          "\x0c", "\u2028", "\x85"]
#: YAML 1.1 (PyYAML) breaks lines at NEL and U+2028/9 too, LSP does not: `validate` then numbers the lines after one
#: differently from the editor (a known gap of the config-file reader, not the server's); not typed into YAML here.
JUNK_YAML = [junk for junk in JUNK if junk not in ("\x85", "\u2028", "\u2029")]
NON_ASCII = ["é", "Ü", "漢字", "🚀🔥", "\U0001d518", "ä\u0308", "Ω", "€"]
BRACKETS = ["(", ")", "[", "]", "{", "}", "((", "]]", "{[(", ")}"]
HALF_PYTHON = [
    'Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"threshold": "0.0',
    'CollectionConfig("weights", parameters={"save_interval": ',
    'DebuggerHookConfig(s3_output_path=f"s3://{bucket}/debug", collection_configs=[',
    "PyTorch(entry_point='train.py', rules=[Rule.sagemaker(rule_configs.",
    "from sagemaker.debugger import (Rule, ",
    "rule_configs.loss_not_decreasing(num_steps=",
    "ProfilerRule.sagemaker(rule_configs.ProfilerReport(CPUBottleneck_threshold=",
    'estimator = PyTorch(\n    framework_version="1.',
    "def helper(x, *args, **kw",
    "for name in [\"exploding_tensor\", ",
]
HALF_YAML = [
    "rules:\n  - builtin: Vanish",
    "    rule_parameters:\n      thresh",
    "collections:\n  - name: \"weights",
    "hook:\n  s3_output_path: s3://",
    "  - {builtin: LossNotDecreasing, rule_parameters: {num_steps: ",
    "- - - :",
    "key: [unclosed, list",
    "anchor: &a {x: *a",
]
NOTEBOOK = [
    "import sagemaker\nfrom sagemaker.debugger import CollectionConfig, DebuggerHookConfig, Rule, rule_configs\n"
    "from sagemaker.pytorch import PyTorch\n",
    "# Debugger set-up\nThe rules below watch gradients; see the **docs**.\n",
    "bucket = sagemaker.Session().default_bucket()\nevery = 0\n",
    "rules = [\n    Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={\"threshhold\": \"1e-4\"}),\n"
    "    Rule.sagemaker(rule_configs.loss_not_decreasing()),\n]\n",
    "hook = DebuggerHookConfig(s3_output_path=f\"s3://{bucket}/débug\", collection_configs=[\n"
    "    CollectionConfig(\"weights\", parameters={\"save_interval\": str(every)}),\n])\n",
    "estimator = PyTorch(entry_point=\"train.py\", framework_version=\"1.13\", py_version=\"py39\",\n"
    "                    instance_type=\"ml.g5.xlarge\", instance_count=1, rules=rules, debugger_hook_config=hook)\n",
]
MARKDOWN = {1}
#: Code after the launcher's configuration, 20 times: a 315-line launcher of 11 KB, the size of the benchmark's
HELPER = '''

def prepare_{n}(frame, columns, threshold=0.5):
    """Data preparation step {n}: drop sparse columns, scale the rest (ünïcode in a docstring)."""
    kept = []
    for column in columns:
        if frame[column].isna().mean() > threshold:
            continue
        kept.append(column)
    scaled = {{}}
    for column in kept:
        low, high = frame[column].min(), frame[column].max()
        scaled[column] = (frame[column] - low) / ((high - low) or 1)
    return scaled
'''


class Text:
    """A document as the client holds it: LSP's lines (ends ``\\n``, ``\\r\\n``, ``\\r`` and no others) and UTF-16
    columns."""

    def __init__(self, text: str) -> None:
        self.text = text

    def position(self, offset: int) -> Dict[str, int]:
        before = self.text[:offset]
        line = before.count("\n") + before.count("\r") - before.count("\r\n")
        start = max(before.rfind("\n"), before.rfind("\r")) + 1
        return {"line": line, "character": utf16_column(before[start:], offset - start)}

    def offset(self, rng: random.Random) -> int:
        """A random place, never between the two characters of a CRLF."""
        offset = rng.randint(0, len(self.text))
        if 0 < offset < len(self.text) and self.text[offset - 1] == "\r" and self.text[offset] == "\n":
            offset -= 1
        return offset

    def replace(self, start: int, end: int, new: str) -> Dict[str, Any]:
        """The change event replacing ``[start, end)`` with ``new``, applied here."""
        change = {"range": {"start": self.position(start), "end": self.position(end)}, "text": new}
        self.text = self.text[:start] + new + self.text[end:]
        return change


def random_change(rng: random.Random, text: Text, original: str, halves: List[str], junk: List[str]) -> Dict[str, Any]:
    """One edit of ``text`` (applied to it), as a change event."""
    kind = rng.choices(
        ["delete", "junk", "half", "brackets", "non-ascii", "newline", "paste-back"],
        weights=[30, 20, 18, 10, 10, 10, 2],
    )[0]
    if kind == "paste-back":
        text.text = original
        return {"text": original}
    start = text.offset(rng)
    if kind == "delete":
        end = min(len(text.text), start + rng.choice([1, 1, 1, 2, 5, 12, 40, 120]))
        if end < len(text.text) and text.text[end - 1] == "\r" and text.text[end] == "\n":
            end += 1
        return text.replace(start, end, "")
    if kind == "junk":
        new = "".join(rng.choice(junk) for _ in range(rng.randint(1, 12)))
    elif kind == "half":
        snippet = rng.choice(halves)
        new = snippet[: rng.randint(1, len(snippet))]
    elif kind == "brackets":
        new = rng.choice(BRACKETS)
    elif kind == "non-ascii":
        new = rng.choice(NON_ASCII)
    else:
        new = rng.choice(["\n", "\n", "\r\n", "\n    ", "\n\n"])
    if text.text[start - 1: start] == "\r" and new.startswith("\n"):
        new = " " + new  # never make a CR and an LF into one CRLF: the line count would change under us
    return text.replace(start, start, new)


class Document:
    """One open document (or a notebook's cell), with the version sent last."""

    def __init__(self, uri: str, text: str, halves: List[str], notebook: Optional[str] = None,
                 code: bool = True) -> None:
        self.uri = uri
        self.text = Text(text)
        self.original = text
        self.halves = halves
        self.notebook = notebook
        self.code = code
        self.version = 1


def structure_change(rng: random.Random, cells: List[Document], removed: List[Document], number: int,
                     notebook: str) -> Dict[str, Any]:
    """A cell added (a code cell, half-typed or a configuration line) or removed, as VS Code sends it
    (``NotebookDocumentChangeEvent.cells.structure``); ``cells`` and ``removed`` changed to match."""
    if len(cells) > 3 and rng.random() < 0.5:
        index = rng.randrange(len(cells))
        gone = cells.pop(index)
        removed.append(gone)
        return {"array": {"start": index, "deleteCount": 1}, "didClose": [{"uri": gone.uri}]}
    index = rng.randint(0, len(cells))
    snippet = rng.choice(HALF_PYTHON)
    text = rng.choice([snippet[: rng.randint(1, len(snippet))], "every = 5\n", "bucket = 'no-scheme/out'\n"])
    cell = Document(f"{notebook}#added{number}", text, HALF_PYTHON, notebook=notebook)
    cells.insert(index, cell)
    return {"array": {"start": index, "deleteCount": 0, "cells": [{"kind": 2, "document": cell.uri}]},
            "didOpen": [{"uri": cell.uri, "languageId": "python", "version": 1, "text": text}]}


def _lsp_key(diagnostic: Dict[str, Any]) -> Tuple[int, int, Optional[str]]:
    start = diagnostic["range"]["start"]
    return start["line"], start["character"], diagnostic.get("code")


def cli_expected(command: str, path: str, texts: Dict[str, str], folder: str,
                 code_cells: Sequence[str] = ()) -> Dict[str, Set[Tuple[int, int, Optional[str]]]]:
    """What ``command --format json`` says of the file ``path``, by document URI: ``{(line, UTF-16 column, code)}``
    (a file that cannot be parsed: its error, with code None). ``code_cells``: a notebook's code cells' URIs, in
    order (lint numbers them from 1)."""
    done = subprocess.run([sys.executable, "-m", "sm_debug_config", command, "--format", "json", path],
                          capture_output=True, text=True, cwd=folder, timeout=120)
    (entry,) = json.loads(done.stdout)["files"]
    expected: Dict[str, Set[Tuple[int, int, Optional[str]]]] = {uri: set() for uri in texts}

    def place(cell: Optional[int], line: Optional[int], column: Optional[int], code: Optional[str]) -> None:
        uri = code_cells[cell - 1] if cell else (code_cells or list(texts))[0]
        lines = Text(texts[uri]).text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        row = (line or 1) - 1
        expected[uri].add((row, utf16_column(lines[row], (column or 1) - 1) if row < len(lines) else 0, code))

    for finding in entry["findings"]:
        place(finding.get("cell"), finding["line"], finding["column"], finding["code"])
    if "error" in entry:
        # a notebook's: "path:cell N:line:col: cannot parse ..." (its JSON line and column are null)
        cell = re.search(r":cell (\d+):(\d+):(\d+): ", entry["error"]) if code_cells else None
        if cell:
            place(int(cell.group(1)), int(cell.group(2)), int(cell.group(3)), None)
        else:
            place(None, entry.get("line"), entry.get("column"), None)
    return expected


def server_has(client: LspClient, documents: List[Document],
               expected: Dict[str, Set[Tuple[int, int, Optional[str]]]], removed: Sequence[Document] = ()) -> bool:
    """Whether the last diagnostics of every document (their hints aside) are ``expected``, for its last version
    (a ``removed`` cell may have had none published)."""
    for document in documents:
        published: Optional[Published] = client.diagnostics(document.uri)
        if published is None and document in removed:
            continue
        if published is None or published.version not in (None, document.version):
            return False
        got = {_lsp_key(d) for d in published.diagnostics if d.get("severity") != 4}
        if not _same(got, expected[document.uri]):
            return False
    return True


def _same(got: Set[Tuple[int, int, Optional[str]]], want: Set[Tuple[int, int, Optional[str]]]) -> bool:
    """The findings agree and, for a text that does not parse, both say so on the same line (the column of a
    syntax error is the parser's, the end of a token or its start: not compared)."""
    return ({item for item in got if item[2] is not None} == {item for item in want if item[2] is not None}
            and {line for line, _, code in got if code is None} == {line for line, _, code in want if code is None})


def test_a_thousand_random_edits(tmp_path):
    rng = random.Random(SEED)  # noqa: S311 - reproducible edits, not secrets
    folder = str(tmp_path)
    with open(os.path.join(HERE, "data", "launcher_mistakes.py"), encoding="utf-8") as handle:
        launcher_text = handle.read() + "".join(HELPER.format(n=n) for n in range(20))
    with open(os.path.join(ROOT, "examples", "mistakes", "typos.yaml"), encoding="utf-8") as handle:
        yaml_text = handle.read()
    launcher = Document("file://" + os.path.join(folder, "launch.py"), launcher_text, HALF_PYTHON)
    config = Document("file://" + os.path.join(folder, "job.yaml"), yaml_text, HALF_YAML)
    notebook_uri = "file://" + os.path.join(folder, "train.ipynb")
    cells = [Document(f"{notebook_uri}#cell{index}", text, HALF_PYTHON, notebook=notebook_uri,
                      code=index not in MARKDOWN) for index, text in enumerate(NOTEBOOK)]
    removed: List[Document] = []
    stderr_path = tmp_path / "server.stderr"
    with open(stderr_path, "wb") as stderr, LspClient(SERVER, cwd=folder, stderr=stderr) as client:
        capabilities = client.initialize(folder)["capabilities"]
        client.open(launcher.uri, "python", launcher_text)
        client.open(config.uri, "yaml", yaml_text)
        client.open_notebook(notebook_uri, NOTEBOOK, markdown=MARKDOWN)
        requests = [method for method, offered in (
            ("textDocument/hover", capabilities.get("hoverProvider")),
            ("textDocument/completion", capabilities.get("completionProvider")),
            ("textDocument/codeAction", capabilities.get("codeActionProvider")),
        ) if offered]
        notebook_version = 1
        pending: List[Tuple[int, str]] = []
        memory: List[int] = []
        edits = 0
        started = time.perf_counter()
        while edits < EDITS:
            # a burst of typing in one document, then a pause (sometimes long enough for the server to check)
            document = rng.choices([launcher, config] + cells, weights=[50, 15] + [35 / len(cells)] * len(cells))[0]
            for _ in range(min(rng.randint(1, 15), EDITS - edits)):
                edits += 1
                if document.notebook is not None and rng.random() < 0.04:
                    notebook_version += 1
                    structure = structure_change(rng, cells, removed, edits, notebook_uri)
                    client.notify("notebookDocument/didChange", {
                        "notebookDocument": {"uri": notebook_uri, "version": notebook_version},
                        "change": {"cells": {"structure": structure}}})
                    break  # the cell typed in may be gone
                changes = [random_change(rng, document.text, document.original, document.halves,
                                         JUNK_YAML if document is config else JUNK)
                           for _ in range(rng.choice([1, 1, 1, 1, 2, 3]))]
                if document.notebook is None:
                    document.version += 1
                    client.change(document.uri, document.version, changes)
                else:
                    notebook_version += 1
                    document.version = notebook_version
                    client.change_cell(notebook_uri, notebook_version, document.uri, changes)
                if requests and rng.random() < 0.2:
                    method = rng.choice(requests)
                    position = document.text.position(document.text.offset(rng))
                    params: Dict[str, Any] = {"textDocument": {"uri": document.uri}, "position": position}
                    if method == "textDocument/codeAction":
                        params = {"textDocument": {"uri": document.uri}, "range": {"start": position, "end": position},
                                  "context": {"diagnostics": []}}
                    pending.append((client.send_request(method, params), method))
                if edits % CHECK_EVERY == 0:
                    break
            time.sleep(rng.choice([0, 0, 0.005, 0.02, 0.08, 0.3]))
            assert client.process.poll() is None, f"the server exited ({client.process.returncode}) after {edits} edits"
            if edits % CHECK_EVERY == 0:
                for ident, method in pending:
                    answer = client.answer(ident, timeout=60)
                    error = answer.get("error")
                    assert error is None or error.get("code") in STALE, f"{method} after {edits} edits: {error}"
                pending = []
                _agree(client, folder, tmp_path, launcher, config, cells, removed, edits)
                memory.append(memory_bytes(client.process.pid))
                started_processes = descendants(client.process.pid)
                total = memory[-1] + sum(memory_bytes(pid) for pid in started_processes)
                assert len(started_processes) <= PROCESSES, f"{len(started_processes)} processes after {edits} edits"
                assert total <= TOTAL, f"{total // 2**20} MiB in the server's processes after {edits} edits"
        elapsed = time.perf_counter() - started
        assert client.process.poll() is None
        status = client.close()
    assert status == 0, f"the server exited with {status}"
    log = stderr_path.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in log, log[-4000:]
    assert not [m for m in client.messages if m.get("type") == 1], [m for m in client.messages if m.get("type") == 1]
    assert len(memory) == EDITS // CHECK_EVERY
    assert memory[-1] - memory[0] <= SERVER_GROWTH, (
        f"the server's memory {[m // 2**20 for m in memory]} MiB at each 100 edits ({elapsed:.0f} s)")


def _agree(client: LspClient, folder: str, tmp_path: Any, launcher: Document, config: Document,
           cells: List[Document], removed: List[Document], edits: int) -> None:
    """Waits until the server's diagnostics of every document are the command line's on the client's text, and
    those of every removed cell none."""
    expected_dir = tmp_path / "expected"
    expected_dir.mkdir(exist_ok=True)
    expected: Dict[str, Set[Tuple[int, int, Optional[str]]]] = {}
    for document, name, command in ((launcher, "launch.py", "lint"), (config, "job.yaml", "validate")):
        path = expected_dir / name
        path.write_text(document.text.text, encoding="utf-8", newline="")
        expected.update(cli_expected(command, str(path), {document.uri: document.text.text}, folder))
    notebook = {"cells": [{"cell_type": "code" if cell.code else "markdown", "metadata": {}, "source": cell.text.text,
                           **({"outputs": [], "execution_count": None} if cell.code else {})} for cell in cells],
                "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = expected_dir / "train.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    expected.update(cli_expected("lint", str(path), {cell.uri: cell.text.text for cell in cells}, folder,
                                 [cell.uri for cell in cells if cell.code]))
    expected.update({cell.uri: set() for cell in removed})
    documents = [launcher, config] + cells + removed
    if not client.wait(lambda: server_has(client, documents, expected, removed), timeout=60):
        last = {d.uri: (client.diagnostics(d.uri) and sorted(_lsp_key(x) for x in client.diagnostics(d.uri).diagnostics
                                                             if x.get("severity") != 4)) for d in documents}
        raise AssertionError(
            f"after {edits} edits the server's diagnostics are not the command line's on the same text:\n"
            + "\n".join(f"{uri}: server {last[uri]} != cli {sorted(expected[uri], key=str)}" for uri in expected)
        )


def test_notifications_leave_nothing_behind(tmp_path):
    """20,000 notifications (``$/setTrace``, handled as pygls handles didChange: a generator) cost the server no
    memory once handled: pygls 2.1 kept a future for each (36 MiB for these), which the server now lets go."""
    uri = "file://" + str(tmp_path / "small.py")
    hover = {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}
    with LspClient(SERVER, cwd=str(tmp_path)) as client:
        client.initialize(str(tmp_path))
        client.open(uri, "python", "x = 1\n")
        client.wait_diagnostics(uri, 60)
        client.request("textDocument/hover", hover)
        before = memory_bytes(client.process.pid)
        for _ in range(20000):
            client.notify("$/setTrace", {"value": "off"})
        client.request("textDocument/hover", hover, timeout=120)  # answered once every notification before it is
        grown = memory_bytes(client.process.pid) - before
    assert grown <= SERVER_GROWTH, f"{grown / 2**20:.1f} MiB more after 20,000 notifications"
