# pytorch_job as an SDK v3 launcher (see README.md): ModelTrainer has no Debugger parameters; attach_debugger adds them
import boto3
from sagemaker.core.training.configs import Compute, SourceCode
from sagemaker.train import ModelTrainer

from sm_debug_config import CollectionConfig, DebuggerHookConfig, Rule, TensorBoardOutputConfig, attach_debugger
from sm_debug_config import rule_configs

region = boto3.Session().region_name
bucket = f"sagemaker-{region}-111122223333"
image = f"763104351884.dkr.ecr.{region}.amazonaws.com/pytorch-training:2.3.0-gpu-py311-cu121-ubuntu20.04-sagemaker"

trainer = ModelTrainer(
    training_image=image,
    source_code=SourceCode(entry_script="train.py"),
    role="arn:aws:iam::111122223333:role/SageMakerRole",
    compute=Compute(instance_type="ml.g5.xlarge", instance_count=1),
)
hook = DebuggerHookConfig(
    s3_output_path=f"s3://{bucket}/pt-job/debug",
    collection_configs=[CollectionConfig("weights", {"save_interval": "0"})],
)
rules = [Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={"num_steps": "10", "diff_percnt": "5"})]
tensorboard = TensorBoardOutputConfig(f"s3://{bucket}/pt-job/tb", container_local_output_path="/opt/ml/output/tensorboard")
with attach_debugger(trainer, rules=rules, debugger_hook_config=hook, tensorboard_output_config=tensorboard,
                     output_path=f"s3://{bucket}/pt-job/"):
    trainer.train()
