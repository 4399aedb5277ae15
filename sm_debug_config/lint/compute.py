"""What lint computes from known values, as Python would: ``+``, ``%``, ``*`` and arithmetic, comparisons,
f-strings and ``str.format``, ``join``, the plain ``str`` methods, and the builtins ``str()``/``int()``/
``float()``/``bool()``/``dict()``/``list()``/``tuple()``/``len()``/``range()``/``enumerate()``/``zip()``/
``sorted()``/``reversed()``. A string of known and unknown parts is a :class:`~.values.Partial` (its known tail is
what a check of an S3 suffix needs); whatever cannot be computed, or would be too large, is unknown.

>>> join_parts(["s3://bucket/", Unknown(None, "prefix"), "/rules"], None).suffix
'/rules'
>>> binary_op(ast.Mult(), "ab", 3, None)
'ababab'
"""

from __future__ import annotations

import ast
import operator
import string
from typing import Any, Callable, Dict, List, Optional, Sequence

from sm_debug_config.lint.values import (
    Module,
    Partial,
    SourceCall,
    Target,
    Unknown,
    is_hashable,
    is_known,
    is_number,
    text_of,
)

STR_LIMIT = 1 << 20  # the longest string lint builds
ITEM_LIMIT = 10_000  # the longest sequence lint builds (list(range(...)), zip(), a string's characters)
INT_BITS = 4096  # the largest integer lint computes a product of


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
    "range": range,
    "enumerate": enumerate,
    "zip": zip,
    "sorted": sorted,
    "reversed": reversed,
    "getattr": getattr,  # getattr(rule_configs, name): the attribute, when the object and the name are known
}
#: Builtins that take a sequence whose items need not be known (only how many there are and in which order).
_STRUCTURAL = (list, tuple, len, enumerate, zip, reversed)


def sequence(value: Any) -> Optional[List[Any]]:
    """The items a ``for`` loop over ``value`` takes, when lint knows them (a dict: its keys); else None.

    >>> sequence(range(3)), sequence({"a": 1}), sequence(Unknown(None, "x"))
    ([0, 1, 2], ['a'], None)
    """
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, dict):
        return list(value)
    if isinstance(value, (range, str)) and length(value) <= ITEM_LIMIT:
        return list(value)
    return None


def length(value: Any) -> int:
    """``len(value)``, or a number over every limit for a range longer than Python can count."""
    try:
        return len(value)
    except OverflowError:
        return 1 << 62


def truth(value: Any) -> Optional[bool]:
    """``bool(value)`` when lint knows it (an object built by a call of ours is true), else None."""
    if isinstance(value, (SourceCall, Module, Target)):
        return True
    if isinstance(value, range) or is_known(value):
        try:
            return bool(value)
        except Exception:  # noqa: BLE001 - a value whose truth Python would not tell either
            return None
    return None


_COMPARE: Dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}


def compare(left: Any, ops: Sequence[ast.cmpop], rights: Sequence[Any], node: ast.AST) -> Any:
    """A comparison chain of known values (``x is None`` also of an object lint built), else unknown."""
    for op, right in zip(ops, rights):
        if isinstance(op, (ast.Is, ast.IsNot)):
            other = right if left is None else left if right is None else Unknown(node)
            if other is not None and truth(other) is None:
                return Unknown(node)
            same = other is None
            result = same if isinstance(op, ast.Is) else not same
        else:
            if not (is_known(left) or isinstance(left, range)) or not (is_known(right) or isinstance(right, range)):
                return Unknown(node)
            try:
                result = bool(_COMPARE[type(op)](left, right))
            except Exception:  # noqa: BLE001 - Python would raise: lint does not know what the code does then
                return Unknown(node)
        if not result:
            return False
        left = right
    return True


#: ``str`` methods lint computes on known strings (they change nothing).
STR_METHODS = frozenset(
    ("lower", "upper", "strip", "lstrip", "rstrip", "replace", "split", "rsplit", "startswith", "endswith", "title",
     "capitalize", "zfill", "removeprefix", "removesuffix")
)


