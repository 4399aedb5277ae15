"""configfile.format and configfile.read: what data/config_format.json names resolves through explicit tables."""
from __future__ import annotations

import inspect

import attrs

from sm_debug_config.configfile import format as fmt
from sm_debug_config.configfile.read import _SCALARS, Reader


def test_every_class_and_choice_the_format_names_is_in_the_table():
    names = fmt.model_names()
    for form in fmt.formats().values():
        if form.cls is not None:
            assert form.cls in names, form.name
            assert attrs.has(form.build_class()) or inspect.isclass(form.build_class()), form.name
            assert form.build_class().__name__ == form.cls
    for kind, (ref, _doc) in fmt.data()["choices"].items():
        assert ref in names, kind
        assert fmt.choices(kind), kind
    used = {form.cls for form in fmt.formats().values() if form.cls} | {ref for ref, _doc in fmt.data()["choices"].values()}
    assert set(names) == used  # nothing in the table that the format does not name


def test_every_key_kind_has_a_reader():
    """A kind is read by Reader.READERS, as a scalar, as a choice, or as an object of that format."""
    for form in fmt.formats().values():
        for key in form.keys.values():
            kind = key.kind
            assert kind in Reader.READERS or kind in _SCALARS or fmt.choices(kind) is not None or kind in fmt.formats() \
                or kind == "builtin_name", (form.name, key.name, kind)


def test_the_readers_table_holds_reader_methods():
    for kind, reader in Reader.READERS.items():
        assert reader.__qualname__.startswith("Reader.read_"), kind
        assert list(inspect.signature(reader).parameters)[:3] == ["self", "node", "path"], kind
