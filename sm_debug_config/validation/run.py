"""Running validation: every registered check over a request, ``ignore`` applied, findings sorted.

The families register on import (:mod:`~sm_debug_config.validation.api`, ``hook``, ``rules``, ``profiler``,
``paths``, ``images``); this module imports them all, so that :data:`~sm_debug_config.findings.CHECKS` is
complete here. ``ignore`` takes declared codes only (:func:`check_codes`), so a typo cannot silently
suppress nothing.
"""

from __future__ import annotations

from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Collection,
    Dict,
    Iterable,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Union,
)

from sm_debug_config.codes import nearest
from sm_debug_config.errors import ConfigError, PathT, Site, shorten, warn_user
from sm_debug_config.findings import (
    CHECKS,
    Finding,
    building_as_written,
    code_list,
    collect,
    errors_of,
    is_error,
    severity_of,
    sort_key,
)
from sm_debug_config.model import catalogue, regions
from sm_debug_config.validation import api, hook, images, paths, profiler, rules  # noqa: F401  (registers checks)
from sm_debug_config.validation.registry import FUNCTIONS, Context, mapping

if TYPE_CHECKING:
    from sm_debug_config.model.settings import JobSettings

__all__ = [
    "check_codes",
    "errors",
    "list_checks",
    "raise_for_errors",
    "raise_or_warn",
    "severity_of",
    "validate",
    "validate_job",
    "validate_split",
]


#: What :func:`list_checks` gives of each code (and ``evidence`` with ``verbose``), in this order.
LISTED = ("code", "name", "severity", "lifecycle", "applies_to", "description", "fixes")


def list_checks(verbose: bool = False) -> List[Dict[str, Any]]:
    """Every finding code with its name, severity, lifecycle, the inputs it applies to, one-line description and the
    fixes its findings carry (each ``{"applicability", "change"}``; none: no fix) (and ``evidence`` if ``verbose``),
    sorted by code.

    >>> row = list_checks(verbose=True)[0]
    >>> list(row)
    ['code', 'name', 'severity', 'lifecycle', 'applies_to', 'description', 'fixes', 'evidence']
    >>> next(row for row in list_checks() if row["code"] == "SMD120")["fixes"][0]["applicability"]
    'safe'
    """
    keys = LISTED + (("evidence",) if verbose else ())
    return [{key: _plain(getattr(c, key)) for key in keys} for c in sorted(CHECKS.values(), key=lambda c: c.code)]


def _plain(value: Any) -> Any:
    """A tuple as a list (what JSON writes), a fix's ``(applicability, change)`` as an object, anything else as it
    is."""
    if isinstance(value, tuple):
        return [{"applicability": item[0], "change": item[1]} if isinstance(item, tuple) else item for item in value]
    return value


def check_codes(codes: Union[None, str, Iterable[str]], field: str = "ignore") -> Tuple[str, ...]:
    """``codes`` as a tuple of registered codes (upper-cased); a ``ConfigError`` with a did-you-mean otherwise.

    >>> check_codes(["smd110", "SMD139"])
    ('SMD110', 'SMD139')
    >>> check_codes(["SMD1100"])
    Traceback (most recent call last):
    ...
    sm_debug_config.errors.ConfigError: ignore[0]: unknown check code 'SMD1100'; did you mean 'SMD110'?
        (allowed: a code listed by `sm-debug-config checks`)
    """
    names = code_list(codes, field, form=False)  # types checked: each item is a str
    _check_registered([codes] if isinstance(codes, str) else list(codes or ()), field)
    return names


def _check_registered(codes: Sequence[str], field: str = "ignore") -> None:
    """A ``ConfigError`` with a did-you-mean for the first of ``codes`` (strings) that is no registered code."""
    for index, given in enumerate(codes):
        name = given.strip().upper()
        if name not in CHECKS:
            near = nearest(given, CHECKS)
            hint = f" did you mean {shorten(near)}?" if near else ""
            raise ConfigError(
                f"unknown check code {shorten(given)};{hint}".rstrip(";"),
                path=(field, index),
                allowed="a code listed by `sm-debug-config checks`",
            )


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
    codes = check_codes(ignore)
    if not isinstance(request, dict):
        raise ConfigError(
            f"expected a dict (a CreateTrainingJob request or its Debugger fields), got {type(request).__name__}",
            field="request",
        )
    framework = catalogue.framework_name(framework)
    if region is not None:
        regions.check_region(region)
    if passthrough is not None and not (
        isinstance(passthrough, Mapping)
        and all(
            isinstance(k, str)
            and isinstance(names, (list, tuple, set, frozenset))
            and all(isinstance(n, str) for n in names)
            for k, names in passthrough.items()
        )
    ):
        raise ConfigError(
            f"expected a mapping of rule pointers to parameter names, got {type(passthrough).__name__}",
            field="passthrough",
        )
    return _findings(Context(request, framework, region, operation, passthrough, framework_version, image_uri), codes)


