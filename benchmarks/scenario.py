"""The BERT-with-profiling scenario, written once against the ``sagemaker.debugger`` API.

``build(ns)`` takes a namespace that has the ``sagemaker.debugger`` names: ``sm_debug_config``
or ``sagemaker.debugger`` itself. The same code builds both, which is the porting promise.
"""


def build(ns):
    rc = ns.rule_configs
    hook = ns.DebuggerHookConfig(
        hook_parameters={"save_interval": "100"},
        collection_configs=[
            ns.CollectionConfig("attention_scores", {"include_regex": ".*attention.*scores", "save_interval": "50"}),
            ns.CollectionConfig("losses", {"save_interval": "10"}),
            ns.CollectionConfig("gradients", {"save_interval": "100", "reductions": "mean,abs_l2_norm"}),
        ],
    )
    rules = [
        ns.Rule.sagemaker(rc.vanishing_gradient()),
        ns.Rule.sagemaker(rc.exploding_tensor(), rule_parameters={"collection_names": "gradients"}),
        ns.Rule.sagemaker(
            rc.loss_not_decreasing(), rule_parameters={"mode": "TRAIN", "num_steps": "20"}, actions=rc.StopTraining()
        ),
        ns.Rule.sagemaker(rc.weight_update_ratio()),
        ns.ProfilerRule.sagemaker(rc.ProfilerReport(CPUBottleneck_threshold=90)),
        ns.ProfilerRule.sagemaker(rc.LowGPUUtilization()),
    ]
    profiler = ns.ProfilerConfig(
        system_monitor_interval_millis=500,
        framework_profile_params=ns.FrameworkProfile(start_step=5, num_steps=3),
    )
    tensorboard = ns.TensorBoardOutputConfig("s3://my-bucket/bert/tensorboard", "/tensorboard")
    return dict(rules=rules, debugger_hook_config=hook, profiler_config=profiler, tensorboard_output_config=tensorboard)
