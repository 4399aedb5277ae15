"""Regions: their partitions (``data/partitions.json``, from botocore's by ``scripts/generate_partitions.py``), rule
container images and which have Debugger and the profiler (``data/regions.json``). A region newer than the image
table works with an image named per call, in the config file, or in the environment variables below.
"""
from __future__ import annotations

import functools
import os
import re
from typing import Any, Dict, Mapping, Optional, Pattern, Tuple

import attrs

from sm_debug_config import datafiles as data
from sm_debug_config.errors import ERROR, ConfigError, shorten
from sm_debug_config.findings import declare

ENV_RULE_IMAGE = "SM_DEBUG_CONFIG_RULE_IMAGE_URI"
ENV_DETAILED_PROFILER_IMAGE = "SM_DEBUG_CONFIG_DETAILED_PROFILER_IMAGE_URI"
_DETAILED_PREFIX = "DetailedProfilerProcessingJobConfig"


#: The region a job is checked in when neither the user nor the environment names one (said wherever it is used).
DEFAULT_REGION = "us-east-1"
#: The environment variables that name the region, in the order the AWS SDKs read them.
REGION_VARIABLES = ("AWS_REGION", "AWS_DEFAULT_REGION")
#: The source of a region nobody named (:attr:`JobRegion.source`).
ASSUMED = "assumed"
#: What follows from an assumed region where a job is rendered (config files, lint, explain, render).
RENDERED = "rule images are rendered for it, and the region checks (SMD151, SMD161) are not run"


@attrs.frozen
class JobRegion:
    """The region a job is checked in and where it comes from: ``given`` (a flag, a config file's ``region:``,
    the project's ``region``), an environment variable's name, or :data:`ASSUMED`.

    An assumed region is used to render (which rule images a job gets) but never to judge: the checks that compare
    against the job's region (SMD151, SMD161) get :attr:`checked` None for it."""

    name: str
    source: str

    @property
    def assumed(self) -> bool:
        return self.source == ASSUMED

    @property
    def checked(self) -> Optional[str]:
        """The region the checks compare against: the name, unless it was assumed."""
        return None if self.assumed else self.name

    def note(self, consequence: str = RENDERED) -> Optional[str]:
        """What a command says when the region was assumed (a note, not a finding), with what follows from it;
        else None."""
        if not self.assumed:
            return None
        return f"region {self.name} assumed (no --region, region setting, {'/'.join(REGION_VARIABLES)}): {consequence}"


#: Declared where region support is known: the request check (validation.paths) and render, which sends what
#: a region without Debugger cannot run, report it.
SMD161 = declare(
    "SMD161", ERROR, "Debugger or profiler settings for a region without Debugger or profiler support.",
    "No built-in rule image exists there (the SDK v2's image_uri_config/debugger.json has no account for the region, "
    "data/regions.json) and the SDK v2 refuses a hook there (sagemaker/estimator.py: \"Current region does not support "
    "debugger but debugger hook config is set!\").")


def job_region(given: Optional[str] = None, environ: Optional[Mapping[str, str]] = None) -> JobRegion:
    """The one region default of every surface (validate, lint, plan, explain, render): ``given`` (the user's
    setting), else the environment's (:data:`REGION_VARIABLES`), else :data:`DEFAULT_REGION`, assumed. The name is
    checked (a ``ConfigError`` naming ``region``).

    >>> job_region("eu-west-1", {}), job_region(None, {"AWS_DEFAULT_REGION": "eu-west-1"}).source
    (JobRegion(name='eu-west-1', source='given'), 'AWS_DEFAULT_REGION')
    >>> job_region(None, {}).note()[:28]
    'region us-east-1 assumed (no'
    """
    env = os.environ if environ is None else environ
    if given:
        return JobRegion(check_region(given), "given")
    for variable in REGION_VARIABLES:
        value = env.get(variable)
        if value:
            if not is_region(value):
                raise ConfigError(f"{shorten(value)} is not an AWS region name", field=variable,
                                  allowed="a region such as us-east-1, or unset it")
            return JobRegion(value, variable)
    return JobRegion(DEFAULT_REGION, ASSUMED)


