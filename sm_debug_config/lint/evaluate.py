"""The static evaluator of ``lint``: what a source's Debugger calls are given, without running anything.

Statements are walked in order (a notebook's cells in order, as one namespace). Imports bind
names to what they name (:func:`~.names.resolve`), so a ``Rule`` from ``smdebug.rules.rule`` is not ours.
Values are literals and containers, the builtins and operators of :mod:`.compute` on known values, and
names. Code is followed as Python runs it, within bounds (:data:`LIMITS`):

- an ``if`` (or ``x if c else y``) whose test is known takes its branch; a ``for`` loop or a comprehension
  over a known sequence (a list, ``range()``, a dict's ``.items()``...) runs each iteration;
  ``append``/``extend``/``insert``/``update``/``+=`` and ``x[k] = v`` change a known list or dict;
- a function (``def`` or ``lambda``) of the source called with arguments runs its body with its parameters
  bound as Python binds them (defaults, ``*args``, ``**kwargs``), and gives what it returns;
- SDK v3's ``ModelTrainer.with_*`` methods give the trainer back; ``estimator.rules = ...`` (and the other
  Debugger attributes of an Estimator, a trainer or a Debugger object, :data:`ATTRIBUTES`) is what the call had
  been given.

What is not followed is walked once without knowing it: the branches of an ``if`` whose test is not known,
a ``while`` loop, an ``except`` block, a loop over what is not known (or longer than the bounds), a function
never called (its parameters unknown). Names such code assigns or changes are :class:`~.values.Unknown`
after it, and code there changes no list or dict made before it. A call of one of our callables is recorded as a
:class:`~.values.SourceCall` (its arguments bound to the real signature), built later by :mod:`.check`;
the Estimator and ``attach_debugger`` calls are the jobs.
"""

from __future__ import annotations

import ast
import time
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple


