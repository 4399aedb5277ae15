"""The API limits against their sources: (a) the checked-in schema is what the installed botocore generates;
(c) the interpreter agrees with the jsonschema library on random requests."""
import json
import os
import re
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sm_debug_config import apischema
from sm_debug_config.apischema import check_api
from tests.repo_scripts import load_script, skip_unless_botocore_is_at_least_the_data_source
from tests.apihelpers import PLACEHOLDERS, pairs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMA_PATH = os.path.join(ROOT, "sm_debug_config", "data", "api_schema.json")
ENGINES = apischema.ENGINES


# --- (a) the checked-in file is what the installed botocore generates ----------------------------

GEN = load_script("generate_api_schema")


def test_checked_in_schema_matches_installed_botocore():
    skip_unless_botocore_is_at_least_the_data_source("api_schema.json")
    fresh = GEN.build_schema()
    with open(SCHEMA_PATH, encoding="utf-8") as handle:
        current = json.load(handle)
    for key in GEN.PROVENANCE_KEYS:
        fresh.pop(key, None)
        current.pop(key, None)
    if fresh != current:
        changed = sorted(
            name
            for name in set(fresh.get("$defs", {})) | set(current.get("$defs", {}))
            if fresh.get("$defs", {}).get(name) != current.get("$defs", {}).get(name)
        )
        other = sorted(k for k in set(fresh) | set(current) if k != "$defs" and fresh.get(k) != current.get(k))
        pytest.fail(
            "sm_debug_config/data/api_schema.json is out of date with the installed botocore's SageMaker model "
            f"(changed $defs: {changed or 'none'}; other keys: {other or 'none'}). "
            "Run `python scripts/generate_api_schema.py` and review the diff."
        )


def test_checked_in_file_is_the_canonical_text():
    with open(SCHEMA_PATH, encoding="utf-8") as handle:
        text = handle.read()
    assert text == GEN.dumps(json.loads(text))
    assert text.endswith("}\n") and "\n \"$defs\": {" in text
    assert GEN.dumps(GEN.build_schema()) == GEN.dumps(GEN.build_schema())


def test_schema_records_its_origin_and_is_valid_draft_2020_12():
    from jsonschema import Draft202012Validator

    schema = apischema.api_schema()
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["x-api-version"] == "2017-07-24"
    assert re.fullmatch(r"\d+\.\d+\.\d+", schema["x-botocore-version"])
    assert "whole value" in schema["x-note"] and "generate_api_schema.py" in schema["x-note"]
    assert apischema.operations() == ("CreateTrainingJob", "UpdateTrainingJob")
    update = schema["$defs"]["UpdateTrainingJobDebuggerFields"]["properties"]
    assert update == {
        "ProfilerConfig": {"$ref": "#/$defs/ProfilerConfigForUpdate"},
        "ProfilerRuleConfigurations": {"$ref": "#/$defs/ProfilerRuleConfigurations"},
    }
    assert "additionalProperties" not in schema["$defs"]["CreateTrainingJobDebuggerFields"]
    assert schema["$defs"]["DebugHookConfig"]["additionalProperties"] is False


def test_check_mode_of_the_script(tmp_path):
    skip_unless_botocore_is_at_least_the_data_source("api_schema.json")
    out = tmp_path / "schema.json"
    assert GEN.main(["--output", str(out), "--check"]) == 1
    assert GEN.main(["--output", str(out)]) == 0
    assert GEN.main(["--output", str(out), "--check"]) == 0
    with open(SCHEMA_PATH, encoding="utf-8") as handle:
        assert json.loads(out.read_text())["$defs"] == json.load(handle)["$defs"]
    # another botocore with the same model: only the provenance differs, which is no drift (as the test above)
    document = json.loads(out.read_text())
    out.write_text(GEN.dumps(dict(document, **{key: "0.0.1" for key in GEN.PROVENANCE_KEYS})))
    assert GEN.main(["--output", str(out), "--check"]) == 0
    out.write_text(GEN.dumps(dict(document, title="changed")))
    assert GEN.main(["--output", str(out), "--check"]) == 1


