"""Public import path of the boto3 integration (``from sm_debug_config.client import create_training_job``);
it lives in :mod:`sm_debug_config.integrations.boto3_client`."""
from sm_debug_config.integrations.boto3_client import (
    RULE_SOURCES_PREFIX,
    create_training_job,
    rule_source_uri,
    training_job_request,
    upload_rule_sources,
)

__all__ = [
    "RULE_SOURCES_PREFIX",
    "create_training_job",
    "rule_source_uri",
    "training_job_request",
    "upload_rule_sources",
]
