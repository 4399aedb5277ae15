"""The static evaluator of ``lint``: what a source's Debugger calls are given, without running anything.

Statements are walked in order (a notebook's cells in order, as one namespace). Imports bind
names to what they name (:func:`resolve`), so a ``Rule`` from ``smdebug.rules.rule`` is not ours.
Values are literals and containers, ``str()``/``int()``/``float()``/``bool()``/``dict()`` of known
values, f-strings and ``+``/``%``/``.format`` of known values, and names assigned at top level
(``append``/``extend`` included). A name assigned inside ``if``/``for``/``try``/``with`` is
unknown after the block; a function body sees only module names assigned once. Everything else is
:class:`Unknown` and is never guessed. A call of one of our callables is recorded as a
:class:`Call` (its arguments bound to the real signature), built later by :mod:`.check`.
"""

from __future__ import annotations

import ast
from typing import Any, Dict, Iterator, List, Optional, Sequence, Set, Tuple

#: Our classes, under ``sagemaker.debugger``, ``sagemaker.core.debugger`` and ``sm_debug_config`` (any submodule).
CLASSES = (
    "Rule",
    "ProfilerRule",
    "CollectionConfig",
    "DebuggerHookConfig",
    "TensorBoardOutputConfig",
    "ProfilerConfig",
    "FrameworkProfile",
    "DetailedProfilingConfig",
    "DataloaderProfilingConfig",
    "PythonProfilingConfig",
    "HorovodProfilingConfig",
    "SMDataParallelProfilingConfig",
)
#: Our enumerations (``PythonProfiler.CPROFILE``): an attribute of one is its member, a known value.
ENUMS = ("PythonProfiler", "cProfileTimer")
#: Module paths whose names are ours.
OUR_MODULES = ("sagemaker.debugger", "sagemaker.core.debugger", "sm_debug_config")
#: Modules that are ``rule_configs`` itself.
RULE_CONFIG_MODULES = (
    "smdebug_rulesconfig",
    "rule_configs",
    "sagemaker.debugger.rule_configs",
    "sagemaker.core.debugger.rule_configs",
    "sm_debug_config.rule_configs",
)
#: SDK Estimator classes (under any ``sagemaker.*`` module) and the framework each runs.
ESTIMATORS = {
    "Estimator": None,
    "Framework": None,
    "PyTorch": "pytorch",
    "TensorFlow": "tensorflow",
    "MXNet": "mxnet",
    "XGBoost": "xgboost",
    "HuggingFace": None,
    "SKLearn": None,
    "Chainer": None,
    "RLEstimator": None,
}
_STR_LIMIT = 1 << 20
_GROW = ("append", "extend")  # list methods lint follows at top level
#: Python 3.8 has no ast.unparse: notes then name the expression less precisely.
_UNPARSE = getattr(ast, "unparse", None)
#: Python 3.8 wraps a subscript in ast.Index.
_INDEX = getattr(ast, "Index", ())
_STEP_LIMIT = 200_000


class Unknown:
    """A value known only when the code runs; passed to our constructors as a pipeline-variable look-alike
    (``expr`` and ``to_string()``), which they accept where a value may come later."""

    def __init__(self, node: Optional[ast.AST], text: Optional[str] = None) -> None:
        self.node, self._text = node, text

    @property
    def text(self) -> str:
        """The expression as written (computed when a note needs it: most unknowns are never reported)."""
        if self._text is None:
            self._text = _text(self.node) if self.node is not None else ""
        return self._text

    @property
    def expr(self) -> Dict[str, str]:
        return {"Get": f"Lint.{id(self)}"}

    def to_string(self) -> "Unknown":
        return self

    def __repr__(self) -> str:
        return f"Unknown({self.text!r})"


class Partial(Unknown):
    """A string built from known and unknown parts; ``suffix`` is its known text after the last unknown part."""

    def __init__(self, node: Optional[ast.AST], text: str, suffix: str) -> None:
        super().__init__(node, text)
        self.suffix = suffix


class ImageSpec(Unknown):
    """``image_uris.retrieve(framework, region, version)`` with framework and version known (the region may not be)."""

    def __init__(self, node: Optional[ast.AST], text: str, framework: str, version: str) -> None:
        super().__init__(node, text)
        self.framework, self.version = framework, version


