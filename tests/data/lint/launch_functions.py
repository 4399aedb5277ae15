# Written for sm-debug-config's lint tests. Imitates the shapes of aws/sagemaker-python-sdk
# @03b05cc9785a1a1c06c1c2a6a10004028220bbba tests/integ/test_profiler.py and
# @0779a5b1ad41baeffe52413d4b61937b0eb098c8 tests/integ/test_debugger.py (configs built inside test
# functions, submodule imports, ActionList); not a copy.
import os
import uuid

from sagemaker.debugger import ProfilerRule, Rule, rule_configs
from sagemaker.debugger.metrics_config import DetailedProfilingConfig
from sagemaker.debugger.profiler_config import ProfilerConfig, FrameworkProfile
from sagemaker.mxnet.estimator import MXNet


def actions():
    return rule_configs.ActionList(rule_configs.StopTraining(), rule_configs.Email("a@example.com"))


def test_profiler(sagemaker_session, mxnet_training_latest_version):
    out = os.path.join("s3://", sagemaker_session.default_bucket(), str(uuid.uuid4()), "profiler")
    profiler_config = ProfilerConfig(
        s3_output_path=out,
        system_monitor_interval_millis=1000,
        framework_profile_params=FrameworkProfile(detailed_profiling_config=DetailedProfilingConfig(start_step=5, num_steps=2)),
    )
    rules = [
        ProfilerRule.sagemaker(rule_configs.ProfilerReport(CPUBottlenek_threshold=90), name="CustomProfilerReportRule"),
        Rule.sagemaker(rule_configs.stalled_training_rule(), actions=actions()),
    ]
    mx = MXNet(
        entry_point="mnist.py",
        framework_version=mxnet_training_latest_version,
        py_version="py3",
        instance_type="ml.m5.xlarge",
        instance_count=1,
        profiler_config=profiler_config,
        rules=rules,
    )
    return mx
