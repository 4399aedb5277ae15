"""Check Debugger request fields against the API's own limits, kept as data.

``sm_debug_config/data/api_schema.json`` is a JSON Schema (draft 2020-12) generated from the
SageMaker service model that botocore ships (``scripts/generate_api_schema.py``): list and map
sizes, string lengths, patterns, enums, integer ranges, required and unknown keys of the five
Debugger fields of ``CreateTrainingJob`` and of ``UpdateTrainingJob``'s profiler fields.
boto3 itself only checks types, required members and minimums before sending; the service
rejects the rest, one error at a time. :func:`validate_api` reports every violation at once.

Two engines read the same file:

* ``"builtin"`` (default): a small interpreter of exactly the keywords the generator emits,
  driven by the schema data. Importing it costs no ``jsonschema`` import (~100 ms).
* ``"jsonschema"``: the ``jsonschema`` library's ``Draft202012Validator``, its errors converted
  to the same :class:`SchemaError` form. The test suite checks that both agree.

Pipeline placeholders (``{"Get": "Parameters.X"}``, ``{"Std:Join": ...}``, pipeline variable
objects) where a string, integer or boolean is expected are not errors: their value is only
known when the pipeline runs. :func:`check_api` lists them in ``skipped``.

>>> [str(e) for e in validate_api({"TensorBoardOutputConfig": {"S3OutputPath": "gs://bucket/tb"}})]
["/TensorBoardOutputConfig/S3OutputPath: value 'gs://bucket/tb' does not match the API pattern (https|s3)://([^/]+)/?(.*) (the whole value must match)"]
"""
from __future__ import annotations

import copy
import functools
import itertools
import re
from typing import Any, Callable, Dict, Iterator, List, Pattern, Sequence, Tuple

import attrs

from sm_debug_config import datafiles as _data
from sm_debug_config.model.validators import is_pipeline_variable
from sm_debug_config.errors import ERROR, INFO, ConfigError, did_you_mean, pointer, shorten
from sm_debug_config.validation.registry import RULE_FIELDS, Context, Found, check, path_key

__all__ = [
    "ENGINES",
    "ApiCheck",
    "PipelineValue",
    "SchemaError",
    "api_schema",
    "check_api",
    "is_pipeline_expression",
    "operations",
    "validate_api",
]

ENGINES = ("builtin", "jsonschema")
DEFAULT_OPERATION = "CreateTrainingJob"
SCHEMA_FILE = "api_schema"


@attrs.frozen
class SchemaError:
    """One violation of an API limit.

    ``path`` is a JSON pointer (RFC 6901) into the request, ``keyword`` the JSON Schema keyword
    that failed (``maxItems``, ``maxLength``, ``pattern``, ``required``, ``enum``, ``type``,
    ``additionalProperties``, ``minimum``...), ``value`` what was found there (``None`` when a
    required key is missing; not part of equality).
    """

    path: str
    message: str
    keyword: str
    value: Any = attrs.field(default=None, eq=False)

    def __str__(self) -> str:
        return f"{self.path or '(request)'}: {self.message}"


@attrs.frozen
class PipelineValue:
    """A pipeline placeholder where the API expects a scalar: not checked (informational).

    ``expected`` is the JSON type the API wants there (``"string"``, ``"integer"``, ``"boolean"``).
    """

    path: str
    expected: str
    value: Any = attrs.field(default=None, eq=False)

    @property
    def message(self) -> str:
        return f"pipeline variable: the API checks this {self.expected} when the pipeline runs"

    def __str__(self) -> str:
        return f"{self.path or '(request)'}: {self.message}"


@attrs.frozen
class ApiCheck:
    """Everything :func:`check_api` found: ``errors`` (sorted by path) and ``skipped`` placeholders."""

    errors: Tuple[SchemaError, ...]
    skipped: Tuple[PipelineValue, ...]

    @property
    def ok(self) -> bool:
        return not self.errors


# --- the schema -----------------------------------------------------------------------------------

