"""Hypothesis strategies, one set for every property test, and :func:`examples`, the per-test budget (the
config-file documents' strategies are in tests/docstrategies.py).

* ``configurations()``: ``render`` keyword arguments for valid requests (objects, random values);
* ``request_configurations()``: ``render`` keyword arguments over every built-in rule and the edge
  values of each input, for request round trips (some do not render);
* ``JUNK``: anything at all, for the "only ConfigError" fuzzers.
"""
import os

from hypothesis import settings
from hypothesis import strategies as st

import rule_configs
from sm_debug_config import (
    CollectionConfig,
    DataloaderProfilingConfig,
    DebuggerHookConfig,
    DetailedProfilingConfig,
    FrameworkProfile,
    Profiler,
    ProfilerConfig,
    ProfilerRule,
    PythonProfiler,
    PythonProfilingConfig,
    Rule,
    TensorBoardOutputConfig,
    cProfileTimer,
)
from sm_debug_config.model import catalogue

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")  # the profile tests/conftest.py loaded


def examples(ci, **kwargs):
    """``settings`` giving a property ``ci`` examples in the ``ci`` profile.

    The budget is per test because examples cost very different amounts: a cheap constructor
    fuzzer and a full render-validate-reverse round trip should not both get 1,000 in every CI
    run. ``dev`` runs at most its own (small) number, ``long`` at least its own soak-size number.
    Other settings (``deadline=None``...) pass through::

        @examples(200)
        @given(a=JUNK)
        def test_something(a): ...
    """
    profile_default = settings.default.max_examples
    if PROFILE == "ci":
        count = ci
    elif PROFILE == "long":
        count = max(profile_default, ci)
    else:
        count = min(profile_default, ci)
    return settings(max_examples=count, **kwargs)


REGIONS = ["us-east-1", "us-west-2", "eu-west-1", "ap-northeast-1", "cn-north-1", "eu-central-1"]
FRAMEWORKS = [None, "tensorflow", "pytorch", "mxnet", "xgboost"]
REDUCTIONS = [
    "min",
    "max",
    "mean",
    "std",
    "variance",
    "sum",
    "prod",
    "abs_min",
    "abs_max",
    "abs_mean",
    "l1_norm",
    "l2_norm",
    "abs_l2_norm",
]
NAME = st.from_regex(r"[a-z][a-z0-9_]{0,20}", fullmatch=True)
JOB = st.from_regex(r"[a-z][a-z0-9-]{0,30}[a-z0-9]", fullmatch=True)
BUCKET = st.from_regex(r"s3://[a-z0-9][a-z0-9-]{2,20}/[a-z0-9/_-]{0,30}", fullmatch=True)
REGEX = st.sampled_from(
    ["conv0.*", ".*relu_output", "dense_[0-9]+", "attention.*scores", "(?i)layer\\d+", ".*embedding0_input_0"]
)
INTERVAL = st.integers(1, 5000).map(str)


@st.composite
def collection_parameters(draw, custom=False):
    params = {}
    if draw(st.booleans()):
        params["save_interval"] = draw(INTERVAL)
    if draw(st.booleans()):
        start = draw(st.integers(0, 1000))
        params["start_step"] = str(start)
        if draw(st.booleans()):
            params["end_step"] = str(start + draw(st.integers(1, 10000)))
    if draw(st.booleans()):
        params["save_steps"] = ",".join(map(str, draw(st.lists(st.integers(0, 10**6), min_size=1, max_size=5))))
    if draw(st.booleans()):
        params["reductions"] = ",".join(
            draw(st.lists(st.sampled_from(REDUCTIONS), min_size=1, max_size=4, unique=True))
        )
    for mode in draw(st.lists(st.sampled_from(["train", "eval", "predict", "global"]), unique=True, max_size=2)):
        params[f"{mode}.save_interval"] = draw(INTERVAL)
    if custom or draw(st.booleans()):
        params["include_regex"] = ",".join(draw(st.lists(REGEX, min_size=1, max_size=3, unique=True)))
    if draw(st.booleans()):
        params["save_histogram"] = draw(st.sampled_from(["true", "false"]))
    return params


