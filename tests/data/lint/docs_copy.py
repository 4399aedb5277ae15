# Written for sm-debug-config's lint tests. Imitates aws/sagemaker-python-sdk
# @002f42220c7b229dbc23f127a08450c4bc9ea1d9 doc/amazon_sagemaker_debugger.rst ("Sample Usages",
# example 3: placeholder rule and collection parameters left in); not a copy.
from sagemaker.debugger import Rule, CollectionConfig
from smdebug_rulesconfig import weight_update_ratio

rules = [
    Rule.sagemaker(
        base_config=weight_update_ratio(),
        rule_parameters={"key1": "value1", "key2": "value2"},
        collections_to_save=[
            CollectionConfig(name="custom_collection_name", parameters={"key1": "value1", "key2": "value2"}),
        ],
    )
]
