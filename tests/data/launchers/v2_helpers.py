"""An SDK v2 launcher whose hook and rules come from helper functions defined in the file (issue 37): the values
reach the Estimator through parameters, defaults, *args and a returned list. Seeded mistakes, independent:
make_hook(every=-1) (SMD133, at the call's argument), a misspelt LossNotDecreasing parameter inside bert_rules()
(SMD120), and PyTorch 2.1.0, whose image has no smdebug, with Debugger configured (SMD170)."""

import os

import sagemaker.debugger as dbg
from sagemaker.pytorch import PyTorch

BUCKET = "s3://my-debug-bucket/bert"


def make_hook(every, prefix="hooks"):
    collections = [dbg.CollectionConfig("losses", parameters={"save_interval": str(every)})]
    return dbg.DebuggerHookConfig(s3_output_path=f"{BUCKET}/{prefix}", collection_configs=collections)


def bert_rules(*extra, window=10):
    rules = [
        dbg.Rule.sagemaker(
            dbg.rule_configs.loss_not_decreasing(),
            rule_parameters={"num_steps": str(window), "diff_percnt": "5"},
        )
    ]
    for make in extra:
        rules.append(dbg.Rule.sagemaker(make()))
    return rules


estimator = PyTorch(
    entry_point="train.py",
    source_dir=os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"),
    role="arn:aws:iam::123456789012:role/SageMakerRole",
    framework_version="2.1.0",
    py_version="py310",
    instance_count=1,
    instance_type="ml.g5.xlarge",
    debugger_hook_config=make_hook(every=-1),
    rules=bert_rules(dbg.rule_configs.overfit),
)
estimator.fit(wait=False)
