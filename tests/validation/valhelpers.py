"""Helpers of the validation tests: request pieces (test_validation.py, test_validate.py) and the training
job request the entry points' warnings are checked on (test_run.py, tests/cli/test_warnings.py)."""
from sm_debug_config import Rule, rule_configs

IMAGE = "503895931360.dkr.ecr.us-east-1.amazonaws.com/sagemaker-debugger-rules:latest"
OUT = "s3://bucket/out/"
REGION = "us-east-1"
JOB_OUT = "s3://smdc-warn/out/"
PT23 = "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.3.0-gpu-py311-cu121-ubuntu20.04-sagemaker"


def rule(name, invoke=None, **params):
    return {
        "RuleConfigurationName": name,
        "RuleEvaluatorImage": IMAGE,
        "RuleParameters": {"rule_to_invoke": invoke or name, **params},
    }


def hook(*collections, **hook_params):
    config = {
        "S3OutputPath": OUT,
        "CollectionConfigurations": [{"CollectionName": n, "CollectionParameters": p} for n, p in collections],
    }
    if hook_params:
        config["HookParameters"] = hook_params
    return config


def profiler(**params):
    return {"S3OutputPath": OUT, "DisableProfiler": False, "ProfilingParameters": params}


def sdk_rules():
    """The rule the warning tests render: VanishingGradient, as the SDK builds it."""
    return [Rule.sagemaker(rule_configs.vanishing_gradient())]


def job_request(image=PT23, name="job-1", out=JOB_OUT, **extra):
    """A CreateTrainingJob request on ``image``, writing to ``out``, with ``extra`` fields (no Debugger field unless
    given)."""
    return {
        "TrainingJobName": name,
        "AlgorithmSpecification": {"TrainingImage": image, "TrainingInputMode": "File"},
        "RoleArn": "arn:aws:iam::123456789012:role/SageMakerRole",
        "OutputDataConfig": {"S3OutputPath": out},
        "ResourceConfig": {"InstanceType": "ml.m5.xlarge", "InstanceCount": 1, "VolumeSizeInGB": 30},
        "StoppingCondition": {"MaxRuntimeInSeconds": 3600},
        **extra,
    }
