"""Limits checked before expensive work: bad input is refused with a :class:`ConfigError` before
anything recurses over it, parses it or compiles it (issue 16). A request nests about 6 levels.
"""
from __future__ import annotations

import itertools
import json
import re
from typing import Any, Mapping, Optional

from sm_debug_config.errors import ConfigError, PathT
from sm_debug_config.pysource import compile_pattern

MiB = 1024 * 1024

#: Largest file read, by what it is: ``validate --kind``'s kinds, Terraform HCL, and lint's suffixes. ``validate`` in
#: its auto mode reads up to the largest of its kinds, then holds the file to the limit of the kind found: a file that
#: is no Debugger document is skipped whatever its size (pre-commit hands over every JSON and YAML file).
MAX_FILE_BYTES: Mapping[str, int] = {
    "config": 1 * MiB,  # a config file is written by hand: 1 MiB is some 30,000 lines
    # a CreateTrainingJob request: what scripts and `aws sagemaker describe-training-job` write, hyperparameters,
    # environment and tags included
    "request": 16 * MiB,
    "terraform": 16 * MiB,  # `terraform show -json` plans and state hold every resource of a configuration
    "terraform-hcl": 1 * MiB,  # .tf files are written by hand; python-hcl2 takes some 6 s of CPU to read 1 MiB
    "stepfunctions": 1 * MiB,  # Step Functions takes requests of at most 1 MB: a definition is no larger
    "pipeline": 1 * MiB,  # CreatePipeline's PipelineDefinition is at most 1,048,576 characters
    "cloudformation": 1 * MiB,  # CloudFormation takes a template body of at most 1 MB (from S3)
    "kubernetes": 3 * MiB // 2,  # the Kubernetes API server stores an object of at most 1.5 MiB (etcd's limit)
    ".py": 2 * MiB,  # lint: a source file larger than this is generated
    ".ipynb": 64 * MiB,  # lint: a notebook's outputs (images, tables) may be large
}
#: What ``validate`` reads of a file before it knows the file's kind (``auto``): the largest limit of a document.
MAX_DOCUMENT_BYTES = max(size for kind, size in MAX_FILE_BYTES.items() if not kind.startswith("."))


def file_size_error(size: Optional[int], kind: str) -> Optional[str]:
    """Why a file of ``size`` bytes (None: more than its limit) is too large to read as ``kind`` (a key of
    :data:`MAX_FILE_BYTES`, or ``auto``: any document), or None.

    >>> file_size_error(6 * MiB, "request"), file_size_error(3 * MiB // 2, "config")
    (None, 'the file is 1.5 MiB; a config file may be at most 1 MiB')
    """
    limit = MAX_FILE_BYTES.get(kind, MAX_DOCUMENT_BYTES)
    if size is not None and size <= limit:
        return None
    said = f"the file is {size / MiB:.1f} MiB" if size is not None else f"the file is larger than {limit // MiB} MiB"
    what = {"config": "a config file", "request": "a CreateTrainingJob request", "terraform-hcl": "a .tf file",
            "auto": "a document"}
    return f"{said}; {what.get(kind, 'a ' + kind + ' document')} may be at most {limit // MiB} MiB"


#: Decimal strings longer than this are not parsed as integers: no field takes such a number, and
#: ``int()`` refuses strings past 4,300 digits (and costs quadratic time before).
MAX_INT_DIGITS = 400

#: Deepest nesting of lists and dicts taken anywhere (requests, config files, rule parameters).
MAX_DEPTH = 64
_TOO_DEEP = "lists and mappings are nested more than {} deep"


def too_deep(value: Any, max_depth: int = MAX_DEPTH) -> bool:
    """True if ``value`` nests lists/tuples/dicts deeper than ``max_depth`` (iterative: no recursion,
    stops at the limit).

    >>> too_deep([[[]]], 2), too_deep([[[]]], 3)
    (True, False)
    """
    stack = [(value, 0)]
    seen = 0
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = itertools.chain(item.keys(), item.values())  # a key can be a deep tuple too
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        if depth >= max_depth:
            return True
        seen += 1
        if seen > 1_000_000:  # a self-referencing structure never ends: count it as too deep
            return True
        # only containers go on the stack: a scalar ends its branch (most items of a request are scalars)
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list, tuple)))
    return False


