"""The server's protocol over pygls's: what it keeps for the messages it handled. Skipped without the ``server``
extra."""
from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("pygls", reason="the language server needs the 'server' extra (pygls, lsprotocol)")

from lsprotocol import types

from sm_debug_config.server.app import server


def test_notifications_leave_no_future_behind():
    """pygls 2.1 keeps the future of each notification (and of each step of its generator handlers) for ever; the
    server's protocol forgets them once done, so a day of typing does not grow the server."""
    protocol = server.protocol
    uri = "file:///tmp/never-checked.txt"  # no command reads a .txt: handled, never checked

    async def edit() -> int:
        protocol._handle_request(1, types.INITIALIZE, types.InitializeParams(  # the answer goes nowhere
            capabilities=types.ClientCapabilities(), process_id=None))
        protocol._handle_notification(types.TEXT_DOCUMENT_DID_OPEN, types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri, language_id="plaintext", version=1, text="a")))
        for version in range(2, 202):
            protocol._handle_notification(types.TEXT_DOCUMENT_DID_CHANGE, types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                [types.TextDocumentContentChangeWholeDocument(text="a" * version)]))
        await asyncio.sleep(0.2)
        return len(protocol._request_futures)

    before = len(protocol._request_futures)
    left = asyncio.run(edit())
    assert server.text_of(uri) == "a" * 201
    assert left - before < 5  # one a notification (201) without the protocol's bookkeeping