class Module:
    """An imported module (or an attribute chain of one that names nothing of ours)."""

    def __init__(self, path: str) -> None:
        self.path = path


class Target:
    """One of our callables, an Estimator class (``estimator:<class>``), ``retrieve`` or ``attach_debugger``."""

    def __init__(self, name: str) -> None:
        self.name = name


class Call:
    """A call of a :class:`Target`: its arguments by parameter name, and the source node of each."""

    def __init__(self, target: str, node: ast.Call, args: Dict[str, Any], nodes: Dict[str, ast.AST]) -> None:
        self.target, self.node, self.args, self.nodes = target, node, args, nodes
        self.built: Any = None
        self.state = "new"  # new, built, failed
        self.consumed = False
        self.nested = False


def resolve(path: str) -> Any:
    """What a dotted name stands for: a :class:`Target`, or a :class:`Module` when it is nothing of ours.

    >>> resolve("sagemaker.debugger.Rule").name, resolve("smdebug.rules.rule.Rule").path
    ('Rule', 'smdebug.rules.rule.Rule')
    >>> resolve("smdebug_rulesconfig.vanishing_gradient").name
    'rule_configs.vanishing_gradient'
    """
    head, _, last = path.rpartition(".")
    if head in RULE_CONFIG_MODULES and _rule_config(last):
        return Target("rule_configs." + last)
    if any(head == m or head.startswith(m + ".") for m in OUR_MODULES):
        if last in CLASSES or last in ENUMS:
            return Target(last)
        if last == "rule_configs":
            return Module(f"{head}.rule_configs")
        if last == "attach_debugger":
            return Target("attach")
    if head.startswith("sagemaker") and last in ESTIMATORS and not head.startswith("sagemaker.debugger"):
        return Target("estimator:" + last)
    if path in ("sagemaker.image_uris.retrieve", "sagemaker.amazon.amazon_estimator.get_image_uri"):
        return Target("retrieve" if path.endswith("retrieve") else "get_image_uri")
    if path in ("sm_debug_config.integrations.boto3_events.attach",):
        return Target("attach")
    return Module(path)


def _rule_config(name: str) -> bool:
    import rule_configs

    return name in rule_configs.__all__


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
        return _MISSING


_MISSING = object()