@st.composite
def custom_collections(draw, max_size=3):
    names = draw(st.lists(NAME.map(lambda n: "c_" + n), unique=True, max_size=max_size))
    return [CollectionConfig(n, draw(collection_parameters(custom=True))) for n in names]


BUILTIN_BY_FRAMEWORK = {
    None: ["losses", "weights", "gradients"],
    "tensorflow": ["losses", "weights", "gradients", "biases", "metrics"],
    "pytorch": ["losses", "weights", "gradients", "biases"],
    "mxnet": ["losses", "weights", "gradients", "biases"],
    "xgboost": ["losses", "metrics", "predictions", "labels", "feature_importance"],
}


@st.composite
def hook_configs(draw, framework=None):
    hook_params = {}
    if draw(st.booleans()):
        hook_params["save_interval"] = draw(INTERVAL)
    if draw(st.booleans()):
        hook_params["include_workers"] = draw(st.sampled_from(["one", "all"]))
    if draw(st.booleans()):
        hook_params["reductions"] = draw(st.sampled_from(REDUCTIONS))
    names = draw(st.lists(st.sampled_from(BUILTIN_BY_FRAMEWORK[framework]), unique=True, max_size=3))
    builtin = [CollectionConfig(n, draw(collection_parameters()) if draw(st.booleans()) else None) for n in names]
    return DebuggerHookConfig(
        s3_output_path=draw(st.one_of(st.none(), BUCKET)),
        container_local_output_path=draw(st.sampled_from([None, "/opt/ml/output/tensors", "/tensors"])),
        hook_parameters=hook_params or None,
        collection_configs=builtin + draw(custom_collections()),
    )


def _value(spec):
    kind = spec.get("type")
    if spec.get("allowed"):
        return st.sampled_from(spec["allowed"])
    if kind == "integer":
        low = spec.get("min", 0) or 0
        low = low + 1 if spec.get("min_exclusive") or spec.get("exclusive_bounds") else low
        high = spec.get("max", 10**6)
        high = high - 1 if spec.get("exclusive_bounds") else high
        return st.integers(low, high)
    if kind == "float":
        low, high = spec.get("min", -1e6), spec.get("max", 1e6)
        excl = bool(spec.get("min_exclusive") or spec.get("exclusive_bounds"))
        return st.floats(
            low if low is not None else -1e6,
            high if high is not None else 1e6,
            exclude_min=excl,
            exclude_max=bool(spec.get("exclusive_bounds")),
            allow_nan=False,
        )
    if kind == "boolean":
        return st.booleans()
    if kind == "regex":
        return REGEX
    if kind == "list":
        item = spec.get("item_type", "string")
        if item == "regex":
            return st.lists(REGEX, min_size=1, max_size=3)
        if item in ("number", "float"):
            return st.lists(st.integers(0, 100), min_size=1, max_size=3)
        return st.just(None)
    if kind == "string":
        return st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,12}", fullmatch=True)
    return st.just(None)


@st.composite
def rule_parameters(draw, name, kind):
    specs = catalogue.user_parameters(catalogue.rules(kind)[name])
    chosen = draw(st.lists(st.sampled_from(sorted(specs)), unique=True, max_size=3)) if specs else []
    out = {}
    for key in chosen:
        if key in ("collection_names", "labels_collection", "predictions_collection", "other_trials"):
            continue  # they name collections/trials; drawn where the collections exist
        value = draw(_value(specs[key]))
        if value is not None:
            out[key] = value
    return out


def _debugger_names(framework):
    names = [n for n, e in catalogue.rules("debugger").items() if framework is None or framework in e["frameworks"]]
    return [n for n in names if n != "Confusion"]


