"""Rule container images per region, and which regions have Debugger and the profiler.

Driven by ``data/regions.json``. A region newer than the table can still be used by naming
the image yourself: per call (``image_uri=`` / ``rule_image_uri=``), in the config file
(``rule_image_uri:``), or with the environment variables below.
"""
from __future__ import annotations

import os
import re
from typing import Dict, List, Optional

from sm_debug_config import datafiles as data
from sm_debug_config.errors import ConfigError

ENV_RULE_IMAGE = "SM_DEBUG_CONFIG_RULE_IMAGE_URI"
ENV_DETAILED_PROFILER_IMAGE = "SM_DEBUG_CONFIG_DETAILED_PROFILER_IMAGE_URI"
REGION_RE = re.compile(r"^[a-z]{2}(-[a-z]+)+-\d+$")
_DETAILED_PREFIX = "DetailedProfilerProcessingJobConfig"


def _table() -> Dict:
    return data.load("regions")


def known_regions(image: str = "builtin") -> List[str]:
    """Regions with an image of that kind (``builtin``, ``custom``, ``detailed_profiler``)."""
    return sorted(_table()["images"][image]["accounts"])


def check_region(region: object) -> str:
    """``region`` if it looks like an AWS region name; ``ConfigError`` otherwise."""
    if not isinstance(region, str) or not REGION_RE.match(region):
        raise ConfigError(f"{region!r} is not an AWS region name", field="region", allowed="a region such as us-east-1")
    return region


def supports_debugger(region: str) -> bool:
    return region not in _table()["regions_without_debugger"]


def supports_profiler(region: str, instance_type: Optional[str] = None) -> bool:
    if region in _table()["regions_without_profiler"]:
        return False
    if isinstance(instance_type, str) and re.match(r"^ml[._]trn", instance_type):
        return False
    return True


def image_uri(image: str, region: str) -> str:
    """The image URI of one kind of rule container in ``region``."""
    check_region(region)
    entry = _table()["images"][image]
    account = entry["accounts"].get(region)
    if account is None:
        env = ENV_DETAILED_PROFILER_IMAGE if image == "detailed_profiler" else ENV_RULE_IMAGE
        how = (
            f"pass the image URI yourself: rule_image_uri= to render (or image_uri= for one rule), "
            f"'rule_image_uri:' in the config file, or the environment variable {env}"
        )
        raise ConfigError(
            f"no {entry['repository']} image is known for region {region!r}; {how}",
            field="region",
            allowed=", ".join(sorted(entry["accounts"])),
        )
    domain = _table()["domains"]["cn-"] if region.startswith("cn-") else _table()["domains"]["default"]
    return _table()["uri_format"].format(account=account, region=region, domain=domain, repository=entry["repository"], tag=entry["tag"])


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
    """Like ``get_rule_container_image_uri`` but honouring a per-call or environment override."""
    detailed = isinstance(name, str) and name.startswith(_DETAILED_PREFIX)
    env = os.environ.get(ENV_DETAILED_PROFILER_IMAGE if detailed else ENV_RULE_IMAGE)
    if override and not detailed:
        return override
    if env:
        return env
    return get_rule_container_image_uri(name, region)


def region_of_image(uri: str) -> Optional[str]:
    """The region an ECR image URI lives in (``None`` when it is not an ECR URI)."""
    match = re.match(r"^\d{12}\.dkr\.ecr\.([a-z0-9-]+)\.amazonaws\.com(\.cn)?/", uri or "")
    return match.group(1) if match else None
