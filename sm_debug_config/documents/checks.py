"""Where a request of an orchestration document is written: a finding of the request placed in the document.

The documents' source (:mod:`sm_debug_config.sources.documents`) places the engine's findings with it.
"""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence, Tuple


from sm_debug_config.configfile import DocumentLocator
from sm_debug_config.documents.base import Located

Locator = Callable[[Sequence[Any]], Optional[Tuple[int, int]]]


def position(located: Located, path: Sequence[Any], locate: Locator) -> Optional[Tuple[int, int]]:
    """``(line, column)`` in the file of request ``path`` of ``located``: where ``locate`` puts its document path;
    for a request read from JSON text in a string, the key inside the text, when ``locate`` is a
    :class:`~sm_debug_config.configfile.DocumentLocator` that places the string's characters; else the string's own
    key (the key of a value the text does not have: that of its deepest part the text has).

    >>> from sm_debug_config.configfile.document import parse_text
    >>> from sm_debug_config.documents import requests
    >>> text = ('Resources:\\n  P:\\n    Type: AWS::SageMaker::Pipeline\\n    Properties:\\n'
    ...         '      PipelineDefinition:\\n        PipelineDefinitionBody: |\\n'
    ...         '          {"Steps": [{"Type": "Training", "Arguments": {"RoleArn": "r"}}]}\\n')
    >>> parsed = parse_text(text, "t.yaml", None, require_mapping=False)
    >>> (found,) = requests(parsed.data())
    >>> position(found, ("RoleArn",), parsed.locator()), position(found, ("RoleArn",), lambda path: (6, 9))
    ((7, 57), (6, 9))
    """
    embedded = located.embedded
    if embedded is None:
        return locate(located.document_path(path))
    places = locate.string(embedded.at) if isinstance(locate, DocumentLocator) else None
    index = embedded.index(located.relative_path(path)) if places is not None else None
    found = places.position(index) if places is not None and index is not None else None
    return found or locate(embedded.at)
