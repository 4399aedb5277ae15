"""Project configuration: ``[tool.sm-debug-config]`` in ``pyproject.toml``, merged under the command line.

The rules, in the order the code applies them:

1. Which file: ``--isolated`` reads none; ``--config PATH`` reads that one for every file checked; else,
   for each file checked (standard input: the current directory), the closest ``pyproject.toml`` at or
   above its directory that has a ``[tool.sm-debug-config]`` section (as ruff finds its settings),
   stopping at the filesystem root. A ``pyproject.toml`` without the section is passed over unparsed.
2. Every key is one of :data:`KEYS`; an unknown key, a wrong type or a bad value is a usage error
   (exit 2) naming the file and the key, with a did-you-mean and the allowed keys or values.
3. Flags win: a value flag (``--framework``, ``--select``) replaces the file's value; ``--strict`` turns
   strictness on; ``--fix``/``--no-fix`` (``--unsafe-fixes``/``--no-unsafe-fixes``) replace ``fix``; a list
   (``ignore``, ``exclude``, ``unfixable``) and a table (``per-file-ignores``, ``kind``) are joined, the flags'
   entries first (for ``kind``, the first pattern that matches a file says its kind). What is suppressed
   is then every code ``select`` leaves out and every code ``ignore`` names (:func:`codes.suppressed`).
4. Glob patterns are relative to the directory of the file that wrote them (a flag's: the current
   directory). ``*`` and ``?`` stay within a path segment, ``**`` crosses them; a pattern matches a file
   or a directory above it, and a pattern without ``/`` matches any one name in the path (``build``,
   ``*.asl.json``).

:data:`KEYS` is the one description of the section: the reader, the did-you-mean, the flags that
say the same (:func:`as_flags`) and the JSON Schema shipped as ``data/project_config.schema.json``
(:func:`json_schema`) all derive from it.

>>> as_flags({"framework": "pytorch", "ignore": ["SMD170"]})
['--ignore', 'SMD170', '--framework', 'pytorch']
"""
from __future__ import annotations

import argparse
import os
import re
import sys
from typing import Any, Callable, Container, Dict, List, Optional, Pattern, Sequence, Tuple

import attrs

from sm_debug_config import codes
from sm_debug_config.cli.common import DOCUMENT_KINDS, FRAMEWORKS, PROG, UsageError
from sm_debug_config.errors import did_you_mean
from sm_debug_config.limits import MiB

FILENAME = "pyproject.toml"
SECTION = "sm-debug-config"
#: How a message names the section.
WHERE = f"[tool.{SECTION}]"
#: A line that may open or set the section (``[tool.sm-debug-config]``, ``[tool."sm-debug-config".x]``, a dotted
#: ``tool.sm-debug-config.ignore =``, or ``sm-debug-config =`` under ``[tool]``), not a dependency string or a
#: comment that names the project: only a file with one is parsed.
_SECTION_LINE = re.compile(
    rb'(?m)^[ \t]*\[?[ \t]*(?:tool[ \t]*\.[ \t]*)?"?' + re.escape(SECTION.encode()) + rb'"?[ \t]*[\].=]'
)
#: A pyproject.toml larger than this is refused (no project writes one that size).
MAX_BYTES = MiB


@attrs.frozen
class Glob:
    """A glob pattern and the directory it is relative to (see the module's rule 4)."""

    pattern: str
    base: str
    regex: Pattern[str] = attrs.field(eq=False, repr=False)

    @classmethod
    def of(cls, pattern: str, base: str) -> "Glob":
        return cls(pattern, os.path.abspath(base), _glob_regex(pattern.strip().lstrip("/").rstrip("/")))

    def matches(self, path: str) -> bool:
        """Whether ``path`` (a file checked) or a directory above it matches."""
        relative = os.path.relpath(os.path.abspath(path), self.base).replace(os.sep, "/")
        parts = relative.split("/")
        if "/" not in self.pattern.strip("/"):
            return any(self.regex.match(part) for part in parts if part != "..")
        return parts[0] != ".." and any(self.regex.match("/".join(parts[:n])) for n in range(1, len(parts) + 1))


