"""An SDK v2 launcher as users write it: a PyTorch estimator with a local entry point, a built-in rule and a
hook collection, fit() waiting for the job (logs on). Seeded mistake: save_interval "0" (SMD132, an error)."""

import argparse
import os

from sagemaker.debugger import CollectionConfig, DebuggerHookConfig, Rule, rule_configs
from sagemaker.pytorch import PyTorch

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", default="2")
args = parser.parse_args()

estimator = PyTorch(
    entry_point="train.py",
    source_dir=os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"),
    role="arn:aws:iam::123456789012:role/SageMakerRole",
    framework_version="1.13",
    py_version="py39",
    instance_count=1,
    instance_type="ml.p3.2xlarge",
    hyperparameters={"epochs": args.epochs},
    debugger_hook_config=DebuggerHookConfig(
        collection_configs=[CollectionConfig("gradients", parameters={"save_interval": "0"})]
    ),
    rules=[Rule.sagemaker(rule_configs.vanishing_gradient())],
)
estimator.fit({"train": "s3://my-data-bucket/train/"})
print("fit returned", estimator.latest_training_job.name)
