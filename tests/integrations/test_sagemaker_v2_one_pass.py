"""Issue 36 with the SDK v2: an Estimator holding our objects goes through the one render-and-check pass at
``fit``; every error of the job is in the one ``ConfigError`` with its code and request pointer, beside its
warnings (two rules that want different reductions of one collection: SMD116, the last sent; different
``include_regex`` were refused before issue 37 and are merged now), and the job's warnings are still warned."""
from __future__ import annotations

import os
import runpy

import pytest

from sm_debug_config import ConfigError

from tests.integrations.v2helpers import BUCKET, common
from tests.warnhelpers import config_warnings


def test_a_refused_merge_leaves_every_other_finding_of_the_job(sm):
    from sagemaker.tensorflow import TensorFlow

    rules = runpy.run_path(os.path.join("tests", "data", "one_pass", "conflicting_rules.py"))["rules"]
    estimator = TensorFlow(
        entry_point=sm.entry_point, framework_version="2.13", py_version="py310", output_path=f"s3://{BUCKET}/tf/",
        rules=rules, **common(sm),
    )
    # the TF 2.13 image has no smdebug (SMD170); the two rules' reductions (SMD116)
    with config_warnings("SMD170", "SMD116"), pytest.raises(ConfigError) as raised:
        estimator.fit(f"s3://{BUCKET}/data", wait=False, job_name="tf-conflict-1")

    assert sm.sent == []  # nothing was sent
    errors = sorted((f.code, f.pointer) for f in raised.value.findings if f.severity == "error")
    assert errors == [
        ("SMD102", "/DebugRuleConfigurations"),
        ("SMD114", "/DebugHookConfig/CollectionConfigurations/1"),
    ]
    assert raised.value.code == "SMD114"  # the first error's, in request order
    assert {f.code for f in raised.value.findings if f.severity == "warning"} == {"SMD116", "SMD170"}
