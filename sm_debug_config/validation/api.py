"""The API's own limits as findings: SMD001 (a pipeline expression, checked when the pipeline runs) and
SMD100 (a limit of the CreateTrainingJob API), reported by the shape engine of :mod:`sm_debug_config.apischema`.
"""

from __future__ import annotations

from typing import Iterator

from sm_debug_config.apischema import SMD001, SMD100, check_api
from sm_debug_config.findings import RULE_FIELDS, Finding
from sm_debug_config.validation.registry import Context, check


@check(SMD001, SMD100)
def _api_limits(ctx: Context) -> Iterator[Finding]:
    result = check_api(ctx.request, operation=ctx.operation)
    for skipped in result.skipped:
        yield SMD001.at(skipped.parts, skipped.message)
    for error in result.errors:
        if error.keyword == "maxItems" and error.parts in tuple((f,) for f in RULE_FIELDS):
            continue  # SMD102 says it better
        yield SMD100.at(error.parts, error.message)
