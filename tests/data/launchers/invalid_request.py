"""boto3 refuses this request (no RoleArn and the rest): plan still checks it, then reports the launcher's error."""

import boto3

boto3.client("sagemaker").create_training_job(
    TrainingJobName="refused-1",
    DebugHookConfig={"S3OutputPath": "s3://my-bucket/out/", "HookParameters": {"save_interval": "0"}},
)
