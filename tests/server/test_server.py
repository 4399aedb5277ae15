"""The language server end to end, a real client over stdio (pytest-lsp): its diagnostics are the findings of
``lint``/``validate --format json`` on the same text, at the same places counted in UTF-16; notebook cells get
their own; an edit is checked again; code actions give the fixed text; hover and completion answer.

Skipped where the ``server`` extra (pygls, lsprotocol) or pytest-lsp is not installed.
"""
from __future__ import annotations

import asyncio
import json
import os
import pathlib
import subprocess

import pytest

pytest.importorskip("pygls", reason="the language server needs the 'server' extra (pygls, lsprotocol)")
pytest.importorskip("pytest_lsp", reason="the language server's end-to-end tests need pytest-lsp")

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.server.lsphelpers import ENV, SERVER, cli_json, edited, expected, published

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
    lsp_client.registered = []

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(client: LanguageClient, params: types.RegistrationParams) -> None:  # as VS Code answers
        client.registered.extend(params.registrations)

    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=pathlib.Path(os.getcwd()).as_uri()))
    yield
    await lsp_client.shutdown_session()


def _open(client: LanguageClient, uri: str, text: str, language: str = "python") -> None:
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)))


async def _opened(client: LanguageClient, path: pathlib.Path, text: str, language: str = "python") -> str:
    """Write ``text`` to ``path`` (the CLI's oracle reads it), open it in the editor, wait for its diagnostics."""
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    await published(client, [uri], lambda: _open(client, uri, text, language))
    return uri


def _found(diagnostics, piece: int = 0):
    return sorted((piece, d.code, d.range.start.line, d.range.start.character) for d in diagnostics
                  if d.code != "SMD181")


@pytest.mark.asyncio(loop_scope="module")
async def test_a_launcher_gets_the_findings_of_lint_at_their_utf16_places(client: LanguageClient, tmp_path):
    path = tmp_path / "launch.py"
    uri = await _opened(client, path, LAUNCHER)
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
    uri = await _opened(client, path, LAUNCHER)  # the disk keeps the mistake: the editor's text is checked
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

    # a fix on a cell edits that cell's text
    misspelt = next(d for d in client.diagnostics[cell_uris[4]] if d.code == "SMD120")
    fix = next(a for a in await _actions(client, cell_uris[4], misspelt) if "safe fix" in a.title)
    texts = {cell: text for cell, (_, text) in zip(cell_uris, CELLS)}
    assert edited(fix, texts) == dict(texts, **{cell_uris[4]: CELLS[4][1].replace("patience_", "patience")})
    ignore = next(a for a in await _actions(client, cell_uris[4], misspelt) if a.title.startswith("Ignore"))
    assert edited(ignore, texts)[cell_uris[4]].split("\n")[0].endswith("  # sm-debug-config: ignore[SMD120]")

    # fix all safe: every cell as lint --fix writes the notebook's cells
    everything = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=cell_uris[2]),
        range=types.Range(types.Position(0, 0), types.Position(0, 0)),
        context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.SourceFixAll])))
    fixed = edited(everything[0], texts)
    subprocess.run([*SERVER[:-1], "lint", "--fix", str(path)], capture_output=True, env=ENV, check=False)
    written = ["".join(cell["source"]) for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]]
    assert [fixed[cell] for cell in cell_uris] == written and written != [text for _, text in CELLS]

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


async def _actions(client: LanguageClient, uri: str, diagnostic: types.Diagnostic, only=None):
    return await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=diagnostic.range,
        context=types.CodeActionContext(diagnostics=[diagnostic], only=only)))


