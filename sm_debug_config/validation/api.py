"""The API's own limits as findings: SMD001 (a pipeline expression, checked when the pipeline runs) and
SMD100 (a limit of the CreateTrainingJob API), reported by the shape engine of :mod:`sm_debug_config.apischema`.
"""

from __future__ import annotations

import re
from typing import Iterator, Optional

from sm_debug_config.apischema import SMD001, SMD100, SchemaError, check_api
from sm_debug_config.errors import shorten
from sm_debug_config.findings import RULE_FIELDS, Finding
from sm_debug_config.fixes import PREFIX, SAFE, SET, UNSAFE, Change, Fix
from sm_debug_config.model.validators import parse_int, string_fix
from sm_debug_config.validation.registry import Context, check

#: botocore's S3Uri pattern, as the schema writes it (a value that matches it once ``s3://`` is put before).
_S3_URI_SHAPE = "S3Uri"


@check(SMD001, SMD100)
def _api_limits(ctx: Context) -> Iterator[Finding]:
    result = check_api(ctx.request, operation=ctx.operation)
    for skipped in result.skipped:
        yield SMD001.at(skipped.parts, skipped.message)
    for error in result.errors:
        if error.keyword == "maxItems" and error.parts in tuple((f,) for f in RULE_FIELDS):
            continue  # SMD102 says it better
        yield SMD100.at(error.parts, error.message, fix=_fix(error))


def _fix(error: SchemaError) -> Optional[Fix]:
    """The fix of an API-limit error whose intended value is known: a parameter's number or bool as the string the
    SDK v2 sends (safe); a whole number's string where the API takes an integer, ``"true"``/``"false"`` where it
    takes a boolean (safe); an S3 URI without its scheme, ``s3://`` before it (unsafe: the bucket is a guess)."""
    value, path = error.value, error.parts
    if error.keyword == "type" and error.shape == "ConfigValue" and error.expected == "string":
        return string_fix(path, value)
    if error.keyword == "type" and error.expected == "integer" and isinstance(value, str):
        number = parse_int(value)
        if number is None or value != str(number):  # "+5", "05", " 5": written otherwise, left as written
            return None
        return Fix(SAFE, f"write {shorten(value)} as the integer {number}", (Change(SET, path, number),))
    if error.keyword == "type" and error.expected == "boolean" and isinstance(value, str):
        word = value.strip().lower()
        if word not in ("true", "false"):
            return None
        return Fix(SAFE, f"write {shorten(value)} as the boolean {word}", (Change(SET, path, word == "true"),))
    if error.keyword == "pattern" and error.shape == _S3_URI_SHAPE and isinstance(value, str) and "://" not in value:
        if value.startswith("/") or not re.match(r"^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](/|$)", value):
            return None  # not a bucket name first: a local path, not an S3 URI without its scheme
        return Fix(UNSAFE, f"put s3:// before {shorten(value)}", (Change(PREFIX, path, "s3://"),))
    return None
