# Written for sm-debug-config's server tests: a launcher the way users write one, with several mistakes
# (a misspelt rule parameter, an S3 path without its scheme, a bad save interval, a non-ASCII comment —
# «ümlaut» 🚀 — and a non-ASCII string before values, so UTF-16 columns differ from Python's).
import sagemaker
from sagemaker.debugger import CollectionConfig, DebuggerHookConfig, Rule, rule_configs
from sagemaker.pytorch import PyTorch

bucket = "my-bücket-🚀"
run = "exp-1"
every = -1


def hook_for(path, interval):
    return DebuggerHookConfig(
        s3_output_path=path,
        collection_configs=[CollectionConfig("weights", parameters={"save_interval": str(interval)})],
    )


rules = []
for name in ["vanishing_gradient", "exploding_tensor"]:
    rules.append(Rule.sagemaker(getattr(rule_configs, name)()))
rules.append(Rule.sagemaker(rule_configs.loss_not_decreasing(), name="Verlust-🚀", rule_parameters={"patiance": "3"}))

estimator = PyTorch(
    entry_point="train.py",
    role=sagemaker.get_execution_role(),
    framework_version="1.13",
    py_version="py39",
    instance_count=1,
    instance_type="ml.g5.xlarge",
    debugger_hook_config=hook_for(f"{bucket}/debug/{run}", every),
    rules=rules + [Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"threshhold": "1e-4"})],
)
estimator.fit()
