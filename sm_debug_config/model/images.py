"""Which SageMaker training images run the Debugger hook and framework profiling, from ``data/containers.json``
(one row per image line and framework version range, with the files and lines that say so).

An image the table cannot place gives ``None``, never an error: custom images are legitimate.

Rules, in the order the code applies them:

1. A URI names its line by the repository (``pytorch-training``, ``sagemaker-xgboost``...,
   ``repositories`` in the data) and its version by the start of the tag.
2. A version range is ``min <= version < max`` (``max`` null: open). A short version
   (``"2.3"``) stands for every patch of it; if rows that disagree share it, the fields they
   disagree on are ``None`` (unknown) and the reason asks for the full version.
3. A ``same_as`` row (Hugging Face, Training Compiler) takes the row of the named line at
   the same framework version: those images are built FROM it.
4. Python 2 images (``py2`` in the tag) take the row's ``py2`` overrides: none has smdebug.
5. The image's Python is its tag's (``py312``), else what the SDK lists for the version
   (``python`` in the data; ``py2`` left out beside Python 3, as rule 4 assumes).
6. Where the image lacks smdebug but smdebug would run, the action is to install it and create
   the framework's hook in the training script (``script_hooks``): no image creates it then.
   On Python >= 3.12 smdebug imports ``distutils`` from setuptools (``smdebug_imports``), so
   setuptools is named too unless the framework's own package requires it there.

>>> verdict = place("pytorch", "2.3")
>>> verdict.smdebug is None, verdict.hook_runs, verdict.hook_runs_if_installed, verdict.python
(True, False, True, ('py311',))
>>> verdict.action.split("; in the script: ")
['add smdebug to requirements.txt', 'smdebug.pytorch.Hook.create_from_json_file(), hook.register_module(model)']
>>> place_image_uri("763104351884.dkr.ecr.us-east-1.amazonaws.com/tensorflow-training:"
...                 "2.12.0-gpu-py310-cu118-ubuntu20.04-sagemaker").hook_runs
False
>>> place("pytorch", "custom") is None
True
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import attrs

from sm_debug_config import datafiles
from sm_debug_config.patterns import LazyPattern

VersionKey = Tuple[int, ...]

FRAMEWORK_TITLES = {"pytorch": "PyTorch", "tensorflow": "TensorFlow", "mxnet": "MXNet", "xgboost": "XGBoost"}
# what to do, by the verdict (the facts they name are in the data: script_hooks, smdebug_imports, rows)
ACTION_INSTALL = "add {packages} to requirements.txt; in the script: {create}, {register}"
ACTION_OLD_PYTHON = "smdebug needs Python 3 (python_requires >= {python}): use the py3 image of this version"
ACTION_NOTHING = "smdebug {latest} rejects {what}: use {instead}"
ACTION_UNKNOWN = "check the image yourself: whether smdebug can run there is not known"
_DOTTED_RE = LazyPattern(r"^\d+(?:\.\d+)*$")
_PEP440_SUFFIX_RE = LazyPattern(r"^(\d+(?:\.\d+)*)\.?(?:post|dev|rc|a|b)\d*$")  # smdebug 0.5.0.post0
_ALGORITHM_RE = LazyPattern(r"^\d+\.\d+(?:-\d+){0,2}$")
_TAG_VERSION_RE = {
    "dotted": LazyPattern(r"^(\d+(?:\.\d+)*)(?:-|$)"),
    "algorithm": LazyPattern(r"^(\d+\.\d+-\d+(?:-\d+)?)(?:-[a-z]|$)"),
}
_PY_RE = LazyPattern(r"(?:^|-)(py\d+)(?:-|$)")
_PY_TAG_RE = LazyPattern(r"^py(\d)(\d*)$")
_FIELDS = ("smdebug", "hook_runs", "hook_runs_if_installed", "framework_profiling")


@attrs.frozen(kw_only=True)
class ImageRef:
    """A training image as parsed from its URI: table line, framework version, Python version."""

    line: str
    version: str
    py_version: Optional[str] = None
    repository: str = ""
    tag: str = ""


@attrs.frozen(kw_only=True)
class ImageVerdict:
    """What Debugger can do on one training image, with the reason and the evidence (fields: the table's
    ``_provenance.meaning``; ``None`` is unknown); ``action`` is what to do ("" when nothing is needed),
    ``hook_off`` why the hook does not run in a few words ("" when it runs or that is not known), ``python``
    the image's Python tags (``()``: not known)."""

    line: str
    framework: str
    version: str
    smdebug: Optional[str]
    hook_runs: Optional[bool]
    hook_runs_if_installed: Optional[bool]
    framework_profiling: Optional[bool]
    reason: str
    action: str
    sources: Tuple[str, ...] = ()
    unconfirmed: Optional[str] = None
    hook_off: str = ""
    python: Tuple[str, ...] = ()

    @property
    def title(self) -> str:
        """The framework as people write it (``PyTorch``)."""
        return FRAMEWORK_TITLES[self.framework]

    def to_dict(self) -> Dict[str, Any]:
        """The verdict as plain JSON-able data (for ``explain`` and the CLI)."""
        out = attrs.asdict(self)
        out["sources"] = list(self.sources)
        out["python"] = list(self.python)
        return out


