"""The SageMaker Python SDK v2 itself: its Debugger guide, unit tests and integration tests.

All from aws/sagemaker-python-sdk at tag v2.257.6 (commit fc582aaa46faf7b7e16ab1e13840869712174cd0),
plus smdebug-rulesconfig's tests (the SDK's ``rule_configs``) and the AWS Step Functions Data
Science SDK's unit tests, which build SDK v2 Estimators.
Integration tests name fresh ``s3://<default bucket>/<uuid4>/...`` paths; they are fixed here.
"""
from . import Entry

_SDK = "https://github.com/aws/sagemaker-python-sdk/blob/fc582aaa46faf7b7e16ab1e13840869712174cd0/"
GUIDE = _SDK + "doc/amazon_sagemaker_debugger.rst"
INTEG = _SDK + "tests/integ/test_debugger.py"
INTEG_PROFILER = _SDK + "tests/integ/test_profiler.py"
UNIT = _SDK + "tests/unit/test_estimator.py"
UNIT_PROFILER = _SDK + "tests/unit/test_profiler_config.py"
UNIT_STEPS = _SDK + "tests/unit/sagemaker/workflow/test_steps.py"
RULESCONFIG = "https://github.com/awslabs/sagemaker-debugger-rulesconfig/blob/"
STEPFUNCTIONS = (
    "https://github.com/aws/aws-step-functions-data-science-sdk-python/blob/09720b4a02431237c8eca4f1947f8f70cebb9692/"
    "tests/unit/test_sagemaker_steps.py"
)

# tests/integ/test_debugger.py: the actions fixture and _get_custom_rule() (us-west-2 account).
_INTEG_ACTIONS = """
actions = rule_configs.ActionList(
    rule_configs.StopTraining(), rule_configs.Email("abc@abc.com"), rule_configs.SMS("+01234567890"),
)
"""
_INTEG_CUSTOM_RULE = """
def custom_rule(actions=None):
    return Rule.custom(
        name="test-custom-rule", source="my_custom_rule.py", rule_to_invoke="CustomGradientRule",
        instance_type="ml.m5.xlarge", volume_size_in_gb=30,
        image_uri="759209512951.dkr.ecr.us-west-2.amazonaws.com/sagemaker-debugger-rule-evaluator:latest",
        actions=actions,
    )
"""
_INTEG_RULES = """
rules = [
    Rule.sagemaker(rule_configs.vanishing_gradient()),
    Rule.sagemaker(base_config=rule_configs.all_zero(), rule_parameters={"tensor_regex": ".*"}),
    Rule.sagemaker(rule_configs.loss_not_decreasing()),
]
"""
_STALLED_CUSTOM_ARGS = """
stalled = Rule.sagemaker(
    base_config=rule_configs.stalled_training_rule(),
    rule_parameters={"threshold": "120", "stop_training_on_fire": "True"},
    collections_to_save=[CollectionConfig(name="losses", parameters={"train.save_interval": "50", \
"eval.save_interval": "10"})],
)
"""

