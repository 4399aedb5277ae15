"""Workshops, books and projects that people built on the SDK v2.

* data-science-on-aws/data-science-on-aws (the "Data Science on AWS" book's workshop), commit
  1b17cb7eaa587e966bf3f64b1aabe853d6c5a64c: its BERT notebook is the widely copied one of issue 14.
* DannyLCG/aws_udacity_capstone_project: a Udacity capstone's submission script.
"""
from . import Entry

_DSOAWS = "https://github.com/data-science-on-aws/data-science-on-aws/blob/1b17cb7eaa587e966bf3f64b1aabe853d6c5a64c/"
_BERT = _DSOAWS + "07_train/02_Train_Reviews_BERT_Transformers_TensorFlow_ScriptMode.ipynb"
_BERT_TF231 = _DSOAWS + "07_train/archive/99_Train_Reviews_BERT_Transformers_TensorFlow_ScriptMode_TF231_Profiler.ipynb"
_CAPSTONE = "https://github.com/DannyLCG/aws_udacity_capstone_project/blob/"

_BERT_HOOK = """
hook = DebuggerHookConfig(hook_parameters={
    "save_interval": "10",  # number of steps
    "export_tensorboard": "true",
    "tensorboard_dir": "hook_tensorboard/",
})
"""
_BERT_PROFILER = """
profiler_config = ProfilerConfig(
    system_monitor_interval_millis=500,
    framework_profile_params=FrameworkProfile(local_path="/opt/ml/output/profiler/", start_step=5, num_steps=10),
)
"""
_BERT_RULES_WITH_COLLECTIONS = """
actions = rule_configs.ActionList()
losses_and_metrics = [
    CollectionConfig(name="losses", parameters={"save_interval": "10"}),
    CollectionConfig(name="metrics", parameters={"save_interval": "10"}),
]
rules = [
    Rule.sagemaker(
        base_config=rule_configs.loss_not_decreasing(),
        rule_parameters={"collection_names": "losses,metrics", "use_losses_collection": "true", "num_steps": "10", \
"diff_percent": "50"},
        collections_to_save=losses_and_metrics,
        actions=actions,
    ),
    Rule.sagemaker(
        base_config=rule_configs.overtraining(),
        rule_parameters={"collection_names": "losses,metrics", "patience_train": "10", "patience_validation": "10", \
"delta": "0.5"},
        collections_to_save=losses_and_metrics,
        actions=actions,
    ),
]
"""

ENTRIES = [
    Entry(
        id="dsoaws-bert-profiler-report-tensorboard-dir",
        source=_BERT + " (cells 35, 37)",
        framework="tensorflow",
        instance_type="ml.p3.2xlarge",
        code="rules = [ProfilerRule.sagemaker(rule_configs.ProfilerReport())]\n" + _BERT_HOOK + _BERT_PROFILER,
    ),
    Entry(
        id="dsoaws-bert-all-profiler-rules",
        source=_BERT + " (cell 35: the profiler rules listed there, commented out in this version, active in the book)",
        framework="tensorflow",
        instance_type="ml.p3.2xlarge",
        code="""
rules = [
    ProfilerRule.sagemaker(rule_configs.ProfilerReport()),
    ProfilerRule.sagemaker(rule_configs.BatchSize()),
    ProfilerRule.sagemaker(rule_configs.CPUBottleneck()),
    ProfilerRule.sagemaker(rule_configs.GPUMemoryIncrease()),
    ProfilerRule.sagemaker(rule_configs.IOBottleneck()),
    ProfilerRule.sagemaker(rule_configs.LoadBalancing()),
    ProfilerRule.sagemaker(rule_configs.LowGPUUtilization()),
    ProfilerRule.sagemaker(rule_configs.OverallSystemUsage()),
    ProfilerRule.sagemaker(rule_configs.StepOutlier()),
]
"""
        + _BERT_PROFILER,
    ),
    Entry(
        id="dsoaws-bert-rules-empty-actions",
        source=_BERT + " (cell 35: the debugger rules listed there, with the notebook's empty ActionList)",
        framework="tensorflow",
        instance_type="ml.p3.2xlarge",
        code=_BERT_RULES_WITH_COLLECTIONS,
    ),
    Entry(
        id="dsoaws-bert-tf231-rules-and-hook",
        source=_BERT_TF231 + " (cells 53, 55, 57)",
        framework="tensorflow",
        instance_type="ml.p3.2xlarge",
        code=_BERT_HOOK
        + _BERT_PROFILER
        + """
rules = [
    Rule.sagemaker(rule_configs.loss_not_decreasing()),
    Rule.sagemaker(rule_configs.overtraining()),
    ProfilerRule.sagemaker(rule_configs.ProfilerReport()),
    ProfilerRule.sagemaker(rule_configs.LowGPUUtilization()),
]
""",
    ),
    Entry(
        id="dsoaws-roberta-pytorch-hook",
        source=_DSOAWS + "07_train/pytorch/03_Train_Reviews_RoBERTa_Transformers_PyTorch_ScriptMode.ipynb (cell 23)",
        framework="pytorch",
        code="""
hook = DebuggerHookConfig(
    s3_output_path="s3://sagemaker-us-west-2-123456789012",
    hook_parameters={"save_interval": "10"},
    collection_configs=[CollectionConfig(name="all")],
)
""",
    ),
    Entry(
        id="dsoaws-xgboost-churn",
        source=_DSOAWS + "07_train/archive/extras/xgboost/xgboost_customer_churn_studio.ipynb (cell 19)",
        framework="xgboost",
        code="rules = [Rule.sagemaker(rule_configs.loss_not_decreasing())]\n",
    ),
    Entry(
        id="capstone-profiler-max-initialization-time",
        source=_CAPSTONE
        + "e1d9bc20ed351917a51d43c2f2c985d76495692b/.ipynb_checkpoints/submission_script-checkpoint.py",
        framework="pytorch",
        code="""
rules = [
    ProfilerRule.sagemaker(rule_configs.LowGPUUtilization()),
    ProfilerRule.sagemaker(rule_configs.CPUBottleneck()),
    ProfilerRule.sagemaker(rule_configs.MaxInitializationTime()),
    ProfilerRule.sagemaker(rule_configs.ProfilerReport()),
]
profiler_config = ProfilerConfig(system_monitor_interval_millis=500, \
framework_profile_params=FrameworkProfile(num_steps=10))
""",
    ),
    Entry(
        id="capstone-loss-not-decreasing-wrong-params",
        source="https://github.com/DannyLCG/aws_udacity_capstone_project submission_script.py (a later version in the "
        "stored index; its commit is not recorded)",
        framework="pytorch",
        instance_type="ml.g4dn.xlarge",
        code="""
rules = [
    Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={"max_patience": "10", "threshold": "0.01"}),
    Rule.sagemaker(rule_configs.vanishing_gradient()),
    ProfilerRule.sagemaker(rule_configs.LowGPUUtilization()),
    ProfilerRule.sagemaker(rule_configs.CPUBottleneck()),
    ProfilerRule.sagemaker(rule_configs.MaxInitializationTime()),
    ProfilerRule.sagemaker(rule_configs.ProfilerReport()),
]
hook = DebuggerHookConfig(hook_parameters={"train.save_interval": "100", "eval.save_interval": "10"})
profiler_config = ProfilerConfig(system_monitor_interval_millis=1000, \
framework_profile_params=FrameworkProfile(num_steps=5))
""",
    ),
]