def str_method(text: str, name: str, positional: List[Any], keywords: Dict[str, Any], node: ast.AST) -> Any:
    """``text.name(*positional, **keywords)`` for one of :data:`STR_METHODS` with known arguments, else unknown."""
    method = getattr(text, name, None)
    if method is None or not is_known(positional) or not is_known(keywords):
        return Unknown(node)
    try:
        result = method(*positional, **keywords)
    except Exception:  # noqa: BLE001 - Python would raise
        return Unknown(node)
    return bounded(result, node) if isinstance(result, str) else result


def builtin(func: Any, positional: List[Any], keywords: Dict[str, Any], node: ast.AST) -> Any:
    """One of :data:`BUILTINS` called on known values, as Python would; unknown where it would raise."""
    if func is dict:
        if not positional and all(True for _ in keywords):
            return dict(keywords)
        if len(positional) == 1 and isinstance(positional[0], dict):
            return dict(positional[0], **keywords)
        pairs = positional[0] if len(positional) == 1 and isinstance(positional[0], (list, tuple)) else None
        if pairs is not None and all(isinstance(p, (list, tuple)) and len(p) == 2 and is_hashable(p[0]) for p in pairs):
            return dict(pairs, **keywords)
        return Unknown(node)
    if func is range:
        if keywords or not 1 <= len(positional) <= 3 or not all(isinstance(v, int) for v in positional):
            return Unknown(node)
        try:
            return range(*positional)  # lazy: a loop asks its length before it takes the items
        except ValueError:
            return Unknown(node)
    if func in (enumerate, zip, sorted):
        return _iterate(func, positional, keywords, node)
    if keywords or len(positional) != 1 or not (is_known(positional[0]) or func in _STRUCTURAL):
        return Unknown(node)
    value = positional[0]
    try:
        if func in (list, tuple, reversed):
            items = sequence(value)
            if items is None:
                return Unknown(node)
            return list(reversed(items)) if func is reversed else func(items)
        if func is len and isinstance(value, range):
            return len(value)  # an OverflowError is caught below
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


def _iterate(func: Any, positional: List[Any], keywords: Dict[str, Any], node: ast.AST) -> Any:
    """``enumerate(seq, start)``, ``zip(*seqs)`` and ``sorted(seq)`` of sequences lint knows, as lists."""
    items = [sequence(value) for value in positional]
    if not items or any(i is None for i in items):
        return Unknown(node)
    if func is enumerate:
        start = keywords.get("start", positional[1] if len(positional) > 1 else 0)
        if len(positional) > 2 or not isinstance(start, int) or set(keywords) - {"start"}:
            return Unknown(node)
        return list(enumerate(items[0], start))  # type: ignore[arg-type]
    if func is zip:
        return Unknown(node) if keywords else list(zip(*items))  # type: ignore[misc]
    if len(positional) != 1 or keywords or not is_known(positional[0]):
        return Unknown(node)
    try:
        return sorted(items[0] or [])
    except TypeError:
        return Unknown(node)


def _bits(number: Any) -> int:
    return number.bit_length() if isinstance(number, int) else 0


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
        if isinstance(left, (list, tuple)) and type(left) is type(right):
            return left + right if len(left) + len(right) <= ITEM_LIMIT else Unknown(node)
    if isinstance(op, ast.Mod) and isinstance(left, str) and is_known(right):
        try:
            return bounded(left % right, node)
        except (TypeError, ValueError, KeyError):
            return Unknown(node)
    if is_number(left) and is_number(right):
        try:
            if isinstance(op, ast.Pow) and (abs(right) > 64 or abs(left) > 1 << 32):
                return Unknown(node)
            if isinstance(op, ast.Mult) and _bits(left) + _bits(right) > INT_BITS:  # x = x * x in a loop
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
