"""What every document kind yields: a request located in its document."""
from __future__ import annotations

import re
from typing import Any, Callable, Dict, Mapping, Optional, Sequence, Tuple, Union

import attrs

from sm_debug_config.configfile.jsonparse import JsonText

Path = Tuple[Union[str, int], ...]


@attrs.frozen
class Embedded:
    """JSON text held in a string of the document, that a request was read from (a pipeline definition in a
    template's ``PipelineDefinitionBody``): ``at`` is the document path of that string, ``json`` the text as
    read (character for character as long as the string, so an index in it is one in the string), ``base``
    the path of the request inside it.

    >>> body = Embedded(("Body",), JsonText('{"Steps": [{"Arguments": {"RoleArn": "r"}}]}'), ("Steps", 0, "Arguments"))
    >>> body.index(("RoleArn",)), body.index(("DebugHookConfig", "S3OutputPath"))  # the deepest key it has
    (26, 12)
    """

    at: Path
    json: JsonText = attrs.field(eq=False, repr=False)
    base: Path = ()

    def index(self, path: Sequence[Union[str, int]]) -> Optional[int]:
        """The index in the text of the key of ``path`` (below :attr:`base`), or of its deepest part the text has."""
        full = self.base + tuple(path)
        for depth in range(len(full), -1, -1):
            found = self.json.index(full[:depth])
            if found is not None:
                return found
        return None  # pragma: no cover - the text's root is always there


@attrs.frozen
class Located:
    """One ``CreateTrainingJob`` ``request`` in a document: ``base`` is the document path of the object it
    was read from, ``label`` what a reader calls it there (``state Train``, ``step Train``...).

    ``renamed`` maps a request path to its path below ``base`` where the two differ (a ``Key.$`` key, a
    Terraform block). ``embedded``, when the request was read from JSON text in a string (a pipeline body in a
    template): that text, where positions are then found (``base`` then ends with the path inside the text).
    """

    base: Path
    request: Dict[str, Any]
    label: str
    renamed: Mapping[Path, Path] = attrs.field(factory=dict)
    embedded: Optional[Embedded] = None

    def relative_path(self, path: Sequence[Union[str, int]]) -> Path:
        """The path below :attr:`base` of ``path`` (a path into :attr:`request`), as far as the document has it.

        >>> Located(("S",), {}, "state T", {("Name",): ("Name.$",)}).relative_path(("Name",))
        ('Name.$',)
        """
        for cut in range(len(path), -1, -1):
            head = tuple(path[:cut])
            if head in self.renamed:
                return self.renamed[head] + tuple(path[cut:])
        return tuple(path)

    def document_path(self, path: Sequence[Union[str, int]]) -> Path:
        """The document path of ``path`` (a path into :attr:`request`), as far as the document has it.

        >>> Located(("States", "T", "Parameters"), {}, "state T").document_path(("DebugHookConfig",))
        ('States', 'T', 'Parameters', 'DebugHookConfig')
        """
        return self.base + self.relative_path(path)


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


def substitution(text: str) -> Optional[str]:
    """``text`` as the literal string it stands for, or None when it holds a ``${...}`` substitution (a state
    machine's ``DefinitionSubstitutions``: no literal form).

    >>> substitution("s3://b/out"), substitution("s3://${Bucket}/out")
    ('s3://b/out', None)
    """
    return None if "${" in text else text


def fn_sub(text: str) -> Optional[str]:
    """``text`` of an ``Fn::Sub`` string as the literal string it stands for (``${!x}`` is ``${x}``), or None when
    it holds a substitution.

    >>> fn_sub("s3://b/${!Literal}"), fn_sub("s3://${Bucket}/out")
    ('s3://b/${Literal}', None)
    """
    return None if re.search(r"\$\{(?!!)", text) else text.replace("${!", "${")


def terraform_template(text: str) -> Optional[str]:
    """A Terraform string as the literal string it stands for (``$${x}`` is ``${x}``, ``%%{x}`` is ``%{x}``), or
    None when it holds an interpolation or a directive.

    >>> terraform_template("s3://b/$${literal}"), terraform_template("s3://${var.bucket}/out")
    ('s3://b/${literal}', None)
    """
    if re.search(r"(?<!\$)\$\{|(?<!%)%\{", text):
        return None
    return text.replace("$${", "${").replace("%%{", "%{")


def interpolated(value: Any, intrinsic: str, keep: Tuple[str, ...] = (),
                 literal: Callable[[str], Optional[str]] = substitution) -> Any:
    """``value`` with each string holding a ``${...}`` (an interpolation the deploying tool fills in) made a run-time
    value, ``{intrinsic: string}``: CloudFormation's ``Fn::Sub``, Terraform's references; a string that only
    escapes one is the literal it stands for (``literal``: :func:`fn_sub`, :func:`terraform_template`). A one-key
    object of a key of ``keep`` (a run-time value already: ``{"States.$": ...}``) is left as it is.

    >>> interpolated({"S3OutputPath": "s3://${Bucket}/out", "Names": ["a"]}, "Fn::Sub")
    {'S3OutputPath': {'Fn::Sub': 's3://${Bucket}/out'}, 'Names': ['a']}
    """
    if isinstance(value, dict):
        if len(value) == 1 and next(iter(value)) in keep:
            return value
        return {key: interpolated(item, intrinsic, keep, literal) for key, item in value.items()}
    if isinstance(value, list):
        return [interpolated(item, intrinsic, keep, literal) for item in value]
    if not isinstance(value, str) or "${" not in value and "%{" not in value:
        return value
    plain = literal(value)
    return {intrinsic: value} if plain is None else plain
