"""Bad input never crashes: every public entry point gets generated junk and may only answer with
a ``ConfigError`` (or findings, or a return value), never another exception, never a hang.

Each call binds real parameters from the entry point's signature; every parameter is either left
out (where it has a default), given a valid value (so that the junk reaches deep code) or given
junk: wrong types, huge sizes and depths, unicode oddities, integers past Python's 4,300-digit
string limit, self-references and pipeline variables.
"""
from __future__ import annotations

import inspect
import json
import os
import re
import signal
import sys
import time
import warnings
from typing import Any, Callable, Dict, List, Tuple

import pytest

import sm_debug_config as smd
from sm_debug_config import ConfigError, ConfigWarning, rule_configs
from sm_debug_config.findings import collecting

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402 - needs the importorskip above
from hypothesis import strategies as st  # noqa: E402 - needs the importorskip above

CALL_ERROR = re.compile(
    r"unexpected keyword argument|positional arguments? but|missing \d+ required|takes no arguments"
)
CALL_SECONDS = 20  # a call taking longer than this counts as a hang
SLOWEST: Dict[str, float] = {}  # entry point -> its slowest single call in this run (seconds)
CALLS: Dict[str, int] = {}  # entry point -> how many examples it ran


class PipelineVariable:
    """Duck-types a SageMaker Pipelines value (ParameterString & co.) without the SDK."""

    expr = {"Get": "Parameters.Junk"}

    def to_string(self) -> "PipelineVariable":
        return self

    def __str__(self) -> str:  # the SDK's variables refuse str(); so do we
        raise TypeError("Pipeline variables do not support __str__ operation.")


def _deep(depth: int, container: Callable[[Any], Any]) -> Any:
    value: Any = "bottom"
    for _ in range(depth):
        value = container(value)
    return value


def _nasty() -> List[Any]:
    loop: List[Any] = []
    loop.append(loop)
    cyclic: Dict[str, Any] = {}
    cyclic["self"] = cyclic
    return [
        None,
        True,
        0,
        -1,
        2**64,
        10**5000,
        -(10**5000),
        float("nan"),
        float("inf"),
        -0.0,
        1e308,
        "",
        " ",
        "x" * 1_000_000,
        "é" * 300,
        "\x00",
        "a\x00b",
        "\ud800",
        "²",
        "٣",
        " 1 ",
        "1e309",
        "0x10",
        "-1",
        "s3://",
        "s3://b/" + "k" * 2000,
        "/opt/ml/" + "p" * 5000,
        "us-east-1",
        "USEAST1",
        "../../etc/passwd",
        b"bytes",
        bytearray(b"x"),
        set(),
        frozenset({1}),
        object(),
        PipelineVariable(),
        [PipelineVariable()],
        {"k": PipelineVariable()},
        _deep(100_000, lambda v: [v]),
        _deep(100_000, lambda v: {"k": v}),
        list(range(100_000)),
        {str(i): str(i) for i in range(10_000)},
        loop,
        cyclic,
        ("tuple",),
        [[]],
        [{}],
        {"": ""},
        {1: 2},
        {None: None},
        {"save_interval": 10**5000},
        {"²": "1"},
        {"x" * 300: "y"},
        {"DebugHookConfig": {"S3OutputPath": "s3://b/o", "HookParameters": {"²": "1"}}},
        {"ProfilerConfig": {"ProfilingIntervalInMilliseconds": 10**4300}},
        {"ProfilerConfig": {"S3OutputPath": "s3://b/o", "ProfilingParameters": {"FileOpenFailThreshold": "9" * 5000}}},
        {"DebugRuleConfigurations": [{"RuleConfigurationName": ["x"], "RuleEvaluatorImage": {}}]},
        {"OutputDataConfig": 1.5},
        {"DebugHookConfig": {"CollectionConfigurations": [{}]}},
        {
            "DebugRuleConfigurations": [
                {"RuleConfigurationName": "r", "RuleEvaluatorImage": "i", "RuleParameters": {"action_json": "[" * 3000}}
            ]
        },
    ]