def _glob_regex(pattern: str) -> Pattern[str]:
    """``pattern`` as a regular expression matching a whole ``/``-separated path."""
    out, index = [], 0
    if pattern.startswith("./"):
        pattern = pattern[2:]
    while index < len(pattern):
        if pattern.startswith("**/", index):
            out.append("(?:.*/)?")
            index += 3
            continue
        if pattern.startswith("**", index):
            out.append(".*")
            index += 2
            continue
        char = pattern[index]
        close = pattern.find("]", index + 2) if char == "[" else -1
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif close > 0:
            body = pattern[index + 1:close]
            out.append("[" + ("^" + body[1:] if body.startswith("!") else body).replace("\\", "\\\\") + "]")
            index = close
        else:
            out.append(re.escape(char))
        index += 1
    return re.compile("".join(out) + r"\Z", re.DOTALL)


# -- the value types a key may have: how each is checked, merged under the flags, described and written as flags


def _describe(value: Any) -> str:
    """A TOML value's type as a message names it."""
    names = {bool: "a boolean", str: "a string", int: "an integer", float: "a float", list: "an array",
             dict: "a table"}
    return next((name for kind, name in names.items() if type(value) is kind), f"a {type(value).__name__}")


@attrs.frozen
class ValueType:
    """What a key's value is: ``expected`` (as an error says it), its JSON Schema, its reading (``read``: the
    value as the merge uses it; a ``TypeError`` for a wrong type, a ``ValueError`` saying what else is wrong),
    the flags that say the same, and how a flag's value and the file's merge (``merge(given, written)``)."""

    expected: str
    schema: Callable[["Key"], Dict[str, Any]]
    read: Callable[["Key", Any, str], Any]
    flags: Callable[["Key", Any], List[str]]
    merge: Callable[[Any, Any], Any]


def _replaced(given: Any, written: Any) -> Any:
    """A value flag wins over the file."""
    return given if given is not None else written


def _either(given: Any, written: Any) -> bool:
    """A switch: on when the flag or the file turns it on."""
    return bool(given) or bool(written)


def _toggled_flags(key: "Key", value: Any) -> List[str]:
    """A switch that the file may turn on or off: ``--fix`` or ``--no-fix``."""
    return [key.option if value else "--no-" + key.option[2:]]


def _joined(given: Any, written: Any) -> Tuple[Any, ...]:
    """A list or table: the flags' entries, then the file's."""
    return tuple(given or ()) + tuple(written or ())


def _choice(key: "Key", value: Any, base: str) -> str:
    if not isinstance(value, str):
        raise TypeError
    if value not in key.choices:
        hint = did_you_mean(value, key.choices)
        raise ValueError(f"unknown value {value!r}{';' + hint if hint else ''} (allowed: {', '.join(key.choices)})")
    return value


def _string(key: "Key", value: Any, base: str) -> str:
    if not isinstance(value, str):
        raise TypeError
    if not value.strip():
        raise ValueError("an empty string (leave the key out for none)")
    return value


def _bool(key: "Key", value: Any, base: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError
    return value


def _codes(key: "Key", value: Any, base: str) -> Tuple[str, ...]:
    """Check codes or their prefixes (``SMD13``), upper-cased; each must name a code (:func:`codes.codes_of`)."""
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise TypeError
    for item in value:
        codes.codes_of(item)  # a ValueError: "SMD1200: no such check; did you mean SMD120?"
    return tuple(dict.fromkeys(item.strip().upper() for item in value))


def _globs(key: "Key", value: Any, base: str) -> Tuple[Glob, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) and item.strip() for item in value):
        raise TypeError
    return tuple(Glob.of(item, base) for item in value)


