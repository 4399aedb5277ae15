"""Reading the format (:mod:`.format`): a parsed tree into the objects it describes, built by their own constructors
(as written, for ``validate``: :mod:`sm_debug_config.model.building`).

The reader remembers where each key is and the config path of every object it built: a later
error finds its key through those and the error's ``path``, never by reading messages. A key
kind is read by the method :data:`Reader.READERS` names for it, else as a scalar, a choice or
an object of the format of that name.
"""
from __future__ import annotations

import contextlib
from typing import Any, Callable, ClassVar, Dict, Iterator, List, NoReturn, Optional, Sequence, Tuple, Union

import rule_configs
from sm_debug_config.configfile import format as fmt
from sm_debug_config.configfile.document import Positions
from sm_debug_config.configfile.parse import NUMBER_TEXT_RE, Node, describe
from sm_debug_config.configfile.text import ConfigFileError
from sm_debug_config.errors import ConfigError, PathT, did_you_mean, shorten
from sm_debug_config.findings import Finding
from sm_debug_config.model import building, catalogue, regions
from sm_debug_config.model import validators as v
from sm_debug_config.model.actions import SMS, ActionList, Email
from sm_debug_config.model.hook import CollectionConfig
from sm_debug_config.model.rules import DetailedProfilerProcessingJobConfig, ProfilerRule, Rule
from sm_debug_config.sourcemap import SourceMap

MAX_RULES = 40  # the API takes 20 debugger and 20 profiler rules


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)  # .inf too: the constructors say why not


_SCALARS = {  # scalar kind -> (accepts, what is expected)
    "string": (lambda x: isinstance(x, str), "a string"),
    "integer": (v.is_int, "an integer"),
    "number": (_is_number, "a number"),
    "boolean": (lambda x: isinstance(x, bool), "true or false"),
    "int_or_string": (lambda x: isinstance(x, str) or v.is_int(x), "a string"),
}


def deepest(positions: Any, path: PathT) -> PathT:
    """The longest start of ``path`` that the file has (``()`` if none)."""
    while path and path not in positions:
        path = path[:-1]
    return path


class KeyPlaces(SourceMap[PathT]):
    """Where a config file's objects and keys are: a place is a key path; below it, the keys the file has."""

    def __init__(self, positions: Any) -> None:
        super().__init__()
        self.positions = positions

    def below(self, place: PathT, part: Union[str, int]) -> Optional[PathT]:
        child = place + (part,)
        return child if child in self.positions else None

    def top(self, member: str) -> Optional[PathT]:
        key = (fmt.data()["request_keys"].get(member, ""),)
        return key if key in self.positions else None


