"""A user's rule list for a TensorFlow job (issue 36): 22 rules (SMD102), two that want different reductions of one
collection (the merge sends the last, SMD116; different include_regex are merged since issue 37) and a collection
that is not built in without include_regex (SMD114)."""
from sm_debug_config import CollectionConfig, Rule, rule_configs

rules = [Rule.sagemaker(rule_configs.overfit(), name=f"overfit-{i}") for i in range(19)]
rules += [
    Rule.sagemaker(rule_configs.loss_not_decreasing(), name="loss-a",
                   collections_to_save=[CollectionConfig("metrics", {"include_regex": "loss.*", "reductions": "max"})]),
    Rule.sagemaker(rule_configs.loss_not_decreasing(), name="loss-b",
                   collections_to_save=[CollectionConfig("metrics", {"include_regex": "acc.*", "reductions": "min"})]),
    Rule.sagemaker(rule_configs.all_zero(), name="zeros", collections_to_save=[CollectionConfig("my_tensors")]),
]
