"""The code examples of README.md and docs/*.md that need the SDK v3 (``<!-- run: sdk-v3 -->`` above the block), run
here, in ``scripts/test_v3.sh``'s venv (sagemaker 3, sagemaker-train, moto): each is a launcher that ``plan`` runs
against moto, and it must start its job without an error. The other examples: ``tests/system/test_doc_examples.py``."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("sagemaker.train", reason="sagemaker-train (SDK v3) is not installed")

from tests.dochelpers import Example, python_examples, run_python, workdir

EXAMPLES = python_examples(v3=True)


def test_the_documents_have_sdk_v3_examples():
    assert any(e.document.name == "README.md" for e in EXAMPLES) and len(EXAMPLES) >= 2


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.id)
def test_sdk_v3_example_runs(example: Example, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if example.not_run:
        pytest.skip(f"not run: {example.not_run}")
    monkeypatch.chdir(workdir(tmp_path, example))
    run_python(example, tmp_path)
