"""The check registry: every finding code once, with its severity, description and evidence.

A check is a function of a :class:`Context` that yields ``(code, path, message)``, registered
with :func:`check` for the codes it emits; a finding's severity is always its code's. The
severity policy (issue 14) heads ``docs/checks.md``. ``ignore`` takes registered codes only
(:func:`check_codes`), so a typo cannot silently suppress nothing.
"""
from __future__ import annotations

from typing import Any, Callable, Collection, Dict, Iterable, Iterator, List, Mapping, Optional, Tuple, Union

import attrs

from sm_debug_config.errors import ERROR, SEVERITIES, ConfigError, ConfigWarning, closest, pointer_parts, shorten, warn_user

DEBUG_FIELDS = ("DebugHookConfig", "DebugRuleConfigurations", "ProfilerConfig", "ProfilerRuleConfigurations", "TensorBoardOutputConfig")
RULE_FIELDS = ("DebugRuleConfigurations", "ProfilerRuleConfigurations")

#: The smdebug source that evidence cites by file and function (the training hook and rule library).
SMDEBUG = "smdebug (awslabs/sagemaker-debugger at 3b82de31)"

#: What a check yields: ``(code, JSON pointer, message)``.
Found = Tuple[str, str, str]


@attrs.frozen
class Finding:
    """One problem: ``severity`` (error, warning, info), stable ``code``, JSON-pointer ``path``, ``message``."""

    severity: str
    code: str
    path: str
    message: str
    line: Optional[int] = attrs.field(default=None, eq=False)
    column: Optional[int] = attrs.field(default=None, eq=False)
    suppressed: bool = attrs.field(default=False, eq=False)

    def to_dict(self) -> Dict[str, Any]:
        out = {"severity": self.severity, "code": self.code, "path": self.path, "message": self.message, "line": self.line, "column": self.column}
        if self.suppressed:
            out["suppressed"] = True
        return out

    def __str__(self) -> str:
        return f"{self.severity} {self.code} {self.path or '/'}: {self.message}"

    def to_warning(self) -> ConfigWarning:
        """This finding as a :class:`~sm_debug_config.errors.ConfigWarning` (code, severity and request path as attributes)."""
        return ConfigWarning.of_request(self.code, pointer_parts(self.path), self.message, self.severity)


@attrs.define
class Context:
    """The request under validation and what is known about the job."""

    request: Dict[str, Any]
    framework: Optional[str] = None
    region: Optional[str] = None
    operation: str = "CreateTrainingJob"
    #: ``{JSON pointer of a rule: parameter names it may pass unchecked}`` (allow_unknown_parameters)
    passthrough: Mapping[str, Collection[str]] = attrs.field(default=None, converter=lambda given: given or {})
    framework_version: Optional[str] = None
    image_uri: Optional[str] = None
    _cache: Dict[str, Any] = attrs.field(factory=dict, init=False, repr=False)

    def once(self, key: str, compute: Callable[[], Any]) -> Any:
        """``compute()``'s result, computed once per validation (checks that share a parse use it)."""
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def get(self, name: str) -> Any:
        return self.request.get(name)

    def field(self, name: str) -> Dict[str, Any]:
        """The request's ``name`` if it is an object, else an empty one."""
        return mapping(self.request.get(name))

    def rules(self, *fields: str) -> Iterator[Tuple[str, int, Dict[str, Any]]]:
        """``(field, index, rule)`` of the rule configurations that are objects, in ``fields`` (default: both)."""
        for field in fields or RULE_FIELDS:
            value = self.request.get(field)
            for index, rule in enumerate(value if isinstance(value, list) else ()):
                if isinstance(rule, dict):
                    yield field, index, rule

    def collections(self) -> Iterator[Tuple[int, Dict[str, Any]]]:
        hook = self.field("DebugHookConfig")
        value = hook.get("CollectionConfigurations")
        for index, coll in enumerate(value if isinstance(value, list) else ()):
            if isinstance(coll, dict):
                yield index, coll


def mapping(value: Any) -> Dict[str, Any]:
    """``value`` if it is a dict, else an empty one (request parts may be anything)."""
    return value if isinstance(value, dict) else {}


CheckFunction = Callable[[Context], Iterable[Found]]


@attrs.frozen
class Check:
    """A registered finding code: severity, one-line description, evidence, and the check that emits it."""

    code: str
    severity: str
    description: str
    evidence: str
    function: CheckFunction = attrs.field(eq=False, repr=False)


#: Every finding code, in registration order.
CHECKS: Dict[str, Check] = {}


#: One registration: ``(code, severity, description, evidence)``.
Registration = Tuple[str, str, str, str]


def check(*codes: Registration) -> Callable[[CheckFunction], CheckFunction]:
    """Register a check function; ``codes`` are the ``(code, severity, description, evidence)`` it emits.

    >>> @check(("SMD999", "info", "An example.", "Nothing happens."))
    ... def _example(ctx):
    ...     return [("SMD999", "/DebugHookConfig", "found")] if ctx.get("DebugHookConfig") else []
    >>> CHECKS.pop("SMD999").severity
    'info'
    """

    def register(function: CheckFunction) -> CheckFunction:
        for code, severity, description, evidence in codes:
            if code in CHECKS or severity not in SEVERITIES or not description.endswith(".") or not evidence.rstrip("\"')").endswith("."):
                raise RuntimeError(f"bad check registration {code} {severity}: {description!r} {evidence!r}")
            CHECKS[code] = Check(code, severity, description, evidence, function)
        return function

    return register


