"""An SDK v2 launcher that never stops starting jobs, and carries on whatever fails (for --max-jobs)."""

from sagemaker.estimator import Estimator

i = 0
while True:
    try:
        Estimator(
            image_uri="123456789012.dkr.ecr.us-east-1.amazonaws.com/train:1",
            role="arn:aws:iam::123456789012:role/R",
            instance_count=1,
            instance_type="ml.m5.xlarge",
        ).fit(wait=False, job_name=f"loop-{i}")
    except Exception as err:
        print("retrying after", type(err).__name__)
    i += 1
