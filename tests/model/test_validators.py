"""model/validators: the model's value helpers and attrs validators: numbers and strings as the API carries them,
values known only at run time (checked by their literal start), and the one way a field's refusal goes
(raised for a user's call, recorded when a source is built as written)."""
import pytest

from sm_debug_config import CollectionConfig, DebuggerHookConfig, TensorBoardOutputConfig
from sm_debug_config.errors import ConfigError
from sm_debug_config.findings import collecting
from sm_debug_config.model import validators as v
from sm_debug_config.variables import _Join


@pytest.mark.parametrize("text, number", [(" 12 ", 12), ("-3", -3), ("1.5", None), ("x", None), (True, None),
                                          ("9" * 500, None)])
def test_parse_int(text, number):
    assert v.parse_int(text) == number


@pytest.mark.parametrize("text, number", [("1e3", 1000.0), ("nan", None), ("inf", None), (2, 2.0)])
def test_parse_float(text, number):
    assert v.parse_float(text) == number


def test_api_string_joins_lists_and_refuses_what_no_string_holds():
    assert v.api_string([1, "a", True], "f") == "1,a,True"
    assert v.api_string(0.5, "f") == "0.5"
    with pytest.raises(ConfigError) as info:
        v.api_string([[1]], "Rule.rule_parameters.x")
    assert info.value.field == "Rule.rule_parameters.x"


def test_a_run_time_value_is_checked_by_its_literal_start():
    joined = _Join(["my-bucket/", _Join(["run"]), "/tb"])
    with pytest.raises(ConfigError) as info:
        TensorBoardOutputConfig(joined)
    assert info.value.code == "SMD100"
    assert TensorBoardOutputConfig(_Join(["s3://", _Join(["bucket"]), "/tb"])).s3_output_path is not None
    with pytest.raises(ConfigError) as info:
        TensorBoardOutputConfig("s3://b/tb", container_local_output_path=_Join(["/opt/ml/", _Join(["x"])]))
    assert info.value.code == "SMD154"


def test_a_refused_field_raises_for_a_user_and_is_recorded_as_written():
    with pytest.raises(ConfigError):
        CollectionConfig("weights", {"save_interval": "0"})
    with collecting(as_written=True) as found:
        weights = CollectionConfig("weights", {"save_interval": "0"})
        hook = DebuggerHookConfig(s3_output_path="bucket/x", collection_configs=[weights])
    assert hook.s3_output_path == "bucket/x" and weights.parameters == {"save_interval": "0"}
    assert [e.code for e in found.errors] == ["SMD132", "SMD100"]


def test_each_field_validator_refuses_through_one_wrapper():
    import attrs

    for cls in (CollectionConfig, DebuggerHookConfig, TensorBoardOutputConfig):
        for field in attrs.fields(cls):
            assert field.validator is None or "refusing" in repr(field.validator), (cls.__name__, field.name)
