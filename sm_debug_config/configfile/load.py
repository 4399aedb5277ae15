"""Loading a config file: ``LoadedConfig`` (the objects it describes and where each key is) and the entry points.

:func:`read_file` reads and parses a file once, for a caller (the CLI) that decides after looking
at the document whether it is a config (:meth:`ConfigFile.load`) or something else (a request).
"""
from __future__ import annotations

import contextlib
import json
import operator
import os
from typing import Any, ClassVar, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import attrs

from sm_debug_config.checked import findings_of
from sm_debug_config.configfile import format as fmt
from sm_debug_config.configfile.document import DocumentLocator, Parsed, parse_text
from sm_debug_config.configfile.dump import dump
from sm_debug_config.configfile.read import KeyPlaces, Reader, deepest
from sm_debug_config.configfile.text import ConfigFileError, check_text, decode, read_bytes, source_name
from sm_debug_config.configfile.textedit import TextEditor
from sm_debug_config.errors import ERROR, ConfigError, PathT, did_you_mean, pointer, shorten, warn_user
from sm_debug_config.findings import Finding, collect, collecting
from sm_debug_config.fixes import PREFIX, RENAME, SET, Change, Edit
from sm_debug_config.model import building
from sm_debug_config.model.actions import StopTraining
from sm_debug_config.model.settings import DebuggerSetup, JobSettings
from sm_debug_config.rendering import Rendered, render_arguments, render_unchecked, split_rules
from sm_debug_config.sourcemap import ARGUMENTS, member_path
from sm_debug_config.validation import raise_for_errors, raise_or_warn

# --- the loaded config ------------------------------------------------------------------------


