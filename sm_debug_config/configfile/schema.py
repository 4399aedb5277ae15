"""``config_schema()``: the JSON Schema of the config file format, generated from the format description.

Every object kind of :mod:`.format` becomes a ``$defs`` entry with its keys, their value kinds
and descriptions and its required keys, so the schema accepts the entries the reader accepts
and ``dump`` writes (``rule:`` and ``profiler_rule:`` included). The catalogue adds the
built-in rule names and each rule's parameters.
"""
from __future__ import annotations

import copy
from typing import Any, Dict, List

from sm_debug_config.configfile import format as fmt
from sm_debug_config.model import catalogue, hookparams


def _object(form: fmt.Format) -> Dict[str, Any]:
    """The JSON Schema of a format: its object (keys, descriptions, required keys), or one of its alternatives."""
    scalars = fmt.data()["scalars"]
    properties = {}
    for key in form.keys.values():
        properties[key.name] = dict(scalars.get(key.kind) or {"$ref": f"#/$defs/{key.kind}"}, description=key.doc)
    out: Dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
    if form.required:
        out["required"] = list(form.required)
    if form.alternatives:
        return {"description": form.doc, "oneOf": list(form.alternatives) + [out]}
    return {"description": form.doc, **out, **form.schema}


def _hook_parameter_schema(scope: str) -> Dict[str, Any]:
    spec = hookparams.spec()
    properties: Dict[str, Any] = {}
    value_types = ["string", "integer", "number", "boolean"]
    for key, entry in spec["parameters"].items():
        if entry["scope"] not in ("both", scope) or entry["type"] in ("ignored", "json_bool"):
            continue
        prop: Dict[str, Any] = {"type": value_types, "description": entry.get("description") or key}
        if entry.get("allowed"):
            allowed = list(entry["allowed"])
            if set(allowed) <= {"true", "false", "True", "False"}:
                allowed += [True, False]
            prop["enum"] = allowed
            prop["type"] = ["string", "boolean"]
        properties[key] = prop
    for mode in spec["modes"]:
        for key, entry in spec["parameters"].items():
            if entry["mode_prefixable"] and entry["scope"] in ("both", scope):
                properties[f"{mode}.{key}"] = {
                    "type": value_types,
                    "description": f"{key} in {mode.upper()} mode only: {entry.get('description') or ''}".strip(),
                }
    # unknown keys load with a warning (smdebug ignores them: SMD135), so the schema takes them too
    return {"type": "object", "properties": properties, "additionalProperties": {"type": value_types}}


def _rule_parameter_properties(entry: Dict[str, Any]) -> Dict[str, Any]:
    properties: Dict[str, Any] = {}
    if entry.get("covered_rules"):  # ProfilerReport: <Rule>_<parameter>
        for covered in entry["covered_rules"]:
            sub = catalogue.find(covered)[1]
            for key, spec in catalogue.user_parameters(sub).items():
                properties[f"{covered}_{key}"] = {"description": f"{covered}: {spec.get('description') or key}"}
        return properties
    for key, spec in catalogue.user_parameters(entry).items():
        prop: Dict[str, Any] = {"description": spec.get("description") or key}
        if spec.get("allowed"):
            prop["enum"] = list(spec["allowed"])
        properties[key] = prop
    return properties


def _builtin_rule() -> Dict[str, Any]:
    """The ``builtin:`` entry: debugger-only keys refused for profiler rules and the reverse,
    each rule's parameters listed."""
    def when(description: str, names: Any, then: Dict[str, Any]) -> Dict[str, Any]:
        condition = (
            {"description": description, "const": names}
            if isinstance(names, str)
            else {"description": description, "enum": names}
        )
        return {"if": {"properties": {"builtin": condition}, "required": ["builtin"]}, "then": {"properties": then}}

    form = fmt.formats()["builtin_rule"]
    conditions: List[Dict[str, Any]] = [
        when(
            "A profiler rule.",
            catalogue.all_names("profiler") + [fmt.DETAILED_PROFILER_RULE],
            {key: False for key in form.only("debugger")},
        ),
        when("A debugger rule.", catalogue.all_names("debugger"), {key: False for key in form.only("profiler")}),
    ]
    for kind in catalogue.KINDS:
        for name, entry in catalogue.rules(kind).items():
            properties = _rule_parameter_properties(entry)
            if properties:
                conditions.append(
                    when(
                        f"The {name} rule.",
                        name,
                        {"rule_parameters": {"description": f"Parameters of {name}.", "properties": properties}},
                    )
                )
    return dict(_object(form), allOf=conditions)


def config_schema() -> Dict[str, Any]:
    """A JSON Schema (draft 2020-12) of the config file format, for editors and validation.

    Built-in rule names, frameworks, Python profilers and cProfile timers are ``enum``s, each
    built-in rule's parameters are listed (with descriptions) for completion, and every
    property has a ``description``. The loader is the authority: it also accepts rule names
    in any case and unquoted numbers where text is expected.

    >>> schema = config_schema()
    >>> schema["$schema"], "rules" in schema["properties"]
    ('https://json-schema.org/draft/2020-12/schema', True)
    """
    forms, data = fmt.formats(), fmt.data()
    defs: Dict[str, Any] = {name: _object(form) for name, form in forms.items() if name != "config"}
    defs.update(
        {
            kind: {"description": ref[1], "type": "string", "enum": fmt.choices(kind)}
            for kind, ref in data["choices"].items()
        }
    )
    defs.update(copy.deepcopy(data["schema_defs"]))
    defs["builtin_name"]["enum"] = catalogue.all_names() + [fmt.DETAILED_PROFILER_RULE]
    for scope in ("hook", "collection"):
        defs[f"{scope}_parameters"].update(_hook_parameter_schema(scope))
    defs["builtin_rule"] = _builtin_rule()
    defs["rule"]["oneOf"] += [
        {
            "type": "object",
            "properties": {kind: {"$ref": f"#/$defs/{name}", "description": forms[name].doc}},
            "required": [kind],
            "additionalProperties": False,
        }
        for kind, name in fmt.rule_entries().items()
    ]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "sm-debug-config configuration file",
        **_object(forms["config"]),
        "$defs": defs,
    }
