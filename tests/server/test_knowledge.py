"""The catalogue data hover shows: every built-in collection of any framework has a description of what it saves
(runs without the ``server`` extra: it reads only the package's data)."""
from __future__ import annotations

from sm_debug_config import datafiles


def test_every_built_in_collection_says_what_it_saves():
    frameworks = datafiles.load("hook_parameters")["frameworks"]
    names = {name for entry in frameworks.values() for name in entry["builtin_collections"]}
    described = datafiles.load("collection_descriptions")["collections"]
    assert names == set(described), names ^ set(described)
    assert all(text and not text.endswith(".") for text in described.values())
