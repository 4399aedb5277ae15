"""A boto3 launcher with this package's attach(), as users write it: the image and paths in f-strings, the TensorBoard
config from a variable. Seeded mistakes of one job: a TensorBoard LocalPath under /opt/ml (SMD154, an error:
CreateTrainingJob refuses it; this package's constructor and attach() refuse it in a user's call) and a debugger rule
on PyTorch 2.4, whose image has no smdebug (SMD170, twice: the hook and the rule see nothing). plan starts the job all
the same and reports every finding of it in one run."""

import boto3

from sm_debug_config import Rule, TensorBoardOutputConfig, rule_configs
from sm_debug_config.integrations.boto3_events import attach

region = boto3.Session().region_name
bucket = f"my-models-{region}"
image = f"763104351884.dkr.ecr.{region}.amazonaws.com/pytorch-training:2.4.0-gpu-py311"
tensorboard_dir = "/opt/ml/output/tensorboard"


def start(client, name):
    client.create_training_job(
        TrainingJobName=name,
        RoleArn="arn:aws:iam::123456789012:role/SageMakerRole",
        AlgorithmSpecification={"TrainingImage": image, "TrainingInputMode": "File"},
        OutputDataConfig={"S3OutputPath": f"s3://{bucket}/{name}/"},
        ResourceConfig={"InstanceType": "ml.g5.xlarge", "InstanceCount": 1, "VolumeSizeInGB": 30},
        StoppingCondition={"MaxRuntimeInSeconds": 3600},
    )


sm = boto3.client("sagemaker")
tensorboard = TensorBoardOutputConfig(f"s3://{bucket}/tb", container_local_output_path=tensorboard_dir)
with attach(sm, rules=[Rule.sagemaker(rule_configs.vanishing_gradient())], tensorboard_output_config=tensorboard):
    start(sm, "refused-1")
print("started")
