"""Helpers of the language server's tests: the server command, documents as an editor sends them, and what
``lint``/``validate --format json`` say of the same text (the oracle of the diagnostics)."""
from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from typing import Any, Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
#: The server as editors start it: the command line's subcommand, this checkout first on the path.
SERVER = [sys.executable, "-m", "sm_debug_config", "server"]
ENV = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
           SAGEMAKER_SUPPRESS_V2_WARNING="1", AWS_REGION="us-east-1")


def cli_json(command: str, path: str, *flags: str) -> Dict[str, Any]:
    """``sm-debug-config COMMAND --format json PATH``'s document for the one file."""
    run = subprocess.run([sys.executable, "-m", "sm_debug_config", command, "--format", "json", path, *flags],
                         capture_output=True, text=True, env=ENV, cwd=ROOT, check=False)
    return json.loads(run.stdout)["files"][0]  # type: ignore[no-any-return]


def utf16_column(line: str, column: int) -> int:
    """The LSP character of the CLI's 1-based column (in characters) on ``line``: UTF-16 code units."""
    return len(line[: column - 1].encode("utf-16-le")) // 2


def expected(found: Dict[str, Any], texts: List[str], code_cells: Optional[List[int]] = None) -> List[Tuple[Any, ...]]:
    """``(piece index, code, line, character)`` of each finding of the CLI's JSON, as LSP counts them."""
    out = []
    for item in found["findings"]:
        piece = code_cells[item["cell"] - 1] if code_cells else 0
        line = texts[piece].split("\n")[item["line"] - 1]
        out.append((piece, item["code"], item["line"] - 1, utf16_column(line, item["column"])))
    return sorted(out)


async def published(client: Any, uris: List[str], send: Any, timeout: float = 20.0) -> None:
    """Send (``send()``) and wait until diagnostics were published for every one of ``uris`` after it."""
    for uri in uris:
        client.diagnostics.pop(uri, None)
    send()

    async def wait() -> None:
        while not all(uri in client.diagnostics for uri in uris):
            await client.wait_for_notification("textDocument/publishDiagnostics")

    await asyncio.wait_for(wait(), timeout)


def offset(text: str, line: int, character: int) -> int:
    """The index in ``text`` of an LSP position (``character`` in UTF-16 code units), counted here apart from the
    server's own code."""
    lines = text.split("\n")
    start = sum(len(each) + 1 for each in lines[:line])
    units = 0
    for index, char in enumerate(lines[line] if line < len(lines) else ""):
        if units >= character:
            return start + index
        units += 2 if ord(char) > 0xFFFF else 1
    return start + len(lines[line] if line < len(lines) else "")


def apply(text: str, edits: List[Any]) -> str:
    """``text`` with LSP ``TextEdit`` values applied (from the end, as a client does)."""
    spans = sorted(((offset(text, e.range.start.line, e.range.start.character),
                     offset(text, e.range.end.line, e.range.end.character), e.new_text) for e in edits), reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def edited(action: Any, texts: Dict[str, str]) -> Dict[str, str]:
    """``texts`` (by document URI) with a code action's workspace edit applied."""
    out = dict(texts)
    for change in action.edit.document_changes:
        out[change.text_document.uri] = apply(out[change.text_document.uri], change.edits)
    return out
