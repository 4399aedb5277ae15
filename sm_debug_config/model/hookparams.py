"""Checks of HookParameters and CollectionParameters against what the training-side hook reads, driven by
``data/hook_parameters.json``: constructors raise the errors, :mod:`sm_debug_config.validation` reports them as findings.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional

from sm_debug_config import datafiles as data
from sm_debug_config.model.validators import is_pipeline_variable, parse_int
from sm_debug_config.errors import Problem, did_you_mean, shorten
from sm_debug_config.limits import regex_error


def spec() -> Dict[str, Any]:
    return data.load("hook_parameters")


def _all_keys(scope: str) -> List[str]:
    params = spec()["parameters"]
    keys = [k for k, v in params.items() if v["scope"] in ("both", scope)]
    for mode in spec()["modes"]:
        keys += [f"{mode}.{k}" for k, v in params.items() if v["mode_prefixable"] and v["scope"] in ("both", scope)]
    return keys


def _comma_inside_construct(pattern: str) -> bool:
    """True when a comma sits inside (), [] or {} of a regex: the hook's comma split breaks it."""
    depth = 0
    in_class = False
    escaped = False
    for char in pattern:
        if escaped:
            escaped = False
            continue
        if char == "\\":
            escaped = True
        elif in_class:
            if char == "]":
                in_class = False
            elif char == ",":
                return True
        elif char == "[":
            in_class = True
        elif char in "({":
            depth += 1
        elif char in ")}":
            depth = max(0, depth - 1)
        elif char == "," and depth:
            return True
    return False


def problem(code: str, key: str, message: str) -> Problem:
    """A problem with its code's registered severity (one severity per code, constructors and validation alike)."""
    from sm_debug_config.validation.registry import severity_of

    return Problem(severity_of(code), code, key, message)


def _int_problem(key: str, number: Optional[int], value: str, minimum: int, code: str, what: str) -> List[Problem]:
    """SMD132/SMD134 when ``value`` is not an integer (the hook's ``int()`` fails), SMD133 when it is below ``minimum``."""
    if number is None:
        return [problem(code, key, f"{key} must be {what}, got {shorten(value)} (the hook's int() fails)")]
    if number < minimum:
        return [problem("SMD133", key, f"{key} {shorten(value)} is below {minimum}: the hook accepts it and saves no step (or not the steps meant)")]
    return []


def _regex_problems(key: str, value: str) -> List[Problem]:
    pieces = [part.strip() for part in value.split(",")]  # as smdebug's core/utils.py split
    broken = [(part, why) for part, why in ((part, regex_error(part)) for part in pieces) if why is not None]
    split_note = " after the hook's split on commas" if _comma_inside_construct(value) else ""
    out = [problem("SMD130", key, f"{key} pattern {shorten(part)}{split_note} does not compile: {err}") for part, err in broken]
    if not broken and split_note:
        out.append(problem("SMD131", key, f"{key} {shorten(value)} has a comma inside a regex; the hook splits on every comma, so it matches {', '.join(shorten(p) for p in pieces[:8])}{', ...' if len(pieces) > 8 else ''}"))
    return out


