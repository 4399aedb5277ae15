"""A user's rule list for a TensorFlow job (issue 36): 22 rules (SMD102), two that want different include_regex
of one collection (a merge conflict, SMD002) and a collection that is not built in without include_regex
(SMD114)."""
from sm_debug_config import CollectionConfig, Rule, rule_configs

rules = [Rule.sagemaker(rule_configs.overfit(), name=f"overfit-{i}") for i in range(19)]
rules += [
    Rule.sagemaker(rule_configs.loss_not_decreasing(), name="loss-a",
                   collections_to_save=[CollectionConfig("metrics", {"include_regex": "loss.*"})]),
    Rule.sagemaker(rule_configs.loss_not_decreasing(), name="loss-b",
                   collections_to_save=[CollectionConfig("metrics", {"include_regex": "acc.*"})]),
    Rule.sagemaker(rule_configs.all_zero(), name="zeros", collections_to_save=[CollectionConfig("my_tensors")]),
]