@attrs.define(eq=True, repr=True)
class LoadedConfig:
    """The objects a config file describes (``setup``, ``settings``, whose fields are attributes too),
    and where each key is.

    ``rules`` is ``None`` when the file has no ``rules:`` key (``[]`` is different: no
    detailed-profiler rule is added, as with the SDK).

    >>> cfg = loads("region: us-east-1\\nrules: [LossNotDecreasing]\\n", filename="job.yaml")
    >>> cfg.rules[0].name, cfg.locate(("rules", 0))
    ('LossNotDecreasing', (2, 9))
    """

    setup: DebuggerSetup = attrs.field(factory=DebuggerSetup)
    settings: JobSettings = attrs.field(factory=JobSettings)
    source: str = attrs.field(default="<string>", eq=False)
    _positions: Mapping[PathT, Tuple[int, int]] = attrs.field(factory=dict, eq=False, repr=False)
    _places: Optional[KeyPlaces] = attrs.field(default=None, eq=False, repr=False)  #: where each object was built
    #: Some objects were built as written, past their validators (:func:`load_with_errors`): render them so.
    _as_written: bool = attrs.field(default=False, eq=False, repr=False)
    #: What the constructors reported that is no error (warnings, infos), each at its key in the file.
    findings: Tuple[Finding, ...] = attrs.field(default=(), eq=False, repr=False)

    RENDER_KEYS: ClassVar[Tuple[str, ...]] = DebuggerSetup.names() + tuple(
        n for n in JobSettings.names() if n not in fmt.NOT_IN_FILES
    )

    def warn(self) -> None:
        """Warn each of :attr:`findings` at its place in the file (what :func:`load` does for its caller), or hand
        it to the collector of the block (:func:`~sm_debug_config.findings.collecting`)."""
        for finding in self.findings:
            if collect(finding):
                continue
            position = (finding.line, finding.column or 1) if finding.line is not None else None
            warn_user(finding.to_warning().placed(self.source, position))

    def locate(self, path: Sequence[Union[str, int]]) -> Optional[Tuple[int, int]]:
        """``(line, column)`` (1-based) of a key (or where a list item starts), ``None`` if the file has none."""
        return self._positions.get(_key_path(path))

    @property
    def positions(self) -> Dict[PathT, Tuple[int, int]]:
        """Every key path of the file and its ``(line, column)``."""
        return dict(self._positions)

    def render_kwargs(self, **overrides: Any) -> Dict[str, Any]:
        """The keyword arguments of ``render(...)``; ``overrides`` that are not ``None`` replace the file's values."""
        keys = self.RENDER_KEYS
        unknown = [k for k in overrides if k not in keys]
        if unknown:
            raise ConfigError(
                f"unknown argument {shorten(unknown[0])};{did_you_mean(unknown[0], keys)}".rstrip(";"),
                field="render_kwargs",
                allowed=", ".join(keys),
            )
        kwargs = {key: getattr(self, key) for key in keys}
        if kwargs["rules"] is not None:
            kwargs["rules"] = list(kwargs["rules"])
        kwargs.update({k: val for k, val in overrides.items() if val is not None})
        return kwargs

    def render(self, *, validate: bool = True, **overrides: Any) -> Dict[str, Any]:
        """``render(**self.render_kwargs(**overrides), validate=validate)``, with errors positioned in the file."""
        return self.render_model(validate=validate, **overrides).request  # type: ignore[no-any-return]

    def render_model(self, *, validate: bool = True, **overrides: Any) -> Any:
        """``render_model`` of this config (a ``Rendered``, with ``origins``), with errors positioned in the file."""

        try:
            setup, settings = render_arguments(dict(self.render_kwargs(**overrides), validate=validate))
            # objects built as written are re-checked as written: their refusals are this file's errors already
            with collecting(as_written=True) if self._as_written else contextlib.nullcontext():
                rendered = render_unchecked(setup, settings)
            if settings.validate:  # each warning at its key in the file
                raise_or_warn(self._placed(findings_of(rendered, settings), rendered), source=self.source)
            return rendered
        except ConfigError as err:
            raise self.error_at(err, **overrides) from None

    def render_checked(self, **overrides: Any) -> Tuple[Any, List[Finding]]:
        """:meth:`render_model` and its findings as values (``render_model(validate=True)`` warns them), each at the
        key of the file it concerns; an error is raised, positioned, as :meth:`render_model` raises it."""

        rendered = self.render_model(validate=False, **overrides)
        settings = self.render_settings(**overrides)
        findings = findings_of(rendered, settings)
        try:
            raise_for_errors(findings)
        except ConfigError as err:
            raise self.error_at(err, **overrides) from None
        return rendered, self._placed(findings, rendered)

    def _placed(self, findings: List[Finding], rendered: Any) -> List[Finding]:
        """``findings`` of ``rendered``, each with the line and column of the key of this file it concerns."""
        placed = []
        for finding in findings:
            key = self.path_of_request_pointer(finding.pointer, rendered)
            position = self.locate(key) if key else None
            line, column = position if position else (None, None)
            placed.append(finding.replace(line=line, column=column))
        return placed

    def render_settings(self, **overrides: Any) -> JobSettings:
        """The settings a render of this config with ``overrides`` uses."""

        try:
            return render_arguments(self.render_kwargs(**overrides))[1]
        except ConfigError as err:
            raise self.error_at(err, **overrides) from None

    def to_config(self) -> Dict[str, Any]:
        """This config as a plain mapping again (see :func:`dump`)."""
        return dump(**self.render_kwargs())

    # -- where an error is
    def error_at(self, err: ConfigError, **overrides: Any) -> ConfigFileError:
        """``err`` (raised by ``render`` for this config with ``overrides``)
        as a ``ConfigFileError`` at the key it concerns."""
        if isinstance(err, ConfigFileError):
            return err
        _expect(isinstance(err, ConfigError), err, "err", "a ConfigError raised for this config")
        path = self._path_of(err, overrides)
        line, column = self._deepest(path) or (None, None)
        message, allowed = err.message, err.allowed
        if line is None:  # no key of the file to point at: the error's own field says what it concerns
            path, message = (), f"{err.field}: {err.message}" if err.field else err.message
        elif err.field == "job_name" and path[-1] == "stop_training":
            allowed = "job_name: in the config (or given when rendering), or stop_training: {training_job_prefix: ...}"
        return ConfigFileError(
            message,
            source=self.source,
            line=line,
            column=column,
            path=path,
            allowed=allowed,
            findings=err.findings,
            code=err.code,
            fix=err.fix,
        )

    def path_of_request_pointer(self, pointer_text: str, rendered: Any = None, **overrides: Any) -> PathT:
        """The config key path behind a JSON pointer into the request this config renders (``()`` if the file has none).

        Follows the render's ``origins`` (pointer -> object) to the key the object was built from;
        ``rendered`` is that render (made here without validation if not given).
        """
        _expect(isinstance(pointer_text, str), pointer_text, "pointer_text", "a JSON pointer (str)")
        if rendered is None:
            try:
                rendered = self.render_model(validate=False, **overrides)
            except ConfigError:
                return ()
        _rendered(rendered)
        return self.places.locate(rendered, pointer_text) or ()

    def request_pointer_of(self, path: Sequence[Union[str, int]], rendered: Any) -> str:
        """The JSON pointer into ``rendered``'s request of the config key ``path``:
        the inverse of :meth:`path_of_request_pointer`.

        Goes from the deepest object built at a start of ``path`` (the render's ``origins``) and
        names the rest by the request's member names; ``""`` when ``path`` concerns no request
        field (``region``, or a top-level key the format does not have).
        """
        path = _key_path(path)
        _rendered(rendered)
        best: Tuple[int, str] = (0, "")
        for request_pointer in rendered.origins:
            base = next((b for b in map(self.places.place_of, rendered.objects_at(request_pointer)) if b), None)
            if base and path[:len(base)] == base and len(base) > best[0]:
                best = (len(base), request_pointer)
        depth, found = best
        if not found:
            members = {key: member for member, key in fmt.data()["request_keys"].items() if key != "rules"}
            if not path or path[0] not in members:
                return ""
            depth, found = 1, pointer(members[str(path[0])])
        return found + pointer(*member_path(path[depth:]))

    def file_change(self, change: Change, rendered: Any, document: Any) -> Optional[Change]:
        """``change`` (to the request ``rendered`` made) as a change to this file's keys (``document``: the file's
        data, as :attr:`ConfigFile.document`), or None where the file does not write the member where the request
        has it: a rule written as its name, a value rendered from another argument (a rule's ``actions``), a value
        written otherwise than the request holds it.

        >>> found = read_text("region: us-east-1\\ntensorboard_output_config: {s3_output_path: s3://b/tb}\\n", "j.yaml")
        >>> config = found.load()[0]
        >>> config.file_change(Change("prefix", ("TensorBoardOutputConfig", "S3OutputPath"), "s3://"),
        ...                    config.render_model(validate=False), found.document)
        Change(kind='prefix', path=('tensorboard_output_config', 's3_output_path'), value='s3://')
        """
        _rendered(rendered)
        path = tuple(change.path)
        if not path:
            return None
        at = self.places.written_at(rendered, change.pointer)
        if at is None:
            if change.kind != SET or isinstance(change.value, (dict, list)):
                return None
            parent = self.places.written_at(rendered, pointer(*path[:-1])) if len(path) > 1 else ()
            if parent is None or not isinstance(_value_at(document, parent), dict):
                return None
            return Change(SET, parent + (_file_key(path[-1], len(path) == 1),), change.value)
        written, old = _value_at(document, at), _value_at(rendered.request, path)
        if change.kind in (SET, PREFIX):
            if not _written_as(written, old) or isinstance(change.value, (dict, list)) and at[-1] != path[-1]:
                return None
        elif isinstance(old, (dict, list)) and not any(
                self.places.place_of(obj) == at for obj in rendered.objects_at(change.pointer)):
            return None  # a whole member removed or renamed only where one object of the file stands for it
        value = change.value
        if change.kind == RENAME and at[-1] != path[-1]:  # a member of ours, by its argument's name
            value = _file_key(value, len(path) == 1)
        return Change(change.kind, at, value)

    def _deepest(self, path: PathT) -> Optional[Tuple[int, int]]:
        path = deepest(self._positions, path)
        return self._positions.get(path) if path else None

    @property
    def places(self) -> KeyPlaces:
        """Where each object of this config was built (a map with no object for a config made in Python)."""
        return self._places if self._places is not None else KeyPlaces(self._positions)

    def _path_of(self, err: ConfigError, overrides: Dict[str, Any]) -> PathT:
        """The config path ``err`` concerns; its callers go to the deepest part of it the file has."""
        if err.findings and err.field == "request":  # a validation error: its findings point into the request
            for finding in err.findings:
                if getattr(finding, "severity", None) == ERROR and isinstance(getattr(finding, "pointer", None), str):
                    return self.path_of_request_pointer(finding.pointer, **overrides)
            return ()
        parts = err.path
        if not parts:
            return ()
        head = parts[0]
        if head == "rules" and len(parts) > 1 and isinstance(parts[1], int):  # render counts debugger rules

            debugger = split_rules(self.setup.rules)[0] if isinstance(self.setup.rules, list) else []
            base = self.places.place_of(debugger[parts[1]]) if 0 <= parts[1] < len(debugger) else None
            return base + tuple(parts[2:]) if base is not None else ("rules",)
        if head == "job_name" and self.locate(("job_name",)) is None:  # a StopTraining() without a prefix needs it

            for obj in self.places.objects():
                if isinstance(obj, StopTraining) and obj.use_default_training_job_prefix:
                    return self.places.place_of(obj) or (head,)
        return (head,)


