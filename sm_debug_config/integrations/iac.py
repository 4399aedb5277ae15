"""The import path the README has documented for the infrastructure-as-code writers and ``from_terraform``.

Each format is one module that reads and writes it: :mod:`sm_debug_config.documents.cloudformation`,
:mod:`~sm_debug_config.documents.terraform`, :mod:`~sm_debug_config.documents.pipeline` and
:mod:`~sm_debug_config.documents.stepfunctions`. This path keeps the names the README gave for it.
"""
from sm_debug_config.documents.cloudformation import to_cloudformation, to_cloudformation_pipeline
from sm_debug_config.documents.pipeline import to_pipeline_definition
from sm_debug_config.documents.stepfunctions import to_step_functions_task
from sm_debug_config.documents.terraform import from_terraform, to_terraform

__all__ = [
    "from_terraform",
    "to_cloudformation",
    "to_cloudformation_pipeline",
    "to_pipeline_definition",
    "to_step_functions_task",
    "to_terraform",
]