class Evaluator:
    """Walks statements in order, recording every :class:`Call` of ours and each Estimator call.

    >>> ev = Evaluator()
    >>> source = "from sagemaker.debugger import Rule, rule_configs\\nrules = [Rule.sagemaker(rule_configs.overfit())]"
    >>> ev.run(ast.parse(source), 0)
    >>> [c.target for c in ev.calls]
    ['rule_configs.overfit', 'Rule.sagemaker']
    """

    def __init__(self) -> None:
        self.module = Scope()
        self.calls: List[Call] = []
        self.sites: List[Call] = []  # Estimator and attach_debugger calls
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
                        scope.names.update({name: Target(name) for name in CLASSES + ENUMS})
                        scope.names["rule_configs"] = Module(f"{module}.rule_configs")
                    elif module in RULE_CONFIG_MODULES:
                        import rule_configs

                        scope.names.update({name: Target("rule_configs." + name) for name in rule_configs.__all__})
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
                self.bind(target, _MISSING, scope, target)
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
                self.bind(target, Unknown(target, _unparse(target)), scope, target)
        for item in getattr(node, "items", None) or []:
            if isinstance(item, ast.withitem) and item.optional_vars is not None:
                self.bind(
                    item.optional_vars,
                    Unknown(item.optional_vars, _unparse(item.optional_vars)),
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
            if value is _MISSING:
                scope.names.pop(target.id, None)
            else:
                scope.names[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            items = value if isinstance(value, (list, tuple)) and len(value) == len(target.elts) else None
            for index, element in enumerate(target.elts):
                self.bind(
                    element, items[index] if items is not None else Unknown(source, _unparse(element)), scope, source
                )
        elif isinstance(target, ast.Starred):
            self.bind(target.value, Unknown(source, _unparse(target)), scope, source)
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            container = scope.get(target.value.id)
            key = self.expr(_subscript(target), scope)
            if isinstance(container, dict) and _known(key) and value is not _MISSING and scope.outer is None:
                container[key] = value
            elif isinstance(container, (list, dict)):
                scope.names[target.value.id] = Unknown(target, target.value.id)
        elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
            current = scope.get(target.value.id)
            if isinstance(current, Call):  # rule.name = "...": the object is not what its call built
                current.consumed = True
                self.cells_of[id(target)] = self.cell
                self.changed.append(
                    (target, f"not checked: {target.value.id} is changed after it is built ({_text(target)} = ...)")
                )
            if current is not _MISSING and not isinstance(current, (Module, Target)):
                scope.names[target.value.id] = Unknown(target, target.value.id)
        else:
            self.expr(target, scope)

    def augment(self, node: ast.AugAssign, scope: Scope, top: bool) -> None:
        value = self.expr(node.value, scope)
        if isinstance(node.target, ast.Name):
            current = scope.get(node.target.id)
            result = (
                self.binop(node.op, current, value, node) if current is not _MISSING else Unknown(node, node.target.id)
            )
            if isinstance(current, list) and isinstance(value, (list, tuple)) and isinstance(node.op, ast.Add):
                current.extend(value)  # x += [...] changes the list in place
                result = current
            scope.names[node.target.id] = (
                result if top or not isinstance(result, list) else Unknown(node, node.target.id)
            )
        else:
            self.bind(node.target, Unknown(node, _unparse(node.target)), scope, node)

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
            scope.names[call.func.value.id] = Unknown(call, _unparse(call))
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
            if value is _MISSING:
                if node.id in ("True", "False", "None"):
                    return {"True": True, "False": False, "None": None}[node.id]
                return _BUILTINS.get(node.id) or Unknown(node, node.id)
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
                if not _hashable(known):
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
                return Target(f"{base.name}.{node.attr}")
            if isinstance(base, Target) and base.name in ENUMS:
                member = enum_member(base.name, node.attr)
                return member if member is not None else Unknown(node)
            return Unknown(node)
        if isinstance(node, ast.Call):
            return self.call(node, scope)
        if isinstance(node, ast.JoinedStr):
            return self.fstring(node, scope)
        if isinstance(node, ast.BinOp):
            return self.binop(node.op, self.expr(node.left, scope), self.expr(node.right, scope), node)
        if isinstance(node, ast.UnaryOp):
            operand = self.expr(node.operand, scope)
            if isinstance(node.op, ast.USub) and isinstance(operand, (int, float)) and not isinstance(operand, bool):
                return -operand
            if isinstance(node.op, ast.Not) and _known(operand):
                return not operand
            return Unknown(node)
        if isinstance(node, ast.Subscript):
            base = self.expr(node.value, scope)
            key = self.expr(_subscript(node), scope)
            if isinstance(base, (dict, list, tuple, str)) and _known(key) and not isinstance(key, slice):
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
                if _known(inner) and value.format_spec is None and value.conversion in (-1, ord("s")):
                    parts.append(
                        inner
                        if isinstance(inner, str)
                        else str(inner) if isinstance(inner, (int, float)) else Unknown(value, "")
                    )
                else:
                    parts.append(Unknown(value, _text(value.value)))
        return _join(parts, node)

    def binop(self, op: ast.operator, left: Any, right: Any, node: ast.AST) -> Any:
        if isinstance(op, ast.Add):
            if (
                isinstance(left, (str, Partial))
                and isinstance(right, (str, Partial))
                or isinstance(left, str)
                and isinstance(right, Unknown)
                or isinstance(left, Unknown)
                and isinstance(right, str)
            ):
                return _join([left, right], node)
            if isinstance(left, list) and isinstance(right, list):
                return left + right
            if isinstance(left, tuple) and isinstance(right, tuple):
                return left + right
        if isinstance(op, ast.Mod) and isinstance(left, str) and _known(right):
            try:
                return _bounded(left % right, node)
            except (TypeError, ValueError, KeyError):
                return Unknown(node)
        if _number(left) and _number(right):
            try:
                if isinstance(op, ast.Pow) and (abs(right) > 64 or abs(left) > 1 << 32):
                    return Unknown(node)
                return _ARITHMETIC[type(op)](left, right)
            except (KeyError, ArithmeticError, ValueError):
                return Unknown(node)
        if (
            isinstance(op, ast.Mult)
            and isinstance(left, str)
            and isinstance(right, int)
            and len(left) * right <= _STR_LIMIT
        ):
            return left * right
        return Unknown(node)

    def call(self, node: ast.Call, scope: Scope) -> Any:
        func = self.expr(node.func, scope)
        positional: List[Any] = []
        keywords: Dict[str, Any] = {}
        nodes: Dict[str, ast.AST] = {}
        splat_unknown = False
        for index, arg in enumerate(node.args):
            if isinstance(arg, ast.Starred):
                inner = self.expr(arg.value, scope)
                if isinstance(inner, (list, tuple)):
                    positional.extend(inner)
                else:
                    splat_unknown = True
                continue
            positional.append(self.expr(arg, scope))
        for keyword in node.keywords:
            value = self.expr(keyword.value, scope)
            if keyword.arg is None:
                if isinstance(value, dict) and all(isinstance(k, str) for k in value):
                    keywords.update(value)
                    nodes.update({k: keyword.value for k in value})
                else:
                    splat_unknown = True
                continue
            keywords[keyword.arg] = value
            nodes[keyword.arg] = keyword.value
        if isinstance(func, Target):
            return self.target_call(func.name, node, positional, keywords, nodes, splat_unknown)
        if func in _BUILTINS.values() and not splat_unknown:
            return _builtin(func, positional, keywords, node)
        if isinstance(node.func, ast.Attribute) and node.func.attr == "format":
            base = self.expr(node.func.value, scope)
            if isinstance(base, str):
                return _format(base, positional, keywords, node)
        if (
            isinstance(node.func, ast.Attribute)
            and node.func.attr == "join"
            and isinstance(self.expr(node.func.value, scope), str)
            and len(positional) == 1
            and isinstance(positional[0], (list, tuple))
        ):
            separator = self.expr(node.func.value, scope)
            pieces: List[Any] = []
            for index, piece in enumerate(positional[0]):
                pieces += ([separator] if index else []) + [piece]
            return _join(pieces, node) if all(isinstance(p, (str, Unknown)) for p in pieces) else Unknown(node)
        if isinstance(func, Module) and func.path in ("os.path.join", "posixpath.join"):
            pieces = []
            for index, piece in enumerate(positional):
                pieces += (["/"] if index else []) + [piece]
            return _join(pieces, node) if all(isinstance(p, (str, Unknown)) for p in pieces) else Unknown(node)
        return Unknown(node)

    def target_call(
        self,
        name: str,
        node: ast.Call,
        positional: List[Any],
        keywords: Dict[str, Any],
        nodes: Dict[str, ast.AST],
        splat_unknown: bool,
    ) -> Any:
        from sm_debug_config.lint import signatures

        if name in ("retrieve", "get_image_uri"):
            return image_spec(name, node, positional, keywords, _text(node))
        arg_nodes: List[ast.AST] = [a.value if isinstance(a, ast.Starred) else a for a in node.args]
        args, bound_nodes = signatures.bind(name, positional, keywords, arg_nodes, nodes)
        if splat_unknown:
            args["**"] = Unknown(node, "*args/**kwargs")
        call = Call(name, node, args, bound_nodes)
        for value in _walk_values(list(args.values())):
            if isinstance(value, Call):
                value.nested = True
        self.calls.append(call)
        if name.startswith("estimator:") or name == "attach":
            self.sites.append(call)
        return call


def _subscript(node: ast.Subscript) -> ast.expr:
    inner: Any = node.slice
    return inner.value if _INDEX and isinstance(inner, _INDEX) else inner


def _walk_values(value: Any) -> Iterator[Any]:
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


def _unparse(node: ast.AST) -> str:
    if _UNPARSE is None:
        return node.id if isinstance(node, ast.Name) else "an expression"
    return str(_UNPARSE(node))


def _text(node: ast.AST) -> str:
    try:
        text = _unparse(node)
    except Exception:  # noqa: BLE001 - only for a message
        return "an expression"
    return text if len(text) <= 80 else text[:77] + "..."


def _known(value: Any) -> bool:
    return (
        not isinstance(value, (Unknown, Module, Target, Call))
        and value is not _MISSING
        and not (isinstance(value, (list, tuple)) and any(not _known(v) for v in value))
        and not (isinstance(value, dict) and any(not _known(v) for v in value.values()))
    )


def _hashable(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool, type(None))) or (
        isinstance(value, tuple) and all(_hashable(v) for v in value)
    )


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _bounded(text: str, node: ast.AST) -> Any:
    return text if len(text) <= _STR_LIMIT else Unknown(node, "a long string")


def _join(parts: Sequence[Any], node: ast.AST) -> Any:
    """Known strings joined, or a :class:`Partial` whose suffix is the known text after the last unknown part."""
    flat: List[Any] = []
    for part in parts:
        if isinstance(part, Partial):
            flat.extend([Unknown(node, ""), part.suffix])
        elif isinstance(part, Unknown) or isinstance(part, str):
            flat.append(part)
        else:
            return Unknown(node)
    if all(isinstance(p, str) for p in flat):
        return _bounded("".join(flat), node)
    last = max(i for i, p in enumerate(flat) if isinstance(p, Unknown))
    return Partial(node, _text(node), "".join(flat[last + 1 :]))


def _format(template: str, positional: List[Any], keywords: Dict[str, Any], node: ast.AST) -> Any:
    import string

    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError:
        return Unknown(node)
    parts: List[Any] = []
    auto = 0
    for literal, field, spec, conversion in parsed:
        parts.append(literal)
        if field is None:
            continue
        if field == "":
            value = positional[auto] if auto < len(positional) else Unknown(node, "")
            auto += 1
        elif field.isdigit():
            value = positional[int(field)] if int(field) < len(positional) else Unknown(node, "")
        elif field.isidentifier():
            value = keywords.get(field, Unknown(node, field))
        else:
            value = Unknown(node, field)
        if _known(value) and not spec and conversion in (None, "s") and isinstance(value, (str, int, float)):
            parts.append(str(value))
        else:
            parts.append(value if isinstance(value, Unknown) else Unknown(node))
    return _join(parts, node)


_BUILTINS = {
    "str": str,
    "int": int,
    "float": float,
    "bool": bool,
    "dict": dict,
    "list": list,
    "tuple": tuple,
    "len": len,
}


def _builtin(func: Any, positional: List[Any], keywords: Dict[str, Any], node: ast.AST) -> Any:
    if func is dict:
        if not positional and all(True for _ in keywords):
            return dict(keywords)
        if len(positional) == 1 and isinstance(positional[0], dict):
            return dict(positional[0], **keywords)
        return Unknown(node)
    if keywords or len(positional) != 1 or not _known(positional[0]):
        return Unknown(node)
    value = positional[0]
    try:
        if func in (list, tuple) and isinstance(value, (list, tuple)):
            return func(value)
        if func is str and isinstance(value, (str, int, float, bool, type(None))):
            return str(value)
        if func in (int, float) and isinstance(value, (str, int, float)) and not isinstance(value, bool):
            return func(value)
        if func is bool and _hashable(value):
            return bool(value)
        if func is len and isinstance(value, (str, list, tuple, dict)):
            return len(value)
    except (ValueError, OverflowError):
        pass
    return Unknown(node)


def _pow(left: Any, right: Any) -> Any:
    return left**right


_ARITHMETIC = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: a // b,
    ast.Mod: lambda a, b: a % b,
    ast.Pow: _pow,
}


