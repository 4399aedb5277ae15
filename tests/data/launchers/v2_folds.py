"""An SDK v2 launcher that builds its rules in loops (issue 37): seven rules for each of three folds from a dict of
rule_configs functions, three more from a comprehension over enumerate(), and a hook whose collections come from a
dict comprehension. Seeded mistakes, independent: 24 rules where a job takes at most 20 (SMD102, at the rules
argument), a misspelt collection parameter written once in the comprehension (SMD135), and an Overfit parameter
misspelt among the extra rules' parameters (SMD120)."""

import os

from sagemaker.debugger import CollectionConfig, DebuggerHookConfig, Rule
from sagemaker.debugger import rule_configs as rc
from sagemaker.pytorch import PyTorch

FOLD_RULES = {
    "vanishing": rc.vanishing_gradient,
    "exploding": rc.exploding_tensor,
    "overfit": rc.overfit,
    "overtraining": rc.overtraining,
    "loss": rc.loss_not_decreasing,
    "init": rc.poor_weight_initialization,
    "saturated": rc.saturated_activation,
}
EXTRA = [rc.stalled_training_rule, rc.dead_relu, rc.overfit]
SAVE = {"losses": "10", "gradients": "100"}

rules = []
for fold in range(3):
    for label, make in FOLD_RULES.items():
        rules.append(Rule.sagemaker(make(), name=f"{label}-fold{fold}"))
rules += [
    Rule.sagemaker(make(), name=f"extra-{index}", rule_parameters={"patiance_train": "5"} if index == 2 else None)
    for index, make in enumerate(EXTRA)
]

hook = DebuggerHookConfig(
    s3_output_path="s3://my-debug-bucket/folds",
    collection_configs=[CollectionConfig(name, parameters={"save_intervall": every}) for name, every in SAVE.items()],
)
estimator = PyTorch(
    entry_point="train.py",
    source_dir=os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"),
    role="arn:aws:iam::123456789012:role/SageMakerRole",
    framework_version="1.13",
    py_version="py39",
    instance_count=1,
    instance_type="ml.p3.2xlarge",
    debugger_hook_config=hook,
    rules=rules,
)
estimator.fit(wait=False)
