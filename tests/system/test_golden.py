"""Golden files: `sm-debug-config render EXAMPLE --job-name golden-job-1` is byte-identical to
tests/golden/EXAMPLE.json. After an intended change, review the diff and regenerate with
    UPDATE_GOLDEN=1 python -m pytest tests/system/test_golden.py

Each example renders through ``main(argv)`` in this process; one test renders every example in
real processes under two hash seeds, so the bytes are checked where ordering could vary.
"""
import glob
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = sorted(glob.glob(os.path.join(ROOT, "examples", "*.yaml")))


def _golden(example):
    return os.path.join(ROOT, "tests", "golden", os.path.basename(example)[: -len(".yaml")] + ".json")


@pytest.mark.parametrize("example", EXAMPLES, ids=os.path.basename)
def test_example_renders_its_golden_file(cli, example):
    result = cli("render", example, "--job-name", "golden-job-1")
    assert result.returncode == 0, result.stderr
    out = result.stdout.encode("utf-8")
    if os.environ.get("UPDATE_GOLDEN"):
        with open(_golden(example), "wb") as handle:
            handle.write(out)
    with open(_golden(example), "rb") as handle:
        assert out == handle.read()


# One interpreter per hash seed renders every example, as `sm-debug-config render` writes it.
_RENDER_ALL = """
import sys
from sm_debug_config.cli import main
for example in sys.argv[1:]:
    sys.stdout.write("\\0" + example + "\\0")
    sys.stdout.flush()
    if main(["render", example, "--job-name", "golden-job-1"]) != 0:
        sys.exit(1)
"""


@pytest.mark.parametrize("seed", ["0", "random"])
def test_golden_files_are_byte_identical_from_a_real_process(seed):
    env = dict(os.environ, PYTHONPATH=ROOT, PYTHONHASHSEED=seed)
    out = subprocess.run(
        [sys.executable, "-c", _RENDER_ALL, *EXAMPLES], capture_output=True, env=env, cwd=ROOT, check=True
    ).stdout
    parts = out.split(b"\0")[1:]
    rendered = dict(zip(parts[0::2], parts[1::2]))
    assert sorted(rendered) == sorted(e.encode() for e in EXAMPLES)
    for example in EXAMPLES:
        with open(_golden(example), "rb") as handle:
            assert rendered[example.encode()] == handle.read(), example


def test_readme_python_example_renders_what_the_readme_says():
    from sm_debug_config import (
        CollectionConfig,
        DebuggerHookConfig,
        ProfilerRule,
        Rule,
        TensorBoardOutputConfig,
        render,
        rule_configs,
    )

    rules = [
        Rule.sagemaker(rule_configs.vanishing_gradient()),
        Rule.sagemaker(
            rule_configs.loss_not_decreasing(), rule_parameters={"mode": "TRAIN"}, actions=rule_configs.StopTraining()
        ),
        ProfilerRule.sagemaker(rule_configs.ProfilerReport(CPUBottleneck_threshold=70)),
    ]
    hook = DebuggerHookConfig(collection_configs=[CollectionConfig("gradients", {"save_interval": "100"})])
    fields = render(
        rules,
        hook,
        tensorboard_output_config=TensorBoardOutputConfig("s3://my-bucket/tb"),
        region="us-east-1",
        output_path="s3://my-bucket/training/",
        job_name="my-job-1",
    )
    image = "503895931360.dkr.ecr.us-east-1.amazonaws.com/sagemaker-debugger-rules:latest"
    assert fields == {
        "DebugHookConfig": {
            "S3OutputPath": "s3://my-bucket/training/",
            "CollectionConfigurations": [
                {"CollectionName": "gradients", "CollectionParameters": {"save_interval": "100"}},
                {"CollectionName": "losses", "CollectionParameters": {"save_interval": "500"}},
            ],
        },
        "DebugRuleConfigurations": [
            {
                "RuleConfigurationName": "VanishingGradient",
                "RuleEvaluatorImage": image,
                "RuleParameters": {"rule_to_invoke": "VanishingGradient"},
            },
            {
                "RuleConfigurationName": "LossNotDecreasing",
                "RuleEvaluatorImage": image,
                "RuleParameters": {
                    "rule_to_invoke": "LossNotDecreasing",
                    "mode": "TRAIN",
                    "action_json": '{\\"name\\": \\"stoptraining\\", \\"training_job_prefix\\": \\"my-job-1\\"}',
                },
            },
        ],
        "ProfilerConfig": {"S3OutputPath": "s3://my-bucket/training/", "DisableProfiler": False},
        "ProfilerRuleConfigurations": [
            {
                "RuleConfigurationName": "ProfilerReport",
                "RuleEvaluatorImage": image,
                "RuleParameters": {"CPUBottleneck_threshold": "70", "rule_to_invoke": "ProfilerReport"},
            }
        ],
        "TensorBoardOutputConfig": {"S3OutputPath": "s3://my-bucket/tb"},
    }


def test_image_override_is_honoured_from_the_config_file_and_the_environment(cli, tmp_path):
    image = "111122223333.dkr.ecr.ap-southeast-7.amazonaws.com/sagemaker-debugger-rules:latest"
    config = tmp_path / "new-region.yaml"
    config.write_text("region: ap-southeast-7\noutput_path: s3://bucket/out/\nrules: [Overfit]\n")
    failed = cli("render", str(config), env={"SM_DEBUG_CONFIG_RULE_IMAGE_URI": None})
    assert (
        failed.returncode == 1
        and "rule_image_uri" in failed.stderr
        and "SM_DEBUG_CONFIG_RULE_IMAGE_URI" in failed.stderr
    )
    by_env = cli("render", str(config), env={"SM_DEBUG_CONFIG_RULE_IMAGE_URI": image})
    assert by_env.returncode == 0 and image in by_env.stdout
    config.write_text(config.read_text() + f"rule_image_uri: {image}\n")
    by_file = cli("render", str(config), env={"SM_DEBUG_CONFIG_RULE_IMAGE_URI": None})
    assert by_file.returncode == 0 and image in by_file.stdout
