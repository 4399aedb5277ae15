"""A launcher that renders the Debugger fields and writes them for another tool (no job started here), its values
from variables. Seeded mistakes: a collection saved every 0 steps (SMD132, an error: the render refuses it in a user's
call), an unknown rule parameter (SMD120) and a rule built and never used, with a parameter of the wrong type
(SMD121: the request check's, so in no job and not reported). plan reports each once, at the render's line with the
request's pointer."""
import json
import sys

from sm_debug_config import CollectionConfig, DebuggerHookConfig, Rule, render, rule_configs

interval = "0"
weights = CollectionConfig("weights", {"save_interval": interval})
unused = Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={"num_steps": "abc"})
fields = render(
    debugger_hook_config=DebuggerHookConfig(collection_configs=[weights]),
    rules=[Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"treshold": "0.1"})],
    region="us-east-1",
    output_path="s3://my-bucket/out/",
)
json.dump(fields, sys.stderr)
