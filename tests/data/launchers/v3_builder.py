"""An SDK v3 launcher in the builder style of the sagemaker-train docs (issue 37): the trainer's configuration is
chained with with_* methods, each of which returns the trainer, and the rules come from a comprehension. Seeded
mistakes, independent: a PyTorch 2.4 image, which has no smdebug, with debugger rules (SMD170), and a
VanishingGradient parameter misspelt for one of the rules (SMD120)."""

import os

from sagemaker.train import ModelTrainer
from sagemaker.train.configs import CheckpointConfig, Compute, SourceCode, StoppingCondition, TensorBoardOutputConfig

from sm_debug_config import Rule, rule_configs
from sm_debug_config.integrations.boto3_events import attach

REGION = "us-east-1"
IMAGE = f"763104351884.dkr.ecr.{REGION}.amazonaws.com/pytorch-training:2.4.0-gpu-py311"
BUCKET = "s3://my-debug-bucket/v3-builder"

trainer = ModelTrainer(
    training_image=IMAGE,
    source_code=SourceCode(
        source_dir=os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"), entry_script="train.py"
    ),
    role="arn:aws:iam::123456789012:role/SageMakerRole",
    compute=Compute(instance_type="ml.g5.xlarge", instance_count=1),
    stopping_condition=StoppingCondition(max_runtime_in_seconds=3600),
    base_job_name="v3-builder",
)
trainer = trainer.with_checkpoint_config(CheckpointConfig(s3_uri=f"{BUCKET}/checkpoints"))
trainer = trainer.with_tensorboard_output_config(
    TensorBoardOutputConfig(s3_output_path=f"{BUCKET}/tensorboard", local_path="/tensorboard")
)
thresholds = {"vanishing": "0.0001", "exploding": "1e6"}
rules = [
    Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"treshold": thresholds["vanishing"]}),
    Rule.sagemaker(rule_configs.exploding_tensor()),
]
with attach(trainer, rules=rules):
    trainer.train(wait=True, logs=True)
print("train returned")
