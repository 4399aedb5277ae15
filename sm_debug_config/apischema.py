"""Check Debugger request fields against the API's own limits, kept as data (the request-shape engine).

``sm_debug_config/data/api_schema.json`` is a JSON Schema (draft 2020-12) generated from the
SageMaker service model that botocore ships (``scripts/generate_api_schema.py``). boto3 itself
only checks types, required members and minimums; the service rejects the rest, one error at a
time. :func:`validate_api` reports every violation at once, with a small interpreter of exactly
the keywords the generator emits (importing ``jsonschema`` alone would cost ~100 ms).

Pipeline placeholders (``{"Get": "Parameters.X"}``, ``{"Std:Join": ...}``, pipeline variable
objects) where a string, integer or boolean is expected are not errors: their value is only
known when the pipeline runs. :func:`check_api` lists them in ``skipped``.
"""
from __future__ import annotations

import contextlib
import contextvars
import copy
import functools
import itertools
import re
from typing import Any, Callable, Dict, FrozenSet, Iterable, Iterator, List, Optional, Tuple

import attrs

from sm_debug_config import datafiles as _data
from sm_debug_config.errors import ConfigError, PathT, did_you_mean, pointer, shorten
from sm_debug_config.findings import DEBUG_FIELDS, ERROR, INFO, declare, path_key
from sm_debug_config.limits import check_depth
from sm_debug_config.variables import is_pipeline_variable

SMD100 = declare(
    "SMD100", ERROR,
    "The request breaks a limit of the CreateTrainingJob API (length, count, pattern, enum, required member).",
    "botocore's SageMaker service model (service-2.json, the shapes named in the message: S3Uri, ConfigKey, "
    "ConfigValue, CollectionConfigurations, RuleConfigurationName...): botocore's ParamValidationError or the "
    "service's ValidationException.")

__all__ = [
    "ENGINES",
    "RUNTIME_KEYS",
    "RUNTIME_PREFIXES",
    "SMD001",
    "SMD100",
    "api_schema",
    "ApiCheck",
    "check_api",
    "check_shape",
    "is_pipeline_expression",
    "operations",
    "PipelineValue",
    "runtime_values",
    "SchemaError",
    "validate_api",
]

SMD001 = declare(
    "SMD001", INFO, "A value is a pipeline expression; it is checked when the pipeline runs, not now.",
    "SageMaker Pipelines substitutes the value when the pipeline executes; nothing is known before.")

ENGINES = ("builtin",)
DEFAULT_OPERATION = "CreateTrainingJob"
SCHEMA_FILE = "api_schema"


@attrs.frozen
class SchemaError:
    """One violation of an API limit: JSON ``path`` into the request, the JSON Schema ``keyword``
    that failed, and the ``value`` found there (``None`` for a missing key; not part of equality)."""

    path: str
    message: str
    keyword: str
    value: Any = attrs.field(default=None, eq=False)
    #: ``path`` as a tuple (list indexes as ints)
    parts: PathT = attrs.field(default=(), eq=False)
    #: the botocore shape of the value that failed (``S3Uri``, ``ConfigValue``), where the schema names one
    shape: Optional[str] = attrs.field(default=None, eq=False)
    #: the JSON type the schema wants there (``string``, ``integer``...), where it says one
    expected: Optional[str] = attrs.field(default=None, eq=False)

    def __str__(self) -> str:
        return f"{self.path or '(request)'}: {self.message}"


@attrs.frozen
class PipelineValue:
    """A pipeline placeholder where the API expects a scalar of JSON type ``expected``: not checked."""

    path: str
    expected: str
    value: Any = attrs.field(default=None, eq=False)
    #: ``path`` as a tuple (list indexes as ints)
    parts: PathT = attrs.field(default=(), eq=False)

    @property
    def message(self) -> str:
        key = next(iter(self.value), None) if isinstance(self.value, dict) and len(self.value) == 1 else None
        if key in RUNTIME_KEYS and key != "Get" or isinstance(key, str) and key.startswith("Fn::"):
            kind = RUNTIME_KEYS.get(key, "a CloudFormation intrinsic function")
            return f"run-time value ({kind}): the API checks this {self.expected} when it is evaluated"
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

