"""SDK v2 paths report the hook verdict too (issue 22): a plain ``PyTorch(framework_version="2.3")``
with our objects warns SMD170 at ``fit`` (the post-import hook) and at ``prepare``/``fit``/``to_sagemaker``;
errors still raise before anything is sent. Jobs go to moto (see test_sagemaker_v2)."""
from __future__ import annotations

import os
import warnings

import pytest

from sm_debug_config import ConfigError, ConfigWarning, Rule, rule_configs

from tests.integrations.v2helpers import BUCKET, common
from tests.warnhelpers import config_warnings

pytestmark = pytest.mark.sagemaker

os.environ.setdefault("SAGEMAKER_SUPPRESS_V2_WARNING", "1")
sagemaker = pytest.importorskip("sagemaker")
pytest.importorskip("sagemaker.estimator")

from sagemaker.pytorch import PyTorch  # noqa: E402 - needs the importorskip above
import sm_debug_config.integrations.sagemaker_v2 as smd_sagemaker  # noqa: E402 - it imports the SDK

HOOK_NOT_RUNNING = {("SMD170", ("DebugHookConfig",)), ("SMD170", ("DebugRuleConfigurations",))}


def _estimator(sm, version="2.3", rules=None):
    return PyTorch(
        framework_version=version,
        py_version="py311" if version == "2.3" else "py39",
        entry_point=sm.entry_point,
        output_path=f"s3://{BUCKET}/pt/",
        rules=rules or [Rule.sagemaker(rule_configs.vanishing_gradient())],
        **common(sm),
    )


def _warned(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConfigWarning)
        call()
    found = [w for w in caught if isinstance(w.message, ConfigWarning) and w.message.code is not None]
    return {(w.message.code, w.message.path) for w in found}, found


def test_plain_fit_warns_that_the_hook_does_not_run(sm):
    estimator = _estimator(sm)
    codes, found = _warned(lambda: estimator.fit(wait=False, logs=False))
    assert codes >= HOOK_NOT_RUNNING and len(sm.sent) == 1
    keys = [(w.message.code, w.message.pointer) for w in found]
    assert len(keys) == len(set(keys))  # once per finding, though prepare and the SDK's hook both run
    assert {os.path.basename(w.filename) for w in found} == {os.path.basename(__file__)}  # at the user's fit() line


def test_plain_fit_on_a_supported_version_warns_nothing(sm):
    estimator = _estimator(sm, version="1.13")
    codes, _ = _warned(lambda: estimator.fit(wait=False, logs=False))
    assert not {c for c, _ in codes} & {"SMD170", "SMD171"}


def test_module_fit_and_ignore(sm):
    codes, _ = _warned(lambda: smd_sagemaker.fit(_estimator(sm), wait=False, logs=False))
    assert codes >= HOOK_NOT_RUNNING
    codes, _ = _warned(lambda: smd_sagemaker.fit(_estimator(sm), wait=False, logs=False, ignore=["SMD170"]))
    assert "SMD170" not in {c for c, _ in codes}


def test_to_sagemaker_warns(sm):
    codes, _ = _warned(
        lambda: smd_sagemaker.to_sagemaker(
            [Rule.sagemaker(rule_configs.vanishing_gradient())],
            region="us-east-1",
            framework="pytorch",
            framework_version="2.3",
        )
    )
    assert codes >= HOOK_NOT_RUNNING


def test_errors_raise_before_anything_is_sent(sm):
    twice = [Rule.sagemaker(rule_configs.vanishing_gradient()), Rule.sagemaker(rule_configs.vanishing_gradient())]
    with config_warnings("SMD170"), pytest.raises(ConfigError) as raised:  # issue 36: the job's warnings still said
        _estimator(sm, rules=twice).fit(wait=False, logs=False)
    assert sm.sent == [] and raised.value.code == "SMD101"