for _name in LoadedConfig.RENDER_KEYS:  # cfg.rules, cfg.region...: the fields of setup and settings
    _field = f"{'setup' if _name in DebuggerSetup.names() else 'settings'}.{_name}"
    setattr(LoadedConfig, _name, property(operator.attrgetter(_field), doc=f"``{_field}``"))


# --- entry points -----------------------------------------------------------------------------


def loads(text: Union[str, bytes], filename: str = "<string>", *, format: Optional[str] = None) -> LoadedConfig:  # noqa: A002
    """The config in ``text`` (YAML or JSON); ``filename`` is used in error messages.

    ``format`` (``"yaml"`` or ``"json"``) forces a parser; by default a name ending in
    ``.json`` is JSON, text starting with ``{`` is tried as JSON first, anything else is YAML.

    >>> loads("rules: {}", filename="job.yaml")
    Traceback (most recent call last):
    ...
    sm_debug_config.configfile.text.ConfigFileError: job.yaml:1:1: rules: expected a list of rules, got a mapping
    """
    config, errors = _read(text, filename, format, as_far_as_possible=False)
    if errors:  # the first, carrying every one (``errors``) for tools that report them all
        first = errors[0]
        first.errors = tuple(errors)
        raise first
    config.warn()
    return config


def _read(
    text: Union[str, bytes], filename: str, format: Optional[str], as_far_as_possible: bool  # noqa: A002
) -> Tuple[LoadedConfig, List[ConfigFileError]]:
    source = source_name(filename, field="filename")
    return _build(parse_text(check_text(text, source), source, format), as_far_as_possible)


