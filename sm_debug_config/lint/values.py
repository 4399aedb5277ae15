"""What lint's evaluator holds for a value: the Python value itself when it is known statically, else one of
the kinds here (:class:`Unknown` and its refinements, an imported :class:`Module`, one of our callables as a
:class:`Target`, a recorded :class:`SourceCall`), with the tests every step asks of them (:func:`is_known`).

>>> is_known([1, "a", {"k": None}]), is_known([1, Unknown(None, "bucket")])
(True, False)
"""

from __future__ import annotations

import ast
from typing import Any, Dict, Iterator, List, Optional, Set

import attrs

#: Python 3.8 has no ast.unparse: notes then name the expression less precisely.
_UNPARSE = getattr(ast, "unparse", None)


class Unknown:
    """A value known only when the code runs; passed to our constructors as a pipeline-variable look-alike
    (``expr`` and ``to_string()``), which they accept where a value may come later."""

    def __init__(self, node: Optional[ast.AST], text: Optional[str] = None) -> None:
        self.node, self._text = node, text

    @property
    def text(self) -> str:
        """The expression as written (computed when a note needs it: most unknowns are never reported)."""
        if self._text is None:
            self._text = text_of(self.node) if self.node is not None else ""
        return self._text

    @property
    def expr(self) -> Dict[str, str]:
        return {"Get": f"Lint.{id(self)}"}

    def to_string(self) -> "Unknown":
        return self

    def __repr__(self) -> str:
        return f"Unknown({self.text!r})"


class Partial(Unknown):
    """A string built from known and unknown parts: ``prefix`` is its known text before the first unknown part,
    ``suffix`` after the last (``f"s3://{bucket}/tb"``: ``"s3://"`` and ``"/tb"``). The constructors check what the
    prefix tells (:func:`~sm_debug_config.model.validators.known_prefix`): an S3 URI, an absolute path."""

    def __init__(self, node: Optional[ast.AST], text: str, suffix: str, prefix: str = "") -> None:
        super().__init__(node, text)
        self.suffix, self.prefix = suffix, prefix


class ImageSpec(Unknown):
    """``image_uris.retrieve(framework, region, version)`` with framework and version known (the region may not be)."""

    def __init__(self, node: Optional[ast.AST], text: str, framework: str, version: str) -> None:
        super().__init__(node, text)
        self.framework, self.version = framework, version


class Function(Unknown):
    """A function (``def`` or ``lambda``) of the source: called with arguments, lint follows its body
    (:meth:`~.evaluate.Evaluator.follow`); as a value it is known only at run time. ``scope``: where it was defined,
    ``defaults``: its default values, evaluated there; ``cell``: the piece it was defined in."""

    def __init__(self, node: ast.AST, name: str, scope: Any, defaults: List[Any], kw_defaults: List[Any],
                 cell: int) -> None:
        super().__init__(node, name)
        self.definition: Any = node  # an ast.FunctionDef, ast.AsyncFunctionDef or ast.Lambda
        self.name, self.scope, self.defaults, self.kw_defaults, self.cell = name, scope, defaults, kw_defaults, cell
        self.followed = 0  # calls followed
        self.decorated = False


class Method(Unknown):
    """A method of a value lint follows, not yet called: ``trainer.with_checkpoint_config`` returns the trainer."""

    def __init__(self, node: Optional[ast.AST], owner: Any, name: str) -> None:
        super().__init__(node)
        self.owner, self.name = owner, name


class Module:
    """An imported module (or an attribute chain of one that names nothing of ours)."""

    def __init__(self, path: str) -> None:
        self.path = path


class Target:
    """One of our callables, an Estimator class (``estimator:<class>``), ``retrieve`` or ``attach_debugger``;
    ``module``: where the source imported it from (``sagemaker.debugger``, ``sm_debug_config``...)."""

    def __init__(self, name: str, module: str = "") -> None:
        self.name, self.module = name, module

    @property
    def library(self) -> str:
        """Whose object a call makes: ``"sdk"`` (``sagemaker.debugger``, SDK v2), ``"sdk-v3"``
        (``sagemaker.core.debugger``) or ``"ours"`` (this package, and ``rule_configs`` wherever it comes from)."""
        if self.module == "sagemaker.core.debugger" or self.module.startswith("sagemaker.core.debugger."):
            return "sdk-v3"
        if self.module == "sagemaker.debugger" or self.module.startswith("sagemaker.debugger."):
            return "sdk"
        return "ours"