def _table() -> Dict[str, Any]:
    return data.load("regions")


@functools.lru_cache(maxsize=None)
def _partitions() -> Tuple[Tuple[Dict[str, Any], Pattern[str]], ...]:
    return tuple((entry, re.compile(entry["region_regex"])) for entry in data.load("partitions")["partitions"])


def partition(region: object) -> Optional[Dict[str, Any]]:
    """The partition entry of ``region`` (``id``, ``dns_suffix``, ``console_host``...), else ``None``.

    A partition that lists the region wins; otherwise the one whose region regex matches (as botocore resolves).

    >>> partition("eusc-de-east-1")["id"], partition("us-isof-south-1")["dns_suffix"], partition("moon")
    ('aws-eusc', 'csp.hci.ic.gov', None)
    """
    return _partition_of(region) if isinstance(region, str) else None


@functools.lru_cache(maxsize=256)  # every rule and setting asks again for the few regions of a run
def _partition_of(region: str) -> Optional[Dict[str, Any]]:
    listed = next((entry for entry, _ in _partitions() if region in entry["regions"]), None)
    return listed or next((entry for entry, regex in _partitions() if regex.match(region)), None)


def partition_of_region(region: str) -> Optional[str]:
    """The id of the partition a region belongs to (``cn-north-1`` -> ``aws-cn``), ``None`` if none.

    >>> partition_of_region("us-gov-west-1"), partition_of_region("eu-isoe-west-1")
    ('aws-us-gov', 'aws-iso-e')
    """
    entry = partition(region)
    return entry["id"] if entry else None


def partition_pattern() -> str:
    """A regex (no groups) matching any known partition id, the second field of an ARN."""
    return "(?:" + "|".join(re.escape(entry["id"]) for entry, _ in _partitions()) + ")"


def region_of_arn(arn: object, service: str = "sagemaker") -> Optional[str]:
    """The region field of an ARN of ``service`` in a known partition (``None`` otherwise).

    >>> region_of_arn("arn:aws-eusc:sagemaker:eusc-de-east-1:123456789012:training-job/j")
    'eusc-de-east-1'
    """
    match = (
        re.match(rf"^arn:{partition_pattern()}:{re.escape(service)}:([a-z0-9-]+):", arn)
        if isinstance(arn, str)
        else None
    )
    return match.group(1) if match else None


def console_host(region: str, partition_id: Optional[str] = None) -> Optional[str]:
    """The AWS console's host for ``region`` (``None`` where no public console host is known).

    >>> console_host("cn-northwest-1"), console_host("us-iso-east-1")
    ('cn-northwest-1.console.amazonaws.cn', None)
    """
    entry = (
        partition(region)
        if partition_id is None
        else next((e for e, _ in _partitions() if e["id"] == partition_id), None)
    )
    template = entry["console_host"] if entry else None
    return template.format(region=region) if template else None


def is_region(value: object) -> bool:
    """Whether ``value`` is a region name of a known partition (``eusc-de-east-1`` is)."""
    return partition(value) is not None


def check_region(region: object) -> str:
    """``region`` if it is a region name of a known partition; ``ConfigError`` otherwise."""
    if not isinstance(region, str) or not is_region(region):
        raise _not_a_region(region)
    return region


def required_region(region: Optional[str]) -> str:
    """``region``, a name checked already (where it was given: ``JobSettings``), for what needs one (a render); the
    ``ConfigError`` of :func:`check_region` if there is none, and no second check of the name.

    >>> required_region("us-east-1")
    'us-east-1'
    """
    if region is None:
        raise _not_a_region(region)
    return region


def _not_a_region(region: object) -> ConfigError:
    return ConfigError(
        f"{shorten(region)} is not an AWS region name", path=("region",), allowed="a region such as us-east-1"
    )


def supports_debugger(region: str) -> bool:
    return region not in _table()["regions_without_debugger"]


def supports_profiler(region: str, instance_type: Optional[str] = None) -> bool:
    trainium = isinstance(instance_type, str) and re.match(r"^ml[._]trn", instance_type)
    return region not in _table()["regions_without_profiler"] and not trainium


