"""The table of check codes, as ruff keeps ``codes.rs``: each code's name, lifecycle and the inputs it applies to.

A code's severity, description and evidence are declared where it is produced
(:func:`sm_debug_config.findings.declare`); this table is where a code gets its name (kebab-case, for people and
for ``--select``), its lifecycle (:data:`STABLE`, :data:`PREVIEW`, :data:`REMOVED`) and, where it is not every
input, the inputs it applies to. A declaration takes its row from here (a code without one is refused at import),
and a test keeps the table and the declarations equal, so :data:`sm_debug_config.findings.CHECKS` is the one
table every output derives from (``sm-debug-config checks``, the pages, SARIF's rules).

``applies_to`` is derived where it can be: a code its row does not narrow applies to every input
(:data:`EVERY_INPUT`), which is true of every code a request check produces, since each input ends as a request
that the same checks run over; a test holds each code registered by a request check to that, and each other code
to a row that names its inputs.

Selecting codes (``--select``, ``--ignore``, the project's ``select`` and ``ignore``), as ruff does: ``select``
narrows to the codes it names (all stable codes when it names none), ``ignore`` removes codes from that, and a
code's prefix (``SMD13``: SMD130 to SMD139) names every code it starts. A preview code is reported only when
``select`` names it in full; a removed one never is. This module imports nothing (the CLI's parsers use it).

>>> TABLE["SMD120"].name
'unknown-rule-parameter'
>>> suppressed(["SMD13"], ["SMD139"])[:3]
('SMD001', 'SMD002', 'SMD003')
>>> "SMD139" in suppressed(["SMD13"], ["SMD139"]), "SMD138" in suppressed(["SMD13"], ["SMD139"])
(True, False)
"""
from __future__ import annotations

import re
from typing import Dict, Iterable, NamedTuple, Optional, Sequence, Tuple

__all__ = [
    "EVERY_INPUT",
    "FIX_APPLICABILITIES",
    "INPUTS",
    "LIFECYCLES",
    "PREVIEW",
    "REMOVED",
    "STABLE",
    "TABLE",
    "Code",
    "codes_of",
    "edit_distance",
    "nearest",
    "suppressed",
]

#: Lifecycles: stable codes are reported by default; preview ones only when ``select`` names them in full (new
#: checks whose evidence is still being gathered); removed ones are kept so a name or code in a user's settings
#: still means something, and are never reported.
STABLE, PREVIEW, REMOVED = "stable", "preview", "removed"
LIFECYCLES = (STABLE, PREVIEW, REMOVED)

#: The inputs a code can be reported for, and what each is.
INPUTS: Dict[str, str] = {
    "python-api": "the Python API: validate(), render() and the objects' constructors",
    "config-file": "config files (`sm-debug-config validate`)",
    "request": "CreateTrainingJob request JSON (`sm-debug-config validate`)",
    "documents": "Step Functions, Pipelines, CloudFormation and Terraform documents and ACK manifests "
                 "(`sm-debug-config validate`)",
    "lint": "Python sources and notebooks (`sm-debug-config lint`)",
    "plan": "the jobs a launcher starts (`sm-debug-config plan`)",
}
EVERY_INPUT: Tuple[str, ...] = tuple(INPUTS)
#: The inputs whose objects are built from a source (a constructor's refusal is a finding there, not an exception).
BUILT_FROM_A_SOURCE = ("config-file", "lint", "plan")
#: The inputs read from files ``validate`` and ``lint`` are given.
FILES = ("config-file", "request", "documents", "lint")

#: The form of a name: lower-case words joined by hyphens.
NAME_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
#: The form of what ``select`` and ``ignore`` take: a code or its prefix (``SMD``, ``SMD1``, ``SMD13``, ``SMD132``).
SELECTOR_PATTERN = r"^SMD\d{0,3}$"
_SELECTOR = re.compile(SELECTOR_PATTERN)


