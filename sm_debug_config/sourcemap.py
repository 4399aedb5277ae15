"""Where a request's parts were written: from a JSON pointer into a rendered request to the place in a source that
asked for it, for every source that builds objects alike (a config file's keys, a Python source's calls and keys).

A source records the place it built each object at (:meth:`SourceMap.built`); a render records which objects
each part of the request came from (:meth:`~sm_debug_config.rendering.Rendered.objects_at`). :meth:`SourceMap.locate`
goes from a pointer to the deepest object the render names, then below it: a request member by the argument it
comes from (:data:`ARGUMENTS`), then dict keys and list indexes, as far as the source has places. What a place is,
and what is below it, is the source's (:meth:`SourceMap.below`).

>>> class Paths(SourceMap):
...     def below(self, place, part):
...         return place + (part,)
>>> from sm_debug_config import CollectionConfig, DebuggerHookConfig
>>> from sm_debug_config.model.settings import DebuggerSetup, JobSettings
>>> from sm_debug_config.rendering import render_unchecked
>>> hook = DebuggerHookConfig(hook_parameters={"save_interval": "5"})
>>> rendered = render_unchecked(DebuggerSetup(debugger_hook_config=hook),
...                             JobSettings(region="us-east-1", output_path="s3://b/o/"))
>>> places = Paths()
>>> places.built(hook, ("debugger_hook_config",))
>>> places.locate(rendered, "/DebugHookConfig/HookParameters/save_interval")
('debugger_hook_config', 'hook_parameters', 'save_interval')
"""

from __future__ import annotations

from typing import Any, Dict, Generic, List, Optional, Sequence, Set, Tuple, TypeVar, Union

import attrs

from sm_debug_config import datafiles
from sm_debug_config.errors import PathT, pointer, pointer_parts

__all__ = ["ARGUMENTS", "SourceMap", "argument_path", "holds", "member_path"]

#: Request member -> the arguments of our classes it comes from, most usual first: the config format's keys (one
#: description of them, ``data/config_format.json``), and the names a member has besides (a profiling config's
#: ``local_path``, a rule's image and name, a collection's name).
ARGUMENTS: Dict[str, Tuple[str, ...]] = {
    **{member: (key,) for member, key in datafiles.load("config_format")["request_keys"].items()},
    "LocalPath": ("container_local_output_path", "local_path"),
    "RuleEvaluatorImage": ("image_uri",),
    "RuleConfigurationName": ("name",),
    "CollectionName": ("name",),
}
_RULES = ("DebugRuleConfigurations", "ProfilerRuleConfigurations")
#: Request members that an object renders from another of its arguments than the member's own: a rule's
#: ``RuleParameters.action_json`` is its ``actions`` (a finding about action 2 is at the third action written).
_RENDERED_FROM: Dict[Tuple[str, str], str] = {("RuleParameters", "action_json"): "actions"}
#: Request members an object may render from a map argument written key for key: ``ProfilingParameters`` of a
#: ``FrameworkProfile`` written as its ``profiling_parameters`` map (``ProfilingParameters.X`` is that map's key X).
_HELD_MAPS: Dict[str, str] = {"ProfilingParameters": "profiling_parameters"}
#: Argument -> the request member it renders to, below an object (``rules`` is two members: not below an object).
_MEMBERS: Dict[str, str] = {keys[0]: member for member, keys in ARGUMENTS.items()
                            if member not in _RULES and not member.endswith("Name")}

Place = TypeVar("Place")


def member_path(path: Sequence[Union[str, int]]) -> PathT:
    """A path below an object by its arguments (``("hook_parameters", "save_interval")``) as the request names it
    (``("HookParameters", "save_interval")``).

    >>> member_path(("rule_parameters", "threshold"))
    ('RuleParameters', 'threshold')
    """
    return tuple(_MEMBERS.get(part, part) if isinstance(part, str) else part for part in path)


def argument_path(path: Sequence[Union[str, int]]) -> PathT:
    """The inverse of :func:`member_path` (each member by its usual argument).

    >>> argument_path(("CollectionParameters", "save_interval"))
    ('parameters', 'save_interval')
    """
    return tuple(ARGUMENTS[part][0] if isinstance(part, str) and part in ARGUMENTS else part for part in path)


