"""configfile.dump: what a config file cannot hold is refused with a ConfigError, at any depth."""
from __future__ import annotations

import pytest

from sm_debug_config import configfile as cf
from sm_debug_config.configfile.parse import MAX_DEPTH
from sm_debug_config.errors import ConfigError


def deep_list(depth):
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


def test_dump_of_a_100000_deep_value_is_a_config_error():
    with pytest.raises(ConfigError) as info:
        cf.dump(region=deep_list(100_000))
    assert f"nested more than {MAX_DEPTH} deep" in str(info.value)
    assert info.value.field.startswith("region[0][0]")


def test_dump_keeps_what_nests_within_the_limit():
    assert cf.dump(region=deep_list(MAX_DEPTH - 2)) == {"region": deep_list(MAX_DEPTH - 2)}