#: What a fix of a code's findings may be (:mod:`sm_debug_config.fixes`): ``safe`` (``--fix``: the intended value is
#: certain) or ``unsafe`` (``--unsafe-fixes``: likely what was meant, but it changes what runs).
FIX_APPLICABILITIES = ("safe", "unsafe")
SAFE, UNSAFE = FIX_APPLICABILITIES


class Code(NamedTuple):
    """A row of :data:`TABLE`. A named tuple, not an attrs class: the CLI's parsers read the table before any
    module that needs attrs is imported. ``fixes``: ``(applicability, what it changes)`` of each kind of fix its
    findings carry (none: the intended value is not known, the finding says what to decide); a finding's fix must
    be of a kind its row names (:meth:`sm_debug_config.findings.Check.at`), and each check's page says them."""

    name: str
    lifecycle: str = STABLE
    applies_to: Tuple[str, ...] = EVERY_INPUT
    fixes: Tuple[Tuple[str, str], ...] = ()


#: Every check code, in code order. Adding a check: its row here, its declaration where it is produced.
TABLE: Dict[str, Code] = {
    "SMD001": Code("pipeline-expression"),
    "SMD002": Code("constructor-refused-value", applies_to=BUILT_FROM_A_SOURCE),
    "SMD003": Code("unreadable-file", applies_to=FILES),
    "SMD100": Code("api-limit", fixes=(
        (SAFE, "a number or true/false where the API takes a string (a parameter's value) is written as the string "
               "the SDK v2 sends, str() of it (20: \"20\", True: \"True\"); a whole number written as a string "
               "where the API takes an integer is the integer, \"true\"/\"false\" where it takes a boolean the "
               "boolean"),
        (UNSAFE, "an S3 URI without its scheme (bucket/prefix) gets s3:// put before it"),
    )),
    "SMD101": Code("duplicate-rule-name", fixes=(
        (UNSAFE, "the later rule's RuleConfigurationName (name= of the SDK's rule) gets the first free suffix "
                 "-2, -3... that no other rule of the request uses"),
    )),
    "SMD102": Code("too-many-rules"),
    # the ACK manifests' source: a member the Kubernetes API server prunes before the controller reads the spec
    "SMD103": Code("ack-member-in-api-case", applies_to=("documents",), fixes=(
        (SAFE, "the member is written in the controller's case, its first letter lower-case (DebugHookConfig: "
               "debugHookConfig), unless the spec has that member already"),
    )),
    "SMD110": Code("rule-collection-not-saved"),
    "SMD111": Code("rules-without-hook"),
    "SMD112": Code("rule-default-collection-not-saved"),
    "SMD113": Code("collection-without-name"),
    "SMD114": Code("custom-collection-without-regex", fixes=(
        (SAFE, "a collection name that certainly means one built-in collection (the only close one, or the nearest "
               "of several by two edits or more) is renamed to it (gradient: gradients)"),
    )),
    "SMD115": Code("include-workers-value", fixes=(
        (SAFE, "one or all written in capitals or with spaces is written as the hook reads it (All: all)"),
    )),
    # the merge's: only where our objects are rendered (a request as written has the SDK's entries: SMD117)
    "SMD116": Code("collection-parameter-conflict", applies_to=("python-api", "config-file", "lint", "plan")),
    "SMD117": Code("collection-sent-more-than-once"),
    "SMD120": Code("unknown-rule-parameter", fixes=(
        (SAFE, "a parameter name that certainly means one parameter of the rule (the only close one, or the "
               "nearest of several by two edits or more), not set already, is renamed to it (threshhold: threshold; "
               "ProfilerReport's CPUBottleneck_treshold: CPUBottleneck_threshold)"),
    )),
    "SMD121": Code("invalid-rule-parameter-value"),
    "SMD122": Code("rule-parameter-passed-through"),
    "SMD123": Code("rule-for-another-framework"),
    "SMD124": Code("similar-across-runs-without-other-trial"),
    "SMD125": Code("builtin-image-without-builtin-rule"),
    "SMD130": Code("invalid-include-regex"),
    "SMD131": Code("comma-in-include-regex"),
    "SMD132": Code("invalid-save-interval"),
    "SMD133": Code("step-range-not-meant", fixes=(
        (UNSAFE, "a step range written backwards (start_step above end_step, both whole numbers) has the two "
                 "values swapped"),
    )),
    "SMD134": Code("non-integer-step"),
    "SMD135": Code("unknown-hook-parameter", fixes=(
        (SAFE, "a mode prefix in capitals is written in lower case (TRAIN.save_interval: train.save_interval), and a "
               "key that certainly means one key the hook reads (the only close one, or the nearest of several by "
               "two edits or more), not set already, is renamed to it (save_intervall: save_interval)"),
    )),
    "SMD136": Code("unknown-reduction", fixes=(
        (SAFE, "a reduction that certainly means one the hook knows (the only close one, or the nearest of several "
               "by two edits or more), not listed already, is written as it, the rest of the list as written "
               "(maxx: max)"),
    )),
    "SMD137": Code("json-boolean-hook-parameter", fixes=(
        (UNSAFE, "the parameter is removed: the job runs, without saving what it asked for"),
    )),
    "SMD138": Code("invalid-boolean-hook-parameter", fixes=(
        (SAFE, "true or false written in capitals or with spaces is written as the hook reads it (TRUE: true); "
               "another word (yes, 1) is left as it is"),
    )),
    "SMD139": Code("local-only-hook-parameter"),
    "SMD140": Code("metric-config-fails"),
    "SMD141": Code("metric-config-ignored"),
    "SMD142": Code("lower-cased-value"),
    "SMD143": Code("unknown-profiling-parameter", fixes=(
        (SAFE, "a ProfilingParameters key that certainly means one key the profiler reads (the only close one, or "
               "the nearest of several by two edits or more), not set already, is renamed to it"),
    )),
    "SMD144": Code("undocumented-profiling-interval"),
    "SMD145": Code("profiling-setting-not-read"),
    "SMD150": Code("invalid-action-json"),
    "SMD151": Code("rule-image-in-another-region", fixes=(
        (UNSAFE, "a SageMaker rule image (built-in, custom or detailed profiler, as the SDK names it) is named in the "
                 "job's region instead; unsafe, for the job's region may be the mistake"),
    )),
    "SMD152": Code("custom-rule-source-not-in-s3"),
    "SMD153": Code("relative-local-path", fixes=(
        (UNSAFE, "the relative LocalPath is removed, so SageMaker uses its default container path (what the "
                 "training script writes to that path must move with it)"),
    )),
    "SMD154": Code("reserved-local-path", fixes=(
        (UNSAFE, "the reserved LocalPath is removed, so SageMaker uses its default (/opt/ml/output/tensorboard, "
                 "which it may reserve; the training script's TensorBoard writer must use that path)"),
    )),
    "SMD155": Code("rule-action-skipped"),
    "SMD160": Code("profiler-rules-with-profiler-disabled"),
    "SMD161": Code("region-without-debugger"),
    "SMD170": Code("image-without-hook", fixes=(
        (UNSAFE, "the training image is named at the lowest version of the same framework image that runs the hook "
                 "(same account, region, repository and tag suffix); the training script is not changed"),
    )),
    "SMD171": Code("framework-profiling-unsupported"),
    "SMD172": Code("default-hook-does-nothing"),
    "SMD173": Code("save-steps-with-default-interval"),
    "SMD174": Code("save-steps-with-inherited-interval"),
    "SMD175": Code("hook-on-distributed-job-with-checkpoints"),
    "SMD180": Code("hook-config-none-is-default", applies_to=("lint",)),
    "SMD181": Code("computed-at-run-time", applies_to=("lint",)),
    "SMD182": Code("unknown-code-in-ignore-comment", applies_to=("lint",)),
    "SMD190": Code("plan-stopped-at-max-jobs", applies_to=("plan",)),
}