class SourceCall:
    """A call of a :class:`Target`: its arguments by parameter name, and the source node of each; ``module`` and
    ``library`` are the target's."""

    def __init__(
        self, target: str, node: ast.Call, args: Dict[str, Any], nodes: Dict[str, ast.AST], module: str = ""
    ) -> None:
        self.target, self.node, self.args, self.nodes = target, node, args, nodes
        self.module = module
        self.library = Target(target, module).library
        #: argument -> the literal its value was written as (:attr:`~.evaluate.Evaluator.written`), for fixes
        self.literals: Dict[str, ast.AST] = {}
        self.built: Any = None
        self.state = "new"  # new, built, failed
        self.consumed = False
        self.nested = False


def argument_of(call: SourceCall, part: Any) -> Optional[str]:
    """The argument of ``call`` that a path part names: a parameter, or an attribute stored under another name
    (``collection_configs`` is given as ``collections_to_save``)."""
    if not isinstance(part, str):
        return None
    if part in call.args:
        return part
    obj_type = call.built.__class__ if call.built is not None else None
    if obj_type is not None and attrs.has(obj_type):
        for field in attrs.fields(obj_type):
            if field.name == part and field.alias in call.args:
                return str(field.alias)
    return None


class Arguments:
    """The arguments of a call as evaluated: values in order and by keyword, the source node of each, and whether a
    ``*args``/``**kwargs`` of unknown content hides some (``splat_unknown``)."""

    def __init__(self) -> None:
        self.positional: List[Any] = []
        self.keywords: Dict[str, Any] = {}
        self.positional_nodes: List[ast.AST] = []
        self.keyword_nodes: Dict[str, ast.AST] = {}
        #: the literal each value was written as (None: computed), in order and by keyword
        self.positional_literals: List[Optional[ast.AST]] = []
        self.keyword_literals: Dict[str, Optional[ast.AST]] = {}
        self.splat_unknown = False


class Item:
    """Where a dict's key was written: the ``display`` (``{...}``, or a ``dict(k=v)`` call) and the item's ``index``
    in it (a call: its keyword's; None: set by ``d[k] = v``), and the literals its key (None for a keyword) and its
    value were written as (None: computed)."""

    __slots__ = ("display", "index", "key", "value")

    def __init__(self, display: Optional[ast.AST], index: Optional[int], key: Optional[ast.AST],
                 value: Optional[ast.AST]) -> None:
        self.display, self.index, self.key, self.value = display, index, key, value


#: A name not bound (``del x``, or never assigned): not the same as ``None``.
MISSING = object()


def walk_values(value: Any) -> Iterator[Any]:
    """``value`` and everything inside its lists, tuples and dict values, each once (a list may hold itself)."""
    stack = [value]
    seen: Set[int] = set()
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        yield item
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())


def unparse(node: ast.AST) -> str:
    """The source of ``node`` (a bare name only, on Python 3.8)."""
    if _UNPARSE is None:
        return node.id if isinstance(node, ast.Name) else "an expression"
    return str(_UNPARSE(node))


def text_of(node: ast.AST) -> str:
    """The source of ``node`` for a message, at most 80 characters."""
    try:
        text = unparse(node)
    except Exception:  # noqa: BLE001 - only for a message
        return "an expression"
    return text if len(text) <= 80 else text[:77] + "..."


def is_known(value: Any) -> bool:
    """A plain Python value all through: nothing unknown, imported or recorded inside (walked without recursion:
    a loop may nest a list a thousand deep)."""
    if not isinstance(value, (list, tuple, dict)):
        return not isinstance(value, (Unknown, Module, Target, SourceCall)) and value is not MISSING
    return all(
        not isinstance(item, (Unknown, Module, Target, SourceCall)) and item is not MISSING
        for item in walk_values(value)
    )


def is_hashable(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool, type(None))) or (
        isinstance(value, tuple) and all(is_hashable(v) for v in value)
    )


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