def table() -> Dict[str, Any]:
    """The parsed ``data/containers.json`` (provenance, repositories, lines, smdebug checks, rows)."""
    return datafiles.load("containers")  # type: ignore[no-any-return]


def rows(line: Optional[str] = None) -> List[Dict[str, Any]]:
    """The rows of one line (all rows when ``line`` is None), ordered by version."""
    selected = [r for r in table()["rows"] if line is None or r["line"] == line]
    return sorted(selected, key=lambda r: (r["line"], _pad(version_key(r["versions"]["min"]) or ())))


def version_key(text: object) -> Optional[VersionKey]:
    """Numbers of a version, for ordering: ``"1.13.1"`` -> (1, 13, 1), ``"1.7-1"`` -> (1, 7, 1).

    >>> version_key("2.3.0"), version_key("0.90-2"), version_key("0.5.0.post0"), version_key("latest")
    ((2, 3, 0), (0, 90, 2), (0, 5, 0), None)
    """
    if not isinstance(text, str) or len(text) > 100:  # int() of a 5,000-digit part fails: no version is that long
        return None
    text = text.strip()
    suffixed = _PEP440_SUFFIX_RE.match(text)
    if suffixed:
        text = suffixed.group(1)
    if not (_DOTTED_RE.match(text) or _ALGORITHM_RE.match(text)):
        return None
    return tuple(int(part) for part in re.split(r"[.-]", text))


def _pad(key: Sequence[int], width: int = 6) -> VersionKey:
    return tuple(key) + (0,) * (width - len(key))


def _range(bounds: Mapping[str, Optional[str]]) -> Tuple[Optional[VersionKey], Optional[VersionKey]]:
    """The padded ``min`` and ``max`` of a version range (``None``: open)."""
    low, high = version_key(bounds.get("min")), version_key(bounds.get("max"))
    return (_pad(low) if low else None), (_pad(high) if high else None)


def _overlaps(row: Mapping[str, Any], lo: VersionKey, hi: VersionKey) -> bool:
    rmin, rmax = _range(row["versions"])
    return rmin is not None and rmin < hi and (rmax is None or lo < rmax)


def smdebug_accepts(smdebug_version: str, framework: str, version: str) -> Optional[bool]:
    """Whether smdebug ``smdebug_version``'s own version check (``smdebug_checks``) lets its hook run on
    ``framework`` ``version``; ``None``: unknown.

    >>> smdebug_accepts("1.0.33", "tensorflow", "2.12.0"), smdebug_accepts("1.0.34", "pytorch", "2.3.0")
    (False, True)
    """
    smd, ver = version_key(smdebug_version), version_key(version)
    bounds = _smdebug_check(smd).get(framework) if smd is not None else None
    return None if bounds is None or ver is None else _in_range(ver, bounds)