ENTRIES = [
    # --- doc/amazon_sagemaker_debugger.rst ---------------------------------------------------
    Entry(
        id="sdk-guide-custom-relu-collection",
        source=GUIDE + " (Collection Parameters: custom_relu_collection; DebuggerHookConfig of 'Configuring the hook')",
        framework="tensorflow",
        code="""
hook = DebuggerHookConfig(
    s3_output_path="s3://path/for/data/emission",
    container_local_output_path="/local/path/for/data/emission",
    collection_configs=[
        CollectionConfig(name="custom_relu_collection",
                         parameters={"include_regex": "relu", "save_interval": "20", "start_step": "5", \
"end_step": "100"}),
    ],
)
""",
        note="the guide's hook_parameters {'key': 'value'} placeholder is left out",
    ),
    Entry(
        id="sdk-guide-builtin-biases",
        source=GUIDE + " (collection_config_biases)",
        framework="tensorflow",
        code='hook = DebuggerHookConfig(collection_configs=[CollectionConfig(name="biases")])\n',
    ),
    Entry(
        id="sdk-guide-hook-parameters",
        source=GUIDE + " (Hook Parameters)",
        framework="tensorflow",
        code="""
hook = DebuggerHookConfig(
    s3_output_path="s3://path/for/data/emission",
    container_local_output_path="/local/path/for/data/emission",
    hook_parameters={"save_interval": "10"},
    collection_configs=[
        CollectionConfig(name="collection_name_1", parameters={"include_regex": ".*"}),
        CollectionConfig(name="collection_name_2", parameters={"include_regex": ".*"}),
    ],
)
""",
    ),
    Entry(
        id="sdk-guide-example-1",
        source=GUIDE + " (Example 1: a single built-in rule)",
        framework="tensorflow",
        code="rules = [Rule.sagemaker(rule_configs.vanishing_gradient())]\n",
    ),
    Entry(
        id="sdk-guide-example-2",
        source=GUIDE + " (Example 2: more than one built-in rule)",
        framework="tensorflow",
        code="rules = [Rule.sagemaker(rule_configs.vanishing_gradient()), "
             "Rule.sagemaker(rule_configs.weight_update_ratio())]\n",
    ),
    Entry(
        id="sdk-guide-example-3",
        source=GUIDE + " (Example 3: weight_update_ratio storing a custom collection rather than weights)",
        framework="tensorflow",
        code="""
wur_with_customization = Rule.sagemaker(
    base_config=rule_configs.weight_update_ratio(),
    name="custom_wup_rule_name",
    rule_parameters={"large_threshold": "10.0", "small_threshold": "0.00000001"},
    collections_to_save=[
        CollectionConfig(name="custom_collection_name", parameters={"include_regex": ".*weight", \
"save_interval": "100"}),
    ],
)
rules = [Rule.sagemaker(rule_configs.vanishing_gradient()), wur_with_customization]
""",
        note="the guide's 'key1'/'key2' placeholders are replaced by WeightUpdateRatio parameters and a weight regex",
    ),
    Entry(
        id="sdk-guide-custom-rule",
        source=GUIDE + " (Use custom rules: custom_gradient_rule)",
        framework="tensorflow",
        region="us-east-1",
        files=("rules/custom_gradient_rule.py",),
        code="""
region = "us-east-1"
custom_gradient_rule = Rule.custom(
    name="MyCustomRule",
    image_uri="864354269164.dkr.ecr.{}.amazonaws.com/sagemaker-debugger-rule-evaluator:latest".format(region),
    instance_type="ml.t3.medium",
    source="rules/custom_gradient_rule.py",
    rule_to_invoke="CustomGradientRule",
    volume_size_in_gb=30,
    collections_to_save=[CollectionConfig("gradients")],
    rule_parameters={"threshold": "20.0"},
)
rules = [custom_gradient_rule]
""",
    ),
    Entry(
        id="sdk-guide-tensorboard",
        source=GUIDE + " (TensorBoard output)",
        framework="tensorflow",
        code="""
tensorboard_output_config = TensorBoardOutputConfig(
    s3_output_path="s3://path/for/tensorboard/data/emission",
    container_local_output_path="/local/path/for/tensorboard/data/emission",
)
""",
    ),
    Entry(
        id="sdk-guide-hook-off",
        source=GUIDE + " (Default behavior and opting out)",
        framework="tensorflow",
        code="hook = False\n",
    ),
    # --- tests/integ/test_debugger.py ----------------------------------------------------------
    Entry(
        id="sdk-integ-mxnet-with-rules", source=INTEG + " (test_mxnet_with_rules)", framework="mxnet", code=_INTEG_RULES
    ),
    Entry(
        id="sdk-integ-mxnet-rules-and-actions",
        source=INTEG + " (actions fixture, test_mxnet_with_rules_and_actions)",
        framework="mxnet",
        code=_INTEG_ACTIONS
        + """
rules = [
    Rule.sagemaker(rule_configs.vanishing_gradient(), actions=actions),
    Rule.sagemaker(base_config=rule_configs.all_zero(), rule_parameters={"tensor_regex": ".*"}, actions=actions),
    Rule.sagemaker(rule_configs.loss_not_decreasing(), actions=actions),
]
""",
    ),
    Entry(
        id="sdk-integ-mxnet-custom-rule",
        source=INTEG + " (_get_custom_rule, test_mxnet_with_custom_rule)",
        framework="mxnet",
        files=("my_custom_rule.py",),
        code=_INTEG_CUSTOM_RULE + "rules = [custom_rule()]\n",
    ),
    Entry(
        id="sdk-integ-mxnet-custom-rule-actions",
        source=INTEG + " (test_mxnet_with_custom_rule_and_actions)",
        framework="mxnet",
        files=("my_custom_rule.py",),
        code=_INTEG_ACTIONS + _INTEG_CUSTOM_RULE + "rules = [custom_rule(actions)]\n",
    ),
    Entry(
        id="sdk-integ-mxnet-hook-s3",
        source=INTEG + " (test_mxnet_with_debugger_hook_config)",
        framework="mxnet",
        code='hook = DebuggerHookConfig(s3_output_path="s3://sagemaker-us-west-2-123456789012/0b5a3f0e/tensors")\n',
    ),
    Entry(
        id="sdk-integ-mxnet-rules-and-hook",
        source=INTEG + " (test_mxnet_with_rules_and_debugger_hook_config)",
        framework="mxnet",
        code=_INTEG_RULES
        + 'hook = DebuggerHookConfig(s3_output_path="s3://sagemaker-us-west-2-123456789012/5c1d/tensors")\n',
    ),
    Entry(
        id="sdk-integ-mxnet-custom-rule-and-hook",
        source=INTEG + " (test_mxnet_with_custom_rule_and_debugger_hook_config)",
        framework="mxnet",
        files=("my_custom_rule.py",),
        code=_INTEG_CUSTOM_RULE
        + """
rules = [custom_rule()]
hook = DebuggerHookConfig(s3_output_path="s3://sagemaker-us-west-2-123456789012/77aa/tensors")
""",
    ),
    Entry(
        id="sdk-integ-mxnet-tensorboard",
        source=INTEG + " (test_mxnet_with_tensorboard_output_config)",
        framework="mxnet",
        code='tensorboard_output_config = '
             'TensorBoardOutputConfig(s3_output_path="s3://sagemaker-us-west-2-123456789012/9e0f/tensorboard")\n',
    ),
    Entry(
        id="sdk-integ-mxnet-all-rules-and-configs",
        source=INTEG + " (test_mxnet_with_all_rules_and_configs)",
        framework="mxnet",
        files=("my_custom_rule.py",),
        code=_INTEG_CUSTOM_RULE
        + """
rules = [
    Rule.sagemaker(rule_configs.vanishing_gradient()),
    Rule.sagemaker(base_config=rule_configs.all_zero(), rule_parameters={"tensor_regex": ".*"}),
    Rule.sagemaker(rule_configs.loss_not_decreasing()),
    custom_rule(),
]
hook = DebuggerHookConfig(s3_output_path="s3://sagemaker-us-west-2-123456789012/1a2b/tensors")
tensorboard_output_config = \
TensorBoardOutputConfig(s3_output_path="s3://sagemaker-us-west-2-123456789012/3c4d/tensorboard")
""",
    ),
    Entry(
        id="sdk-integ-mxnet-hook-disabled",
        source=INTEG
        + " (test_mxnet_with_debugger_hook_config_disabled); also test_profiler.py "
          "test_mxnet_profiling_with_disable_debugger_hook",
        framework="mxnet",
        code="hook = False\n",
    ),
    # --- tests/integ/test_profiler.py ---------------------------------------------------------
    Entry(
        id="sdk-integ-profiler-defaults",
        source=INTEG_PROFILER + " (test_mxnet_with_default_profiler_config_and_profiler_rule: nothing configured)",
        framework="mxnet",
        code="pass\n",
    ),
    Entry(
        id="sdk-integ-profiler-custom-config",
        source=INTEG_PROFILER + " (test_mxnet_with_custom_profiler_config_then_update_rule_and_config)",
        framework="mxnet",
        code='profiler_config = ProfilerConfig(s3_output_path="s3://sagemaker-us-west-2-123456789012/5e6f/system", '
             'system_monitor_interval_millis=1000)\n',
    ),
    Entry(
        id="sdk-integ-profiler-report-custom-params",
        source=INTEG_PROFILER + " (test_mxnet_with_built_in_profiler_rule_with_custom_parameters)",
        framework="mxnet",
        code='rules = [ProfilerRule.sagemaker(rule_configs.ProfilerReport(CPUBottleneck_threshold=90), '
             'name="CustomProfilerReportRule")]\n',
    ),
    Entry(
        id="sdk-integ-profiler-and-debugger",
        source=INTEG_PROFILER + " (test_mxnet_with_profiler_and_debugger_then_disable_framework_metrics)",
        framework="mxnet",
        code="""
rules = [
    Rule.sagemaker(rule_configs.vanishing_gradient()),
    Rule.sagemaker(base_config=rule_configs.all_zero(), rule_parameters={"tensor_regex": ".*"}),
    ProfilerRule.sagemaker(rule_configs.ProfilerReport(), name="CustomProfilerReportRule"),
]
hook = DebuggerHookConfig(s3_output_path="s3://sagemaker-us-west-2-123456789012/7a8b/tensors")
profiler_config = ProfilerConfig(
    s3_output_path="s3://sagemaker-us-west-2-123456789012/7a8b/system",
    system_monitor_interval_millis=1000,
    framework_profile_params=FrameworkProfile(),
)
""",
    ),
    Entry(
        id="sdk-integ-framework-metrics-step-range",
        source=INTEG_PROFILER + " (test_mxnet_with_enable_framework_metrics_then_update_framework_metrics)",
        framework="mxnet",
        code="profiler_config = ProfilerConfig(framework_profile_params=FrameworkProfile(start_step=1, num_steps=5))\n",
    ),
    Entry(
        id="sdk-integ-detailed-default-steps",
        source=INTEG_PROFILER + " (same test: the updated FrameworkProfile, here given at creation)",
        framework="mxnet",
        code="""
profiler_config = ProfilerConfig(
    framework_profile_params=FrameworkProfile(\
detailed_profiling_config=DetailedProfilingConfig(profile_default_steps=True))
)
""",
    ),
    Entry(
        id="sdk-integ-disable-profiler",
        source=INTEG_PROFILER + " (test_mxnet_with_disable_profiler_then_enable_default_profiling)",
        framework="mxnet",
        code="disable_profiler = True\n",
    ),
    # --- tests/unit/test_estimator.py ---------------------------------------------------------
    Entry(
        id="sdk-unit-stalled-training-custom-args",
        source=UNIT + " (test_framework_with_debugger_and_built_in_rule)",
        code=_STALLED_CUSTOM_ARGS + 'rules = [stalled]\nhook = DebuggerHookConfig(s3_output_path="s3://output")\n',
    ),
    Entry(
        id="sdk-unit-custom-rule-other-trials",
        source=UNIT + " (test_framework_with_debugger_and_custom_rule)",
        files=("path/to/my_custom_rule.py",),
        code="""
hook = DebuggerHookConfig(s3_output_path="s3://output", collection_configs=[CollectionConfig(name="weights")])
rules = [
    Rule.custom(
        name="CustomRule",
        image_uri="759209512951.dkr.ecr.us-west-2.amazonaws.com/sagemaker-debugger-rule-evaluator:latest",
        instance_type="ml.m5.xlarge",
        volume_size_in_gb=5,
        source="path/to/my_custom_rule.py",
        rule_to_invoke="CustomRule",
        other_trials_s3_input_paths=["s3://path/trial1", "s3://path/trial2"],
        rule_parameters={"threshold": "120"},
    )
]
""",
        note="the test's image_uri placeholder 'RuleImageUri' is replaced by the us-west-2 custom rule evaluator image",
    ),
    Entry(
        id="sdk-unit-stalled-stop-training",
        source=UNIT + " (test_framework_with_debugger_rule_and_single_action)",
        code="rules = [Rule.sagemaker(rule_configs.stalled_training_rule(), actions=rule_configs.StopTraining())]\n",
    ),
    Entry(
        id="sdk-unit-stalled-action-list",
        source=UNIT + " (test_framework_with_debugger_rule_and_multiple_actions)",
        code="""
action_list = rule_configs.ActionList(
    rule_configs.StopTraining(), rule_configs.Email("abc@abc.com"), rule_configs.SMS("+1234567890"),
)
rules = [Rule.sagemaker(rule_configs.stalled_training_rule(), actions=action_list)]
""",
    ),
    Entry(
        id="sdk-unit-debugger-and-profiler-rules",
        source=UNIT + " (test_framework_with_debugger_and_profiler_rules)",
        files=("path/to/my_custom_rule.py",),
        code=_STALLED_CUSTOM_ARGS
        + """
rules = [
    stalled,
    ProfilerRule.sagemaker(base_config=rule_configs.ProfilerReport(CPUBottleneck_threshold=90), \
name="CustomProfilerReportRule"),
    ProfilerRule.custom(
        name="CustomProfilerRule",
        image_uri="759209512951.dkr.ecr.us-west-2.amazonaws.com/sagemaker-debugger-rule-evaluator:latest",
        instance_type="ml.m5.xlarge",
        volume_size_in_gb=5,
        source="path/to/my_custom_rule.py",
        rule_to_invoke="CustomProfilerRule",
        rule_parameters={"threshold": "10"},
    ),
]
""",
        note="image_uri placeholder 'RuleImageUri' replaced as above",
    ),
    Entry(
        id="sdk-unit-cpu-bottleneck-gpu-threshold",
        source=UNIT + " (test_framework_with_only_profiler_rule_specified)",
        code="rules = [ProfilerRule.sagemaker(rule_configs.CPUBottleneck(gpu_threshold=60))]\n",
    ),
    Entry(
        id="sdk-unit-profiler-interval-1000",
        source=UNIT + " (test_framework_with_profiler_config_without_s3_output_path)",
        code="profiler_config = ProfilerConfig(system_monitor_interval_millis=1000)\n",
    ),
    Entry(
        id="sdk-unit-hook-save-interval-1",
        source=UNIT + " (HOOK_CONFIG)",
        code='hook = DebuggerHookConfig(hook_parameters={"save_interval": "1"}, '
             's3_output_path="s3://mytestbucket/testpath/")\n',
    ),
    # --- tests/unit/test_profiler_config.py ---------------------------------------------------
    Entry(
        id="sdk-unit-default-framework-profile",
        source=UNIT_PROFILER + " (test_profiler_config_with_default_framework_profile)",
        code="profiler_config = ProfilerConfig(framework_profile_params=FrameworkProfile())\n",
    ),
    Entry(
        id="sdk-unit-trace-file-fields",
        source=UNIT_PROFILER + " (framework_profile_with_custom_trace_file_fields)",
        code="""
profiler_config = ProfilerConfig(
    framework_profile_params=FrameworkProfile(
        local_path="/tmp/test", file_max_size=10485760 * 2, file_close_interval=60 / 2, \
file_open_fail_threshold=50 + 10,
    )
)
""",
    ),
    Entry(
        id="sdk-unit-custom-metrics-configs",
        source=UNIT_PROFILER + " (framework_profile_with_custom_metrics_configs)",
        code="""
start_unix_time = 1700000000  # int(time.time()) in the test
profiler_config = ProfilerConfig(
    framework_profile_params=FrameworkProfile(
        detailed_profiling_config=DetailedProfilingConfig(start_step=3, num_steps=5),
        dataloader_profiling_config=DataloaderProfilingConfig(start_step=3, metrics_regex="Dataset::Iterator::GetNext"),
        python_profiling_config=PythonProfilingConfig(num_steps=5, python_profiler=PythonProfiler.PYINSTRUMENT),
        horovod_profiling_config=HorovodProfilingConfig(start_unix_time=start_unix_time),
        smdataparallel_profiling_config=SMDataParallelProfilingConfig(duration=30),
    )
)
""",
    ),
    Entry(
        id="sdk-unit-python-profiling-time-range",
        source=UNIT_PROFILER + " (framework_profile_with_only_custom_python_profiling_config)",
        code="""
profiler_config = ProfilerConfig(
    framework_profile_params=FrameworkProfile(
        python_profiling_config=PythonProfilingConfig(start_unix_time=1700000000, duration=30, \
cprofile_timer=cProfileTimer.CPU_TIME)
    )
)
""",
    ),
    Entry(
        id="sdk-unit-framework-step-range",
        source=UNIT_PROFILER + " (test_profiler_config_with_custom_step_range)",
        code="profiler_config = ProfilerConfig(framework_profile_params=FrameworkProfile(start_step=3, num_steps=5))\n",
    ),
    Entry(
        id="sdk-unit-framework-time-range",
        source=UNIT_PROFILER + " (test_profiler_config_with_custom_time_range)",
        code="profiler_config = ProfilerConfig(framework_profile_params=FrameworkProfile(start_unix_time=1700000000, "
             "duration=30))\n",
    ),
    # --- AWS Step Functions Data Science SDK (builds SDK v2 Estimators) -----------------------
    Entry(
        id="stepfunctions-confusion-start-end-step",
        source=STEPFUNCTIONS + " (pca_estimator_with_debug_hook)",
        region="us-east-1",
        instance_type="ml.c4.xlarge",
        code="""
hook = DebuggerHookConfig(
    s3_output_path="s3://sagemaker/output/debug",
    hook_parameters={"save_interval": "1"},
    collection_configs=[CollectionConfig("hyperparameters"), CollectionConfig("metrics")],
)
rules = [Rule.sagemaker(rule_configs.confusion(),
                        rule_parameters={"category_no": "15", "min_diag": "0.7", "max_off_diag": "0.3",
                                         "start_step": "17", "end_step": "19"})]
""",
    ),
    # --- awslabs/sagemaker-debugger-rulesconfig tests ------------------------------------------
    Entry(
        id="rulesconfig-profiler-report-lower-case-key",
        source=RULESCONFIG
        + "024631c563837e3611efc23a954e899485d1e335/tests/core/profiler_rules/test_profiler_report_rule.py "
        "(test_valid_profiler_report_rule_custom_params: 'case of parameter doesn't matter')",
        code="rules = [ProfilerRule.sagemaker(rule_configs.ProfilerReport(cpubottleneck_threshold=20))]\n",
    ),
    Entry(
        id="rulesconfig-stop-training-custom-prefix",
        source=RULESCONFIG + "43cd16cb0679d1acb57c9b62d57b7cb296229cc8/tests/core/actions/test_actions.py "
        "(test_custom_stop_training_action)",
        code='rules = [Rule.sagemaker(rule_configs.loss_not_decreasing(), '
             'actions=rule_configs.StopTraining("training-job-prefix"))]\n',
        note="the test builds the action alone; it is put on LossNotDecreasing here",
    ),
    # --- tests/unit/sagemaker/workflow/test_steps.py ------------------------------------------
    Entry(
        id="sdk-unit-steps-empty-rules-profiler-500",
        source=UNIT_STEPS + " (test_training_step_base_estimator and two more: rules=[] with a ProfilerConfig)",
        instance_type="ml.c5.4xlarge",
        code="rules = []\nprofiler_config = ProfilerConfig(system_monitor_interval_millis=500)\n",
    ),
]