@check((
    "SMD002", ERROR, "A config file holds what cannot be built and no request check has a code for (unknown key, wrong type, bad value).",
    "The constructor of the object refuses the value (ConfigError); what a constructor may refuse is the "
    "constructor policy of issue 14 (wrong type, or a value botocore's model or the service rejects). A refused "
    "value a request check covers is reported with that check's code (SMD100, SMD132, SMD154...), not SMD002.",
))
def _config_file_errors(ctx: Context) -> Iterable[Found]:
    """Reported by ``sm-debug-config validate`` for a config file part it cannot build and no request check sees; never in a request."""
    return ()


@check(
    ("SMD180", "info",
     "An Estimator is given debugger_hook_config=None, which is the SDK's default hook, not the hook turned off.",
     "The SDK v2 Estimator replaces a None debugger_hook_config with a default DebuggerHookConfig "
     "(EstimatorBase._prepare_debugger_for_training); only False leaves DebugHookConfig out of the request. "
     "A public notebook's comment says None disables the hook (issue 25 research, M5)."),
    ("SMD181", "info",
     "A value lint needs is computed at run time, so what depends on it is not checked (shown with --verbose).",
     "lint evaluates sources statically (issue 25): a bucket from the session, a role or a value read from a file "
     "is known only when the code runs, and lint never guesses it."),
    ("SMD182", "warning", "An inline '# sm-debug-config: ignore[...]' comment names no registered check code.",
     "A typo in a suppression comment would otherwise silently suppress nothing, as ignore does for config "
     "files (check_codes)."),
)
def _lint_only(ctx: Context) -> Iterable[Found]:
    """Reported by ``sm-debug-config lint`` about Python sources (an Estimator call, a comment); never in a request."""
    return ()


def _registered() -> Dict[str, Check]:
    """:data:`CHECKS` with every family's module imported (they register on import)."""
    import sm_debug_config.validation  # noqa: F401

    return CHECKS


def list_checks(verbose: bool = False) -> List[Dict[str, str]]:
    """Every finding code with its severity and one-line description (and ``evidence`` if ``verbose``), sorted by code.

    >>> row = list_checks(verbose=True)[0]
    >>> sorted(row)
    ['code', 'description', 'evidence', 'severity']
    """
    keys = ("code", "severity", "description") + (("evidence",) if verbose else ())
    return [{key: getattr(c, key) for key in keys} for c in sorted(_registered().values(), key=lambda c: c.code)]


def severity_of(code: str) -> str:
    """The registered severity of ``code`` (constructors use it, so that a code has one severity)."""
    return _registered()[code].severity


def check_codes(codes: Union[None, str, Iterable[str]], field: str = "ignore") -> Tuple[str, ...]:
    """``codes`` as a tuple of registered codes (upper-cased); a ``ConfigError`` with a did-you-mean otherwise.

    >>> check_codes(["smd110", "SMD139"])
    ('SMD110', 'SMD139')
    >>> check_codes(["SMD1100"])
    Traceback (most recent call last):
    ...
    sm_debug_config.errors.ConfigError: ignore[0]: unknown check code 'SMD1100'; did you mean 'SMD110'? (allowed: a code listed by `sm-debug-config checks`)
    """
    if codes is None:
        return ()
    items = [codes] if isinstance(codes, str) else codes
    if not isinstance(items, (list, tuple, set, frozenset)):
        raise ConfigError(f"got {type(codes).__name__}", field=field, allowed="a list of check codes such as ['SMD110']")
    known = _registered()
    out: Dict[str, None] = {}
    for index, code in enumerate(items):
        if not isinstance(code, str):
            raise ConfigError(f"got {type(code).__name__}", path=(field, index), allowed="a check code such as 'SMD110'")
        name = code.strip().upper()
        if name not in known:
            near = closest(name, list(known), n=1)
            hint = f" did you mean {shorten(near[0])}?" if near else ""
            raise ConfigError(f"unknown check code {shorten(code)};{hint}".rstrip(";"), path=(field, index), allowed="a code listed by `sm-debug-config checks`")
        out[name] = None
    return tuple(out)


