"""Text intake: a config file's bytes or text, refused early when too large, binary or not UTF-8.

Every refusal is a one-line :class:`ConfigFileError` starting with ``file:line:col:`` (just
``file:`` when no position applies), so the CLI can print it as is.
"""
from __future__ import annotations

import os
import stat
import sys
from typing import Any, List, Optional, Sequence, Tuple, Union

from sm_debug_config.errors import ConfigError, PathT, format_path
from sm_debug_config.limits import MAX_DOCUMENT_BYTES, MAX_FILE_BYTES, file_size_error
from sm_debug_config.patterns import LazyPattern

MAX_BYTES = MAX_FILE_BYTES["config"]  # a config file larger than this is refused before it is parsed
_LINE_BREAKS = LazyPattern(r"[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]+")
_BINARY = "binary data (a NUL byte): a config file is UTF-8 text (YAML or JSON)"


def one_line(text: str) -> str:
    return _LINE_BREAKS.sub(" ", text).strip()


class ConfigFileError(ConfigError):
    """A ``ConfigError`` in a config file: ``file:line:col: path: message (allowed: ...)``, one line.

    ``line`` and ``column`` are 1-based (``None`` when no position applies, e.g. a missing file).
    """

    def __init__(
        self,
        message: str,
        *,
        source: str,
        line: Optional[int] = None,
        column: Optional[int] = None,
        path: Sequence[Union[str, int]] = (),
        allowed: Optional[str] = None,
        findings: Any = (),
        code: Optional[str] = None,
        fix: Any = None,
    ) -> None:
        where = f"{source}:{line}:{column}" if line is not None else str(source)
        field = format_path(path) or None
        text = f"{where}: " + (f"{field}: " if field else "") + str(message)
        super().__init__(one_line(text), allowed=one_line(allowed) if allowed else None, findings=findings, code=code,
                         fix=fix)
        self.message = message
        self.field = field
        self.source = source
        self.line = line
        self.column = column
        self.path: PathT = tuple(path)
        #: every error a read of the file found (this one first), where parts are independent
        self.errors: Tuple["ConfigFileError", ...] = (self,)


def position(text: Union[str, bytes], index: int) -> Tuple[int, int]:
    """1-based ``(line, column)`` of ``index`` in ``text`` (columns count characters, also in UTF-8 bytes)."""
    newline: Any = b"\n" if isinstance(text, bytes) else "\n"
    line = text.count(newline, 0, index) + 1
    segment = text[text.rfind(newline, 0, index) + 1:index]
    return line, len(segment.decode("utf-8", "replace") if isinstance(segment, bytes) else segment) + 1


def _too_large(source: str, size: Optional[int] = None, kind: str = "config") -> ConfigFileError:
    return ConfigFileError(file_size_error(size, kind) or f"larger than a {kind} may be", source=source)


def limit_of(kind: str) -> int:
    """The most bytes read of a file read as ``kind`` (a key of ``limits.MAX_FILE_BYTES``, or ``auto``)."""
    return MAX_FILE_BYTES.get(kind, MAX_DOCUMENT_BYTES)


def decode(data: bytes, source: str, kind: str = "config") -> str:
    """The text of a file's bytes: at most the limit of ``kind`` (a config file's: ``MAX_BYTES``), no NUL, UTF-8 (a
    BOM is dropped)."""
    if len(data) > limit_of(kind):
        raise _too_large(source, len(data), kind)
    nul = data.find(b"\x00")
    if nul >= 0:
        line, column = position(data, nul)
        raise ConfigFileError(_BINARY, source=source, line=line, column=column)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line, column = position(data, err.start)
        raise ConfigFileError(
            f"not UTF-8 text (byte {data[err.start]:#04x}); save the config file as UTF-8",
            source=source,
            line=line,
            column=column,
        ) from None
    return text[1:] if text.startswith("\ufeff") else text


def check_text(text: Any, source: str) -> str:
    """``text`` (str or bytes) as checked config text, under the same rules as a file's bytes."""
    if isinstance(text, (bytes, bytearray)):
        return decode(bytes(text), source)
    if not isinstance(text, str):
        raise ConfigError(f"expected the text of a config file (str or bytes), got {type(text).__name__}", field="text")
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as err:
        line, column = position(text, err.start)
        raise ConfigFileError(
            "text holds a character that is not valid Unicode (a lone surrogate)",
            source=source,
            line=line,
            column=column,
        ) from None
    return decode(data, source)


def source_name(path: Any, field: str = "path") -> str:
    """``path`` (a ``str`` or ``os.PathLike``) as text; ``ConfigError`` for anything else."""
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, str):
        raise ConfigError(f"expected a file path (str or os.PathLike), got {type(path).__name__}", field=field)
    return path


#: Paths that mean standard input (``/dev/stdin`` is a pipe, which is otherwise refused).
STDIN_NAMES = ("-", "/dev/stdin")
_STDIN: List[bytes] = []  # standard input, read once per process (a command may read a file twice)


def read_bytes(path: Any, kind: str = "config", what: str = "the config file") -> bytes:
    """The bytes of the regular file at ``path`` (``-``: standard input), at most the limit of ``kind`` (a key of
    ``limits.MAX_FILE_BYTES``, or ``auto``: the largest of a document).

    Anything but a regular file is refused without reading from it (opened non-blocking: a FIFO
    without a writer cannot hang the caller); so is a path no file can have, like a missing file.
    """

    source = source_name(path)
    limit = limit_of(kind)
    if source in STDIN_NAMES:
        if not _STDIN:
            _STDIN.append(sys.stdin.buffer.read(limit + 1))
        data = _STDIN[0]
    else:
        try:
            fd = os.open(source, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        except (OSError, ValueError, UnicodeError) as err:  # ValueError: NUL; UnicodeError: lone surrogate
            reason = getattr(err, "strerror", None) or (
                "not a possible file name" if not isinstance(err, OSError) else type(err).__name__
            )
            raise ConfigFileError(f"cannot read {what}: {reason}", source=source) from None
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            os.close(fd)
            if not stat.S_ISREG(info.st_mode):
                why = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file (use - for standard input)"
                raise ConfigFileError(f"cannot read {what}: {why}", source=source)
            raise _too_large(source, info.st_size, kind)
        with os.fdopen(fd, "rb") as handle:
            try:
                data = handle.read(limit + 1)
            except OSError as err:
                raise ConfigFileError(
                    f"cannot read {what}: {err.strerror or type(err).__name__}", source=source
                ) from None
    if len(data) > limit:
        raise _too_large(source, None, kind)
    return data

