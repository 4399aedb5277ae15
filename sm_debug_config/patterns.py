"""Regular expressions compiled the first time they are used (the CLI's start-up): the bottom layer."""
from __future__ import annotations

import re
import sys
from types import ModuleType
from typing import Any, Iterator, List, Match, Optional, Pattern


class LazyPattern:
    """A regular expression compiled the first time it is used, so that importing the model compiles none
    (the CLI's start-up): ``match``, ``search``, ``fullmatch``, ``sub``, ``finditer`` and ``findall`` as a
    compiled pattern's; ``pattern`` its text.

    >>> LazyPattern(r"^a+$").match("aa") is not None
    True
    """

    __slots__ = ("pattern", "flags", "_compiled")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern, self.flags = pattern, flags
        self._compiled: Optional[Pattern[str]] = None

    def compiled(self) -> Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def match(self, string: str) -> Optional[Match[str]]:
        return self.compiled().match(string)

    def search(self, string: str) -> Optional[Match[str]]:
        return self.compiled().search(string)

    def fullmatch(self, string: str) -> Optional[Match[str]]:
        return self.compiled().fullmatch(string)

    def sub(self, repl: Any, string: str) -> str:
        return self.compiled().sub(repl, string)

    def finditer(self, string: str) -> Iterator[Match[str]]:
        return self.compiled().finditer(string)

    def findall(self, string: str) -> List[Any]:
        return self.compiled().findall(string)

    def __repr__(self) -> str:
        return f"LazyPattern({self.pattern!r})"


def import_yaml() -> ModuleType:
    """PyYAML, imported (if not yet) with the patterns its modules compile at import compiled on first use instead:
    the one place the package imports it (the JSON paths never do).

    PyYAML compiles a dozen patterns at import: its pure-Python reader's class of over a million
    code points (``yaml.reader.Reader.NON_PRINTABLE``, as much again as Python's own start), the
    YAML 1.1 resolvers' and the timestamp constructor's. The files read here go through libyaml and
    the composer of :mod:`~sm_debug_config.configfile.parse`, which resolves scalars itself, so
    most of them never run; those that do get a working pattern
    (:class:`LazyPattern`: ``match``, ``search``, ``fullmatch``, all
    PyYAML calls) when they run. Patterns other modules compile meanwhile are compiled as usual.

    >>> import_yaml().safe_dump({"a": [1, 2]}, default_flow_style=True).strip()
    '{a: [1, 2]}'
    """
    loaded = sys.modules.get("yaml")
    if loaded is not None:
        return loaded

    compile_ = re.compile

    def compile_yaml(pattern: Any, flags: int = 0) -> Any:
        caller = sys._getframe(1).f_globals.get("__name__", "")
        if isinstance(pattern, str) and (caller == "yaml" or caller.startswith("yaml.")):
            return LazyPattern(pattern, flags)
        return compile_(pattern, flags)

    re.compile = compile_yaml  # type: ignore[assignment]
    try:
        import yaml  # a dependency, but not every command reads YAML
    finally:
        re.compile = compile_
    return yaml
