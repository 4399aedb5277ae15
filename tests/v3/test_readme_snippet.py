"""The README's SDK v3 snippet imports what it uses, each from the module that defines it (not a shim)."""
import ast
import importlib
import os
import re

import pytest

pytest.importorskip("sagemaker.train", reason="sagemaker-train (SDK v3) is not installed")

README = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "README.md")


def _v3_snippet() -> str:
    with open(README, encoding="utf-8") as readme:
        text = readme.read()
    block = next(b for b in re.findall(r"```python\n(.*?)```", text, re.DOTALL) if "# SDK v3 with this project" in b)
    return block.split("# SDK v3 with this project", 1)[1]


def test_every_name_the_snippet_calls_is_imported_from_where_it_is_defined():
    tree = ast.parse(_v3_snippet())
    imported = {
        alias.asname or alias.name: node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    called = {node.func.id for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    assert {"ModelTrainer", "SourceCode", "Compute", "attach_debugger"} <= called
    assert called <= set(imported), called - set(imported)
    for name, module in imported.items():
        value = getattr(importlib.import_module(module), name)
        defined_in = getattr(value, "__module__", module)
        # a re-export from the package that defines it is fine; a shim re-exporting another package's is not
        assert defined_in == module or defined_in.startswith(module + "."), (name, module, defined_in)
