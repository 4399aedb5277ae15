"""Errors and findings: what every step of the flow reports bad input with."""
from __future__ import annotations

import contextlib
import functools
import re
import reprlib
import sys
import warnings
from typing import Any, Dict, Iterable, Optional, Sequence, TextIO, Tuple, Union

from sm_debug_config.codes import edit_distance

PathT = Tuple[Union[str, int], ...]
#: Where a user's code did something: file name, line, module name and that module's globals (its warning registry).
Site = Tuple[str, int, str, Dict[str, Any]]

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
        self.maxlist = self.maxtuple = self.maxdict = self.maxset = self.maxfrozenset = self.maxdeque = (
            self.maxarray
        ) = 8

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 1000:  # past about 300 digits; str() fails past 4,300 and costs quadratic time before
            return f"<an integer of about {int(x.bit_length() * 0.30103)} digits>"
        return super().repr_int(x, level)

    def repr_instance(self, x: Any, level: int) -> str:
        try:
            text = repr(x)
        except Exception:  # noqa: BLE001 - a broken or recursing __repr__ must not replace the error being reported
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
    except Exception:  # noqa: BLE001 - e.g. RecursionError from a user's __repr__ inside a container
        return f"<{type(value).__name__} object>"


#: Integers in a path of more bits than this (about 300 digits) are shown by their size: ``str()`` fails past
#: 4,300 digits and costs quadratic time before.
_PATH_INT_BITS = 1000


def _part_text(part: Any) -> str:
    """One part of a path as text, bounded and never raising: a huge integer by its size, a non-text key by its
    short repr."""
    if isinstance(part, str):
        return part
    if isinstance(part, int) and not isinstance(part, bool):
        if part.bit_length() <= _PATH_INT_BITS:
            return str(part)
        return f"int({int(part.bit_length() * 0.30103) + 1} digits)"
    return shorten(part)


def format_path(path: Sequence[Union[str, int]]) -> str:
    """``rules[2].rule_parameters.threshold`` for ``("rules", 2, "rule_parameters", "threshold")``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{_part_text(part)}]"
        elif isinstance(part, str) and _KEY_RE.match(part):
            out += ("." if out else "") + part
        else:
            out += f"[{shorten(part)}]"
    return out


class ConfigError(ValueError):
    """A Debugger configuration the API or the training container would reject.

    ``field`` names the offending field (default: ``path``, the place as a tuple, as text);
    ``allowed`` says what is accepted; ``findings`` carries every validation finding when raised by
    ``render``; ``code`` is the finding code of the same problem where there is one; ``fix`` its
    :class:`~sm_debug_config.fixes.Fix` where the intended value is known (changes in ``path``'s space), which
    the finding made of the error keeps.

    >>> try:
    ...     raise ConfigError("must not be empty", field="CollectionConfig.name",
    ...                       allowed="a string of 1-256 characters")
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
        fix: Any = None,
    ) -> None:
        self.message = message
        self.fix = fix
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
        """The same error, its ``path`` put under ``prefix`` and its ``field`` text kept (the text already names the
        place for people)."""
        return ConfigError(
            self.message,
            field=self.field,
            allowed=self.allowed,
            findings=self.findings,
            code=self.code,
            path=tuple(prefix) + self.path,
            fix=self.fix.under(prefix) if self.fix is not None else None,
        )

    def with_prefix(self, prefix: Union[str, Sequence[Union[str, int]]]) -> "ConfigError":
        """The same error with ``prefix`` (text, or a path tuple) put before its field and path (for nested objects)."""
        parts: PathT = (prefix,) if isinstance(prefix, str) else tuple(prefix)
        text = prefix if isinstance(prefix, str) else format_path(parts)
        field = f"{text}.{self.field}" if self.field else text
        return ConfigError(
            self.message,
            field=field,
            allowed=self.allowed,
            findings=self.findings,
            code=self.code,
            path=parts + self.path,
            fix=self.fix.under(parts) if self.fix is not None else None,
        )