def check_depth(value: Any, field: str = "", path: PathT = (), max_depth: int = MAX_DEPTH) -> None:
    """Raise :class:`ConfigError` if ``value`` nests deeper than ``max_depth``."""
    if too_deep(value, max_depth):
        raise ConfigError(_TOO_DEEP.format(max_depth), field=field or None, path=path)


_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_BRACKETS = re.compile(r"[\[\]{}]")
_AS_PARENS = str.maketrans("[{]}", "(())")
_JSON_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')

#: A JSON nesting past which ``json.loads`` is not asked (far below Python's recursion limit, far above any
#: limit of ours): it would recurse to the limit, and what the garbage collector runs there (any Python code)
#: cannot recover from the recursion error on Python 3.8, which then aborts the process.
JSON_GUARD_DEPTH = 200


def too_deep_at(text: str, limit: int) -> Optional[int]:
    """Index of the first bracket at which the brackets of ``text`` could nest more than ``limit`` deep, or ``None``:
    an upper bound (brackets in strings and comments count too).

    Mostly C-speed passes (a 1 MiB file of brackets takes a few hundredths of a second): each
    ``replace`` drops the innermost pairs, so after at most ``limit + 1`` of them the brackets
    left are unmatched; only a text that could be too deep is walked bracket by bracket.

    >>> too_deep_at("[[]]", 1), too_deep_at("[[]]", 2)
    (1, None)
    """
    if text.count("[") + text.count("{") <= limit:
        return None  # the usual file
    brackets = _NOT_BRACKETS.sub("", text).translate(_AS_PARENS)
    height = 0
    while "()" in brackets and height <= limit:
        brackets, height = brackets.replace("()", ""), height + 1
    if height + brackets.count("(") <= limit:
        return None
    depth = 0
    for match in _BRACKETS.finditer(text):
        if match.group() in "[{":
            depth += 1
            if depth > limit:
                return match.start()
        elif depth:
            depth -= 1  # a stray closer (in a string, say) does not count below zero
    return None


def json_too_deep(text: str, limit: int = JSON_GUARD_DEPTH) -> bool:
    """Whether JSON ``text`` nests more than ``limit`` deep, its strings left out (checked before ``json.loads``).

    >>> json_too_deep("[" * 300 + "]" * 300), json_too_deep('["' + "[" * 300 + '"]')
    (True, False)
    """
    return too_deep_at(text, limit) is not None and too_deep_at(_JSON_STRING.sub('""', text), limit) is not None


def _bounded_int(text: str) -> int:
    if len(text) > MAX_INT_DIGITS:  # int() refuses past 4,300 digits and is quadratic before
        raise ConfigError(f"an integer of {len(text)} digits; no field takes a number of more than {MAX_INT_DIGITS}")
    return int(text)


def json_loads(text: str, field: str = "", max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads`` that refuses nesting deeper than ``max_depth`` (or a RecursionError of the
    parser) with a :class:`ConfigError`; other parse errors stay ``ValueError`` as from ``json.loads``.

    >>> json_loads('[1, {"a": 2}]')
    [1, {'a': 2}]
    """
    try:
        if json_too_deep(text, max(max_depth, JSON_GUARD_DEPTH)):
            raise RecursionError
        value = json.loads(text, parse_int=_bounded_int)
    except RecursionError:
        raise ConfigError(_TOO_DEEP.format(max_depth), field=field or None) from None
    check_depth(value, field, max_depth=max_depth)
    return value


#: Longest regular expression compiled. The API carries patterns in strings of at most 256
#: characters (hook, collection and profiling parameters); a longer one is refused uncompiled,
#: since compiling costs time (a 1 MB pattern took 2 s) and the API refuses it anyway.
MAX_PATTERN = 4096


def regex_error(pattern: str) -> Optional[str]:
    """Why ``pattern`` is not a usable regular expression (``None`` when it compiles); a pattern
    longer than :data:`MAX_PATTERN` is not compiled.

    >>> regex_error("a+"), regex_error("(")
    (None, 'missing ), unterminated subpattern at position 0')
    """
    if len(pattern) > MAX_PATTERN:
        return f"it is {len(pattern)} characters long; patterns of more than {MAX_PATTERN} are not compiled"
    try:
        compile_pattern(pattern)  # without Python's notes on the user's pattern ("possible nested set"): see pysource
    except (re.error, RecursionError, OverflowError) as err:
        return str(err)
    except Warning:  # a note the process turns into an error (-W error) that pysource cannot avoid: Python compiles it
        return None
    return None
