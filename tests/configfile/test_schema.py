"""configfile.schema: the JSON Schema of the format agrees with the loader."""
from __future__ import annotations

import json

import pytest
import yaml

from sm_debug_config import configfile as cf
from sm_debug_config.errors import ConfigError

from tests.configfile.cfhelpers import EXAMPLES


# --- the JSON Schema --------------------------------------------------------------------------


def _properties(schema, where="#"):
    if isinstance(schema, dict):
        for key, value in (schema.get("properties") or {}).items():
            if isinstance(value, dict):
                yield f"{where}/properties/{key}", value
        for key, value in schema.items():
            yield from _properties(value, f"{where}/{key}")
    elif isinstance(schema, list):
        for index, value in enumerate(schema):
            yield from _properties(value, f"{where}/{index}")


def test_schema_is_valid_draft_2020_12_and_described():
    jsonschema = pytest.importorskip("jsonschema")
    schema = cf.config_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    missing = [where for where, prop in _properties(schema) if "description" not in prop]
    assert not missing, missing[:10]
    json.dumps(schema)  # plain JSON, printable by the CLI
    assert cf.config_schema() == schema


def test_schema_enums():
    from sm_debug_config.model import catalogue
    defs = cf.config_schema()["$defs"]
    assert set(catalogue.all_names()) <= set(defs["builtin_name"]["enum"])
    assert defs["framework"]["enum"] == ["tensorflow", "pytorch", "mxnet", "xgboost"]
    assert defs["python_profiler"]["enum"] == ["cprofile", "pyinstrument"]
    assert set(defs["cprofile_timer"]["enum"]) == {"total_time", "cpu_time", "off_cpu_time", "default"}


def test_schema_keys_match_the_loader_tables():
    schema = cf.config_schema()
    defs = schema["$defs"]
    assert set(schema["properties"]) == set(cf.TOP_KEYS)
    assert set(defs["builtin_rule"]["properties"]) == set(cf.BUILTIN_RULE_KEYS)
    assert set(defs["custom_rule"]["properties"]) == set(cf.CUSTOM_RULE_KEYS)
    assert set(defs["framework_profile"]["properties"]) == set(cf.FRAMEWORK_PROFILE_KEYS)
    assert set(defs["PythonProfilingConfig"]["properties"]) == set(cf.METRIC_KEYS) | {
        "python_profiler",
        "cprofile_timer",
    }


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_and_their_dumps_validate_against_the_schema(path):
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(cf.config_schema())
    for document in (yaml.safe_load(path.read_text()), cf.load(path).to_config()):
        errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
        assert not errors, [(list(e.path), e.message[:200]) for e in errors]


@pytest.mark.parametrize(
    "document",
    [
        {"rules": [{"builtin": "VanishingGradient", "rule_paramters": {}}]},
        {"rules": [{"builtin": "NoSuchRule"}]},
        {"rules": [{"builtin": "ProfilerReport", "actions": {"email": "a@example.com"}}]},
        {"rules": [{"builtin": "Overfit", "instance_type": "ml.m5.xlarge"}]},
        {"rules": [{"custom": {"name": "x"}}]},
        {"framework": "jax"},
        {"profiler_config": {"framework_profile_params": {"python_profiling_config": {"python_profiler": "yappi"}}}},
        {"tensorboard_output_config": {}},
    ],
)
def test_schema_rejects_what_the_loader_rejects(document):
    jsonschema = pytest.importorskip("jsonschema")
    assert list(jsonschema.Draft202012Validator(cf.config_schema()).iter_errors(document))
    with pytest.raises(ConfigError):
        cf.loads(json.dumps(document), filename="x.json")
