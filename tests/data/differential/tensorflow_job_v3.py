# tensorflow_job as an SDK v3 launcher (see README.md)
from sagemaker.core.training.configs import Compute, SourceCode
from sagemaker.train import ModelTrainer

import sm_debug_config as smd

trainer = ModelTrainer(
    training_image="763104351884.dkr.ecr.us-east-1.amazonaws.com/tensorflow-training:2.11.0-gpu-py39-cu112-ubuntu20.04-sagemaker",
    source_code=SourceCode(entry_script="train.py"),
    role="arn:aws:iam::111122223333:role/SageMakerRole",
    compute=Compute(instance_type="ml.p3.2xlarge", instance_count=1),
)
hook_config = smd.DebuggerHookConfig(
    s3_output_path="s3://my-bucket/tf-job/debug",
    container_local_output_path="tensors",
    hook_parameters={"save_intervall": "100"},
    collection_configs=[smd.CollectionConfig("custom_dense", {"include_regex": "dense_[0-9+/kernel"})],
)
rules = [smd.Rule.sagemaker(smd.rule_configs.overfit()), smd.Rule.sagemaker(smd.rule_configs.overfit())]
with smd.attach_debugger(trainer, rules=rules, debugger_hook_config=hook_config, output_path="s3://my-bucket/tf-job/"):
    trainer.train()
