"""configfile.format and configfile.read: the format description, the reader, dump and the schema agree."""
from __future__ import annotations

import inspect
import json
import warnings

import attrs
import pytest
import yaml
from hypothesis import given, HealthCheck, strategies as st

from sm_debug_config import configfile as cf
from sm_debug_config.configfile import format as config_format
from sm_debug_config.configfile import format as fmt
from sm_debug_config.configfile.read import _SCALARS, Reader
from sm_debug_config.errors import ConfigError, ConfigWarning

from tests.configfile.cfhelpers import CUSTOM_IMAGE, at, render_warnings_of, warning_of
from tests.docstrategies import config_documents
from tests.strategies import examples


# --- the format description, the loader, dump and the schema agree -----------------------------


_POOLS = {  # values of each scalar kind, valid for most keys of that kind (the loader decides)
    "string": st.sampled_from(
        [
            "s3://my-bucket/out/",
            "/opt/ml/processing/out",
            "ml.m5.xlarge",
            "Name1",
            "gradients",
            CUSTOM_IMAGE,
            "+14155550100",
            "a@example.com",
            "us-east-1",
        ]
    ),
    "integer": st.sampled_from([1, 5, 30, 500, 1000, 1_700_000_000]),
    "number": st.sampled_from([1, 2.5, 60]),
    "boolean": st.booleans(),
    "int_or_string": st.sampled_from([60, "600"]),
    "string_list": st.lists(st.just("s3://my-bucket/other/debug-output"), max_size=2),
    "names_or_bool": st.one_of(st.booleans(), st.just(["new_knob"])),
    "string_map": st.just({"LocalPath": "/opt/ml/output/profiler"}),
    "hook_parameters": st.fixed_dictionaries(
        {}, optional={"save_interval": st.integers(1, 1000).map(str), "include_regex": st.just("conv.*")}
    ),
    "collection_parameters": st.fixed_dictionaries({}, optional={"save_interval": st.integers(1, 1000).map(str)}),
    "rule_parameters": st.one_of(
        st.none(), st.fixed_dictionaries({}, optional={"threshold": st.floats(0.0, 1.0), "mode": st.just("TRAIN")})
    ),
    "builtin_name": st.sampled_from(
        [
            "VanishingGradient",
            "Overfit",
            "LossNotDecreasing",
            "CPUBottleneck",
            "ProfilerReport",
            config_format.DETAILED_PROFILER_RULE,
        ]
    ),
}


@st.composite
def _described(draw, kind, depth=0):
    """A value of ``kind`` drawn from the format description itself (the loader may refuse it)."""
    forms = config_format.formats()
    if kind in _POOLS:
        return draw(_POOLS[kind])
    if config_format.choices(kind):
        return draw(st.sampled_from(config_format.choices(kind)))
    if kind == "collections":
        return draw(st.lists(st.one_of(_POOLS["string"], _described("collection", depth + 1)), max_size=2))
    if kind == "actions":
        one = _described("action", depth + 1).filter(lambda a: len(a) == 1)
        return draw(st.one_of(one, st.lists(one, min_size=1, max_size=2)))
    if kind == "rules":
        entry = st.one_of(
            _POOLS["builtin_name"],
            _described("builtin_rule", depth + 1),
            *[
                _described(name, depth + 1).map(lambda d, k=key: {k: d})
                for key, name in (
                    ("custom", "custom_rule"),
                    ("custom_profiler", "custom_profiler_rule"),
                    ("rule", "exact_rule"),
                    ("profiler_rule", "exact_profiler_rule"),
                )
            ],
        )
        return draw(st.lists(entry, max_size=2))
    if kind == "debugger_hook_config" and draw(st.booleans()):
        return draw(st.booleans())
    form = forms[kind]
    optional = [k for k in form.keys if k not in form.required and k != "$schema"]
    keys = list(form.required) + draw(st.lists(st.sampled_from(optional), unique=True, max_size=3 if depth else 6))
    return {key: draw(_described(form.keys[key].kind, depth + 1)) for key in keys}


@examples(150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.one_of(_described("config"), config_documents()))
def test_every_document_the_loader_accepts_validates_against_the_schema_and_dumps_back(document):
    jsonschema = pytest.importorskip("jsonschema")
    with warnings.catch_warnings():  # a random document's findings are not the point: what the loader accepts is
        warnings.simplefilter("ignore", ConfigWarning)  # (loads warns them, a collector around it or not)
        try:
            loaded = cf.loads(json.dumps(document), filename="described.json")
        except ConfigError:
            return  # the property is about what the loader accepts
        validator = jsonschema.Draft202012Validator(cf.config_schema())
        for candidate in (document, loaded.to_config()):
            errors = [(list(e.path), e.message[:200]) for e in validator.iter_errors(candidate)]
            assert not errors, (candidate, errors)
        assert cf.loads(json.dumps(loaded.to_config())) == loaded


