"""An SDK v3 launcher as users write it: a ModelTrainer with a local source directory, the Debugger fields added by
this project's attach(), train() waiting (logs on). Seeded mistake: a debugger rule on PyTorch 2.5, whose SageMaker
image has no smdebug (SMD170, a warning: the rule would see no tensors)."""

import os

from sagemaker.train import ModelTrainer
from sagemaker.train.configs import Compute, SourceCode, StoppingCondition

from sm_debug_config import Rule, rule_configs
from sm_debug_config.integrations.boto3_events import attach

trainer = ModelTrainer(
    training_image="763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.5.1-gpu-py311",
    source_code=SourceCode(
        source_dir=os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"), entry_script="train.py"
    ),
    role="arn:aws:iam::123456789012:role/SageMakerRole",
    compute=Compute(instance_type="ml.g5.xlarge", instance_count=1),
    stopping_condition=StoppingCondition(max_runtime_in_seconds=3600),
    base_job_name="v3-plan",
)
with attach(trainer, rules=[Rule.sagemaker(rule_configs.vanishing_gradient())]):
    trainer.train(wait=True, logs=True)
print("train returned")
