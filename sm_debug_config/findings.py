"""Findings: the one type every step reports a problem with, and the declarations of their codes.

A code is declared once, where it is produced, with its severity, description and evidence
(:func:`declare`, as cfn-lint declares one rule class per id), and takes its name, lifecycle and the inputs it
applies to from the table of codes (:mod:`sm_debug_config.codes`); a :class:`Finding` is made by the
declaration (:meth:`Check.at`), so its severity is always its code's. This module is the bottom
layer: the model declares the codes its constructors produce, validation registers the check
functions for them (:mod:`sm_debug_config.validation.registry`), the CLI and config files report
the same type.

>>> SMD999 = declare("SMD999", WARNING, "An example.", "Nothing happens.", name="an-example")
>>> finding = SMD999.at(("DebugHookConfig", "HookParameters", "a/b"), "found")
>>> finding.pointer, finding.severity, str(finding)
('/DebugHookConfig/HookParameters/a~1b', 'warning', 'warning SMD999 /DebugHookConfig/HookParameters/a~1b: found')
>>> CHECKS.pop("SMD999").code
'SMD999'
"""

from __future__ import annotations

import _thread  # the lock without importing threading (start-up)
import contextlib
import contextvars
import functools
import re
import weakref
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

import attrs

from sm_debug_config import codes
from sm_debug_config.fixes import Fix
from sm_debug_config.errors import (
    ERROR,
    INFO,
    SEVERITIES,
    WARNING,
    ConfigError,
    ConfigWarning,
    PathT,
    Site,
    installed_metadata,
    pointer,
    pointer_parts,
    shorten,
    user_site,
    warn_user,
)

__all__ = [
    "CHECKS",
    "DEBUG_FIELDS",
    "ERROR",
    "INFO",
    "MESSAGE_LIMIT",
    "RULE_FIELDS",
    "SEVERITIES",
    "SMDEBUG",
    "WARNING",
    "Check",
    "Collector",
    "Finding",
    "collecting",
    "code_list",
    "declare",
    "page_url",
    "project_url",
    "error_message",
    "errors_of",
    "is_error",
    "path_key",
    "adopt",
    "built_here",
    "collect",
    "inherit",
    "refuse",
    "report",
    "reported",
    "severity_of",
    "site_of",
    "sort_key",
]

#: The five Debugger fields of a ``CreateTrainingJob`` request, in the API's order.
DEBUG_FIELDS = (
    "DebugHookConfig",
    "DebugRuleConfigurations",
    "ProfilerConfig",
    "ProfilerRuleConfigurations",
    "TensorBoardOutputConfig",
)
RULE_FIELDS = ("DebugRuleConfigurations", "ProfilerRuleConfigurations")

#: The smdebug source that evidence cites by file and function (the training hook and rule library).
SMDEBUG = "smdebug (awslabs/sagemaker-debugger at 3b82de31)"

#: The form of every check code (``SMD120``); the project configuration takes prefixes too (``codes.SELECTOR_PATTERN``).
CODE_PATTERN = r"^SMD\d{3}$"
_CODE_RE = re.compile(CODE_PATTERN)

#: The project's home (the repository) when the installed package's metadata names none (:func:`project_url`).
PROJECT_URL = "https://github.com/sm-debug-config/sm-debug-config"
#: Where each check's page is published when the metadata names no documentation (:func:`page_url`):
#: ``docs/checks/<CODE>.md`` of the repository, as GitHub renders it.
DOCS_URL = PROJECT_URL + "/blob/main/docs/checks/{code}.md"
#: The distribution whose ``Project-URL`` metadata (setup.cfg ``project_urls``) names the addresses.
DISTRIBUTION = "sm-debug-config"