@examples(50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_dump_of_valid_objects_validates_and_loads_back_equal(data):
    jsonschema = pytest.importorskip("jsonschema")
    from tests import strategies

    kwargs = data.draw(strategies.configurations())
    dumped = cf.dump(**kwargs)
    assert not list(jsonschema.Draft202012Validator(cf.config_schema()).iter_errors(dumped))
    loaded = cf.loads(yaml.safe_dump(dumped))
    assert {k: loaded.render_kwargs()[k] for k in kwargs} == {
        k: (list(val) if k == "rules" else val) for k, val in kwargs.items()
    }


def test_schema_accepts_exact_rule_entries():
    jsonschema = pytest.importorskip("jsonschema")
    document = {
        "rules": [
            {"rule": {"name": "R", "image_uri": CUSTOM_IMAGE}},
            {"profiler_rule": {"name": "P", "image_uri": CUSTOM_IMAGE}},
        ]
    }
    assert not list(jsonschema.Draft202012Validator(cf.config_schema()).iter_errors(document))
    rules = cf.loads(json.dumps(document)).rules
    assert [type(rule).__name__ for rule in rules] == ["Rule", "ProfilerRule"]


def test_format_keys_are_the_constructor_fields():
    import attrs

    checked = []
    for form in config_format.formats().values():
        cls = form.build_class() if form.cls else None
        if (
            cls is None or not attrs.has(cls) or cls.__name__ in ("Rule", "ProfilerRule")
        ):  # rules are built by classmethods
            continue
        init = {
            getattr(f, "alias", None) or f.name
            for f in attrs.fields(cls)
            if f.init and not f.metadata.get("filled_by_render")
        }
        assert {k.name for k in form.keys.values()} - {"profiling_parameters"} == init - {"profiling_parameters"}, (
            form.name
        )
        checked.append(cls.__name__)
    assert len(checked) >= 6
    from sm_debug_config.model.settings import DebuggerSetup, JobSettings

    assert set(cf.TOP_KEYS) == {"$schema"} | set(DebuggerSetup.names()) | set(JobSettings.names()) - {"validate"}


@pytest.mark.parametrize(
    "text, position, words",
    [
        ("rules:\n  - builtin: Overfit\n    actions: [{email: not-an-address}]\n", "email", "not an email address"),
        ("rules:\n  - builtin: Overfit\n    actions: [{sms: '4155550100'}]\n", "sms", "E.164"),
        (
            "debugger_hook_config:\n  container_local_output_path: tensors\n",
            "container_local_output_path",
            "absolute path",
        ),
        ("rules:\n  - builtin: SimilarAcrossRuns\n", "builtin", "another trial"),
    ],
)
def test_what_runs_but_is_probably_unintended_warns_at_its_key(text, position, words):
    """Refused before issue 14; the job runs, so a ConfigWarning positioned like an error."""
    message = warning_of(text)
    line, column = at(text, position)
    assert message.startswith(f"job.yaml:{line}:{column}: ") and words in message, message


def test_a_rule_parameter_out_of_range_warns_at_its_key_when_rendered():
    """Issue 36: a rule's parameters are the request's to check: SMD121 comes from render, at its key."""
    text = "rules:\n  - builtin: CPUBottleneck\n    rule_parameters:\n      threshold: 300\n"
    [message] = render_warnings_of(text, "SMD121")
    line, column = at(text, "threshold")
    assert message.startswith(f"job.yaml:{line}:{column}: ") and "<= 100" in message, message


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
    used = {form.cls for form in fmt.formats().values() if form.cls} | {
        ref for ref, _doc in fmt.data()["choices"].values()
    }
    assert set(names) == used  # nothing in the table that the format does not name


def test_every_key_kind_has_a_reader():
    """A kind is read by Reader.READERS, as a scalar, as a choice, or as an object of that format."""
    for form in fmt.formats().values():
        for key in form.keys.values():
            kind = key.kind
            assert (
                kind in Reader.READERS
                or kind in _SCALARS
                or fmt.choices(kind) is not None
                or kind in fmt.formats()
                or kind == "builtin_name"
            ), (form.name, key.name, kind)


def test_the_readers_table_holds_reader_methods():
    for kind, reader in Reader.READERS.items():
        assert reader.__qualname__.startswith("Reader.read_"), kind
        assert list(inspect.signature(reader).parameters)[:3] == ["self", "node", "path"], kind
