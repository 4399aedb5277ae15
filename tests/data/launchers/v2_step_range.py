"""An SDK v2 launcher with this package's objects, as users write them: paths in f-strings, the hook built by a helper
from variables. Seeded mistakes, three problems: a step range that saves nothing (start_step 100, end_step 10: SMD133,
a warning), SimilarAcrossRuns with no other trial to compare with (SMD124, a warning) and a collection saved every 0
steps (SMD132, an error, which this package's constructor refuses in a user's call). plan reports each once, the
request's, at the fit() line, and starts the job all the same: one error refuses nothing else of it."""

import os

import sagemaker
from sagemaker.pytorch import PyTorch

from sm_debug_config import CollectionConfig, DebuggerHookConfig, Rule, rule_configs

session = sagemaker.Session()
bucket = session.default_bucket()
experiment = "resnet-steps"
first_step, last_step = 100, 10
every = "0"


def debugger_hook(start, end):
    return DebuggerHookConfig(
        s3_output_path=f"s3://{bucket}/{experiment}/debug",
        hook_parameters={"start_step": str(start), "end_step": str(end)},
        collection_configs=[CollectionConfig("weights", {"save_interval": every})],
    )


rules = [Rule.sagemaker(rule_configs.similar_across_runs())]
estimator = PyTorch(
    entry_point="train.py",
    source_dir=os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"),
    role="arn:aws:iam::123456789012:role/SageMakerRole",
    framework_version="1.13",
    py_version="py39",
    instance_count=1,
    instance_type="ml.p3.2xlarge",
    output_path=f"s3://{bucket}/{experiment}/",
    debugger_hook_config=debugger_hook(first_step, last_step),
    rules=rules,
)
estimator.fit(wait=False)