@functools.lru_cache(maxsize=None)
def _urls() -> Tuple[str, str]:
    """The project's home and its check pages' address (with ``{code}``), from the installed distribution's
    ``Project-URL: Source, ...`` and ``Project-URL: Documentation, ...`` (a fork that installs with its own
    ``project_urls`` links to its own pages); :data:`PROJECT_URL` and :data:`DOCS_URL` when not installed or
    not named. Read once, when an address is first printed."""
    found = installed_metadata(DISTRIBUTION)  # about 20 ms to import: only a run that prints an address pays it
    entries = (found.get_all("Project-URL") if found is not None else None) or []
    named = {label.strip().lower(): url.strip() for label, _, url in (e.partition(",") for e in entries) if url}
    home = named.get("source", PROJECT_URL).rstrip("/")
    docs = named.get("documentation")
    if docs is None:
        return home, DOCS_URL if home == PROJECT_URL else home + "/blob/main/docs/checks/{code}.md"
    return home, docs.rstrip("/") + "/checks/{code}.md"


def project_url() -> str:
    """The project's home: SARIF's ``informationUri`` (the installed package's ``Project-URL`` named Source).

    >>> project_url().startswith("https://")
    True
    """
    return _urls()[0]


def page_url(code: str) -> str:
    """The address of ``code``'s page, ``checks/<CODE>.md`` under the installed package's ``Project-URL``
    named Documentation; :attr:`Check.url` and every output's ``url`` and ``helpUri`` are this.

    >>> page_url("SMD120").endswith("/checks/SMD120.md")
    True
    """
    return _urls()[1].format(code=code)

#: A finding's message is one line shorter than this; the evidence for its severity is on its code's page.
MESSAGE_LIMIT = 200


def _as_path(parts: Union[str, Iterable[Union[str, int]]]) -> PathT:
    """A path as a tuple; a string is a JSON pointer (what a document reader or a JSON file gives)."""
    return pointer_parts(parts) if isinstance(parts, str) else tuple(parts)


@attrs.frozen
class Finding:
    """One problem: ``severity`` (error, warning, info), stable ``code``, ``path`` (a tuple into the request,
    or below the object for a constructor's finding; :attr:`pointer` is its JSON pointer) and ``message``.
    ``line``, ``column`` (where in a source) and ``suppressed`` are not part of equality; :meth:`replace` is
    ``attrs.evolve``.

    >>> Finding("warning", "SMD120", "/DebugRuleConfigurations/0", "m").path
    ('DebugRuleConfigurations', 0)
    """

    severity: str
    code: str
    path: PathT = attrs.field(converter=_as_path)
    message: str
    line: Optional[int] = attrs.field(default=None, eq=False)
    column: Optional[int] = attrs.field(default=None, eq=False)
    suppressed: bool = attrs.field(default=False, eq=False)
    #: how to mend it, when the intended value is known (:class:`~sm_debug_config.fixes.Fix`)
    fix: Optional[Fix] = attrs.field(default=None, eq=False)

    def replace(self, **changes: Any) -> "Finding":
        """A copy with the fields named in ``changes`` replaced (``attrs.evolve``); an unknown name is a
        ``TypeError``."""
        return attrs.evolve(self, **changes)

    @property
    def pointer(self) -> str:
        """``path`` as a JSON pointer (RFC 6901): ``/DebugRuleConfigurations/0/RuleParameters``."""
        return pointer(*self.path)

    @property
    def evidence(self) -> str:
        """Why the code has its severity (the declaration's evidence)."""
        declared = CHECKS.get(self.code)
        return declared.evidence if declared else ""

    @property
    def url(self) -> Optional[str]:
        """The address of the page of this finding's code (:attr:`Check.url`; None for a code not declared)."""
        declared = CHECKS.get(self.code)
        return declared.url if declared else None

    def under(self, prefix: Sequence[Union[str, int]]) -> "Finding":
        """The same finding with ``prefix`` put before its path (a constructor's finding placed in a request)."""
        return self.replace(path=tuple(prefix) + self.path,
                            fix=self.fix.under(prefix) if self.fix is not None else None)

    def to_dict(self) -> Dict[str, Any]:
        """The finding as JSON output writes it; ``path`` is the JSON pointer (text), as before findings had a tuple;
        ``url`` the page of its code."""
        out: Dict[str, Any] = {
            "severity": self.severity,
            "code": self.code,
            "path": self.pointer,
            "message": self.message,
            "line": self.line,
            "column": self.column,
            "url": self.url,
        }
        if self.suppressed:
            out["suppressed"] = True
        if self.fix is not None:
            out["fix"] = self.fix.to_dict()
        return out

    def __str__(self) -> str:
        return f"{self.severity} {self.code} {self.pointer or '/'}: {self.message}"

    def to_warning(self) -> ConfigWarning:
        """This finding as a :class:`~sm_debug_config.errors.ConfigWarning` (code, severity and path as attributes)."""
        warning = ConfigWarning.of_request(self.code, self.path, self.message, self.severity)
        warning.finding = self
        return warning


