"""Process-level guarantees: byte-identical output across hash seeds, checks under -O, light import."""
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SCENARIO = r"""
import json
from sm_debug_config import *
rc = rule_configs
rules = [
    Rule.sagemaker(rc.vanishing_gradient(), actions=rc.ActionList(rc.StopTraining(), rc.Email("ops@example.com"))),
    Rule.sagemaker(rc.weight_update_ratio()),
    Rule.sagemaker(
        rc.exploding_tensor(),
        collections_to_save=[
            CollectionConfig("gradients", {"save_interval": "200"}),
            CollectionConfig("biases", {"save_interval": "300"}),
        ],
    ),
    Rule.sagemaker(
        rc.all_zero(),
        collections_to_save=[
            CollectionConfig("gradients", {"save_interval": "300"}),
            CollectionConfig("biases", {"save_interval": "200"}),
        ],
    ),
    Rule.sagemaker(rc.create_xgboost_report()),
    ProfilerRule.sagemaker(rc.ProfilerReport(CPUBottleneck_threshold=70)),
]
hook = DebuggerHookConfig(
    hook_parameters={"save_interval": "100"},
    collection_configs=[
        CollectionConfig("losses", {"save_interval": "10"}),
        CollectionConfig("custom", {"include_regex": "conv0.*"}),
    ],
)
profile = ProfilerConfig(framework_profile_params=FrameworkProfile(start_step=5, num_steps=3))
out = render(
    rules,
    hook,
    profile,
    TensorBoardOutputConfig("s3://b/tb"),
    region="eu-west-1",
    output_path="s3://b/out/",
    job_name="job-7",
)
print(json.dumps(out))
"""


def _run(code, env_extra=None, flags=()):
    env = dict(os.environ, PYTHONPATH=ROOT, **(env_extra or {}))
    return subprocess.run(
        [sys.executable, *flags, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120
    )


def test_output_is_byte_identical_across_hash_seeds():
    outputs = {_run(SCENARIO, {"PYTHONHASHSEED": seed}).stdout for seed in ("0", "1", "42", "12345", "random")}
    assert len(outputs) == 1
    fields = json.loads(outputs.pop())
    names = [c["CollectionName"] for c in fields["DebugHookConfig"]["CollectionConfigurations"]]
    assert names == [
        "losses",
        "custom",
        "gradients",
        "weights",
        "biases",
        "metrics",
        "feature_importance",
        "hyperparameters",
        "predictions",
        "labels",
    ]


def test_validation_still_raises_under_python_dash_o():
    code = (
        "from sm_debug_config import CollectionConfig, ConfigError, DetailedProfilingConfig\n"
        "for build in (lambda: CollectionConfig(''), lambda: CollectionConfig('g', {'save_interval': '0'}), lambda: "
        "DetailedProfilingConfig(num_steps=0)):\n"
        "    try:\n        build()\n    except ConfigError:\n        print('raised')\n"
    )
    result = _run(code, flags=("-O",))
    assert result.stdout.split() == ["raised"] * 3, result.stderr


def test_import_is_light():
    code = ("import sys, sm_debug_config; print(sorted(m for m in ('boto3', 'botocore', 'jsonschema', 'yaml', "
            "'sagemaker', 'attrs', 'attr') if m in sys.modules))")
    assert _run(code).stdout.strip() == "[]"
    code = ("import sys, sm_debug_config as s; s.render; s.Rule; s.rule_configs.vanishing_gradient(); print(sorted(m "
            "for m in ('boto3', 'botocore', 'jsonschema', 'yaml', 'sagemaker') if m in sys.modules))")
    assert _run(code).stdout.strip() == "[]"


def test_public_names_resolve():
    import sm_debug_config

    for name in sm_debug_config.__all__:
        assert getattr(sm_debug_config, name) is not None
    with pytest.raises(AttributeError):
        sm_debug_config.DoesNotExist  # noqa: B018 - the look-up is what raises