def _smdebug_check(smdebug: VersionKey) -> Dict[str, Any]:
    """The ``smdebug_checks`` row of an smdebug version ({} if none)."""
    return next((check for check in table()["smdebug_checks"] if _in_range(smdebug, check["smdebug"])), {})


def _in_range(key: VersionKey, bounds: Mapping[str, Optional[str]]) -> bool:
    lo, hi = _range(bounds)
    return (lo is None or lo <= _pad(key)) and (hi is None or _pad(key) < hi)


def format_source(source: Mapping[str, Any]) -> str:
    """One source as text: ``repo@commit:path#Lline (says)``, ``smdebug 1.0.34 path#Lline (says)``, a package, a
    URL, or a note (``measured 2026-11-27 (says)``)."""
    if "url" in source:
        where = source["url"]
    elif "repo" in source:
        parts = (("commit", "@{:.12}"), ("path", ":{}"), ("line", "#L{}"))
        where = source["repo"] + "".join(text.format(source[key]) for key, text in parts if key in source)
    elif "smdebug" in source:
        where = "smdebug " + source["smdebug"] + (f" {source['path']}" if "path" in source else "")
        where += f"#L{source['line']}" if "line" in source else ""
    elif "package" in source:
        where = source["package"]
    else:
        where = source.get("note", "note")
    says = source.get("says")
    return f"{where} ({says})" if says else where


def place(framework: str, version: str, *, py_version: Optional[str] = None) -> Optional[ImageVerdict]:
    """The verdict for the training image of ``framework`` (or a line name) at ``version``; ``None`` if unknown.

    >>> place("xgboost", "1.7-1").hook_runs
    True
    >>> v = place("pytorch", "1.13.1")
    >>> v.hook_runs, v.framework_profiling
    (True, True)
    >>> place("tensorflow", "2.15").action
    'smdebug 1.0.34 rejects TensorFlow >= 2.12: use a TensorFlow >= 1.15, < 2.12 image, or TensorBoard'
    """
    if not isinstance(framework, str) or not isinstance(version, str):
        return None
    line = framework.strip().lower().replace("_", "-")
    key = version_key(version)
    if line not in table()["lines"] or key is None:
        return None
    if table()["lines"][line]["version_style"] == "algorithm" and len(key) < 2:
        return None  # "1" / "latest" name the legacy xgboost image, not sagemaker-xgboost
    return _place_line(line, version.strip(), key, py_version)


def _place_line(line: str, version: str, key: VersionKey, py_version: Optional[str]) -> Optional[ImageVerdict]:
    # a short version stands for each of its patches: "2.3" is every 2.3.x
    lo, hi = _pad(key), _pad(key[:-1] + (key[-1] + 1,))
    found = [r for r in rows(line) if _overlaps(r, lo, hi)]
    if not found:
        return None
    if "same_as" in found[0]:
        base = _place_line(found[0]["same_as"], version, key, py_version)
        if base is None:
            return None
        return attrs.evolve(
            base,
            line=line,
            reason=f"{found[0].get('note', 'built FROM the ' + base.line + ' image')}; {base.reason}",
            sources=tuple(format_source(s) for s in found[0]["sources"]) + base.sources,
            unconfirmed=_join(found[0].get("unconfirmed"), base.unconfirmed),
        )
    python = image_python(line, version, py_version)
    return _verdict(line, version, [_with_python(r, py_version) for r in found], python)


