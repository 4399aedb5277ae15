"""model/regions: region names and partitions, where Debugger and the profiler run, and the rule images' URIs
(from the SDK v2's image table, data/regions.json)."""
import pytest

from sm_debug_config.errors import ConfigError
from sm_debug_config.model import regions


@pytest.mark.parametrize("region, partition", [("us-east-1", "aws"), ("cn-north-1", "aws-cn"),
                                               ("us-gov-west-1", "aws-us-gov")])
def test_partition_of_a_region(region, partition):
    assert regions.partition_of_region(region) == partition


@pytest.mark.parametrize("bad", ["moon-1", "", "US-EAST-1", 5, None])
def test_a_name_that_is_no_region_is_refused_naming_the_field(bad):
    assert not regions.is_region(bad)
    with pytest.raises(ConfigError) as info:
        regions.check_region(bad)
    assert info.value.field == "region"


def test_a_missing_region_says_how_to_give_one():
    with pytest.raises(ConfigError) as info:
        regions.required_region(None)
    assert info.value.field == "region"


def test_the_region_of_an_arn_and_of_an_image():
    assert regions.region_of_arn("arn:aws:sagemaker:eu-west-1:111122223333:training-job/x") == "eu-west-1"
    assert regions.region_of_arn("not an arn") is None
    image = regions.get_rule_container_image_uri("VanishingGradient", "eu-west-1")
    assert regions.region_of_image(image) == "eu-west-1"
    assert regions.region_of_image("my-registry/rules:1") is None


def test_custom_rules_run_in_the_evaluator_image_of_the_region():
    assert regions.get_custom_rule_evaluator_image_uri("eu-west-1").startswith("606966180310.dkr.ecr.eu-west-1.")


def test_trainium_instances_have_no_profiler():
    assert regions.supports_profiler("us-east-1", "ml.p3.2xlarge")
    assert not regions.supports_profiler("us-east-1", "ml.trn1.2xlarge")
    assert regions.supports_debugger("us-east-1")