def enum_member(enum: str, name: str) -> Any:
    """``PythonProfiler.CPROFILE`` and the like: the member of our enumeration, or None for a name it does not have."""
    from sm_debug_config.model import profiler

    cls = {"PythonProfiler": profiler.PythonProfiler, "cProfileTimer": profiler.cProfileTimer}[enum]
    return cls.__members__.get(name)


def image_spec(name: str, node: ast.Call, positional: List[Any], keywords: Dict[str, Any], text: str) -> Any:
    """``image_uris.retrieve(framework, region, version, py_version, instance_type, ..., image_scope)`` (or SDK v1's
    ``get_image_uri(region, repo_name, repo_version)``) as an :class:`ImageSpec` when framework and
    version are known.
    """
    order: Tuple[str, ...] = ("framework", "region", "version", "py_version", "instance_type")
    if name != "retrieve":
        order = ("region", "framework", "version")
    args = dict(zip(order, positional))
    args.update(
        {("framework" if k == "repo_name" else "version" if k == "repo_version" else k): v for k, v in keywords.items()}
    )
    framework, version, scope = args.get("framework"), args.get("version"), args.get("image_scope", "training")
    if isinstance(framework, str) and isinstance(version, str) and scope in ("training", None):
        return ImageSpec(node, text, framework, version)
    return Unknown(node, text)
