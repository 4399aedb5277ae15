# Written for sm-debug-config's lint tests. Imitates awslabs/sagemaker-debugger
# @3b82de312a404a0caf64c6cb860b584fac8b5163 docs/sagemaker.md (import sagemaker as sm, then attribute
# chains; int and bool hook parameters) and the module alias of issue 25; not a copy.
import sagemaker as sm
import sagemaker.debugger as d

hook = d.DebuggerHookConfig(hook_parameters={"save_interval": 100, "save_histogram": False})
rule = d.Rule.sagemaker(d.rule_configs.overfit())
estimator = sm.tensorflow.TensorFlow(
    entry_point="train.py",
    role=sm.get_execution_role(),
    instance_count=1,
    instance_type="ml.p2.xlarge",
    framework_version="1.15",
    py_version="py3",
    debugger_hook_config=hook,
    rules=[rule],
)
