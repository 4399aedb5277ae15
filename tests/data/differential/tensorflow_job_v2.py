# tensorflow_job as an SDK v2 launcher with a module alias (see README.md)
import sagemaker
import sagemaker.debugger as dbg
from sagemaker.tensorflow import TensorFlow

bucket = sagemaker.Session().default_bucket()
debug_prefix = f"s3://{bucket}/tf-job/debug"

hook_config = dbg.DebuggerHookConfig(
    s3_output_path=debug_prefix,
    container_local_output_path="tensors",
    hook_parameters={"save_intervall": "100"},
    collection_configs=[dbg.CollectionConfig("custom_dense", {"include_regex": "dense_[0-9+/kernel"})],
)
overfit = dbg.Rule.sagemaker(dbg.rule_configs.overfit())
estimator = TensorFlow(
    entry_point="train.py",
    role=sagemaker.get_execution_role(),
    instance_count=1,
    instance_type="ml.p3.2xlarge",
    framework_version="2.11.0",
    py_version="py39",
    debugger_hook_config=hook_config,
    rules=[overfit, dbg.Rule.sagemaker(dbg.rule_configs.overfit())],
)
estimator.fit()
