"""An SDK v3 launcher as users write it: a ModelTrainer, this package's objects added by attach_debugger(), paths in
f-strings, the hook built by a helper from variables. Seeded mistakes, three problems: a step range that saves nothing
(start_step 100, end_step 10: SMD133), SimilarAcrossRuns with no other trial (SMD124) and a collection saved every 0
steps (SMD132, an error). plan reports each once, the request's, at the train() line."""

import os

from sagemaker.train import ModelTrainer
from sagemaker.train.configs import Compute, SourceCode, StoppingCondition

from sm_debug_config import CollectionConfig, DebuggerHookConfig, Rule, attach_debugger, rule_configs

bucket = "sagemaker-us-east-1-123456789012"
experiment = "resnet-steps"
first_step, last_step = 100, 10
every = "0"


def debugger_hook(start, end):
    return DebuggerHookConfig(
        s3_output_path=f"s3://{bucket}/{experiment}/debug",
        hook_parameters={"start_step": str(start), "end_step": str(end)},
        collection_configs=[CollectionConfig("weights", {"save_interval": every})],
    )


trainer = ModelTrainer(
    training_image="763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:1.13.1-gpu-py39",
    source_code=SourceCode(
        source_dir=os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"), entry_script="train.py"
    ),
    role="arn:aws:iam::123456789012:role/SageMakerRole",
    compute=Compute(instance_type="ml.p3.2xlarge", instance_count=1),
    stopping_condition=StoppingCondition(max_runtime_in_seconds=3600),
    base_job_name="v3-steps",
)
rules = [Rule.sagemaker(rule_configs.similar_across_runs())]
with attach_debugger(trainer, rules=rules, debugger_hook_config=debugger_hook(first_step, last_step),
                     output_path=f"s3://{bucket}/{experiment}/"):
    trainer.train(wait=False)
print("train returned")
