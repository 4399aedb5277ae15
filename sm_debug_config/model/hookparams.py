"""Checks of HookParameters and CollectionParameters against what the training-side hook reads, driven by
``data/hook_parameters.json``: constructors raise the errors, :mod:`sm_debug_config.validation` reports them as
findings.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional

from sm_debug_config import datafiles as data
from sm_debug_config.apischema import SMD100
from sm_debug_config.errors import did_you_mean, only_close, shorten
from sm_debug_config.findings import ERROR, SMDEBUG, WARNING, Check, Finding, declare
from sm_debug_config.fixes import REMOVE, SAFE, SET, UNSAFE, Change, Fix
from sm_debug_config.limits import regex_error
from sm_debug_config.model.validators import SMD153, parse_int, rename_fix, string_fix
from sm_debug_config.variables import is_pipeline_variable

# The codes the hook-parameter checks produce: constructors raise or warn them, validation reports them.
SMD130 = declare(
    "SMD130", ERROR, "An include_regex pattern (after the hook's split on commas) does not compile.",
    f"{SMDEBUG} core/utils.py match_inc: re.search(pattern, tensor_name) raises re.error in the training job.")

SMD131 = declare(
    "SMD131",
    WARNING,
    "An include_regex has a comma inside a regex; the hook splits on every comma.",
    f"{SMDEBUG} core/json_config.py splits include_regex with core/utils.py split (on every comma); "
    "when the pieces still compile the job runs and matches other tensors than meant (pieces that do not compile are "
    "SMD130).",
)

SMD132 = declare(
    "SMD132", ERROR, "save_interval is not a positive integer (the hook divides the step by it).",
    f"{SMDEBUG} core/save_config.py SaveConfigMode: int(save_interval) raises ValueError on a non-integer, and "
    "should_save_step computes step_num % save_interval, a ZeroDivisionError for 0.")

SMD133 = declare(
    "SMD133",
    WARNING,
    "A step range that saves nothing or not what was meant (start_step not below end_step, "
    "a negative step or interval).",
    f"{SMDEBUG} core/save_config.py SaveConfigMode accepts any integer, and should_save_step (line 282) saves step s "
    "when s is in save_steps, or start_step <= s < end_step (core/utils.py step_in_range, line 389) and "
    "s % save_interval == 0: save_interval -n saves every n-th step (-1: every step), a negative start_step acts "
    "as 0, and a negative end_step or one not above start_step saves no step of the range; the job runs.",
)

SMD134 = declare(
    "SMD134", ERROR, "A step value (start_step, end_step, save_steps) is not an integer.",
    f"{SMDEBUG} core/save_config.py SaveConfigMode int(start_step), int(end_step) and core/json_config.py "
    "parse_save_config_dict int() of each save_steps item raise ValueError when the hook starts.")

SMD135 = declare(
    "SMD135",
    WARNING,
    "A hook or collection parameter key the hook does not read (typo, wrong place, wrong mode prefix).",
    f"{SMDEBUG} core/json_config.py reads known keys only (parse_save_config_dict, collect_hook_config_params); "
    "any other key is ignored and the job runs with the default.",
)

SMD136 = declare(
    "SMD136",
    ERROR,
    "A reduction the hook does not know (with the closest valid ones).",
    f'{SMDEBUG} core/reduction_config.py ReductionConfig._check raises SMDebugValueError ("reductions can only be one '
    'of ...").',
)

SMD137 = declare(
    "SMD137", ERROR, "save_raw_tensor/save_shape: the hook needs a JSON boolean that the API cannot carry.",
    f"{SMDEBUG} core/reduction_config.py ReductionConfig._check raises SMDebugValueError "
    "(\"save_raw_tensor=... must be a boolean\"); the API's HookParameters values are strings.")

SMD138 = declare(
    "SMD138",
    ERROR,
    "A boolean hook parameter (save_all, save_histogram, export_tensorboard) is not true/false/True/False.",
    f"{SMDEBUG} analysis/utils.py parse_bool raises ValueError, called from core/json_config.py "
    "collect_hook_config_params and add_collections_to_manager when the hook starts.",
)

SMD115 = declare(
    "SMD115",
    WARNING,
    "include_workers is neither one nor all; the hook saves from the chief worker only.",
    f'{SMDEBUG} core/hook.py BaseHook.__init__ sets save_all_workers only for "all"; any other value runs as "one".',
)

SMD139 = declare(
    "SMD139", WARNING, "A hook parameter that only takes effect outside SageMaker.",
    f"{SMDEBUG} core/json_config.py create_hook_from_json_config: on SageMaker (is_sagemaker_job) tensorboard_dir and "
    "export_tensorboard from HookParameters are replaced by TensorBoardOutputConfig; the job runs without them.")


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


def _int_problem(key: str, number: Optional[int], value: str, minimum: int, code: Check, what: str) -> List[Finding]:
    """SMD132/SMD134 when ``value`` is not an integer (the hook's ``int()`` fails),
    SMD133 when it is below ``minimum``, saying what smdebug then saves."""
    if number is None:
        return [code.at((key,), f"{key} must be {what}, got {shorten(value)} (the hook's int() fails)")]
    if number < minimum:
        return [SMD133.at((key,), f"{key} {shorten(value)} is below {minimum}: {_below_minimum(key, number)}")]
    return []


def _reduction_fix(key: str, value: str, token: str, new: Optional[str], tokens: List[str]) -> Optional[Fix]:
    """SMD136's safe fix: ``token`` replaced in the comma list ``value`` by ``new``, the one reduction within the
    did-you-mean distance (the rest as written); None when there is none or the list has it already."""
    if new is None or new in tokens:
        return None
    written = ",".join(part.replace(token, new) if part.strip() == token else part for part in value.split(","))
    return Fix(SAFE, f"write the reduction {shorten(token)} as {shorten(new)}", (Change(SET, (key,), written),))


def _swap_fix(start: str, end: str, parameters: Dict[str, Any]) -> Fix:
    """SMD133's unsafe fix of a step range written backwards (start_step above end_step): the two values swapped, as
    written (unsafe: which steps were meant is a guess, the range saved changes)."""
    return Fix(UNSAFE, f"swap {start} and {end}", (Change(SET, (start,), parameters[end]),
                                                   Change(SET, (end,), parameters[start])))


def _below_minimum(key: str, number: int) -> str:
    """What smdebug's ``SaveConfigMode.should_save_step`` does with a negative ``key`` (``step % interval == 0``,
    ``start_step <= step < end_step``; steps count from 0)."""
    base = key.rpartition(".")[2]
    if base == "save_interval":
        if number == -1:
            return "smdebug's step % -1 == 0 holds for every step, so it saves every step"
        every = -number
        return f"smdebug's step % {number} == 0 holds every {every} steps, so it saves every {every} steps (as {every})"
    if base == "start_step":
        return "every step is at or after it, so smdebug saves from step 0 (as with 0)"
    return "no step is below it, so smdebug saves no step of the range (save_steps aside)"


def _regex_problems(key: str, value: str) -> List[Finding]:
    pieces = [part.strip() for part in value.split(",")]  # as smdebug's core/utils.py split
    broken = [(part, why) for part, why in ((part, regex_error(part)) for part in pieces) if why is not None]
    split_note = " after the hook's split on commas" if _comma_inside_construct(value) else ""
    out = [
        SMD130.at((key,), f"{key} pattern {shorten(part)}{split_note} does not compile: {err}") for part, err in broken
    ]
    if not broken and split_note:
        out.append(
            SMD131.at(
                (key,),
                f"{key} {shorten(value)} has a comma inside a regex; the hook splits on every comma, "
                f"so it matches {', '.join(shorten(p) for p in pieces[:8])}{', ...' if len(pieces) > 8 else ''}",
            )
        )
    return out


def _check_value(key: str, kind: str, entry: Dict[str, Any], value: str) -> List[Finding]:
    out: List[Finding] = []
    if kind == "positive_int":
        number = parse_int(value)
        if number == 0:
            out.append(
                SMD132.at(
                    (key,), f"{key} must be a positive integer, got {shorten(value)} (the hook divides the step by it)"
                )
            )
        else:
            out.extend(_int_problem(key, number, value, 1, SMD132, "a positive integer"))
    elif kind == "non_negative_int":
        out.extend(_int_problem(key, parse_int(value), value, 0, SMD134, "a non-negative integer"))
    elif kind == "int_list":
        tokens = [t.strip() for t in value.split(",")]
        numbers = [parse_int(t) for t in tokens]
        if any(n is None for n in numbers):
            out.append(
                SMD134.at(
                    (key,),
                    f'{key} must be comma-separated non-negative integers such as "0,100,200", got {shorten(value)}',
                )
            )
        elif any((n or 0) < 0 for n in numbers):
            out.append(SMD133.at((key,), f"{key} {shorten(value)} has a negative step, which no step ever reaches"))
    elif kind == "regex_list":
        out.extend(_regex_problems(key, value))
    elif kind == "reduction_list":
        valid = spec()["reductions"]
        tokens = [t.strip() for t in value.split(",")]
        for token in tokens:
            if token and token not in valid:
                out.append(
                    SMD136.at(
                        (key,),
                        f"{key}: unknown reduction {shorten(token)};{did_you_mean(token, valid) or ''} allowed: "
                        f"{', '.join(valid)}",
                        fix=_reduction_fix(key, value, token, only_close(token, valid), tokens),
                    )
                )
    elif kind in ("bool_string", "enum") and value not in entry["allowed"]:
        runs_as = f"; the hook runs as {shorten(entry['allowed'][0])}" if kind == "enum" else ""
        meant = value.strip().lower()  # "TRUE", " all": the word the hook takes, written otherwise
        out.append(
            (SMD138 if kind == "bool_string" else SMD115).at(
                (key,), f"{key} must be one of {', '.join(entry['allowed'])}, got {shorten(value)}{runs_as}",
                fix=Fix(SAFE, f"write {shorten(value)} as {shorten(meant)}", (Change(SET, (key,), meant),))
                if meant in entry["allowed"] else None,
            )
        )
    elif kind == "path":
        if not value.startswith("/") and entry.get("effective_on_sagemaker") is not False:
            out.append(SMD153.at((key,), f"{key} should be an absolute path, got {shorten(value)}"))
    elif kind == "json_bool":
        out.append(
            SMD137.at(
                (key,),
                f"{key} cannot be set through the API: the hook needs a JSON boolean, the API carries only strings, "
                "so the training job fails; remove it",
                fix=Fix(UNSAFE, f"remove {key}: the job runs, without what it asked for",
                        (Change(REMOVE, (key,)),)),
            )
        )
    elif kind == "ignored":
        out.append(SMD135.at((key,), f"the hook never reads {shorten(key)}; use {entry['use_instead']}"))
    return out


def check(parameters: Optional[Dict[str, Any]], scope: str) -> List[Finding]:
    """Every problem with a ``HookParameters`` (``scope="hook"``) or ``CollectionParameters`` map.

    >>> [p.code for p in check({"save_interval": "0", "save_intervall": "5"}, "collection")]
    ['SMD132', 'SMD135']
    """
    if not parameters:
        return []
    params = spec()["parameters"]
    modes = spec()["modes"]
    out: List[Finding] = []
    steps: Dict[Optional[str], Dict[str, int]] = {}
    for key, value in parameters.items():
        if not isinstance(key, str):
            # shorten, not str(): no text for an int of 5,000 digits
            out.append(SMD135.at((shorten(key),), f"parameter name {shorten(key)} must be a string"))
            continue
        mode, dot, rest = key.partition(".")  # "train.save_interval": a mode prefix
        prefix, base = (mode, rest) if dot else (None, key)
        entry = params.get(base)
        if prefix is not None and (prefix not in modes or entry is None or not entry["mode_prefixable"]):
            fix: Optional[Fix] = None
            if prefix.lower() in modes and entry is not None and entry["mode_prefixable"]:
                hint = f" mode prefixes are lower-case: use '{prefix.lower()}.{base}'"
                fix = rename_fix((key,), f"{prefix.lower()}.{base}", parameters)
            elif prefix in modes and entry is not None:
                hint = " only save_interval, save_steps, start_step and end_step take a mode prefix"
            else:
                hint = did_you_mean(key, _all_keys(scope)) or f" prefixes are {', '.join(m + '.' for m in modes)}"
                fix = rename_fix((key,), only_close(key, _all_keys(scope)), parameters)
            out.append(SMD135.at((key,), f"the hook ignores {shorten(key)};{hint}", fix=fix))
            continue
        if entry is None:
            hint = did_you_mean(key, _all_keys(scope))
            out.append(
                SMD135.at(
                    (key,),
                    f"unknown {scope} parameter {shorten(key)}; the hook ignores "
                    f"it;{hint or ' allowed: ' + ', '.join(k for k in _all_keys(scope) if '.' not in k)}",
                    fix=rename_fix((key,), only_close(key, _all_keys(scope)), parameters),
                )
            )
            continue
        if entry["scope"] not in ("both", scope):
            where = "HookParameters" if entry["scope"] == "hook" else "CollectionParameters"
            out.append(SMD135.at((key,), f"{shorten(key)} is read only from {where}; here the hook ignores it"))
            continue
        if is_pipeline_variable(value):
            continue
        if not isinstance(value, str):
            out.append(SMD100.at((key,), f"{key} must be a string, got {type(value).__name__}",
                                 fix=string_fix((key,), value)))
            continue
        out.extend(_check_value(key, entry["type"], entry, value))
        if entry.get("effective_on_sagemaker") is False:
            out.append(
                SMD139.at(
                    (key,),
                    f"{key} only takes effect outside SageMaker; on a training job set TensorBoardOutputConfig instead",
                )
            )
        if base in ("start_step", "end_step"):
            number = parse_int(value)
            if number is not None:
                steps.setdefault(prefix, {})[base] = number
    for prefix, pair in steps.items():
        start, end = pair.get("start_step"), pair.get("end_step")
        if start is not None and end is not None and end != 0 and start >= end:
            name = f"{prefix}.start_step" if prefix else "start_step"
            out.append(
                SMD133.at(
                    (name,),
                    f'{name} {start} is not below end_step {end}: no step is saved (end_step "0" is the way to switch '
                    'a collection off)',
                    fix=_swap_fix(name, f"{prefix}.end_step" if prefix else "end_step", parameters) if start > end
                    else None,
                )
            )
    return out
