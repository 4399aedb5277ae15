# pytorch_job as an SDK v2 launcher (see README.md): the session's bucket in every path
import sagemaker
from sagemaker.debugger import CollectionConfig, DebuggerHookConfig, Rule, TensorBoardOutputConfig, rule_configs
from sagemaker.pytorch import PyTorch

session = sagemaker.Session()
bucket = session.default_bucket()
role = sagemaker.get_execution_role()

hook = DebuggerHookConfig(
    s3_output_path=f"s3://{bucket}/pt-job/debug",
    collection_configs=[
        CollectionConfig(
            name="weights",
            parameters={
                "save_interval": "0",
            },
        )
    ],
)
rules = [
    Rule.sagemaker(
        rule_configs.loss_not_decreasing(),
        rule_parameters={"num_steps": "10", "diff_percnt": "5"},
    )
]
tensorboard = TensorBoardOutputConfig(
    s3_output_path=f"s3://{bucket}/pt-job/tb",
    container_local_output_path="/opt/ml/output/tensorboard",
)
estimator = PyTorch(
    entry_point="train.py",
    role=role,
    instance_count=1,
    instance_type="ml.g5.xlarge",
    framework_version="2.3",
    py_version="py311",
    output_path=f"s3://{bucket}/pt-job/",
    debugger_hook_config=hook,
    rules=rules,
    tensorboard_output_config=tensorboard,
)
estimator.fit(f"s3://{bucket}/data/")