@attrs.frozen
class Check:
    """A declared finding code: severity, one-line description and the evidence for the severity (from its
    declaration), its kebab-case ``name``, ``lifecycle`` (stable, preview, removed) and the inputs it
    ``applies_to`` (from its row in :data:`sm_debug_config.codes.TABLE`)."""

    code: str
    severity: str
    description: str
    evidence: str
    name: str
    lifecycle: str = codes.STABLE
    applies_to: Tuple[str, ...] = codes.EVERY_INPUT
    #: ``(applicability, what it changes)`` of each kind of fix its findings carry (its row's ``fixes``)
    fixes: Tuple[Tuple[str, str], ...] = ()

    @property
    def url(self) -> str:
        """The address of this check's page (``docs/checks/<CODE>.md``: :func:`page_url`)."""
        return page_url(self.code)

    def at(self, path: Sequence[Union[str, int]], message: str, fix: Optional[Fix] = None) -> Finding:
        """A finding of this code at ``path``, with its ``fix`` when the intended value is known; a fix of an
        applicability its row does not declare is refused (the check's page would not say it)."""
        if fix is not None and all(fix.applicability != kind for kind, _ in self.fixes):
            raise RuntimeError(f"{self.code} declares no {fix.applicability} fix (codes.TABLE's fixes)")
        return Finding(self.severity, self.code, tuple(path), message, fix=fix)


#: Every declared finding code, in declaration order.
CHECKS: Dict[str, Check] = {}


def declare(
    code: str, severity: str, description: str, evidence: str, *, name: Optional[str] = None,
    lifecycle: str = codes.STABLE, applies_to: Sequence[str] = codes.EVERY_INPUT,
) -> Check:
    """Declare a finding code where it is produced; its name, lifecycle and inputs are its row of the table of codes
    (:data:`sm_debug_config.codes.TABLE`), or, for a code the table has no row for (an example, a test), the
    keywords. A duplicate or malformed declaration, or one with neither a row nor a ``name``, is refused at import."""
    row = codes.TABLE.get(code) or (codes.Code(name, lifecycle, tuple(applies_to)) if name else None)
    if (
        code in CHECKS
        or not _CODE_RE.match(code)
        or severity not in SEVERITIES
        or not description.endswith(".")
        or not evidence.rstrip("\"')").endswith(".")
        or row is None
        or not codes.NAME_PATTERN.match(row.name)
        or row.lifecycle not in codes.LIFECYCLES
        or not row.applies_to
        or not set(row.applies_to) <= set(codes.INPUTS)
        or any(kind not in codes.FIX_APPLICABILITIES or not what for kind, what in row.fixes)
    ):
        raise RuntimeError(f"bad check declaration {code} {severity}: {description!r} {evidence!r} {row}")
    CHECKS[code] = declared = Check(code, severity, description, evidence, *row)
    return declared


def severity_of(code: str) -> str:
    """The declared severity of ``code`` (``KeyError`` for a code not declared by an imported module)."""
    return CHECKS[code].severity


def is_error(finding: Any) -> bool:
    """Whether ``finding`` (a :class:`Finding` or a :class:`~sm_debug_config.errors.ConfigWarning`) counts as
    an error: its severity is ``error`` and it is not suppressed."""
    return getattr(finding, "severity", None) == ERROR and not getattr(finding, "suppressed", False)


