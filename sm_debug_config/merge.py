"""Merge step: the hook's collections and every rule's become one entry per collection name, the entry smdebug
builds the collection from.

smdebug (``core/json_config.py`` ``add_collections_to_manager``) applies the ``CollectionConfigurations`` entries in
order: each entry's ``include_regex`` is *added* to the collection's patterns (split on commas), while its save
configuration and reductions *replace* the collection's (the last entry wins; an entry without save keys sets the
hook's). The SDK v2 sends each distinct ``CollectionConfig`` once, in the order of a ``set`` that changes from one
launch to the next (:data:`SMD117`, :func:`sent_more_than_once`, :func:`sdk_v2_findings`). One entry per name
applies the same on every launch. Rules, in the order the code applies them:

* ``include_regex``: the union of every source's patterns, as smdebug would add them: the first value as written,
  then each pattern (split on commas) it lacks, hook first, then rules in order;
* any other parameter, key by key, by precedence: the ``DebuggerHookConfig``'s own collection parameters win over
  a rule's ``collections_to_save``, which win over a built-in rule's default collections;
* rules (or rules' defaults) that disagree: ``*save_interval`` keys take the greatest common divisor when all
  are positive integers (every rule still sees the steps it expects); any other disagreement, and the hook config
  listing a collection twice with different values, sends the last source's value (as smdebug keeps the last
  entry) with an :data:`SMD116` warning naming both and the one sent, resolved by setting the key in the hook
  config;
* order: hook collections in the order given, then new names in rule order.

Findings are values: each :class:`MergedCollection` carries its SMD116 at request paths
(:func:`merge_findings`); the edges that validate a render add them to the request's findings.
"""
from __future__ import annotations

import functools
import json
import math
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import attrs

from sm_debug_config.errors import ConfigError, shorten
from sm_debug_config.findings import SMDEBUG, WARNING, Finding, declare
from sm_debug_config.model import hookparams
from sm_debug_config.model.validators import parse_int
from sm_debug_config.variables import concat, is_pipeline_variable

HOOK = "hook"
RULE = "rule"
DEFAULT = "default"
_PRECEDENCE = {HOOK: 0, RULE: 1, DEFAULT: 2}
REGEX = "include_regex"
#: The keys of a save configuration (each also with a mode prefix), which each entry replaces as a whole.
SAVE_KEYS = ("save_interval", "save_steps", "start_step", "end_step")
#: The keys ``ReductionConfig.from_dict`` reads, replaced by an entry that has ``reductions``.
REDUCTION_KEYS = ("reductions", "save_raw_tensor", "save_shape")
_SDK_V2 = "sagemaker/estimator.py EstimatorBase._prepare_collection_configs"

SMD116 = declare(
    "SMD116",
    WARNING,
    "Two rules (or their defaults, or the hook twice) ask for different values of one collection parameter; "
    "the last one is sent.",
    f"{SMDEBUG} core/json_config.py add_collections_to_manager replaces a collection's save configuration and "
    "reductions with each entry's (the last wins); the merge sends one entry per collection, with the last "
    "source's value, so the other source's value is not applied.",
)

SMD117 = declare(
    "SMD117",
    WARNING,
    "A collection is sent more than once with different save configurations or reductions: smdebug keeps the "
    "last entry's, and the SDK v2's order changes from launch to launch.",
    f"{SMDEBUG} core/json_config.py add_collections_to_manager replaces the collection's save_config (and, for an "
    "entry with reductions, its reduction_config) with each entry's in order; the SageMaker SDK v2's "
    f"{_SDK_V2} puts the hook's and the rules' CollectionConfigs in a set(), ordered by hash((name, parameters)), "
    "which changes with PYTHONHASHSEED.",
)


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
    combined: bool = False  # True when the value combines several sources' (gcd of intervals, union of regexes)