def image_uri(image: str, region: str) -> str:
    """The image URI of one kind of rule container in ``region`` (``ConfigError`` if it is no region name)."""
    return _image_uri(image, check_region(region))


def _image_uri(image: str, region: str) -> str:
    """:func:`image_uri` in ``region``, a region name checked already."""
    entry = _table()["images"][image]
    account = entry["accounts"].get(region)
    if account is None:
        env = ENV_DETAILED_PROFILER_IMAGE if image == "detailed_profiler" else ENV_RULE_IMAGE
        how = (
            f"pass the image URI yourself: rule_image_uri= to render (or image_uri= for one rule), "
            f"'rule_image_uri:' in the config file, or the environment variable {env}"
        )
        raise ConfigError(
            f"no {entry['repository']} image is known for region {shorten(region)}; {how}",
            path=("region",),
            allowed=", ".join(sorted(entry["accounts"])),
        )
    domain = (partition(region) or {}).get("dns_suffix", "amazonaws.com")
    return _table()["uri_format"].format(
        account=account, region=region, domain=domain, repository=entry["repository"], tag=entry["tag"]
    )


def get_rule_container_image_uri(name: str, region: str) -> str:
    """The image a built-in rule named ``name`` runs in, in ``region`` (as the SDK's function).

    >>> get_rule_container_image_uri("VanishingGradient", "us-west-2")
    '895741380848.dkr.ecr.us-west-2.amazonaws.com/sagemaker-debugger-rules:latest'
    """
    if isinstance(name, str) and name.startswith(_DETAILED_PREFIX):
        return image_uri("detailed_profiler", region)
    return image_uri("builtin", region)


def get_custom_rule_evaluator_image_uri(region: str) -> str:
    """The ``sagemaker-debugger-rule-evaluator`` image that custom rules (``Rule.custom``) run in.

    >>> get_custom_rule_evaluator_image_uri("us-east-1")
    '864354269164.dkr.ecr.us-east-1.amazonaws.com/sagemaker-debugger-rule-evaluator:latest'
    """
    return image_uri("custom", region)


def builtin_image_for(name: str, region: str, override: Optional[str] = None) -> str:
    """Like ``get_rule_container_image_uri`` but honouring a per-call or environment override, for a render: its
    ``region`` was checked when its settings were built (``JobSettings``), and is not checked again for each rule."""
    detailed = isinstance(name, str) and name.startswith(_DETAILED_PREFIX)
    if override and not detailed:
        return override
    return os.environ.get(ENV_DETAILED_PROFILER_IMAGE if detailed else ENV_RULE_IMAGE) or _image_uri(
        "detailed_profiler" if detailed else "builtin", region
    )


def same_image_in(uri: str, region: str) -> Optional[str]:
    """The rule image ``uri`` names (a built-in, custom or detailed profiler rule image, exactly as the table writes
    it in the region of its URI), in ``region`` instead; None for another image, or a region without it (SMD151's
    fix).

    >>> same_image_in("895741380848.dkr.ecr.us-west-2.amazonaws.com/sagemaker-debugger-rules:latest", "us-east-1")
    '503895931360.dkr.ecr.us-east-1.amazonaws.com/sagemaker-debugger-rules:latest'
    """
    home = region_of_image(uri)
    if home is None or not is_region(region):
        return None
    for image in _table()["images"]:
        try:
            if _image_uri(image, home) == uri:
                return _image_uri(image, region)
        except ConfigError:  # no such image in one of the regions: nothing to name
            continue
    return None


def region_of_image(uri: str) -> Optional[str]:
    """The region an ECR image URI lives in (``None`` when it is not an ECR URI)."""
    match = _image_re().match(uri or "")
    return match.group(1) if match else None


@functools.lru_cache(maxsize=None)
def _image_re() -> Pattern[str]:
    suffixes = sorted({re.escape(entry["dns_suffix"]) for entry, _ in _partitions()}, key=len, reverse=True)
    return re.compile(r"^\d{12}\.dkr\.ecr\.([a-z0-9-]+)\.(?:" + "|".join(suffixes) + ")/")
