"""Hypothesis strategies of config-file documents: plain dicts, as YAML/JSON would give them
(``config_documents()``); the objects' and requests' strategies are in tests/strategies.py."""
from hypothesis import strategies as st

from tests.strategies import INTERVAL

# --- config-file documents: what a user writes in YAML or JSON --------------------------------

WORD = st.from_regex(r"\A[A-Za-z][A-Za-z0-9]{0,11}\Z")
# Built-in rules whose parameters can be drawn without knowing the training job.
SAFE_DEBUGGER_RULE_PARAMETERS = {
    "VanishingGradient": st.fixed_dictionaries({}, optional={"threshold": st.floats(1e-9, 1.0)}),
    "ExplodingTensor": st.fixed_dictionaries({}, optional={"only_nan": st.booleans()}),
    "LossNotDecreasing": st.fixed_dictionaries(
        {}, optional={"mode": st.sampled_from(["TRAIN", "EVAL", "GLOBAL"]), "num_steps": st.integers(1, 100)}
    ),
    "Overtraining": st.fixed_dictionaries(
        {}, optional={"patience_train": st.integers(1, 20), "delta": st.floats(0.0, 1.0)}
    ),
    "WeightUpdateRatio": st.fixed_dictionaries({}, optional={"num_steps": st.integers(1, 50)}),
    "DeadRelu": st.just({}),
    "Overfit": st.fixed_dictionaries({}, optional={"patience": st.integers(1, 10)}),
    "AllZero": st.just({}),
}
ACTION_DOCUMENTS = st.one_of(
    st.just({"stop_training": {}}),
    st.builds(lambda p: {"stop_training": {"training_job_prefix": p}}, st.from_regex(r"\A[a-z][a-z0-9-]{0,10}\Z")),
    st.just({"email": "ops@example.com"}),
    st.just({"sms": "+14155550100"}),
)
METRIC_DOCUMENTS = st.one_of(
    st.fixed_dictionaries({"start_step": st.integers(0, 50), "num_steps": st.integers(1, 10)}),
    st.fixed_dictionaries(
        {"start_unix_time": st.integers(1_600_000_000, 1_800_000_000)}, optional={"duration": st.floats(0.5, 600)}
    ),
    st.just({"profile_default_steps": True}),
    st.just({}),
)
PROFILING_CONFIG_KEYS = [
    "dataloader_profiling_config",
    "detailed_profiling_config",
    "horovod_profiling_config",
    "python_profiling_config",
    "smdataparallel_profiling_config",
]


@st.composite
def debugger_rule_documents(draw, name):
    entry = {"builtin": name}
    params = draw(SAFE_DEBUGGER_RULE_PARAMETERS[name])
    if params:
        entry["rule_parameters"] = params
    if draw(st.booleans()):
        entry["name"] = draw(WORD)
    if draw(st.booleans()):
        entry["collections_to_save"] = [
            {
                "name": draw(st.sampled_from(["gradients", "weights", "losses"])),
                "parameters": {"save_interval": draw(INTERVAL)},
            }
        ]
    if draw(st.booleans()):
        entry["actions"] = draw(st.one_of(ACTION_DOCUMENTS, st.lists(ACTION_DOCUMENTS, min_size=1, max_size=2)))
    return entry


@st.composite
def config_documents(draw):
    """A config-file document (plain dicts and lists) that loads and renders."""
    cfg = {
        "region": draw(st.sampled_from(["us-east-1", "eu-west-1", "ap-northeast-1"])),
        "output_path": "s3://my-bucket/" + draw(WORD) + "/",
        "job_name": "job-" + draw(WORD),
    }
    if draw(st.booleans()):
        cfg["framework"] = draw(st.sampled_from(["tensorflow", "pytorch", "mxnet", "xgboost"]))
    hook = draw(st.sampled_from(["absent", "true", "false", "map"]))
    if hook == "map":
        names = draw(
            st.lists(st.sampled_from(["gradients", "weights", "biases", "losses", "custom"]), unique=True, max_size=3)
        )
        cfg["debugger_hook_config"] = {
            "hook_parameters": {"save_interval": draw(INTERVAL)},
            "collection_configs": [
                name if draw(st.booleans()) else {"name": name, "parameters": {"save_interval": draw(INTERVAL)}}
                for name in names
            ],
        }
    elif hook != "absent":
        cfg["debugger_hook_config"] = hook == "true"
    rule_names = draw(st.lists(st.sampled_from(sorted(SAFE_DEBUGGER_RULE_PARAMETERS)), unique=True, max_size=4))
    if hook != "false" and (rule_names or draw(st.booleans())):
        cfg["rules"] = [draw(debugger_rule_documents(name)) for name in rule_names]
    profiling = draw(st.sampled_from(["none", "default", "framework", "sagemaker"]))
    if profiling == "framework":
        profile = {
            key: draw(METRIC_DOCUMENTS) for key in draw(st.lists(st.sampled_from(PROFILING_CONFIG_KEYS), unique=True))
        }
        cfg["profiler_config"] = {
            "system_monitor_interval_millis": draw(st.sampled_from([100, 500, 1000])),
            "framework_profile_params": profile,
        }
    elif profiling == "sagemaker":
        cfg["profiler_config"] = {"profile_params": {"cpu_profiling_duration": draw(st.integers(60, 7200))}}
        cfg["region"] = draw(st.sampled_from(["us-east-1", "eu-west-1"]))  # regions with the detailed-profiler image
    elif profiling == "default":
        cfg["profiler_config"] = {}
    if "rules" in cfg and draw(st.booleans()):
        cfg["rules"].append(
            {"builtin": "ProfilerReport", "rule_parameters": {"CPUBottleneck_threshold": draw(st.integers(0, 100))}}
        )
    if draw(st.booleans()):
        cfg["tensorboard_output_config"] = {"s3_output_path": "s3://my-bucket/tb/"}
    if draw(st.booleans()):
        cfg["defaults"] = "explicit"
    return cfg