_VALIDATION_KEYWORDS = frozenset(
    "$ref type enum properties required additionalProperties propertyNames items minItems maxItems "
    "minProperties maxProperties minLength maxLength pattern minimum maximum".split()
)
_ANNOTATIONS = frozenset({"title", "description", "$comment"})
_SCALARS = frozenset({"string", "integer", "number", "boolean"})


def _is_integer(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_TYPES: Dict[str, Callable[[Any], bool]] = {
    "object": lambda value: isinstance(value, dict),
    "array": lambda value: isinstance(value, (list, tuple)),
    "string": lambda value: isinstance(value, str),
    "integer": _is_integer,
    "number": _is_number,
    "boolean": lambda value: isinstance(value, bool),
    "null": lambda value: value is None,
}


def _raw_schema() -> Dict[str, Any]:
    return _data.load(SCHEMA_FILE)


def api_schema() -> Dict[str, Any]:
    """A copy of the JSON Schema in ``sm_debug_config/data/api_schema.json``."""
    return copy.deepcopy(_raw_schema())


def operations() -> Tuple[str, ...]:
    """The operations the schema describes (``CreateTrainingJob``, ``UpdateTrainingJob``)."""
    return tuple(_raw_schema()["x-operations"])


def _check_node(node: Any, where: str, defs: Dict[str, Any]) -> None:
    if not isinstance(node, dict):
        raise RuntimeError(f"api_schema.json: {where} is not a schema object")
    for key, item in node.items():
        if key.startswith("x-") or key in _ANNOTATIONS:
            continue
        if key not in _VALIDATION_KEYWORDS:
            raise RuntimeError(
                f"api_schema.json: {where} uses {key!r}, which the builtin engine does not implement; "
                "extend sm_debug_config/validation/api.py or use engine='jsonschema'"
            )
        if key == "$ref":
            if not isinstance(item, str) or not item.startswith("#/$defs/") or item[8:] not in defs:
                raise RuntimeError(f"api_schema.json: {where} refers to {item!r}, which is not in $defs")
            if any(k in _VALIDATION_KEYWORDS for k in node if k != "$ref"):
                raise RuntimeError(f"api_schema.json: {where} has keywords beside $ref")
        elif key == "type" and item not in _TYPES:
            raise RuntimeError(f"api_schema.json: {where} has type {item!r}")
        elif key == "properties":
            for name, sub in item.items():
                _check_node(sub, f"{where}/properties/{name}", defs)
        elif key in ("propertyNames", "items") or (key == "additionalProperties" and item is not False):
            _check_node(item, f"{where}/{key}", defs)


@functools.lru_cache(maxsize=None)
def _builtin_defs() -> Dict[str, Any]:
    """``$defs`` of the schema, checked once to use only keywords this module implements."""
    schema = _raw_schema()
    defs = schema["$defs"]
    for name, node in defs.items():
        _check_node(node, f"$defs/{name}", defs)
    return defs


def _operation_def(operation: str) -> str:
    pointers = _raw_schema()["x-operations"]
    if not isinstance(operation, str) or operation not in pointers:
        raise ConfigError(f"got {shorten(operation)}", field="operation", allowed=" or ".join(pointers))
    return pointers[operation]


# --- shared helpers -------------------------------------------------------------------------------


def is_pipeline_expression(value: Any) -> bool:
    """True for a SageMaker Pipelines value: a pipeline variable object or its JSON expression
    as render writes it (``{"Get": "Parameters.X"}``, ``{"Std:Join": ...}``, ``{"Std:JsonGet": ...}``).

    >>> is_pipeline_expression({"Get": "Parameters.LearningRate"}), is_pipeline_expression({"Get": 1})
    (True, False)
    """
    if isinstance(value, dict):
        if len(value) != 1:
            return False
        ((key, item),) = value.items()
        if key == "Get":
            return isinstance(item, str)
        return isinstance(key, str) and key.startswith("Std:")
    return is_pipeline_variable(value)


def _render(value: Any, depth: int = 0) -> str:
    """``repr`` for JSON values; other objects as ``<TypeName>`` (no memory addresses)."""
    if value is None or isinstance(value, (str, int, float)):
        return shorten(value)  # bounded: a 5,000-digit int has no repr()
    if depth >= 3:
        return "..."
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_render(k, depth + 1)}: {_render(v, depth + 1)}" for k, v in list(value.items())[:8]) + (", ...}" if len(value) > 8 else "}")
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_render(v, depth + 1) for v in value[:8]) + (", ...]" if len(value) > 8 else "]")
    return f"<{type(value).__name__}>"