NASTY = _nasty()

plain = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=40), st.binary(max_size=10)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)),
    max_leaves=12,
)


def _rich_request() -> Dict[str, Any]:
    """A request with every Debugger field, nested as deep as real ones: what _mutated() breaks one place of."""
    rules = [
        smd.Rule.sagemaker(
            rule_configs.vanishing_gradient(),
            actions=rule_configs.ActionList(rule_configs.StopTraining("job"), rule_configs.Email("a@b.com")),
        ),
        smd.ProfilerRule.sagemaker(rule_configs.ProfilerReport()),
    ]
    hook = smd.DebuggerHookConfig(
        hook_parameters={"save_interval": "10"},
        collection_configs=[smd.CollectionConfig("losses", {"include_regex": "loss.*"})],
    )
    profiler = smd.ProfilerConfig(framework_profile_params=smd.FrameworkProfile())
    with collecting():  # its findings are not the point here
        fields = smd.render(rules, debugger_hook_config=hook, profiler_config=profiler,
                            tensorboard_output_config=smd.TensorBoardOutputConfig("s3://b/tb"),
                            region="us-east-1", output_path="s3://b/o/", job_name="job-1")
    return dict(
        fields,
        TrainingJobName="job-1",
        OutputDataConfig={"S3OutputPath": "s3://b/o/"},
        ResourceConfig={"InstanceType": "ml.p3.2xlarge"},
    )


RICH_REQUEST = _rich_request()
REQUEST_PARAMETERS = {"request", "source", "current", "describe_training_job_response"}