class Reader:
    """Walks the tree, checks keys and types, builds the objects, and keeps where everything is."""

    #: A key kind's reader, if it has one of its own (a kind without one is a scalar, a choice or a format).
    READERS: ClassVar[Dict[str, Callable[["Reader", Node, PathT], Any]]]

    def __init__(self, source: str, as_far_as_possible: bool = False, positions: Optional[Positions] = None) -> None:
        self.source = source
        #: validate's reading: an object its constructor refuses is kept as written (a request check
        #: then sees the value), an unknown key or a broken list item is left out; each error is collected
        self.as_far_as_possible = as_far_as_possible
        #: where each key read is (JSON: found in the text when first asked for)
        self.keys = positions if positions is not None else Positions()
        self.places = KeyPlaces(self.keys)  #: the config path each object was built from
        #: errors of independent parts (top-level keys, list items), collected so that one run reports them all
        self.errors: List[ConfigFileError] = []
        #: the constructors' warnings and infos, each at its key (``line``, ``column``; ``path`` below its object)
        self.findings: List[Finding] = []

    @contextlib.contextmanager
    def independent(self) -> Iterator[None]:
        """A part whose error does not stop the reading of the others: the error is collected."""
        try:
            yield
        except ConfigFileError as err:
            self.errors.append(err)

    # -- errors
    def position(self, path: PathT) -> Optional[Tuple[int, int]]:
        return self.keys.get(deepest(self.keys, path))

    def error(
        self,
        message: str,
        path: PathT,
        node: Optional[Node] = None,
        allowed: Optional[str] = None,
        code: Optional[str] = None,
        fix: Any = None,
    ) -> ConfigFileError:
        where = (node.line, node.column) if node is not None else self.position(path)
        line, column = where if where else (None, None)
        return ConfigFileError(
            message, source=self.source, line=line, column=column, path=path, allowed=allowed, code=code, fix=fix
        )

    def fail(self, message: str, path: PathT, node: Optional[Node] = None, allowed: Optional[str] = None) -> NoReturn:
        raise self.error(message, path, node, allowed)

    def type_error(self, node: Node, path: PathT, expected: str) -> NoReturn:
        hint = ""
        if (
            node.kind == "scalar"
            and isinstance(node.value, str)
            and node.plain
            and node.value.lower() in ("yes", "no", "on", "off", "y", "n")
        ):
            hint = f"; write true or false, not {node.value}"
        self.fail(f"expected {expected}, got {describe(node)}{hint}", path)

    def where(self, parts: PathT, roots: Sequence[PathT]) -> Tuple[PathT, bool]:
        """The config path of a constructor's error ``path`` (below the object built, ``roots[0]``, or another root),
        and whether the file has it."""
        for root in roots:
            if parts and root + parts[:1] in self.keys:
                return root + parts, root + parts in self.keys
        return roots[0], bool(parts) and roots[0][-1:] == parts[-1:]

    def placed(self, err: ConfigError, roots: Sequence[PathT]) -> ConfigFileError:
        """A constructor's error, its ``path`` below the object built at ``roots[0]`` (or another root), at its key."""
        if isinstance(err, ConfigFileError):
            return err
        path, named = self.where(err.path, roots)
        message = err.message if named or not err.field else f"{err.field}: {err.message}"
        return self.error(message, path, allowed=err.allowed, code=err.code, fix=err.fix)

    def build(self, factory: Any, kwargs: Dict[str, Any], path: PathT, *roots: PathT) -> Any:
        """``factory(**kwargs)`` built as written (:func:`~sm_debug_config.model.building.build`): its errors placed
        below ``path`` (or another root) and collected (``as_far_as_possible``) or the first raised, its warnings
        placed in :attr:`findings`; the object is remembered as built at ``path``."""
        built = building.build(factory, (), kwargs, as_written=self.as_far_as_possible)
        roots = (path, *roots)
        errors = [self.placed(err, roots) for err in built.errors]
        for finding in built.findings[len(built.errors):]:
            position = self.position(self.where(finding.path, roots)[0])
            line, column = position if position else (None, None)
            self.findings.append(finding.replace(line=line, column=column))
        if errors and not (self.as_far_as_possible and built.built):
            self.errors.extend(errors[1:])
            raise errors[0]
        self.errors.extend(errors)
        obj = built.value
        self.places.built(obj, path)
        return obj

    def check(self, call: Callable[[], Any], roots: Sequence[PathT]) -> None:
        """``call()``, a check of a value read (not an object built), its error placed at its key."""
        try:
            call()
        except ConfigError as err:
            raise self.placed(err, roots) from None

    # -- structure
    def mapping(self, node: Node, path: PathT, form: fmt.Format, more: Sequence[str] = ()) -> Dict[str, Node]:
        """The value nodes of ``node``'s keys, each a key of ``form`` (or ``more``)."""
        keys, what = list(form.keys) + list(more), form.what
        if node.kind != "map":
            self.type_error(node, path, f"a mapping ({what})")
        out: Dict[str, Node] = {}
        for key_node, value_node in node.value:
            key = self.key(key_node, path)
            if key not in keys:
                hint = did_you_mean(key, keys)
                if key == "<<":
                    hint = " YAML merge keys (<<) are not supported; use an alias for the whole value instead"
                error = self.error(
                    f"unknown key {shorten(key)} in {what};{hint}".rstrip(";"), path + (key,), allowed=", ".join(keys)
                )
                if not self.as_far_as_possible:
                    raise error
                self.errors.append(error)  # the rest of the mapping is read without it
                continue
            out[key] = value_node
        return out

    def key(self, key_node: Node, path: PathT) -> str:
        if key_node.kind != "scalar" or not isinstance(key_node.value, str):
            self.fail(f"keys must be strings, got {describe(key_node)}", path, key_node)
        self.place(path + (key_node.value,), key_node)
        return key_node.value  # type: ignore[no-any-return]

    def place(self, path: PathT, node: Node) -> PathT:
        """Remember where ``path`` is written (JSON the composer could not follow has no positions)."""
        self.keys.add(path, node.line, node.column)
        return path

    def seq(self, node: Node, path: PathT, expected: str) -> List[Tuple[PathT, Node]]:
        if node.kind != "seq":
            self.type_error(node, path, expected)
        return [(self.place(path + (index,), item), item) for index, item in enumerate(node.value)]

    def fields(
        self, fields: Dict[str, Node], path: PathT, form: fmt.Format, skip: Sequence[str] = (), collect: bool = False
    ) -> Dict[str, Any]:
        """Every field of ``form`` present in ``fields``, read by its kind; null means absent; ``collect``:
        errors are collected."""
        out: Dict[str, Any] = {}
        for key, node in fields.items():
            kind = form.keys[key].kind
            if key not in skip and not (node.is_null and kind != "rule_parameters"):
                with self.independent() if collect else contextlib.nullcontext():
                    out[key] = self.value(node, path + (key,), kind)
        return out

    def read(self, node: Node, path: PathT, form: fmt.Format) -> Dict[str, Any]:
        """The values of ``form``'s keys in the mapping ``node``, its required keys checked."""
        values = self.fields(self.mapping(node, path, form), path, form)
        for key in form.required:
            if values.get(key) is None:
                self.fail(
                    f"{form.what} needs {key}",
                    path,
                    allowed=", ".join(form.required) + " are required" if len(form.required) > 1 else None,
                )
        return values

    def obj(self, node: Node, path: PathT, name: str) -> Any:
        """An object of format ``name`` built by its class from the keys present."""
        form = fmt.formats()[name]
        empty = node.is_null and {"type": "null"} in form.alternatives  # stop_training: (null) as {}
        return self.build(form.build_class(), {} if empty else self.read(node, path, form), path)

    # -- values
    def value(self, node: Node, path: PathT, kind: str) -> Any:
        reader = self.READERS.get(kind)
        if reader is not None:
            return reader(self, node, path)
        if kind in _SCALARS:
            return self.scalar_of(node, path, kind)
        allowed = fmt.choices(kind)
        if allowed is not None:
            return self.choice(node, path, allowed)
        return self.obj(node, path, kind)

    def scalar_of(self, node: Node, path: PathT, kind: str) -> Any:
        """The scalar of ``node`` if it is of the scalar ``kind`` (``_SCALARS``), else a type error."""
        accepts, expected = _SCALARS[kind]
        if node.kind == "scalar" and accepts(node.value):
            return node.value
        if node.plain and kind == "number" and isinstance(node.value, str) and NUMBER_TEXT_RE.match(node.value):
            return float(node.value)  # 1e3 written unquoted
        if node.plain and kind in ("string", "int_or_string") and _is_number(node.value) and node.raw:
            return node.raw  # an unquoted number where text is expected: what was typed
        self.type_error(node, path, expected)

    def read_string(self, node: Node, path: PathT) -> str:
        return self.scalar_of(node, path, "string")  # type: ignore[no-any-return]

    def choice(self, node: Node, path: PathT, choices: Sequence[str]) -> str:
        text = self.read_string(node, path)
        for choice in choices:
            if text.lower() == choice.lower():
                return choice
        self.fail(
            f"{shorten(text)} is not allowed;{did_you_mean(text, list(choices))}".rstrip(";"),
            path,
            allowed=", ".join(choices),
        )

    def read_string_list(self, node: Node, path: PathT) -> List[str]:
        return [self.read_string(item, child) for child, item in self.seq(node, path, "a list of strings")]

    def read_names_or_bool(self, node: Node, path: PathT) -> Union[bool, List[str]]:
        if node.kind == "scalar" and isinstance(node.value, bool):
            return node.value
        if node.kind != "seq":
            self.type_error(node, path, "true, false or a list of parameter names")
        return self.read_string_list(node, path)

    def scalar(self, node: Node, path: PathT, raw_numbers: bool) -> Any:
        if node.kind != "scalar" or node.value is None:
            self.type_error(node, path, "a string, number or boolean")
        if raw_numbers and node.plain and _is_number(node.value) and node.raw:
            return node.raw
        return node.value

    def read_string_map(self, node: Node, path: PathT, rule_parameters: bool = False) -> Dict[str, Any]:
        if node.kind != "map":
            self.type_error(node, path, f"a mapping ({path[-1]})")
        out: Dict[str, Any] = {}
        for key_node, value_node in node.value:
            key = self.key(key_node, path)
            child = path + (key,)
            if not rule_parameters:
                out[key] = self.scalar(value_node, child, raw_numbers=True)
            elif value_node.kind == "seq":
                out[key] = [
                    self.scalar(item, c, raw_numbers=False) for c, item in self.seq(value_node, child, "a list")
                ]
            elif value_node.kind != "scalar":
                self.type_error(value_node, child, "a string, number, boolean, null or a list of them")
            else:
                out[key] = value_node.value
        return out

    def read_rule_parameters(self, node: Node, path: PathT) -> Optional[Dict[str, Any]]:
        return None if node.is_null else self.read_string_map(node, path, rule_parameters=True)

    # -- objects with more than one form
    def top(self, root: Node) -> Dict[str, Any]:
        self.place((), root)
        form = fmt.formats()["config"]
        fields = self.mapping(root, (), form)
        out = self.fields(fields, (), form, skip=("$schema",), collect=True)
        if "$schema" in fields:
            self.read_string(fields["$schema"], ("$schema",))
        if "region" in out:
            try:
                self.check(lambda: regions.check_region(out["region"]), [("region",)])
            except ConfigFileError as err:
                if not self.as_far_as_possible:
                    raise
                self.errors.append(err)  # reported; the rest of the file is still checked, in the default region
                del out["region"]
        return out

    def read_debugger_hook_config(self, node: Node, path: PathT) -> Any:
        if node.kind == "scalar" and isinstance(node.value, bool):
            return node.value
        return self.obj(node, path, "debugger_hook_config")

    def read_collections(self, node: Node, path: PathT) -> List[Any]:

        out = []
        for child, item in self.seq(node, path, "a list of collections (names or {name, parameters})"):
            with self.independent() if self.as_far_as_possible else contextlib.nullcontext():  # the others still built
                if item.kind == "scalar" and not (item.value is None or isinstance(item.value, bool)):
                    out.append(self.build(CollectionConfig, {"name": self.read_string(item, child)}, child))
                else:
                    out.append(self.obj(item, child, "collection"))
        return out

    def read_actions(self, node: Node, path: PathT) -> Any:

        if node.kind != "seq":
            return self.action(node, path)
        built = [self.action(item, child) for child, item in self.seq(node, path, "a list of actions")]
        return self.build(lambda: ActionList(*built), {}, path)

    def action(self, node: Node, path: PathT) -> Any:

        form = fmt.formats()["action"]
        fields = self.mapping(node, path, form)
        if len(fields) != 1:
            self.fail(f"an action has exactly one of {', '.join(form.keys)}, got {len(fields)} keys", path)
        (key, value), = fields.items()
        child = path + (key,)
        if key == "stop_training":
            return self.obj(value, child, "stop_training")
        address = self.read_string(value, child)
        return self.build(lambda: (Email if key == "email" else SMS)(address), {}, child, path)

    def read_rules(self, node: Node, path: PathT) -> List[Any]:
        if node.kind == "seq" and len(node.value) > MAX_RULES:  # refused before thousands of rules are built
            self.fail(f"a config holds at most {MAX_RULES} rules, got {len(node.value)}", path,
                      allowed="up to 20 debugger rules and 20 profiler rules (the API's limits)")
        rules = []
        for child, item in self.seq(node, path, "a list of rules"):
            with self.independent():  # each rule is read, whatever the others
                rules.append(self.rule(item, child))
        return rules

    def rule(self, node: Node, path: PathT) -> Any:
        if node.kind == "scalar" and isinstance(node.value, str):  # "- VanishingGradient"
            self.place(path + ("builtin",), node)
            return self.builtin_rule({"builtin": node}, path)
        entries = fmt.rule_entries()
        fields = self.mapping(node, path, fmt.formats()["builtin_rule"], more=list(entries))
        kinds = [k for k in ("builtin", *entries) if k in fields]
        if len(kinds) != 1:
            got = " and ".join(kinds) if kinds else "none"
            self.fail(
                f"a rule entry has exactly one of {', '.join(k + ':' for k in ('builtin', *entries))} got {got}", path
            )
        kind = kinds[0]
        if kind == "builtin":
            return self.builtin_rule(fields, path)
        others = [k for k in fields if k != kind]
        if others:
            self.fail(
                f"the settings of a {kind} rule go inside {kind}: (move {shorten(others[0])} there)",
                path + (others[0],),
            )
        child = path + (kind,)
        form = fmt.formats()[entries[kind]]
        values, cls = self.read(fields[kind], child, form), form.build_class()
        if kind.startswith("custom"):  # .custom(...); rule: and profiler_rule: the constructor, every argument given
            return self.build(cls.custom, values, child, child + ("rule_parameters",))  # errors may name a parameter
        return self.build(cls, {k: values.get(k) for k in form.keys}, child, child + ("rule_parameters",))

    def builtin_rule(self, fields: Dict[str, Node], path: PathT) -> Any:


        form = fmt.formats()["builtin_rule"]
        name_path = path + ("builtin",)
        requested = self.read_string(fields["builtin"], name_path)
        values = self.fields(fields, path, form, skip=("builtin",))
        params = values.pop("rule_parameters", None) or {}
        params_path = path + ("rule_parameters",)
        if requested == fmt.DETAILED_PROFILER_RULE:
            for key in [k for k in fields if k not in fmt.detailed_profiler_keys()]:
                self.fail(
                    f"{key} is not a setting of {requested}",
                    path + (key,),
                    allowed=", ".join(fmt.detailed_profiler_keys()),
                )
            values.setdefault("name", requested)
            return self.build(
                lambda: ProfilerRule.sagemaker(DetailedProfilerProcessingJobConfig(), **values), {}, path, params_path
            )
        allow_unknown = values.get("allow_unknown_parameters", False)
        unknown: Optional[ConfigError] = None
        try:
            kind, entry = catalogue.find(requested)
        except ConfigError as err:
            kind, entry, unknown = "unknown", None, err
        if unknown is not None and not allow_unknown:
            self.fail(unknown.message, name_path, allowed=unknown.allowed)
        for key in [k for k in form.only("debugger" if kind == "profiler" else "profiler") if k in fields]:
            if kind == "profiler":
                self.fail(
                    f"{key} is for debugger rules; {catalogue.canonical_name(requested)} is a profiler rule",
                    path + (key,),
                )
            self.fail(
                f"{key} is for profiler rules; built-in debugger rules run on instances SageMaker manages",
                path + (key,),
            )
        if kind == "profiler":
            canonical = catalogue.canonical_name(requested)
            return self.build(
                lambda: ProfilerRule.sagemaker(getattr(rule_configs, canonical)(**params), **values),
                {},
                path,
                params_path,
            )
        if entry is not None:
            base = getattr(rule_configs, entry["function"])()
        else:  # a rule newer than the catalogue, let through by allow_unknown_parameters
            base = {
                "DebugRuleConfiguration": {
                    "RuleConfigurationName": requested,
                    "RuleParameters": {"rule_to_invoke": requested},
                },
                "CollectionConfigurations": [],
            }
        values["allow_unknown_parameters"] = allow_unknown
        return self.build(lambda: Rule.sagemaker(base, rule_parameters=params or None, **values), {}, path, params_path)

    def read_framework_profile(self, node: Node, path: PathT) -> Any:
        fields = self.mapping(node, path, fmt.formats()["framework_profile"])
        if "profiling_parameters" in fields and len(fields) > 1:
            other = next(k for k in fields if k != "profiling_parameters")
            self.fail(
                "profiling_parameters replaces every other framework_profile_params setting; use one or the other",
                path + (other,),
            )
        return self.obj(node, path, "framework_profile")


Reader.READERS = {
    "string": Reader.read_string,
    "string_list": Reader.read_string_list,
    "names_or_bool": Reader.read_names_or_bool,
    "string_map": Reader.read_string_map,
    "hook_parameters": Reader.read_string_map,
    "collection_parameters": Reader.read_string_map,
    "rule_parameters": Reader.read_rule_parameters,
    "debugger_hook_config": Reader.read_debugger_hook_config,
    "collections": Reader.read_collections,
    "actions": Reader.read_actions,
    "rules": Reader.read_rules,
    "framework_profile": Reader.read_framework_profile,
}
