"""A plain boto3 launcher: a training job and its waiter, a profiler update, a tuning job, and two pipelines (one
definition inline with a Training step inside a Condition step, one in S3). Seeded mistakes: save_interval "0" in the
training job (SMD132) and an unknown parameter of a rule in the pipeline (SMD120)."""

import json
import sys

import boto3

ROLE = "arn:aws:iam::123456789012:role/SageMakerRole"
IMAGE = "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.1.0-gpu-py310"
RULES_IMAGE = "503895931360.dkr.ecr.us-east-1.amazonaws.com/sagemaker-debugger-rules:latest"
JOB = {
    "RoleArn": ROLE,
    "AlgorithmSpecification": {"TrainingImage": IMAGE, "TrainingInputMode": "File"},
    "OutputDataConfig": {"S3OutputPath": "s3://my-bucket/out/"},
    "ResourceConfig": {"InstanceType": "ml.p3.2xlarge", "InstanceCount": 1, "VolumeSizeInGB": 30},
    "StoppingCondition": {"MaxRuntimeInSeconds": 3600},
}
print("argv", sys.argv[1:])
sm = boto3.client("sagemaker")
sm.create_training_job(
    TrainingJobName="plain-boto3-1",
    DebugHookConfig={
        "S3OutputPath": "s3://my-bucket/out/",
        "CollectionConfigurations": [{"CollectionName": "gradients", "CollectionParameters": {"save_interval": "0"}}],
    },
    **JOB,
)
sm.get_waiter("training_job_completed_or_stopped").wait(TrainingJobName="plain-boto3-1")
sm.update_training_job(TrainingJobName="plain-boto3-1", ProfilerConfig={"ProfilingIntervalInMilliseconds": 500})
sm.create_hyper_parameter_tuning_job(
    HyperParameterTuningJobName="plain-tuning-1",
    HyperParameterTuningJobConfig={
        "Strategy": "Random",
        "ResourceLimits": {"MaxNumberOfTrainingJobs": 2, "MaxParallelTrainingJobs": 1},
        "ParameterRanges": {"ContinuousParameterRanges": [{"Name": "lr", "MinValue": "0.001", "MaxValue": "0.1"}]},
    },
    TrainingJobDefinition={
        "RoleArn": ROLE,
        "AlgorithmSpecification": {"TrainingImage": IMAGE, "TrainingInputMode": "File"},
        "OutputDataConfig": JOB["OutputDataConfig"],
        "ResourceConfig": JOB["ResourceConfig"],
        "StoppingCondition": JOB["StoppingCondition"],
    },
)
step = {
    "Name": "Train",
    "Type": "Training",
    "Arguments": dict(
        JOB,
        DebugRuleConfigurations=[
            {
                "RuleConfigurationName": "VanishingGradient",
                "RuleEvaluatorImage": RULES_IMAGE,
                "RuleParameters": {"rule_to_invoke": "VanishingGradient", "treshold": "0.001"},
            }
        ],
    ),
}
definition = {
    "Version": "2020-12-01",
    "Steps": [
        {"Name": "Check", "Type": "Condition", "Arguments": {"Conditions": [], "IfSteps": [step], "ElseSteps": []}}
    ],
}
sm.create_pipeline(PipelineName="plain-pipeline", PipelineDefinition=json.dumps(definition), RoleArn=ROLE)
s3 = boto3.client("s3")
s3.create_bucket(Bucket="plan-definitions")
plain = {"Version": "2020-12-01", "Steps": [dict(step, Name="TrainAgain", Arguments=dict(JOB))]}
s3.put_object(Bucket="plan-definitions", Key="pipeline.json", Body=json.dumps(plain).encode())
sm.update_pipeline(
    PipelineName="plain-pipeline",
    RoleArn=ROLE,
    PipelineDefinitionS3Location={"Bucket": "plan-definitions", "ObjectKey": "pipeline.json"},
)
