"""A boto3 launcher that loops for ever and carries on whatever fails: only --max-jobs or --timeout ends it."""

import boto3

sm = boto3.client("sagemaker")
i = 0
while True:
    try:
        sm.create_training_job(
            TrainingJobName=f"catches-{i}",
            RoleArn="arn:aws:iam::123456789012:role/R",
            AlgorithmSpecification={
                "TrainingImage": "123456789012.dkr.ecr.us-east-1.amazonaws.com/train:1",
                "TrainingInputMode": "File",
            },
            OutputDataConfig={"S3OutputPath": "s3://my-bucket/out/"},
            ResourceConfig={"InstanceType": "ml.m5.xlarge", "InstanceCount": 1, "VolumeSizeInGB": 30},
            StoppingCondition={"MaxRuntimeInSeconds": 3600},
        )
    except Exception:
        pass
    i += 1
