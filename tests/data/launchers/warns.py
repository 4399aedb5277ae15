"""A launcher with warnings of every kind: a rule built twice on one line with a parameter of the wrong type and
never sent (SMD121 is the request's check: in no job, no finding), and a rule with an unknown parameter (SMD120) that
reaches the request, whose check reports it there (one finding, the job's). The launcher warns too, as its own (not
a finding)."""

import warnings

import boto3

from sm_debug_config import Rule, render, rule_configs

for _ in range(2):
    unused = Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={"num_steps": "abc"})
warnings.warn("the launcher's own warning")
sent = Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"treshold": "0.1"})
debugger = render(rules=[sent], region="us-east-1", output_path="s3://my-bucket/out/")
boto3.client("sagemaker").create_training_job(
    TrainingJobName="warns-1",
    RoleArn="arn:aws:iam::123456789012:role/SageMakerRole",
    AlgorithmSpecification={
        "TrainingImage": "123456789012.dkr.ecr.us-east-1.amazonaws.com/train:1",
        "TrainingInputMode": "File",
    },
    OutputDataConfig={"S3OutputPath": "s3://my-bucket/out/"},
    ResourceConfig={"InstanceType": "ml.m5.xlarge", "InstanceCount": 1, "VolumeSizeInGB": 30},
    StoppingCondition={"MaxRuntimeInSeconds": 3600},
    **debugger,
)