class ConfigWarning(UserWarning):
    """A configuration that works but is probably not what was meant.

    Structured like a finding, set at construction (nothing reads them back out of the text):
    ``code`` (``SMDnnn``, or ``None`` for a warning without a finding code), ``severity``,
    ``path`` (a tuple: the request path for a validation finding, the path below the object for
    a constructor's warning), ``pointer`` (``path`` as a JSON pointer), ``field`` (the place as
    the text names it) and ``message`` (the text without code and place). ``source``, ``line``
    and ``column`` say where in a config file, when known (:meth:`placed`).

    >>> w = ConfigWarning.of_request("SMD170", ("DebugRuleConfigurations",), "the hook does not run")
    >>> str(w), w.code, w.path, w.pointer
    ('SMD170 /DebugRuleConfigurations: the hook does not run', 'SMD170', ('DebugRuleConfigurations',),
     '/DebugRuleConfigurations')
    """

    def __init__(
        self,
        text: str,
        *,
        code: Optional[str] = None,
        severity: str = WARNING,
        path: Sequence[Union[str, int]] = (),
        field: Optional[str] = None,
        message: Optional[str] = None,
        source: Optional[str] = None,
        line: Optional[int] = None,
        column: Optional[int] = None,
    ) -> None:
        super().__init__(text)
        self.code = code
        self.severity = severity
        self.path: PathT = tuple(path)
        self.pointer = pointer(*self.path)
        self.field = field
        self.message = text if message is None else message
        self.source, self.line, self.column = source, line, column
        #: the :class:`~sm_debug_config.findings.Finding` this warning reports, for a validation finding
        self.finding: Any = None

    @property
    def fix(self) -> Any:
        """The :class:`~sm_debug_config.fixes.Fix` of the finding this warning reports (None: no finding, or its
        intended value is not known), as a ``ConfigError``'s ``fix``."""
        return getattr(self.finding, "fix", None)

    @classmethod
    def of_request(
        cls, code: str, path: Sequence[Union[str, int]], message: str, severity: str = WARNING
    ) -> "ConfigWarning":
        """The warning of a validation finding: ``SMD170 /DebugRuleConfigurations: message``."""
        where = pointer(*path) or "/"
        return cls(f"{code} {where}: {message}", code=code, severity=severity, path=path, field=where, message=message)

    @classmethod
    def of_field(cls, field: Optional[str], message: str, code: str, path: Sequence[Union[str, int]] = (),
                 severity: str = WARNING) -> "ConfigWarning":
        """A constructor's warning about ``field`` (``Rule.sagemaker.rule_parameters: message (SMD121)``);
        ``path`` below the object."""
        text = f"{field}: {message} ({code})" if field else f"{message} ({code})"
        return cls(text, code=code, severity=severity, path=path, field=field, message=message)

    def placed(self, source: str, position: Optional[Tuple[int, int]]) -> "ConfigWarning":
        """The same warning at ``position`` (line, column) of the config file ``source``;
        its text starts with the place."""
        line, column = position if position else (None, None)
        where = f"{source}:{line}:{column}" if line is not None else source
        placed = ConfigWarning(
            f"{where}: {' '.join(str(self).split())}",
            code=self.code,
            severity=self.severity,
            path=self.path,
            field=self.field,
            message=self.message,
            source=source,
            line=line,
            column=column,
        )
        placed.finding = self.finding
        return placed

    def one_line(self, prog: str) -> str:
        """The warning as ``validate`` prints a finding: ``file:line:col: warning SMD170 /pointer: message``
        (``prog: warning ...`` where no position is known)."""
        where = f"{self.source}:{self.line}:{self.column}" if self.line is not None else prog
        body = f"{self.field}: {self.message}" if self.field else self.message
        code = f" {self.code}" if self.code else ""
        return f"{where}: {self.severity}{code} {' '.join(body.split())}"


