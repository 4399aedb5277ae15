"""A launcher that starts a job, then builds a hook collection this package's constructor refuses (save_interval "0":
SMD132, a ConfigError), in a helper; the job after it is never started. With the argument "nocode", the refused value
is one no check code covers (a collection name that is no string: SMD002)."""

import sys

import boto3

from sm_debug_config import CollectionConfig

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
        return CollectionConfig(123)
    return CollectionConfig("weights", {"save_interval": "0"})


sm = boto3.client("sagemaker")
sm.create_training_job(TrainingJobName="before-the-error", **JOB)
weights = collection()
sm.create_training_job(TrainingJobName="after-the-error", **JOB)
