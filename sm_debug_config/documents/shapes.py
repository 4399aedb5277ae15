"""The Debugger fields as every writer of a format takes them: one table of their shapes, one check.

Neither ``AWS::SageMaker::TrainingJob`` nor Terraform's ``aws_sagemaker_training_job`` resolves built-in rule
images or merges collections as ``render()`` does; the writers of each format module put its fields in that
tool's shape. One table (:data:`SHAPES`, read from ``data/api_schema.json``) names every member as the API and
CloudFormation (PascalCase, same nesting) and Terraform (snake_case, nested blocks) do, with its kind.
:func:`check_fields` is what every writer runs first: an unknown member, a value of the wrong kind or a SageMaker
Pipelines variable (which a template cannot evaluate) raises :class:`~sm_debug_config.ConfigError` naming the
field; nothing is dropped silently. The table is checked against the published schemas (excerpts with their
sources in ``tests/data/iac/``); ``tests/documents/test_writers.py`` fails when the output stops conforming.
"""
from __future__ import annotations

import json
import re
from typing import Any, Dict, Mapping, NamedTuple, Tuple, Union

from sm_debug_config import datafiles
from sm_debug_config.apischema import is_pipeline_expression, validate_api
from sm_debug_config.errors import ConfigError, format_path, shorten
from sm_debug_config.limits import check_depth


class Block(NamedTuple):
    """A nested structure: a CloudFormation object (a list when ``max_items > 1``), a Terraform nested block."""

    max_items: int
    members: Mapping[str, Tuple[str, "Kind"]]
    required: Tuple[str, ...] = ()


Kind = Union[str, Block]  # "string" | "integer" | "boolean" | "map" | Block

_DEFS = datafiles.load("api_schema")["$defs"]


def _member(name: str, ref: str) -> Tuple[str, Kind]:
    """An API member's ``(Terraform name, kind)``: its snake_case, its shape's kind in ``data/api_schema.json``."""
    shape = _DEFS[ref.rsplit("/", 1)[-1]]
    max_items = shape.get("maxItems", 1)
    if shape["type"] == "array":
        shape = _DEFS[shape["items"]["$ref"].rsplit("/", 1)[-1]]
    kind: Kind = "map" if shape["type"] == "object" else shape["type"]
    if "properties" in shape:
        members = {key: _member(key, spec["$ref"]) for key, spec in shape["properties"].items()}
        kind = Block(max_items, members, tuple(shape.get("required", ())))
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower(), kind


_FIELDS = _DEFS["CreateTrainingJobDebuggerFields"]["properties"]
#: API member -> (Terraform name, kind), for the five Debugger fields of ``CreateTrainingJob`` (each a Block).
SHAPES: Dict[str, Tuple[str, Block]] = {
    name: _member(name, spec["$ref"]) for name, spec in _FIELDS.items()  # type: ignore[misc]
}


def is_pipeline_value(value: Any) -> bool:
    """True for a SageMaker Pipelines variable or its JSON expression (``{"Get": "Parameters.X"}``...)."""
    return is_pipeline_expression(value)


def _fail(target: str, path: Tuple[Union[str, int], ...], problem: str, allowed: str) -> ConfigError:
    return ConfigError(
        f"{format_path(path)}: {problem}, which {target} cannot take", field=format_path(path), allowed=allowed
    )


_SCALARS = {
    "string": (lambda x: isinstance(x, str), "a string"),
    # the API's integers and longs are 64-bit: a bigger one is refused by the service (and by json's str())
    "integer": (lambda x: isinstance(x, int) and not isinstance(x, bool) and -(2**63) <= x < 2**63, "a 64-bit integer"),
    "boolean": (lambda x: isinstance(x, bool), "true or false"),
}