@pytest.mark.asyncio(loop_scope="module")
async def test_code_actions_give_the_fixed_text(client: LanguageClient, tmp_path):
    path = tmp_path / "fixme.py"
    uri = await _opened(client, path, LAUNCHER)
    smd120 = next(d for d in client.diagnostics[uri] if d.code == "SMD120")
    actions = await _actions(client, uri, smd120)
    fix = next(a for a in actions if "safe fix" in a.title)
    assert fix.kind == types.CodeActionKind.QuickFix and fix.is_preferred
    # the rename after the emoji lands on the key, counted in UTF-16 as the client counts
    assert edited(fix, {uri: LAUNCHER})[uri] == LAUNCHER.replace('"threshhold"', '"threshold"')

    ignore = next(a for a in actions if a.title == "Ignore SMD120 on this line")
    ignored = edited(ignore, {uri: LAUNCHER})[uri]
    path.write_text(ignored, encoding="utf-8")
    found = cli_json("lint", str(path))
    assert "SMD120" not in {item["code"] for item in found["findings"]}
    assert {item["code"] for item in found["findings"]} >= {"SMD114", "SMD100"}

    everything = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=types.Range(types.Position(0, 0),
                                                                              types.Position(0, 0)),
        context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.SourceFixAll])))
    fixed = edited(everything[0], {uri: LAUNCHER})[uri]
    assert fixed == LAUNCHER.replace('"threshhold"', '"threshold"').replace('"num_steps": 20', '"num_steps": "20"')
    copy = tmp_path / "copy" / "fixme.py"  # what lint --fix writes
    copy.parent.mkdir()
    copy.write_text(LAUNCHER, encoding="utf-8")
    subprocess.run([*SERVER[:-1], "lint", "--fix", str(copy)], capture_output=True, env=ENV, check=False)
    assert copy.read_text(encoding="utf-8") == fixed
    path.write_text(fixed, encoding="utf-8")
    left = {item["code"] for item in cli_json("lint", str(path))["findings"]}
    assert not left & {"SMD120", "SMD100"} and "SMD132" in left


@pytest.mark.asyncio(loop_scope="module")
async def test_a_code_the_project_names_unfixable_gets_no_fix_in_the_editor(client: LanguageClient, tmp_path):
    """``unfixable = ["SMD120"]``: as ``--fix`` never applies it, the editor offers no quick fix for it and "fix
    all" (which an editor may run on save) leaves it; the other fixes stay."""
    (tmp_path / "pyproject.toml").write_text('[tool.sm-debug-config]\nunfixable = ["SMD120"]\n', encoding="utf-8")
    uri = await _opened(client, tmp_path / "fixme.py", LAUNCHER)
    smd120 = next(d for d in client.diagnostics[uri] if d.code == "SMD120")
    quick = [a.title for a in await _actions(client, uri, smd120) if a.kind == types.CodeActionKind.QuickFix]
    assert quick == ["Ignore SMD120 on this line"]
    everything = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=types.Range(types.Position(0, 0),
                                                                              types.Position(0, 0)),
        context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.SourceFixAll])))
    assert edited(everything[0], {uri: LAUNCHER})[uri] == LAUNCHER.replace('"num_steps": 20', '"num_steps": "20"')


YAML = """# a config file with a misspelt parameter after non-ASCII text on its line
region: us-east-1
output_path: s3://my-bucket/out/
framework: tensorflow
rules:
  - builtin: VanishingGradient
    rule_parameters: {label: "é😀", threshhold: 0.0000001}
"""


@pytest.mark.asyncio(loop_scope="module")
async def test_a_config_file_gets_the_findings_of_validate(client: LanguageClient, tmp_path):
    path = tmp_path / "job.yaml"
    uri = await _opened(client, path, YAML, "yaml")
    oracle = expected(cli_json("validate", str(path)), [YAML])
    assert [code for _, code, _, _ in oracle].count("SMD120") == 2
    assert _found(client.diagnostics[uri]) == oracle
    misspelt = next(d for d in client.diagnostics[uri] if "threshhold" in d.message)
    line = YAML.split("\n")[misspelt.range.start.line]
    assert misspelt.range.start.character == line.index("threshhold") + 1  # the emoji: two UTF-16 units
    fix = next(a for a in await _actions(client, uri, misspelt) if "safe fix" in a.title)
    assert edited(fix, {uri: YAML})[uri] == YAML.replace("threshhold", "threshold")


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_and_completion_answer_from_the_catalogue(client: LanguageClient, tmp_path):
    uri = (tmp_path / "hover.py").as_uri()
    _open(client, uri, LAUNCHER)
    lines = LAUNCHER.split("\n")
    row = next(i for i, text in enumerate(lines) if "vanishing_gradient" in text)
    at = types.Position(row, len(lines[row][:lines[row].index("vanishing_gradient") + 3].encode("utf-16-le")) // 2)
    shown = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=at))
    assert "VanishingGradient" in shown.contents.value and "threshold" in shown.contents.value
    assert "collections it reads: gradients" in shown.contents.value

    row = next(i for i, text in enumerate(lines) if "gradeints" in text)
    at = types.Position(row, lines[row].index("save_interval") + 2)
    shown = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=at))
    assert "save_interval" in shown.contents.value and "default: 500" in shown.contents.value

    typing = LAUNCHER.replace('rule_parameters={"num_steps": 20}', 'rule_parameters={"')
    uri = (tmp_path / "typing.py").as_uri()
    _open(client, uri, typing)
    row = next(i for i, text in enumerate(typing.split("\n")) if 'rule_parameters={"' in text and "loss" in text)
    column = typing.split("\n")[row].index('rule_parameters={"') + len('rule_parameters={"')
    offered = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(row, column)))
    labels = {item.label for item in offered.items}
    assert {"num_steps", "tensor_regex"} <= labels and "threshold" not in labels

    config = "debugger_hook_config:\n  collection_configs:\n    - name: gra"
    uri = (tmp_path / "complete.yaml").as_uri()
    _open(client, uri, config, "yaml")
    offered = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(2, 15)))
    assert "gradients" in {item.label for item in offered.items}
    offered = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(1, 2)))
    assert {"s3_output_path", "hook_parameters"} <= {item.label for item in offered.items}