def write_warning(
    message: Union[Warning, str],
    category: type,
    filename: str,
    lineno: int,
    file: Optional[TextIO] = None,
    line: Optional[str] = None,
) -> None:
    """A ``warnings.showwarning`` that writes as Python's own does (``file:line: Category: message`` and the source
    line, to standard error), for a process whose warnings are not this package's to record: a launcher ``plan``
    runs, a forked worker of the command line."""
    with contextlib.suppress(OSError):  # as Python's own: a closed stderr loses the warning
        (file or sys.stderr).write(warnings.formatwarning(message, category, filename, lineno, line))


def warn_user(warning: Warning, site: Optional[Site] = None) -> None:
    """``warnings.warn(warning)`` at the caller's code: the first frame outside this package and the
    libraries it is called through (the SageMaker SDK, boto3), so that ``-W`` filters and the
    message name the user's line, however deep the entry point reached it; at ``site`` instead when given (where
    the user built the object the warning is about: :func:`user_site`), as ``warnings.warn`` would from there."""

    if site is not None:
        filename, lineno, module, module_globals = site
        registry = module_globals.setdefault("__warningregistry__", {})
        # no module_globals: as warnings.warn does (a loader's get_source fails for ``python -c``'s __main__)
        warnings.warn_explicit(warning, type(warning), filename, lineno, module, registry)
        return
    frame: Any = sys._getframe(0)
    level = 1
    while frame is not None and _internal(frame):
        frame, level = frame.f_back, level + 1
    warnings.warn(warning, stacklevel=level if frame is not None else 2)


def user_site() -> Optional[Site]:
    """The user's line that called into this package (the frame :func:`warn_user` would warn at), or ``None``."""
    frame: Any = sys._getframe(1)
    while frame is not None and _internal(frame):
        frame = frame.f_back
    if frame is None:
        return None
    module_globals = frame.f_globals
    return frame.f_code.co_filename, frame.f_lineno, module_globals.get("__name__") or "<string>", module_globals


#: Packages a warning's stack level skips (see :func:`warn_user`): this one, its ``rule_configs``, and the
#: libraries it is called through.
_INTERNAL_PACKAGES = ("sm_debug_config", "rule_configs", "sagemaker", "sagemaker_core", "botocore", "boto3",
                      "pydantic", "pydantic_core")  # the SDK v3's ModelTrainer methods are pydantic-validated calls


def _internal(frame: Any) -> bool:
    """A frame of this package or a library it is called through, or a method attrs generated for our classes
    (``<attrs generated init ...>``: its globals name no module)."""
    return _internal_module(frame.f_globals.get("__name__") or "") or frame.f_code.co_filename.startswith(
        "<attrs generated"
    )


@functools.lru_cache(maxsize=1024)
def _internal_module(module: str) -> bool:
    """Whether ``module`` is in one of :data:`_INTERNAL_PACKAGES` (cached: each constructor asks, see user_site)."""
    return any(module == name or module.startswith(name + ".") for name in _INTERNAL_PACKAGES)


def closest(name: str, candidates: Sequence[str], n: int = 3) -> list:
    """The candidates closest to ``name``; none for a name far longer than any candidate (difflib's
    cost grows with its length, and nothing would be close)."""

    import difflib  # only for a did-you-mean: most runs never need it

    if not isinstance(name, str) or len(name) > 2 * max((len(c) for c in candidates), default=0) + 8:
        return []
    lowered = {c.lower(): c for c in candidates}
    hits = difflib.get_close_matches(name.lower(), list(lowered), n=n, cutoff=0.6)
    return [lowered[h] for h in hits]


def installed_metadata(distribution: str = "sm-debug-config") -> Any:
    """The installed ``distribution``'s metadata (an ``email.message.Message``: ``get_all("Requires-Dist")``,
    ``get_all("Project-URL")``), or None when it is not installed (a checkout run as it is). The one place the
    package reads it: importing ``importlib.metadata`` costs about 20 ms, paid only by what prints it."""
    from importlib import metadata  # an error message or an address only

    try:
        return metadata.metadata(distribution)
    except metadata.PackageNotFoundError:
        return None


