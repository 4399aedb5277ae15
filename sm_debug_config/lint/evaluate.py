"""The static evaluator of ``lint``: what a source's Debugger calls are given, without running anything.

Statements are walked in order (a notebook's cells in order, as one namespace). Imports bind
names to what they name (:func:`~.names.resolve`), so a ``Rule`` from ``smdebug.rules.rule`` is not ours.
Values are literals and containers, ``str()``/``int()``/``float()``/``bool()``/``dict()`` of known
values, f-strings and ``+``/``%``/``.format`` of known values (:mod:`.compute`), and names assigned at top level
(``append``/``extend`` included). A name assigned inside ``if``/``for``/``try``/``with`` is
unknown after the block; a function body sees only module names assigned once. Everything else is
:class:`~.values.Unknown` and is never guessed. A call of one of our callables is recorded as a
:class:`~.values.Call` (its arguments bound to the real signature), built later by :mod:`.check`.
"""

from __future__ import annotations

import ast
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from sm_debug_config.lint import signatures
from sm_debug_config.lint.compute import BUILTINS, binary_op, builtin, format_string, interleave, join_parts
from sm_debug_config.lint.names import (
    CLASSES,
    ENUMS,
    OUR_MODULES,
    RULE_CONFIG_MODULES,
    enum_member,
    image_spec,
    resolve,
    rule_config_names,
)
from sm_debug_config.lint.values import (
    MISSING,
    Arguments,
    Module,
    SourceCall,
    Target,
    Unknown,
    is_hashable,
    is_known,
    text_of,
    unparse,
    walk_values,
)

_GROW = ("append", "extend")  # list methods lint follows at top level
#: Python 3.8 wraps a subscript in ast.Index.
_INDEX = getattr(ast, "Index", ())
_STEP_LIMIT = 200_000

class Scope:
    """Names in effect: values by name; ``outer`` is the module scope seen from a function (names bound once only)."""

    def __init__(self, outer: Optional["Scope"] = None, once: Optional[Set[str]] = None) -> None:
        self.names: Dict[str, Any] = {}
        self.outer, self.once = outer, once or set()
        self.star_unknown = False

    def get(self, name: str) -> Any:
        if name in self.names:
            return self.names[name]
        if self.outer is not None and name in self.once:
            return self.outer.get(name)
        return MISSING



