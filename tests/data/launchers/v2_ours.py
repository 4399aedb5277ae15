"""An SDK v2 launcher with this package's objects: a rule with an unknown parameter (its constructor warns, SMD120)
on a PyTorch 2.1 estimator, whose image has no smdebug (SMD170). This package's SDK integration validates the request
at fit() and warns too; plan reports each finding once, the request's, at the fit() line."""

import os

from sagemaker.pytorch import PyTorch

from sm_debug_config import Rule, rule_configs

rule = Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"treshold": "0.1"})
estimator = PyTorch(
    entry_point="train.py",
    source_dir=os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"),
    role="arn:aws:iam::123456789012:role/SageMakerRole",
    framework_version="2.1",
    py_version="py310",
    instance_count=1,
    instance_type="ml.p3.2xlarge",
    rules=[rule],
)
estimator.fit(wait=False)