def _places(value: Any, path: Tuple[Any, ...] = ()) -> List[Tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _places(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _places(item, path + (index,))
    return out


PLACES = _places(RICH_REQUEST)[1:]


def _mutated(data: Any, label: str) -> Any:
    """The rich request with one member (anywhere in it) replaced by junk: wrong types where botocore's shapes
    want others."""
    path = PLACES[data.draw(st.integers(0, len(PLACES) - 1), label=f"{label} place")]
    request = json.loads(json.dumps(RICH_REQUEST))
    target = request
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = _draw_junk(data, f"{label} at {path}")
    return request


def _draw_junk(data: Any, label: str) -> Any:
    """Junk; the hand-made values are drawn by index (hypothesis would repr a 100,000-deep list)."""
    if data.draw(st.booleans(), label=f"{label} is hand-made"):
        return NASTY[data.draw(st.integers(0, len(NASTY) - 1), label=f"{label} (index into NASTY)")]
    return data.draw(plain, label=label)


def _valid() -> Dict[str, Any]:
    rule = smd.Rule.sagemaker(rule_configs.vanishing_gradient())
    request = {
        "DebugHookConfig": {"S3OutputPath": "s3://b/o", "CollectionConfigurations": [{"CollectionName": "gradients"}]}
    }
    return {
        "region": "us-east-1",
        "output_path": "s3://b/o/",
        "job_name": "job-1",
        "rules": [rule],
        "name": "gradients",
        "request": request,
        "source": request,
        "describe_training_job_response": {"TrainingJobName": "job-1"},
        "debugger_hook_config": smd.DebuggerHookConfig(),
        "profiler_config": smd.ProfilerConfig(),
        "base_config": rule_configs.vanishing_gradient(),
        "s3_output_path": "s3://b/o",
        "rule_names": ["VanishingGradient"],
        "event": {"detail": {"TrainingJobName": "job-1"}},
        "hook_collections": [smd.CollectionConfig("losses")],
        "framework_profile_params": smd.FrameworkProfile(),
        "parameters": {"save_interval": "10"},
        "text": "region: us-east-1\n",
        "framework": "pytorch",
        "defaults": "explicit",
    }


VALID = _valid()
#: Public callables fuzzed. Left out: exception classes, plain records (Finding, SchemaError), the SDK's
#: enums (PythonProfiler, cProfileTimer: ValueError as in the SDK), and calls that reach AWS
#: (create_training_job, upload_rule_sources, stop_training_job_on_issues: they take a client).
SKIP = {"ConfigError", "ConfigFileError", "ConfigWarning", "Finding", "SchemaError", "PythonProfiler", "cProfileTimer",
        "create_training_job", "upload_rule_sources", "stop_training_job_on_issues", "RuleBase", "JobSettings"}


def _entry_points() -> List[Tuple[str, Callable[..., Any]]]:
    out = [(name, getattr(smd, name)) for name in smd.__all__ if name not in SKIP and name != "rule_configs"]
    out += [
        (f"rule_configs.{name}", getattr(rule_configs, name))
        for name in sorted(dir(rule_configs))
        if name in getattr(rule_configs, "__all__", ())
        or (not hasattr(rule_configs, "__all__") and not name.startswith("_"))
    ]
    from sm_debug_config import configfile

    out += [
        ("configfile.loads", configfile.loads),
        ("configfile.dump", configfile.dump),
        ("JobSettings", smd.JobSettings),
    ]
    return [(name, fn) for name, fn in out if callable(fn)]


ENTRY_POINTS = _entry_points()


class Hang(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise Hang(f"a call took more than {CALL_SECONDS} s")


def _call(name: str, fn: Callable[..., Any], args: List[Any], kwargs: Dict[str, Any]) -> None:
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, CALL_SECONDS)
    start = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConfigWarning)  # junk may warn: what is said is not the point
            fn(*args, **kwargs)
    except ConfigError as err:
        text = str(err)
        assert len(text) < 20_000, f"{name}: unbounded error message ({len(text)} characters)"
    except TypeError as err:  # only Python's own complaint about the call's arguments is allowed
        if not CALL_ERROR.search(str(err)):
            raise
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        SLOWEST[name] = max(SLOWEST.get(name, 0.0), time.perf_counter() - start)
        CALLS[name] = CALLS.get(name, 0) + 1


@pytest.mark.parametrize("name,fn", ENTRY_POINTS, ids=[n for n, _ in ENTRY_POINTS])
@settings(max_examples=int(os.environ.get("SM_DEBUG_CONFIG_JUNK_EXAMPLES", "100")), deadline=None)
@given(data=st.data())
def test_junk_gets_config_error_or_an_answer(name: str, fn: Callable[..., Any], data: Any) -> None:
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        signature = inspect.Signature()
    args: List[Any] = []
    kwargs: Dict[str, Any] = {}
    params = [p for p in signature.parameters.values() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    junk_at = data.draw(st.integers(0, max(len(params) - 1, 0)), label="junk parameter") if params else None
    for index, param in enumerate(params):
        if index == junk_at:
            choice = "junk"
        else:
            options = ["junk", "valid"] + (["omit"] if param.default is not param.empty else [])
            choice = data.draw(st.sampled_from(options), label=f"{param.name} kind")
        if choice == "omit":
            continue
        if (
            choice == "junk"
            and param.name in REQUEST_PARAMETERS
            and data.draw(st.booleans(), label=f"{param.name} is a broken request")
        ):
            value = _mutated(data, param.name)
        else:
            value = _draw_junk(data, param.name) if choice == "junk" or param.name not in VALID else VALID[param.name]
        if param.kind == param.POSITIONAL_ONLY or (param.kind == param.POSITIONAL_OR_KEYWORD and not kwargs):
            args.append(value)
        else:
            kwargs[param.name] = value
    if any(p.kind == p.VAR_KEYWORD for p in signature.parameters.values()) and data.draw(
        st.booleans(), label="extra keyword"
    ):
        kwargs[data.draw(st.sampled_from(["region", "threshold", "unknown_knob", "²"]), label="extra name")] = (
            _draw_junk(data, "extra value")
        )
    _call(name, fn, args, kwargs)


def test_report_the_slowest_calls() -> None:
    """Not an assertion on time: prints the examples run and the slowest call per entry point of
    this run (-s to see); with SM_DEBUG_CONFIG_JUNK_REPORT=<file> also writes them there as JSON."""
    for name, seconds in sorted(SLOWEST.items(), key=lambda item: -item[1])[:10]:
        sys.stdout.write(f"{seconds:8.3f} s  {name}  ({CALLS.get(name, 0)} examples)\n")
    if CALLS:
        sys.stdout.write(
            f"{len(CALLS)} entry points, {min(CALLS.values())}-{max(CALLS.values())} examples each, "
            f"{sum(CALLS.values())} calls\n"
        )
    report = os.environ.get("SM_DEBUG_CONFIG_JUNK_REPORT")
    if report:
        with open(report, "w", encoding="utf-8") as handle:
            json.dump({"examples": CALLS, "slowest_seconds": SLOWEST}, handle, indent=1, sort_keys=True)


# --- the 19 reproducers of issue 23 ---------------------------------------------------------------
# Each once raised something other than ConfigError. ``setp`` sets a field past the attrs validators (as a
# user's ``object.__setattr__`` or a bad pickle would), so the renderer's own conversion is what refuses it.

IMG = "123456789012.dkr.ecr.us-east-1.amazonaws.com/my-rule:latest"
KW = {"region": "us-east-1", "output_path": "s3://b/o/"}
BIG = 10**5000


def setp(obj: Any, attribute: str, value: Any) -> Any:
    object.__setattr__(obj, attribute, value)
    return obj


def deep_list(depth: int) -> Any:
    return _deep(depth, lambda v: [v])


def deep_dict(depth: int) -> Any:
    return _deep(depth, lambda v: {"k": v})


class EqualsAll:
    """An object equal to everything: ``x in ("a", "b")`` is True for it."""

    def __eq__(self, other: Any) -> bool:
        return True

    __hash__ = object.__hash__


def _profile(attribute: str) -> Any:
    return smd.ProfilerConfig(framework_profile_params=setp(smd.FrameworkProfile(), attribute, BIG))


def _profiler_rule(params: Any) -> Any:
    return setp(smd.ProfilerRule.sagemaker(rule_configs.CPUBottleneck()), "rule_parameters", params)


def _vg(**base: Any) -> Dict[str, Any]:
    return {"DebugRuleConfiguration": {"RuleConfigurationName": "VanishingGradient", **base}}


def _custom(params: Any) -> Any:
    return smd.Rule.custom("MyRule", IMG, "ml.m5.xlarge", 30, rule_parameters=params)


def _with_collections(value: Any) -> Any:
    return smd.Rule.sagemaker(dict(rule_configs.vanishing_gradient(), CollectionConfigurations=value))


def _debugger_rule(params: Any) -> Any:
    return setp(smd.Rule.sagemaker(rule_configs.vanishing_gradient()), "rule_parameters", params)


BASE, DRC = "Rule.sagemaker.base_config", "DebugRuleConfiguration"
DEEP_DICT = deep_dict(100_000)


def _render_profiler_rule(params: Any) -> Any:
    return smd.render([_profiler_rule(params)], **KW)


def _sagemaker(base_config: Any) -> Any:
    return smd.Rule.sagemaker(base_config)


def _render_profile(attribute: str) -> Any:
    return smd.render(profiler_config=_profile(attribute), **KW)

# (id, call, the field the ConfigError names: a part of err.field)
REFUSED = [
    ("custom-big-param", lambda: _custom({"k": BIG}), "Rule.custom.rule_parameters.k"),
    ("fp-file_max_size", lambda: _render_profile("file_max_size"), "FrameworkProfile.file_max_size"),
    ("fp-file_open_fail_threshold", lambda: _render_profile("file_open_fail_threshold"), "file_open_fail_threshold"),
    ("fp-num_steps", lambda: _render_profile("num_steps"), "NumSteps"),
    ("profiler-rule-big-param", lambda: _render_profiler_rule({"threshold": BIG}), "rule_parameters.threshold"),
    ("dump-deep-region", lambda: smd.configfile.dump(region=deep_list(100_000)), "region"),
    ("custom-deep-dict", lambda: _custom(deep_dict(100_000)), "Rule.custom.rule_parameters.k"),
    ("custom-deep-list", lambda: _custom({"k": deep_list(100_000)}), "Rule.custom.rule_parameters.k"),
    ("profiler-rule-deep-params", lambda: _render_profiler_rule(DEEP_DICT), "ProfilerRule.rule_parameters.k"),
    ("debugger-rule-deep-params", lambda: smd.render([_debugger_rule(DEEP_DICT)], **KW), "rules[0].rule_parameters"),
    ("list_rules-kind-equals-all", lambda: rule_configs.list_rules(kind=EqualsAll()), "kind"),
    ("explain-framework-list", lambda: smd.explain(framework=[], **KW), "framework"),
    ("sagemaker-RuleParameters-int", lambda: _sagemaker(_vg(RuleParameters=-1)), f"{BASE}.{DRC}.RuleParameters"),
    ("sagemaker-RuleParameters-str", lambda: _sagemaker(_vg(RuleParameters=" ")), f"{BASE}.{DRC}.RuleParameters"),
    ("sagemaker-Collections-int", lambda: _with_collections(-1), f"{BASE}.CollectionConfigurations"),
    ("sagemaker-Collections-str", lambda: _with_collections(" "), f"{BASE}.CollectionConfigurations"),
    ("sagemaker-Collection-item", lambda: _with_collections([1]), f"{BASE}.CollectionConfigurations[0]"),
]
_CASES = [pytest.param(call, field, id=name) for name, call, field in REFUSED]


@pytest.mark.parametrize("call,field", _CASES)
def test_issue23_junk_is_a_config_error_naming_the_field(call: Callable[[], Any], field: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConfigWarning)  # junk may warn: what is said is not the point
        with pytest.raises(ConfigError) as caught:
            call()
    assert field in (caught.value.field or ""), str(caught.value)[:300]
    assert len(str(caught.value)) < 20_000


def _tensorboard(path: Any) -> Any:
    return setp(smd.TensorBoardOutputConfig("s3://b/t"), "s3_output_path", path)


SET_PAST_VALIDATORS = [
    ("hook_parameters", lambda x: {"debugger_hook_config": setp(smd.DebuggerHookConfig(), "hook_parameters", x)}),
    ("collection", lambda x: {"debugger_hook_config": smd.DebuggerHookConfig(
        collection_configs=[setp(smd.CollectionConfig("losses"), "parameters", x)])}),
    ("profiling_parameters", lambda x: {"profiler_config": smd.ProfilerConfig(
        framework_profile_params=setp(smd.FrameworkProfile(), "_override", x))}),
    ("tensorboard", lambda x: {"tensorboard_output_config": _tensorboard(x)}),
]


@pytest.mark.parametrize("name,setup", SET_PAST_VALIDATORS, ids=[n for n, _ in SET_PAST_VALIDATORS])
def test_render_refuses_any_field_nested_without_end(name: str, setup: Callable[[Any], Dict[str, Any]]) -> None:
    """Whatever field a too-deep value was set on past the validators, render's walk refuses it first."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConfigWarning)  # junk may warn: what is said is not the point
        for junk in (DEEP_DICT, _loop_dict()):
            with pytest.raises(ConfigError) as caught:
                smd.render(**setup(junk), **KW)
            assert caught.value.path, name


@pytest.mark.parametrize("key", [BIG, "9" * 5000], ids=["int-key", "digits-key"])
def test_issue23_huge_request_keys_are_findings(key: Any) -> None:
    findings = smd.validate({"ProfilerConfig": {"ProfilingParameters": {key: "1"}}})
    assert any(f.code == "SMD100" and f.pointer.startswith("/ProfilerConfig/ProfilingParameters/") for f in findings)


def test_issue23_an_unrepresentable_time_is_no_time() -> None:
    for when in (BIG, -BIG, "9" * 5000, 1e400):
        statuses = [{"RuleConfigurationName": "r", "LastModifiedTime": when}]
        rows = smd.rule_job_summary({"TrainingJobName": "j", "DebugRuleEvaluationStatuses": statuses})
        assert rows[0].last_modified is None


# --- the shared mechanisms: bounded paths (F2), one conversion to API strings (F1) ------------------


@pytest.mark.parametrize("path", [(), ("a",), ("Rules", 0, "RuleParameters", "a/b~c"), ("x", 12, "", "7x")])
def test_pointer_parts_inverts_pointer(path: Tuple[Any, ...]) -> None:
    from sm_debug_config.errors import pointer, pointer_parts

    assert pointer_parts(pointer(*path)) == path


def test_path_text_is_bounded_and_never_raises() -> None:
    from sm_debug_config.errors import format_path, pointer, pointer_parts

    assert pointer("P", BIG) == "/P/int(5001 digits)"
    assert format_path(("rules", BIG, object())).startswith("rules[int(5001 digits)][<object")
    assert pointer_parts("/P/" + "9" * 5000) == ("P", "9" * 5000)


def _loop_list() -> List[Any]:
    loop: List[Any] = []
    loop.append(loop)
    return loop


def _loop_dict() -> Dict[str, Any]:
    loop: Dict[str, Any] = {}
    loop["k"] = loop
    return loop


JUNK_VALUES = [BIG, -BIG, deep_list(100_000), deep_dict(100_000), _loop_list(), _loop_dict(), [[1]], {1, 2}, object()]
JUNK_IDS = ["big", "-big", "deep-list", "deep-dict", "self-list", "self-dict", "nested-list", "set", "object"]
CONSTRUCTORS: List[Tuple[str, Callable[[Any], Any]]] = [
    ("Rule.custom", lambda x: _custom({"k": x})),
    ("ProfilerRule.custom", lambda x: smd.ProfilerRule.custom("R", IMG, "ml.m5.xlarge", 30, rule_parameters={"k": x})),
    ("Rule.sagemaker", lambda x: smd.Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"t": x})),
    ("Rule.sagemaker.base", lambda x: smd.Rule.sagemaker(_vg(RuleParameters={"threshold": x}))),
    ("CPUBottleneck", lambda x: rule_configs.CPUBottleneck(threshold=x)),
    ("ProfilerReport", lambda x: rule_configs.ProfilerReport(CPUBottleneck_threshold=x)),
    ("FrameworkProfile", lambda x: smd.FrameworkProfile(num_steps=x)),
    ("FrameworkProfile.file_max_size", lambda x: smd.FrameworkProfile(file_max_size=x)),
    ("CollectionConfig", lambda x: smd.CollectionConfig("losses", {"save_interval": x})),
    ("DebuggerHookConfig", lambda x: smd.DebuggerHookConfig(hook_parameters={"save_interval": x})),
    ("api_string", lambda x: smd.model.validators.api_string(x, "field")),
]


@pytest.mark.parametrize("junk", JUNK_VALUES, ids=JUNK_IDS)
@pytest.mark.parametrize("name,build", CONSTRUCTORS, ids=[n for n, _ in CONSTRUCTORS])
def test_constructors_refuse_huge_deep_and_self_referencing(name: str, build: Callable[[Any], Any], junk: Any) -> None:
    """Each public constructor refuses the value with a ConfigError, or takes it and renders it (or refuses at
    render): never another exception."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConfigWarning)  # junk may warn: what is said is not the point
        try:
            built = build(junk)
        except ConfigError as err:
            assert err.field or err.path, f"{name}: {str(err)[:200]}"
            return
        try:
            if isinstance(built, (smd.Rule, smd.ProfilerRule)):
                smd.render([built], **KW)
            elif isinstance(built, smd.FrameworkProfile):
                smd.render(profiler_config=smd.ProfilerConfig(framework_profile_params=built), **KW)
            elif isinstance(built, smd.DebuggerHookConfig):
                smd.render(debugger_hook_config=built, **KW)
        except ConfigError:
            pass
