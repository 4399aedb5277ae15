"""Checks of the profiler (``ProfilerConfig``): metric-config strings as the training container
evaluates them, ProfilingParameters keys, the monitoring interval, and profiler rules."""
from __future__ import annotations

import ast
import functools
from typing import Any, Dict, Iterator, Tuple

from sm_debug_config import pysource
from sm_debug_config.errors import ERROR, INFO, WARNING, did_you_mean, only_close, shorten
from sm_debug_config.findings import SMDEBUG, Check, Finding, declare
from sm_debug_config.limits import regex_error
from sm_debug_config.model.profiler import ALL_METRIC_CONFIGS, SYSTEM_MONITOR_INTERVALS_MS
from sm_debug_config.model.validators import parse_float, parse_int, rename_fix
from sm_debug_config.patterns import LazyPattern
from sm_debug_config.validation.registry import Context, check, mapping

#: ProfilingParameters keys that switch on framework profiling (metric-config strings), then the others.
FRAMEWORK_PROFILING_KEYS = tuple(config.name for config in ALL_METRIC_CONFIGS)
_FILE_KEYS = ("LocalPath", "RotateMaxFileSizeInBytes", "RotateFileCloseIntervalInSeconds", "FileOpenFailThreshold")
_KNOWN = [*_FILE_KEYS, *FRAMEWORK_PROFILING_KEYS, "CPUProfilingDuration", "SMPFileRotationSecs"]
#: The keys the container reads in each metric config (lower-cased, as it reads them).
_RANGE_KEYS = ("startstep", "numsteps", "starttimeinsecsinceepoch", "durationinseconds")
_METRIC_KEYS: Dict[str, Tuple[str, ...]] = {name.lower(): _RANGE_KEYS for name in FRAMEWORK_PROFILING_KEYS}
_METRIC_KEYS["dataloaderprofilingconfig"] += ("metricsregex",)
_METRIC_KEYS["pythonprofilingconfig"] += ("profilername", "cprofiletimer")
_CASE_SENSITIVE_ESCAPES = LazyPattern(r"\\[SDWBAZ]")


class _Unparsable(Exception):
    pass


def _literal(node: ast.AST) -> Any:
    """Evaluate the small subset of Python the container's ``eval`` meets in practice."""
    if isinstance(node, ast.Constant):
        return node.value
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, (ast.UAdd, ast.USub))
        and isinstance(node.operand, ast.Constant)
        and isinstance(node.operand.value, (int, float))
    ):
        value = node.operand.value
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.Dict):
        if any(k is None for k in node.keys):
            raise _Unparsable("uses ** unpacking")
        return {_literal(k): _literal(v) for k, v in zip(node.keys, node.values) if k is not None}
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_literal(e) for e in node.elts]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" and not node.args:
        return {kw.arg: _literal(kw.value) for kw in node.keywords if kw.arg is not None}
    if isinstance(node, ast.Name):
        raise _Unparsable(
            f"name {shorten(node.id)} is not defined when the container evaluates it (NameError); "
            "use a number or a quoted string"
        )
    raise _Unparsable(f"{type(node).__name__} is not a literal the container can evaluate safely")


def parse_metrics_config(text: str) -> Dict[str, Any]:
    """The dict the training container gets from one metric-config string (after lower-casing).

    Raises ``_Unparsable`` where the container's ``eval`` would raise an error it does not catch.
    """

    lowered = text.lower()
    try:
        # without the warning an invalid escape in a regex gives (the container ignores it too): see pysource
        tree = pysource.parse_expression(lowered.strip())
    except SyntaxError as err:  # an empty string too
        raise _Unparsable(f"is not valid Python after lower-casing ({err.msg})") from None
    return _literal(tree.body)


