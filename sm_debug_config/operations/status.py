"""Where a training job's rules stand: one row per rule, its rule job and its CloudWatch logs.

A rule job's ARN is lower case while its log streams keep the real case, so its name is rebuilt
from the training job's and the rule's names (how: docs/rule-status.md).
"""
from __future__ import annotations

import datetime as _dt
import functools
import re
from typing import Any, Dict, List, Mapping, Optional, Pattern, Sequence, Tuple

import attrs

from sm_debug_config.errors import ConfigError, shorten
from sm_debug_config.model import regions
from sm_debug_config.model.regions import console_host, partition_of_region  # noqa: F401  (public here too)
from sm_debug_config.model.validators import JOB_NAME_RE, is_number, parse_float
from sm_debug_config.operations.events import RULE_STATUS_KEYS

PROCESSING_JOB_LOG_GROUP = "/aws/sagemaker/ProcessingJobs"
#: Rule statuses that make ``sm-debug-config status`` exit with 1.
ATTENTION_STATUSES = ("IssuesFound", "Error")

_NAME_PART = 26
_SUFFIX = 8


@functools.lru_cache(maxsize=None)
def _arn_re() -> Pattern[str]:
    """A processing job's ARN in any known partition (the job name as CreateProcessingJob allows it)."""
    name = JOB_NAME_RE.pattern.lstrip("^").rstrip("$")
    return re.compile(
        rf"^arn:(?P<partition>{regions.partition_pattern()}):sagemaker:(?P<region>[a-z0-9\-]*)"
        rf":(?P<account>[0-9]{{12}}):processing-job/(?P<name>{name})$"
    )


@attrs.frozen
class ProcessingJobArn:
    """The parts of ``arn:<partition>:sagemaker:<region>:<account>:processing-job/<name>``."""

    partition: str
    region: str
    account: str
    name: str

    @classmethod
    def parse(cls, arn: Any) -> Optional["ProcessingJobArn"]:
        """The parts of a processing-job ARN, or ``None`` for anything else."""
        match = _arn_re().match(arn) if isinstance(arn, str) else None
        return cls(**match.groupdict()) if match else None


def rule_job_name(
    training_job_name: Optional[str], rule_name: Optional[str], rule_job_arn: Optional[str]
) -> Optional[str]:
    """The rule job's (processing job's) name with its real case, or ``None`` without a valid ARN.

    >>> rule_job_name("smdebugger-demo-mnist-tensorflow-2019-12-01", "LossNotDecreasing",
    ...               "arn:aws:sagemaker:us-west-2:123456789012:processing-job/"
    ...               "smdebugger-demo-mnist-tens-lossnotdecreasing-d6176866")
    'smdebugger-demo-mnist-tens-LossNotDecreasing-d6176866'
    """
    arn = ProcessingJobArn.parse(rule_job_arn)
    return None if arn is None else _rebuilt_name(training_job_name, rule_name, arn) or arn.name


def _rebuilt_name(training_job_name: Any, rule_name: Any, arn: ProcessingJobArn) -> Optional[str]:
    """The name rebuilt from the training job's and the rule's names, if it is the ARN's ignoring case."""
    if not (isinstance(training_job_name, str) and isinstance(rule_name, str) and len(arn.name) > _SUFFIX):
        return None
    rebuilt = f"{training_job_name[:_NAME_PART]}-{rule_name[:_NAME_PART]}-{arn.name[-_SUFFIX:]}"
    return rebuilt if rebuilt.lower() == arn.name.lower() else None


def log_url(job_name: str, region: str, partition: Optional[str] = None) -> Optional[str]:
    """The CloudWatch Logs console link to a processing job's log streams (prefix search).

    >>> print(*log_url("my-job-Overfit-1a2b3c4d", "us-east-1").split("#"), sep="\\n#")
    https://us-east-1.console.aws.amazon.com/cloudwatch/home?region=us-east-1
    #logStream:group=/aws/sagemaker/ProcessingJobs;prefix=my-job-Overfit-1a2b3c4d;streamFilter=typeLogStreamPrefix
    """
    if not isinstance(job_name, str):
        raise ConfigError(f"expected a processing job name, got {type(job_name).__name__}", field="job_name")
    host = console_host(region, partition)
    if host is None:
        return None
    return (
        f"https://{host}/cloudwatch/home?region={region}"
        f"#logStream:group={PROCESSING_JOB_LOG_GROUP};prefix={job_name};streamFilter=typeLogStreamPrefix"
    )


