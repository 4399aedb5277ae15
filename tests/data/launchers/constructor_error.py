"""A launcher that starts a job, then builds a hook collection this package's constructor refuses (save_interval "0":
SMD132, a ConfigError for a user's call), in a helper. plan builds it as written: a finding at the helper's line, and
the job after it is started too. With the argument "nocode", the helper asks for what cannot be built at all (a rule
named by a string where its config object goes: SMD002, no check code covers it), which ends the launcher there: the
job after it is never started."""

import sys

import boto3

from sm_debug_config import CollectionConfig, Rule

JOB = {
    "RoleArn": "arn:aws:iam::123456789012:role/SageMakerRole",
    "AlgorithmSpecification": {
        "TrainingImage": "123456789012.dkr.ecr.us-east-1.amazonaws.com/train:1",
        "TrainingInputMode": "File",
    },
    "OutputDataConfig": {"S3OutputPath": "s3://my-bucket/out/"},
    "ResourceConfig": {"InstanceType": "ml.m5.xlarge", "InstanceCount": 1, "VolumeSizeInGB": 30},
    "StoppingCondition": {"MaxRuntimeInSeconds": 3600},
}


def collection():
    if sys.argv[1:] == ["nocode"]:
        return Rule.sagemaker("VanishingGradient")
    return CollectionConfig("weights", {"save_interval": "0"})


sm = boto3.client("sagemaker")
sm.create_training_job(TrainingJobName="before-the-error", **JOB)
weights = collection()
sm.create_training_job(TrainingJobName="after-the-error", **JOB)
