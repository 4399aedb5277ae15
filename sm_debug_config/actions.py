"""Public import path of the rule actions (``sm_debug_config.actions.StopTraining``); they live in
:mod:`sm_debug_config.model.actions`.

>>> from sm_debug_config.actions import StopTraining
>>> StopTraining("my-job").action_parameters["training_job_prefix"]
'my-job'
"""
from sm_debug_config.model.actions import (
    ACTION_JSON_MAX,
    SMS,
    Action,
    ActionList,
    Email,
    StopTraining,
    coerce_actions,
    is_valid_action_object,
    parse_action_json,
    rule_actions,
)

__all__ = [
    "ACTION_JSON_MAX",
    "SMS",
    "Action",
    "ActionList",
    "Email",
    "StopTraining",
    "coerce_actions",
    "is_valid_action_object",
    "parse_action_json",
    "rule_actions",
]
