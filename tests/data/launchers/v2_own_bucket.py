"""An SDK v2 launcher that writes to its team's own bucket (output_path and code_location in it), as most real
launchers do: plan's local S3 has no such bucket until plan makes it. Seeded mistake: save_interval "0" (SMD132)."""

import os

from sagemaker.debugger import CollectionConfig, DebuggerHookConfig
from sagemaker.pytorch import PyTorch

bucket = "ml-team-artifacts"
prefix = "experiments/resnet"

estimator = PyTorch(
    entry_point="train.py",
    source_dir=os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"),
    role="arn:aws:iam::123456789012:role/SageMakerRole",
    framework_version="1.13",
    py_version="py39",
    instance_count=1,
    instance_type="ml.p3.2xlarge",
    output_path=f"s3://{bucket}/{prefix}/output",
    code_location=f"s3://{bucket}/{prefix}/code",
    debugger_hook_config=DebuggerHookConfig(
        collection_configs=[CollectionConfig("losses", parameters={"save_interval": "0"})]
    ),
)
estimator.fit({"train": f"s3://{bucket}/data/train/"}, wait=False)
