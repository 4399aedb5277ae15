"""The AWS example notebooks: aws/amazon-sagemaker-examples, sagemaker-debugger/.

Mostly from commit d45d28fe0612261dff8e7dc821e915be228359b5 (May 2023, the last layout with every
Debugger notebook under sagemaker-debugger/); notebooks removed before then from commit
35d69b4aa7d0e4e30ecb7b75ba379dbbc34109e9 (February 2021). ``s3://{BUCKET}/{LOCATION}`` paths
built from the session's default bucket are fixed here.
"""
from . import Entry

_EX = "https://github.com/aws/amazon-sagemaker-examples/blob/d45d28fe0612261dff8e7dc821e915be228359b5/sagemaker-debugger/"
_EX_2021 = "https://github.com/aws/amazon-sagemaker-examples/blob/35d69b4aa7d0e4e30ecb7b75ba379dbbc34109e9/sagemaker-debugger/"
_BUCKET = "s3://sagemaker-us-west-2-123456789012"

_PROFILING_RULES = """
rules = [
    Rule.sagemaker(rule_configs.loss_not_decreasing()),
    ProfilerRule.sagemaker(rule_configs.LowGPUUtilization()),
    ProfilerRule.sagemaker(rule_configs.ProfilerReport()),
]
"""


def _xgboost_hook(save_interval: int, names: str) -> str:
    configs = ",\n".join(
        f'        CollectionConfig(name="{n}", parameters={{"save_interval": str(save_interval)}})'
        for n in names.split()
    )
    return f"""
save_interval = {save_interval}
hook = DebuggerHookConfig(
    s3_output_path="{_BUCKET}/demo-smdebug-xgboost",
    collection_configs=[
{configs},
    ],
)
"""


