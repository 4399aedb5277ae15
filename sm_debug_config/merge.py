"""Merge step: the hook's collections and every rule's become one entry per collection name.

Rules (the SDK v2 instead sends each distinct ``CollectionConfig`` once, in set order):

* parameters merge key by key; the ``DebuggerHookConfig``'s own collection parameters win over
  a rule's ``collections_to_save``, which win over a built-in rule's default collections;
* two rules at the same level that disagree: ``*save_interval`` keys take the greatest common
  divisor (every rule still sees the steps it expects); any other disagreement is a
  ``ConfigError`` naming both rules and the key, resolved by setting it in the hook config
  (or, given a ``conflicts`` list, a :class:`Conflict` recorded there, the first value kept, so that a
  render goes on and reports it with the rest of the job);
* order: hook collections in the order given, then new names in rule order.
"""
from __future__ import annotations

import functools
import json
import math
from typing import Any, Dict, List, Optional, Sequence, Tuple

import attrs

from sm_debug_config.errors import ConfigError, shorten
from sm_debug_config.model.validators import parse_int
from sm_debug_config.variables import is_pipeline_variable

HOOK = "hook"
RULE = "rule"
DEFAULT = "default"
_PRECEDENCE = {HOOK: 0, RULE: 1, DEFAULT: 2}


@attrs.frozen
class Contribution:
    """One collection config as one source asked for it."""

    level: str  # hook, rule (collections_to_save) or default (a built-in rule's default)
    origin: str  # "DebuggerHookConfig" or the rule's name
    parameters: Optional[Dict[str, Any]]


@attrs.frozen
class ParameterSource:
    """Where a merged parameter's value came from, and what else was asked for."""

    value: Any
    level: str
    origins: Tuple[str, ...]
    overridden: Tuple[Tuple[str, str, Any], ...] = ()  # (level, origin, value) that lost
    combined: bool = False  # True when the value is a gcd of several rules' intervals


@attrs.frozen
class Conflict:
    """Two sources of collection ``name`` disagree on parameter ``key``: the ``error`` :func:`merge` raises
    without a ``conflicts`` list."""

    name: Any
    key: str
    error: ConfigError


@attrs.frozen
class MergedCollection:
    """One ``CollectionConfigurations`` entry after the merge, with provenance."""

    name: Any
    parameters: Optional[Dict[str, Any]]
    sources: Dict[str, ParameterSource]
    contributions: Tuple[Contribution, ...]

    def to_request(self) -> Dict[str, Any]:
        request: Dict[str, Any] = {"CollectionName": self.name}
        if self.parameters is not None:
            request["CollectionParameters"] = dict(self.parameters)
        return request


def is_interval_key(key: str) -> bool:
    return key == "save_interval" or key.endswith(".save_interval")


def _hashable(name: Any) -> Any:
    """A collection name as a dict key: a pipeline variable by its expression."""

    if isinstance(name, str):
        return name
    return json.dumps(
        name.expr if is_pipeline_variable(name) and hasattr(name, "expr") else name, sort_keys=True, default=str
    )


def _resolve(name: Any, key: str, level: str, entries: List[Tuple[str, Any]]) -> Tuple[Any, bool]:
    """The value for ``key`` among same-level ``entries`` of (origin, value)."""
    values: List[Any] = []
    for _origin, value in entries:
        if not any(value is seen or (not is_pipeline_variable(value) and value == seen) for seen in values):
            values.append(value)
    if len(values) == 1:
        return values[0], False
    first, second = entries[0], next(e for e in entries if e[1] is not entries[0][1] and e[1] != entries[0][1])
    if level == HOOK:
        raise ConfigError(
            f"collection {shorten(name)} is listed more than once in the hook config with different {shorten(key)}: "
            f"{shorten(first[1])} and {shorten(second[1])}",
            field=f"DebuggerHookConfig.collection_configs[{shorten(name)}].parameters.{key}",
            allowed="one value per collection parameter",
            path=("debugger_hook_config", "collection_configs"),
        )
    numbers = [parse_int(v) for v in values]
    if is_interval_key(key) and all(n is not None and n > 0 for n in numbers):
        return str(functools.reduce(math.gcd, numbers)), True  # type: ignore[arg-type]  # gcd of more than two: Python 3.9+
    raise ConfigError(
        f"rules {shorten(first[0])} and {shorten(second[0])} ask for different {shorten(key)} of collection "
        f"{shorten(name)}: {shorten(first[1])} and {shorten(second[1])}",
        field=f"collections[{shorten(name)}].{key}",
        path=("collections", name, key),
        allowed=f"set {shorten(key)} for {shorten(name)} in "
                f"DebuggerHookConfig(collection_configs=[CollectionConfig({shorten(name)}, {{{shorten(key)}: ...}})]) "
                "to choose",
    )