def _check(value: Any, kind: Kind, path: Tuple[Union[str, int], ...], target: str) -> None:
    """Raise ConfigError unless ``value`` has ``kind``; every member of a block is checked."""
    # A map of strings may itself be {"Get": "..."}; only values where a map is not expected
    # are read as pipeline expressions.
    if is_pipeline_value(value) and not (kind == "map" and isinstance(value, dict)):
        raise _fail(
            target,
            path,
            f"a SageMaker Pipelines variable ({_describe(value)}) is evaluated only when a pipeline runs",
            "a literal value",
        )
    if isinstance(kind, Block):
        _check_block(value, kind, path, target)
    elif kind == "map":
        if not isinstance(value, dict):
            raise _fail(target, path, f"expected a map of strings, got {type(value).__name__}", "a map of strings")
        for key, item in value.items():
            if not isinstance(key, str):
                raise _fail(target, path + (key,), "map keys must be strings", "a string key")
            _check(item, "string", path + (key,), target)
    else:
        test, wanted = _SCALARS[kind]
        if not test(value):
            raise _fail(target, path, f"expected {wanted}, got {type(value).__name__} {shorten(value)}", wanted)


def _check_block(value: Any, block: Block, path: Tuple[Union[str, int], ...], target: str) -> None:
    items = value if block.max_items > 1 else [value]
    if block.max_items > 1 and not isinstance(value, list):
        raise _fail(target, path, f"expected a list, got {type(value).__name__}", "a list")
    if len(items) > block.max_items:
        raise _fail(target, path, f"{len(items)} entries, more than {block.max_items}", f"at most {block.max_items}")
    for index, item in enumerate(items):
        where = path + (index,) if block.max_items > 1 else path
        if not isinstance(item, dict):
            raise _fail(target, where, f"expected an object, got {type(item).__name__}", "an object")
        for name in block.required:
            if name not in item:
                raise _fail(target, where + (name,), "missing", "a value")
        for name, member in item.items():
            if name not in block.members:
                raise _fail(target, where + (name,), "not a member this converter knows", ", ".join(block.members))
            _check(member, block.members[name][1], where + (name,), target)


def _describe(value: Any) -> str:
    if isinstance(value, dict):
        return json.dumps(value)
    expr = getattr(value, "expr", None)
    return f"{type(value).__name__} {json.dumps(expr, default=str)}" if expr is not None else type(value).__name__


def check_fields(fields: Mapping[str, Any], target: str) -> None:
    """Raise :class:`~sm_debug_config.ConfigError` naming the field unless ``fields`` are Debugger fields that
    ``target`` (``"a Terraform configuration"``...) can take as written: what :data:`SHAPES` knows, literal
    values of their kinds, within the API's limits (what JSON or HCL would choke on, and the service refuses).

    >>> try:
    ...     check_fields({"TensorBoardOutputConfig": {"S3OutputPath": {"Get": "Parameters.Out"}}}, "a template")
    ... except ConfigError as err:
    ...     print(err.field)
    TensorBoardOutputConfig.S3OutputPath
    """
    if not isinstance(fields, Mapping):
        raise ConfigError(
            f"expected the dict of Debugger fields that render() returns, got {type(fields).__name__}", field="fields"
        )
    check_depth(fields, field="fields")
    for name, value in fields.items():
        if name not in SHAPES:
            label = name if isinstance(name, str) else shorten(name)
            raise ConfigError(
                f"{label}: not a Debugger field; {target} output covers only the Debugger fields that render() returns",
                path=(name,), allowed=", ".join(SHAPES),
            )
        _check(value, SHAPES[name][1], (name,), target)
    limits = ("type", "maxLength", "maxItems", "maxProperties", "maximum", "minimum")
    broken = [e for e in validate_api(dict(fields)) if e.keyword in limits]
    if broken:
        raise ConfigError(broken[0].message, field=broken[0].path, findings=broken)


def literal_copy(fields: Mapping[str, Any]) -> Dict[str, Any]:
    """A deep copy of checked ``fields`` as plain JSON values (what every writer puts in its output)."""
    return json.loads(json.dumps(dict(fields)))  # type: ignore[no-any-return]