class SourceMap(Generic[Place]):
    """The places of one source's objects; :meth:`below` says what is below a place (``None``: nothing written)."""

    def __init__(self) -> None:
        self._places: Dict[int, Place] = {}
        self._objects: List[Any] = []  # keeps the objects (and so their ids) alive as long as the map

    def built(self, obj: Any, place: Place) -> None:
        """``obj`` was built at ``place``."""
        self._places[id(obj)] = place
        self._objects.append(obj)

    def place_of(self, obj: Any) -> Optional[Place]:
        """Where ``obj`` was built, if this source built it."""
        return self._places.get(id(obj))

    def objects(self) -> List[Any]:
        """Every object built, in the order it was built."""
        return list(self._objects)

    def below(self, place: Place, part: Union[str, int]) -> Optional[Place]:
        """The place of an argument, key or index ``part`` below ``place``, if the source wrote one."""
        raise NotImplementedError

    def top(self, member: str) -> Optional[Place]:
        """The place of a request member that no object of the source stands for (a config file's top-level key)."""
        return None

    def descend(self, place: Place, rest: Sequence[Union[str, int]]) -> Place:
        """The deepest place below ``place`` along ``rest`` (request members and keys) that the source wrote."""
        return self._walk(place, rest)[0]

    def _walk(self, place: Place, rest: Sequence[Union[str, int]]) -> Tuple[Place, bool]:
        """:meth:`descend`, and whether the place is ``rest``'s own: every part written, none rendered from another
        argument."""
        argument = _RENDERED_FROM.get((str(rest[0]), str(rest[1]))) if len(rest) > 1 else None
        own = True
        if argument is not None and self.below(place, argument) is not None:
            rest, own = (argument, *rest[2:]), False
        for index, part in enumerate(rest):
            names = ARGUMENTS.get(part, ()) if isinstance(part, str) else ()
            found = next((p for p in (self.below(place, name) for name in names) if p is not None), None)
            if found is None:
                found = self.below(place, part)
            if found is None and index and str(rest[index - 1]) in _HELD_MAPS:
                held = self.below(place, _HELD_MAPS[str(rest[index - 1])])
                found = self.below(held, part) if held is not None else None
            if found is None:
                return place, False
            place = found
        return place, own

    def written_at(self, rendered: Any, request_pointer: str) -> Optional[Place]:
        """The place the source wrote ``request_pointer`` itself at (where a fix edits it); ``None`` where it wrote
        only a part above it (a rule written as its name) or the value comes from another argument.

        >>> class Paths(SourceMap):
        ...     def below(self, place, part):
        ...         return place + (part,) if part == "s3_output_path" else None  # the one key written
        >>> from sm_debug_config import DebuggerHookConfig
        >>> from sm_debug_config.model.settings import DebuggerSetup, JobSettings
        >>> from sm_debug_config.rendering import render_unchecked
        >>> hook = DebuggerHookConfig(s3_output_path="s3://b/o", hook_parameters={"save_interval": "5"})
        >>> rendered = render_unchecked(DebuggerSetup(debugger_hook_config=hook), JobSettings(region="us-east-1"))
        >>> places = Paths()
        >>> places.built(hook, ("hook",))
        >>> places.written_at(rendered, "/DebugHookConfig/S3OutputPath"), places.written_at(
        ...     rendered, "/DebugHookConfig/HookParameters/save_interval")
        (('hook', 's3_output_path'), None)
        """
        parts = pointer_parts(request_pointer)
        for depth in range(len(parts), 0, -1):
            for obj in rendered.objects_at(pointer(*parts[:depth])):
                place = self.place_of(obj)
                if place is not None:
                    found, own = self._walk(place, parts[depth:])
                    return found if own else None
        return self.top(str(parts[0])) if len(parts) == 1 else None

    def locate(self, rendered: Any, request_pointer: str) -> Optional[Place]:
        """The place behind ``request_pointer`` into ``rendered``'s request: the deepest object it came from that this
        source built, then below it; ``None`` when the source built none of them."""
        parts = pointer_parts(request_pointer)
        for depth in range(len(parts), 0, -1):
            for obj in rendered.objects_at(pointer(*parts[:depth])):
                place = self.place_of(obj)
                if place is not None:
                    return self.descend(place, parts[depth:])
        return self.top(str(parts[0])) if parts else None



def holds(outer: Any, inner: Any) -> bool:
    """``inner`` is reachable from ``outer`` through the fields of our objects and their lists and dicts (an action
    inside a rule, a collection config inside a hook).

    >>> from sm_debug_config import CollectionConfig, DebuggerHookConfig
    >>> weights = CollectionConfig("weights")
    >>> holds(DebuggerHookConfig(collection_configs=[weights]), weights), holds(weights, DebuggerHookConfig())
    (True, False)
    """
    stack: List[Any] = [outer]
    seen: Set[int] = set()
    while stack:
        value = stack.pop()
        if value is inner:
            return True
        if id(value) in seen or len(seen) > 10_000:
            continue
        seen.add(id(value))
        if isinstance(value, (list, tuple)):
            stack.extend(value)
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif attrs.has(type(value)):
            stack.extend(getattr(value, field.name) for field in attrs.fields(type(value)))
    return False
