"""Hook, collection and TensorBoard objects: SDK-compatible shapes, errors at construction."""

import pytest

from sm_debug_config import (
    ConfigWarning,
    CollectionConfig,
    ConfigError,
    DebuggerHookConfig,
    TensorBoardOutputConfig,
)

# the SDK v2 is the oracle of most tests here (scripts/test.sh installs it; scripts/test_deps_range.sh does not)
sdk = pytest.importorskip(
    "sagemaker.debugger", reason="the SageMaker Python SDK v2 (extra \"sagemaker\") is the oracle here"
)


def warns(build):
    """Marks a case that the severity policy of issue 14 turned from a refusal into a warning."""
    build.warns = True
    return build


@pytest.mark.parametrize(
    "build, field",
    [
        (lambda: CollectionConfig(name=5), "CollectionConfig.name"),
        (lambda: CollectionConfig(name=""), "CollectionConfig.name"),
        (lambda: CollectionConfig("x" * 257), "CollectionConfig.name"),
        (lambda: CollectionConfig("g", {"save_interval": "0"}), "CollectionConfig('g').parameters.save_interval"),
        (
            warns(lambda: CollectionConfig("g", {"save_interval": "-5"})),
            "CollectionConfig('g').parameters.save_interval",
        ),
        (warns(lambda: CollectionConfig("g", {"start_step": "-1"})), "CollectionConfig('g').parameters.start_step"),
        (lambda: CollectionConfig("g", {"save_steps": "1,two"}), "CollectionConfig('g').parameters.save_steps"),
        (
            warns(lambda: CollectionConfig("g", {"start_step": "10", "end_step": "5"})),
            "CollectionConfig('g').parameters.start_step",
        ),
        (lambda: CollectionConfig("g", {"include_regex": "(a"}), "CollectionConfig('g').parameters.include_regex"),
        (
            warns(lambda: CollectionConfig("g", {"include_regex": "a{1,3}"})),
            "CollectionConfig('g').parameters.include_regex",
        ),
        (lambda: CollectionConfig("g", {"reductions": "median"}), "CollectionConfig('g').parameters.reductions"),
        (
            warns(lambda: CollectionConfig("g", {"save_intervall": "5"})),
            "CollectionConfig('g').parameters.save_intervall",
        ),
        (
            lambda: CollectionConfig("g", {"save_raw_tensor": "true"}),
            "CollectionConfig('g').parameters.save_raw_tensor",
        ),
        (lambda: CollectionConfig("g", {"x" + str(i): "1" for i in range(21)}), "CollectionConfig.parameters"),
        (lambda: CollectionConfig("g", {"include_regex": "a" * 257}), "CollectionConfig.parameters.include_regex"),
        (lambda: CollectionConfig("g", {"save_interval": [1]}), "CollectionConfig.parameters.save_interval"),
        (lambda: CollectionConfig("g", "save_interval=5"), "CollectionConfig.parameters"),
        (lambda: DebuggerHookConfig(s3_output_path="bucket/prefix"), "DebuggerHookConfig.s3_output_path"),
        (
            warns(lambda: DebuggerHookConfig(container_local_output_path="tensors")),
            "DebuggerHookConfig.container_local_output_path",
        ),
        (
            warns(lambda: DebuggerHookConfig(hook_parameters={"save_histogram": "true"})),
            "DebuggerHookConfig.hook_parameters.save_histogram",
        ),
        (
            warns(lambda: DebuggerHookConfig(hook_parameters={"include_workers": "some"})),
            "DebuggerHookConfig.hook_parameters.include_workers",
        ),
        (lambda: DebuggerHookConfig(collection_configs=["gradients"]), "DebuggerHookConfig.collection_configs[0]"),
        (lambda: DebuggerHookConfig(collection_configs=CollectionConfig("g")), "DebuggerHookConfig.collection_configs"),
        (lambda: TensorBoardOutputConfig(None), "TensorBoardOutputConfig.s3_output_path"),
        (
            lambda: TensorBoardOutputConfig("s3://b/tb", container_local_output_path=5),
            "TensorBoardOutputConfig.container_local_output_path",
        ),
    ],
)
def test_bad_values_raise_config_error_naming_the_field(build, field):
    if getattr(build, "warns", False):  # runs, so a ConfigWarning at the same key since issue 14
        with pytest.warns(ConfigWarning) as caught:
            build()
        key = field.rsplit(".", 1)[-1]
        assert any(getattr(w.message, "path", ())[-1:] == (key,) for w in caught), [str(w.message) for w in caught]
        return
    with pytest.raises(ConfigError) as err:
        build()
    assert err.value.field == field
    assert isinstance(err.value, ValueError)


def test_setting_an_attribute_is_checked_too():
    config = CollectionConfig("gradients")
    with pytest.raises(ConfigError, match="CollectionConfig.name"):
        config.name = ""
    hook = DebuggerHookConfig()
    with pytest.raises(ConfigError):
        hook.s3_output_path = "not-s3"


def test_numbers_and_bools_become_api_strings_and_inputs_are_copied():
    params = {"save_interval": 100, "save_histogram": False}
    config = CollectionConfig("weights", params)
    assert config.parameters == {"save_interval": "100", "save_histogram": "false"}
    params["save_interval"] = 7
    assert config.parameters["save_interval"] == "100"


def test_mode_prefixes_and_disable_idiom_are_accepted():
    CollectionConfig("losses", {"train.save_interval": "10", "eval.save_interval": "1", "end_step": "0"})
    with pytest.warns(ConfigWarning, match="lower-case"):  # smdebug ignores the key (SMD135, a warning since issue 14)
        CollectionConfig("losses", {"TRAIN.save_interval": "10"})
    with pytest.warns(
        ConfigWarning, match="take a mode prefix"
    ):  # ignored by smdebug: SMD135, a warning since issue 14
        CollectionConfig("losses", {"train.reductions": "mean"})


def test_request_dicts_match_the_sdk_objects():
    params = {"save_interval": "100", "include_regex": "conv0.*", "reductions": "mean,max"}
    assert CollectionConfig("c", params)._to_request_dict() == sdk.CollectionConfig("c", params)._to_request_dict()
    assert CollectionConfig("c")._to_request_dict() == sdk.CollectionConfig("c")._to_request_dict()
    kwargs = dict(
        s3_output_path="s3://b/x",
        container_local_output_path="/opt/ml/output/tensors",
        hook_parameters={"save_interval": "5"},
    )
    ours = DebuggerHookConfig(collection_configs=[CollectionConfig("c", params)], **kwargs)
    theirs = sdk.DebuggerHookConfig(collection_configs=[sdk.CollectionConfig("c", params)], **kwargs)
    assert ours._to_request_dict() == theirs._to_request_dict()
    assert TensorBoardOutputConfig("s3://b/tb", "/tensorboard")._to_request_dict() == sdk.TensorBoardOutputConfig(
        "s3://b/tb", "/tensorboard"
    )._to_request_dict()


def test_collection_equality_and_hash_like_the_sdk():
    a, b = CollectionConfig("g", {"save_interval": "5"}), CollectionConfig("g", {"save_interval": "5"})
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != CollectionConfig("g", {"save_interval": "6"})
    assert a != "g"
