"""The language server end to end, a real client over stdio (pytest-lsp): its diagnostics are the findings of
``lint``/``validate --format json`` on the same text, at the same places counted in UTF-16; notebook cells get
their own; an edit is checked again; code actions give the fixed text; hover and completion answer.

Skipped where the ``server`` extra (pygls, lsprotocol) or pytest-lsp is not installed.
"""
from __future__ import annotations

import os
import pathlib

import pytest

pytest.importorskip("pygls", reason="the language server needs the 'server' extra (pygls, lsprotocol)")
pytest.importorskip("pytest_lsp", reason="the language server's end-to-end tests need pytest-lsp")

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.server.lsphelpers import ENV, SERVER, cli_json, expected, published

LAUNCHER = '''"""Launch a PyTorch job with Debugger rules."""
from sagemaker.debugger import CollectionConfig, DebuggerHookConfig, Rule, rule_configs
from sagemaker.pytorch import PyTorch

bucket = "my-bucket"
prefix = f"s3://{bucket}/debug"
hook = DebuggerHookConfig(
    s3_output_path=f"{prefix}/tensors",
    collection_configs=[CollectionConfig(name="gradeints", parameters={"save_interval": "0"})],
)
label = "débogage 😀"; first = Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"threshhold": "0.1"})
rules = [
    first,
    Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={"num_steps": 20}),
]
estimator = PyTorch(entry_point="train.py", role="arn:aws:iam::111122223333:role/r", framework_version="2.1",
                    py_version="py310", instance_type="ml.p3.2xlarge", instance_count=1,
                    debugger_hook_config=hook, rules=rules)
estimator.fit()
'''

CELLS = [
    ("markdown", "# Debugger rules\nThe hook and rules of the job."),
    ("code", "import sagemaker.debugger as dbg\nfrom sagemaker.pytorch import PyTorch\n"),
    ("code", 'bucket = "my-bucket"\nhook = dbg.DebuggerHookConfig(s3_output_path=f"s3://{bucket}/tensors",\n'
             '    collection_configs=[dbg.CollectionConfig("weigths")])\n'),
    ("code", "!pip install smdebug\n"),
    ("code", 'rules = [dbg.Rule.sagemaker(dbg.rule_configs.overfit(), rule_parameters={"patience_": "5"})]\n'),
    ("code", 'est = PyTorch(entry_point="t.py", role="r", framework_version="1.13", py_version="py39",\n'
             '    instance_type="ml.p3.2xlarge", instance_count=1, debugger_hook_config=hook, rules=rules)\n'),
]


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER, server_env=ENV))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=pathlib.Path(os.getcwd()).as_uri()))
    yield
    await lsp_client.shutdown_session()


def _open(client: LanguageClient, uri: str, text: str, language: str = "python") -> None:
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)))


def _found(diagnostics, piece: int = 0):
    return sorted((piece, d.code, d.range.start.line, d.range.start.character) for d in diagnostics
                  if d.code != "SMD181")


@pytest.mark.asyncio(loop_scope="module")
async def test_a_launcher_gets_the_findings_of_lint_at_their_utf16_places(client: LanguageClient, tmp_path):
    path = tmp_path / "launch.py"
    path.write_text(LAUNCHER, encoding="utf-8")
    uri = path.as_uri()
    await published(client, [uri], lambda: _open(client, uri, LAUNCHER))
    oracle = expected(cli_json("lint", str(path)), [LAUNCHER])
    assert {code for _, code, _, _ in oracle} >= {"SMD114", "SMD120", "SMD132", "SMD100"}
    assert _found(client.diagnostics[uri]) == oracle
    # the finding after the emoji: its character counts the emoji as two UTF-16 units
    smd120 = next(d for d in client.diagnostics[uri] if d.code == "SMD120")
    line = LAUNCHER.split("\n")[smd120.range.start.line]
    assert line[: line.index('"threshhold"')].count("😀") == 1
    assert smd120.range.start.character == line.index('"threshhold"') + 1
    assert smd120.range.end.character == smd120.range.start.character + len('"threshhold"')
    assert smd120.code_description is not None and smd120.code_description.href.endswith("SMD120.md")
    assert smd120.severity == types.DiagnosticSeverity.Warning


@pytest.mark.asyncio(loop_scope="module")
async def test_an_edit_is_checked_again_unsaved(client: LanguageClient, tmp_path):
    path = tmp_path / "edited.py"
    path.write_text(LAUNCHER, encoding="utf-8")  # the disk keeps the mistake: the editor's text is checked
    uri = path.as_uri()
    await published(client, [uri], lambda: _open(client, uri, LAUNCHER))
    line = next(i for i, text in enumerate(LAUNCHER.split("\n")) if "threshhold" in text)
    column = LAUNCHER.split("\n")[line].index("threshhold")
    start = len(LAUNCHER.split("\n")[line][:column].encode("utf-16-le")) // 2

    def send() -> None:
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangePartial(
                range=types.Range(types.Position(line, start), types.Position(line, start + len("threshhold"))),
                text="threshold")]))

    await published(client, [uri], send)
    codes = {d.code for d in client.diagnostics[uri]}
    assert "SMD120" not in codes and "SMD132" in codes


@pytest.mark.asyncio(loop_scope="module")
async def test_a_notebook_document_gets_diagnostics_on_its_cells(client: LanguageClient, tmp_path):
    import json

    notebook = {"cells": [{"cell_type": kind, "metadata": {}, "source": text,
                           **({"outputs": [], "execution_count": None} if kind == "code" else {})}
                          for kind, text in CELLS], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "job.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    uri = path.as_uri()
    cell_uris = [f"{uri}#cell{index}" for index in range(len(CELLS))]

    def send() -> None:
        client.notebook_document_did_open(types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(uri=uri, notebook_type="jupyter-notebook", version=1, cells=[
                types.NotebookCell(kind=types.NotebookCellKind.Code if kind == "code" else
                                   types.NotebookCellKind.Markup, document=cell)
                for (kind, _), cell in zip(CELLS, cell_uris)]),
            cell_text_documents=[types.TextDocumentItem(uri=cell, language_id="python" if kind == "code" else
                                                        "markdown", version=1, text=text)
                                 for (kind, text), cell in zip(CELLS, cell_uris)]))

    await published(client, cell_uris, send)
    code_cells = [index for index, (kind, _) in enumerate(CELLS) if kind == "code"]
    oracle = expected(cli_json("lint", str(path)), [text for _, text in CELLS], code_cells)
    assert {code for _, code, _, _ in oracle} >= {"SMD114", "SMD120"}
    got = sorted(item for index, cell in enumerate(cell_uris) for item in _found(client.diagnostics[cell], index))
    assert got == oracle

    # an edit of one cell: the rule's parameter spelt right, the other cells' findings stay
    cell = cell_uris[4]
    column = CELLS[4][1].index("patience_") + len("patience")

    def edit() -> None:
        client.notebook_document_did_change(types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(uri=uri, version=2),
            change=types.NotebookDocumentChangeEvent(cells=types.NotebookDocumentCellChanges(text_content=[
                types.NotebookDocumentCellContentChanges(
                    document=types.VersionedTextDocumentIdentifier(uri=cell, version=2),
                    changes=[types.TextDocumentContentChangePartial(
                        range=types.Range(types.Position(0, column), types.Position(0, column + 1)), text="")])]))))

    await published(client, cell_uris, edit)
    assert [d.code for d in client.diagnostics[cell] if d.code != "SMD181"] == []
    assert "SMD114" in {d.code for d in client.diagnostics[cell_uris[2]]}