def _short(value: Any, limit: int = 60) -> str:
    text = _render(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


_TYPE_WORDS = {
    "object": "an object",
    "array": "an array",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "null": "null",
}


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "an array"
    return f"a Python {type(value).__name__}"


def _enum_text(value: Any, allowed: Sequence[Any]) -> str:
    if len(allowed) <= 12:
        listing = ", ".join(str(a) for a in allowed)
    else:
        listing = f"one of {len(allowed)} values, e.g. " + ", ".join(str(a) for a in allowed[:3])
    hint = did_you_mean(value, [a for a in allowed if isinstance(a, str)]) if isinstance(value, str) else ""
    return f"{hint} (the API accepts {listing})" if hint else f" (the API accepts {listing})"


def _message(keyword: str, value: Any, node: Dict[str, Any], is_key: bool, name: Any = None) -> str:
    """The message for ``keyword`` failing on ``value`` under schema ``node`` (both engines)."""
    subject = "key" if is_key else "value"
    if keyword == "type":
        return f"{subject} is {_json_kind(value)} ({_short(value)}); the API expects {_TYPE_WORDS.get(node['type'], node['type'])}"
    if keyword == "enum":
        return f"{subject} {_short(value)} is not an allowed value;{_enum_text(value, node['enum'])}"
    if keyword == "pattern":
        return f"{subject} {_short(value)} does not match the API pattern {node.get('x-pattern', node['pattern'])} (the whole value must match)"
    if keyword == "maxLength":
        return f"{subject} is {len(value)} characters long; the API allows at most {node['maxLength']}"
    if keyword == "minLength":
        return f"{subject} is {len(value)} characters long; the API requires at least {node['minLength']}"
    if keyword == "maximum":
        return f"{subject} is {_short(value)}; the API allows at most {node['maximum']}"
    if keyword == "minimum":
        return f"{subject} is {_short(value)}; the API requires at least {node['minimum']}"
    if keyword == "maxItems":
        return f"list has {len(value)} items; the API allows at most {node['maxItems']}"
    if keyword == "minItems":
        return f"list has {len(value)} items; the API requires at least {node['minItems']}"
    if keyword == "maxProperties":
        return f"map has {len(value)} entries; the API allows at most {node['maxProperties']}"
    if keyword == "minProperties":
        return f"map has {len(value)} entries; the API requires at least {node['minProperties']}"
    if keyword == "required":
        return f"required key {shorten(name)} is missing"
    if keyword == "additionalProperties":
        allowed = sorted(str(k) for k in node.get("properties", {}))
        hint = did_you_mean(name, allowed) if isinstance(name, str) else ""
        return f"unknown key {_short(name)};{hint} (the API allows {', '.join(allowed)})" if hint else f"unknown key {_short(name)} (the API allows {', '.join(allowed)})"
    return f"{subject} {_short(value)} fails the API's {keyword} constraint ({_short(node.get(keyword))})"


def _sort_key(error: SchemaError) -> Tuple[Any, ...]:
    return (path_key(error.path), error.keyword, error.message)


def _finish(errors: List[SchemaError], skipped: List[PipelineValue]) -> ApiCheck:
    unique: Dict[Tuple[str, str, str], SchemaError] = {}
    for error in errors:
        unique.setdefault((error.path, error.keyword, error.message), error)
    seen: Dict[str, PipelineValue] = {}
    for item in skipped:
        seen.setdefault(item.path, item)
    return ApiCheck(
        errors=tuple(sorted(unique.values(), key=_sort_key)),
        skipped=tuple(seen[p] for p in sorted(seen, key=lambda p: _sort_key(SchemaError(p, "", "")))),
    )


# --- the builtin engine ---------------------------------------------------------------------------

#: Entries of one list or map looked into by the builtin engine (the API allows at most 100; a
#: longer one is a maxItems/maxProperties error, and 100,000 entries would cost seconds).
MAX_VISITED = 1000

_PATTERNS: Dict[str, Pattern[str]] = {}
_ENUMS: Dict[int, Tuple[Sequence[Any], frozenset]] = {}


def _pattern(pattern: str) -> Pattern[str]:
    compiled = _PATTERNS.get(pattern)
    if compiled is None:
        compiled = _PATTERNS[pattern] = re.compile(pattern)
    return compiled


def _json_equal(one: Any, two: Any) -> bool:
    if isinstance(one, bool) or isinstance(two, bool):
        return type(one) is type(two) and one == two
    if isinstance(one, str) or isinstance(two, str):
        return one == two
    if isinstance(one, (list, tuple)) and isinstance(two, (list, tuple)):
        return len(one) == len(two) and all(_json_equal(a, b) for a, b in zip(one, two))
    try:
        return bool(one == two)
    except Exception:
        return False


def _in_enum(value: Any, allowed: Sequence[Any]) -> bool:
    if isinstance(value, str) and all(isinstance(a, str) for a in allowed):
        cached = _ENUMS.get(id(allowed))
        if cached is None or cached[0] is not allowed:
            cached = _ENUMS[id(allowed)] = (allowed, frozenset(allowed))
        return value in cached[1]
    return any(_json_equal(a, value) for a in allowed)


class _Builtin:
    """One validation run of the builtin engine over one request."""

    __slots__ = ("defs", "errors", "skipped")

    def __init__(self, defs: Dict[str, Any]) -> None:
        self.defs = defs
        self.errors: List[SchemaError] = []
        self.skipped: List[PipelineValue] = []

    def fail(self, path: Tuple[Any, ...], keyword: str, value: Any, node: Dict[str, Any], is_key: bool = False, name: Any = None) -> None:
        self.errors.append(SchemaError(pointer(*path), _message(keyword, value, node, is_key, name), keyword, value))

    def visit(self, value: Any, node: Dict[str, Any], path: Tuple[Any, ...], is_key: bool = False) -> None:
        ref = node.get("$ref")
        if ref is not None:
            node = self.defs[ref[8:]]
        kind = node.get("type")
        if kind is not None and not _TYPES[kind](value):
            if kind in _SCALARS and not is_key and is_pipeline_expression(value):
                self.skipped.append(PipelineValue(pointer(*path), kind, value))
            else:
                self.fail(path, "type", value, node, is_key)
            return  # other keywords are about the right type only
        if "enum" in node and not _in_enum(value, node["enum"]):
            self.fail(path, "enum", value, node, is_key)
        if isinstance(value, str):
            if "minLength" in node and len(value) < node["minLength"]:
                self.fail(path, "minLength", value, node, is_key)
            if "maxLength" in node and len(value) > node["maxLength"]:
                self.fail(path, "maxLength", value, node, is_key)
            if "pattern" in node and _pattern(node["pattern"]).search(value) is None:
                self.fail(path, "pattern", value, node, is_key)
        elif _is_number(value):
            if "minimum" in node and value < node["minimum"]:
                self.fail(path, "minimum", value, node, is_key)
            if "maximum" in node and value > node["maximum"]:
                self.fail(path, "maximum", value, node, is_key)
        elif isinstance(value, dict):
            self.visit_object(value, node, path)
        elif isinstance(value, (list, tuple)):
            if "minItems" in node and len(value) < node["minItems"]:
                self.fail(path, "minItems", value, node)
            if "maxItems" in node and len(value) > node["maxItems"]:
                self.fail(path, "maxItems", value, node)
            items = node.get("items")
            if items is not None:
                for index, item in enumerate(value[:MAX_VISITED]):  # past that, maxItems has said enough
                    self.visit(item, items, path + (index,))

    def visit_object(self, value: Dict[Any, Any], node: Dict[str, Any], path: Tuple[Any, ...]) -> None:
        properties = node.get("properties")
        extra = node.get("additionalProperties", True)
        names = node.get("propertyNames")
        for key, item in itertools.islice(value.items(), MAX_VISITED):  # past that, maxProperties has said enough
            where = path + (key,)
            if names is not None:
                self.visit(key, names, where, is_key=True)
            if properties is not None and key in properties:
                self.visit(item, properties[key], where)
            elif extra is False:
                self.fail(where, "additionalProperties", item, node, name=key)
            elif isinstance(extra, dict):
                self.visit(item, extra, where)
        for name in node.get("required", ()):
            if name not in value:
                self.fail(path + (name,), "required", None, node, name=name)
        if "minProperties" in node and len(value) < node["minProperties"]:
            self.fail(path, "minProperties", value, node)
        if "maxProperties" in node and len(value) > node["maxProperties"]:
            self.fail(path, "maxProperties", value, node)


def _check_builtin(request: Any, operation: str) -> ApiCheck:
    """The builtin engine's check; of a list or map longer than :data:`MAX_VISITED` (the API allows
    at most 20 or 100 entries: that error is reported) only the first entries are looked into."""
    defs = _builtin_defs()
    run = _Builtin(defs)
    run.visit(request, {"$ref": _operation_def(operation)}, ())
    return _finish(run.errors, run.skipped)


# --- the jsonschema engine ------------------------------------------------------------------------


class _Opaque:
    """Stands in for a non-JSON value so ``jsonschema`` sees no number, string or container."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


# jsonschema's descend(path=None) means "no path segment", so a ``None`` map key would vanish
# from error paths; it is renamed to this stand-in (hashable, never a string) and back.
_NONE_KEY = _Opaque(None)


def _jsonable(value: Any, active: Tuple[int, ...] = ()) -> Any:
    """``value`` as jsonschema should see it: tuples as lists, other non-JSON values (and
    containers that contain themselves) opaque."""
    if value is None or isinstance(value, (str, int, float)):
        return value
    if isinstance(value, (dict, list, tuple)) and id(value) not in active:
        inner = active + (id(value),)
        if isinstance(value, dict):
            return {(_NONE_KEY if key is None else key): _jsonable(item, inner) for key, item in value.items()}
        return [_jsonable(item, inner) for item in value]
    return _Opaque(value)


def _lookup(request: Any, path: Sequence[Any]) -> Any:
    """The original (unconverted) value at ``path`` in ``request``."""
    for token in path:
        request = request[token]
    return request


@functools.lru_cache(maxsize=None)
def _jsonschema_validator(operation: str) -> Any:
    from jsonschema import Draft202012Validator

    schema = dict(_raw_schema())
    schema["$ref"] = _operation_def(operation)
    return Draft202012Validator(schema)


def _is_key_error(schema_path: Sequence[Any]) -> bool:
    """Whether an error's schema path went through ``propertyNames`` (keywords and names alternate)."""
    index, tokens = 0, list(schema_path)
    while index < len(tokens):
        if tokens[index] == "properties":
            index += 2
            continue
        if tokens[index] == "propertyNames":
            return True
        index += 1
    return False


def _check_jsonschema(request: Any, operation: str) -> ApiCheck:
    validator = _jsonschema_validator(operation)
    found: List[Tuple[SchemaError, bool]] = []
    skipped: List[PipelineValue] = []
    for error in validator.iter_errors(_jsonable(request)):
        path: List[Any] = [None if token is _NONE_KEY else token for token in error.absolute_path]
        node = error.schema
        keyword = error.validator
        is_key = _is_key_error(error.absolute_schema_path)
        instance = _lookup(request, path)
        if keyword == "required":
            for name in error.validator_value:
                if name not in instance:
                    found.append((SchemaError(pointer(*path, name), _message("required", None, node, False, name), "required"), False))
            continue
        if keyword == "additionalProperties" and error.validator_value is False:
            properties = node.get("properties", {})
            for key, item in instance.items():
                if key not in properties:
                    message = _message("additionalProperties", item, node, False, key)
                    found.append((SchemaError(pointer(*path, key), message, "additionalProperties", item), False))
            continue
        if is_key:
            instance = None if error.instance is _NONE_KEY else error.instance  # the key itself
            path.append(instance)
        elif node.get("type") in _SCALARS and is_pipeline_expression(instance):
            skipped.append(PipelineValue(pointer(*path), node["type"], instance))
            continue
        found.append((SchemaError(pointer(*path), _message(keyword, instance, node, is_key), keyword, instance), is_key))
    # JSON Schema applies enum/minimum... to values of the wrong type too; like the builtin
    # engine, report only the type error for such a value.
    mistyped = {(e.path, is_key) for e, is_key in found if e.keyword == "type"}
    errors = [e for e, is_key in found if e.keyword == "type" or (e.path, is_key) not in mistyped]
    return _finish(errors, skipped)


# --- entry points ---------------------------------------------------------------------------------


def check_api(request: Any, *, operation: str = DEFAULT_OPERATION, engine: str = "builtin") -> ApiCheck:
    """Check ``request`` (a ``CreateTrainingJob`` or ``UpdateTrainingJob`` request, or just its
    Debugger fields) against the API limits: every error, plus the pipeline placeholders skipped.

    Keys other than the Debugger fields are ignored. Never raises for bad request data: a
    non-JSON value is a ``type`` error. ``ConfigError`` only for an unknown operation or engine.

    >>> result = check_api({"ProfilerConfig": {"S3OutputPath": {"Get": "Parameters.Out"}}})
    >>> result.ok, [p.path for p in result.skipped]
    (True, ['/ProfilerConfig/S3OutputPath'])
    """
    if engine == "builtin":
        _operation_def(operation)
        return _check_builtin(request, operation)
    if engine == "jsonschema":
        _operation_def(operation)
        return _check_jsonschema(request, operation)
    raise ConfigError(f"got {shorten(engine)}", field="engine", allowed=" or ".join(ENGINES))


def validate_api(request: Any, *, operation: str = DEFAULT_OPERATION, engine: str = "builtin") -> List[SchemaError]:
    """Every API-limit violation in ``request``, sorted by path (empty list when it is valid).

    ``operation`` is ``"CreateTrainingJob"`` (default) or ``"UpdateTrainingJob"``; ``engine`` is
    ``"builtin"`` (fast) or ``"jsonschema"`` (the reference library). Pipeline placeholders are
    not errors; :func:`check_api` lists them.

    >>> request = {"DebugHookConfig": {"S3OutputPath": "s3://bucket/debug",
    ...            "CollectionConfigurations": [{"CollectionName": f"c{i}"} for i in range(25)]}}
    >>> [(e.path, e.keyword, e.message) for e in validate_api(request)]
    [('/DebugHookConfig/CollectionConfigurations', 'maxItems', 'list has 25 items; the API allows at most 20')]
    """
    return list(check_api(request, operation=operation, engine=engine).errors)


@check(
    ("SMD001", INFO, "A value is a pipeline expression; it is checked when the pipeline runs, not now.",
     "SageMaker Pipelines substitutes the value when the pipeline executes; nothing is known before."),
    ("SMD100", ERROR, "The request breaks a limit of the CreateTrainingJob API (length, count, pattern, enum, required member).",
     "botocore's SageMaker service model (service-2.json, the shapes named in the message: S3Uri, ConfigKey, ConfigValue, "
     "CollectionConfigurations, RuleConfigurationName...): botocore's ParamValidationError or the service's ValidationException."),
)
def _api_limits(ctx: Context) -> Iterator[Found]:
    result = check_api(ctx.request, operation=ctx.operation)
    for skipped in result.skipped:
        yield "SMD001", skipped.path, skipped.message
    for error in result.errors:
        if error.keyword == "maxItems" and error.path in tuple("/" + f for f in RULE_FIELDS):
            continue  # SMD102 says it better
        yield "SMD100", error.path, error.message
