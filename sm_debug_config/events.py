"""Public import path of rule events and the Lambda handler; they live in :mod:`sm_debug_config.operations.events`.

``Handler: sm_debug_config.events.lambda_handler`` is what deployed CloudFormation templates
name, so this path stays.
"""
from sm_debug_config.operations.events import (
    ENV_INCLUDE_PROFILER,
    ENV_LOG_LEVEL,
    ENV_RULE_NAMES,
    EVENT_DETAIL_TYPE,
    EVENT_PATTERN_MAX_CHARS,
    EVENT_SOURCE,
    RULE_EVALUATION_STATUSES,
    RULE_STATUS_KEYS,
    TRAINING_JOB_STATUSES,
    Outcome,
    command_line_pattern,
    configure_json_logging,
    event_pattern,
    lambda_handler,
    react_to_event,
    rules_with_issues,
    sagemaker_client_for,
    stop_training_job_on_issues,
)

__all__ = [
    "ENV_INCLUDE_PROFILER",
    "ENV_LOG_LEVEL",
    "ENV_RULE_NAMES",
    "EVENT_DETAIL_TYPE",
    "EVENT_PATTERN_MAX_CHARS",
    "EVENT_SOURCE",
    "RULE_EVALUATION_STATUSES",
    "RULE_STATUS_KEYS",
    "TRAINING_JOB_STATUSES",
    "Outcome",
    "command_line_pattern",
    "configure_json_logging",
    "event_pattern",
    "lambda_handler",
    "react_to_event",
    "rules_with_issues",
    "sagemaker_client_for",
    "stop_training_job_on_issues",
]