def _notebook_params(uri: str, cells, version: int = 1) -> types.DidOpenNotebookDocumentParams:
    cell_uris = [f"{uri}#cell{index}" for index in range(len(cells))]
    return types.DidOpenNotebookDocumentParams(
        notebook_document=types.NotebookDocument(uri=uri, notebook_type="jupyter-notebook", version=version, cells=[
            types.NotebookCell(kind=types.NotebookCellKind.Code if kind == "code" else types.NotebookCellKind.Markup,
                               document=cell) for (kind, _), cell in zip(cells, cell_uris)]),
        cell_text_documents=[types.TextDocumentItem(uri=cell, language_id="python" if kind == "code" else "markdown",
                                                    version=version, text=text)
                             for (kind, text), cell in zip(cells, cell_uris)])


@pytest.mark.asyncio(loop_scope="module")
async def test_never_down_broken_documents_get_diagnostics(client: LanguageClient, tmp_path):
    # a notebook with a syntax error in one cell: that cell says so, the others keep their findings
    cells = list(CELLS)
    cells[3] = ("code", "def broken(:\n    pass\n")
    uri = (tmp_path / "broken.ipynb").as_uri()
    params = _notebook_params(uri, cells)
    cell_uris = [cell.document for cell in params.notebook_document.cells]
    await published(client, cell_uris, lambda: client.notebook_document_did_open(params))
    broken = client.diagnostics[cell_uris[3]]
    assert [d.severity for d in broken] == [types.DiagnosticSeverity.Error] and broken[0].range.start.line == 0
    assert "SMD114" in {d.code for d in client.diagnostics[cell_uris[2]]}
    assert "SMD120" in {d.code for d in client.diagnostics[cell_uris[4]]}

    # malformed YAML: one error at its place
    uri = (tmp_path / "bad.yaml").as_uri()
    await published(client, [uri], lambda: _open(client, uri, "rules:\n  - builtin: [VanishingGradient\n", "yaml"))
    (error,) = client.diagnostics[uri]
    assert error.severity == types.DiagnosticSeverity.Error and error.code is None

    # a huge file: not checked, said as a hint
    uri = (tmp_path / "huge.py").as_uri()
    huge = "from sagemaker.debugger import Rule\n" + "x = 1\n" * 400_000
    await published(client, [uri], lambda: _open(client, uri, huge))
    (hint,) = client.diagnostics[uri]
    assert hint.severity == types.DiagnosticSeverity.Hint and hint.message.startswith("not checked")

    # a half-typed call, and a request answered after each
    uri = (tmp_path / "half.py").as_uri()
    await published(client, [uri], lambda: _open(client, uri, LAUNCHER[:LAUNCHER.index("rules = [") + 30]))
    assert all(d.severity == types.DiagnosticSeverity.Error for d in client.diagnostics[uri])
    assert await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(0, 0))) is None


@pytest.mark.asyncio(loop_scope="module")
async def test_edits_faster_than_checks_publish_the_last_version_only(client: LanguageClient, tmp_path):
    path = tmp_path / "fast.py"
    uri = path.as_uri()
    await published(client, [uri], lambda: _open(client, uri, LAUNCHER))
    versions = [LAUNCHER.replace("threshhold", "threshhold" + "x" * n) for n in range(1, 21)]

    def send() -> None:
        for number, text in enumerate(versions, start=2):
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=number),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))

    send()

    def final() -> bool:
        return any("threshhold" + "x" * 20 in d.message for d in client.diagnostics.get(uri, ()) if d.code == "SMD120")

    async def wait() -> None:
        while not final():
            await client.wait_for_notification("textDocument/publishDiagnostics")

    await asyncio.wait_for(wait(), 20)
    await asyncio.sleep(0.3)  # nothing older comes after the last version's diagnostics
    assert final()
    path.write_text(versions[-1], encoding="utf-8")
    assert _found(client.diagnostics[uri]) == expected(cli_json("lint", str(path)), [versions[-1]])


