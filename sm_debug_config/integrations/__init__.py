"""Where rendered fields go: the SageMaker SDK v2 and v3 (sagemaker-core), boto3."""