def _with_python(row: Dict[str, Any], py_version: Optional[str]) -> Dict[str, Any]:
    if py_version != "py2" or "py2" not in row:
        return row
    merged = dict(row)
    override = row["py2"]
    merged.update({k: override[k] for k in _FIELDS + ("action",) if k in override})
    merged["sources"] = list(override["sources"]) + list(row["sources"])
    merged["note"] = "Python 2 image: no smdebug"
    return merged


def _join(*texts: Optional[str]) -> Optional[str]:
    parts = [t for t in texts if t]
    return "; ".join(parts) or None


def _verdict(line: str, version: str, found: List[Dict[str, Any]], python: Tuple[str, ...]) -> ImageVerdict:
    framework = table()["lines"][line]["framework"]
    title = FRAMEWORK_TITLES[framework]
    fields = {name: found[0][name] if len({repr(r[name]) for r in found}) == 1 else None for name in _FIELDS}
    if len({repr(r["smdebug"]) for r in found}) > 1:
        # rows that share a short version ship different smdebug: say which, not "none"
        fields["smdebug"] = " or ".join(dict.fromkeys(r["smdebug"] or "none" for r in found))
    sources = tuple(dict.fromkeys(format_source(s) for r in found for s in r["sources"]))
    notes = [r["note"] for r in found if r.get("note")]
    unconfirmed = _join(*dict.fromkeys(r.get("unconfirmed") for r in found))
    parts = [_hook_sentence(title, version, fields)]
    if len(found) > 1:
        parts.append(f"images of {title} {version} differ by patch version; give the full version for a sure answer")
    parts.append(_PROFILING[fields["framework_profiling"]])
    parts.extend(dict.fromkeys(notes))
    reason_sources = sources
    if fields["hook_runs"] is False and fields["hook_runs_if_installed"] is True:
        parts.append(_python_sentence(framework, python))
        sources += _install_sources(framework, python)
    reason = "; ".join(parts) + f" [{reason_sources[0]}]"
    actions = {r.get("action") for r in found}
    if len(actions) == 1 and None not in actions:
        action = actions.pop()
    else:
        action = _action(line, title, version, fields, python)
    return ImageVerdict(
        line=line,
        framework=framework,
        version=version,
        reason=reason,
        action=action or "",
        sources=sources,
        unconfirmed=unconfirmed,
        hook_off=_hook_off(framework, version, fields),
        python=python,
        **fields,
    )


# what the reason says of the hook and of framework profiling, by the verdict's value
_HOOK_RUNS = {
    True: " and its hook runs",
    False: " but its hook does not run",
    None: "; whether its hook runs is not known",
}
_PROFILING = {
    True: "framework profiling is supported",
    False: "framework profiling is not supported (documented only for PyTorch >= 1.6, < 2.0 and TensorFlow >= 2.3.1, "
           "< 2.11)",
    None: "framework profiling support is not known",
}


def _hook_sentence(title: str, version: str, fields: Mapping[str, Any]) -> str:
    image = f"the SageMaker {title} {version} training image"
    if fields["smdebug"] is None:
        return f"{image} has no smdebug: the Debugger hook does not run"
    return f"{image} ships smdebug {fields['smdebug']}{_HOOK_RUNS[fields['hook_runs']]}"


def _hook_off(framework: str, version: str, fields: Mapping[str, Any]) -> str:
    """Why the hook does not run, in a few words: ``has no smdebug``...; "" when it runs or that is not known."""
    if fields["hook_runs"] is not False:
        return ""
    smdebug = fields["smdebug"]
    if smdebug is None:
        return "has no smdebug"
    if smdebug_accepts(smdebug, framework, version) is False:
        return f"has smdebug {smdebug}, which switches itself off"
    return f"has smdebug {smdebug} but does not create the hook"


