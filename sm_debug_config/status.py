"""Public import path of rule job status (``rule_job_summary``, ``format_summary_table``...);
it lives in :mod:`sm_debug_config.operations.status`."""
from sm_debug_config.operations.status import (
    ATTENTION_STATUSES,
    PROCESSING_JOB_LOG_GROUP,
    ProcessingJobArn,
    RuleJobRow,
    format_summary_table,
    log_url,
    rule_job_log_urls,
    rule_job_name,
    rule_job_summary,
)

__all__ = [
    "ATTENTION_STATUSES",
    "PROCESSING_JOB_LOG_GROUP",
    "ProcessingJobArn",
    "RuleJobRow",
    "format_summary_table",
    "log_url",
    "rule_job_log_urls",
    "rule_job_name",
    "rule_job_summary",
]