def code_list(value: Any, field: str = "ignore", *, form: bool = True) -> Tuple[str, ...]:
    """``value`` (``None``, one code or a list of them) as a tuple of upper-cased codes, checked by form only
    (``SMDnnn``; types only if not ``form``); whether each is a known code is checked where findings are made
    (``validate``), which knows every check and suggests the closest.

    >>> code_list(["smd110", " SMD139"])
    ('SMD110', 'SMD139')
    >>> code_list(110)
    Traceback (most recent call last):
    ...
    sm_debug_config.errors.ConfigError: ignore: got int (allowed: a list of check codes such as ['SMD110'])
    """
    if value is None:
        return ()
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, (list, tuple, set, frozenset)):
        raise ConfigError(
            f"got {type(value).__name__}", field=field, allowed="a list of check codes such as ['SMD110']"
        )
    out: Dict[str, None] = {}
    for index, code in enumerate(items):
        if not isinstance(code, str):
            raise ConfigError(
                f"got {type(code).__name__}", path=(field, index), allowed="a check code such as 'SMD110'"
            )
        name = code.strip().upper()
        if form and not _CODE_RE.match(name):
            raise ConfigError(
                f"unknown check code {shorten(code)}",
                path=(field, index),
                allowed="SMD and three digits, a code listed by `sm-debug-config checks`",
            )
        out[name] = None
    return tuple(out)


def path_key(path: Iterable[Union[str, int]]) -> Tuple[Any, ...]:
    """A sort key for a path: list indexes in numeric order, before names."""
    return tuple((0, p, "") if isinstance(p, int) else (1, 0, p if isinstance(p, str) else shorten(p)) for p in path)


def sort_key(finding: Finding) -> Tuple[Any, ...]:
    """Findings of the five fields in the API's order, then by path, code and message."""
    parts = path_key(finding.path)
    field = finding.path[0] if finding.path else ""
    order = DEBUG_FIELDS.index(field) if field in DEBUG_FIELDS else len(DEBUG_FIELDS)
    return ((order,) + parts[1:], finding.code, finding.message)


def errors_of(findings: Iterable[Finding]) -> List[Finding]:
    """The error findings that are not suppressed."""
    return [f for f in findings if is_error(f)]


SMD002 = declare(
    "SMD002",
    ERROR,
    "A constructor refuses a value and no request check has a code for it (unknown key, wrong type, bad value).",
    "The constructor of the object refuses the value (ConfigError); what a constructor may refuse is the "
    "constructor policy of issue 14 (wrong type, or a value botocore's model or the service rejects). A refused "
    "value a request check covers is reported with that check's code (SMD100, SMD132, SMD154...), not SMD002.",
)
# SMD002 is reported where objects are built from a source (a config file, a Python source in lint, a
# launcher in plan) for what a constructor refused without a code of its own; never in a request.


# --- where constructors' findings go -----------------------------------------------------------


class Collector:
    """The findings of the constructors run inside :func:`collecting`, kept as values: ``findings`` (warnings
    and infos, their ``path`` below the object) and ``errors`` (the ``ConfigError`` of each value refused).

    ``as_written``: a value a check refuses is recorded in ``errors`` and kept, so that the object is built as
    written (see :mod:`sm_debug_config.model.building`); otherwise the error is raised as usual.

    ``where``: a function that says the line of the code being run (``plan``: the launcher's line); then every
    finding and refusal collected is also kept in ``placed``, as a finding at that line, in the order it came."""

    __slots__ = ("findings", "fields", "errors", "as_written", "where", "placed")

    def __init__(self, as_written: bool = False, where: Optional[Callable[[], Optional[int]]] = None) -> None:
        self.findings: List[Finding] = []
        self.fields: List[Optional[str]] = []  #: the argument each finding names for people (for a warning's text)
        self.errors: List[ConfigError] = []
        self.as_written = as_written
        self.where = where
        self.placed: List[Finding] = []

    def place(self, finding: Finding) -> None:
        """Keep ``finding`` in ``placed`` at the line ``where`` says (nothing without ``where``)."""
        if self.where is not None:
            self.placed.append(finding.replace(line=self.where()))