@st.composite
def actions(draw):
    choices = [
        st.builds(
            rule_configs.StopTraining, st.one_of(st.none(), st.from_regex(r"[a-z][a-z0-9-]{0,20}", fullmatch=True))
        ),
        st.builds(
            rule_configs.Email,
            st.sampled_from(["ops@example.com", "ml-team.alerts+debugger@mail.example.co.uk", "a_b@my-company.io"]),
        ),
        st.builds(rule_configs.SMS, st.from_regex(r"\+[1-9][0-9]{6,12}", fullmatch=True)),
    ]
    items = draw(st.lists(st.one_of(*choices), min_size=1, max_size=2))
    return items[0] if len(items) == 1 else rule_configs.ActionList(*items)


@st.composite
def debugger_rules(draw, framework):
    names = draw(st.lists(st.sampled_from(_debugger_names(framework)), max_size=4))
    out = []
    for index, name in enumerate(names):
        entry = catalogue.rules("debugger")[name]
        base = getattr(rule_configs, entry["function"])()
        kwargs = {"name": f"{name}-{index}", "rule_parameters": draw(rule_parameters(name, "debugger"))}
        if name == "SimilarAcrossRuns":
            kwargs["other_trials_s3_input_paths"] = draw(st.lists(BUCKET, min_size=1, max_size=2))
        if draw(st.booleans()):
            defaults = [
                CollectionConfig(
                    c["CollectionName"], dict(c.get("CollectionParameters", {}), save_interval=draw(INTERVAL))
                )
                for c in catalogue.default_collections(entry)
            ]
            extra = draw(custom_collections(max_size=1))
            extra = [CollectionConfig(f"{c.name}_{index}", c.parameters) for c in extra]
            if defaults or extra:
                kwargs["collections_to_save"] = defaults + extra
        if draw(st.booleans()):
            kwargs["actions"] = draw(actions())
        out.append(Rule.sagemaker(base, **kwargs))
    if draw(st.booleans()):
        out.append(
            Rule.custom(
                f"Custom-{len(out)}",
                "111122223333.dkr.ecr.us-east-1.amazonaws.com/my-rule:1",
                draw(st.sampled_from(["ml.m5.xlarge", "ml.t3.medium", "ml.c5.2xlarge"])),
                draw(st.integers(1, 100)),
                source=draw(BUCKET) + "rule.py",
                rule_to_invoke="MyRule",
                rule_parameters={"threshold": str(draw(st.integers(1, 100)))},
                collections_to_save=draw(custom_collections(max_size=1)),
            )
        )
    return out


def _metric_range(draw):
    if draw(st.booleans()):
        return dict(start_step=draw(st.one_of(st.none(), st.integers(0, 1000))), num_steps=draw(st.integers(1, 50)))
    return dict(
        start_unix_time=draw(st.integers(1_700_000_000, 2_000_000_000)),
        duration=draw(st.one_of(st.integers(1, 3600), st.floats(0.5, 3600))),
    )


@st.composite
def framework_profiles(draw):
    mode = draw(st.sampled_from(["default", "one", "each"]))
    common = dict(
        local_path=draw(st.sampled_from(["/opt/ml/output/profiler", "/profiler"])),
        file_max_size=draw(st.integers(1, 10**9)),
        file_close_interval=draw(st.one_of(st.integers(1, 600), st.floats(0.1, 600))),
        file_open_fail_threshold=draw(st.integers(1, 100)),
    )
    if mode == "one":
        return FrameworkProfile(**common, **_metric_range(draw))
    if mode == "each":
        return FrameworkProfile(
            **common,
            detailed_profiling_config=draw(
                st.one_of(st.none(), st.just(DetailedProfilingConfig(**_metric_range(draw))))
            ),
            dataloader_profiling_config=DataloaderProfilingConfig(
                metrics_regex=draw(st.sampled_from([".*", "GetNext", "dataloader_[0-9]+"])), **_metric_range(draw)
            ),
            python_profiling_config=PythonProfilingConfig(
                python_profiler=draw(st.sampled_from(list(PythonProfiler))),
                cprofile_timer=draw(st.sampled_from(list(cProfileTimer))),
                **_metric_range(draw),
            ),
        )
    return FrameworkProfile(**common)