#: The keywords the interpreter implements (tests/test_apischema.py checks the schema uses no other).
_VALIDATION_KEYWORDS = frozenset(
    "$ref type enum properties required additionalProperties propertyNames items minItems maxItems "  # noqa: SIM905
    "minProperties maxProperties minLength maxLength pattern minimum maximum".split()
)
_SCALARS = frozenset({"string", "integer", "number", "boolean"})


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_TYPES: Dict[str, Callable[[Any], bool]] = {
    "object": lambda value: isinstance(value, dict),
    "array": lambda value: isinstance(value, (list, tuple)),
    "string": lambda value: isinstance(value, str),
    # JSON Schema: 5.0 is an integer
    "integer": lambda value: _is_number(value) and (isinstance(value, int) or value.is_integer()),
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


def _operation_def(operation: str) -> str:
    pointers = _raw_schema()["x-operations"]
    if not isinstance(operation, str) or operation not in pointers:
        raise ConfigError(f"got {shorten(operation)}", field="operation", allowed=" or ".join(pointers))
    return pointers[operation]


# --- messages -------------------------------------------------------------------------------------


#: The one-key objects that stand for a value known only at run time, by their key: SageMaker Pipelines
#: expressions, CloudFormation's ``Ref``, and how :mod:`sm_debug_config.documents` writes a Step Functions
#: ``Key.$`` path, a JSONata ``{% %}`` string and a Terraform ``${...}`` reference. Only the pipeline ones are
#: known everywhere (a request may hold them); each document kind adds its own while its requests are
#: checked (:func:`runtime_values`), so ``{"Ref": ...}`` in a plain request stays an error.
RUNTIME_KEYS = {
    "Get": "a SageMaker Pipelines property or parameter",
    "Ref": "a CloudFormation reference",
    "States.$": "a Step Functions JSONPath value (a Key.$ entry)",
    "JSONata": "a Step Functions JSONata expression",
    "Terraform": "a Terraform reference or a value known after apply",
}
#: Key prefixes of the same: SageMaker Pipelines functions (``Std:Join``...), CloudFormation's (``Fn::Sub``...).
RUNTIME_PREFIXES = ("Std:", "Fn::")
_PIPELINE_RUNTIME: Tuple[FrozenSet[str], Tuple[str, ...]] = (frozenset({"Get"}), ("Std:",))
_runtime: "contextvars.ContextVar[Tuple[FrozenSet[str], Tuple[str, ...]]]" = contextvars.ContextVar(
    "sm_debug_config_runtime_values", default=_PIPELINE_RUNTIME
)


@contextlib.contextmanager
def runtime_values(keys: Iterable[str] = (), prefixes: Iterable[str] = ()) -> Iterator[None]:
    """Within the block, one-key objects of ``keys`` (and key ``prefixes``) are run-time values too, besides
    the SageMaker Pipelines ones: what a document kind says is evaluated when its job is launched.

    >>> with runtime_values(["Ref"], ["Fn::"]):
    ...     is_pipeline_expression({"Ref": "Bucket"}), is_pipeline_expression({"Fn::Sub": "s3://${B}/"})
    (True, True)
    >>> is_pipeline_expression({"Ref": "Bucket"})
    False
    """
    unknown = [key for key in keys if key not in RUNTIME_KEYS] + [p for p in prefixes if p not in RUNTIME_PREFIXES]
    if unknown:
        raise ConfigError(f"unknown run-time value key {shorten(unknown[0])}", field="keys",
                          allowed=", ".join(list(RUNTIME_KEYS) + list(RUNTIME_PREFIXES)))
    base_keys, base_prefixes = _runtime.get()
    token = _runtime.set((base_keys | frozenset(keys), base_prefixes + tuple(prefixes)))
    try:
        yield
    finally:
        _runtime.reset(token)


def is_pipeline_expression(value: Any) -> bool:
    """True for a value known only at run time: a pipeline variable object or its JSON expression
    as render writes it (``{"Get": "Parameters.X"}``, ``{"Std:Join": ...}``, ``{"Std:JsonGet": ...}``),
    or, within :func:`runtime_values`, a one-key object of the keys it adds (``{"Fn::Sub": ...}``...).

    >>> is_pipeline_expression({"Get": "Parameters.LearningRate"}), is_pipeline_expression({"Get": 1})
    (True, False)
    """
    if isinstance(value, dict):
        if len(value) != 1:
            return False
        ((key, item),) = value.items()
        keys, prefixes = _runtime.get()
        if key in keys:
            return isinstance(item, str)
        return isinstance(key, str) and key.startswith(prefixes)
    return is_pipeline_variable(value)


def _render(value: Any, depth: int = 0) -> str:
    """``repr`` for JSON values; other objects as ``<TypeName>`` (no memory addresses)."""
    if value is None or isinstance(value, (str, int, float)):
        return shorten(value)  # bounded: a 5,000-digit int has no repr()
    if depth >= 3:
        return "..."
    if isinstance(value, dict):
        return (
            "{"
            + ", ".join(f"{_render(k, depth + 1)}: {_render(v, depth + 1)}" for k, v in list(value.items())[:8])
            + (", ...}" if len(value) > 8 else "}")
        )
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_render(v, depth + 1) for v in value[:8]) + (", ...]" if len(value) > 8 else "]")
    return f"<{type(value).__name__}>"


