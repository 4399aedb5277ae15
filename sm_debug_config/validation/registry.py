"""The check registry: the check functions of validation, each registered for the codes it emits.

A code is declared once with its severity, description and evidence (:func:`sm_debug_config.findings.declare`,
in the module that produces it); a check is a function of a :class:`Context` that yields findings
(``SMDnnn.at(path, message)``), registered with :func:`check` for the declared codes it emits (a
``(code, severity, description, evidence)`` tuple declares the code there).
Running the checks is :mod:`sm_debug_config.validation.run`.
The severity policy (issue 14) heads ``docs/checks.md``.
"""

from __future__ import annotations

from typing import Any, Callable, Collection, Dict, Iterable, Iterator, Mapping, Optional, Tuple, Union

import attrs

from sm_debug_config.errors import ERROR, INFO, WARNING
from sm_debug_config.findings import CHECKS, DEBUG_FIELDS, RULE_FIELDS, Check, Finding, declare
from sm_debug_config.fixes import Fix
from sm_debug_config.model.validators import rename_fix

__all__ = [
    "FUNCTIONS",
    "READS",
    "CheckFunction",
    "Context",
    "check",
    "mapping",
]


@attrs.define
class Context:
    """The request under validation and what is known about the job (one per validation)."""

    request: Dict[str, Any]
    framework: Optional[str] = None
    region: Optional[str] = None
    operation: str = "CreateTrainingJob"
    #: ``{JSON pointer of a rule: parameter names it may pass unchecked}`` (allow_unknown_parameters)
    passthrough: Mapping[str, Collection[str]] = attrs.field(factory=dict, converter=lambda value: value or {})
    framework_version: Optional[str] = None
    image_uri: Optional[str] = None
    _cache: Dict[str, Any] = attrs.field(factory=dict, init=False, repr=False, eq=False)

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


#: A check: the findings (made by the declarations, ``SMDnnn.at(path, message)``) of one request.
CheckFunction = Callable[[Context], Iterable[Finding]]

#: The check functions, in registration order (each once), with the codes each emits.
FUNCTIONS: Dict[CheckFunction, Tuple[str, ...]] = {}
#: Code -> the request members whose whole content its check's verdict depends on, besides the value it reports
#: at (``reads=`` of :func:`check`): where one of them is not known (lint: computed at run time), the check's
#: findings could be wrong and are left out (a rule list that is unknown is not "no rules").
READS: Dict[str, Tuple[str, ...]] = {}


def check(
    *codes: Union[Check, Tuple[str, str, str, str]], reads: Tuple[str, ...] = ()
) -> Callable[[CheckFunction], CheckFunction]:
    """Register a check function for the codes it emits: declared :class:`~sm_debug_config.findings.Check`
    objects, or ``(code, severity, description, evidence)`` tuples that declare the code here (its name and
    inputs from :data:`sm_debug_config.codes.TABLE`). ``reads``: the
    request members (:data:`~sm_debug_config.findings.DEBUG_FIELDS`) its verdict depends on as a whole (:data:`READS`).

    >>> SMD999 = declare("SMD999", INFO, "An example.", "Nothing happens.", name="an-example")
    >>> @check(SMD999)
    ... def _example(ctx):
    ...     return [CHECKS["SMD999"].at(("DebugHookConfig",), "found")] if ctx.get("DebugHookConfig") else []
    >>> CHECKS.pop("SMD999").severity, FUNCTIONS.pop(_example)
    ('info', ('SMD999',))
    """

    def register(function: CheckFunction) -> CheckFunction:
        declared = [c if isinstance(c, Check) else declare(*c) for c in codes]
        if any(CHECKS.get(c.code) is not c for c in declared):
            raise RuntimeError(f"check {function.__name__} registers codes not declared: {[c.code for c in declared]}")
        if any(member not in DEBUG_FIELDS for member in reads):
            raise RuntimeError(f"check {function.__name__} reads members that are no Debugger field: {reads}")
        FUNCTIONS[function] = tuple(c.code for c in declared)
        for found in declared:
            READS[found.code] = tuple(reads)
        return function

    return register


# Reported by ``sm-debug-config lint`` about Python sources (an Estimator call, a comment); never in a request.
SMD180 = declare(
    "SMD180", INFO,
    "An Estimator is given debugger_hook_config=None, which is the SDK's default hook, not the hook turned off.",
    "The SDK v2 Estimator replaces a None debugger_hook_config with a default DebuggerHookConfig "
    "(EstimatorBase._prepare_debugger_for_training); only False leaves DebugHookConfig out of the request. "
    "A public notebook's comment says None disables the hook (issue 25 research, M5).",
)
SMD181 = declare(
    "SMD181", INFO,
    "A value lint needs is computed at run time, so what depends on it is not checked (shown with --verbose).",
    "lint evaluates sources statically (issue 25): a bucket from the session, a role or a value read from a file "
    "is known only when the code runs, and lint never guesses it.",
)
SMD182 = declare(
    "SMD182", WARNING, "An inline '# sm-debug-config: ignore[...]' comment names no registered check code.",
    "A typo in a suppression comment would otherwise silently suppress nothing, "
    "as ignore does for config files (check_codes).",
)

# Reported by ``validate`` about an ACK TrainingJob manifest (sources/kubernetes.py); never in a request.
SMD103 = declare(
    "SMD103", WARNING,
    "An ACK TrainingJob manifest writes a member in the API's case (S3OutputPath): the controller never sees it.",
    "The ACK SageMaker controller's TrainingJob CRD (aws-controllers-k8s/sagemaker-controller) declares each member "
    "with a lower-case first letter (s3OutputPath) in a structural schema, and the Kubernetes API server prunes "
    "fields a structural schema does not declare; what the job loses is reported by the request's checks.",
)


def manifest_case_fix(path: Tuple[Any, ...], siblings: Iterable[Any]) -> Optional[Fix]:
    """SMD103's safe fix: the member at the manifest's ``path`` renamed to the controller's case (first letter lower),
    unless ``siblings`` (the keys beside it) has that name already.

    >>> manifest_case_fix(("spec", "DebugHookConfig"), ["DebugHookConfig"]).changes[0].value
    'debugHookConfig'
    """
    name = path[-1]
    return rename_fix(path, name[:1].lower() + name[1:], siblings) if isinstance(name, str) else None

# Reported by ``validate`` and ``lint`` (``--format sarif``) about a file they cannot read; never in a request.
SMD003 = declare(
    "SMD003",
    ERROR,
    "A file cannot be read or parsed (missing, not UTF-8, invalid YAML, JSON or Python), so nothing in it is checked.",
    "validate and lint exit 2 for such a file, as for any usage error; the other formats print the reason as the "
    "file's error, and --format sarif reports it as a result of this code because GitHub code scanning shows results, "
    "not a run's notifications. --ignore does not apply: nothing in the file was checked.",
)

# Reported by ``sm-debug-config plan`` about a launcher's run; never in a request.
SMD190 = declare(
    "SMD190",
    WARNING,
    "plan stopped the launcher at --max-jobs: the job requests after it were not seen, so they are not checked.",
    "sm-debug-config plan stops the launcher at its job request number --max-jobs + 1 so that a launcher that loops "
    "ends (Capture.on_parameters); nothing is wrong with the jobs it did see and none fails, but what the launcher "
    "would start after that request is unknown, so the plan is incomplete: a warning, which --strict fails on.",
)