def _action(line: str, title: str, version: str, fields: Mapping[str, Any], python: Tuple[str, ...]) -> str:
    framework = table()["lines"][line]["framework"]
    if fields["hook_runs"] is True:
        return ""
    if fields["hook_runs_if_installed"] is True:
        return install_action(framework, python)
    if fields["hook_runs_if_installed"] is False:
        return ACTION_NOTHING.format(
            latest=table()["_provenance"]["smdebug_latest"],
            what=_unsupported_range(framework, title, version),
            instead=_instead(line, title),
        )
    return ACTION_UNKNOWN


def install_action(framework: str, python: Sequence[str] = ()) -> str:
    """What to do where the image lacks smdebug but smdebug would run: install it, and create the framework's hook
    in the training script (nothing else creates it); setuptools too where the Python may be >= 3.12 and the
    framework does not bring it (smdebug imports ``distutils``).

    >>> install_action("mxnet", ("py312",)).split("; in the script: ")
    ['add smdebug and setuptools to requirements.txt',
     'smdebug.mxnet.Hook.create_from_json_file(), hook.register_block(net)']
    >>> install_action("mxnet", ("py2",))
    'smdebug needs Python 3 (python_requires >= 3.6): use the py3 image of this version'
    """
    facts, hook = table()["smdebug_imports"], table()["script_hooks"][framework]
    if python_at_least(python, facts["requires_python"]) is False:
        return ACTION_OLD_PYTHON.format(python=facts["requires_python"])  # no smdebug release installs there
    if hook["setuptools_on_py312"] is True:
        packages = "smdebug"
    else:
        packages = {
            False: "smdebug",
            True: "smdebug and setuptools",
            None: "smdebug (+ setuptools on Python 3.12+)",
        }[python_at_least(python, facts["distutils_removed_in"])]
    return ACTION_INSTALL.format(packages=packages, create=hook["create"], register=hook["register"])


def _python_sentence(framework: str, python: Tuple[str, ...]) -> str:
    """The image's Python, and where smdebug's ``distutils`` comes from there (for the reason)."""
    facts = table()["smdebug_imports"]
    text = "image Python " + ("/".join(python) if python else "not known")
    if python_at_least(python, facts["distutils_removed_in"]) is False:
        return text
    brings = table()["script_hooks"][framework]["setuptools_on_py312"]
    required = " (required by the framework's package there)" if brings else ""
    return f"{text}: on Python >= {facts['distutils_removed_in']} smdebug imports distutils from setuptools{required}"


def _install_sources(framework: str, python: Tuple[str, ...]) -> Tuple[str, ...]:
    """The evidence for :func:`install_action`: the script's hook, and smdebug's imports unless Python < 3.12."""
    facts = table()["smdebug_imports"]
    cited = list(table()["script_hooks"][framework]["sources"])
    if python_at_least(python, facts["distutils_removed_in"]) is not False:
        cited += facts["sources"]
    return tuple(format_source(source) for source in cited)


def _instead(line: str, title: str) -> str:
    """The images of the line that run the hook (``PyTorch >= 1.3, < 2.1 image``), or TensorBoard."""
    running = [r for r in rows(line) if r.get("hook_runs") is True]
    if not running:
        return "TensorBoard"
    low, high = running[0]["versions"]["min"], running[-1]["versions"]["max"]
    span = f"{title} >= {low}" + (f", < {high}" if high else "")
    return f"a {span} image, or TensorBoard"


def image_python(line: str, version: str, py_version: Optional[str] = None) -> Tuple[str, ...]:
    """The Python tags of an image: its tag's (``py_version``), else those the SDK lists for the framework
    version (``py2`` left out beside Python 3); ``()`` when not known.

    >>> image_python("pytorch", "2.6"), image_python("pytorch", "2.3.0", "py311"), image_python("pytorch", "9.1")
    (('py312',), ('py311',), ())
    >>> image_python("mxnet", "1.4.1")
    ('py3',)
    """
    if py_version is not None:
        return (py_version,)
    key = version_key(version)
    known = table()["python"]["versions"].get(table()["lines"].get(line, {}).get("framework", line))
    if key is None or not known:
        return ()
    lo, hi = _pad(key), _pad(key[:-1] + (key[-1] + 1,))
    tags = [t for v, listed in known.items() if lo <= _pad(version_key(v) or ()) < hi for t in listed]
    found = tuple(dict.fromkeys(tags))
    return tuple(t for t in found if t != "py2") or found


