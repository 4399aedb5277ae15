"""The check registry: every finding code once, with its severity and one-line description.

A check is a function of a :class:`Context` that yields ``(code, path, message)``; it is
registered with :func:`check`, which declares the codes it emits. Codes that only other steps
raise (a config file that cannot be built, a constructor's warning) are declared the same way,
on a function that finds nothing in a request. :func:`validate` runs every registered check;
the severity of a finding is always its code's.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Tuple

import attrs

from sm_debug_config.errors import ERROR, SEVERITIES, ConfigError, pointer_parts

DEBUG_FIELDS = ("DebugHookConfig", "DebugRuleConfigurations", "ProfilerConfig", "ProfilerRuleConfigurations", "TensorBoardOutputConfig")
RULE_FIELDS = ("DebugRuleConfigurations", "ProfilerRuleConfigurations")

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

    def to_dict(self) -> Dict[str, Any]:
        return {"severity": self.severity, "code": self.code, "path": self.path, "message": self.message, "line": self.line}

    def __str__(self) -> str:
        return f"{self.severity} {self.code} {self.path or '/'}: {self.message}"


class Context:
    """The request under validation and what is known about the job."""

    def __init__(self, request: Dict[str, Any], framework: Optional[str], region: Optional[str], operation: str = "CreateTrainingJob",
                 framework_version: Optional[str] = None, image_uri: Optional[str] = None) -> None:
        self.request = request
        self.framework = framework
        self.region = region
        self.operation = operation
        self.framework_version = framework_version
        self.image_uri = image_uri
        self._cache: Dict[str, Any] = {}

    def once(self, key: str, compute: Callable[[], Any]) -> Any:
        """``compute()``'s result, computed once per validation (checks that share a parse use it)."""
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def get(self, name: str) -> Any:
        return self.request.get(name)

    def rules(self, field: str) -> Iterator[Tuple[int, Dict[str, Any]]]:
        """``(index, rule)`` of the rule configurations in ``field`` that are objects."""
        value = self.request.get(field)
        if isinstance(value, list):
            for index, rule in enumerate(value):
                if isinstance(rule, dict):
                    yield index, rule

    def collections(self) -> Iterator[Tuple[int, Dict[str, Any]]]:
        hook = self.request.get("DebugHookConfig")
        if isinstance(hook, dict) and isinstance(hook.get("CollectionConfigurations"), list):
            for index, coll in enumerate(hook["CollectionConfigurations"]):
                if isinstance(coll, dict):
                    yield index, coll


def mapping(value: Any) -> Dict[str, Any]:
    """``value`` if it is a dict, else an empty one (request parts may be anything)."""
    return value if isinstance(value, dict) else {}


CheckFunction = Callable[[Context], Iterable[Found]]


@attrs.frozen
class Check:
    """A registered finding code: severity, one-line description, and the check that emits it."""

    code: str
    severity: str
    description: str
    function: CheckFunction = attrs.field(eq=False, repr=False)


#: Every finding code, in registration order.
CHECKS: Dict[str, Check] = {}


def check(*codes: Tuple[str, str, str]) -> Callable[[CheckFunction], CheckFunction]:
    """Register a check function; ``codes`` are the ``(code, severity, description)`` it emits.

    >>> @check(("SMD999", "info", "An example."))
    ... def _example(ctx):
    ...     return [("SMD999", "/DebugHookConfig", "found")] if ctx.get("DebugHookConfig") else []
    >>> CHECKS.pop("SMD999").severity
    'info'
    """

    def register(function: CheckFunction) -> CheckFunction:
        for code, severity, description in codes:
            if code in CHECKS or severity not in SEVERITIES or not description.endswith("."):
                raise RuntimeError(f"bad check registration {code} {severity}: {description!r}")
            CHECKS[code] = Check(code, severity, description, function)
        return function

    return register


@check(("SMD002", ERROR, "A config file describes objects that cannot be built (unknown key, wrong type, bad value)."))
def _config_file_errors(ctx: Context) -> Iterable[Found]:
    """Reported by ``sm-debug-config validate`` for a config file it cannot build; never in a request."""
    return ()


def list_checks() -> List[Dict[str, str]]:
    """Every finding code with its severity and one-line description, sorted by code."""
    return [{"code": c.code, "severity": c.severity, "description": c.description} for c in sorted(CHECKS.values(), key=lambda c: c.code)]


def validate(
    request: Dict[str, Any],
    *,
    framework: Optional[str] = None,
    region: Optional[str] = None,
    operation: str = "CreateTrainingJob",
    framework_version: Optional[str] = None,
    image_uri: Optional[str] = None,
) -> List[Finding]:
    """Every finding for the Debugger fields of ``request``.

    ``request`` holds any of the five fields; a whole ``CreateTrainingJob`` request works too
    (other keys are ignored). ``framework`` (tensorflow, pytorch, mxnet, xgboost) and ``region``
    enable the checks that need them; ``framework_version`` or ``image_uri`` (else the request's
    ``AlgorithmSpecification.TrainingImage``) name the training image. Findings are sorted by path, then code.

    >>> validate({"DebugRuleConfigurations": [{"RuleConfigurationName": "VG",
    ...     "RuleEvaluatorImage": "503895931360.dkr.ecr.us-east-1.amazonaws.com/sagemaker-debugger-rules:latest",
    ...     "RuleParameters": {"rule_to_invoke": "VanishingGradient", "threshhold": "0.1"}}]})[1].message
    "VanishingGradient has no parameter 'threshhold'; did you mean 'threshold'? allowed: threshold"
    """
    from sm_debug_config.model import catalogue, regions

    if not isinstance(request, dict):
        raise ConfigError(f"expected a dict (a CreateTrainingJob request or its Debugger fields), got {type(request).__name__}", field="request")
    if framework is not None:
        framework = str(framework).lower()
        if framework not in catalogue.FRAMEWORKS:
            raise ConfigError(f"unknown framework {framework!r}", field="framework", allowed=", ".join(catalogue.FRAMEWORKS))
    if region is not None:
        regions.check_region(region)
    ctx = Context(request, framework, region, operation, framework_version, image_uri)
    findings = []
    for function in dict.fromkeys(c.function for c in CHECKS.values()):
        for code, path, message in function(ctx):
            findings.append(Finding(CHECKS[code].severity, code, path, message))
    unique = list(dict.fromkeys(findings))
    return sorted(unique, key=lambda f: (_sort_path(f.path), f.code, f.message))


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
    return [f for f in findings if f.severity == ERROR]


def raise_for_errors(findings: List[Finding]) -> None:
    """Raise a ``ConfigError`` carrying ``findings`` if any is an error."""
    bad = errors(findings)
    if bad:
        listed = "; ".join(f"{f.code} {f.path}: {f.message}" for f in bad[:5])
        more = f" (and {len(bad) - 5} more)" if len(bad) > 5 else ""
        raise ConfigError(f"the request would fail: {listed}{more}", field="request", findings=findings)
