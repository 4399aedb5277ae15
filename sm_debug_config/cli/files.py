"""Reading the files a command is given: a JSON request or response, or any YAML/JSON document parsed once
(the commands that read no file, such as ``checks`` and ``rules``, never import the config-file package)."""
from __future__ import annotations

import json
from typing import Any

from sm_debug_config.cli.common import UsageError
from sm_debug_config.configfile import read_file
from sm_debug_config.configfile.parse import json_error
from sm_debug_config.configfile.text import read_bytes
from sm_debug_config.documents import cloudformation
from sm_debug_config.errors import ConfigError
from sm_debug_config.limits import json_loads


def read_json(path: str) -> Any:
    """A JSON file (a request, a DescribeTrainingJob response); an unreadable or invalid one is a usage error."""
    try:
        raw = read_bytes(path, 16 * 1024 * 1024, what="the file")
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


def read(path: str, kind: str = "config") -> Any:
    """Any YAML/JSON file read and parsed once (a :class:`~sm_debug_config.configfile.load.ConfigFile`: its
    ``document``, ``locate`` and ``load``); an unreadable or unparsable file is a usage error (exit 2).

    CloudFormation's YAML tags (``!Ref``...) are read for a ``kind`` ``cloudformation`` document, and for
    ``auto`` when the file is a template once read with them; any other document refuses them as before.
    """
    try:
        if kind == "cloudformation":
            return read_file(path, tags=cloudformation.YAML_TAGS)
        try:
            return read_file(path)
        except ConfigError:
            if kind != "auto" or path == "-":
                raise
            found = read_file(path, tags=cloudformation.YAML_TAGS)
            if not cloudformation.detect(found.document):
                raise
            return found
    except ConfigError as err:
        raise UsageError(str(err), getattr(err, "line", None), getattr(err, "column", None)) from None