def python_at_least(python: Sequence[str], threshold: str) -> Optional[bool]:
    """Whether every Python tag in ``python`` is at least ``threshold`` (``True``), none is (``False``), or it is
    not known (``None``). A bare ``py3`` is below ``bare_py3.below`` (3.12) in the data.

    >>> python_at_least(("py312",), "3.12"), python_at_least(("py3", "py36"), "3.12"), python_at_least((), "3.12")
    (True, False, None)
    """
    bound = version_key(threshold) or ()
    below = version_key(table()["python"]["bare_py3"]["below"]) or ()
    answers = set()
    for tag in python:
        match = _PY_TAG_RE.match(tag)
        if match is None:
            return None
        major, minor = int(match.group(1)), match.group(2)
        if minor:
            answers.add(_pad((major, int(minor))) >= _pad(bound))
        elif major != bound[0]:
            answers.add(major > bound[0])
        elif major == below[0] and _pad(bound) >= _pad(below):
            answers.add(False)  # a bare py3 image predates Python 3.12
        else:
            return None
    return answers.pop() if len(answers) == 1 else None


def _unsupported_range(framework: str, title: str, version: str) -> str:
    """``TensorFlow >= 2.12`` / ``PyTorch < 1.5``: the side of the latest smdebug's range a version is on."""
    key, latest = version_key(version), version_key(table()["_provenance"]["smdebug_latest"])
    bounds = _smdebug_check(latest or ()).get(framework) or {}
    low, high = bounds.get("min"), bounds.get("max")
    if key is not None and high is not None and _pad(key) >= _pad(version_key(high) or ()):
        return f"{title} >= {high}"
    return f"{title} < {low}" if low is not None else f"{title} {version}"


def parse_image_uri(uri: object) -> Optional[ImageRef]:
    """The line, framework version and Python version of a SageMaker training image URI; ``None`` if not one.

    >>> parse_image_uri("763104351884.dkr.ecr.us-west-2.amazonaws.com/huggingface-pytorch-training:"
    ...                 "2.1.0-transformers4.36.0-gpu-py310-cu121-ubuntu20.04")
    ImageRef(line='huggingface-pytorch', version='2.1.0', py_version='py310', repository='huggingface-pytorch-training',
             tag='2.1.0-transformers4.36.0-gpu-py310-cu121-ubuntu20.04')
    >>> parse_image_uri("683313688378.dkr.ecr.us-east-1.amazonaws.com/sagemaker-xgboost:1.7-1").version
    '1.7-1'
    """
    if not isinstance(uri, str) or "@" in uri:
        return None
    name, _, tag = uri.strip().rpartition(":")
    if not name or not tag or "/" in tag:
        return None
    repository = name.rsplit("/", 1)[-1]
    line = table()["repositories"].get(repository)
    if line is None:
        return None
    match = _TAG_VERSION_RE[table()["lines"][line]["version_style"]].match(tag)
    if match is None:
        return None
    py = _PY_RE.search(tag)
    return ImageRef(
        line=line, version=match.group(1), py_version=py.group(1) if py else None, repository=repository, tag=tag
    )


def framework_of_image(uri: object) -> Optional[str]:
    """The framework a SageMaker training image runs (a Hugging Face PyTorch image runs PyTorch), or None for an
    image the table does not know.

    >>> framework_of_image("763104351884.dkr.ecr.us-east-1.amazonaws.com/huggingface-pytorch-training:2.1.0-gpu-py310")
    'pytorch'
    >>> framework_of_image("123456789012.dkr.ecr.us-east-1.amazonaws.com/my-own-image:latest") is None
    True
    """
    ref = parse_image_uri(uri)
    return None if ref is None else str(table()["lines"][ref.line].get("framework", ref.line))