def _build(parsed: Parsed, as_far_as_possible: bool) -> Tuple[LoadedConfig, List[ConfigFileError]]:
    """The config of a parsed file and the errors of its independent parts (``as_far_as_possible``: every one)."""
    root = parsed.tree()
    reader = Reader(parsed.source, as_far_as_possible, parsed.positions())
    values = reader.top(root)
    setup_values = {k: val for k, val in values.items() if k in DebuggerSetup.names()}
    built = building.build(DebuggerSetup, (), setup_values)
    if built.errors:
        err = built.errors[0]
        if not (as_far_as_possible or reader.errors) or not built.built:
            raise err
        if as_far_as_possible:
            reader.errors.append(reader.error(err.message, err.path[:1], allowed=err.allowed, code=err.code))
    # the settings held as written: render checks them (and says where)
    settings = building.build(JobSettings, (), {k: val for k, val in values.items() if k not in DebuggerSetup.names()})
    if not settings.built:
        raise settings.errors[0]
    loaded = LoadedConfig(setup=built.value, settings=settings.value, source=parsed.source, positions=reader.keys,
                          places=reader.places, as_written=bool(reader.errors), findings=tuple(reader.findings))
    return loaded, reader.errors


def load(path: Union[str, "os.PathLike[str]"], *, format: Optional[str] = None) -> LoadedConfig:  # noqa: A002
    """The config file at ``path`` (YAML, or JSON for ``*.json``), at most ``MAX_BYTES`` long.

    Every problem is a one-line :class:`ConfigFileError` starting with ``path:line:column:``
    (just ``path:`` when the file cannot be read at all).

    >>> load("/nonexistent/job.yaml")
    Traceback (most recent call last):
    ...
    sm_debug_config.configfile.text.ConfigFileError: /nonexistent/job.yaml: cannot read the config file:
        No such file or directory
    """
    return loads(read_bytes(path), filename=source_name(path), format=format)