@pytest.mark.asyncio(loop_scope="module")
async def test_project_settings_and_the_editors_settings_apply(client: LanguageClient, tmp_path):
    path = tmp_path / "project" / "launch.py"
    path.parent.mkdir()
    uri = path.as_uri()
    await published(client, [uri], lambda: _open(client, uri, LAUNCHER))
    assert "SMD120" in {d.code for d in client.diagnostics[uri]}

    # the closest pyproject.toml's [tool.sm-debug-config], read again when it changes (the server asked to be told)
    (watch,) = [r for r in client.registered if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES]
    assert [w["globPattern"] for w in watch.register_options["watchers"]] == ["**/pyproject.toml"]
    pyproject = path.parent / "pyproject.toml"
    pyproject.write_text('[tool.sm-debug-config]\nignore = ["SMD120"]\n', encoding="utf-8")
    await published(client, [uri], lambda: client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=pyproject.as_uri(),
                                                                   type=types.FileChangeType.Changed)])))
    assert "SMD120" not in {d.code for d in client.diagnostics[uri]}
    assert "SMD114" in {d.code for d in client.diagnostics[uri]}

    pyproject.write_text('[tool.sm-debug-config]\nignor = ["SMD120"]\n', encoding="utf-8")  # a bad one: said
    await published(client, [uri], lambda: client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=pyproject.as_uri(),
                                                                   type=types.FileChangeType.Changed)])))
    (refused,) = client.diagnostics[uri]
    assert refused.severity == types.DiagnosticSeverity.Error and "ignor" in refused.message
    pyproject.unlink()

    # what the editor sets: ignore a code everywhere, as --ignore
    await published(client, [uri], lambda: client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"sm-debug-config": {"ignore": ["SMD114"]}})))
    codes = {d.code for d in client.diagnostics[uri]}
    assert "SMD114" not in codes and "SMD120" in codes
    # settings that say nothing of ours (what editors send at start) keep ours in force
    await published(client, [uri], lambda: client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings=None)))
    assert "SMD114" not in {d.code for d in client.diagnostics[uri]}
    await published(client, [uri], lambda: client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"sm-debug-config": {}})))
    assert "SMD114" in {d.code for d in client.diagnostics[uri]}

    # a client that keeps the settings (workspace/configuration, as VS Code): asked when it says they changed
    client.set_configuration({"ignore": ["SMD132"]}, section="sm-debug-config")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))

    async def pulled() -> None:
        while "SMD132" in {d.code for d in client.diagnostics.get(uri, ())}:
            await client.wait_for_notification("textDocument/publishDiagnostics")

    await asyncio.wait_for(pulled(), 20)
    assert "SMD114" in {d.code for d in client.diagnostics[uri]}
    client.set_configuration({}, section="sm-debug-config")
    await published(client, [uri], lambda: client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"sm-debug-config": {}})))


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize("name, language", [
    ("terraform-debugger.tf", "terraform"), ("terraform-debugger.tf.json", "json"),
    ("stepfunctions-nested.asl.json", "json"), ("cloudformation-pipeline.yaml", "yaml")])
async def test_orchestration_documents_get_the_findings_of_validate(client: LanguageClient, tmp_path, name, language):
    if name.endswith(".tf"):
        pytest.importorskip("hcl2", reason="Terraform HCL needs python-hcl2 (extra 'terraform')")
    text = (pathlib.Path(__file__).parents[1] / "data" / "documents" / name).read_text(encoding="utf-8")
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    await published(client, [uri], lambda: _open(client, uri, text, language))
    oracle = expected(cli_json("validate", str(path)), [text])
    assert oracle and _found(client.diagnostics[uri]) == oracle
    # the values known only at run time are hints, the rest as severe as the CLI says
    for diagnostic in client.diagnostics[uri]:
        assert (diagnostic.severity == types.DiagnosticSeverity.Hint) == (diagnostic.code == "SMD001")