def _glob_table(read_value: Callable[["Key", Any, str], Any]) -> Callable[["Key", Any, str], Any]:
    def read(key: "Key", value: Any, base: str) -> Tuple[Tuple[Glob, Any], ...]:
        if not isinstance(value, dict) or not all(isinstance(glob, str) and glob.strip() for glob in value):
            raise TypeError
        out = []
        for glob, item in value.items():
            try:
                out.append((Glob.of(glob, base), read_value(key, item, base)))
            except TypeError:
                raise ValueError(f"{glob!r}: expected {key.type.expected.split(' to ', 1)[-1]}, "
                                 f"got {_describe(item)}") from None
            except ValueError as err:
                raise ValueError(f"{glob!r}: {err}") from None
        return tuple(out)

    return read


def _codes_schema(key: "Key") -> Dict[str, Any]:
    return {"type": "array", "items": {"type": "string", "pattern": codes.SELECTOR_PATTERN}, "uniqueItems": True}


def _choice_schema(key: "Key") -> Dict[str, Any]:
    return {"type": "string", "enum": list(key.choices)}


def _table_schema(value: Callable[["Key"], Dict[str, Any]]) -> Callable[["Key"], Dict[str, Any]]:
    return lambda key: {"type": "object", "additionalProperties": value(key)}


def _joined_flags(key: "Key", value: Any) -> List[str]:
    return [part for item in value for part in (key.option, item)]


def _table_flags(key: "Key", value: Any) -> List[str]:
    return [part for glob, item in value.items()
            for part in (key.option, f"{glob}={','.join(item) if isinstance(item, list) else item}")]


#: Each value type by name: what a :class:`Key` says its ``type`` is.
TYPES: Dict[str, ValueType] = {
    "bool": ValueType("true or false", lambda key: {"type": "boolean"}, _bool,
                      lambda key, value: [key.option] if value else [], _either),
    "toggle": ValueType("true or false", lambda key: {"type": "boolean"}, _bool, _toggled_flags, _replaced),
    "string": ValueType("a string", lambda key: {"type": "string", "minLength": 1}, _string,
                        lambda key, value: [key.option, value], _replaced),
    "choice": ValueType("a string", _choice_schema, _choice, lambda key, value: [key.option, value], _replaced),
    "codes": ValueType("an array of check codes", _codes_schema, _codes, _joined_flags, _joined),
    "selection": ValueType("an array of check codes", _codes_schema, _codes, _joined_flags, _replaced),
    "globs": ValueType("an array of glob patterns", lambda key: {"type": "array", "items": {"type": "string"}},
                       _globs, _joined_flags, _joined),
    "glob-codes": ValueType("a table from glob patterns to an array of check codes", _table_schema(_codes_schema),
                            _glob_table(_codes), _table_flags, _joined),
    "glob-choice": ValueType("a table from glob patterns to a string", _table_schema(_choice_schema),
                             _glob_table(_choice), _table_flags, _joined),
}


@attrs.frozen
class Key:
    """A key of the section: its name, the flag that says the same (``option``; its ``dest`` on the command
    line), its value type (one of :data:`TYPES`), the allowed strings (``choices``) and what it does."""

    name: str
    option: str
    type_name: str
    help: str
    choices: Tuple[str, ...] = ()

    @property
    def type(self) -> ValueType:
        return TYPES[self.type_name]

    @property
    def dest(self) -> str:
        return self.option.lstrip("-").replace("-", "_")


#: The keys of ``[tool.sm-debug-config]``, in the order ``--help`` and the schema list them.
KEYS: Tuple[Key, ...] = (
    Key("select", "--select", "selection", "check codes (or prefixes such as SMD13) whose findings are reported; "
        "the others are suppressed (a --select flag replaces it)"),
    Key("ignore", "--ignore", "codes", "check codes (or prefixes) whose findings are suppressed in every file"),
    Key("per-file-ignores", "--per-file-ignores", "glob-codes",
        "check codes suppressed in the files a glob pattern matches"),
    Key("strict", "--strict", "bool", "exit 1 on warnings too"),
    Key("framework", "--framework", "choice", "the training framework: enables framework-specific checks",
        FRAMEWORKS),
    Key("framework-version", "--framework-version", "string", "the framework version of the training image"),
    Key("region", "--region", "string", "the AWS region of the jobs"),
    Key("exclude", "--exclude", "globs",
        "files and directories not checked (a file named on the command line: only with --force-exclude)"),
    Key("kind", "--kind", "glob-choice", "what the files a glob pattern matches are (validate's --kind)",
        DOCUMENT_KINDS),
    Key("fix", "--fix", "toggle", "apply the fixes of the findings to the files (validate and lint; --no-fix "
        "turns it off for a run)"),
    Key("unsafe-fixes", "--unsafe-fixes", "toggle", "apply the unsafe fixes too (those that change what runs; "
        "--no-unsafe-fixes turns it off for a run)"),
    Key("unfixable", "--unfixable", "codes", "check codes (or prefixes) whose fixes are never applied"),
)
_BY_NAME = {key.name: key for key in KEYS}