def _normalised(text: str) -> str:
    """``text`` as a code would be written: upper case, no spaces or dashes, and after ``SMD`` the letters that
    look like digits read as them (``SMD12O``: ``SMD120``)."""
    name = re.sub(r"[\s_-]", "", text).upper()
    if name.startswith("SMD"):
        name = "SMD" + name[3:].translate(str.maketrans("OILS", "0115"))
    return name


def edit_distance(a: str, b: str) -> int:
    """The edit distance (insertions, deletions, substitutions) between two short strings.

    >>> edit_distance("threshhold", "threshold")
    1
    """
    row = list(range(len(b) + 1))
    for i, char in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, other in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (char != other))
    return row[-1]


#: The longest text :func:`nearest` guesses a code for (twice the longest name).
MAX_GUESS = 80


def nearest(text: str, codes: Optional[Iterable[str]] = None) -> Optional[str]:
    """The code of ``codes`` (default: :data:`TABLE`'s) that ``text`` most likely meant, or None: the same code
    once written as codes are (``smd12O``), else the first code it starts (``SMD12``), else the closest by edits
    (at most two), the nearest number first (``SMD1200``: SMD120).

    >>> nearest("SMD12O"), nearest("SMD12"), nearest("SMD1200"), nearest("unknown-rule-parametr")
    ('SMD120', 'SMD120', 'SMD120', 'SMD120')
    >>> nearest("XYZ") is None, nearest("SMD1" * 10_000) is None
    (True, True)
    """
    if len(text) > MAX_GUESS:  # no code or name is that long: nothing to suggest, and no quadratic work on junk
        return None
    known = sorted(TABLE if codes is None else codes)
    name = _normalised(text)
    if name in known:
        return name
    by_name = {TABLE[code].name: code for code in known if code in TABLE}
    lowered = re.sub(r"\s+", "-", text.strip().lower())
    if lowered in by_name:
        return by_name[lowered]
    started = [code for code in known if len(name) > 3 and code.startswith(name)]
    if started:
        return started[0]

    def number(code: str) -> int:
        digits = re.sub(r"\D", "", code)
        return int(digits) if digits else 0

    scored = sorted((edit_distance(name, code), abs(number(code) - number(name)), code) for code in known)
    scored += sorted((edit_distance(lowered, n), 0, code) for n, code in by_name.items())
    best = min(scored, default=None)
    return best[2] if best is not None and best[0] <= 2 else None


