"""An SDK v2 launcher as users write it (the extra "sagemaker"): a PyTorch Estimator with Debugger rules and a hook
from sagemaker.debugger. Seeded mistake: the rule parameter 'threshhold' (SMD120, a warning: the rule would silently
use its default threshold). `sm-debug-config lint` reads it without running it; `sm-debug-config plan` runs it
against a local AWS (moto, the extra "plan") and checks the CreateTrainingJob request it sends."""
import os

from sagemaker.debugger import CollectionConfig, DebuggerHookConfig, Rule, rule_configs
from sagemaker.pytorch import PyTorch

estimator = PyTorch(
    entry_point="train.py",
    source_dir=os.path.dirname(os.path.abspath(__file__)),
    role="arn:aws:iam::111122223333:role/SageMakerRole",
    framework_version="1.13",
    py_version="py39",
    instance_count=1,
    instance_type="ml.g5.xlarge",
    debugger_hook_config=DebuggerHookConfig(
        collection_configs=[CollectionConfig("gradients", parameters={"save_interval": "100"})]
    ),
    rules=[Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"threshhold": "0.0001"})],
)
estimator.fit({"train": "s3://my-bucket/train/"})
