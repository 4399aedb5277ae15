"""Reading the files a command is given: a JSON request or response, or any YAML/JSON document parsed once
(the commands that read no file, such as ``checks`` and ``rules``, never import the config-file package)."""
from __future__ import annotations

import json
from typing import Any, Callable, Mapping, Optional, Tuple

from sm_debug_config.cli.common import UsageError, wrong_command
from sm_debug_config.configfile.document import parse_text
from sm_debug_config.configfile.load import ConfigFile
from sm_debug_config.configfile.parse import json_error
from sm_debug_config.configfile.text import decode, read_bytes
from sm_debug_config.documents import cloudformation, hcl
from sm_debug_config.errors import ConfigError
from sm_debug_config.limits import file_size_error, json_loads


def read_json(path: str) -> Any:
    """A JSON file (a request, a DescribeTrainingJob response); an unreadable or invalid one is a usage error."""
    try:
        raw = read_bytes(path, "request", what="the file")
    except ConfigError as err:
        raise UsageError(str(err)) from None

    try:
        return json_loads(raw.decode("utf-8"))
    except ConfigError as err:
        raise UsageError(f"{path}: {err.message}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text") from None
    except json.JSONDecodeError as err:  # worded as validate words it
        raise UsageError(str(json_error(err, raw.decode("utf-8"), path))) from None
    except ValueError as err:
        raise UsageError(f"{path}: invalid JSON: {err}") from None


def read(path: str, kind: str = "config", command: Optional[str] = None) -> Any:
    """Any YAML/JSON file read and parsed once (a :class:`~sm_debug_config.configfile.load.ConfigFile`: its
    ``document``, ``locate`` and ``load``); an unreadable or unparsable file is a usage error (exit 2), and so is
    a Python source or notebook given to ``command`` (named in the error: which command reads it).

    CloudFormation's YAML tags (``!Ref``...) are read for a ``kind`` ``cloudformation`` document, and for
    ``auto`` when the file is a template once read with them; any other document refuses them as before.
    The file may be as large as ``kind`` may be (``limits.MAX_FILE_BYTES``; ``auto``: any document, :func:`held_to`
    the kind found). A ``.tf`` file read as ``auto`` or ``terraform`` is Terraform HCL (an
    :class:`~sm_debug_config.documents.hcl.HclFile`: ``document``, ``locate``, ``size``).
    """
    hint = wrong_command(path, command, reads="validate") if command else None
    if hint:
        raise UsageError(hint)
    data, text = read_text(path, kind)
    return parse(path, text, kind, len(data))


def read_text(path: str, kind: str = "config") -> Tuple[bytes, str]:
    """The bytes of the file at ``path`` (``-``: standard input) and its text (UTF-8, a byte-order mark dropped),
    at most as large as ``kind`` may be (:func:`read`); a usage error when it cannot be read or is no UTF-8 text."""
    limit = "terraform-hcl" if hcl.reads_as_hcl(path, kind) else kind
    try:
        data = read_bytes(path, limit, what="the file" if limit == "terraform-hcl" else "the config file")
        return data, decode(data, path, limit)
    except ConfigError as err:
        raise UsageError(str(err), getattr(err, "line", None), getattr(err, "column", None)) from None


def encoded(data: bytes) -> Callable[[str], bytes]:
    """How a text read from ``data`` (:func:`read_text`) is written back: UTF-8, with the byte-order mark ``data``
    had."""
    bom = b"\xef\xbb\xbf" if data.startswith(b"\xef\xbb\xbf") else b""
    return lambda text: bom + text.encode("utf-8")


def parse(path: str, text: str, kind: str = "config", size: int = 0) -> Any:
    """The ``text`` of the file ``path`` (``size`` bytes) parsed as :func:`read` parses a file: the same document,
    locator and errors, for a text given in memory (``--fix`` checks the fixed text before it is written)."""
    if hcl.reads_as_hcl(path, kind):
        try:
            return hcl.read_hcl_text(text, path, size)
        except hcl.MissingHcl as err:
            raise UsageError(f"{path}: {err.message}") from None
        except ConfigError as err:
            raise UsageError(str(err), getattr(err, "line", None), getattr(err, "column", None)) from None
    try:
        if kind == "cloudformation":
            return _parsed(path, text, size, cloudformation.YAML_TAGS)
        try:
            return _parsed(path, text, size)
        except ConfigError:
            if kind != "auto" or path == "-":
                raise
            found = _parsed(path, text, size, cloudformation.YAML_TAGS)
            if not cloudformation.detect(found.document):
                raise
            return found
    except ConfigError as err:
        raise UsageError(str(err), getattr(err, "line", None), getattr(err, "column", None)) from None


def _parsed(path: str, text: str, size: int, tags: Optional[Mapping[str, str]] = None) -> ConfigFile:
    """A YAML or JSON text parsed as :func:`~sm_debug_config.configfile.read_file` parses a file's."""
    found = parse_text(text, path, None, require_mapping=False, tags=tags)
    return ConfigFile(path, found.data(), found.locator(), found, size)


def held_to(found: Any, kind: str) -> None:
    """A usage error when ``found`` (:func:`read` before its kind was known) is larger than a ``kind`` may be."""
    problem = file_size_error(found.size, kind)
    if problem:
        raise UsageError(f"{found.source}: {problem}")
