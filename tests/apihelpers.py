"""Helpers of the API-limits tests (test_apischema.py and test_apischema_sources.py)."""
from sm_debug_config.apischema import validate_api

#: Pipelines placeholders the schema check skips (they are resolved at run time), one of each form.
PLACEHOLDERS = [
    {"Get": "Parameters.OutputPath"},
    {"Std:Join": {"On": "/", "Values": ["s3://b", {"Get": "Execution.PipelineExecutionId"}]}},
    {"Std:JsonGet": {"Path": "a"}},
]


def pairs(request, engine, operation="CreateTrainingJob"):
    return sorted({(e.path, e.keyword) for e in validate_api(request, engine=engine, operation=operation)})