@attrs.frozen
class MergedCollection:
    """One ``CollectionConfigurations`` entry after the merge, with provenance and the SMD116 findings of its
    parameters (at their paths in the request)."""

    name: Any
    parameters: Optional[Dict[str, Any]]
    sources: Dict[str, ParameterSource]
    contributions: Tuple[Contribution, ...]
    findings: Tuple[Finding, ...] = ()

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


def _distinct(values: Sequence[Any]) -> List[Any]:
    out: List[Any] = []
    for value in values:
        if not any(value is seen or (not is_pipeline_variable(value) and value == seen) for seen in out):
            out.append(value)
    return out


def _patterns(value: Any) -> List[Any]:
    """An include_regex value's patterns as smdebug's ``core/utils.py`` ``split`` makes them (a value known only at
    run time is one)."""
    return [part.strip() for part in value.split(",")] if isinstance(value, str) else [value]


def union_regex(values: Sequence[Any]) -> Any:
    """``include_regex`` values as one that matches what smdebug matches for them all: the first as written, then each
    pattern it lacks, in order.

    >>> union_regex([".*train.*", ".*validation.*, .*train.*"])
    '.*train.*,.*validation.*'
    """
    parts: List[Any] = [values[0]]
    seen = {_hashable(p) for p in _patterns(values[0])}
    for value in values[1:]:
        for pattern in _patterns(value):
            if _hashable(pattern) not in seen:
                seen.add(_hashable(pattern))
                parts += [",", pattern]
    return concat(parts)


def _conflict_message(name: Any, key: str, level: str, lost: Tuple[str, Any], sent: Tuple[str, Any]) -> str:
    values = f"{shorten(lost[1])} and {shorten(sent[1])}"
    if level == HOOK:
        return f"the hook config lists {shorten(name)} twice with different {key}: {values}; the last is sent"
    whose = "rules" if level == RULE else "the defaults of rules"
    return (
        f"{whose} {shorten(lost[0])} and {shorten(sent[0])} ask for different {key} of {shorten(name)}: {values}; "
        f"{shorten(sent[1])} (from {shorten(sent[0])}, the last) is sent; set {key} in the hook config to choose"
    )


def _resolve(
    key: str, level: str, entries: List[Tuple[str, Any]]
) -> Tuple[Any, bool, Optional[Tuple[Tuple[str, Any], ...]]]:
    """The value for ``key`` among same-level ``entries`` of (origin, value), whether it combines them, and the
    (lost, sent) entries when they disagree and the last one's value is sent."""
    values = _distinct([value for _origin, value in entries])
    if len(values) == 1:
        return values[0], False, None
    numbers = [parse_int(v) for v in values]
    if level != HOOK and is_interval_key(key) and all(n is not None and n > 0 for n in numbers):
        return str(functools.reduce(math.gcd, numbers)), True, None  # type: ignore[arg-type]  # gcd of more than two: Python 3.9+
    sent = entries[-1]
    lost = next(e for e in reversed(entries) if len(_distinct([e[1], sent[1]])) == 2)
    return sent[1], False, (lost, sent)


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


