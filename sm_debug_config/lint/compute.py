"""What lint computes from known values, as Python would: ``+``, ``%``, ``*`` and arithmetic, f-strings and
``str.format``, ``join``, and the builtins ``str()``/``int()``/``float()``/``bool()``/``dict()``/``list()``/
``tuple()``/``len()``. A string of known and unknown parts is a :class:`~.values.Partial` (its known tail is
what a check of an S3 suffix needs); whatever cannot be computed, or would be too large, is unknown.

>>> join_parts(["s3://bucket/", Unknown(None, "prefix"), "/rules"], None).suffix
'/rules'
>>> binary_op(ast.Mult(), "ab", 3, None)
'ababab'
"""

from __future__ import annotations

import ast
import string
from typing import Any, Dict, List, Sequence

from sm_debug_config.lint.values import Partial, Unknown, is_hashable, is_known, is_number, text_of

STR_LIMIT = 1 << 20  # the longest string lint builds


def bounded(text: str, node: ast.AST) -> Any:
    """``text``, or unknown when it is longer than lint builds."""
    return text if len(text) <= STR_LIMIT else Unknown(node, "a long string")


def join_parts(parts: Sequence[Any], node: ast.AST) -> Any:
    """Known strings joined, or a :class:`Partial` that keeps the known text before the first unknown part and after
    the last one."""
    flat: List[Any] = []
    for part in parts:
        if isinstance(part, Partial):
            flat.extend([part.prefix, Unknown(node, ""), part.suffix])
        elif isinstance(part, (Unknown, str)):
            flat.append(part)
        else:
            return Unknown(node)
    if all(isinstance(p, str) for p in flat):
        return bounded("".join(flat), node)
    first = min(i for i, p in enumerate(flat) if isinstance(p, Unknown))
    last = max(i for i, p in enumerate(flat) if isinstance(p, Unknown))
    return Partial(node, text_of(node), "".join(flat[last + 1 :]), "".join(flat[:first]))


def format_string(template: str, positional: List[Any], keywords: Dict[str, Any], node: ast.AST) -> Any:
    """``template.format(*positional, **keywords)``; a field with a spec or conversion, or of unknown value, is
    an unknown part."""

    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError:
        return Unknown(node)
    parts: List[Any] = []
    auto = 0
    for literal, field, spec, conversion in parsed:
        parts.append(literal)
        if field is None:
            continue
        if field == "":
            value = positional[auto] if auto < len(positional) else Unknown(node, "")
            auto += 1
        elif field.isdigit():
            value = positional[int(field)] if int(field) < len(positional) else Unknown(node, "")
        elif field.isidentifier():
            value = keywords.get(field, Unknown(node, field))
        else:
            value = Unknown(node, field)
        if is_known(value) and not spec and conversion in (None, "s") and isinstance(value, (str, int, float)):
            parts.append(str(value))
        else:
            parts.append(value if isinstance(value, Unknown) else Unknown(node))
    return join_parts(parts, node)


BUILTINS = {
    "str": str,
    "int": int,
    "float": float,
    "bool": bool,
    "dict": dict,
    "list": list,
    "tuple": tuple,
    "len": len,
}


def builtin(func: Any, positional: List[Any], keywords: Dict[str, Any], node: ast.AST) -> Any:
    """One of :data:`BUILTINS` called on known values, as Python would; unknown where it would raise."""
    if func is dict:
        if not positional and all(True for _ in keywords):
            return dict(keywords)
        if len(positional) == 1 and isinstance(positional[0], dict):
            return dict(positional[0], **keywords)
        return Unknown(node)
    if keywords or len(positional) != 1 or not is_known(positional[0]):
        return Unknown(node)
    value = positional[0]
    try:
        if func in (list, tuple) and isinstance(value, (list, tuple)):
            return func(value)
        if func is str and isinstance(value, (str, int, float, bool, type(None))):
            return str(value)
        if func in (int, float) and isinstance(value, (str, int, float)) and not isinstance(value, bool):
            return func(value)
        if func is bool and is_hashable(value):
            return bool(value)
        if func is len and isinstance(value, (str, list, tuple, dict)):
            return len(value)
    except (ValueError, OverflowError):
        pass
    return Unknown(node)


def _pow(left: Any, right: Any) -> Any:
    return left**right


_ARITHMETIC = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: a // b,
    ast.Mod: lambda a, b: a % b,
    ast.Pow: _pow,
}


def binary_op(op: ast.operator, left: Any, right: Any, node: ast.AST) -> Any:
    """``left <op> right`` when both are known (a string of known and unknown parts for ``+``), else unknown."""
    if isinstance(op, ast.Add):
        if (
            isinstance(left, (str, Partial))
            and isinstance(right, (str, Partial))
            or isinstance(left, str)
            and isinstance(right, Unknown)
            or isinstance(left, Unknown)
            and isinstance(right, str)
        ):
            return join_parts([left, right], node)
        if isinstance(left, list) and isinstance(right, list):
            return left + right
        if isinstance(left, tuple) and isinstance(right, tuple):
            return left + right
    if isinstance(op, ast.Mod) and isinstance(left, str) and is_known(right):
        try:
            return bounded(left % right, node)
        except (TypeError, ValueError, KeyError):
            return Unknown(node)
    if is_number(left) and is_number(right):
        try:
            if isinstance(op, ast.Pow) and (abs(right) > 64 or abs(left) > 1 << 32):
                return Unknown(node)
            return _ARITHMETIC[type(op)](left, right)
        except (KeyError, ArithmeticError, ValueError):
            return Unknown(node)
    if (
        isinstance(op, ast.Mult)
        and isinstance(left, str)
        and isinstance(right, int)
        and len(left) * right <= STR_LIMIT
    ):
        return left * right
    return Unknown(node)


def interleave(separator: str, pieces: Sequence[Any], node: ast.AST) -> Any:
    """``separator.join(pieces)`` of known and unknown strings (``os.path.join`` with ``"/"``), else unknown."""
    parts: List[Any] = []
    for index, piece in enumerate(pieces):
        parts += ([separator] if index else []) + [piece]
    return join_parts(parts, node) if all(isinstance(p, (str, Unknown)) for p in parts) else Unknown(node)