#: The collector of the block being run, if any: per thread and per task (a context variable).
_COLLECTOR: "contextvars.ContextVar[Optional[Collector]]" = contextvars.ContextVar(
    "sm_debug_config_collector", default=None
)


@contextlib.contextmanager
def collecting(
    *, as_written: bool = False, where: Optional[Callable[[], Optional[int]]] = None
) -> Iterator[Collector]:
    """Collect the findings constructors report inside the block instead of warning them (``as_written`` and
    ``where``: see :class:`Collector`).

    >>> from sm_debug_config import TensorBoardOutputConfig
    >>> with collecting() as found:
    ...     _ = TensorBoardOutputConfig("s3://bucket/tb", container_local_output_path="tb")
    >>> [(f.code, f.path) for f in found.findings]
    [('SMD153', ('container_local_output_path',))]
    """
    collector = Collector(as_written, where)
    token = _COLLECTOR.set(collector)
    try:
        yield collector
    finally:
        _COLLECTOR.reset(token)


def report(finding: Finding, field: Optional[str] = None, owner: Any = None) -> None:
    """A constructor's finding (``path`` below the object; ``field`` names the argument for people): kept by the
    collector of the block (:func:`collecting`), else warned once as a
    :class:`~sm_debug_config.errors.ConfigWarning` at the user's line that made the object, and remembered for
    ``owner``, that object (:func:`reported`), so that a later step does not report it again."""
    collector = _COLLECTOR.get()
    if collector is not None:
        collector.findings.append(finding)
        collector.fields.append(field)
        collector.place(finding)
        return
    warning = ConfigWarning.of_field(field, finding.message, finding.code, finding.path, finding.severity)
    warning.finding = finding  # its fix, its path below the object, as a value
    warn_user(warning)
    if owner is not None:
        _remember(owner, finding)


def collect(finding: Finding) -> bool:
    """Hand ``finding`` to the collector of the block, if there is one (:func:`collecting`); whether there was.
    The public edges (``raise_or_warn``) warn what no collector takes."""
    collector = _COLLECTOR.get()
    if collector is None:
        return False
    collector.findings.append(finding)
    collector.fields.append(None)
    collector.place(finding)
    return True


def adopt(owner: Any, found: Collector) -> None:
    """What a factory collected while checking its arguments (:func:`collecting`), reported now that ``owner``, the
    object it built, exists: each error refused (:func:`refuse`), each finding reported for ``owner``."""
    for err in found.errors:
        refuse(err)
    for finding, field in zip(found.findings, found.fields):
        report(finding, field, owner)


def inherit(owner: Any, source: Any) -> None:
    """``owner`` was built from ``source``: what was reported for ``source`` was reported for ``owner`` too."""
    for finding in reported(source):
        _remember(owner, finding)


#: id(object) -> (a weak reference to it, the findings warned for it): the objects a user built, their warnings.
#: The references have no callback: a callback is Python code the garbage collector runs wherever it runs, and
#: Python 3.8 aborts ("Cannot recover from stack overflow") when that is deep in a recursion that is failing (as
#: json.loads is, on a 100,000-deep document); dead entries are swept when the map has doubled instead.
_REPORTED: Dict[int, Tuple[Any, List[Finding]]] = {}
_REPORTED_LOCK = _thread.allocate_lock()
_SWEEP_AT = [1024, 1024]  # when to sweep _REPORTED, _SITES


def _remember(owner: Any, finding: Finding) -> None:
    key = id(owner)
    with _REPORTED_LOCK:
        entry = _REPORTED.get(key)
        if entry is None or entry[0]() is not owner:
            try:
                ref = weakref.ref(owner)
            except TypeError:  # no weak reference to it: nothing remembered (it is reported again later)
                return
            entry = _REPORTED[key] = (ref, [])
            if len(_REPORTED) >= _SWEEP_AT[0]:
                for dead in [k for k, (r, _) in _REPORTED.items() if r() is None]:
                    del _REPORTED[dead]
                _SWEEP_AT[0] = max(1024, 2 * len(_REPORTED))
        entry[1].append(finding)