def place_image_uri(uri: object) -> Optional[ImageVerdict]:
    """The verdict for a training image given by its URI; ``None`` if the URI cannot be placed.

    >>> place_image_uri("246618743249.dkr.ecr.us-west-2.amazonaws.com/sagemaker-xgboost:1.7-1").smdebug
    '1.0.29'
    >>> place_image_uri("123456789012.dkr.ecr.us-east-1.amazonaws.com/my-own-image:latest") is None
    True
    """
    ref = parse_image_uri(uri)
    return None if ref is None else place(ref.line, ref.version, py_version=ref.py_version)


def image_verdict(
    *, framework: Optional[str] = None, framework_version: Optional[str] = None, image_uri: Optional[str] = None
) -> Optional[ImageVerdict]:
    """The verdict for a job's training image: from ``image_uri`` when there is one (``None`` for a custom
    image, even with a ``framework_version``: the job runs that image), else ``framework`` + version.

    >>> image_verdict(framework="tensorflow", framework_version="2.12").smdebug
    '1.0.33'
    >>> image_verdict(framework="pytorch", framework_version="2.3",
    ...               image_uri="123456789012.dkr.ecr.us-east-1.amazonaws.com/mine:1") is None
    True
    """
    if image_uri is not None:
        return place_image_uri(image_uri)
    if framework is not None and framework_version is not None:
        return place(framework, framework_version)
    return None


#: The image lines whose images :func:`hook_running_image` can name: the deep learning containers' framework lines,
#: whose tags the SDK v2 writes ``<version>-<processor>-<py>`` (a Hugging Face tag names its transformers too).
_RENAMED_LINES = ("pytorch", "tensorflow", "mxnet")
_PROCESSOR_RE = LazyPattern(r"(?:^|-)(cpu|gpu)(?:-|$)")


def hook_running_image(uri: object) -> Optional[str]:
    """The URI of the nearest version of the same framework image that runs the hook (SMD170's fix), or None: the
    same registry and repository, and the tag the SDK v2 retrieves (``<version>-<processor>-<py>``, the framework
    versions and Python tags of ``python`` in the data, from ``sagemaker/image_uri_config``): the newest such
    version below the image's, else the oldest above it. None for an image of another line, a tag without its
    processor, or a framework no listed version of which runs the hook.

    >>> hook_running_image("763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:"
    ...                    "2.3.0-gpu-py311-cu121-ubuntu20.04-sagemaker")
    '763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.0.1-gpu-py310'
    >>> hook_running_image("123456789012.dkr.ecr.us-east-1.amazonaws.com/mine:2.3.0-gpu") is None
    True
    """
    ref = parse_image_uri(uri)
    if ref is None or ref.line not in _RENAMED_LINES or ref.repository != f"{ref.line}-training":
        return None
    processor = _PROCESSOR_RE.search(ref.tag)
    key = version_key(ref.version)
    if processor is None or key is None:
        return None
    listed = table()["python"]["versions"].get(ref.line, {})
    running = []
    for version, tags in listed.items():
        verdict = place(ref.line, version)
        python = [tag for tag in tags if tag != "py2"]
        if verdict is not None and verdict.hook_runs is True and python and version_key(version) is not None:
            running.append((_pad(version_key(version) or ()), version, python[-1]))
    below = [item for item in running if item[0] < _pad(key)]
    above = [item for item in running if item[0] > _pad(key)]
    chosen = max(below) if below else min(above) if above else None
    if chosen is None:
        return None
    registry = str(uri).strip().rpartition(":")[0].rpartition("/")[0]
    return f"{registry}/{ref.repository}:{chosen[1]}-{processor.group(1)}-{chosen[2]}"
