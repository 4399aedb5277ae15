"""Golden files: `sm-debug-config render EXAMPLE --job-name golden-job-1` is byte-identical to
tests/golden/EXAMPLE.json. After an intended change, review the diff and regenerate with
    UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py
"""
import glob
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = sorted(glob.glob(os.path.join(ROOT, "examples", "*.yaml")))


@pytest.mark.parametrize("example", EXAMPLES, ids=os.path.basename)
def test_example_renders_its_golden_file(example):
    golden = os.path.join(ROOT, "tests", "golden", os.path.basename(example)[: -len(".yaml")] + ".json")
    env = dict(os.environ, PYTHONPATH=ROOT, PYTHONHASHSEED="random")
    out = subprocess.run([sys.executable, "-m", "sm_debug_config", "render", example, "--job-name", "golden-job-1"], capture_output=True, env=env, cwd=ROOT, check=True).stdout
    if os.environ.get("UPDATE_GOLDEN"):
        with open(golden, "wb") as handle:
            handle.write(out)
    with open(golden, "rb") as handle:
        assert out == handle.read()


def test_readme_python_example_renders_what_the_readme_says():
    from sm_debug_config import CollectionConfig, DebuggerHookConfig, ProfilerRule, Rule, TensorBoardOutputConfig, render, rule_configs

    rules = [
        Rule.sagemaker(rule_configs.vanishing_gradient()),
        Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={"mode": "TRAIN"}, actions=rule_configs.StopTraining()),
        ProfilerRule.sagemaker(rule_configs.ProfilerReport(CPUBottleneck_threshold=70)),
    ]
    hook = DebuggerHookConfig(collection_configs=[CollectionConfig("gradients", {"save_interval": "100"})])
    fields = render(rules, hook, tensorboard_output_config=TensorBoardOutputConfig("s3://my-bucket/tb"), region="us-east-1", output_path="s3://my-bucket/training/", job_name="my-job-1")
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
            {"RuleConfigurationName": "VanishingGradient", "RuleEvaluatorImage": image, "RuleParameters": {"rule_to_invoke": "VanishingGradient"}},
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
            {"RuleConfigurationName": "ProfilerReport", "RuleEvaluatorImage": image, "RuleParameters": {"CPUBottleneck_threshold": "70", "rule_to_invoke": "ProfilerReport"}}
        ],
        "TensorBoardOutputConfig": {"S3OutputPath": "s3://my-bucket/tb"},
    }


def test_image_override_is_honoured_from_the_config_file_and_the_environment(tmp_path):
    image = "111122223333.dkr.ecr.ap-southeast-7.amazonaws.com/sagemaker-debugger-rules:latest"
    config = tmp_path / "new-region.yaml"
    config.write_text("region: ap-southeast-7\noutput_path: s3://bucket/out/\nrules: [Overfit]\n")
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("SM_DEBUG_CONFIG_RULE_IMAGE_URI", None)
    failed = subprocess.run([sys.executable, "-m", "sm_debug_config", "render", str(config)], capture_output=True, text=True, env=env, cwd=ROOT)
    assert failed.returncode == 1 and "rule_image_uri" in failed.stderr and "SM_DEBUG_CONFIG_RULE_IMAGE_URI" in failed.stderr
    by_env = subprocess.run([sys.executable, "-m", "sm_debug_config", "render", str(config)], capture_output=True, text=True, env=dict(env, SM_DEBUG_CONFIG_RULE_IMAGE_URI=image), cwd=ROOT)
    assert by_env.returncode == 0 and image in by_env.stdout
    config.write_text(config.read_text() + f"rule_image_uri: {image}\n")
    by_file = subprocess.run([sys.executable, "-m", "sm_debug_config", "render", str(config)], capture_output=True, text=True, env=env, cwd=ROOT)
    assert by_file.returncode == 0 and image in by_file.stdout