@pytest.mark.parametrize(
    "java, translated",
    [
        (".*", "[^\\n\\r\\u0085\\u2028\\u2029]*"),
        ("(https|s3)://([^/]+)/?(.*)", "(https|s3)://([^/]+)/?([^\\n\\r\\u0085\\u2028\\u2029]*)"),
        ("^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}", "[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}"),
        ("[\\d.]+\\.x", "[0-9.]+\\.x"),
        ("\\w+\\S", "[a-zA-Z0-9_]+[^ \\t\\n\\x0B\\f\\r]"),
    ],
)
def test_java_patterns_are_translated(java, translated):
    assert GEN.translate_pattern(java) == translated


@pytest.mark.parametrize("java", ["\\p{Alpha}+", "a*+", "(?i)abc", "[a-z&&[^e]]", "a$b", "\\Qx\\E", "[abc"])
def test_untranslatable_java_patterns_fail_loudly(java):
    with pytest.raises(GEN.UnsupportedPattern):
        GEN.translate_pattern(java)


@pytest.mark.parametrize(
    "value, ok",
    [
        ("s3://bucket/key", True),
        ("https://bucket", True),
        ("s3://bucket/", True),
        ("gs://bucket/key", False),
        ("xs3://bucket/key", False),  # a search without anchors would accept this
        ("s3://", False),
        ("s3://bucket/key\n", False),  # Python's bare '$' would accept a final newline
        ("s3://bucket/key\r", False),  # Java's '.' matches no line terminator
        ("s3://bucket/a\u2028b", False),
    ],
)
def test_anchored_pattern_means_a_whole_value_match(value, ok):
    pattern = apischema.api_schema()["$defs"]["S3Uri"]["pattern"]
    assert (re.search(pattern, value) is not None) is ok
    for engine in ENGINES:
        found = pairs({"TensorBoardOutputConfig": {"S3OutputPath": value}}, engine)
        assert found == ([] if ok else [("/TensorBoardOutputConfig/S3OutputPath", "pattern")])


# --- (c) the interpreter agrees with the jsonschema library on random requests ---------------------------------

DEFS = apischema.api_schema()["$defs"]


NON_JSON = st.sampled_from([object(), 1 + 2j, Decimal("2"), frozenset({1}), b"x"])


WEIRD = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.integers(),
    st.floats(),
    st.text(max_size=3),
    NON_JSON,
    st.sampled_from(PLACEHOLDERS + [{"Get": 1}, {}, {"Get": "x", "Other": 1}]),
    st.lists(st.integers(0, 2), max_size=2),
    st.lists(st.integers(0, 2), max_size=2).map(tuple),
    st.dictionaries(st.sampled_from(["a", "S3OutputPath", "Get"]), st.integers(0, 2), max_size=2),
)


TRICKY_STRINGS = [
    "",
    "a",
    "s3://b/k",
    "https://b",
    "gs://b/k",
    "s3://",
    "s3://b/k\n",
    "s3://b\r/k",
    "x\u2028",
    "\n",
    "ml.m5.xlarge",
    "ml.bogus",
    "ML.M5.XLARGE",
    "a/b~c",
]


def _resolve(node):
    while "$ref" in node:
        node = DEFS[node["$ref"].rsplit("/", 1)[1]]
    return node


def _sized(item, low, high):
    """Lists of ``low``..``high`` copies of one drawn item (cheap way to reach the size limits)."""
    return st.tuples(item, st.integers(max(low, 0), high)).map(lambda t: [t[0]] * t[1])