def json_schema() -> Dict[str, Any]:
    """The JSON Schema of the section (``data/project_config.schema.json`` is this, written out)."""
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": WHERE + " in pyproject.toml",
        "description": "Project settings of sm-debug-config; command-line flags win over them.",
        "type": "object",
        "additionalProperties": False,
        "properties": {key.name: dict(key.type.schema(key), description=f"{key.help} (flag: {key.option})")
                       for key in KEYS},
    }


def as_flags(section: Dict[str, Any], options: Optional[Container[str]] = None) -> List[str]:
    """The command-line flags that say what ``section`` (a ``[tool.sm-debug-config]`` table) says; ``options``:
    those a command has (its settings from keys it has no flag for are not used)."""
    return [flag for key in KEYS if key.name in section and (options is None or key.option in options)
            for flag in key.type.flags(key, section[key.name])]


# -- the flags


def _metavar(key: Key) -> str:
    """How ``--help`` shows the value of a table key's flag."""
    return "[GLOB=]KIND" if key.choices else "GLOB=CODE[,CODE]"


def _table_item(key: Key) -> Callable[[str], Tuple[Glob, Any]]:
    """The argparse type of ``--per-file-ignores GLOB=CODES`` and ``--kind [GLOB=]KIND``."""

    def parse(text: str) -> Tuple[Glob, Any]:
        glob, sep, value = text.rpartition("=")
        if not sep and key.choices:
            glob = "**"
        if not glob.strip():
            raise argparse.ArgumentTypeError(f"expected {_metavar(key)}, got {text!r}")
        item: Any = value.split(",") if key.type_name == "glob-codes" else value
        try:
            return key.type.read(key, {glob: item}, os.getcwd())[0]  # type: ignore[no-any-return]
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err).split(": ", 1)[-1]) from None

    return parse


def add_arguments(parser: argparse.ArgumentParser, *names: str) -> None:
    """``--config`` and ``--isolated``, and the flags of the keys ``names`` that only the project's keys have."""
    parser.add_argument("--config", dest="config_file", metavar="PYPROJECT",
                        help=f"read {WHERE} of this file (default: the closest {FILENAME} above each file that "
                             "has the section)")
    parser.add_argument("--isolated", action="store_true", help=f"read no {FILENAME}: the flags only")
    for name in names:
        key = _BY_NAME[name]
        if key.type_name == "globs":
            parser.add_argument(key.option, action="append", metavar="GLOB", type=lambda text: Glob.of(text, "."),
                                help=key.help + " (repeatable)")
            parser.add_argument("--force-exclude", action="store_true",
                                help="leave out the files named on the command line that exclude matches too (as "
                                     "pre-commit's hooks do, which name every file)")
        else:
            parser.add_argument(key.option, action="append", metavar=_metavar(key), type=_table_item(key),
                                help=key.help + (": KIND alone is every file" if key.choices else "")
                                + " (repeatable)")


# -- reading and merging


@attrs.frozen
class Project:
    """A ``[tool.sm-debug-config]`` as read: ``path`` of its file, ``values`` by key name (as the merge uses them)."""

    path: str
    values: Dict[str, Any] = attrs.field(eq=False)


#: Per run (:func:`projects` starts afresh): each directory's closest section, and each file read once.
_FOUND: Dict[str, Optional[Project]] = {}
_READ: Dict[str, Optional[Project]] = {}