def _metric_findings(name: str, text: str) -> Iterator[Tuple[Check, str]]:
    """``(code, message)`` for one metric-config string."""
    try:
        value = parse_metrics_config(text)
    except _Unparsable as err:
        yield SMD140, f"{name} {err}; the profiler parser fails and framework profiling breaks"
        return
    except (RecursionError, MemoryError, ValueError):
        yield SMD140, f"{name} is too deeply nested for the container to evaluate"
        return
    if not isinstance(value, dict):
        yield SMD141, f"{name} is not a dict; the container ignores it and this profiling stays off"
        return
    if not value:
        yield SMD141, f"{name} is empty; the container treats it as not set"
        return
    allowed = _METRIC_KEYS[name.lower()]
    for key in value:
        if key == "duration":
            yield (
                SMD141,
                f"{name} has 'Duration', which the container never reads; use 'DurationInSeconds' (as sm-debug-config "
                "renders it)",
            )
        elif key not in allowed:
            yield SMD141, f"{name} key {shorten(key)} is ignored by the container; it reads {', '.join(allowed)}"
    numbers: Dict[str, float] = {}
    for key, convert in (
        ("startstep", parse_int),
        ("numsteps", parse_int),
        ("starttimeinsecsinceepoch", parse_float),
        ("durationinseconds", parse_float),
    ):
        if key in value and value[key] is not None:
            number = convert(value[key]) if not isinstance(value[key], bool) else None
            if number is None:
                yield (
                    SMD141,
                    f"{name} {key} {shorten(value[key])} is not a number; the container disables this profiling",
                )
                return
            numbers[key] = number
    steps = bool(numbers.get("startstep") or numbers.get("numsteps"))
    times = bool(numbers.get("starttimeinsecsinceepoch") or numbers.get("durationinseconds"))
    if steps and times:
        yield SMD141, f"{name} has both a step range and a time range; the container disables it"
    if "startstep" in numbers and not steps and not times:
        yield SMD141, f"{name} StartStep 0 without NumSteps is read as unset; nothing is profiled (set NumSteps)"
    if "profilername" in value and str(value["profilername"]) not in ("cprofile", "pyinstrument"):
        yield (
            SMD141,
            f"{name} ProfilerName {shorten(value['profilername'])} is not cprofile or pyinstrument; "
            "Python profiling is disabled",
        )
    if "cprofiletimer" in value and str(value["cprofiletimer"]) not in (
        "total_time",
        "cpu_time",
        "off_cpu_time",
        "default",
    ):
        yield (
            SMD141,
            f"{name} cProfileTimer {shorten(value['cprofiletimer'])} is not total_time, cpu_time, "
            "off_cpu_time or default; Python profiling is disabled",
        )
    if "metricsregex" in value:
        why = regex_error(str(value["metricsregex"]))
        if why is not None:
            yield (
                SMD141,
                f"{name} MetricsRegex does not compile after lower-casing ({why}); data loader profiling is disabled",
            )
    if _CASE_SENSITIVE_ESCAPES.search(text):
        yield (
            SMD142,
            f"{name} has a regex escape (\\S, \\D, \\W, \\B, \\A or \\Z) that lower-casing turns into another one",
        )
    if name.lower() == "horovodprofilingconfig":
        yield (
            SMD145,
            "HorovodProfilingConfig is rendered as the SDK does, but the profiler in smdebug 1.0.34 does not read it: "
            "Horovod is not profiled",
        )


SMD140 = declare(
    "SMD140",
    ERROR,
    "A metric-config string the container cannot evaluate (its eval fails with an uncaught error).",
    f"{SMDEBUG} profiler/profiler_config_parser.py ProfilerConfigParser._parse_metrics_config: eval() "
    "of the string catches only ValueError and AssertionError; a SyntaxError, "
    "NameError or TypeError propagates into the training job's hook.",
)
SMD141 = declare(
    "SMD141",
    WARNING,
    "A metric-config string the container silently ignores or disables (wrong key, both ranges, bad value).",
    f"{SMDEBUG} profiler/profiler_config.py and profiler_config_parser.py log the problem and keep that profiling off "
    "or at its defaults; training runs.",
)
SMD142 = declare(
    "SMD142", WARNING, "Lower-casing by the container changes a value's meaning (regex escapes, paths with capitals).",
    f"{SMDEBUG} profiler/profiler_config_parser.py ProfilerConfigParser.load_config reads the config with "
     "json.loads(text.lower()); the job runs with the changed value.")
SMD143 = declare(
    "SMD143",
    WARNING,
    "A ProfilingParameters key the profiler does not read, or a file parameter that is not a number (all four reset).",
    f"{SMDEBUG} profiler/profiler_config_parser.py reads known keys only and falls back to the file defaults when one "
    "does not parse; the job runs.",
)
SMD145 = declare(
    "SMD145",
    INFO,
    "A profiling setting that is rendered for parity but not read by the container.",
    f"{SMDEBUG} profiler/profiler_config_parser.py has no HorovodProfilingConfig field; the SDK v2 renders it, "
    "nothing reads it. Reported where it was set: FrameworkProfile renders one for every profile without per-metric "
    "configs (the shared window, or each metric's default window), which is not reported.",
)


