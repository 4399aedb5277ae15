"""The Amazon SageMaker Developer Guide's Debugger pages (awsdocs/amazon-sagemaker-developer-guide).

From commit 29f327659f152f8101d9b47ba08bc9d1c5ebe38a (February 2023, the last one before the
repository was emptied). The guide's per-rule examples have a few Python typos (a missing
comma, an unclosed string, a missing ``volume_size_in_gb``); they are corrected here and
noted, since the config is what readers actually submitted after fixing them.
"""
from . import Entry

_DG = "https://github.com/awsdocs/amazon-sagemaker-developer-guide/blob/29f327659f152f8101d9b47ba08bc9d1c5ebe38a/doc_source/"
RULES = _DG + "debugger-built-in-rules.md"


def _rule(function: str, parameters: str, collections: str) -> str:
    return f"""
rules = [
    Rule.sagemaker(
        base_config=rule_configs.{function}(),
        rule_parameters={{{parameters}}},
        collections_to_save=[{collections}],
    )
]
"""


def _collection(name: str, parameters: str) -> str:
    return f'CollectionConfig(name="{name}", parameters={{{parameters}}})'


_EVERY_500 = '"save_interval": "500"'

ENTRIES = [
    # --- debugger-built-in-rules.md: one example per rule ---------------------------------------
    Entry(
        id="dg-profiler-report-default",
        source=RULES + " (ProfilerReport)",
        code="rules = [ProfilerRule.sagemaker(rule_configs.ProfilerReport())]\n",
    ),
    Entry(
        id="dg-profiler-report-parameters",
        source=RULES + " (ProfilerReport with parameters of the rules it runs)",
        code="rules = [ProfilerRule.sagemaker(rule_configs.ProfilerReport(CPUBottleneck_cpu_threshold=90, "
             "IOBottleneck_threshold=90))]\n",
    ),
    Entry(
        id="dg-create-xgboost-report",
        source=RULES + " (CreateXgboostReport); also debugger-report-xgboost.md",
        framework="xgboost",
        instance_type="ml.m5.2xlarge",
        code="rules = [Rule.sagemaker(rule_configs.create_xgboost_report())]\n",
    ),
    Entry(
        id="dg-dead-relu",
        source=RULES + " (DeadRelu)",
        framework="pytorch",
        code=_rule(
            "dead_relu",
            '"tensor_regex": ".*relu_output|.*ReLU_output", "threshold_inactivity": "1.0", "threshold_layer": "50.0"',
            _collection(
                "custom_relu_collection", '"include_regex": ".*relu_output|.*ReLU_output", "save_interval": "500"'
            ),
        ),
        note="the guide's unclosed 'include_regex: string is closed",
    ),
    Entry(
        id="dg-exploding-tensor",
        source=RULES + " (ExplodingTensor)",
        framework="tensorflow",
        code=_rule(
            "exploding_tensor",
            '"tensor_regex": ".*gradient", "only_nan": "False"',
            _collection("gradients", _EVERY_500),
        ),
    ),
    Entry(
        id="dg-poor-weight-initialization",
        source=RULES + " (PoorWeightInitialization)",
        framework="pytorch",
        code=_rule(
            "poor_weight_initialization",
            '"activation_inputs_regex": ".*relu_input|.*ReLU_input", "threshold": "10.0", "distribution_range": '
            '"0.001", '
            '"patience": "5", "steps": "10"',
            _collection(
                "custom_relu_collection", '"include_regex": ".*relu_input|.*ReLU_input", "save_interval": "500"'
            ),
        ),
    ),
    Entry(
        id="dg-saturated-activation",
        source=RULES + " (SaturatedActivation)",
        framework="tensorflow",
        code=_rule(
            "saturated_activation",
            '"tensor_regex": ".*tanh_input|.*sigmoid_input", "threshold_tanh_min": "-9.4999", "threshold_tanh_max": '
            '"9.4999", '
            '"threshold_sigmoid_min": "-23", "threshold_sigmoid_max": "16.99999", "threshold_inactivity": "1.0", '
            '"threshold_layer": "50.0"',
            _collection(
                "custom_activations_collection",
                '"include_regex": ".*tanh_input|.*sigmoid_input", "save_interval": "500"',
            ),
        ),
        note="the guide's missing comma after the include_regex value is added",
    ),
    Entry(
        id="dg-vanishing-gradient",
        source=RULES + " (VanishingGradient)",
        framework="tensorflow",
        code=_rule("vanishing_gradient", '"threshold": "0.0000001"', _collection("gradients", _EVERY_500)),
    ),
    Entry(
        id="dg-weight-update-ratio",
        source=RULES + " (WeightUpdateRatio)",
        framework="tensorflow",
        code=_rule(
            "weight_update_ratio",
            '"num_steps": "100", "large_threshold": "10.0", "small_threshold": "0.00000001", "epsilon": "0.000000001"',
            _collection("weights", '"train.save_interval": "100"'),
        ),
    ),
    Entry(
        id="dg-all-zero",
        source=RULES + " (AllZero)",
        framework="tensorflow",
        code=_rule("all_zero", '"tensor_regex": ".*", "threshold": "100"', _collection("all", _EVERY_500)),
    ),
    Entry(
        id="dg-class-imbalance",
        source=RULES + " (ClassImbalance)",
        framework="pytorch",
        code=_rule(
            "class_imbalance",
            '"threshold_imbalance": "10", "threshold_misprediction": "0.7", "samples": "500", "argmax": "False", '
            '"labels_regex": ".*labels", "predictions_regex": ".*predictions"',
            _collection(
                "custom_output_collection", '"include_regex": ".*labels|.*predictions", "save_interval": "500"'
            ),
        ),
    ),
    Entry(
        id="dg-loss-not-decreasing",
        source=RULES + " (LossNotDecreasing)",
        framework="tensorflow",
        code=_rule(
            "loss_not_decreasing",
            '"tensor_regex": ".*", "use_losses_collection": "True", "num_steps": "10", "diff_percent": "0.1", '
            '"increase_threshold_percent": "5", "mode": "GLOBAL"',
            _collection("losses", _EVERY_500),
        ),
    ),
    Entry(
        id="dg-overfit",
        source=RULES + " (Overfit)",
        framework="tensorflow",
        code=_rule(
            "overfit",
            '"tensor_regex": ".*", "start_step": "0", "patience": "1", "ratio_threshold": "0.1"',
            _collection("losses", '"train.save_interval": "100", "eval.save_interval": "10"'),
        ),
    ),
    Entry(
        id="dg-overtraining",
        source=RULES + " (Overtraining)",
        framework="tensorflow",
        code=_rule(
            "overtraining",
            '"patience_train": "5", "patience_validation": "10", "delta": "0.01"',
            _collection("losses", _EVERY_500),
        ),
    ),
    Entry(
        id="dg-similar-across-runs",
        source=RULES + " (SimilarAcrossRuns)",
        framework="tensorflow",
        code=_rule(
            "similar_across_runs",
            '"other_trials": "my-earlier-training-job", "collection_names": "losses", "tensor_regex": ".*"',
            _collection("losses", _EVERY_500),
        ),
        note="the guide's <specify-another-job-name> placeholder is filled in",
    ),
    Entry(
        id="dg-stalled-training",
        source=RULES + " (StalledTrainingRule)",
        framework="tensorflow",
        code=_rule(
            "stalled_training_rule",
            '"threshold": "1800", "stop_training_on_fire": "True", "training_job_name_prefix": "dg-stalled"',
            _collection("losses", _EVERY_500),
        ),
        note="the guide's <specify-training-base-job-name> placeholder is filled in",
    ),
    Entry(
        id="dg-tensor-variance",
        source=RULES + " (TensorVariance)",
        framework="tensorflow",
        code=_rule(
            "tensor_variance",
            '"collection_names": "weights", "max_threshold": "10", "min_threshold": "0.00001"',
            _collection("weights", _EVERY_500),
        ),
    ),
    Entry(
        id="dg-unchanged-tensor",
        source=RULES + " (UnchangedTensor)",
        framework="tensorflow",
        code=_rule(
            "unchanged_tensor",
            '"collection_names": "losses", "tensor_regex": "", "num_steps": "3", "rtol": "1e-05", "atol": "1e-08", '
            '"equal_nan": "False"',
            _collection("losses", _EVERY_500),
        ),
    ),
    Entry(
        id="dg-check-input-images",
        source=RULES + " (CheckInputImages)",
        framework="mxnet",
        code=_rule(
            "check_input_images",
            '"threshold_mean": "0.2", "threshold_samples": "500", "regex": ".*hybridsequential0_input_0", "channel": '
            '"1"',
            _collection(
                "custom_inputs_collection", '"include_regex": ".*hybridsequential0_input_0", "save_interval": "500"'
            ),
        ),
    ),
    Entry(
        id="dg-nlp-sequence-ratio",
        source=RULES + " (NLPSequenceRatio)",
        framework="mxnet",
        code=_rule(
            "nlp_sequence_ratio",
            '"tensor_regex": ".*embedding0_input_0", "token_values": "0", "token_thresholds_percent": "50"',
            _collection("custom_inputs_collection", '"include_regex": ".*embedding0_input_0"'),
        ),
    ),
    Entry(
        id="dg-confusion",
        source=RULES + " (Confusion)",
        framework="xgboost",
        code=_rule(
            "confusion",
            '"category_no": "10", "labels": "labels", "predictions": "predictions", "labels_collection": "labels", '
            '"predictions_collection": "predictions", "min_diag": "0.9", "max_off_diag": "0.1"',
            _collection("labels", _EVERY_500) + ", " + _collection("predictions", '"include_regex": "500"'),
        ),
        note="as published: the predictions collection has include_regex '500' (meant as save_interval)",
    ),
    Entry(
        id="dg-feature-importance-overweight",
        source=RULES + " (FeatureImportanceOverweight)",
        framework="xgboost",
        code=_rule(
            "feature_importance_overweight",
            '"threshold": "0.8", "nfeatures": "3", "tensor_regex": ".*feature_importance/weight"',
            _collection("feature_importance", _EVERY_500),
        ),
    ),
    Entry(
        id="dg-tree-depth",
        source=RULES + " (TreeDepth)",
        framework="xgboost",
        code=_rule("tree_depth", '"depth": "4"', _collection("tree", _EVERY_500)),
        expect=(
            "refused: 'tree' is not an XGBoost built-in collection (smdebug's is 'trees') and has no include_regex; "
            "smdebug's hook raises InvalidCollectionConfiguration('tree') when it prepares its collections "
            "(smdebug/core/hook.py, _prepare_collections)"
        ),
        refusal="SMD114 .*collection 'tree'",
    ),
    # --- use-debugger-built-in-rules.md ---------------------------------------------------------
    Entry(
        id="dg-builtin-rules-defaults",
        source=_DG + "use-debugger-built-in-rules.md (several built-in rules)",
        framework="tensorflow",
        code="""
rules = [
    Rule.sagemaker(rule_configs.loss_not_decreasing()),
    Rule.sagemaker(rule_configs.overfit()),
    Rule.sagemaker(rule_configs.overtraining()),
    Rule.sagemaker(rule_configs.stalled_training_rule()),
]
""",
    ),
    Entry(
        id="dg-stalled-modified-collections",
        source=_DG + "use-debugger-built-in-rules.md (built_in_rules_modified)",
        framework="tensorflow",
        instance_type="ml.p3.2xlarge",
        code="""
base_job_name_prefix = "smdebug-stalled-demo-1676000000"
rules = [
    Rule.sagemaker(
        base_config=rule_configs.stalled_training_rule(),
        rule_parameters={"threshold": "120", "training_job_name_prefix": base_job_name_prefix, \
"stop_training_on_fire": "True"},
        collections_to_save=[CollectionConfig(name="losses", parameters={"train.save_interval": "50", \
"eval.save_interval": "10"})],
    )
]
""",
        note="the guide's missing commas are added; str(int(time.time())) fixed",
    ),
    # --- debugger-built-in-actions.md -----------------------------------------------------------
    Entry(
        id="dg-actions-list",
        source=_DG + "debugger-built-in-actions.md (ActionList of the three actions)",
        framework="tensorflow",
        code="""
actions = rule_configs.ActionList(rule_configs.StopTraining(), rule_configs.Email("abc@abc.com"), \
rule_configs.SMS("+1234567890"))
rules = [Rule.sagemaker(base_config=rule_configs.loss_not_decreasing(), actions=actions)]
""",
        note="the guide's built_in_rule() / {'paramter_key': value} placeholders: LossNotDecreasing without parameters",
    ),
    Entry(
        id="dg-actions-stalled-email-and-stop",
        source=_DG + "debugger-built-in-actions.md (stalled_training_job_rule_email, stalled_training_job_rule)",
        framework="tensorflow",
        code="""
base_job_name_prefix = "smdebug-stalled-demo-1676000000"
action_stop_training = rule_configs.ActionList(rule_configs.StopTraining())
action_email = rule_configs.ActionList(rule_configs.Email("abc@abc.com"))
stalled_training_job_rule_email = Rule.sagemaker(
    base_config=rule_configs.stalled_training_rule(),
    rule_parameters={"threshold": "60", "training_job_name_prefix": base_job_name_prefix},
    actions=action_email,
)
stalled_training_job_rule_email.name = "StalledTrainingJobRuleEmail"
stalled_training_job_rule = Rule.sagemaker(
    base_config=rule_configs.stalled_training_rule(),
    rule_parameters={"threshold": "120", "training_job_name_prefix": base_job_name_prefix},
    actions=action_stop_training,
)
stalled_training_job_rule.name = "StalledTrainingJobRuleStopTraining"
rules = [stalled_training_job_rule_email, stalled_training_job_rule]
""",
        note="the guide renames 'stalled_training_job_rule_text' (a typo for ..._email) by assigning .name",
    ),
    # --- debugger-configure-hook.md -------------------------------------------------------------
    Entry(
        id="dg-hook-weights-gradients",
        source=_DG + "debugger-configure-hook.md (built-in collections)",
        framework="tensorflow",
        code='hook = DebuggerHookConfig(collection_configs=[CollectionConfig(name="weights"), '
             'CollectionConfig(name="gradients")])\n',
    ),
    Entry(
        id="dg-hook-losses-train-eval",
        source=_DG + "debugger-configure-hook.md (losses with train/eval save intervals)",
        framework="tensorflow",
        code="""
hook = DebuggerHookConfig(collection_configs=[
    CollectionConfig(name="losses", parameters={"train.save_interval": "100", "eval.save_interval": "10"}),
])
""",
    ),
    Entry(
        id="dg-hook-builtin-collections-s3",
        source=_DG + "debugger-configure-hook.md (debugger-built-in-collections-hook)",
        framework="tensorflow",
        instance_type="ml.p3.2xlarge",
        code="""
hook = DebuggerHookConfig(
    s3_output_path="s3://sagemaker-us-west-2-123456789012/debugger-built-in-collections-hook",
    collection_configs=[
        CollectionConfig(name="weights"), CollectionConfig(name="gradients"),
        CollectionConfig(name="losses"), CollectionConfig(name="biases"),
    ],
)
""",
    ),
    Entry(
        id="dg-hook-modified-losses",
        source=_DG + "debugger-configure-hook.md (debugger-modified-collections-hook)",
        framework="tensorflow",
        code="""
hook = DebuggerHookConfig(
    s3_output_path="s3://sagemaker-us-west-2-123456789012/debugger-modified-collections-hook",
    collection_configs=[CollectionConfig(name="losses", parameters={"save_interval": "50"})],
)
""",
    ),
    Entry(
        id="dg-hook-custom-collection-reductions",
        source=_DG + "debugger-configure-hook.md (debugger-custom-collections-hook)",
        framework="tensorflow",
        code="""
hook = DebuggerHookConfig(
    s3_output_path="s3://sagemaker-us-west-2-123456789012/debugger-custom-collections-hook",
    collection_configs=[
        CollectionConfig(name="custom_activations_collection",
                         parameters={"include_regex": "relu|tanh", "reductions": \
"mean,variance,max,abs_mean,abs_variance,abs_max"}),
    ],
)
""",
    ),
    # --- profiling pages ------------------------------------------------------------------------
    Entry(
        id="dg-framework-profile-default",
        source=_DG + "debugger-configure-framework-profiling.md (default FrameworkProfile)",
        framework="pytorch",
        code="profiler_config = ProfilerConfig(framework_profile_params=FrameworkProfile())\n",
    ),
    Entry(
        id="dg-framework-profile-interval-1000",
        source=_DG + "debugger-configure-framework-profiling.md (system monitor interval with FrameworkProfile)",
        framework="pytorch",
        code="profiler_config = ProfilerConfig(system_monitor_interval_millis=1000, "
             "framework_profile_params=FrameworkProfile())\n",
    ),
    Entry(
        id="dg-framework-profile-all-configs",
        source=_DG + "debugger-configure-framework-profiling.md (detailed, data loader and Python profiling)",
        framework="pytorch",
        instance_type="ml.p3.2xlarge",
        code="""
profiler_config = ProfilerConfig(
    system_monitor_interval_millis=500,
    framework_profile_params=FrameworkProfile(
        detailed_profiling_config=DetailedProfilingConfig(start_step=5, num_steps=1),
        dataloader_profiling_config=DataloaderProfilingConfig(start_step=7, num_steps=1),
        python_profiling_config=PythonProfilingConfig(start_step=9, num_steps=1, \
python_profiler=PythonProfiler.CPROFILE,
                                                      cprofile_timer=cProfileTimer.TOTAL_TIME),
    ),
)
""",
    ),
    Entry(
        id="dg-system-monitoring-only",
        source=_DG + "debugger-configure-system-monitoring.md",
        code="profiler_config = ProfilerConfig(system_monitor_interval_millis=1000)\n",
    ),
]