def codes_of(selector: str) -> Tuple[str, ...]:
    """The codes ``selector`` names (a code or a prefix, any case); a ``ValueError`` saying ``'<it>: no such
    check'`` with a did-you-mean for one that names none.

    >>> codes_of("smd15")
    ('SMD150', 'SMD151', 'SMD152', 'SMD153', 'SMD154', 'SMD155')
    >>> codes_of("SMD999")
    Traceback (most recent call last):
    ...
    ValueError: SMD999: no such check; did you mean SMD190?
    """
    name = selector.strip().upper()
    found = tuple(code for code in TABLE if code.startswith(name)) if _SELECTOR.match(name) else ()
    if not found:
        near = nearest(selector)
        shown = selector.strip()[:40] or repr(selector)
        hint = f"; did you mean {near}?" if near else " (`sm-debug-config checks` lists them)"
        raise ValueError(f"{shown}: no such check{hint}")
    return found


def suppressed(select: Optional[Sequence[str]], ignore: Sequence[str] = ()) -> Tuple[str, ...]:
    """The codes whose findings are suppressed when ``select`` (None: every stable code) and ``ignore`` (codes or
    prefixes, checked by :func:`codes_of`) are given: every code but those selected and not ignored, in code order.

    >>> suppressed(None, ["SMD12"])
    ('SMD120', 'SMD121', 'SMD122', 'SMD123', 'SMD124', 'SMD125')
    """
    if select is None:
        chosen = {code for code, row in TABLE.items() if row.lifecycle == STABLE}
    else:
        chosen = set()
        for selector in select:
            whole = selector.strip().upper()
            chosen.update(code for code in codes_of(selector) if TABLE[code].lifecycle == STABLE or code == whole)
    for selector in ignore:
        chosen.difference_update(codes_of(selector))
    return tuple(code for code, row in TABLE.items() if code not in chosen or row.lifecycle == REMOVED)