@functools.lru_cache(maxsize=None)
def _default_windows() -> Dict[str, str]:
    """Each metric config as ``FrameworkProfile()`` renders it (the SDK's default windows)."""
    return {cls.name: cls(profile_default_steps=True).to_json_string() for cls in ALL_METRIC_CONFIGS}


def _horovod_chosen(params: Dict[str, Any]) -> bool:
    """Whether a HorovodProfilingConfig was set: ``FrameworkProfile`` renders one (with the four others) for every
    profile without per-metric configs, in the window it shares with DetailedProfilingConfig or at its default."""
    if not all(isinstance(params.get(name), str) for name in FRAMEWORK_PROFILING_KEYS):
        return True
    if params["HorovodProfilingConfig"] == params["DetailedProfilingConfig"]:
        return False
    return not all(params[name] == text for name, text in _default_windows().items())


@check(SMD140, SMD141, SMD142, SMD143, SMD145)
def _profiling_parameters(ctx: Context) -> Iterator[Finding]:
    params = mapping(ctx.field("ProfilerConfig").get("ProfilingParameters"))
    for key, value in params.items():
        if not isinstance(key, str) or not isinstance(value, str):
            continue  # the schema reports non-strings
        path = ("ProfilerConfig", "ProfilingParameters", key)
        lowered = key.lower()
        if lowered in _METRIC_KEYS:
            for found, message in _metric_findings(key, value):
                if found is not SMD145 or _horovod_chosen(params):
                    yield found.at(path, message)
        elif lowered == "localpath":
            if value != value.lower():
                yield SMD142.at(
                    path,
                    f"LocalPath {shorten(value)} has capitals; the container lower-cases it to "
                    f"{shorten(value.lower())}",
                )
        elif lowered in (k.lower() for k in _FILE_KEYS):
            convert = parse_int if lowered == "fileopenfailthreshold" else parse_float
            if convert(value) is None:
                yield SMD143.at(
                    path,
                    f"{key} {shorten(value)} is not a number; the container resets LocalPath and all file parameters "
                    "to their defaults",
                )
        elif lowered not in (k.lower() for k in _KNOWN):
            yield SMD143.at(
                path,
                f"ProfilingParameters key {shorten(key)} is not read by the "
                f"profiler;{did_you_mean(key, _KNOWN) or ' known keys: ' + ', '.join(_KNOWN)}",
                fix=rename_fix(path, only_close(key, _KNOWN), params),
            )


SMD144 = declare(
    "SMD144",
    WARNING,
    "ProfilingIntervalInMilliseconds is not one of the documented intervals (100, 200, 500, 1000, 5000, 60000).",
    "botocore documents the six values but its ProfilingIntervalInMilliseconds shape is a plain long (no enum); "
    "no public report of a rejection is known.",
)


@check(SMD144)
def _interval(ctx: Context) -> Iterator[Finding]:
    value = ctx.field("ProfilerConfig").get("ProfilingIntervalInMilliseconds")
    if isinstance(value, int) and not isinstance(value, bool) and value not in SYSTEM_MONITOR_INTERVALS_MS:
        yield SMD144.at(
            ("ProfilerConfig", "ProfilingIntervalInMilliseconds"),
            f"{shorten(value)} ms is not a documented system monitoring interval "
            f"({', '.join(map(str, SYSTEM_MONITOR_INTERVALS_MS))})",
        )


SMD160 = declare(
    "SMD160",
    WARNING,
    "Profiler rules are configured while the profiler is disabled.",
    'The SDK v2 refuses it client-side (sagemaker/estimator.py: "ProfilerRule cannot be set when disable_profiler is '
    'True"); no service rejection is documented; the profiler rule job has no profiling data to read.',
)


@check(SMD160, reads=("ProfilerConfig", "ProfilerRuleConfigurations"))
def _profiler_rules_disabled(ctx: Context) -> Iterator[Finding]:
    if ctx.field("ProfilerConfig").get("DisableProfiler") is True and ctx.get("ProfilerRuleConfigurations"):
        yield SMD160.at(
            ("ProfilerRuleConfigurations",),
            "profiler rules are configured but ProfilerConfig.DisableProfiler is true, so they have no data",
        )