def merge(hook_collections: Sequence[Any], rules: Sequence[Any]) -> List[MergedCollection]:
    """One merged entry per collection name, from the hook's collections and the debugger rules'.

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

    return [_merged(names[key], contributions, index) for index, (key, contributions) in enumerate(gathered.items())]


def _merged(name: Any, contributions: List[Contribution], index: int) -> MergedCollection:
    """The entry of collection ``name`` (the ``index``-th sent) from what each source asked for."""
    by_precedence = sorted(contributions, key=lambda c: _PRECEDENCE[c.level])
    keys = list(dict.fromkeys(k for c in by_precedence for k in c.parameters or {}))
    sources: Dict[str, ParameterSource] = {}
    findings: List[Finding] = []
    for k in keys:
        setting = [c for c in contributions if c.parameters and k in c.parameters]
        if k == REGEX:  # smdebug adds every entry's patterns: each source's tensors are saved
            values = _distinct([c.parameters[k] for c in setting])  # type: ignore[index]
            sources[k] = ParameterSource(
                value=union_regex(values),
                level=min((c.level for c in setting), key=_PRECEDENCE.__getitem__),
                origins=tuple(dict.fromkeys(c.origin for c in setting)),
                combined=len(values) > 1,
            )
            continue
        best = min(_PRECEDENCE[c.level] for c in setting)
        winners = [c for c in setting if _PRECEDENCE[c.level] == best]
        entries = [(c.origin, c.parameters[k]) for c in winners]  # type: ignore[index]
        value, combined, conflict = _resolve(k, winners[0].level, entries)
        if conflict is not None:
            lost, sent = conflict
            findings.append(
                SMD116.at(
                    ("DebugHookConfig", "CollectionConfigurations", index, "CollectionParameters", k),
                    _conflict_message(name, k, winners[0].level, lost, sent),
                )
            )
        sources[k] = ParameterSource(
            value=value,
            level=winners[0].level,
            origins=tuple(dict.fromkeys(c.origin for c in winners)),
            overridden=tuple((c.level, c.origin, c.parameters[k]) for c in setting if c not in winners),  # type: ignore[index]
            combined=combined,
        )
    has_params = any(c.parameters is not None for c in contributions)
    params = {k: source.value for k, source in sources.items()}
    return MergedCollection(
        name, params if (has_params or params) else None, sources, tuple(contributions), tuple(findings)
    )


def merge_findings(collections: Sequence[MergedCollection]) -> List[Finding]:
    """The SMD116 findings of a merge's collections (where two sources disagreed and the last one's value is sent)."""
    return [finding for collection in collections for finding in collection.findings]


# --- a collection sent more than once (a request as given, the SDK v2's) ---------------------------------------


def _base_key(key: Any) -> Any:
    return key.partition(".")[2] if isinstance(key, str) and "." in key else key


def _save_part(params: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    """What an entry's save configuration is made of: each entry replaces it, without these keys by the hook's."""
    return {k: v for k, v in params.items() if _base_key(k) in SAVE_KEYS}


def _reduction_part(params: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    return {k: v for k, v in params.items() if k in REDUCTION_KEYS} if "reductions" in params else None


def _histogram_part(params: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    return {"save_histogram": params["save_histogram"]} if "save_histogram" in params else None


def _steps(value: Any) -> Any:
    if isinstance(value, str):
        numbers = [parse_int(token) for token in value.split(",")]
        return value if any(n is None for n in numbers) else numbers
    return value


def _effective_save(part: Dict[str, Any], hook: Dict[str, Any]) -> str:
    """An entry's save configuration as smdebug builds it (``core/json_config.py`` ``parse_save_config_modes_dict``):
    per mode, the entry's ``<mode>.key``, its ``key``, the hook's ``<mode>.key``, its ``key``, else smdebug's default
    (so an entry without save keys and one that spells out the hook's settings build the same)."""
    table = hookparams.spec()
    out = {}
    for mode in table["modes"]:
        for key in SAVE_KEYS:
            given = [p[k] for p in (part, hook) for k in (f"{mode}.{key}", key) if k in p]
            value = given[0] if given else table["parameters"][key]["default"]
            number = parse_int(value) if isinstance(value, str) and key != "save_steps" else None
            out[f"{mode}.{key}"] = _steps(value) if key == "save_steps" else value if number is None else number
    return json.dumps(out, sort_keys=True, default=str)


def _as_given(part: Dict[str, Any], _hook: Dict[str, Any]) -> str:
    return json.dumps(part, sort_keys=True, default=str)


#: What smdebug replaces per entry: its name in a message, the part of an entry's parameters it is made of
#: (``None``: the entry leaves it as it is), and what it builds of that part with the hook's parameters.
_REPLACED: Tuple[
    Tuple[str, Callable[[Dict[str, Any]], Optional[Dict[str, Any]]], Callable[[Dict[str, Any], Dict[str, Any]], str]],
    ...,
] = (
    ("save configurations", _save_part, _effective_save),
    ("reductions", _reduction_part, _as_given),
    ("save_histogram", _histogram_part, _as_given),
)


def _shown(part: Dict[str, Any]) -> str:
    if not part:
        return "the hook's"
    text = ", ".join(f"{k}={v if isinstance(v, str) else json.dumps(v, default=str)}" for k, v in part.items())
    return text if len(text) <= 40 else text[:37] + "..."


def sent_more_than_once(
    entries: Sequence[Tuple[Any, Any, str]], hook_parameters: Optional[Dict[str, Any]] = None, order_known: bool = True
) -> List[Tuple[int, str]]:
    """``(index, message)`` for each collection that ``entries`` (``(CollectionName, CollectionParameters, where it
    comes from)`` in the order sent) send more than once with a different save configuration, reductions or
    save_histogram (as smdebug builds them with ``hook_parameters``, the ``HookParameters``); ``index`` is the last
    such entry, whose values smdebug keeps. ``order_known``: False where
    the SDK v2 decides the order (a set's, which varies from launch to launch).

    >>> entries = [("m", {"save_interval": "5"}, "entry 0"), ("m", {"save_interval": "500"}, "entry 1")]
    >>> sent_more_than_once(entries)[0][0]
    1
    """
    hook = hook_parameters if isinstance(hook_parameters, dict) else {}
    groups: Dict[str, List[int]] = {}
    for index, (name, _params, _origin) in enumerate(entries):
        if isinstance(name, str):
            groups.setdefault(name, []).append(index)
    out: List[Tuple[int, str]] = []
    for name, indexes in groups.items():
        if len(indexes) < 2:
            continue
        for what, part_of, builds in _REPLACED:
            parts = [
                (i, part, builds(part, hook))
                for i in indexes
                for part in [part_of(entries[i][1] if isinstance(entries[i][1], dict) else {})]
                if part is not None
            ]
            if len({built for _, _, built in parts}) < 2:
                continue
            last, sent, built = parts[-1]
            other, lost = next((i, p) for i, p, b in reversed(parts) if b != built)
            head = (
                f"{shorten(name)} is sent {len(indexes)} times with different {what}: {_shown(lost)} "
                f"({entries[other][2]}), {_shown(sent)} ({entries[last][2]}); smdebug keeps the last"
            )
            tail = "; an SDK v2 list's" if order_known else "; the SDK v2's"
            out.append((last, head + tail + " order varies per launch"))
    return out


def sdk_v2_findings(
    collections: Sequence[MergedCollection], hook_parameters: Optional[Dict[str, Any]] = None
) -> List[Finding]:
    """SMD117 for the collections the SDK v2 would send more than once (each distinct ``CollectionConfig`` of the
    hook and the rules, in a set's order) with ``hook_parameters``, at the merged entry of that name."""
    out: List[Finding] = []
    for index, collection in enumerate(collections):
        distinct: Dict[str, Contribution] = {}
        for c in collection.contributions:
            key = json.dumps(sorted((c.parameters or {}).items()), default=str)  # the SDK's __eq__: name and parameters
            distinct.setdefault(key, c)
        entries = [(collection.name, c.parameters, _origin_text(c)) for c in distinct.values()]
        for _last, message in sent_more_than_once(entries, hook_parameters, order_known=False):
            out.append(SMD117.at(("DebugHookConfig", "CollectionConfigurations", index), message))
    return out


def _origin_text(contribution: Contribution) -> str:
    if contribution.level == HOOK:
        return "DebuggerHookConfig"
    return f"rule {contribution.origin}" + ("'s defaults" if contribution.level == DEFAULT else "")
