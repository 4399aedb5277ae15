"""The docstring examples of the language server's modules run where its extra is installed (scripts/test_server.sh;
tests/system/test_docstring_examples.py leaves out those that import pygls where it is not)."""
from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

pytest.importorskip("pygls", reason="the language server needs the 'server' extra (pygls, lsprotocol)")

import sm_debug_config.server

MODULES = sorted(
    info.name for info in pkgutil.iter_modules(sm_debug_config.server.__path__, "sm_debug_config.server.")
    if any(test.examples for test in doctest.DocTestFinder().find(importlib.import_module(info.name))))


def test_the_modules_with_examples_are_found():
    assert {"sm_debug_config.server.text", "sm_debug_config.server.documents", "sm_debug_config.server.actions",
            "sm_debug_config.server.knowledge", "sm_debug_config.server.jupyter"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"