def install_hint(extra: str) -> str:
    """What to install for the optional feature ``extra``: its requirements as this installation's metadata lists
    them (setup.cfg is their one home), for the package is not on a public index; from a checkout, the extra.

    >>> install_hint("plan")
    'pip install "moto>=5"'
    """
    found = installed_metadata()
    requires = (found.get_all("Requires-Dist") if found is not None else None) or []
    marker = f'extra == "{extra}"'
    wanted = [line.split(";")[0].strip() for line in requires if marker in line.replace("'", '"')]
    if not wanted:
        return f'pip install -e ".[{extra}]" in a checkout of sm-debug-config'
    return "pip install " + " ".join(f'"{requirement}"' for requirement in wanted)


#: The most edits a misspelling may be from the name it is fixed to, when several names are close.
CERTAIN_EDITS = 2


def only_close(name: str, candidates: Sequence[str]) -> Optional[str]:
    """The one candidate ``name`` was meant to be, or None when that is not certain: the only one within the
    did-you-mean distance (:func:`closest`), or, of several, the nearest when it is at most :data:`CERTAIN_EDITS`
    edits away and every other is at least two edits farther (``CPUBottleneck_treshold``: one edit from
    ``CPUBottleneck_threshold``, six from ``CPUBottleneck_cpu_threshold``; but ``Bottleneck_patience`` is two from
    ``IOBottleneck_patience`` and three from ``CPUBottleneck_patience``: not certain). A fix renames to it only then.

    >>> only_close("threshhold", ["threshold", "num_steps"]), only_close("tresh", ["thresh1", "thresh2"])
    ('threshold', None)
    >>> only_close("save_intervall", ["save_interval", "train.save_interval", "eval.save_interval"])
    'save_interval'
    >>> only_close("Bottleneck_patience", ["IOBottleneck_patience", "CPUBottleneck_patience"]) is None
    True
    """
    hits = closest(name, candidates, 5)
    if len(hits) <= 1:
        return hits[0] if hits else None
    by_edits = sorted((edit_distance(name.lower(), hit.lower()), hit) for hit in hits)
    best, second = by_edits[0][0], by_edits[1][0]
    return by_edits[0][1] if best <= CERTAIN_EDITS and second - best >= 2 else None


def did_you_mean(name: str, candidates: Sequence[str], n: int = 3) -> str:
    """`` did you mean 'x'?`` (at most ``n`` names) or an empty string."""
    hits = closest(name, candidates, n)
    return " did you mean " + " or ".join(repr(h) for h in hits) + "?" if hits else ""


def pointer(*parts: Union[str, int]) -> str:
    """The JSON pointer (RFC 6901) of a path into a request: ``/DebugRuleConfigurations/0/RuleParameters``.

    >>> pointer("DebugHookConfig", "HookParameters", "a/b")
    '/DebugHookConfig/HookParameters/a~1b'
    """
    return "".join("/" + _part_text(p).replace("~", "~0").replace("/", "~1") for p in parts)


def pointer_parts(text: str) -> PathT:
    """The path of a JSON pointer, with list indexes as ints: the inverse of :func:`pointer`. A token of more than
    18 digits stays text (no list has that many items; ``int()`` of thousands of digits fails).

    >>> pointer_parts("/DebugRuleConfigurations/0/RuleParameters/a~1b")
    ('DebugRuleConfigurations', 0, 'RuleParameters', 'a/b')
    """
    parts: list = []
    for raw in text.split("/")[1:] if text else []:
        token = raw.replace("~1", "/").replace("~0", "~")
        parts.append(int(token) if len(token) <= 18 and token.isascii() and token.isdigit() else token)
    return tuple(parts)