def read_project(path: str) -> Optional[Project]:
    """The section of ``path``, None when it has none; a :class:`UsageError` for a bad file or section."""
    path = os.path.abspath(path)
    if path not in _READ:
        _READ[path] = _read(path)
    return _READ[path]


def _read(path: str) -> Optional[Project]:
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as err:
        raise UsageError(f"{path}: cannot read: {err.strerror or err}") from None
    if not _SECTION_LINE.search(data):  # the usual pyproject.toml, even one that names us elsewhere: not parsed
        return None
    if len(data) > MAX_BYTES:
        raise UsageError(f"{path}: over {MAX_BYTES} bytes")
    if sys.version_info >= (3, 11):
        import tomllib  # only for a file that names the section
    else:  # pragma: no cover - Python 3.8 to 3.10
        import tomli as tomllib
    try:
        document = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as err:
        raise UsageError(f"{path}: invalid TOML: {err}") from None
    tool = document.get("tool")
    section = tool.get(SECTION) if isinstance(tool, dict) else None
    if section is None:
        return None
    if not isinstance(section, dict):
        raise UsageError(f"{path}: {WHERE}: expected a table, got {_describe(section)}")
    base = os.path.dirname(path)
    values = {}
    for name, value in section.items():
        key = _BY_NAME.get(name)
        if key is None:
            raise UsageError(f"{path}: {WHERE}: unknown key {name!r};{did_you_mean(name, list(_BY_NAME))}".rstrip(";")
                             + f" (allowed: {', '.join(_BY_NAME)})")
        try:
            values[name] = key.type.read(key, value, base)
        except TypeError:
            raise UsageError(f"{path}: {WHERE} {name}: expected {key.type.expected}, got {_describe(value)}") from None
        except ValueError as err:
            raise UsageError(f"{path}: {WHERE} {name}: {err}") from None
    return Project(path, values)


def find_project(path: str) -> Optional[Project]:
    """The closest section at or above ``path``'s directory (``-``: the current directory's), or None."""
    directory = os.path.dirname(os.path.abspath(path)) if path != "-" else os.getcwd()
    seen = []
    found: Optional[Project] = None
    while True:
        if directory in _FOUND:
            found = _FOUND[directory]
            break
        seen.append(directory)
        candidate = os.path.join(directory, FILENAME)
        if os.path.isfile(candidate):
            found = read_project(candidate)
            if found is not None:
                break
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    for each in seen:
        _FOUND[each] = found
    return found


def project_of(args: argparse.Namespace, path: str) -> Optional[Project]:
    """The section that applies to ``path`` under ``args`` (``--isolated``, ``--config``)."""
    if getattr(args, "isolated", False):
        return None
    if getattr(args, "config_file", None):
        return read_project(args.config_file)
    return find_project(path)


def projects(args: argparse.Namespace, paths: Sequence[str]) -> List[Project]:
    """The sections that apply to ``paths``, each once, in first use; read now, so a bad one stops the command
    before any file is checked. ``--verbose`` says which file each came from, on stderr."""
    _FOUND.clear()
    _READ.clear()
    _MERGED.clear()
    named = getattr(args, "config_file", None) if not getattr(args, "isolated", False) else None
    if named and not os.path.isfile(named):
        raise UsageError(f"--config {named}: no such file")
    if named and read_project(named) is None:
        raise UsageError(f"--config {named}: no {WHERE} section")
    for dest in ("select", "ignore", "unfixable"):  # the flags' codes, checked as the file's are
        for item in getattr(args, dest, None) or ():
            try:
                codes.codes_of(item)
            except ValueError as err:
                raise UsageError(f"--{dest} {err}") from None
    found = {id(p): p for p in (project_of(args, path) for path in paths) if p is not None}
    out = list(found.values())
    if getattr(args, "verbose", False):
        for project in out:
            sys.stderr.write(f"{PROG}: settings from {project.path} {WHERE}\n")
    return out


