"""Errors and findings: what every step of the flow reports bad input with."""
from __future__ import annotations

import re
import reprlib
from typing import Any, Iterable, NamedTuple, Optional, Sequence, Tuple, Union

PathT = Tuple[Union[str, int], ...]

#: Severities of findings and problems, most severe first (one definition for the package).
ERROR = "error"
WARNING = "warning"
INFO = "info"
SEVERITIES = (ERROR, WARNING, INFO)

_KEY_RE = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$-]*$")

#: The longest text a ConfigError carries: bad input may be huge, its message never is.
MAX_MESSAGE = 4000


class _Short(reprlib.Repr):
    """``repr`` bounded in length, depth and integer size; never fails (see :func:`shorten`)."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxstring = self.maxother = self.maxlong = 120
        self.maxlist = self.maxtuple = self.maxdict = self.maxset = self.maxfrozenset = self.maxdeque = self.maxarray = 8

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 1000:  # past about 300 digits; str() fails past 4,300 and costs quadratic time before
            return f"<an integer of about {int(x.bit_length() * 0.30103)} digits>"
        return super().repr_int(x, level)

    def repr_instance(self, x: Any, level: int) -> str:
        try:
            text = repr(x)
        except Exception:  # a broken or recursing __repr__ must not replace the error being reported
            return f"<{type(x).__name__} object>"
        if len(text) > self.maxother:
            half = max(0, (self.maxother - 3) // 2)
            text = text[:half] + "..." + text[len(text) - half:]
        return text


_SHORT = _Short()


def shorten(value: Any) -> str:
    """The ``repr`` of ``value`` for an error message: bounded in size and never raising.

    >>> shorten(10**5000)
    '<an integer of about 5000 digits>'
    """
    try:
        return _SHORT.repr(value)
    except Exception:  # e.g. RecursionError from a user's __repr__ inside a container
        return f"<{type(value).__name__} object>"


def format_path(path: Sequence[Union[str, int]]) -> str:
    """``rules[2].rule_parameters.threshold`` for ``("rules", 2, "rule_parameters", "threshold")``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _KEY_RE.match(part):
            out += ("." if out else "") + part
        else:
            out += f"[{shorten(part)}]"
    return out


class ConfigError(ValueError):
    """A Debugger configuration the API or the training container would reject.

    ``field`` names the offending field (default: ``path``, the place as a tuple, as text);
    ``allowed`` says what is accepted; ``findings`` carries every validation finding when raised by
    ``render``; ``code`` is the finding code of the same problem where there is one.

    >>> try:
    ...     raise ConfigError("must not be empty", field="CollectionConfig.name", allowed="a string of 1-256 characters")
    ... except ConfigError as err:
    ...     print(err)
    CollectionConfig.name: must not be empty (allowed: a string of 1-256 characters)
    """

    def __init__(
        self,
        message: str,
        *,
        field: Optional[str] = None,
        allowed: Optional[str] = None,
        findings: Iterable[Any] = (),
        code: Optional[str] = None,
        path: Sequence[Union[str, int]] = (),
    ) -> None:
        self.message = message
        self.path: PathT = tuple(path)
        if field is None and self.path:
            field = format_path(self.path)
        self.field = field
        self.allowed = allowed
        self.findings = tuple(findings)
        self.code = code
        text = f"{field}: {message}" if field else message
        if allowed:
            text += f" (allowed: {allowed})"
        if len(text) > MAX_MESSAGE:
            half = MAX_MESSAGE // 2
            text = f"{text[:half]} ...[{len(text) - MAX_MESSAGE} characters left out]... {text[-half:]}"
        super().__init__(text)

    def under(self, prefix: Sequence[Union[str, int]]) -> "ConfigError":
        """The same error, its ``path`` put under ``prefix`` and its ``field`` text kept (the text already names the place for people)."""
        return ConfigError(self.message, field=self.field, allowed=self.allowed, findings=self.findings, code=self.code, path=tuple(prefix) + self.path)

    def with_prefix(self, prefix: Union[str, Sequence[Union[str, int]]]) -> "ConfigError":
        """The same error with ``prefix`` (text, or a path tuple) put before its field and path (for nested objects)."""
        parts: PathT = (prefix,) if isinstance(prefix, str) else tuple(prefix)
        text = prefix if isinstance(prefix, str) else format_path(parts)
        field = f"{text}.{self.field}" if self.field else text
        return ConfigError(self.message, field=field, allowed=self.allowed, findings=self.findings, code=self.code, path=parts + self.path)


class Problem(NamedTuple):
    """One problem with one parameter: ``key`` is the parameter name, ``code`` a stable finding code."""

    severity: str
    code: str
    key: str
    message: str


class ConfigWarning(UserWarning):
    """A configuration that works but is probably not what was meant."""


def closest(name: str, candidates: Sequence[str], n: int = 3) -> list:
    """The candidates closest to ``name``; none for a name far longer than any candidate (difflib's
    cost grows with its length, and nothing would be close)."""
    import difflib

    if not isinstance(name, str) or len(name) > 2 * max((len(c) for c in candidates), default=0) + 8:
        return []
    lowered = {c.lower(): c for c in candidates}
    hits = difflib.get_close_matches(name.lower(), list(lowered), n=n, cutoff=0.6)
    return [lowered[h] for h in hits]


def did_you_mean(name: str, candidates: Sequence[str]) -> str:
    """`` did you mean 'x'?`` or an empty string."""
    hits = closest(name, candidates)
    return " did you mean " + " or ".join(repr(h) for h in hits) + "?" if hits else ""


def pointer(*parts: Union[str, int]) -> str:
    """The JSON pointer (RFC 6901) of a path into a request: ``/DebugRuleConfigurations/0/RuleParameters``.

    >>> pointer("DebugHookConfig", "HookParameters", "a/b")
    '/DebugHookConfig/HookParameters/a~1b'
    """
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def pointer_parts(text: str) -> PathT:
    """The path of a JSON pointer, with list indexes as ints: the inverse of :func:`pointer`.

    >>> pointer_parts("/DebugRuleConfigurations/0/RuleParameters/a~1b")
    ('DebugRuleConfigurations', 0, 'RuleParameters', 'a/b')
    """
    parts: list = []
    for raw in text.split("/")[1:] if text else []:
        token = raw.replace("~1", "/").replace("~0", "~")
        parts.append(int(token) if token.isascii() and token.isdigit() else token)
    return tuple(parts)
