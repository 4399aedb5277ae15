"""Regular expressions compiled the first time they are used (the CLI's start-up): the bottom layer."""
from __future__ import annotations

import re
from typing import Any, Iterator, List, Match, Optional, Pattern


class LazyPattern:
    """A regular expression compiled the first time it is used, so that importing the model compiles none
    (the CLI's start-up): ``match``, ``search``, ``fullmatch``, ``sub``, ``finditer`` and ``findall`` as a
    compiled pattern's; ``pattern`` its text. Safe to share between threads: two first uses at once each
    compile a whole pattern and one of them is kept (no lock needed, nothing is ever half-made).

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