def validate_job(
    request: Dict[str, Any],
    settings: JobSettings,
    *,
    operation: str = "CreateTrainingJob",
    passthrough: Optional[Mapping[str, Collection[str]]] = None,
) -> List[Finding]:
    """:func:`validate` of a request rendered with ``settings`` (``render``'s, ``render_update``'s), which were
    checked when they were built: their region and the form of their ``ignore`` codes are not checked again.
    Checked here, once, as :func:`validate` does: whether each ``ignore`` code is registered and the framework's name
    (``JobSettings`` checks neither). An ``UpdateTrainingJob`` request is checked, as always, without the job's
    framework and image.

    >>> from sm_debug_config.model.settings import JobSettings
    >>> validate_job({"DebugHookConfig": {"S3OutputPath": "s3://b/o", "HookParameters": {"save_steps": "1,2"}}},
    ...              JobSettings(region="us-east-1", ignore=["smd173"]))
    []
    """
    _check_registered(settings.ignore)
    if operation != "CreateTrainingJob":
        return _findings(Context(request, None, settings.region, operation, passthrough), settings.ignore)
    framework = catalogue.framework_name(settings.framework)
    context = Context(request, framework, settings.region, operation, passthrough, settings.framework_version,
                      settings.image_uri)
    return _findings(context, settings.ignore)


def job_framework(ctx: Context) -> Optional[str]:
    """The framework of the job: the one given (a flag, a config file's ``framework:``, an Estimator's class), else
    the one its training image runs (``image_uri``, else the request's ``TrainingImage``), else None (the framework's
    checks are not run). Every surface validates through here, so a PyTorch image is PyTorch to all of them.

    >>> job_framework(Context({"AlgorithmSpecification": {"TrainingImage":
    ...     "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.1.0-gpu-py310"}}))
    'pytorch'
    """
    if ctx.framework is not None or ctx.operation != "CreateTrainingJob":
        return ctx.framework
    image = ctx.image_uri
    if image is None:
        image = mapping(ctx.get("AlgorithmSpecification")).get("TrainingImage")
    if not isinstance(image, str):
        return None
    from sm_debug_config.model.images import framework_of_image  # its tables only for a job whose image is named

    return framework_of_image(image)


def _findings(ctx: Context, ignore: Collection[str]) -> List[Finding]:
    """Every finding of the registered checks over ``ctx``'s request (its framework: :func:`job_framework`), but those
    of the codes in ``ignore`` (registered codes, upper-cased), sorted by path, then code. One problem is one
    finding: where two checks report the same code at the same path (the API's type check and the hook parameter's
    own, for a number written where a string goes), the first registered is kept."""
    ctx.framework = job_framework(ctx)
    findings: Dict[Tuple[str, PathT], Finding] = {}
    for function in FUNCTIONS:
        for finding in function(ctx):
            if finding.code not in ignore:
                findings.setdefault((finding.code, finding.path), finding)
    return sorted(findings.values(), key=sort_key)


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
    suppressed = [f.replace(suppressed=True) for f in found if f.code in codes]
    return [f for f in found if f.code not in codes], suppressed


def errors(findings: Iterable[Finding]) -> List[Finding]:
    """The error findings that are not suppressed."""
    return errors_of(findings)


def raise_for_errors(findings: List[Finding]) -> None:
    """Raise one ``ConfigError`` carrying ``findings`` if any is an error (suppressed ones never count): its text
    lists the errors with their codes and pointers, its ``code`` is the first error's. Not while objects are built
    as written (:func:`~sm_debug_config.findings.collecting`: ``plan`` running a launcher), where a refused request
    is kept, as a refused value is: the source reading it reports every finding of the job.

    >>> raise_for_errors([Finding("error", "SMD102", "/DebugRuleConfigurations", "21 rules")])
    Traceback (most recent call last):
    ...
    sm_debug_config.errors.ConfigError: request: the request would fail: SMD102 /DebugRuleConfigurations: 21 rules
    """
    bad = errors(findings)
    if bad and not building_as_written():
        listed = "; ".join(f"{f.code} {f.pointer or '/'}: {f.message}" for f in bad[:5])
        more = f" (and {len(bad) - 5} more)" if len(bad) > 5 else ""
        raise ConfigError(f"the request would fail: {listed}{more}", field="request", findings=findings,
                          code=bad[0].code)


def raise_or_warn(
    findings: List[Finding],
    site: Optional[Callable[[Finding], Optional[Site]]] = None,
    source: Optional[str] = None,
) -> None:
    """What every entry point that validates does with its findings: warn each finding that is no error once, as a
    :class:`~sm_debug_config.errors.ConfigWarning` at the user's call (or at ``site(finding)``: where the user built
    the object it is about; a finding with a ``line`` is placed in the file ``source``), then raise one
    ``ConfigError`` carrying them all (see :func:`raise_for_errors`) if any is an error (suppressed ones never
    count): an error never hides the warnings of the same job.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     raise_or_warn(validate({"DebugHookConfig": {"S3OutputPath": "s3://b/o",
    ...                                                 "HookParameters": {"save_steps": "1,2"}}}))
    >>> [(w.message.code, w.message.pointer) for w in caught]
    [('SMD173', '/DebugHookConfig/HookParameters/save_steps')]
    """
    kept = building_as_written()  # plan running a launcher: nothing is raised, the errors are collected too
    for finding in dict.fromkeys(f for f in findings if not f.suppressed and (kept or not is_error(f))):
        if collect(finding) or is_error(finding):  # a command line collects them to say them itself
            continue
        warning = finding.to_warning()
        if source is not None and finding.line is not None:
            warning = warning.placed(source, (finding.line, finding.column or 1))
        warn_user(warning, site(finding) if site is not None else None)
    raise_for_errors(findings)
