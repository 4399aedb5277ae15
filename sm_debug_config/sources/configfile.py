"""A config file (the project's YAML/JSON format, :mod:`sm_debug_config.configfile`): one job, its objects built as
written, each finding at the key of the file it concerns.

An object a constructor refuses is kept as written (``ConfigFile.load(as_far_as_possible=True)``), so that its
problem is found once, by the request check of the same code; a refusal no request check sees is reported with
its own code (SMD002 when it has none), at its key. A fix's change to the request is made at the key the file
wrote it at (:meth:`~sm_debug_config.configfile.load.LoadedConfig.file_change`), in the file's syntax.
"""
from __future__ import annotations

from typing import Any, Dict, Iterator, Optional, Sequence

import attrs

from sm_debug_config.configfile import ConfigFileError
from sm_debug_config.configfile import format as fmt
from sm_debug_config.engine import Job
from sm_debug_config.errors import ConfigError, PathT
from sm_debug_config.findings import ERROR, SMD002, Finding, error_message
from sm_debug_config.fixes import Change, Edit, Fix
from sm_debug_config.rendering import Rendered


def detect(document: Any) -> bool:
    """Whether ``document`` is a config file: a mapping with a key of the format."""
    return isinstance(document, dict) and bool(set(map(str, document)) & set(fmt.formats()["config"].keys))


def jobs(found: Any, settings: Dict[str, Any]) -> Iterator[Job]:
    """The one job of a config file: its objects as written, ``settings`` (the user's, not None) over its own."""
    loaded, build_errors = found.load(as_far_as_possible=True)

    def place(finding: Finding, rendered: Optional[Rendered]) -> Finding:
        key = loaded.path_of_request_pointer(finding.pointer, rendered) if rendered is not None else ()
        line, column = (loaded.locate(key) if key else None) or (None, None)
        return finding.replace(line=line, column=column)

    def refusal(err: ConfigError, rendered: Optional[Rendered]) -> Finding:
        placed = err if isinstance(err, ConfigFileError) else loaded.error_at(err)
        where = loaded.request_pointer_of(placed.path, rendered) if rendered is not None else ""
        text = error_message(ConfigError(placed.message, field=placed.field, allowed=placed.allowed))  # no position
        return Finding(ERROR, placed.code or SMD002.code, where, text, line=placed.line, column=placed.column,
                       fix=_refusal_fix(err.fix, placed.path, found))

    def edit(change: Change, rendered: Optional[Rendered]) -> Optional[Sequence[Edit]]:
        in_file = loaded.file_change(change, rendered, found.document) if rendered is not None else None
        return found.edits(in_file) if in_file is not None else None

    kwargs = loaded.render_kwargs(**settings)
    written = loaded.render_kwargs().get("ignore")
    if isinstance(written, (str, list, tuple)) and settings.get("ignore"):  # the file's and the user's, joined
        kwargs["ignore"] = list(dict.fromkeys(([written] if isinstance(written, str) else list(written))
                                              + list(settings["ignore"])))
    yield Job(render_kwargs=kwargs, refused=build_errors, place=place, refusal=refusal, edit=edit)


def _refusal_fix(fix: Optional[Fix], path: PathT, found: Any) -> Optional[Fix]:
    """A constructor's fix of the value it refused (a misspelt ProfilerReport key), made at the key of the file
    ``path`` the refusal is placed at: its one change is at that key (the path below the object ends where the
    file's does), so it is an edit there; else the fix stays without edits."""
    if fix is None or len(fix.changes) != 1 or not path or fix.changes[0].path[-1:] != path[-1:]:
        return fix
    change = attrs.evolve(fix.changes[0], path=path)
    return attrs.evolve(fix, changes=(change,), edits=found.edits(change))
