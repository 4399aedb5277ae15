"""An SDK v2 pipeline launcher: get_execution_role(), a TrainingStep whose estimator has a rule, Pipeline.upsert().
Seeded mistake: the rule parameter "threshhold" (a typo of threshold: SMD120, an error) in the Training step."""

import sagemaker
from sagemaker.debugger import Rule, rule_configs
from sagemaker.estimator import Estimator
from sagemaker.workflow.parameters import ParameterString
from sagemaker.workflow.pipeline import Pipeline
from sagemaker.workflow.pipeline_context import PipelineSession
from sagemaker.workflow.steps import TrainingStep

role = sagemaker.get_execution_role()
session = PipelineSession()
instance_type = ParameterString(name="TrainInstanceType", default_value="ml.m5.xlarge")
estimator = Estimator(
    image_uri="763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.1.0-gpu-py310",
    role=role,
    instance_count=1,
    instance_type=instance_type,
    sagemaker_session=session,
    rules=[Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"threshhold": "0.001"})],
)
step = TrainingStep(name="Train", step_args=estimator.fit({"train": "s3://my-data-bucket/train/"}))
pipeline = Pipeline(name="plan-v2-pipeline", parameters=[instance_type], steps=[step], sagemaker_session=session)
pipeline.upsert(role_arn=role)
print("upserted", pipeline.name, "as", role)
