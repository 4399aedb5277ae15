"""An installed botocore too old for the fields we send is named before the API is called (issue 10)."""
import copy

import pytest

from sm_debug_config import (
    ConfigError,
    ProfilerRule,
    Rule,
    render,
    rule_configs,
)
from sm_debug_config.validation.installed_botocore import check_botocore, missing_fields

US = dict(region="us-east-1", output_path="s3://bucket/out/")


def _model_without(shape_name, member):
    import botocore.model
    import botocore.session

    loader = botocore.session.get_session().get_component("data_loader")
    raw = copy.deepcopy(loader.load_service_model("sagemaker", "service-2"))
    del raw["shapes"][shape_name]["members"][member]
    return botocore.model.ServiceModel(raw, service_name="sagemaker")


def test_old_botocore_is_named_before_calling_the_api():
    fields = render([Rule.sagemaker(rule_configs.overfit())], **US)
    check_botocore(fields)  # the installed botocore knows everything we send
    old = _model_without("ProfilerConfig", "DisableProfiler")
    assert missing_fields(fields, service_model=old) == ["ProfilerConfig.DisableProfiler"]
    with pytest.raises(ConfigError, match=r"ProfilerConfig.DisableProfiler.*botocore >= \d"):
        check_botocore(fields, service_model=old)
    older = _model_without("CreateTrainingJobRequest", "ProfilerRuleConfigurations")
    with pytest.raises(ConfigError, match="ProfilerRuleConfigurations"):
        check_botocore(render([ProfilerRule.sagemaker(rule_configs.ProfilerReport())], **US), service_model=older)
