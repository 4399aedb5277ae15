# Written for sm-debug-config's lint tests. Imitates the "Collection Parameters" snippet of
# aws/sagemaker-python-sdk @002f42220c7b229dbc23f127a08450c4bc9ea1d9 doc/amazon_sagemaker_debugger.rst,
# which opens a call with ( and closes it with }; not a copy.
from sagemaker.debugger import CollectionConfig

collection = CollectionConfig(
    name="weights",
    parameters={"save_interval": "100"}
}