def _check_sequence(value: Any, field: str, attributes: Tuple[str, ...], what: str, optional: bool = False) -> None:
    """``ConfigError`` unless ``value`` is a list/tuple of objects with ``attributes`` (or None where ``optional``)."""
    if value is None and optional:
        return
    if not isinstance(value, (list, tuple)):
        raise ConfigError(f"expected a list of {what}, got {type(value).__name__}", field=field)
    for index, item in enumerate(value):
        if not all(hasattr(item, name) for name in attributes):
            raise ConfigError(f"item {index} is {type(item).__name__}", path=(field, index), allowed=what)
        if "collection_configs" in attributes:
            _check_sequence(
                item.collection_configs,
                f"{field}[{index}].collection_configs",
                ("name", "parameters"),
                "CollectionConfig objects",
                optional=True,
            )


def merge(
    hook_collections: Sequence[Any], rules: Sequence[Any], *, conflicts: Optional[List[Conflict]] = None
) -> List[MergedCollection]:
    """One merged entry per collection name, from the hook's collections and the debugger rules'; a disagreement is
    raised, or recorded in ``conflicts`` (the first value kept) when that list is given.

    >>> from sm_debug_config import CollectionConfig, Rule, rule_configs
    >>> vg = Rule.sagemaker(rule_configs.vanishing_gradient())
    >>> [m.to_request() for m in merge([CollectionConfig("gradients", {"save_interval": "100"})], [vg])]
    [{'CollectionName': 'gradients', 'CollectionParameters': {'save_interval': '100'}}]
    """
    _check_sequence(
        hook_collections, "hook_collections", ("name", "parameters"), "CollectionConfig objects", optional=True
    )
    _check_sequence(rules, "rules", ("collection_configs",), "Rule objects")
    names: Dict[Any, Any] = {}  # hashable key -> the first name given, in order
    gathered: Dict[Any, List[Contribution]] = {}

    def add(config: Any, level: str, origin: str) -> None:
        key = _hashable(config.name)
        names.setdefault(key, config.name)
        gathered.setdefault(key, []).append(
            Contribution(level, origin, dict(config.parameters) if config.parameters is not None else None)
        )

    for config in hook_collections or []:
        add(config, HOOK, "DebuggerHookConfig")
    for rule in rules:
        level = DEFAULT if getattr(rule, "uses_default_collections", False) else RULE
        for config in rule.collection_configs or []:
            add(config, level, rule.name)

    merged = []
    for key, contributions in gathered.items():
        name = names[key]
        by_precedence = sorted(contributions, key=lambda c: _PRECEDENCE[c.level])
        keys = list(dict.fromkeys(k for c in by_precedence for k in c.parameters or {}))
        sources: Dict[str, ParameterSource] = {}
        for k in keys:
            setting = [c for c in contributions if c.parameters and k in c.parameters]
            best = min(_PRECEDENCE[c.level] for c in setting)
            winners = [c for c in setting if _PRECEDENCE[c.level] == best]
            entries = [(c.origin, c.parameters[k]) for c in winners]  # type: ignore[index]
            try:
                value, combined = _resolve(name, k, winners[0].level, entries)
            except ConfigError as err:
                if conflicts is None:
                    raise
                conflicts.append(Conflict(name, k, err))
                value, combined = entries[0][1], False
            sources[k] = ParameterSource(
                value=value,
                level=winners[0].level,
                origins=tuple(dict.fromkeys(c.origin for c in winners)),
                overridden=tuple((c.level, c.origin, c.parameters[k]) for c in setting if c not in winners),  # type: ignore[index]
                combined=combined,
            )
        has_params = any(c.parameters is not None for c in contributions)
        params = {k: source.value for k, source in sources.items()}
        merged.append(MergedCollection(name, params if (has_params or params) else None, sources, tuple(contributions)))
    return merged
