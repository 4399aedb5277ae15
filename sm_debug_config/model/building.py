"""Building objects as written: what a source (a config file, a Python source in lint, a launcher in plan) asks
for, built by the objects' own constructors, every problem kept as a value.

A user's ``CollectionConfig(...)`` raises at the first value its checks refuse. A source is read
differently: :func:`build` runs the constructor with its refusals recorded
(:func:`~sm_debug_config.findings.collecting` with ``as_written``), so that the object holds the value as
written, the request it renders holds it too, and every later check still runs; the constructor's own
warnings come back as findings, nothing is warned. Only what cannot be built at all (a value of the wrong
type that the constructor needs to go on) leaves no object. Per thread and per task: no process-wide switch.

>>> from sm_debug_config import CollectionConfig
>>> built = build(CollectionConfig, ("weights", {"save_interval": "0"}))
>>> built.value.parameters, [(f.code, f.path) for f in built.findings]
({'save_interval': '0'}, [('SMD132', ('parameters', 'save_interval'))])
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Sequence, Tuple

import attrs

from sm_debug_config.errors import ConfigError
from sm_debug_config.findings import Finding, collecting, finding_of_error

__all__ = ["Built", "build"]


@attrs.frozen
class Built:
    """What :func:`build` made: ``value`` (``None`` when nothing could be built: see ``built``), the ``errors`` of
    the values refused (each a ``ConfigError`` with its ``path`` below the object), and every finding
    (``findings``: those errors as findings, then the constructor's warnings), in the order they were found."""

    value: Any
    built: bool
    errors: Tuple[ConfigError, ...]
    findings: Tuple[Finding, ...]


def build(
    factory: Callable[..., Any],
    args: Sequence[Any] = (),
    kwargs: Optional[Dict[str, Any]] = None,
    *,
    as_written: bool = True,
) -> Built:
    """``factory(*args, **kwargs)`` with its findings collected; ``as_written``: the values its checks refuse are
    kept (and recorded), else the first refusal stops it, as for a user's call."""
    value: Any = None
    built = True
    with collecting(as_written=as_written) as found:
        try:
            value = factory(*args, **(kwargs or {}))
        except ConfigError as err:
            found.errors.append(err)
            built = False
        except (TypeError, ValueError, OverflowError) as err:  # what a constructor did not expect to be given
            found.errors.append(ConfigError(f"invalid value: {' '.join(str(err).split())}"))
            built = False
    errors = tuple(found.errors)
    return Built(value, built, errors, tuple(finding_of_error(e) for e in errors) + tuple(found.findings))
