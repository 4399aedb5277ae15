"""An SDK v2 launcher that names its rules with f-strings in a comprehension (issue 37): both rules of the "loss"
stage get the same name (SMD101, at the name argument). Independent of it: a TensorBoard path under /opt/ml that
SageMaker reserves, given through **kwargs of a settings dict (SMD154), and the hook's save_interval "0" set after
the hook is built, through an attribute (SMD132)."""

import os

import sagemaker.debugger as dbg
from sagemaker.pytorch import PyTorch

STAGE = "loss"
PROJECT = "resnet"
checks = [dbg.rule_configs.loss_not_decreasing, dbg.rule_configs.overtraining]
rules = [dbg.Rule.sagemaker(check(), name=f"{PROJECT}-{STAGE}") for check in checks]

tensorboard = {"s3_output_path": f"s3://my-debug-bucket/{PROJECT}/tb", "container_local_output_path": "/opt/ml/tb"}
hook = dbg.DebuggerHookConfig(s3_output_path=f"s3://my-debug-bucket/{PROJECT}/debug")
hook.collection_configs = [dbg.CollectionConfig("losses", parameters={"save_interval": "0"})]

estimator = PyTorch(
    entry_point="train.py",
    source_dir=os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"),
    role="arn:aws:iam::123456789012:role/SageMakerRole",
    framework_version="1.13",
    py_version="py39",
    instance_count=1,
    instance_type="ml.p3.2xlarge",
    rules=rules,
    tensorboard_output_config=dbg.TensorBoardOutputConfig(**tensorboard),
)
estimator.debugger_hook_config = hook
estimator.fit(wait=False)