def strategy(node):
    node = _resolve(node)
    kind = node.get("type")
    if kind == "string":
        options = [st.text(max_size=4), st.sampled_from(TRICKY_STRINGS)]
        if "enum" in node:
            options.append(st.sampled_from(node["enum"]))
        if "maxLength" in node:
            n = node["maxLength"]
            options.append(
                st.tuples(st.sampled_from([n - 1, n, n + 1]), st.sampled_from(["a", "\n", "é"])).map(
                    lambda t: t[1] * t[0]
                )
            )
        conforming = st.one_of(*options)
    elif kind == "integer":
        conforming = st.one_of(st.integers(-2, 2), st.integers(), st.sampled_from([1.0, 0.5, -1.0]))
    elif kind == "boolean":
        conforming = st.booleans()
    elif kind == "array":
        item = strategy(node["items"])
        lists = [st.lists(item, max_size=3)]
        if "maxItems" in node:
            lists.append(_sized(item, node["maxItems"] - 1, node["maxItems"] + 1))
        conforming = st.one_of(*lists).flatmap(lambda value: st.sampled_from([value, tuple(value)]))
    elif kind == "object" and "properties" in node:
        conforming = st.tuples(
            st.fixed_dictionaries({}, optional={name: strategy(sub) for name, sub in node["properties"].items()}),
            st.dictionaries(st.sampled_from(["Unknown", "s3OutputPath", 1]), WEIRD, max_size=1),
        ).map(lambda t: {**t[0], **t[1]})
    elif kind == "object":
        keys = st.one_of(
            st.text(max_size=3), st.sampled_from(["", "a/b~c", "k" * 257, "line\n"]), st.sampled_from([1, None])
        )
        value = strategy(node["additionalProperties"])
        maps = [st.dictionaries(keys, value, max_size=3)]
        if "maxProperties" in node:
            n = node["maxProperties"]
            maps.append(st.integers(n - 1, n + 1).map(lambda size: {f"k{i}": "v" for i in range(size)}))
        conforming = st.one_of(*maps)
    else:  # pragma: no cover - the generator emits nothing else
        raise AssertionError(node)
    if kind in ("string", "integer", "boolean"):
        conforming = st.one_of(conforming, st.sampled_from(PLACEHOLDERS))
    return st.integers(0, 9).flatmap(lambda n: WEIRD if n == 0 else conforming)


OPERATION_STRATEGIES = {
    op: st.one_of(
        st.tuples(
            strategy({"$ref": pointer}),
            st.fixed_dictionaries({}, optional={"TrainingJobName": st.text(max_size=3), "RoleArn": WEIRD}),
        ).map(lambda t: {**t[0], **t[1]} if isinstance(t[0], dict) else t[0]),
    )
    for op, pointer in apischema.api_schema()["x-operations"].items()
}


def _plain(value):
    """``value`` as the jsonschema library takes it (tuples as lists), or None if it holds non-JSON values."""
    if value is None or isinstance(value, (str, int, float)):
        return value
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        items = {k: _plain(v) for k, v in value.items()}
        return None if any(items[k] is None and value[k] is not None for k in value) else items
    if isinstance(value, (list, tuple)):
        items = [_plain(v) for v in value]
        return None if any(i is None and v is not None for i, v in zip(items, value)) else items
    return None


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    st.sampled_from(sorted(OPERATION_STRATEGIES)).flatmap(lambda op: st.tuples(st.just(op), OPERATION_STRATEGIES[op]))
)
def test_interpreter_agrees_with_jsonschema(case):
    # The interpreter follows JSON Schema semantics (5.0 is an integer, True is not): on a plain
    # JSON request without pipeline placeholders, it finds errors exactly when the library does.
    from jsonschema import Draft202012Validator

    operation, request = case
    result = check_api(request, operation=operation)
    plain = _plain(request)
    if result.skipped or (plain is None and request is not None):
        return
    schema = dict(apischema.api_schema(), **{"$ref": apischema.api_schema()["x-operations"][operation]})
    assert bool(result.errors) == any(True for _ in Draft202012Validator(schema).iter_errors(plain))