def _expect(ok: bool, value: Any, field: str, allowed: str) -> None:
    """A ``ConfigError`` naming ``field`` unless ``ok`` (the arguments of :class:`LoadedConfig`'s look-ups)."""
    if not ok:
        raise ConfigError(f"got {shorten(value)}", field=field, allowed=allowed)


def _key_path(path: Any) -> PathT:
    """``path`` as a tuple of keys (str) and list indexes (int), or a ``ConfigError``."""
    _expect(isinstance(path, (list, tuple)) and all(type(part) in (str, int) for part in path), path, "path",
            "a key path: a list or tuple of keys (str) and list indexes (int)")
    return tuple(path)


_MISSING = object()


def _value_at(data: Any, path: Sequence[Union[str, int]]) -> Any:
    """The value at ``path`` in plain ``data`` (``_MISSING`` where it has none)."""
    for part in path:
        try:
            data = data[part]
        except (LookupError, TypeError):
            return _MISSING
    return data


def _written_as(written: Any, rendered: Any) -> bool:
    """Whether a file's value ``written`` is what the request holds as ``rendered`` (a number or boolean written
    where the request has a string: its text)."""
    if written is _MISSING or isinstance(written, (dict, list)):
        return False
    if written == rendered and type(written) is type(rendered):
        return True
    return isinstance(rendered, str) and not isinstance(written, str) and rendered in (
        str(written), json.dumps(written))


def _file_key(member: Any, top: bool) -> Any:
    """A request member's key in the file: its argument's name (``S3OutputPath``: ``s3_output_path``); a key of a
    parameters map as it is."""
    if top:
        return fmt.data()["request_keys"].get(member, member)
    return ARGUMENTS[member][0] if isinstance(member, str) and member[:1].isupper() and member in ARGUMENTS else member


def _rendered(rendered: Any) -> None:

    _expect(isinstance(rendered, Rendered), rendered, "rendered", "the Rendered of this config's render_model()")


def load_with_errors(
    path: Union[str, "os.PathLike[str]"], *, format: Optional[str] = None  # noqa: A002
) -> Tuple[LoadedConfig, List[ConfigFileError]]:
    """The config file at ``path`` built as far as it can be, and every error found on the way (``validate`` reports
    them all).

    An object its constructor refuses is kept as written, so that the request it renders holds the
    value and the request checks see it too; an unknown key, or a list item that cannot be read,
    is left out. An unreadable or unparsable file still raises :class:`ConfigFileError`.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
    ...     _ = f.write("rules: [VanishingGradient]\\n"
    ...                 "tensorboard_output_config: {s3_output_path: s3://b/tb, colour: red}\\n")
    >>> config, errors = load_with_errors(f.name)
    >>> [rule.name for rule in config.rules], [(e.line, e.column, e.field) for e in errors]
    (['VanishingGradient'], [(2, 56, 'tensorboard_output_config.colour')])
    >>> os.remove(f.name)
    """
    return _read(read_bytes(path), source_name(path), format, as_far_as_possible=True)


def read_document(
    path: Union[str, "os.PathLike[str]"],
    *,
    format: Optional[str] = None,  # noqa: A002
    tags: Optional[Mapping[str, str]] = None,
) -> Tuple[Any, DocumentLocator]:
    """Any YAML or JSON file (a config, or a ``CreateTrainingJob`` request) as plain data, and a locator.

    The same reading rules and one-line positioned errors as :func:`load`, without checking
    the config format: for tools that report findings in arbitrary documents by position. ``tags``: YAML
    tags allowed besides the core ones, each read as a one-key mapping (``{"!Ref": "Ref"}`` reads
    CloudFormation's ``!Ref Bucket`` as ``{"Ref": "Bucket"}``).

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
    ...     _ = f.write('{"DebugHookConfig": {"S3OutputPath": "s3://b/o"}}')
    >>> document, locate = read_document(f.name)
    >>> document["DebugHookConfig"]["S3OutputPath"], locate(("DebugHookConfig", "S3OutputPath"))
    ('s3://b/o', (1, 22))
    >>> os.remove(f.name)
    """
    found = read_file(path, format=format, tags=tags)
    return found.document, found.locate