@st.composite
def profiler_rules(draw):
    names = draw(
        st.lists(
            st.sampled_from(
                [n for n, e in catalogue.rules("profiler").items() if e.get("in_rulesconfig") and n != "ProfilerReport"]
            ),
            unique=True,
            max_size=3,
        )
    )
    out = [ProfilerRule.sagemaker(getattr(rule_configs, n)(**draw(rule_parameters(n, "profiler")))) for n in names]
    if draw(st.booleans()):
        covered = catalogue.rules("profiler")["ProfilerReport"]["covered_rules"]
        target = draw(st.sampled_from(covered))
        params = draw(rule_parameters(target, "profiler"))
        out.append(
            ProfilerRule.sagemaker(rule_configs.ProfilerReport(**{f"{target}_{k}": val for k, val in params.items()}))
        )
    return out


@st.composite
def configurations(draw):
    """Keyword arguments for ``render`` that make a valid request."""
    framework = draw(st.sampled_from(FRAMEWORKS))
    region = draw(st.sampled_from(REGIONS))
    rules = draw(debugger_rules(framework))
    disable_profiler = draw(st.booleans()) and draw(st.booleans())
    profiler_config = None
    if not disable_profiler:
        rules += draw(profiler_rules())
        kind = draw(st.sampled_from(["none", "system", "framework", "profiler"]))
        interval = draw(st.sampled_from([None, 100, 200, 500, 1000, 5000, 60000]))
        if kind == "system":
            profiler_config = ProfilerConfig(
                s3_output_path=draw(st.one_of(st.none(), BUCKET)), system_monitor_interval_millis=interval
            )
        elif kind == "framework":
            profiler_config = ProfilerConfig(
                system_monitor_interval_millis=interval, framework_profile_params=draw(framework_profiles())
            )
        elif kind == "profiler" and region in ("us-east-1", "us-west-2", "eu-west-1", "eu-central-1"):
            profiler_config = ProfilerConfig(
                profile_params=Profiler(cpu_profiling_duration=str(draw(st.integers(60, 7200))))
            )
    hook = draw(st.one_of(st.none(), hook_configs(framework), st.just(True)))
    tensorboard = draw(
        st.one_of(
            st.none(), st.builds(TensorBoardOutputConfig, BUCKET, st.sampled_from([None, "/tensorboard", "/logs/tb"]))
        )
    )
    return dict(
        rules=rules,
        debugger_hook_config=hook,
        profiler_config=profiler_config,
        tensorboard_output_config=tensorboard,
        disable_profiler=disable_profiler,
        region=region,
        output_path=draw(BUCKET),
        job_name=draw(JOB),
        framework=framework,
    )


JUNK_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=40),
    st.text(min_size=300, max_size=2000),
    st.binary(max_size=20),
    st.sampled_from(
        [
            "",
            " ",
            "s3://",
            "s3://b",
            "/opt/ml",
            "\x00",
            "é" * 300,
            "save_interval",
            "0",
            "-1",
            "1e9",
            "None",
            "{}",
            "[]",
        ]
    ),
    st.builds(object),
)
JUNK = st.recursive(
    JUNK_LEAVES,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.one_of(st.text(max_size=20), st.integers()), children, max_size=4),
    ),
    max_leaves=12,
)


# --- render arguments for request round trips: every built-in rule, edge values ----------------

REQUEST_REGIONS = ("us-east-1", "eu-central-1", "ap-northeast-3", "cn-north-1")
REQUEST_COLLECTIONS = ("weights", "gradients", "losses", "biases", "relu_output", "custom_a")
CUSTOM_IMAGE = "111122223333.dkr.ecr.us-east-1.amazonaws.com/my-rules:1"


