"""What every document kind yields: a request located in its document."""
from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Tuple, Union

import attrs

Path = Tuple[Union[str, int], ...]


@attrs.frozen
class Located:
    """One ``CreateTrainingJob`` ``request`` in a document: ``base`` is the document path of the object it
    was read from, ``label`` what a reader calls it there (``state Train``, ``step Train``...).

    ``renamed`` maps a request path to its document path where the two differ (a ``Key.$`` key, a
    Terraform block). ``anchor``, when the request was read from a string (a pipeline body in a template):
    the path of that string, where every position is then (``base`` is then the path inside the string).
    """

    base: Path
    request: Dict[str, Any]
    label: str
    renamed: Mapping[Path, Path] = attrs.field(factory=dict)
    anchor: Optional[Path] = None

    def document_path(self, path: Path) -> Path:
        """The document path of ``path`` (a path into :attr:`request`), as far as the document has it.

        >>> Located(("States", "T", "Parameters"), {}, "state T").document_path(("DebugHookConfig",))
        ('States', 'T', 'Parameters', 'DebugHookConfig')
        """
        for cut in range(len(path), -1, -1):
            head = tuple(path[:cut])
            if head in self.renamed:
                return self.base + self.renamed[head] + tuple(path[cut:])
        return self.base + tuple(path)

    def position_path(self, path: Path) -> Path:
        """The document path whose position stands for ``path``: :meth:`document_path`, or the :attr:`anchor`."""
        return self.anchor if self.anchor is not None else self.document_path(path)


def step_into(document: Any, path: Path) -> Any:
    """The value at ``path`` in ``document``, or None where it has none."""
    node = document
    for part in path:
        if isinstance(node, dict) and part in node:  # noqa: SIM114 - one branch per type keeps mypy's narrowing
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        else:
            return None
    return node


def interpolated(value: Any, intrinsic: str) -> Any:
    """``value`` with each string holding a ``${...}`` (an interpolation the deploying tool fills in) made a run-time
    value, ``{intrinsic: string}``: CloudFormation's ``Fn::Sub``, Terraform's references.

    >>> interpolated({"S3OutputPath": "s3://${Bucket}/out", "Names": ["a"]}, "Fn::Sub")
    {'S3OutputPath': {'Fn::Sub': 's3://${Bucket}/out'}, 'Names': ['a']}
    """
    if isinstance(value, dict):
        return {key: interpolated(item, intrinsic) for key, item in value.items()}
    if isinstance(value, list):
        return [interpolated(item, intrinsic) for item in value]
    return {intrinsic: value} if isinstance(value, str) and "${" in value else value
