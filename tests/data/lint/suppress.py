# Written for sm-debug-config's lint tests (our own): inline suppression comments.
from sagemaker.debugger import Rule, rule_configs

quiet = Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"threshhold": "0.1"})  # sm-debug-config: ignore[SMD120]
also_quiet = Rule.sagemaker(  # sm-debug-config: ignore[smd120]
    rule_configs.exploding_tensor(),
    rule_parameters={"only_nan": "True", "colection_names": "gradients"},
)
loud = Rule.sagemaker(rule_configs.overfit(), rule_parameters={"patiance": "2"})  # sm-debug-config: ignore[SMD999X]