def _any_debugger_rule(draw):
    name = draw(st.sampled_from(catalogue.all_names("debugger")))
    function = catalogue.rules("debugger")[name]["function"]
    trials = ["s3://bucket/other/"] if name == "SimilarAcrossRuns" else None
    collections = draw(
        st.one_of(
            st.none(),
            st.lists(
                st.builds(
                    CollectionConfig,
                    st.sampled_from(REQUEST_COLLECTIONS),
                    st.fixed_dictionaries({"save_interval": st.sampled_from(["10", "25", "100"])}),
                ),
                max_size=2,
            ),
        )
    )
    action = draw(
        st.sampled_from(
            [
                None,
                rule_configs.StopTraining(),
                rule_configs.StopTraining("other"),
                rule_configs.ActionList(rule_configs.StopTraining(), rule_configs.SMS("+14155550100")),
                rule_configs.Email("a.b+c@example.co.uk"),
            ]
        )
    )
    rename = draw(st.sampled_from([None, f"{name}-x"]))
    return Rule.sagemaker(
        getattr(rule_configs, function)(),
        name=rename,
        other_trials_s3_input_paths=trials,
        collections_to_save=collections,
        actions=action,
    )


def _any_profiler_rule(draw):
    name = draw(st.sampled_from(catalogue.all_names("profiler")))
    return ProfilerRule.sagemaker(getattr(rule_configs, name)(), name=draw(st.sampled_from([None, f"{name}-y"])))


@st.composite
def request_configurations(draw):
    """Keyword arguments for ``render``, over every built-in rule; some do not render (ConfigError)."""
    rules = []
    for _ in range(draw(st.integers(0, 3))):
        rules.append(_any_debugger_rule(draw))
    for _ in range(draw(st.integers(0, 2))):
        rules.append(_any_profiler_rule(draw))
    if draw(st.booleans()):
        rules.append(
            Rule.custom(
                "Custom",
                CUSTOM_IMAGE,
                "ml.m5.xlarge",
                20,
                source="s3://bucket/r.py",
                rule_to_invoke="R",
                collections_to_save=[CollectionConfig("custom_b", {"include_regex": "b.*"})],
            )
        )
    rules_arg = draw(st.sampled_from(["list", "none"])) if not rules else "list"
    hook = draw(
        st.one_of(
            st.none(),
            st.just(False),
            st.just(True),
            st.builds(
                DebuggerHookConfig,
                s3_output_path=st.sampled_from([None, "s3://bucket/hook/"]),
                hook_parameters=st.sampled_from([None, {"save_interval": "50"}]),
                collection_configs=st.one_of(
                    st.none(),
                    st.lists(
                        st.builds(
                            CollectionConfig,
                            st.sampled_from(REQUEST_COLLECTIONS),
                            st.sampled_from([None, {"save_interval": "5"}, {"include_regex": "a.*"}]),
                        ),
                        max_size=3,
                        unique_by=lambda c: c.name,
                    ),
                ),
            ),
        )
    )
    profile = draw(st.sampled_from([
        None,
        FrameworkProfile(),
        FrameworkProfile(start_step=4, num_steps=2),
        FrameworkProfile(start_unix_time=1700000000, duration=60),
        FrameworkProfile(local_path="/prof", python_profiling_config=PythonProfilingConfig(start_step=1)),
    ]))
    profiler = draw(
        st.one_of(
            st.none(),
            st.builds(
                ProfilerConfig,
                s3_output_path=st.sampled_from([None, "s3://bucket/p/"]),
                system_monitor_interval_millis=st.sampled_from([None, 100, 60000]),
                framework_profile_params=st.just(profile),
            ),
            st.just(ProfilerConfig(profile_params=Profiler())),
            st.just(ProfilerConfig(disable_profiler=True)),
        )
    )
    tensorboard = draw(st.sampled_from([None, TensorBoardOutputConfig("s3://bucket/tb/", "/tensorboard")]))
    return dict(
        rules=rules if rules_arg == "list" else None,
        debugger_hook_config=hook,
        profiler_config=profiler,
        tensorboard_output_config=tensorboard,
        disable_profiler=draw(st.booleans()),
        region=draw(st.sampled_from(REQUEST_REGIONS)),
        output_path=draw(st.sampled_from(["s3://bucket/out/", "s3://other-bucket/"])),
        job_name=draw(st.sampled_from(["job-1", "another-job-22"])),
        instance_type=draw(st.sampled_from(["ml.m5.xlarge", "ml.trn1.2xlarge"])),
    )