#: id(object) -> (a weak reference to it, where the user built it): the Python API's source map, so that the edge
#: warns a finding about an object at the user's line that built it (:func:`built_here`, :func:`site_of`).
_SITES: Dict[int, Tuple[Any, Site]] = {}


def built_here(owner: Any) -> None:
    """Remember the user's line that is building ``owner`` (a constructor calls it), for :func:`site_of`; nothing
    while a source's objects are built (:func:`collecting`: their places are the source's)."""
    if _COLLECTOR.get() is not None:
        return
    site = user_site()
    if site is None:
        return
    try:
        ref = weakref.ref(owner)
    except TypeError:  # no weak reference to it: its findings are warned at the call that reports them
        return
    with _REPORTED_LOCK:
        _SITES[id(owner)] = (ref, site)
        if len(_SITES) >= _SWEEP_AT[1]:  # dead entries swept when the map has doubled (see _REPORTED)
            for dead in [k for k, (r, _) in _SITES.items() if r() is None]:
                del _SITES[dead]
            _SWEEP_AT[1] = max(1024, 2 * len(_SITES))


def site_of(owner: Any) -> Optional[Site]:
    """Where the user built ``owner`` (:func:`built_here`), or ``None``.

    >>> site_of(object()) is None  # built by no user's line of this package's objects
    True
    """
    with _REPORTED_LOCK:
        entry = _SITES.get(id(owner))
        return entry[1] if entry is not None and entry[0]() is owner else None


def reported(owner: Any) -> Tuple[Finding, ...]:
    """The findings warned for ``owner`` when it was built (paths below it).

    >>> import warnings
    >>> from sm_debug_config import TensorBoardOutputConfig
    >>> with warnings.catch_warnings(record=True):
    ...     warnings.simplefilter("always")
    ...     tb = TensorBoardOutputConfig("s3://bucket/tb", container_local_output_path="tb")
    >>> [(f.code, f.path) for f in reported(tb)]
    [('SMD153', ('container_local_output_path',))]
    """
    with _REPORTED_LOCK:
        entry = _REPORTED.get(id(owner))
        return tuple(entry[1]) if entry is not None and entry[0]() is owner else ()


def refuse(err: ConfigError) -> None:
    """A value a constructor's check refuses: raised, except when building as written (:func:`collecting` with
    ``as_written``), where it is recorded and the constructor goes on with the value as written."""
    collector = _COLLECTOR.get()
    if collector is None or not collector.as_written:
        raise err
    collector.errors.append(err)
    collector.place(finding_of_error(err))


def building_as_written() -> bool:
    """Whether the block builds objects as written (see :func:`refuse`)."""
    collector = _COLLECTOR.get()
    return collector is not None and collector.as_written


def finding_of_error(err: ConfigError) -> Finding:
    """A refused value as a finding: the error's code (SMD002 when it has none), its ``path``, and its text with
    the field it names and what is allowed."""
    code = err.code or SMD002.code
    return Finding(CHECKS[code].severity if code in CHECKS else ERROR, code, err.path, error_message(err), fix=err.fix)


def error_message(err: ConfigError) -> str:
    """A refused value's one-line finding message: the field it names, what is wrong and what is allowed, the
    allowed values left out where they would make it :data:`MESSAGE_LIMIT` characters or more (a mapping's keys:
    the raised error keeps them; a did-you-mean is in the message).

    >>> error_message(ConfigError("unknown key 'x'", field="rules", allowed="a, b"))
    "rules: unknown key 'x' (allowed: a, b)"
    """
    text = " ".join(str(ConfigError(err.message, field=err.field, allowed=err.allowed)).split())
    if len(text) >= MESSAGE_LIMIT:
        text = " ".join(str(ConfigError(err.message, field=err.field)).split())
    return text