def _short(value: Any, limit: int = 60) -> str:
    text = _render(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


#: JSON Schema type: the Python types a message calls by its word (bool before int).
_KINDS: Dict[str, Tuple[Any, str]] = {
    "boolean": (bool, "a boolean"),
    "integer": (int, "an integer"),
    "number": (float, "a number"),
    "string": (str, "a string"),
    "object": (dict, "an object"),
    "array": ((list, tuple), "an array"),
    "null": (type(None), "null"),
}

#: The bounds of each kind of value: (lower, upper keyword, what was found: {n} is the size or the number).
_BOUNDS = {
    "string": ("minLength", "maxLength", "{subject} is {n} characters long"),
    "number": ("minimum", "maximum", "{subject} is {n}"),
    "array": ("minItems", "maxItems", "list has {n} items"),
    "object": ("minProperties", "maxProperties", "map has {n} entries"),
}


def _hint(value: Any, allowed: List[str]) -> str:
    return did_you_mean(value, allowed) if isinstance(value, str) else ""


def _message(keyword: str, value: Any, node: Dict[str, Any], is_key: bool, name: Any = None) -> str:
    """The message for ``keyword`` failing on ``value`` under schema ``node``."""
    subject = "key" if is_key else "value"
    for kind, (low, high, found) in _BOUNDS.items():
        if keyword in (low, high):
            text = found.format(subject=subject, n=_short(value) if kind == "number" else len(value))
            return f"{text}; the API {'requires at least' if keyword == low else 'allows at most'} {node[keyword]}"
    if keyword == "type":
        words = [word for types, word in _KINDS.values() if isinstance(value, types)]
        kind = words[0] if words else f"a Python {type(value).__name__}"
        return f"{subject} is {kind} ({_short(value)}); the API expects {_KINDS[node['type']][1]}"
    if keyword == "enum":
        allowed = node["enum"]
        listing = ", ".join(allowed if len(allowed) <= 12 else allowed[:3])
        listing = listing if len(allowed) <= 12 else f"one of {len(allowed)} values, e.g. {listing}"
        return f"{subject} {_short(value)} is not an allowed value;{_hint(value, allowed)} (the API accepts {listing})"
    if keyword == "pattern":
        return (
            f"{subject} {_short(value)} does not match the API pattern {node.get('x-pattern', node['pattern'])} (the "
            "whole value must match)"
        )
    if keyword == "required":
        return f"required key {shorten(name)} is missing"
    allowed = sorted(str(k) for k in node.get("properties", {}))  # additionalProperties, the last keyword
    hint = _hint(name, allowed)
    return f"unknown key {_short(name)}{';' + hint if hint else ''} (the API allows {', '.join(allowed)})"


# --- the interpreter ------------------------------------------------------------------------------

#: Entries of one list or map looked into (the API allows at most 100; a longer one is a
#: maxItems/maxProperties error, and 100,000 entries would cost seconds).
MAX_VISITED = 1000
_compiled = functools.lru_cache(maxsize=None)(re.compile)  # the schema's patterns, each compiled once


class _Run:
    """One validation run over one request."""

    __slots__ = ("defs", "errors", "skipped")

    def __init__(self, defs: Dict[str, Any]) -> None:
        self.defs = defs
        self.errors: List[SchemaError] = []
        self.skipped: List[PipelineValue] = []

    def fail(
        self,
        path: Tuple[Any, ...],
        keyword: str,
        value: Any,
        node: Dict[str, Any],
        is_key: bool = False,
        name: Any = None,
        shape: Optional[str] = None,
    ) -> None:
        self.errors.append(
            SchemaError(pointer(*path), _message(keyword, value, node, is_key, name), keyword, value, path, shape,
                        node.get("type"))
        )

    def visit(self, value: Any, node: Dict[str, Any], path: Tuple[Any, ...], is_key: bool = False) -> None:
        shape = node["$ref"][8:] if "$ref" in node else None
        node = self.defs[shape] if shape is not None else node
        kind = node.get("type")
        if kind is not None and not _TYPES[kind](value):
            if kind in _SCALARS and not is_key and is_pipeline_expression(value):
                self.skipped.append(PipelineValue(pointer(*path), kind, value, path))
            else:
                self.fail(path, "type", value, node, is_key, shape=shape)
            return  # other keywords are about the right type only
        if isinstance(value, str):
            kind = "string"
            if "enum" in node and value not in node["enum"]:
                self.fail(path, "enum", value, node, is_key, shape=shape)
            if "pattern" in node and _compiled(node["pattern"]).search(value) is None:
                self.fail(path, "pattern", value, node, is_key, shape=shape)
        elif _is_number(value):
            kind = "number"
        elif isinstance(value, dict):
            kind = "object"
            self.visit_object(value, node, path)
        elif isinstance(value, (list, tuple)):
            kind = "array"
            if "items" in node:
                for index, item in enumerate(value[:MAX_VISITED]):  # past that, maxItems has said enough
                    self.visit(item, node["items"], path + (index,))
        else:
            return
        low, high, _found = _BOUNDS[kind]
        size = value if kind == "number" else len(value)
        if low in node and size < node[low]:
            self.fail(path, low, value, node, is_key)
        if high in node and size > node[high]:
            self.fail(path, high, value, node, is_key)

    def visit_object(self, value: Dict[Any, Any], node: Dict[str, Any], path: Tuple[Any, ...]) -> None:
        properties = node.get("properties", {})
        extra = node.get("additionalProperties", True)
        names = node.get("propertyNames")
        for key, item in itertools.islice(value.items(), MAX_VISITED):  # past that, maxProperties has said enough
            where = path + (key,)
            if names is not None:
                self.visit(key, names, where, is_key=True)
            if key in properties:
                self.visit(item, properties[key], where)
            elif extra is False:
                self.fail(where, "additionalProperties", item, node, name=key)
            elif isinstance(extra, dict):
                self.visit(item, extra, where)
        for name in node.get("required", ()):
            if name not in value:
                self.fail(path + (name,), "required", None, node, name=name)


# --- entry points ---------------------------------------------------------------------------------


def check_api(request: Any, *, operation: str = DEFAULT_OPERATION, engine: str = "builtin") -> ApiCheck:
    """Check ``request`` (a ``CreateTrainingJob`` or ``UpdateTrainingJob`` request, or just its
    Debugger fields) against the API limits: every error, plus the pipeline placeholders skipped.

    Keys other than the Debugger fields are ignored. Never raises for bad request data: a
    non-JSON value is a ``type`` error. ``ConfigError`` only for an unknown operation or engine.
    Of a list or map longer than :data:`MAX_VISITED` only the first entries are looked into.

    >>> result = check_api({"ProfilerConfig": {"S3OutputPath": {"Get": "Parameters.Out"}}})
    >>> result.ok, [p.path for p in result.skipped]
    (True, ['/ProfilerConfig/S3OutputPath'])
    """
    if engine not in ENGINES:
        raise ConfigError(f"got {shorten(engine)}", field="engine", allowed=" or ".join(ENGINES))
    run = _Run(_raw_schema()["$defs"])
    run.visit(request, {"$ref": _operation_def(operation)}, ())
    # a key and its string form (1 and "1") share a pointer: the same error once
    errors = sorted(dict.fromkeys(run.errors), key=lambda e: (path_key(e.parts), e.keyword, e.message))
    return ApiCheck(tuple(errors), tuple(sorted(dict.fromkeys(run.skipped), key=lambda p: path_key(p.parts))))


def validate_api(request: Any, *, operation: str = DEFAULT_OPERATION, engine: str = "builtin") -> List[SchemaError]:
    """Every API-limit violation in ``request``, sorted by path (empty list when it is valid).

    ``operation`` is ``"CreateTrainingJob"`` (default) or ``"UpdateTrainingJob"``; ``engine`` is
    ``"builtin"``, the only one. Pipeline placeholders are not errors; :func:`check_api` lists them.

    >>> request = {"DebugHookConfig": {"S3OutputPath": "s3://bucket/debug",
    ...            "CollectionConfigurations": [{"CollectionName": f"c{i}"} for i in range(25)]}}
    >>> [(e.path, e.keyword, e.message) for e in validate_api(request)]
    [('/DebugHookConfig/CollectionConfigurations', 'maxItems', 'list has 25 items; the API allows at most 20')]
    """
    return list(check_api(request, operation=operation, engine=engine).errors)


def check_shape(source: Dict[str, Any], prefix: PathT = (), required: bool = True) -> None:
    """Refuse Debugger fields of ``source`` (a request or response) nested too deep, with a member of
    the wrong type or (if ``required``) a required key missing, so that code reading them may rely on the types."""
    fields = {name: source[name] for name in DEBUG_FIELDS if name in source}
    check_depth(fields, path=prefix or ("request",))
    keywords = ("type", "required") if required else ("type",)
    broken = [e for e in validate_api(fields) if e.keyword in keywords]
    if broken:
        raise ConfigError(broken[0].message, path=prefix + broken[0].parts, findings=broken)
