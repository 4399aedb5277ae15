"""A PyTorch job with a profiler rule while ProfilerConfig turns the profiler off (issue 36)."""
from sm_debug_config import DebuggerHookConfig, ProfilerConfig, ProfilerRule, Rule, render, rule_configs

fields = render(
    [ProfilerRule.sagemaker(rule_configs.ProfilerReport()), Rule.sagemaker(rule_configs.tree_depth())],
    debugger_hook_config=DebuggerHookConfig(s3_output_path="s3://b/debug", hook_parameters={"save_steps": "1,2,3"}),
    profiler_config=ProfilerConfig(disable_profiler=True),
    region="us-east-1",
    output_path="s3://b/out",
    framework="pytorch",
)