@pytest.mark.asyncio(loop_scope="module")
async def test_edits_below_a_form_feed_land_where_the_editor_made_them(client: LanguageClient, tmp_path):
    # LSP ends lines at \n, \r\n and \r only: a form feed or U+2028 inside a line does not move later edits
    text = ("import os\x0c\nfrom sagemaker.debugger import Rule, rule_configs\nnote = 'a\u2028b'\n"
            "rules = [Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={'threshold': '0.1'})]\n")
    path = tmp_path / "feed.py"
    uri = path.as_uri()
    await published(client, [uri], lambda: _open(client, uri, text))
    assert "SMD120" not in {d.code for d in client.diagnostics[uri]}
    column = text.split("\n")[3].index("threshold") + len("thresh")

    def send() -> None:
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangePartial(
                range=types.Range(types.Position(3, column), types.Position(3, column)), text="h")]))

    await published(client, [uri], send)
    typed = text.replace("threshold", "threshhold")
    path.write_text(typed, encoding="utf-8")
    assert _found(client.diagnostics[uri]) == expected(cli_json("lint", str(path)), [typed])
    assert "SMD120" in {d.code for d in client.diagnostics[uri]}


UNSAFE = '''from sagemaker.debugger import Rule, TensorBoardOutputConfig, rule_configs
rules = [Rule.sagemaker(rule_configs.overfit()), Rule.sagemaker(rule_configs.overfit())]
tb = TensorBoardOutputConfig(s3_output_path="my-bucket/tb", container_local_output_path="tb")
'''


@pytest.mark.asyncio(loop_scope="module")
async def test_unsafe_fixes_are_labelled_and_left_out_of_fix_all(client: LanguageClient, tmp_path):
    uri = (tmp_path / "unsafe.py").as_uri()
    await published(client, [uri], lambda: _open(client, uri, UNSAFE))
    duplicate = next(d for d in client.diagnostics[uri] if d.code == "SMD101")
    fix = next(a for a in await _actions(client, uri, duplicate) if a.kind == types.CodeActionKind.QuickFix
               and not a.title.startswith("Ignore"))
    assert fix.title.endswith("(unsafe fix)") and not fix.is_preferred
    assert edited(fix, {uri: UNSAFE})[uri] == UNSAFE.replace(
        "Rule.sagemaker(rule_configs.overfit())]", 'Rule.sagemaker(rule_configs.overfit(), name="Overfit-2")]')
    everything = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(types.Position(0, 0), types.Position(0, 0)),
        context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.SourceFixAll])))
    assert not everything  # no safe fix: nothing to do for "fix all safe"


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_in_a_config_file(client: LanguageClient, tmp_path):
    text = ("debugger_hook_config:\n  collection_configs:\n    - name: gradients\nrules:\n"
            "  - builtin: VanishingGradient\n    rule_parameters: {threshold: 0.001}\n")
    uri = (tmp_path / "hover.yaml").as_uri()
    _open(client, uri, text, "yaml")

    async def shown(line: int, word: str) -> str:
        at = types.Position(line, text.split("\n")[line].index(word) + 2)
        found = await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=at))
        return found.contents.value

    assert "VanishingGradient (debugger rule)" in await shown(4, "VanishingGradient")
    assert "default: 1e-07" in await shown(5, "threshold")
    gradients = await shown(2, "gradients")
    assert "built-in collection" in gradients and "read by the built-in rules: VanishingGradient" in gradients
    assert "saves the gradients of the model's parameters" in gradients


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize("name, language", [("terraform-debugger.tf", "terraform"),
                                            ("terraform-debugger.tf.json", "json")])
async def test_a_documents_quick_fix_writes_what_fix_writes(client: LanguageClient, tmp_path, name, language):
    if name.endswith(".tf"):
        pytest.importorskip("hcl2", reason="Terraform HCL needs python-hcl2 (extra 'terraform')")
    text = (pathlib.Path(__file__).parents[1] / "data" / "documents" / name).read_text(encoding="utf-8")
    uri = await _opened(client, tmp_path / name, text, language)
    relative = next(d for d in client.diagnostics[uri] if d.code == "SMD153")
    fix = next(a for a in await _actions(client, uri, relative) if a.title.endswith("(unsafe fix)"))
    # the command line's --fix of that one code, on a copy
    copy = tmp_path / "copy" / name
    copy.parent.mkdir()
    copy.write_text(text, encoding="utf-8")
    run = subprocess.run([*SERVER[:-1], "validate", "--select", "SMD153", "--fix", "--unsafe-fixes", str(copy)],
                         capture_output=True, text=True, env=ENV, check=False)
    assert run.returncode in (0, 1), run.stderr
    fixed = copy.read_text(encoding="utf-8")
    assert fixed != text and edited(fix, {uri: text})[uri] == fixed
