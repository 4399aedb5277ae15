"""How lint follows a source's control flow: the names in effect (:class:`Scope`), the bounds (:class:`Limits`), a
loop or call being followed (:class:`Frame`, left early by :class:`Exit`), and what a block or function binds or
changes, read from its syntax tree.
"""

from __future__ import annotations

import ast
import inspect
from typing import Any, Dict, Iterator, List, Optional, Set, Tuple

import attrs

from sm_debug_config.lint.values import MISSING, Function

#: Python 3.8 wraps a subscript in ast.Index.
_INDEX = getattr(ast, "Index", ())


@attrs.frozen
class Limits:
    """How far lint follows code: past ``soft_steps`` or ``seconds``, no more loops or calls are followed (each
    said as not checked); past ``hard_steps`` the file is too complex to lint."""

    depth: int = 12  # calls of the source's own functions inside one another
    loop: int = 1_000  # iterations of one loop or comprehension
    iterations: int = 20_000  # iterations in the whole file
    soft_steps: int = 100_000
    hard_steps: int = 200_000
    seconds: float = 5.0


LIMITS = Limits()


class Scope:
    """Names in effect: values by name; ``parent``: the enclosing scope, of which only ``visible`` names are seen when
    given (a function walked without a call sees the module names bound once)."""

    def __init__(self, parent: Optional["Scope"] = None, visible: Optional[Set[str]] = None) -> None:
        self.names: Dict[str, Any] = {}
        self.parent, self.visible = parent, visible
        self.star_unknown = False
        self.globals: Set[str] = set()
        self.origins: Dict[str, ast.AST] = {}  # a parameter -> where the call wrote its value
        #: a name -> the literal its value was written as (for fixes: a value is edited where it was written)
        self.literals: Dict[str, ast.AST] = {}

    def holder(self, name: str) -> "Scope":
        """The scope ``name`` is bound in (itself when none is)."""
        scope: Optional[Scope] = self
        while scope is not None:
            if name in scope.names:
                return scope
            if scope.parent is None or (scope.visible is not None and name not in scope.visible):
                break
            scope = scope.parent
        return self

    def get(self, name: str) -> Any:
        if name in self.names:
            return self.names[name]
        if self.parent is not None and (self.visible is None or name in self.visible):
            return self.parent.get(name)
        return MISSING

    def origin(self, name: str) -> Optional[ast.AST]:
        holder = self.holder(name)
        return holder.origins.get(name)

    def literal(self, name: str) -> Optional[ast.AST]:
        """The literal the value of ``name`` was written as, if it is one."""
        return self.holder(name).literals.get(name)


class Exit(Exception):
    """``break``, ``continue`` or ``return`` of code followed for certain."""

    def __init__(self, kind: str, value: Any = None, literal: Optional[ast.AST] = None) -> None:
        super().__init__(kind)
        self.kind, self.value = kind, value
        self.literal = literal  # the literal a returned value was written as


class Frame:
    """A loop or a function call being followed: ``unsure`` when an exit inside it was not certain to happen."""

    def __init__(self, kind: str, doubt: int, effects: int) -> None:
        self.kind, self.doubt, self.effects = kind, doubt, effects
        self.unsure = False


def subscript_of(node: ast.Subscript) -> Any:
    inner: Any = node.slice
    return inner.value if _INDEX and isinstance(inner, _INDEX) else inner


def parameters(arguments: ast.arguments) -> Iterator[Tuple[str, ast.arg]]:
    for arg in getattr(arguments, "posonlyargs", []) + arguments.args + arguments.kwonlyargs:
        yield arg.arg, arg
    for extra in (arguments.vararg, arguments.kwarg):
        if extra is not None:
            yield extra.arg, extra


def signature_of(function: Function) -> inspect.Signature:
    """The Python signature of a source function, its defaults the values evaluated at its definition."""
    arguments = function.definition.args  # type: ignore[attr-defined]
    kind = inspect.Parameter
    ordered = getattr(arguments, "posonlyargs", []) + arguments.args
    first_default = len(ordered) - len(function.defaults)
    params: List[inspect.Parameter] = []
    for index, arg in enumerate(ordered):
        default = function.defaults[index - first_default] if index >= first_default else kind.empty
        positional_only = index < len(getattr(arguments, "posonlyargs", []))
        params.append(kind(arg.arg, kind.POSITIONAL_ONLY if positional_only else kind.POSITIONAL_OR_KEYWORD,
                           default=default))
    if arguments.vararg is not None:
        params.append(kind(arguments.vararg.arg, kind.VAR_POSITIONAL))
    for arg, default in zip(arguments.kwonlyargs, function.kw_defaults):
        params.append(kind(arg.arg, kind.KEYWORD_ONLY, default=kind.empty if default is MISSING else default))
    if arguments.kwarg is not None:
        params.append(kind(arguments.kwarg.arg, kind.VAR_KEYWORD))
    return inspect.Signature(params)


def stored_names(node: ast.AST) -> Tuple[Set[str], Set[str]]:
    """``(bound, called)``: names a block binds, and names it calls a method of or sets an item or attribute of."""
    bound: Set[str] = set()
    called: Set[str] = set()
    for inner in ast.walk(node):
        if isinstance(inner, ast.Name) and isinstance(inner.ctx, (ast.Store, ast.Del)):
            bound.add(inner.id)
        elif isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute):
            if isinstance(inner.func.value, ast.Name):
                called.add(inner.func.value.id)
        elif isinstance(inner, (ast.Subscript, ast.Attribute)) and isinstance(inner.ctx, ast.Store):
            if isinstance(inner.value, ast.Name):
                called.add(inner.value.id)
        elif isinstance(inner, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in inner.names)
        elif isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(inner.name)
    return bound, called


def changed_outside(node: ast.AST) -> Set[str]:
    """Names a function not followed may change outside itself: its globals, and the names it calls a method of
    or sets an item or attribute of without binding them."""
    local = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        local.update(name for name, _ in parameters(node.args))
    out: Set[str] = set()
    for inner in ast.walk(node):
        if isinstance(inner, ast.Global):
            out.update(inner.names)
        elif isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute):
            if isinstance(inner.func.value, ast.Name):
                out.add(inner.func.value.id)
        elif (
            isinstance(inner, (ast.Subscript, ast.Attribute))
            and isinstance(inner.ctx, ast.Store)
            and isinstance(inner.value, ast.Name)
        ):
            out.add(inner.value.id)
    return out - local


def is_generator(node: ast.AST) -> bool:
    body = getattr(node, "body", [])
    if not isinstance(body, list):
        return False
    stack: List[ast.AST] = list(body)
    while stack:
        inner = stack.pop()
        if isinstance(inner, (ast.Yield, ast.YieldFrom)):
            return True
        if not isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(inner))
    return False