ENTRIES = [
    Entry(
        id="ex-byoc-losses-and-rules",
        source=_EX + "build_your_own_container_with_debugger/debugger_byoc.ipynb (cells 25, 27)",
        framework="tensorflow",
        instance_type="ml.p3.16xlarge",
        code="""
train_save_interval = 100
eval_save_interval = 10
hook = DebuggerHookConfig(collection_configs=[
    CollectionConfig(name="losses", parameters={"train.save_interval": str(train_save_interval),
                                                "eval.save_interval": str(eval_save_interval)}),
])
rules = [
    Rule.sagemaker(rule_configs.vanishing_gradient()),
    Rule.sagemaker(rule_configs.overfit()),
    Rule.sagemaker(rule_configs.overtraining()),
    Rule.sagemaker(rule_configs.saturated_activation()),
    Rule.sagemaker(rule_configs.weight_update_ratio()),
]
""",
    ),
    Entry(
        id="ex-interactive-profiling-data",
        source=_EX + "debugger_interactive_analysis_profiling/interactive_analysis_profiling_data.ipynb (cell 10)",
        framework="tensorflow",
        instance_type="ml.p3.8xlarge",
        code="""
profiler_config = ProfilerConfig(
    system_monitor_interval_millis=500,
    framework_profile_params=FrameworkProfile(
        local_path="/opt/ml/output/profiler/",
        detailed_profiling_config=DetailedProfilingConfig(start_step=5, num_steps=3),
        dataloader_profiling_config=DataloaderProfilingConfig(start_step=5, num_steps=2),
        python_profiling_config=PythonProfilingConfig(start_step=9, num_steps=1),
    ),
)
""",
    ),
    Entry(
        id="ex-mnist-tensor-analysis",
        source=_EX + "mnist_tensor_analysis/mnist_tensor_analysis.ipynb (cells 5, 61)",
        framework="mxnet",
        code="""
hook = DebuggerHookConfig(collection_configs=[
    CollectionConfig(name="all", parameters={"include_regex": ".*", "save_interval": "100"}),
])
""",
    ),
    Entry(
        id="ex-mnist-tensor-plot",
        source=_EX + "mnist_tensor_plot/mnist-tensor-plot.ipynb (cell 7)",
        framework="mxnet",
        instance_type="ml.m4.xlarge",
        code=f"""
hook = DebuggerHookConfig(
    s3_output_path="{_BUCKET}/mnist-tensor-plot",
    collection_configs=[CollectionConfig(name="all_tensors", \
parameters={{"include_regex": ".*", "save_steps": "1, 2, 3"}})],
)
""",
    ),
    Entry(
        id="ex-autoencoder-mnist",
        source=_EX + "model_specific_realtime_analysis/autoencoder_mnist/autoencoder_mnist.ipynb (cell 8)",
        framework="mxnet",
        code=f"""
hook = DebuggerHookConfig(
    s3_output_path="{_BUCKET}/smdebug-autoencoder-example",
    collection_configs=[
        CollectionConfig(name="all", parameters={{
            "include_regex": \
".*convolutionalautoencoder0_hybridsequential0_dense0_output_0|.*convolutionalautoencoder0_input_1|.*loss",
            "save_interval": "10",
        }}),
    ],
)
""",
    ),
    Entry(
        id="ex-bert-attention-head-view",
        source=_EX
        + "model_specific_realtime_analysis/bert_attention_head_view/bert_attention_head_view.ipynb (cell 7)",
        framework="mxnet",
        instance_type="ml.p3.2xlarge",
        code=f"""
hook = DebuggerHookConfig(
    s3_output_path="{_BUCKET}/smdebug-output",
    collection_configs=[
        CollectionConfig(name="all", parameters={{
            "include_regex": ".*multiheadattentioncell0_output_1|.*key_output|.*query_output",
            "train.save_steps": "0",
            "eval.save_interval": "1",
        }}),
    ],
)
""",
    ),
    Entry(
        id="ex-cnn-class-activation-maps",
        source=_EX
        + "model_specific_realtime_analysis/cnn_class_activation_maps/cnn_class_activation_maps.ipynb (cells 19, 21)",
        framework="pytorch",
        instance_type="ml.p3.2xlarge",
        code="""
hook = DebuggerHookConfig(collection_configs=[
    CollectionConfig(name="custom_collection", parameters={
        "include_regex": ".*bn|.*bias|.*downsample|.*ResNet_input|.*image|.*fc_output|.*CrossEntropyLoss",
        "train.save_interval": "100",
        "eval.save_interval": "1",
    }),
])
class_imbalance_rule = Rule.sagemaker(
    base_config=rule_configs.class_imbalance(),
    rule_parameters={"labels_regex": "CrossEntropyLoss_input_1", "predictions_regex": "CrossEntropyLoss_input_0", \
"argmax": "True"},
)
rules = [class_imbalance_rule]
""",
    ),
    Entry(
        id="ex-mxnet-realtime-conv0",
        source=_EX + "mxnet_realtime_analysis/mxnet-realtime-analysis.ipynb (cell 8)",
        framework="mxnet",
        instance_type="ml.m4.xlarge",
        code=f"""
hook = DebuggerHookConfig(
    s3_output_path="{_BUCKET}/smdebug-real-time-demo",
    collection_configs=[CollectionConfig(name="conv0_tensors", parameters={{"include_regex": "conv0.*", \
"save_interval": "100"}})],
)
""",
    ),
    Entry(
        id="ex-mxnet-spot-vanishing-gradient",
        source=_EX + "mxnet_spot_training/mxnet-spot-training-with-sagemakerdebugger.ipynb (cell 8)",
        framework="mxnet",
        instance_type="ml.m4.xlarge",
        code="rules = [Rule.sagemaker(rule_configs.vanishing_gradient())]\n",
        note="the notebook also checkpoints (one instance, MXNet: the SDK keeps the hook)",
    ),
    Entry(
        id="ex-pruning-alexnet",
        source=_EX + "pytorch_iterative_model_pruning/iterative_model_pruning_alexnet.ipynb (cell 25)",
        framework="pytorch",
        instance_type="ml.p3.2xlarge",
        code="""
hook = DebuggerHookConfig(collection_configs=[
    CollectionConfig(name="custom_collection", parameters={"include_regex": ".*output|.*weight|.*bias", \
"save_interval": "100"}),
])
""",
    ),
    Entry(
        id="ex-pruning-resnet",
        source=_EX + "pytorch_iterative_model_pruning/iterative_model_pruning_resnet.ipynb (cell 26)",
        framework="pytorch",
        instance_type="ml.p3.2xlarge",
        code="""
hook = DebuggerHookConfig(collection_configs=[
    CollectionConfig(name="custom_collection", parameters={
        "include_regex": ".*relu|.*weight|.*bias|.*running_mean|.*running_var|.*CrossEntropyLoss",
        "save_interval": "100",
    }),
])
""",
    ),
    Entry(
        id="ex-pytorch-script-change",
        source=_EX + "pytorch_model_debugging/pytorch_script_change_smdebug.ipynb (cells 19, 22)",
        framework="pytorch",
        instance_type="ml.p2.xlarge",
        code="""
rules = [
    Rule.sagemaker(rule_configs.vanishing_gradient()),
    Rule.sagemaker(rule_configs.overfit()),
    Rule.sagemaker(rule_configs.overtraining()),
    Rule.sagemaker(rule_configs.poor_weight_initialization()),
]
hook = DebuggerHookConfig(hook_parameters={"train.save_interval": "100", "eval.save_interval": "10"})
""",
    ),
    Entry(
        id="ex-pt-profiling-multi-node",
        source=_EX + "pytorch_profiling/pt-resnet-profiling-multi-gpu-multi-node.ipynb (cells 9, 11)",
        framework="pytorch",
        instance_type="ml.p3.8xlarge",
        code=_PROFILING_RULES
        + """
profiler_config = ProfilerConfig(system_monitor_interval_millis=500, \
framework_profile_params=FrameworkProfile(start_step=5, num_steps=10))
""",
    ),
    Entry(
        id="ex-pt-profiling-single-node",
        source=_EX
        + "pytorch_profiling/pt-resnet-profiling-single-gpu-single-node.ipynb (cells 9, 11); "
        + _EX_2021
        + "pytorch_profiling/pt-resnet-profiling-multi-gpu-single-node.ipynb (cells 7, 9)",
        framework="pytorch",
        instance_type="ml.p3.2xlarge",
        code=_PROFILING_RULES
        + """
profiler_config = ProfilerConfig(system_monitor_interval_millis=500, \
framework_profile_params=FrameworkProfile(num_steps=10))
""",
    ),
    Entry(
        id="ex-tf2-keras-custom-container",
        source=_EX + "tensorflow2/tensorflow2_keras_custom_container/tf2-keras-custom-container.ipynb (cell 11); "
        "also tensorflow_action_on_rule/tf-mnist-stop-training-job.ipynb (cell 7)",
        framework="tensorflow",
        code="rules = [Rule.sagemaker(rule_configs.vanishing_gradient()), "
             "Rule.sagemaker(rule_configs.loss_not_decreasing())]\n",
    ),
    Entry(
        id="ex-tf2-keras-default-container",
        source=_EX + "tensorflow2/tensorflow2_zero_code_change/tf2-keras-default-container.ipynb (cells 11, 13)",
        framework="tensorflow",
        instance_type="ml.p2.xlarge",
        code="""
hook = DebuggerHookConfig(
    hook_parameters={"save_interval": "100"},
    collection_configs=[
        CollectionConfig("weights"),
        CollectionConfig(name="biases", parameters={"save_interval": "10", "end_step": "500"}),
    ],
)
rules = [Rule.sagemaker(rule_configs.vanishing_gradient()), Rule.sagemaker(rule_configs.loss_not_decreasing())]
""",
    ),
    Entry(
        id="ex-stalled-training-stop",
        source=_EX + "tensorflow_action_on_rule/detect_stalled_training_job_and_actions.ipynb (cells 11, 12)",
        framework="tensorflow",
        instance_type="ml.m5.4xlarge",
        code="""
actions = rule_configs.StopTraining()
rules = [Rule.sagemaker(base_config=rule_configs.stalled_training_rule(), rule_parameters={"threshold": "60"}, \
actions=actions)]
""",
    ),
    Entry(
        id="ex-tf-mnist-builtin-rule",
        source=_EX + "tensorflow_builtin_rule/tf-mnist-builtin-rule.ipynb (cell 13)",
        framework="tensorflow",
        code=(
            "rules = [Rule.sagemaker(rule_configs.overfit()), "
            "ProfilerRule.sagemaker(rule_configs.ProfilerReport())]\n"
        ),
    ),
    Entry(
        id="ex-tf-keras-custom-rule",
        source=_EX + "tensorflow_keras_custom_rule/tf-keras-custom-rule.ipynb (cell 10)",
        framework="tensorflow",
        files=("rules/my_custom_rule.py",),
        code="""
custom_rule = Rule.custom(
    name="MyCustomRule",
    image_uri="759209512951.dkr.ecr.us-west-2.amazonaws.com/sagemaker-debugger-rule-evaluator:latest",
    instance_type="ml.t3.medium",
    source="rules/my_custom_rule.py",
    rule_to_invoke="CustomGradientRule",
    volume_size_in_gb=30,
    collections_to_save=[CollectionConfig("gradients")],
    rule_parameters={"threshold": "20.0"},
)
rules = [custom_rule]
""",
    ),
    Entry(
        id="ex-sentiment-profiling",
        source=_EX
        + "tensorflow_nlp_sentiment_analysis/sentiment-analysis-tf-distributed-training-bringyourownscript.ipynb (cell "
          "32)",
        framework="tensorflow",
        instance_type="ml.p3.8xlarge",
        code="profiler_config = ProfilerConfig(framework_profile_params=FrameworkProfile(start_step=2, num_steps=7))\n",
    ),
    Entry(
        id="ex-callback-bottleneck",
        source=_EX + "tensorflow_profiling/callback_bottleneck.ipynb (cells 11, 13)",
        framework="tensorflow",
        instance_type="ml.p2.xlarge",
        code="""
profiler_config = ProfilerConfig(
    system_monitor_interval_millis=500,
    framework_profile_params=FrameworkProfile(local_path="/opt/ml/output/profiler/", start_step=5, num_steps=2),
)
hook = DebuggerHookConfig(
    hook_parameters={"save_interval": "50"},
    collection_configs=[
        CollectionConfig(name="outputs"),
        CollectionConfig(name="gradients"),
        CollectionConfig(name="weights"),
        CollectionConfig(name="layers"),
    ],
)
""",
    ),
    Entry(
        id="ex-low-batch-size",
        source=_EX + "tensorflow_profiling/low_batch_size.ipynb (cell 8)",
        framework="tensorflow",
        instance_type="ml.p2.xlarge",
        code="""
profiler_config = ProfilerConfig(
    system_monitor_interval_millis=500,
    framework_profile_params=FrameworkProfile(local_path="/opt/ml/output/profiler/", start_step=5, num_steps=2),
)
""",
    ),
    Entry(
        id="ex-tf-resnet-profiling",
        source=_EX + "tensorflow_profiling/tf-resnet-profiling-multi-gpu-multi-node.ipynb (cells 10, 12); "
        "also tf-resnet-profiling-single-gpu-single-node.ipynb (cells 9, 11)",
        framework="tensorflow",
        instance_type="ml.p3.8xlarge",
        code=_PROFILING_RULES
        + """
profiler_config = ProfilerConfig(
    system_monitor_interval_millis=500,
    framework_profile_params=FrameworkProfile(local_path="/opt/ml/output/profiler/", start_step=5, num_steps=10),
)
""",
    ),
    Entry(
        id="ex-xgboost-census-explanations",
        source=_EX + "xgboost_census_explanations/xgboost-census-debugger-rules.ipynb (cell 28)",
        framework="xgboost",
        instance_type="ml.m5.4xlarge",
        code=_xgboost_hook(5, "metrics feature_importance full_shap average_shap")
        + """
rules = [Rule.sagemaker(rule_configs.loss_not_decreasing(),
                        rule_parameters={"collection_names": "metrics", "num_steps": str(save_interval * 2)})]
""",
    ),
    Entry(
        id="ex-xgboost-regression-rules",
        source=_EX_2021 + "xgboost_builtin_rules/xgboost-regression-debugger-rules.ipynb (cell 10)",
        framework="xgboost",
        code=_xgboost_hook(5, "metrics feature_importance average_shap")
        + """
rules = [Rule.sagemaker(rule_configs.loss_not_decreasing(),
                        rule_parameters={"collection_names": "metrics", "num_steps": str(save_interval * 2)})]
""",
    ),
    Entry(
        id="ex-xgboost-realtime",
        source=_EX + "xgboost_realtime_analysis/xgboost-realtime-analysis.ipynb (cell 15)",
        framework="xgboost",
        code=_xgboost_hook(3, "metrics predictions labels"),
    ),
    Entry(
        id="ex-xgboost-training-report",
        source=_EX + "xgboost_training_report/higgs_boson_detection.ipynb (cell 13)",
        framework="xgboost",
        code="rules = [Rule.sagemaker(rule_configs.create_xgboost_report())]\n",
    ),
    Entry(
        id="ex-pytorch-byoc-smdebug",
        source=_EX_2021 + "pytorch_custom_container/pytorch_byoc_smdebug.ipynb (cell 13)",
        framework="pytorch",
        instance_type="ml.m4.xlarge",
        code="rules = [Rule.sagemaker(rule_configs.vanishing_gradient())]\n",
    ),
]