@attrs.frozen
class ConfigFile:
    """A YAML or JSON file read and parsed once (:func:`read_file`): its plain data, a locator, and its config.

    ``locate`` finds positions when asked (a JSON file is not scanned for them up front), and
    :meth:`load` builds the config from the same parse, for a caller that first looks at the
    document (is it a config file, a ``CreateTrainingJob`` request, neither?).
    """

    source: str
    document: Any  #: the plain data (``None`` for an empty file)
    locate: DocumentLocator  #: ``locate(path)`` -> ``(line, column)`` of the deepest part of ``path`` the file has
    _parsed: Parsed = attrs.field(repr=False)
    size: int = 0  #: bytes read (held to the limit of the kind found, ``limits.file_size_error``)

    def load(self, *, as_far_as_possible: bool = False) -> Tuple[LoadedConfig, List[ConfigFileError]]:
        """The config and the errors found: with ``as_far_as_possible`` every one (see :func:`load_with_errors`), else
        none (the first error is raised, carrying them all in ``errors``, as :func:`load` does)."""
        config, errors = _build(self._parsed, as_far_as_possible)
        if errors and not as_far_as_possible:
            first = errors[0]
            first.errors = tuple(errors)
            raise first
        return config, errors

    @property
    def text(self) -> str:
        """The text read (a byte order mark dropped): the text :meth:`edits` are offsets into."""
        return self._parsed.text

    def edits(self, change: Change) -> Optional[List[Edit]]:
        """The edits of :attr:`text` that make ``change`` (at a path of :attr:`document`) in the file's syntax, or
        None where the text cannot take it (:mod:`~sm_debug_config.configfile.textedit`).

        >>> found = read_text('{"DebugHookConfig": {"S3OutputPath": "bucket/o"}}', "request.json")
        >>> found.edits(Change("prefix", ("DebugHookConfig", "S3OutputPath"), "s3://"))
        [Edit(start=38, end=38, content='s3://', cell=None)]
        """
        return self._parsed.editor().edits(change)

    def editor(self) -> TextEditor:
        """The editor of :attr:`text` (:meth:`edits` is its ``edits``): where its strings are, for text held in one."""
        return self._parsed.editor()


def read_text(
    text: str,
    source: str = "<string>",
    *,
    format: Optional[str] = None,  # noqa: A002
    tags: Optional[Mapping[str, str]] = None,
) -> ConfigFile:
    """:func:`read_file` of a text already in memory (an editor's buffer, a test's file), ``source`` naming it.

    >>> read_text("rules: [LossNotDecreasing]\\n", "job.yaml").locate(("rules", 0))
    (1, 9)
    """
    source = source_name(source, field="source")
    checked = check_text(text, source)
    parsed = parse_text(checked, source, format, require_mapping=False, tags=tags)
    return ConfigFile(source, parsed.data(), parsed.locator(), parsed, len(checked.encode("utf-8")))


def read_file(
    path: Union[str, "os.PathLike[str]"],
    *,
    format: Optional[str] = None,  # noqa: A002
    tags: Optional[Mapping[str, str]] = None,
    kind: str = "config",
) -> ConfigFile:
    """The YAML or JSON file at ``path``, read and parsed once: a config file or any other document, of at most the
    size of ``kind`` (a key of ``limits.MAX_FILE_BYTES``, or ``auto``: of any document, the kind found later).

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
    ...     _ = f.write('{"region": "us-east-1", "rules": ["LossNotDecreasing"]}')
    >>> found = read_file(f.name)
    >>> found.document["rules"], found.locate(("rules", 0))
    (['LossNotDecreasing'], (1, 35))
    >>> config, errors = found.load(as_far_as_possible=True)
    >>> config.rules[0].name, errors
    ('LossNotDecreasing', [])
    >>> os.remove(f.name)
    """
    source = source_name(path)
    data = read_bytes(path, kind)
    parsed = parse_text(decode(data, source, kind), source, format, require_mapping=False, tags=tags)
    return ConfigFile(source, parsed.data(), parsed.locator(), parsed, len(data))
