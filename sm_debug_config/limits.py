"""Limits checked before expensive work: bad input is refused cheaply, never walked or parsed at any cost.

A Debugger configuration is small and shallow (a request nests about 6 levels); input past these
limits is refused with a :class:`ConfigError` before anything recurses over it, parses it or
compiles it (issue 16: deep JSON raised RecursionError, a 1 MB regex was compiled before its
length was checked).
"""
from __future__ import annotations

import json
from typing import Any

from sm_debug_config.errors import ConfigError, PathT

#: Deepest nesting of lists and dicts taken anywhere (requests, config files, rule parameters).
MAX_DEPTH = 64


def too_deep(value: Any, max_depth: int = MAX_DEPTH) -> bool:
    """True if ``value`` nests lists/tuples/dicts deeper than ``max_depth`` (iterative: no recursion, stops at the limit).

    >>> too_deep([[[]]], 2), too_deep([[[]]], 3)
    (True, False)
    """
    stack = [(value, 0)]
    seen = 0
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        if depth >= max_depth:
            return True
        seen += 1
        if seen > 1_000_000:  # a self-referencing structure never ends: count it as too deep
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def check_depth(value: Any, field: str = "", path: PathT = (), max_depth: int = MAX_DEPTH) -> None:
    """Raise :class:`ConfigError` if ``value`` nests deeper than ``max_depth``."""
    if too_deep(value, max_depth):
        raise ConfigError(f"lists and mappings are nested more than {max_depth} deep", field=field or None, path=path)


def json_loads(text: str, field: str = "", max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads`` that refuses nesting deeper than ``max_depth`` with a :class:`ConfigError`
    (instead of a RecursionError from the parser, or a result that recursion elsewhere fails on).
    Other parse errors stay ``ValueError`` (``json.JSONDecodeError``) as from ``json.loads``.

    >>> json_loads('[1, {"a": 2}]')
    [1, {'a': 2}]
    """
    try:
        value = json.loads(text)
    except RecursionError:
        value = None
        deep = True
    else:
        deep = too_deep(value, max_depth)
    if deep:
        raise ConfigError(f"lists and mappings are nested more than {max_depth} deep", field=field or None)
    return value
