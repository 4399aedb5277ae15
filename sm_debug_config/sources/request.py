"""A ``CreateTrainingJob`` request (JSON, as boto3 or the SDK v3 send it): one job, checked as the API receives it;
a fix's change is made at the same path of the file, in its syntax.

>>> from sm_debug_config.configfile import read_text
>>> from sm_debug_config.engine import check
>>> found = read_text('{"DebugHookConfig": {"S3OutputPath": "my-bucket/o"}}', "request.json")
>>> [(f.code, f.line, f.column) for f in check(next(jobs(found, {})), {}).findings]
[('SMD100', 1, 22)]
"""
from __future__ import annotations

from typing import Any, Dict, Iterator, Optional, Sequence

from sm_debug_config.engine import Job
from sm_debug_config.findings import DEBUG_FIELDS, Finding
from sm_debug_config.fixes import Change, Edit
from sm_debug_config.rendering import Rendered

#: Besides the Debugger fields, the keys that make a document a CreateTrainingJob request, not a config file.
REQUEST_KEYS = ("TrainingJobName", "AlgorithmSpecification", "RoleArn", "OutputDataConfig", "ResourceConfig",
                "TrainingJobArn")


def detect(document: Any) -> bool:
    """Whether ``document`` is a request: a mapping with a Debugger field or a key only a request has."""
    return isinstance(document, dict) and bool(set(document) & set(DEBUG_FIELDS + REQUEST_KEYS))


def jobs(found: Any, settings: Dict[str, Any]) -> Iterator[Job]:
    """The one job of a request file: the request as written, each finding at its key."""

    def place(finding: Finding, rendered: Optional[Rendered]) -> Finding:
        line, column = found.locate(finding.path) or (None, None)
        return finding.replace(line=line, column=column)

    def edit(change: Change, rendered: Optional[Rendered]) -> Optional[Sequence[Edit]]:
        return found.edits(change)  # the request's paths are the file's

    yield Job(request=found.document, place=place, edit=edit)