def _format_time(value: Any) -> Optional[str]:
    """ISO 8601 in UTC for datetimes (naive ones are taken as UTC) and epoch numbers (s or ms)."""
    if isinstance(value, _dt.datetime):
        value = value.replace(tzinfo=_dt.timezone.utc) if value.tzinfo is None else value
        return value.astimezone(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    if isinstance(value, str) and not re.fullmatch(r"\d+(\.\d+)?", value.strip()):
        return value.strip() or None
    if isinstance(value, str):
        value = parse_float(value)  # digits only here; None past 400 of them
    if not is_number(value):  # also an int past a double's range: float() would overflow
        return None
    number = float(value)
    if abs(number) >= 1e11:  # EventBridge events carry epoch milliseconds
        number /= 1000.0
    try:
        return _dt.datetime.fromtimestamp(number, tz=_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    except (OverflowError, OSError, ValueError):
        return None


@attrs.frozen
class RuleJobRow:
    """One rule of a training job (``kind``: ``debugger`` or ``profiler``); the rule job's fields are
    ``None`` until it has started, and ``note`` says why a field is missing."""

    kind: str
    rule_name: str
    status: str
    details: str = ""
    rule_job_name: Optional[str] = None
    rule_job_arn: Optional[str] = None
    last_modified: Optional[str] = None
    log_url: Optional[str] = None
    note: str = ""

    @property
    def needs_attention(self) -> bool:
        return self.status in ATTENTION_STATUSES

    def to_dict(self) -> Dict[str, Any]:
        return attrs.asdict(self)


def _response_dict(response: Any) -> Mapping[str, Any]:
    if not isinstance(response, Mapping):
        raise ConfigError(
            f"expected the DescribeTrainingJob response (a dict), got {type(response).__name__}",
            field="describe_training_job_response",
            allowed="the dict returned by describe_training_job, or an event's 'detail'",
        )
    return response


def rule_job_summary(
    describe_training_job_response: Mapping[str, Any], region: Optional[str] = None
) -> List[RuleJobRow]:
    """One row per rule of a ``DescribeTrainingJob`` response or an event's ``detail`` (Debugger rules
    first); log links use the region of each rule job's ARN, ``region`` only where it has none.

    >>> rows = rule_job_summary({"TrainingJobName": "my-job", "DebugRuleEvaluationStatuses": [
    ...     {"RuleConfigurationName": "Overfit", "RuleEvaluationStatus": "InProgress"}]})
    >>> rows[0].status, rows[0].rule_job_name, rows[0].note
    ('InProgress', None, 'no rule job yet, so no log link')
    """
    response = _response_dict(describe_training_job_response)
    if region is not None:
        regions.check_region(region)
    training_job_name = response.get("TrainingJobName")
    rows: List[RuleJobRow] = []
    for kind, key in RULE_STATUS_KEYS.items():
        statuses = response.get(key)
        if not isinstance(statuses, list):
            continue
        for index, status in enumerate(statuses):
            rows.append(_row(kind, key, index, status, training_job_name, region))
    return rows


def _row(kind: str, key: str, index: int, status: Any, training_job_name: Any, region: Optional[str]) -> RuleJobRow:
    if not isinstance(status, Mapping):
        return RuleJobRow(kind, f"{key}[{index}]", "Unknown", note=f"malformed status entry ({type(status).__name__})")
    name = status.get("RuleConfigurationName")
    name = name if isinstance(name, str) and name else f"{key}[{index}]"
    value = status.get("RuleEvaluationStatus")
    value = value if isinstance(value, str) and value else "Unknown"
    details = status.get("StatusDetails")
    details = " ".join(details.split()) if isinstance(details, str) else ""
    arn_text = status.get("RuleEvaluationJobArn")
    arn = ProcessingJobArn.parse(arn_text)
    last_modified = _format_time(status.get("LastModifiedTime"))
    if arn is None:
        note = (
            f"unrecognised RuleEvaluationJobArn {shorten(arn_text)}, so no log link"
            if arn_text
            else "no rule job yet, so no log link"
        )
        return RuleJobRow(kind, name, value, details, last_modified=last_modified, note=note)
    rebuilt = _rebuilt_name(training_job_name, status.get("RuleConfigurationName"), arn)
    job = rebuilt or arn.name
    notes = [] if rebuilt else ["rule job name taken from the ARN (lower case); the log stream's case may differ"]
    link_region = arn.region or region
    url = log_url(job, link_region, arn.partition) if link_region else None
    if url is None:
        notes.append(
            f"no console link known for partition {arn.partition}" if link_region else "no region for a log link"
        )
    return RuleJobRow(kind, name, value, details, job, arn_text, last_modified, url, "; ".join(notes))


def rule_job_log_urls(
    describe_training_job_response: Mapping[str, Any], region: Optional[str] = None
) -> Dict[str, Optional[str]]:
    """The CloudWatch Logs console link of each rule's job, by rule name (``None``: no job yet);
    a name used by a Debugger and a profiler rule comes a second time as ``"profiler:<name>"``.

    >>> rule_job_log_urls({"TrainingJobName": "my-job", "DebugRuleEvaluationStatuses": [{
    ...     "RuleConfigurationName": "Overfit", "RuleEvaluationStatus": "InProgress",
    ...     "RuleEvaluationJobArn": "arn:aws-cn:sagemaker:cn-north-1:123456789012:processing-job/"
    ...                             "my-job-overfit-1a2b3c4d"}]})["Overfit"][:60]
    'https://cn-north-1.console.amazonaws.cn/cloudwatch/home?regi'
    """
    urls: Dict[str, Optional[str]] = {}
    for row in rule_job_summary(describe_training_job_response, region):
        key = row.rule_name if row.rule_name not in urls else f"{row.kind}:{row.rule_name}"
        urls[key] = row.log_url
    return urls


def format_summary_table(rows: Sequence[RuleJobRow], details_width: int = 100) -> str:
    """A fixed-width text table of the rows (no trailing spaces, ends with a newline).

    >>> row = RuleJobRow("debugger", "Overfit", "IssuesFound", "Rule evaluation resulted in the condition being met",
    ...                  "my-job-Overfit-1a2b3c4d")
    >>> print(format_summary_table([row], details_width=30), end="")
    KIND      RULE     STATUS       RULE JOB                 LAST MODIFIED  DETAILS
    debugger  Overfit  IssuesFound  my-job-Overfit-1a2b3c4d  -              Rule evaluation resulted in...
    """
    if not isinstance(rows, (list, tuple)) or not all(isinstance(row, RuleJobRow) for row in rows):
        raise ConfigError(f"expected a list of RuleJobRow (rule_job_summary's), got {shorten(rows)}", field="rows")
    if not isinstance(details_width, int) or isinstance(details_width, bool) or not 4 <= details_width <= 10_000:
        raise ConfigError(f"got {shorten(details_width)}", field="details_width", allowed="4 to 10000")
    if not rows:
        return "No Debugger or profiler rules are configured for this training job.\n"
    header = ("KIND", "RULE", "STATUS", "RULE JOB", "LAST MODIFIED", "DETAILS")
    body = [
        (
            row.kind,
            row.rule_name,
            row.status,
            row.rule_job_name or "(no rule job yet)",
            row.last_modified or "-",
            row.details if len(row.details) <= details_width else row.details[: details_width - 3] + "...",
        )
        for row in rows
    ]
    table = [header] + body
    widths = [max(len(line[i]) for line in table) for i in range(len(header) - 1)]
    return "".join("  ".join([*map(str.ljust, line, widths), line[-1]]).rstrip() + "\n" for line in table)


class StatusUnavailable(Exception):
    """``DescribeTrainingJob`` failed: AWS refused it (the message names its error code) or was not reached."""


@attrs.frozen
class JobStatus:
    """Where a training job and its rules stand (:func:`job_status`): ``status`` and ``secondary_status`` as
    ``DescribeTrainingJob`` gives them, the ``region`` it was read in (``None`` when the client has none), and one
    :class:`RuleJobRow` per rule."""

    job_name: str
    status: str
    secondary_status: Optional[str] = None
    region: Optional[str] = None
    rules: Tuple[RuleJobRow, ...] = ()

    @property
    def needs_attention(self) -> Tuple[RuleJobRow, ...]:
        """The rules whose status is one of :data:`ATTENTION_STATUSES`."""
        return tuple(row for row in self.rules if row.needs_attention)


def job_status(job_name: str, region: Optional[str] = None, client: Any = None) -> JobStatus:
    """Where the training job ``job_name`` and its rules stand, read with ``DescribeTrainingJob`` (``client``: a
    SageMaker client, by default one for ``region``). A bad name or region: ``ConfigError`` naming the field,
    before any call; a call that fails: :class:`StatusUnavailable`.
    """
    if not isinstance(job_name, str) or not JOB_NAME_RE.match(job_name):
        raise ConfigError(
            f"{shorten(job_name)} is not a training job name",
            field="job_name",
            allowed="1-63 letters, digits and hyphens, starting and ending with a letter or digit",
        )
    if region is not None:
        regions.check_region(region)

    from botocore.exceptions import BotoCoreError, ClientError

    try:
        if client is None:
            import boto3

            client = boto3.client("sagemaker", region_name=region)
        response = client.describe_training_job(TrainingJobName=job_name)
    except ClientError as err:
        error = err.response.get("Error", {}) if isinstance(err.response, dict) else {}
        code, message = error.get("Code", "Error"), error.get("Message", str(err))
        where = region or client.meta.region_name  # a ClientError comes from the call, so the client exists
        raise StatusUnavailable(
            f"cannot describe training job {shorten(job_name)} in {where}: {code}: {message}"
        ) from err
    except BotoCoreError as err:
        raise StatusUnavailable(f"cannot describe training job {shorten(job_name)}: {err}") from err

    used_region = region or getattr(getattr(client, "meta", None), "region_name", None)
    rows = rule_job_summary(response, used_region if regions.is_region(used_region) else None)
    return JobStatus(
        response.get("TrainingJobName", job_name),
        response.get("TrainingJobStatus", "Unknown"),
        response.get("SecondaryStatus"),
        used_region,
        tuple(rows),
    )