def settings_for(args: argparse.Namespace, path: str, skip: Sequence[str] = ()) -> argparse.Namespace:
    """``args`` with the section of ``path`` merged under them (see the module's rules), and the table keys
    resolved for ``path``: ``ignore`` with its per-file codes, ``kind`` the first that matches (``auto``),
    ``excluded`` the pattern that excludes it (or None). ``skip``: keys the command has a flag of its own for
    (explain's ``--kind`` is one kind, not validate's patterns)."""
    project = project_of(args, path)
    values = project.values if project is not None else {}
    out = argparse.Namespace(**vars(_merged(args, project, tuple(skip))))
    if hasattr(args, "ignore"):
        per_file = getattr(out, "per_file_ignores", None)
        if per_file is None:
            per_file = values.get("per-file-ignores", ())
        ignored = list(out.ignore) + [code for glob, each in per_file if glob.matches(path) for code in each]
        # the codes suppressed: what --select/select leaves out, and what --ignore, ignore and per-file-ignores name
        out.ignore = list(codes.suppressed(getattr(out, "select", None), ignored)) or None
    if "kind" not in skip and isinstance(getattr(out, "kind", None), tuple):
        out.kind = next((kind for glob, kind in out.kind if glob.matches(path)), "auto")
    out.excluded = None if path == "-" else _exclusion(getattr(out, "exclude", None) or (), args, project, path)
    return out


def _exclusion(globs: Sequence[Glob], args: argparse.Namespace, project: Optional[Project], path: str) -> Optional[str]:
    """The first of ``globs`` that matches ``path`` and the setting that wrote it (``--exclude``, or ``exclude``
    of a file), as a message says it; None when none matches."""
    flags = tuple(getattr(args, "exclude", None) or ())
    glob = next((glob for glob in globs if glob.matches(path)), None)
    if glob is None:
        return None
    where = "--exclude" if glob in flags or project is None else f"exclude in {project.path}"
    return f"{glob.pattern!r} ({where})"


def left_out(args: argparse.Namespace, path: str, named: bool) -> bool:
    """Whether ``path`` is not checked: an ``exclude`` pattern matches it and it was found in a directory, or it
    was named on the command line and ``--force-exclude`` is given (as ruff does: a file named is checked
    otherwise). A file named is never passed over without a word: stderr says what happened to it and which
    setting excludes it (for a file found in a directory, with ``--verbose``)."""
    excluded = settings_for(args, path).excluded
    if not excluded:
        return False
    if named and not getattr(args, "force_exclude", False):
        sys.stderr.write(f"{PROG}: {path}: checked although excluded by {excluded}: a file named on the command "
                         "line is checked unless --force-exclude\n")
        return False
    if named or getattr(args, "verbose", False):
        sys.stderr.write(f"{PROG}: {path}: not checked: excluded by {excluded}"
                         + (" and --force-exclude" if named else "") + "\n")
    return True


#: Per run (:func:`projects` starts afresh): ``args`` with each section merged under them, by section, so that the
#: files of a directory (of a project) merge it once; the entry keeps ``args`` (its id is the key).
_MERGED: Dict[Tuple[int, Optional[str], Tuple[str, ...]], Tuple[argparse.Namespace, argparse.Namespace]] = {}


def _merged(args: argparse.Namespace, project: Optional[Project], skip: Tuple[str, ...]) -> argparse.Namespace:
    """``args`` with the section of ``project`` merged under them (the keys of ``skip`` left as they are)."""
    cache_key = (id(args), project.path if project is not None else None, skip)
    cached = _MERGED.get(cache_key)
    if cached is not None and cached[0] is args:
        return cached[1]
    values = project.values if project is not None else {}
    out = argparse.Namespace(**vars(args))
    for key in KEYS:
        if not hasattr(args, key.dest) or key.name in skip:
            continue
        setattr(out, key.dest, key.type.merge(getattr(args, key.dest), values.get(key.name)))
    _MERGED[cache_key] = (args, out)
    return out


def strict(args: argparse.Namespace, used: Sequence[Project]) -> bool:
    """Whether the run is strict: ``--strict``, or the section of any file checked says so."""
    return bool(getattr(args, "strict", False)) or any(p.values.get("strict") for p in used)