from sm_debug_config.lint import signatures
from sm_debug_config.lint.compute import (
    BUILTINS,
    ITEM_LIMIT,
    STR_METHODS,
    binary_op,
    builtin,
    compare,
    format_string,
    interleave,
    join_parts,
    length,
    sequence,
    str_method,
    truth,
)
from sm_debug_config.lint.flow import (
    LIMITS,
    Exit,
    Frame,
    Limits,
    Scope,
    changed_outside,
    is_generator,
    parameters,
    signature_of,
    stored_names,
    subscript_of,
)
from sm_debug_config.lint.names import (
    CLASSES,
    ENUMS,
    OUR_MODULES,
    RULE_CONFIG_MODULES,
    TRAINER_BUILDERS,
    enum_member,
    image_spec,
    resolve,
    rule_config_names,
)
from sm_debug_config.lint.values import (
    MISSING,
    Arguments,
    Function,
    Item,
    Method,
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

NESTING = 64  # containers inside containers lint builds at the most
_GROW = ("append", "extend", "insert", "update")  # methods of a list or dict lint follows
#: Methods of a list or dict that change nothing (any other method changes it in a way lint does not follow).
_READ_ONLY = ("copy", "index", "count", "get", "keys", "items", "values")


#: Attributes that, set on an object made by one of these calls, are what the call's argument would have been
#: (the SDK's objects and ours are plain mutable objects; a rule's ``rule_parameters`` attribute also holds its
#: base configuration's, so setting it is not the argument, and is not followed).
_RULE_ATTRIBUTES = {key: key for key in ("name", "s3_output_path", "container_local_output_path")}
ATTRIBUTES = {
    "estimator": {key: value for key, value in signatures.ESTIMATOR_KEYWORDS.items() if key != "image_name"},
    "trainer": signatures.TRAINER_KEYWORDS,
    "Rule.sagemaker": _RULE_ATTRIBUTES,
    "Rule.custom": _RULE_ATTRIBUTES,
    "ProfilerRule.sagemaker": {"name": "name"},
    "ProfilerRule.custom": {"name": "name"},
    "CollectionConfig": {"name": "name", "parameters": "parameters"},
    "DebuggerHookConfig": {
        key: key for key in ("s3_output_path", "container_local_output_path", "hook_parameters", "collection_configs")
    },
    "TensorBoardOutputConfig": {key: key for key in ("s3_output_path", "container_local_output_path")},
}


class Evaluator:
    """Walks statements in order, recording every :class:`SourceCall` of ours and each Estimator call.

    >>> ev = Evaluator()
    >>> source = "from sagemaker.debugger import Rule, rule_configs\\nrules = [Rule.sagemaker(rule_configs.overfit())]"
    >>> ev.run(ast.parse(source), 0)
    >>> [c.target for c in ev.calls]
    ['rule_configs.overfit', 'Rule.sagemaker']
    """

    def __init__(self, limits: Limits = LIMITS) -> None:
        self.limits = limits
        self.module = Scope()
        self.module.names["__name__"] = "__main__"  # lint reads a launcher as the script being run
        self.calls: List[SourceCall] = []
        self.sites: List[SourceCall] = []  # Estimator and attach_debugger calls
        self.cell = 0  # the position of the piece being walked (its index in the list of pieces)
        self.cells_of: Dict[int, int] = {}  # id(node) -> piece, for positions
        self.assigned: Dict[str, int] = {}
        self.trees: List[ast.AST] = []  # every piece, for assigned_once
        self._once: Optional[Set[str]] = None
        self.steps = 0
        self.iterations = 0
        self.started = time.monotonic()
        self.key_nodes: Dict[Tuple[int, Any], ast.AST] = {}  # (id of a dict value, key) -> the key's node
        #: what was not followed, and objects changed after their call (rule.name = ...): (node, text) for --verbose
        self.changed: List[Tuple[ast.AST, str]] = []
        self.functions: List[Function] = []
        self.depth = 0  # functions being followed, one inside another
        #: regions walked without knowing whether they run: the first container made inside each (see mutable())
        self.fences: List[int] = []
        self.made: Dict[int, int] = {}  # id(list, dict or call) -> when it was made (a counter)
        self.depth_of: Dict[int, int] = {}  # id(list, tuple or dict display) -> how deep it nests containers
        self._keep: List[Any] = []  # what made holds ids of, kept alive
        self.effects: List[Tuple[Scope, str]] = []  # names bound or changed, in order
        self.frames: List[Frame] = []
        self.origin_of: Dict[int, ast.AST] = {}  # id(expression node) -> where the value it stands for was written
        #: for fixes, where a value was written as a literal (a fix edits it there): id(expression node) -> the literal
        #: its value was written as this time (see :meth:`literal_of`); id(dict) and key -> where the item was
        #: written; id(list or tuple) -> the literal of each element
        self.written: Dict[int, ast.AST] = {}
        self.item_at: Dict[Tuple[int, Any], Item] = {}
        self.elements: Dict[int, List[Optional[ast.AST]]] = {}
        self.displays: Dict[int, ast.AST] = {}  # id(dict) -> the display or dict(...) that made it (fixes add there)
        #: id(literal) -> the expressions that took its value (a name, a helper's call): a literal two of them read
        #: may serve other code than Debugger's, which a change there would change too
        self.readers: Dict[int, Set[int]] = {}

    # --- bookkeeping ----------------------------------------------------------------------------

    def literal_of(self, node: Optional[ast.AST]) -> Optional[ast.AST]:
        """The literal that the value ``node`` evaluated to (last) was written as: the node itself for a literal (a
        constant, an f-string, ``-1``, a display), else where a name, a call of the source's function, a subscript...
        took it from; None for a value computed."""
        if node is None:
            return None
        if isinstance(node, _LITERALS) or (
            isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant)
        ):
            return node
        return self.written.get(id(node))

    def wrote(self, node: ast.AST, literal: Optional[ast.AST]) -> None:
        """The value ``node`` evaluated to this time was written as ``literal`` (None: computed)."""
        if literal is None:
            self.written.pop(id(node), None)
        else:
            self.written[id(node)] = literal
            self.readers.setdefault(id(literal), set()).add(id(node))

    def copy_items(self, source: Any, target: Any) -> None:
        """``target`` (a dict made from ``source``) has ``source``'s items where ``source`` wrote them."""
        for key in target:
            item = self.item_at.get((id(source), key))
            if item is not None:
                self.item_at.setdefault((id(target), key), item)

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

    def step(self) -> None:
        self.steps += 1
        if self.steps > self.limits.hard_steps:
            raise RecursionError("too many steps")

    def exhausted(self) -> bool:
        """Past the soft bounds: no more loops or calls are followed."""
        return self.steps > self.limits.soft_steps or time.monotonic() - self.started > self.limits.seconds

    def new(self, value: Any) -> Any:
        """``value`` (a list, dict or recorded call) marked as made now."""
        self.made[id(value)] = len(self._keep)
        self._keep.append(value)
        return value

    def nested(self, value: Any, node: ast.AST) -> Any:
        """A list, tuple or dict display's value, unknown when it nests containers deeper than :data:`NESTING` (a loop
        may wrap a list a thousand times; the checks and the SDK would recurse through it)."""
        inner = value.values() if isinstance(value, dict) else value
        depth = 1 + max((self.depth_of.get(id(item), 0) for item in inner if isinstance(item, (list, tuple, dict))),
                        default=0)
        if depth > NESTING:
            return Unknown(node)
        self.new(value)
        self.depth_of[id(value)] = depth
        return value

    def made_count(self) -> int:
        return len(self._keep)

    def mutable(self, value: Any) -> bool:
        """Whether code here may change ``value`` in place: always where the code surely runs; in a region that may
        not run, only what the region made itself."""
        return not self.fences or self.made.get(id(value), -1) >= self.fences[-1]

    def not_followed(self, node: ast.AST, text: str) -> None:
        self.cells_of.setdefault(id(node), self.cell)
        self.changed.append((node, f"not checked: {text}"))

    # --- binding names ----------------------------------------------------------------------------

    def assign(self, scope: Scope, name: str, value: Any) -> None:
        if name in scope.globals:
            scope = self.module
        if value is MISSING:
            scope.names.pop(name, None)
        else:
            scope.names[name] = value
        scope.origins.pop(name, None)
        scope.literals.pop(name, None)
        self.effects.append((scope, name))

    def forget(self, scope: Scope, name: str, node: ast.AST) -> None:
        """``name`` (where it is bound) holds what lint does not know from now on."""
        holder = self.module if name in scope.globals else scope.holder(name)
        holder.names[name] = Unknown(node, name)
        holder.origins.pop(name, None)
        holder.literals.pop(name, None)
        self.effects.append((holder, name))

    # --- statements ---------------------------------------------------------------------------

    def run(self, tree: ast.Module, cell: int) -> None:
        self.cell = cell
        self.body(tree.body, self.module)

    def finish(self) -> None:
        """Walk, once and without knowing their parameters, the functions that no followed call ran (their
        Debugger objects are checked with what is known)."""
        done: Set[int] = set()  # definitions followed or walked (a def run in a loop is one function written)
        while True:
            done.update(id(f.definition) for f in self.functions if f.followed)
            waiting = [f for f in self.functions if id(f.definition) not in done]
            if not waiting:
                return
            for function in waiting:
                if id(function.definition) not in done:
                    done.add(id(function.definition))
                    self.walk_unfollowed(function)

    def walk_unfollowed(self, function: Function) -> None:
        node = function.definition
        inner = Scope(parent=self.module, visible=self.assigned_once())
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for name, arg in parameters(node.args):
                inner.names[name] = Unknown(arg, name)
        before, self.cell = self.cell, function.cell
        try:
            with self.doubt():
                if isinstance(node, ast.Lambda):
                    self.expr(node.body, inner)
                else:
                    self.body(getattr(node, "body", []), inner)
        finally:
            self.cell = before

    def body(self, statements: Sequence[ast.stmt], scope: Scope) -> None:
        for statement in statements:
            self.step()
            self.statement(statement, scope)

    def statement(self, node: ast.stmt, scope: Scope) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    self.assign(scope, alias.asname, resolve(alias.name))
                else:
                    self.assign(scope, alias.name.split(".")[0], Module(alias.name.split(".")[0]))
        elif isinstance(node, ast.ImportFrom):
            self.import_from(node, scope)
        elif isinstance(node, ast.Assign):
            value = self.expr(node.value, scope)
            for target in node.targets:
                self.bind(target, value, scope, node.value)
        elif isinstance(node, ast.AnnAssign):
            if node.value is not None:
                self.bind(node.target, self.expr(node.value, scope), scope, node.value)
        elif isinstance(node, ast.AugAssign):
            self.augment(node, scope)
        elif isinstance(node, ast.Expr):
            self.expr(node.value, scope)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.define(node, scope)
        elif isinstance(node, ast.ClassDef):
            for decorator in node.decorator_list:
                self.expr(decorator, scope)
            self.body(node.body, Scope(parent=scope))  # its methods are walked at the end, never called
            self.assign(scope, node.name, Unknown(node, node.name))
        elif isinstance(node, ast.If):
            self.branch(node, scope)
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            self.loop(node, scope)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                self.expr(item.context_expr, scope)
                if item.optional_vars is not None:
                    self.bind(item.optional_vars, Unknown(item.optional_vars, unparse(item.optional_vars)), scope,
                              item.optional_vars)
            self.body(node.body, scope)
        elif isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
            self.attempt(node, scope)  # a launcher is read as it runs when nothing fails
        elif isinstance(node, ast.While) or type(node).__name__ == "Match":
            for field in ("test", "subject"):
                child = getattr(node, field, None)
                if isinstance(child, ast.expr):
                    self.expr(child, scope)
            branches = [getattr(node, "body", []), getattr(node, "orelse", [])] + [
                c.body for c in getattr(node, "cases", [])
            ]
            self.unsure(node, branches, scope, loop=isinstance(node, ast.While))
        elif isinstance(node, ast.Delete):
            for target in node.targets:
                self.bind(target, MISSING, scope, target)
        elif isinstance(node, ast.Return):
            value = self.expr(node.value, scope) if node.value is not None else None
            self.exit("return", value, node, self.literal_of(node.value))
        elif isinstance(node, (ast.Break, ast.Continue)):
            self.exit("break" if isinstance(node, ast.Break) else "continue", None, node)
        elif isinstance(node, (ast.Raise, ast.Assert)):
            # a launcher is read as it runs when nothing fails: a raise ends the program, whatever follows
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self.expr(child, scope)
        elif isinstance(node, ast.Global):
            scope.globals.update(node.names)
        elif isinstance(node, ast.Nonlocal):
            for name in node.names:
                self.forget(scope, name, node)

    def attempt(self, node: Any, scope: Scope) -> None:
        """``try``: its body as it runs when nothing fails, the ``except`` blocks as code that may run."""
        self.body(node.body, scope)
        self.unsure(node, [h.body for h in node.handlers], scope)
        self.body(node.orelse, scope)
        self.body(node.finalbody, scope)

    def import_from(self, node: ast.ImportFrom, scope: Scope) -> None:
        module = "." * node.level + (node.module or "")
        for alias in node.names:
            if alias.name == "*":
                if module in OUR_MODULES:
                    for name in CLASSES + ENUMS:
                        self.assign(scope, name, Target(name, module))
                    self.assign(scope, "rule_configs", Module(f"{module}.rule_configs"))
                elif module in RULE_CONFIG_MODULES:
                    for name in rule_config_names():
                        self.assign(scope, name, Target("rule_configs." + name))
                else:
                    scope.star_unknown = True
                continue
            self.assign(scope, alias.asname or alias.name, resolve(f"{module}.{alias.name}"))

    def define(self, node: Any, scope: Scope) -> None:
        """A ``def``: its defaults evaluated now; a decorated function is known only at run time (and walked
        without a call at the end, as one never called)."""
        for decorator in node.decorator_list:
            self.expr(decorator, scope)
        function = self.function(node, node.name, scope)
        function.decorated = bool(node.decorator_list)
        self.assign(scope, node.name, Unknown(node, node.name) if function.decorated else function)

    def function(self, node: Any, name: str, scope: Scope) -> Function:
        arguments = node.args
        defaults = [self.expr(d, scope) for d in arguments.defaults]
        kw_defaults = [self.expr(d, scope) if d is not None else MISSING for d in arguments.kw_defaults]
        function = Function(node, name, scope, defaults, kw_defaults, self.cell)
        self.functions.append(function)
        return function

    @property
    def _doubting(self) -> int:
        return len(self.fences)

    def doubt(self) -> "_Doubt":
        """A region that may not run: containers made before it are not changed in it."""
        return _Doubt(self)

    def unsure(self, node: ast.AST, branches: Sequence[Sequence[ast.stmt]], scope: Scope, loop: bool = False) -> None:
        """Walk each branch from the names before it; the names they bind or change are unknown after it."""
        if loop:  # inside a loop, a name may hold what a later statement of the body set
            bound, called = stored_names(node)
            for name in bound:
                if name in scope.names:
                    self.forget(scope, name, node)
            for name in called:
                if isinstance(scope.get(name), (list, dict, SourceCall)):
                    self.forget(scope, name, node)
        start = len(self.effects)
        before = dict(scope.names)
        frame = self.enter("walk") if loop else None
        try:
            with self.doubt():
                for statements in branches:
                    self.body(statements, scope)
                    scope.names.clear()
                    scope.names.update(before)
        finally:
            if frame is not None:
                self.frames.remove(frame)
        touched = {(id(s), name): (s, name) for s, name in self.effects[start:]}
        for held, name in touched.values():
            if held is scope or name in held.names:
                self.forget(held, name, node)

    def branch(self, node: ast.If, scope: Scope) -> None:
        test = truth(self.expr(node.test, scope))
        if test is None:
            self.unsure(node, [node.body, node.orelse], scope)
        else:
            self.body(node.body if test else node.orelse, scope)

    def loop(self, node: Any, scope: Scope) -> None:
        iterable = self.expr(node.iter, scope)
        items = self.items(iterable)
        if items is None or isinstance(node, ast.AsyncFor):
            self.bind(node.target, Unknown(node.target, unparse(node.target)), scope, node.target)
            calls = len(self.calls)
            self.unsure(node, [node.body, node.orelse], scope, loop=True)
            if items is None and self._too_long(iterable) and len(self.calls) > calls:
                self.not_followed(node.iter, f"the loop over {text_of(node.iter)} runs more often than lint follows "
                                             "in a file")
            return
        frame = self.enter("loop")
        broke = False
        literals = self.element_literals(iterable, items)
        try:
            for item, literal in zip(items, literals):
                self.bind(node.target, item, scope, node.target, literal)
                try:
                    self.body(node.body, scope)
                except Exit as leaving:
                    if leaving.kind == "break":
                        broke = True
                        break
                    if leaving.kind != "continue":
                        raise
        finally:
            self.leave(frame, node)
        if not broke:
            self.body(node.orelse, scope)

    def element_literals(self, iterable: Any, items: List[Any]) -> List[Optional[ast.AST]]:
        """The literal each item of a loop over a list or tuple display was written as (None each, else)."""
        written = self.elements.get(id(iterable)) if isinstance(iterable, (list, tuple)) else None
        return list(written) if written is not None and len(written) == len(items) else [None] * len(items)

    def items(self, iterable: Any) -> Optional[List[Any]]:
        """The items a loop or comprehension over ``iterable`` takes when lint follows it (known, within bounds)."""
        if self.exhausted():
            return None
        items = sequence(iterable)
        if items is None or len(items) > self.limits.loop:
            return None
        if self.iterations + len(items) > self.limits.iterations:
            return None
        self.iterations += len(items)
        return items

    def _too_long(self, iterable: Any) -> bool:
        return isinstance(iterable, (range, list, tuple, dict, str)) and (
            length(iterable) > self.limits.loop or self.exhausted() or self.iterations > self.limits.iterations
        )

    def enter(self, kind: str) -> Frame:
        frame = Frame(kind, self._doubting, len(self.effects))
        self.frames.append(frame)
        return frame

    def leave(self, frame: Frame, node: ast.AST) -> None:
        """The end of a loop or call followed: when an exit inside it may or may not have happened, what it bound
        or changed is unknown."""
        self.frames.remove(frame)
        if frame.unsure:
            for held, name in {(id(s), n): (s, n) for s, n in self.effects[frame.effects:]}.values():
                if name in held.names:
                    self.forget(held, name, node)

    def exit(self, kind: str, value: Any, node: ast.AST, literal: Optional[ast.AST] = None) -> None:
        """``break``/``continue``/``return``: leave the loop or function when the code surely gets here, else the
        loop or function is unsure (what it does is unknown after it)."""
        wanted = ("call",) if kind == "return" else ("loop", "walk", "call")
        frame = next((f for f in reversed(self.frames) if f.kind in wanted), None)
        if frame is None or frame.kind == "walk" or (kind != "return" and frame.kind == "call"):
            return  # a loop walked without being followed, or code outside any function
        if frame.doubt == self._doubting:
            raise Exit(kind, value, literal)
        frame.unsure = True

    def bind(self, target: ast.expr, value: Any, scope: Scope, source: ast.AST, literal: Any = MISSING) -> None:
        """Bind ``target`` to ``value``, evaluated from ``source``; ``literal``: what the value was written as, when
        not ``source``'s (an item of a loop over a list display)."""
        if isinstance(target, ast.Name):
            self.assign(scope, target.id, value)
            origin = self.origin_of.get(id(source))
            holder = self.module if target.id in scope.globals else scope
            if origin is not None and value is not MISSING:
                holder.origins[target.id] = origin
            written = self.literal_of(source) if literal is MISSING else literal
            if written is not None and value is not MISSING:
                holder.literals[target.id] = written
        elif isinstance(target, (ast.Tuple, ast.List)):
            items = value if isinstance(value, (list, tuple)) and len(value) == len(target.elts) else None
            literals = self.elements.get(id(value)) if items is not None else None
            for index, element in enumerate(target.elts):
                self.bind(
                    element, items[index] if items is not None else Unknown(source, unparse(element)), scope, source,
                    literals[index] if literals is not None and len(literals) == len(target.elts) else None,
                )
        elif isinstance(target, ast.Starred):
            self.bind(target.value, Unknown(source, unparse(target)), scope, source)
        elif isinstance(target, ast.Subscript):
            container = self.expr(target.value, scope)
            key = self.expr(subscript_of(target), scope)
            if isinstance(container, dict) and is_hashable(key) and value is not MISSING and self.mutable(container):
                container[key] = value
                self.item_at[id(container), key] = Item(None, None, None, self.literal_of(source))
                self.touch(target.value, scope)
            elif isinstance(container, list) and isinstance(key, int) and self.mutable(container):
                if -len(container) <= key < len(container) and value is not MISSING:
                    container[key] = value
                    self.touch(target.value, scope)
                else:
                    self.lose(target.value, scope, target)
            elif isinstance(container, (list, dict)):
                self.lose(target.value, scope, target)
        elif isinstance(target, ast.Attribute):
            self.set_attribute(target, value, scope, source)
        else:
            self.expr(target, scope)

    def touch(self, node: ast.expr, scope: Scope) -> None:
        """A container named by ``node`` was changed in place (for what an unsure region forgets)."""
        if isinstance(node, ast.Name):
            self.effects.append((scope.holder(node.id), node.id))

    def lose(self, node: ast.expr, scope: Scope, at: ast.AST) -> None:
        """A container named by ``node`` changes in a way lint does not follow (or may not change): unknown."""
        if isinstance(node, ast.Name):
            self.forget(scope, node.id, at)

    def set_attribute(self, target: ast.Attribute, value: Any, scope: Scope, source: ast.AST) -> None:
        """``obj.attr = value``: on an Estimator, a trainer or an SDK object, what its call would have been given for
        the attributes of :data:`ATTRIBUTES`; on another object of ours, that object is not checked."""
        current = self.expr(target.value, scope)
        if not isinstance(current, SourceCall):
            if isinstance(target.value, ast.Name) and current is not MISSING and not isinstance(current, (Module,
                                                                                                          Target)):
                self.forget(scope, target.value.id, target)
            return
        kind = "estimator" if current.target.startswith("estimator:") else current.target
        name = ATTRIBUTES.get(kind, {}).get(target.attr)
        if name is not None:
            if self.mutable(current):
                current.args[name], current.nodes[name] = value, source
                literal = self.literal_of(source)
                if literal is not None:
                    current.literals[name] = literal
                else:
                    current.literals.pop(name, None)
                origin = self.origin_of.get(id(source))
                if origin is not None:
                    current.nodes[name] = origin
            else:  # set where the code may not run: the argument is not known
                current.args[name], current.nodes[name] = Unknown(source, text_of(target)), source
            return
        if kind in ("estimator", "trainer", "attach", "render"):
            return  # an attribute lint does not read
        current.consumed = True
        current.state = "failed"  # not what its call built: not checked, in its job either
        self.cells_of[id(target)] = self.cell
        self.changed.append((target, f"not checked: {text_of(target.value)} is changed after it is built "
                                     f"({text_of(target)} = ...)"))
        if isinstance(target.value, ast.Name):
            self.forget(scope, target.value.id, target)

    def augment(self, node: ast.AugAssign, scope: Scope) -> None:
        value = self.expr(node.value, scope)
        if isinstance(node.target, ast.Name):
            current = scope.get(node.target.id)
            if isinstance(current, list) and isinstance(node.op, ast.Add) and isinstance(value, (list, tuple)):
                if self.mutable(current) and len(current) + len(value) <= ITEM_LIMIT:
                    current.extend(value)  # x += [...] changes the list in place
                    self.touch(node.target, scope)
                else:
                    self.forget(scope, node.target.id, node)
                return
            result = (
                binary_op(node.op, current, value, node) if current is not MISSING else Unknown(node, node.target.id)
            )
            self.assign(scope, node.target.id, self.new(result) if isinstance(result, (list, dict)) else result)
        else:
            self.bind(node.target, Unknown(node, unparse(node.target)), scope, node)

    # --- expressions --------------------------------------------------------------------------

    def expr(self, node: ast.expr, scope: Scope) -> Any:
        self.step()
        self.cells_of[id(node)] = self.cell
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            value = scope.get(node.id)
            if value is MISSING:
                self.place(node, None)
                if node.id in ("True", "False", "None"):
                    return {"True": True, "False": False, "None": None}[node.id]
                return BUILTINS.get(node.id) or Unknown(node, node.id)
            self.place(node, scope.origin(node.id))
            self.wrote(node, scope.literal(node.id))
            return value
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            items: List[Any] = []
            for element in node.elts:
                if isinstance(element, ast.Starred):
                    inner = self.expr(element.value, scope)
                    spread = sequence(inner)
                    if spread is not None:
                        items.extend(spread)
                        continue
                    return Unknown(node)
                items.append(self.expr(element, scope))
            if isinstance(node, ast.Set):
                return Unknown(node)
            made = self.nested(tuple(items) if isinstance(node, ast.Tuple) else items, node)
            if len(node.elts) == len(items):  # no *spread: each item written in the display
                self.elements[id(made)] = [self.literal_of(element) for element in node.elts]
            return made
        if isinstance(node, ast.Dict):
            return self.dict_display(node, scope)
        if isinstance(node, ast.Attribute):
            return self.attribute(self.expr(node.value, scope), node)
        if isinstance(node, ast.Call):
            return self.call(node, scope)
        if isinstance(node, ast.JoinedStr):
            return self.fstring(node, scope)
        if isinstance(node, ast.BinOp):
            return binary_op(node.op, self.expr(node.left, scope), self.expr(node.right, scope), node)
        if isinstance(node, ast.UnaryOp):
            operand = self.expr(node.operand, scope)
            if isinstance(node.op, ast.USub) and isinstance(operand, (int, float)) and not isinstance(operand, bool):
                self.carry(node, node.operand)
                return -operand
            self.place(node, None)
            if isinstance(node.op, ast.Not) and truth(operand) is not None:
                return not truth(operand)
            return Unknown(node)
        if isinstance(node, ast.Compare):
            left = self.expr(node.left, scope)
            return compare(left, node.ops, [self.expr(c, scope) for c in node.comparators], node)
        if isinstance(node, ast.BoolOp):
            return self.bool_op(node, scope)
        if isinstance(node, ast.IfExp):
            test = truth(self.expr(node.test, scope))
            if test is None:
                with self.doubt():
                    self.expr(node.body, scope)
                    self.expr(node.orelse, scope)
                return Unknown(node)
            chosen = self.expr(node.body if test else node.orelse, scope)
            self.wrote(node, self.literal_of(node.body if test else node.orelse))
            return chosen
        if isinstance(node, ast.Subscript):
            return self.subscript(node, scope)
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            return self.comprehension(node, scope)
        if isinstance(node, ast.Lambda):
            return self.function(node, "<lambda>", scope)
        if isinstance(node, ast.NamedExpr):
            value = self.expr(node.value, scope)
            self.bind(node.target, value, scope, node.value)
            self.wrote(node, self.literal_of(node.value))
            return value
        for child in ast.iter_child_nodes(node):  # walk for calls of ours inside (a starred value, await...)
            if isinstance(child, ast.expr):
                self.expr(child, scope)
        return Unknown(node)

    def carry(self, node: ast.AST, inner: ast.AST) -> None:
        """``node``'s value is ``inner``'s (converted): it was written where ``inner``'s was."""
        self.place(node, self.origin_of.get(id(inner)))

    def place(self, node: ast.AST, origin: Optional[ast.AST]) -> None:
        """Where the value ``node`` evaluated to this time was written (a node is evaluated once per call)."""
        if origin is None:
            self.origin_of.pop(id(node), None)
        else:
            self.origin_of[id(node)] = origin

    def dict_display(self, node: ast.Dict, scope: Scope) -> Any:
        out: Dict[Any, Any] = {}
        for index, (key, value) in enumerate(zip(node.keys, node.values)):
            if key is None:
                more = self.expr(value, scope)
                if not isinstance(more, dict):
                    return Unknown(node)
                out.update(more)
                for known in more:
                    if (id(more), known) in self.key_nodes:
                        self.key_nodes[id(out), known] = self.key_nodes[id(more), known]
                    self.item_at.pop((id(out), known), None)
                self.copy_items(more, out)
                continue
            known = self.expr(key, scope)
            item = self.expr(value, scope)
            if not is_hashable(known):
                return Unknown(node)
            out[known] = item
            # a value from a parameter: the place where the call wrote it
            self.key_nodes[id(out), known] = self.origin_of.get(id(value), key)
            self.item_at[id(out), known] = Item(node, index, self.literal_of(key), self.literal_of(value))
        made = self.nested(out, node)
        if made is out:
            self.displays[id(out)] = node
        return made

    def bool_op(self, node: ast.BoolOp, scope: Scope) -> Any:
        """``a and b``/``a or b``: the operand that decides, as Python gives it, while each is known."""
        value: Any = None
        for index, operand in enumerate(node.values):
            value = self.expr(operand, scope)
            decided = truth(value)
            if decided is None:
                with self.doubt():
                    for rest in node.values[index + 1:]:
                        self.expr(rest, scope)
                return Unknown(node)
            if decided is isinstance(node.op, ast.Or):
                return value
        return value

    def subscript(self, node: ast.Subscript, scope: Scope) -> Any:
        base = self.expr(node.value, scope)
        index = subscript_of(node)
        if isinstance(index, ast.Slice):
            bounds = [self.expr(part, scope) if part is not None else None for part in (index.lower, index.upper,
                                                                                        index.step)]
            if isinstance(base, (list, tuple, str)) and all(b is None or isinstance(b, int) for b in bounds):
                try:
                    part = base[slice(*bounds)]
                except ValueError:
                    return Unknown(node)
                return self.new(part) if isinstance(part, list) else part
            return Unknown(node)
        key = self.expr(index, scope)
        if isinstance(base, (dict, list, tuple, str, range)) and is_hashable(key):
            try:
                found = base[key]
            except (KeyError, IndexError, TypeError):
                return Unknown(node)
            self.wrote(node, self.literal_in(base, key))
            return found
        return Unknown(node)

    def literal_in(self, base: Any, key: Any) -> Optional[ast.AST]:
        """The literal ``base[key]`` was written as (a dict's item, a list display's element), if known."""
        if isinstance(base, dict):
            item = self.item_at.get((id(base), key))
            return item.value if item is not None else None
        elements = self.elements.get(id(base)) if isinstance(base, (list, tuple)) else None
        if elements is not None and isinstance(key, int) and -len(elements) <= key < len(elements):
            return elements[key]
        return None

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
        single = len(node.values) == 1 and isinstance(node.values[0], ast.FormattedValue)
        self.place(node, self.origin_of.get(id(node.values[0].value)) if single else None)  # type: ignore[attr-defined]
        return join_parts(parts, node)

    def comprehension(self, node: Any, scope: Scope) -> Any:
        """A comprehension over known sequences, as a list (a dict for a dict comprehension); else walked once with
        its targets unknown."""
        calls, sites = len(self.calls), len(self.sites)
        inner = Scope(parent=scope)
        out: List[Any] = []
        if self.generate(node, 0, inner, scope, out):
            if isinstance(node, ast.DictComp):
                if all(is_hashable(k) for k, _ in out):
                    result = self.new({})
                    for key, value in out:
                        result[key] = value
                    return result
                return Unknown(node)
            return self.new(out) if not isinstance(node, ast.SetComp) else Unknown(node)
        del self.calls[calls:], self.sites[sites:]  # the iterations done are walked again, once, below
        inner = Scope(parent=scope)
        with self.doubt():
            for generator in node.generators:
                self.expr(generator.iter, inner)
                self.bind(generator.target, Unknown(generator.target, unparse(generator.target)), inner,
                          generator.target)
                for condition in generator.ifs:
                    self.expr(condition, inner)
            for part in ("key", "value", "elt"):
                if getattr(node, part, None) is not None:
                    self.expr(getattr(node, part), inner)
        return Unknown(node)

    def generate(self, node: Any, index: int, inner: Scope, outer: Scope, out: List[Any]) -> bool:
        """Run the comprehension's generators from ``index`` on: False when one is not followed."""
        generator = node.generators[index]
        iterable = self.expr(generator.iter, outer if index == 0 else inner)
        items = self.items(iterable)
        if items is None or generator.is_async:
            return False
        for item, literal in zip(items, self.element_literals(iterable, items)):
            self.bind(generator.target, item, inner, generator.target, literal)
            keep = True
            for condition in generator.ifs:
                decided = truth(self.expr(condition, inner))
                if decided is None:
                    return False
                keep = keep and decided
                if not keep:
                    break
            if not keep:
                continue
            if index + 1 < len(node.generators):
                if not self.generate(node, index + 1, inner, outer, out):
                    return False
            elif isinstance(node, ast.DictComp):
                out.append((self.expr(node.key, inner), self.expr(node.value, inner)))
            else:
                out.append(self.expr(node.elt, inner))
        return True

    def attribute(self, base: Any, node: ast.Attribute) -> Any:
        if isinstance(base, Module):
            return resolve(f"{base.path}.{node.attr}")
        if isinstance(base, Target) and base.name in ("Rule", "ProfilerRule") and node.attr in ("sagemaker", "custom"):
            return Target(f"{base.name}.{node.attr}", base.module)
        if isinstance(base, Target) and base.name in ENUMS:
            member = enum_member(base.name, node.attr)
            return member if member is not None else Unknown(node)
        if isinstance(base, SourceCall) and base.target == "trainer" and node.attr in TRAINER_BUILDERS:
            return Method(node, base, node.attr)  # SDK v3: each with_* sets a field and returns the trainer
        if isinstance(base, (list, dict, str)):
            return Method(node, base, node.attr)
        return Unknown(node)

    def call(self, node: ast.Call, scope: Scope) -> Any:
        func = self.expr(node.func, scope)
        given = self.arguments(node, scope)
        if isinstance(func, Target):
            return self.target_call(func.name, node, given, func.module)
        if isinstance(func, Function):
            return self.follow(func, given, node)
        self.wrote(node, None)
        if isinstance(func, Method):
            return self.method(func, given, node, scope)
        if func is getattr:  # getattr(obj, "name") is obj.name; a default or an unknown name: not known
            if len(given.positional) != 2 or given.keywords or not isinstance(given.positional[1], str):
                return Unknown(node)
            return self.attribute(given.positional[0], ast.copy_location(
                ast.Attribute(value=node.args[0], attr=given.positional[1], ctx=ast.Load()), node))
        if not isinstance(func, Unknown) and func in BUILTINS.values() and not given.splat_unknown:
            self.place(node, self.origin_of.get(id(node.args[0])) if func in (str, int, float) and len(node.args) == 1
                       else None)
            made = self.new_if_container(builtin(func, given.positional, given.keywords, node),
                                         given.positional[0] if given.positional else None)
            if func is dict and isinstance(made, dict):
                self.dict_keywords(node, given, made)
            elif func in (enumerate, zip) and isinstance(made, list):
                self.paired_literals(func, given.positional, made)
            return made
        if isinstance(func, Module) and func.path in ("os.path.join", "posixpath.join"):
            return interleave("/", given.positional, node)
        return Unknown(node)

    def paired_literals(self, func: Any, sources: List[Any], made: List[Any]) -> None:
        """``enumerate(xs)``, ``zip(xs, ys)``: each tuple made holds the literals its items were written as (the
        displays' elements), so that a loop ``for i, x in enumerate([...])`` is edited where ``x`` was written."""
        zipped = sources if func is zip else sources[:1]  # enumerate's second argument is its start
        columns = [self.element_literals(source, sequence(source) or []) for source in zipped]
        for index, pair in enumerate(made):
            if not isinstance(pair, tuple):
                continue
            literals: List[Optional[ast.AST]] = [None] if func is enumerate else []  # enumerate's count: computed
            literals += [column[index] if index < len(column) else None for column in columns]
            if any(literal is not None for literal in literals):
                self.elements[id(pair)] = literals
                self._keep.append(pair)  # its id stays its own while the record holds it

    def dict_keywords(self, node: ast.Call, given: Arguments, made: Dict[Any, Any]) -> None:
        """``dict(k=v, ...)``: each keyword's item where it was written (a fix edits the keyword there, and a member
        not written is added as a keyword, as it would be to a dict display)."""
        for index, keyword in enumerate(node.keywords):
            if keyword.arg is None or keyword.arg not in made:
                continue
            self.item_at[id(made), keyword.arg] = Item(node, index, None, given.keyword_literals.get(keyword.arg))
            where = keyword if getattr(keyword, "lineno", None) is not None else keyword.value  # Python 3.8: none
            self.cells_of[id(where)] = self.cell
            self.key_nodes[id(made), keyword.arg] = self.origin_of.get(id(keyword.value), where)
        self.displays[id(made)] = node

    def new_if_container(self, value: Any, source: Any = None) -> Any:
        if isinstance(value, dict) and isinstance(source, dict):  # dict(d, k=v): d's keys stay where d wrote them
            for key in value:
                if (id(source), key) in self.key_nodes:
                    self.key_nodes.setdefault((id(value), key), self.key_nodes[id(source), key])
            self.copy_items(source, value)
        return self.new(value) if isinstance(value, (list, dict)) else value

    def copied(self, owner: Any) -> Any:
        """A copy of a list or dict (a dict's keys placed where the original wrote them)."""
        return self.new_if_container(owner.copy(), owner)

    def method(self, func: Method, given: Arguments, node: ast.Call, scope: Scope) -> Any:
        """A method of a trainer (``with_*``: the trainer), of a known string, list or dict."""
        owner, name = func.owner, func.name
        if isinstance(owner, SourceCall):
            return owner
        base = node.func.value if isinstance(node.func, ast.Attribute) else node.func
        if given.splat_unknown:
            if isinstance(owner, (list, dict)) and name not in _READ_ONLY:
                self.lose(base, scope, node)
            return Unknown(node)
        args, keywords = given.positional, given.keywords
        if isinstance(owner, str):
            if name == "format":
                return format_string(owner, args, keywords, node)
            if name == "join" and len(args) == 1 and isinstance(args[0], (list, tuple)) and not keywords:
                return interleave(owner, args[0], node)
            if name in STR_METHODS:
                return str_method(owner, name, args, keywords, node)
            return Unknown(node)
        if name in _READ_ONLY:
            return self.read(owner, name, args, keywords, node)
        if name in _GROW and self.mutable(owner) and self.grow(owner, name, args, keywords):
            self.touch(base, scope)
            return None
        self.lose(base, scope, node)
        return Unknown(node)

    def read(self, owner: Any, name: str, args: List[Any], keywords: Dict[str, Any], node: ast.AST) -> Any:
        """A method of a list or dict that changes nothing."""
        if keywords:
            return Unknown(node)
        if name == "copy" and not args:
            return self.copied(owner)
        if isinstance(owner, dict):
            if name in ("keys", "values", "items") and not args:
                return self.new(list(getattr(owner, name)()))
            if name == "get" and 1 <= len(args) <= 2 and is_hashable(args[0]):
                return owner.get(args[0], args[1] if len(args) == 2 else None)
            return Unknown(node)
        if name in ("index", "count") and len(args) == 1 and is_known(args[0]) and is_known(owner):
            try:
                return getattr(owner, name)(args[0])
            except ValueError:
                return Unknown(node)
        return Unknown(node)

    @staticmethod
    def grow(owner: Any, name: str, args: List[Any], keywords: Dict[str, Any]) -> bool:
        """``append``/``extend``/``insert`` of a list, ``update`` of a dict, done: True; False when not followed."""
        if isinstance(owner, list) and not keywords:
            if len(owner) >= ITEM_LIMIT:
                return False
            if name == "append" and len(args) == 1:
                owner.append(args[0])
                return True
            more = sequence(args[0]) if name == "extend" and len(args) == 1 else None
            if more is not None and len(owner) + len(more) <= ITEM_LIMIT:
                owner.extend(more)
                return True
            if name == "insert" and len(args) == 2 and isinstance(args[0], int):
                owner.insert(args[0], args[1])
                return True
        if isinstance(owner, dict) and name == "update" and len(args) <= 1:
            other = args[0] if args else {}
            if isinstance(other, dict):
                owner.update(other, **keywords)
                return True
        return False

    def follow(self, function: Function, given: Arguments, node: ast.Call) -> Any:
        """A call of the source's own function: its body run with the parameters bound (what it returns), within
        the bounds; a call deeper than them is not followed (said once)."""
        if self.depth >= self.limits.depth or self.exhausted():
            why = "calls functions deeper than" if self.depth >= self.limits.depth else "comes after all the work that"
            self.not_followed(node, f"{text_of(node.func)}(...) {why} lint follows in a file")
            for name in changed_outside(function.definition):
                self.forget(self.module, name, node)
            return Unknown(node)
        inner = Scope(parent=function.scope)
        bound = self.bind_parameters(function, given, node, inner)
        if bound is None:
            return Unknown(node)  # the call raises TypeError at run time
        function.followed += 1
        frame = self.enter("call")
        before, self.cell = self.cell, function.cell
        self.depth += 1
        result: Any = None
        literal: Optional[ast.AST] = None
        try:
            if isinstance(function.definition, ast.Lambda):
                result = self.expr(function.definition.body, inner)
                literal = self.literal_of(function.definition.body)
            else:
                self.body(getattr(function.definition, "body", []), inner)
        except Exit as leaving:
            if leaving.kind != "return":
                raise
            result, literal = leaving.value, leaving.literal
        finally:
            self.depth -= 1
            self.cell = before
            self.leave(frame, node)
        if frame.unsure or isinstance(function.definition, ast.AsyncFunctionDef) or is_generator(function.definition):
            return Unknown(node)
        self.wrote(node, literal)  # a helper's return value: a fix edits it where the helper wrote it
        return result

    def bind_parameters(self, function: Function, given: Arguments, node: ast.Call, inner: Scope) -> Optional[bool]:
        """Bind the call's arguments to ``function``'s parameters in ``inner``, as Python does; None when Python
        refuses them. Arguments hidden in an unknown ``*args``/``**kwargs`` make every parameter unknown."""
        arguments = function.definition.args  # type: ignore[attr-defined]
        if given.splat_unknown:
            for name, arg in parameters(arguments):
                inner.names[name] = Unknown(arg, name)
            return True
        try:
            bound = signature_of(function).bind(*given.positional, **given.keywords)
        except TypeError:
            return None
        bound.apply_defaults()
        written = dict(zip(range(len(given.positional)), given.positional_nodes))
        literals = dict(zip(range(len(given.positional)), given.positional_literals))
        positional = [a.arg for a in getattr(arguments, "posonlyargs", []) + arguments.args]
        defaults = dict(zip(positional[len(positional) - len(arguments.defaults):], arguments.defaults))
        defaults.update((a.arg, d) for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults) if d is not None)
        for name, value in bound.arguments.items():
            if name == (arguments.vararg.arg if arguments.vararg else None):
                value = tuple(value)
            elif name == (arguments.kwarg.arg if arguments.kwarg else None):
                value = self.new(dict(value))
                for key in value:
                    if key in given.keyword_nodes:
                        self.key_nodes[id(value), key] = given.keyword_nodes[key]
            inner.names[name] = value
            place = given.keyword_nodes.get(name)
            if place is None and name in positional and positional.index(name) in written:
                place = written[positional.index(name)]
            if name in given.keyword_literals:
                literal = given.keyword_literals[name]
            elif name in positional and positional.index(name) in literals:
                literal = literals[positional.index(name)]
            else:
                literal = self.literal_of(defaults.get(name))  # the default, written in the def
            if literal is not None:
                inner.literals[name] = literal
            if place is None:
                place = defaults.get(name)  # the default, written in the def
            if place is not None:
                inner.origins[name] = self.origin_of.get(id(place), place)
        return True

    def arguments(self, node: ast.Call, scope: Scope) -> Arguments:
        """The call's arguments evaluated, ``*list`` and ``**dict`` of known content spread."""
        given = Arguments()
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                inner = self.expr(arg.value, scope)
                spread = sequence(inner)
                if spread is not None and not isinstance(inner, dict):
                    given.positional.extend(spread)
                    given.positional_nodes.extend([arg.value] * len(spread))
                    given.positional_literals.extend(self.element_literals(inner, spread))
                else:
                    given.splat_unknown = True
                continue
            given.positional.append(self.expr(arg, scope))
            given.positional_nodes.append(self.origin_of.get(id(arg), arg))
            given.positional_literals.append(self.literal_of(arg))
        for keyword in node.keywords:
            value = self.expr(keyword.value, scope)
            if keyword.arg is None:
                if isinstance(value, dict) and all(isinstance(k, str) for k in value):
                    given.keywords.update(value)
                    given.keyword_nodes.update(
                        {k: self.key_nodes.get((id(value), k), keyword.value) for k in value}
                    )
                    given.keyword_literals.update({k: self.literal_in(value, k) for k in value})
                else:
                    given.splat_unknown = True
                continue
            given.keywords[keyword.arg] = value
            given.keyword_nodes[keyword.arg] = self.origin_of.get(id(keyword.value), keyword.value)
            given.keyword_literals[keyword.arg] = self.literal_of(keyword.value)
        return given

    def target_call(self, name: str, node: ast.Call, given: Arguments, module: str = "") -> Any:
        if name in ("retrieve", "get_image_uri"):
            return image_spec(name, node, given)
        args, bound_nodes, literals = signatures.bind(name, given)
        if given.splat_unknown:
            args["**"] = Unknown(node, "*args/**kwargs")
        call = self.new(SourceCall(name, node, args, bound_nodes, module))
        call.literals.update(literals)
        for value in walk_values(list(args.values())):
            if isinstance(value, SourceCall):
                value.nested = True
        self.calls.append(call)
        if name.startswith("estimator:") or name in ("attach", "render"):
            self.sites.append(call)
        return call


#: The nodes that are literals themselves (a fix edits them where they are).
_LITERALS = (ast.Constant, ast.JoinedStr, ast.Dict, ast.List, ast.Tuple)


class _Doubt:
    """The context of :meth:`Evaluator.doubt`."""

    def __init__(self, ev: Evaluator) -> None:
        self.ev = ev

    def __enter__(self) -> None:
        self.ev.fences.append(self.ev.made_count())

    def __exit__(self, *exc: Any) -> None:
        self.ev.fences.pop()