class Evaluator:
    """Walks statements in order, recording every :class:`SourceCall` of ours and each Estimator call.

    >>> ev = Evaluator()
    >>> source = "from sagemaker.debugger import Rule, rule_configs\\nrules = [Rule.sagemaker(rule_configs.overfit())]"
    >>> ev.run(ast.parse(source), 0)
    >>> [c.target for c in ev.calls]
    ['rule_configs.overfit', 'Rule.sagemaker']
    """

    def __init__(self) -> None:
        self.module = Scope()
        self.calls: List[SourceCall] = []
        self.sites: List[SourceCall] = []  # Estimator and attach_debugger calls
        self.notes: List[Tuple[ast.AST, int, str]] = []  # (node, cell position, text) for --verbose
        self.cell = 0  # the position of the piece being walked (its index in the list of pieces)
        self.cells_of: Dict[int, int] = {}  # id(node) -> piece, for positions
        self.assigned: Dict[str, int] = {}
        self.trees: List[ast.AST] = []  # every piece, for assigned_once
        self._once: Optional[Set[str]] = None
        self.steps = 0
        self.key_nodes: Dict[Tuple[int, Any], ast.AST] = {}  # (id of a dict value, key) -> the key's node
        self.changed: List[Tuple[ast.AST, str]] = []  # objects changed after their call (rule.name = ...)

    # --- statements ---------------------------------------------------------------------------

    def assigned_once(self) -> Set[str]:
        """Module names bound once in the whole source (a function may read those), counted at the first function."""
        if self._once is None:
            for tree in self.trees:
                self.count_assignments(tree)
            self._once = {name for name, count in self.assigned.items() if count == 1}
        return self._once

    def count_assignments(self, tree: ast.AST) -> None:
        """Count the module-level bindings of each name in ``tree`` (function and class bodies bind their own names;
        only the statements, their targets and blocks are walked, not every expression)."""
        stack: List[ast.AST] = list(getattr(tree, "body", ()))
        while stack:
            node = stack.pop()
            targets: List[ast.AST] = []
            if isinstance(node, ast.Assign):
                targets = list(node.targets)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor)):
                targets = [node.target]
            elif isinstance(node, (ast.With, ast.AsyncWith)):
                targets = [item.optional_vars for item in node.items if item.optional_vars is not None]
            elif isinstance(node, ast.Delete):
                targets = list(node.targets)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self._count(node.name)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    self._count((alias.asname or alias.name).split(".")[0])
            elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
                func = node.value.func
                if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.attr in _GROW:
                    self._count(func.value.id)
            for target in targets:
                for inner in ast.walk(target):
                    if isinstance(inner, ast.Name):
                        self._count(inner.id)
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                    stack.extend(getattr(node, field, None) or ())

    def _count(self, name: str) -> None:
        self.assigned[name] = self.assigned.get(name, 0) + 1

    def run(self, tree: ast.Module, cell: int) -> None:
        self.cell = cell
        self.body(tree.body, self.module, top=True)

    def body(self, statements: Sequence[ast.stmt], scope: Scope, top: bool) -> None:
        for statement in statements:
            self.steps += 1
            if self.steps > _STEP_LIMIT:
                raise RecursionError("too many statements")
            self.statement(statement, scope, top)

    def statement(self, node: ast.stmt, scope: Scope, top: bool) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    scope.names[alias.asname] = resolve(alias.name)
                else:
                    scope.names[alias.name.split(".")[0]] = Module(alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            for alias in node.names:
                if alias.name == "*":
                    if module in OUR_MODULES:
                        scope.names.update({name: Target(name, module) for name in CLASSES + ENUMS})
                        scope.names["rule_configs"] = Module(f"{module}.rule_configs")
                    elif module in RULE_CONFIG_MODULES:
                        scope.names.update({name: Target("rule_configs." + name) for name in rule_config_names()})
                    else:
                        scope.star_unknown = True
                    continue
                scope.names[alias.asname or alias.name] = resolve(f"{module}.{alias.name}")
        elif isinstance(node, ast.Assign):
            value = self.expr(node.value, scope)
            for target in node.targets:
                self.bind(target, value, scope, node.value)
        elif isinstance(node, ast.AnnAssign):
            if node.value is not None:
                self.bind(node.target, self.expr(node.value, scope), scope, node.value)
        elif isinstance(node, ast.AugAssign):
            self.augment(node, scope, top)
        elif isinstance(node, ast.Expr):
            if top and self.mutation(node.value, scope):
                return
            self.expr(node.value, scope)
            if (
                isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Attribute)
                and isinstance(node.value.func.value, ast.Name)
            ):
                name = node.value.func.value.id
                if isinstance(scope.get(name), (list, dict)) and node.value.func.attr not in (
                    "copy",
                    "index",
                    "count",
                    "get",
                    "keys",
                    "items",
                    "values",
                ):
                    scope.names[name] = Unknown(node.value, name)  # mutated in a way we do not follow
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for decorator in node.decorator_list:
                self.expr(decorator, scope)
            inner = Scope(outer=scope if scope.outer is None else scope.outer, once=self.assigned_once())
            if not isinstance(node, ast.ClassDef):
                for arg in node.args.posonlyargs + node.args.args + node.args.kwonlyargs:
                    inner.names[arg.arg] = Unknown(arg, arg.arg)
                for extra in (node.args.vararg, node.args.kwarg):
                    if extra is not None:
                        inner.names[extra.arg] = Unknown(extra, extra.arg)
            self.body(node.body, inner, top=False)
            scope.names[node.name] = Unknown(node, node.name)
        elif isinstance(node, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try)) or type(
            node
        ).__name__ in ("Match", "TryStar"):
            self.compound(node, scope)
        elif isinstance(node, ast.Delete):
            for target in node.targets:
                self.bind(target, MISSING, scope, target)
        elif isinstance(node, (ast.Return, ast.Raise, ast.Assert)):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self.expr(child, scope)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                self.module.names[name] = Unknown(node, name)

    def compound(self, node: ast.stmt, scope: Scope) -> None:
        """Walk each branch from the names before the block; names the block assigns are unknown after it."""
        for field in ("test", "iter", "subject"):
            child = getattr(node, field, None)
            if isinstance(child, ast.expr):
                self.expr(child, scope)
        for item in getattr(node, "items", None) or []:
            if isinstance(item, ast.withitem):
                self.expr(item.context_expr, scope)
        before = dict(scope.names)
        assigned: Set[str] = set()
        for n in ast.walk(node):
            if isinstance(n, ast.Name):
                if isinstance(n.ctx, (ast.Store, ast.Del)):
                    assigned.add(n.id)
            elif isinstance(n, ast.Call):
                if isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name):
                    assigned.add(n.func.value.id)
            elif isinstance(n, (ast.Import, ast.ImportFrom)):
                assigned.update((a.asname or a.name).split(".")[0] for a in n.names)
        for name in assigned:  # inside a loop, a name may hold what a later statement of the body set
            if isinstance(node, (ast.For, ast.AsyncFor, ast.While)) and name in scope.names:
                scope.names[name] = Unknown(node, name)
        for target in (getattr(node, "target", None),):
            if target is not None:
                self.bind(target, Unknown(target, unparse(target)), scope, target)
        for item in getattr(node, "items", None) or []:
            if isinstance(item, ast.withitem) and item.optional_vars is not None:
                self.bind(
                    item.optional_vars,
                    Unknown(item.optional_vars, unparse(item.optional_vars)),
                    scope,
                    item.optional_vars,
                )
        branches = [getattr(node, f) for f in ("body", "orelse", "finalbody") if getattr(node, f, None)]
        branches += [h.body for h in getattr(node, "handlers", None) or []] + [
            c.body for c in getattr(node, "cases", None) or []
        ]
        for branch in branches:
            self.body(branch, scope, top=False)
            scope.names.clear()
            scope.names.update(before)
        for name in assigned:
            if name in scope.names or scope.outer is None:
                scope.names[name] = Unknown(node, name)

    def bind(self, target: ast.expr, value: Any, scope: Scope, source: ast.AST) -> None:
        if isinstance(target, ast.Name):
            if value is MISSING:
                scope.names.pop(target.id, None)
            else:
                scope.names[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            items = value if isinstance(value, (list, tuple)) and len(value) == len(target.elts) else None
            for index, element in enumerate(target.elts):
                self.bind(
                    element, items[index] if items is not None else Unknown(source, unparse(element)), scope, source
                )
        elif isinstance(target, ast.Starred):
            self.bind(target.value, Unknown(source, unparse(target)), scope, source)
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            container = scope.get(target.value.id)
            key = self.expr(_subscript(target), scope)
            if isinstance(container, dict) and is_known(key) and value is not MISSING and scope.outer is None:
                container[key] = value
            elif isinstance(container, (list, dict)):
                scope.names[target.value.id] = Unknown(target, target.value.id)
        elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
            current = scope.get(target.value.id)
            if isinstance(current, SourceCall):  # rule.name = "...": the object is not what its call built
                current.consumed = True
                self.cells_of[id(target)] = self.cell
                self.changed.append(
                    (target, f"not checked: {target.value.id} is changed after it is built ({text_of(target)} = ...)")
                )
            if current is not MISSING and not isinstance(current, (Module, Target)):
                scope.names[target.value.id] = Unknown(target, target.value.id)
        else:
            self.expr(target, scope)

    def augment(self, node: ast.AugAssign, scope: Scope, top: bool) -> None:
        value = self.expr(node.value, scope)
        if isinstance(node.target, ast.Name):
            current = scope.get(node.target.id)
            result = (
                binary_op(node.op, current, value, node) if current is not MISSING else Unknown(node, node.target.id)
            )
            if isinstance(current, list) and isinstance(value, (list, tuple)) and isinstance(node.op, ast.Add):
                current.extend(value)  # x += [...] changes the list in place
                result = current
            scope.names[node.target.id] = (
                result if top or not isinstance(result, list) else Unknown(node, node.target.id)
            )
        else:
            self.bind(node.target, Unknown(node, unparse(node.target)), scope, node)

    def mutation(self, call: ast.expr, scope: Scope) -> bool:
        """``x.append(v)``/``x.extend(vs)`` on a known list at top level: done, True."""
        if not (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and isinstance(call.func.value, ast.Name)
            and call.func.attr in ("append", "extend")
            and len(call.args) == 1
            and not call.keywords
        ):
            return False
        current = scope.get(call.func.value.id)
        if not isinstance(current, list):
            return False
        value = self.expr(call.args[0], scope)
        if call.func.attr == "append":
            current.append(value)
        elif isinstance(value, (list, tuple)):
            current.extend(value)
        else:
            scope.names[call.func.value.id] = Unknown(call, unparse(call))
        return True

    # --- expressions --------------------------------------------------------------------------

    def expr(self, node: ast.expr, scope: Scope) -> Any:
        self.steps += 1
        if self.steps > _STEP_LIMIT:
            raise RecursionError("too many expressions")
        self.cells_of[id(node)] = self.cell
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            value = scope.get(node.id)
            if value is MISSING:
                if node.id in ("True", "False", "None"):
                    return {"True": True, "False": False, "None": None}[node.id]
                return BUILTINS.get(node.id) or Unknown(node, node.id)
            return value
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            items: List[Any] = []
            for element in node.elts:
                if isinstance(element, ast.Starred):
                    inner = self.expr(element.value, scope)
                    if isinstance(inner, (list, tuple)):
                        items.extend(inner)
                        continue
                    return Unknown(node)
                items.append(self.expr(element, scope))
            return (
                tuple(items) if isinstance(node, ast.Tuple) else items if isinstance(node, ast.List) else Unknown(node)
            )
        if isinstance(node, ast.Dict):
            out: Dict[Any, Any] = {}
            for key, value in zip(node.keys, node.values):
                if key is None:
                    more = self.expr(value, scope)
                    if not isinstance(more, dict):
                        return Unknown(node)
                    out.update(more)
                    continue
                known = self.expr(key, scope)
                item = self.expr(value, scope)
                if not is_hashable(known):
                    return Unknown(node)
                out[known] = item
                self.key_nodes[id(out), known] = key
            return out
        if isinstance(node, ast.Attribute):
            base = self.expr(node.value, scope)
            if isinstance(base, Module):
                return resolve(f"{base.path}.{node.attr}")
            if (
                isinstance(base, Target)
                and base.name in ("Rule", "ProfilerRule")
                and node.attr in ("sagemaker", "custom")
            ):
                return Target(f"{base.name}.{node.attr}", base.module)
            if isinstance(base, Target) and base.name in ENUMS:
                member = enum_member(base.name, node.attr)
                return member if member is not None else Unknown(node)
            return Unknown(node)
        if isinstance(node, ast.Call):
            return self.call(node, scope)
        if isinstance(node, ast.JoinedStr):
            return self.fstring(node, scope)
        if isinstance(node, ast.BinOp):
            return binary_op(node.op, self.expr(node.left, scope), self.expr(node.right, scope), node)
        if isinstance(node, ast.UnaryOp):
            operand = self.expr(node.operand, scope)
            if isinstance(node.op, ast.USub) and isinstance(operand, (int, float)) and not isinstance(operand, bool):
                return -operand
            if isinstance(node.op, ast.Not) and is_known(operand):
                return not operand
            return Unknown(node)
        if isinstance(node, ast.Subscript):
            base = self.expr(node.value, scope)
            key = self.expr(_subscript(node), scope)
            if isinstance(base, (dict, list, tuple, str)) and is_known(key) and not isinstance(key, slice):
                try:
                    return base[key]
                except (KeyError, IndexError, TypeError):
                    return Unknown(node)
            return Unknown(node)
        for child in ast.iter_child_nodes(node):  # walk for calls of ours inside (a lambda, a comprehension...)
            if isinstance(child, ast.expr):
                self.expr(child, scope)
        return Unknown(node)

    def fstring(self, node: ast.JoinedStr, scope: Scope) -> Any:
        parts: List[Any] = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(value.value)
                continue
            if isinstance(value, ast.FormattedValue):
                inner = self.expr(value.value, scope)
                if is_known(inner) and value.format_spec is None and value.conversion in (-1, ord("s")):
                    parts.append(
                        inner
                        if isinstance(inner, str)
                        else str(inner) if isinstance(inner, (int, float)) else Unknown(value, "")
                    )
                else:
                    parts.append(Unknown(value, text_of(value.value)))
        return join_parts(parts, node)

    def call(self, node: ast.Call, scope: Scope) -> Any:
        func = self.expr(node.func, scope)
        given = self.arguments(node, scope)
        if isinstance(func, Target):
            return self.target_call(func.name, node, given, func.module)
        if func in BUILTINS.values() and not given.splat_unknown:
            return builtin(func, given.positional, given.keywords, node)
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("format", "join"):
            base = self.expr(node.func.value, scope)
            if isinstance(base, str) and node.func.attr == "format":
                return format_string(base, given.positional, given.keywords, node)
            if isinstance(base, str) and len(given.positional) == 1 and isinstance(given.positional[0], (list, tuple)):
                return interleave(base, given.positional[0], node)
        if isinstance(func, Module) and func.path in ("os.path.join", "posixpath.join"):
            return interleave("/", given.positional, node)
        return Unknown(node)

    def arguments(self, node: ast.Call, scope: Scope) -> Arguments:
        """The call's arguments evaluated, ``*list`` and ``**dict`` of known content spread."""
        given = Arguments()
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                inner = self.expr(arg.value, scope)
                if isinstance(inner, (list, tuple)):
                    given.positional.extend(inner)
                else:
                    given.splat_unknown = True
                continue
            given.positional.append(self.expr(arg, scope))
        given.positional_nodes = [a.value if isinstance(a, ast.Starred) else a for a in node.args]
        for keyword in node.keywords:
            value = self.expr(keyword.value, scope)
            if keyword.arg is None:
                if isinstance(value, dict) and all(isinstance(k, str) for k in value):
                    given.keywords.update(value)
                    given.keyword_nodes.update({k: keyword.value for k in value})
                else:
                    given.splat_unknown = True
                continue
            given.keywords[keyword.arg] = value
            given.keyword_nodes[keyword.arg] = keyword.value
        return given

    def target_call(self, name: str, node: ast.Call, given: Arguments, module: str = "") -> Any:
        if name in ("retrieve", "get_image_uri"):
            return image_spec(name, node, given)
        args, bound_nodes = signatures.bind(name, given)
        if given.splat_unknown:
            args["**"] = Unknown(node, "*args/**kwargs")
        call = SourceCall(name, node, args, bound_nodes, module)
        for value in walk_values(list(args.values())):
            if isinstance(value, SourceCall):
                value.nested = True
        self.calls.append(call)
        if name.startswith("estimator:") or name == "attach":
            self.sites.append(call)
        return call


def _subscript(node: ast.Subscript) -> ast.expr:
    inner: Any = node.slice
    return inner.value if _INDEX and isinstance(inner, _INDEX) else inner