def _check_value(key: str, kind: str, entry: Dict[str, Any], value: str) -> List[Problem]:
    out: List[Problem] = []
    if kind == "positive_int":
        number = parse_int(value)
        if number == 0:
            out.append(problem("SMD132", key, f"{key} must be a positive integer, got {shorten(value)} (the hook divides the step by it)"))
        else:
            out.extend(_int_problem(key, number, value, 1, "SMD132", "a positive integer"))
    elif kind == "non_negative_int":
        out.extend(_int_problem(key, parse_int(value), value, 0, "SMD134", "a non-negative integer"))
    elif kind == "int_list":
        tokens = [t.strip() for t in value.split(",")]
        numbers = [parse_int(t) for t in tokens]
        if any(n is None for n in numbers):
            out.append(problem("SMD134", key, f"{key} must be comma-separated non-negative integers such as \"0,100,200\", got {shorten(value)}"))
        elif any((n or 0) < 0 for n in numbers):
            out.append(problem("SMD133", key, f"{key} {shorten(value)} has a negative step, which no step ever reaches"))
    elif kind == "regex_list":
        out.extend(_regex_problems(key, value))
    elif kind == "reduction_list":
        valid = spec()["reductions"]
        for token in (t.strip() for t in value.split(",")):
            if token and token not in valid:
                out.append(problem("SMD136", key, f"{key}: unknown reduction {shorten(token)};{did_you_mean(token, valid) or ''} allowed: {', '.join(valid)}"))
    elif kind in ("bool_string", "enum") and value not in entry["allowed"]:
        runs_as = f"; the hook runs as {shorten(entry['allowed'][0])}" if kind == "enum" else ""
        out.append(problem("SMD138" if kind == "bool_string" else "SMD115", key, f"{key} must be one of {', '.join(entry['allowed'])}, got {shorten(value)}{runs_as}"))
    elif kind == "path":
        if not value.startswith("/") and entry.get("effective_on_sagemaker") is not False:
            out.append(problem("SMD153", key, f"{key} should be an absolute path, got {shorten(value)}"))
    elif kind == "json_bool":
        out.append(problem("SMD137", key, f"{key} cannot be set through the API: the hook needs a JSON boolean and the API only carries strings, so the training job fails; set {entry.get('use_instead', 'nothing')}"))
    elif kind == "ignored":
        out.append(problem("SMD135", key, f"the hook never reads {shorten(key)}; use {entry['use_instead']}"))
    return out


def check(parameters: Optional[Dict[str, Any]], scope: str) -> List[Problem]:
    """Every problem with a ``HookParameters`` (``scope="hook"``) or ``CollectionParameters`` map.

    >>> [p.code for p in check({"save_interval": "0", "save_intervall": "5"}, "collection")]
    ['SMD132', 'SMD135']
    """
    if not parameters:
        return []
    params = spec()["parameters"]
    modes = spec()["modes"]
    out: List[Problem] = []
    steps: Dict[Optional[str], Dict[str, int]] = {}
    for key, value in parameters.items():
        if not isinstance(key, str):
            out.append(problem("SMD135", str(key), f"parameter name {shorten(key)} must be a string"))
            continue
        mode, dot, rest = key.partition(".")  # "train.save_interval": a mode prefix
        prefix, base = (mode, rest) if dot else (None, key)
        entry = params.get(base)
        if prefix is not None and (prefix not in modes or entry is None or not entry["mode_prefixable"]):
            if prefix.lower() in modes and entry is not None and entry["mode_prefixable"]:
                hint = f" mode prefixes are lower-case: use '{prefix.lower()}.{base}'"
            elif prefix in modes and entry is not None:
                hint = " only save_interval, save_steps, start_step and end_step take a mode prefix"
            else:
                hint = did_you_mean(key, _all_keys(scope)) or f" prefixes are {', '.join(m + '.' for m in modes)}"
            out.append(problem("SMD135", key, f"the hook ignores {shorten(key)};{hint}"))
            continue
        if entry is None:
            hint = did_you_mean(key, _all_keys(scope))
            out.append(problem("SMD135", key, f"unknown {scope} parameter {shorten(key)}; the hook ignores it;{hint or ' allowed: ' + ', '.join(k for k in _all_keys(scope) if '.' not in k)}"))
            continue
        if entry["scope"] not in ("both", scope):
            where = "HookParameters" if entry["scope"] == "hook" else "CollectionParameters"
            out.append(problem("SMD135", key, f"{shorten(key)} is read only from {where}; here the hook ignores it"))
            continue
        if is_pipeline_variable(value):
            continue
        if not isinstance(value, str):
            out.append(problem("SMD100", key, f"{key} must be a string, got {type(value).__name__}"))
            continue
        out.extend(_check_value(key, entry["type"], entry, value))
        if entry.get("effective_on_sagemaker") is False:
            out.append(problem("SMD139", key, f"{key} only takes effect outside SageMaker; on a training job set TensorBoardOutputConfig instead"))
        if base in ("start_step", "end_step"):
            number = parse_int(value)
            if number is not None:
                steps.setdefault(prefix, {})[base] = number
    for prefix, pair in steps.items():
        start, end = pair.get("start_step"), pair.get("end_step")
        if start is not None and end is not None and end != 0 and start >= end:
            name = f"{prefix}.start_step" if prefix else "start_step"
            out.append(problem("SMD133", name, f"{name} {start} is not below end_step {end}: no step is saved (end_step \"0\" is the way to switch a collection off)"))
    return out