def validate(
    request: Dict[str, Any],
    *,
    framework: Optional[str] = None,
    region: Optional[str] = None,
    operation: str = "CreateTrainingJob",
    ignore: Union[None, str, Iterable[str]] = (),
    passthrough: Optional[Mapping[str, Collection[str]]] = None,
    framework_version: Optional[str] = None,
    image_uri: Optional[str] = None,
) -> List[Finding]:
    """Every finding for the Debugger fields of ``request``, except those of the codes in ``ignore``.

    ``request`` holds any of the five fields; a whole ``CreateTrainingJob`` request works too
    (other keys are ignored). ``framework`` (tensorflow, pytorch, mxnet, xgboost) and ``region``
    enable the checks that need them; ``framework_version`` or ``image_uri`` (else the request's
    ``AlgorithmSpecification.TrainingImage``) name the training image. ``ignore`` lists codes to suppress (see
    :func:`validate_split` to count them). ``passthrough`` maps a rule's JSON pointer
    (``/DebugRuleConfigurations/0``) to parameter names its ``allow_unknown_parameters`` let
    through: those are SMD122 (passed through), not SMD120 (``render`` fills it in). Findings are
    sorted by path, then code.

    >>> validate({"DebugRuleConfigurations": [{"RuleConfigurationName": "VG",
    ...     "RuleEvaluatorImage": "503895931360.dkr.ecr.us-east-1.amazonaws.com/sagemaker-debugger-rules:latest",
    ...     "RuleParameters": {"rule_to_invoke": "VanishingGradient", "threshhold": "0.1"}}]})[1].message
    "VanishingGradient has no parameter 'threshhold'; did you mean 'threshold'? allowed: threshold"
    """
    from sm_debug_config.model import catalogue, regions

    codes = check_codes(ignore)
    if not isinstance(request, dict):
        raise ConfigError(f"expected a dict (a CreateTrainingJob request or its Debugger fields), got {type(request).__name__}", field="request")
    framework = catalogue.framework_name(framework)
    if region is not None:
        regions.check_region(region)
    if passthrough is not None and not (
        isinstance(passthrough, Mapping)
        and all(isinstance(k, str) and isinstance(names, (list, tuple, set, frozenset)) and all(isinstance(n, str) for n in names) for k, names in passthrough.items())
    ):
        raise ConfigError(f"expected a mapping of rule pointers to parameter names, got {type(passthrough).__name__}", field="passthrough")
    ctx = Context(request, framework, region, operation, passthrough, framework_version, image_uri)
    findings = []
    for function in dict.fromkeys(c.function for c in CHECKS.values()):
        for code, path, message in function(ctx):
            if code not in codes:
                findings.append(Finding(CHECKS[code].severity, code, path, message))
    return sorted(dict.fromkeys(findings), key=lambda f: (_sort_path(f.path), f.code, f.message))


def validate_split(
    request: Dict[str, Any], *, ignore: Union[None, str, Iterable[str]] = (), **options: Any
) -> Tuple[List[Finding], List[Finding]]:
    """``(kept, suppressed)``: :func:`validate`'s findings (same arguments), and those that ``ignore``
    left out, marked ``suppressed=True`` (not part of equality) so that a summary can count them.

    >>> kept, suppressed = validate_split({"DebugHookConfig": {"S3OutputPath": "s3://b/o",
    ...     "HookParameters": {"export_tensorboard": "true"}}}, ignore=["SMD139"])
    >>> kept, [(f.code, f.suppressed) for f in suppressed]
    ([], [('SMD139', True)])
    """
    codes = check_codes(ignore)
    found = validate(request, **options)
    suppressed = [attrs.evolve(f, suppressed=True) for f in found if f.code in codes]
    return [f for f in found if f.code not in codes], suppressed


def path_key(path: str) -> Tuple[Any, ...]:
    """A sort key for a JSON pointer: list indexes in numeric order."""
    return tuple((0, p, "") if isinstance(p, int) else (1, 0, p) for p in pointer_parts(path))


def _sort_path(path: str) -> Tuple[Any, ...]:
    """Findings of the five fields in the API's order, then by :func:`path_key`."""
    parts = path_key(path)
    field = parts[0][2] if parts else ""
    order = DEBUG_FIELDS.index(field) if field in DEBUG_FIELDS else len(DEBUG_FIELDS)
    return (order,) + parts[1:]


def errors(findings: Iterable[Finding]) -> List[Finding]:
    """The error findings that are not suppressed."""
    return [f for f in findings if f.severity == ERROR and not f.suppressed]


def raise_for_errors(findings: List[Finding]) -> None:
    """Raise a ``ConfigError`` carrying ``findings`` if any is an error (suppressed ones never count)."""
    bad = errors(findings)
    if bad:
        listed = "; ".join(f"{f.code} {f.path}: {f.message}" for f in bad[:5])
        more = f" (and {len(bad) - 5} more)" if len(bad) > 5 else ""
        raise ConfigError(f"the request would fail: {listed}{more}", field="request", findings=findings)


def raise_or_warn(findings: List[Finding]) -> None:
    """What every entry point that validates does with its findings: raise a ``ConfigError`` (see
    :func:`raise_for_errors`) if any is an error, else warn each other finding once, as a
    :class:`~sm_debug_config.errors.ConfigWarning` at the user's call (suppressed ones never count).

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     raise_or_warn(validate({"DebugHookConfig": {"S3OutputPath": "s3://b/o", "HookParameters": {"save_steps": "1,2"}}}))
    >>> [(w.message.code, w.message.pointer) for w in caught]
    [('SMD173', '/DebugHookConfig/HookParameters/save_steps')]
    """
    raise_for_errors(findings)
    for finding in dict.fromkeys(f for f in findings if not f.suppressed):
        warn_user(finding.to_warning())
