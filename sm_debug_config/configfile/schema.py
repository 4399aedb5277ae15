"""``config_schema()``: the JSON Schema of the config file format, generated from the format description.

Every object kind of :mod:`.format` becomes a ``$defs`` entry with its keys, their value kinds
and descriptions and its required keys, so the schema accepts the entries the reader accepts
and ``dump`` writes (``rule:`` and ``profiler_rule:`` included). The catalogue adds the
built-in rule names and each rule's parameters.
"""
from __future__ import annotations

from typing import Any, Dict, List

from sm_debug_config.configfile import format as fmt
from sm_debug_config.model import catalogue

_SCALAR_SCHEMA: Dict[str, Dict[str, Any]] = {
    "string": {"type": "string"},
    "integer": {"type": "integer"},
    "number": {"type": "number"},
    "boolean": {"type": "boolean"},
    "int_or_string": {"type": ["integer", "string"]},
    "string_list": {"type": "array", "items": {"type": "string"}},
    "names_or_bool": {"oneOf": [{"type": "boolean"}, {"type": "array", "items": {"type": "string"}}]},
    "string_map": {"type": "object", "additionalProperties": {"type": ["string", "number", "boolean"]}},
}
_ENTRIES = {"custom": "custom_rule", "custom_profiler": "custom_profiler_rule", "rule": "exact_rule", "profiler_rule": "exact_profiler_rule"}


def _object(form: fmt.Format, description: bool = True) -> Dict[str, Any]:
    properties = {}
    for key in form.keys.values():
        schema = dict(_SCALAR_SCHEMA[key.kind]) if key.kind in _SCALAR_SCHEMA else {"$ref": f"#/$defs/{key.kind}"}
        schema["description"] = key.doc
        properties[key.name] = schema
    out: Dict[str, Any] = {"description": form.doc} if description else {}
    out.update({"type": "object", "properties": properties, "additionalProperties": False})
    if form.required:
        out["required"] = list(form.required)
    return out


def _hook_parameter_schema(scope: str) -> Dict[str, Any]:
    from sm_debug_config.model import hookparams

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
                properties[f"{mode}.{key}"] = {"type": value_types, "description": f"{key} in {mode.upper()} mode only: {entry.get('description') or ''}".strip()}
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
    """The ``builtin:`` entry: debugger-only keys refused for profiler rules and the reverse, each rule's parameters listed."""
    def when(description: str, names: Any, then: Dict[str, Any]) -> Dict[str, Any]:
        condition = {"description": description, "const": names} if isinstance(names, str) else {"description": description, "enum": names}
        return {"if": {"properties": {"builtin": condition}, "required": ["builtin"]}, "then": {"properties": then}}

    conditions: List[Dict[str, Any]] = [
        when("A profiler rule.", catalogue.all_names("profiler") + [fmt.DETAILED_PROFILER_RULE], {key: False for key in fmt.BUILTIN_DEBUGGER_ONLY}),
        when("A debugger rule.", catalogue.all_names("debugger"), {key: False for key in fmt.BUILTIN_PROFILER_ONLY}),
    ]
    for kind in catalogue.KINDS:
        for name, entry in catalogue.rules(kind).items():
            properties = _rule_parameter_properties(entry)
            if properties:
                conditions.append(when(f"The {name} rule.", name, {"rule_parameters": {"description": f"Parameters of {name}.", "properties": properties}}))
    return dict(_object(fmt.formats()["builtin_rule"]), allOf=conditions)


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
    forms = fmt.formats()
    defs: Dict[str, Any] = {name: _object(form) for name, form in forms.items() if name != "config"}
    descriptions = {"framework": "A training framework.", "defaults": "How defaults are filled in.", "python_profiler": "A Python profiler.", "cprofile_timer": "A cProfile clock."}
    for kind, description in descriptions.items():
        defs[kind] = {"description": description, "type": "string", "enum": fmt.choices(kind)}
    entries = [
        {
            "type": "object",
            "properties": {kind: {"$ref": f"#/$defs/{name}", "description": forms[name].doc}},
            "required": [kind],
            "additionalProperties": False,
        }
        for kind, name in _ENTRIES.items()
    ]
    defs.update({
        "builtin_name": {"description": "A built-in rule name.", "type": "string", "enum": catalogue.all_names() + [fmt.DETAILED_PROFILER_RULE]},
        "hook_parameters": {"description": "HookParameters.", **_hook_parameter_schema("hook")},
        "collection_parameters": {"description": "CollectionParameters.", **_hook_parameter_schema("collection")},
        "rule_parameters": {
            "description": "Rule parameters: names to strings, numbers, booleans, null or lists of them.",
            "type": ["object", "null"],
            "additionalProperties": {"type": ["string", "number", "boolean", "null", "array"], "items": {"type": ["string", "number", "boolean"]}},
        },
        "debugger_hook_config": {"description": forms["debugger_hook_config"].doc, "oneOf": [{"type": "boolean"}, {"type": "null"}, _object(forms["debugger_hook_config"], False)]},
        "collection": {"description": forms["collection"].doc, "oneOf": [{"type": "string"}, _object(forms["collection"], False)]},
        "collections": {"description": "A list of collections.", "type": "array", "items": {"$ref": "#/$defs/collection"}},
        "stop_training": {"description": forms["stop_training"].doc, "oneOf": [{"type": "null"}, _object(forms["stop_training"], False)]},
        "action": dict(_object(forms["action"]), minProperties=1, maxProperties=1),
        "actions": {
            "description": "One action, or a list of them (sent as an action list).",
            "oneOf": [{"$ref": "#/$defs/action"}, {"type": "array", "items": {"$ref": "#/$defs/action"}}],
        },
        "builtin_rule": _builtin_rule(),
        "rule": {
            "description": "A rule: a built-in rule name, {builtin: Name, ...}, {custom: {...}}, {custom_profiler: {...}}, {rule: {...}} or {profiler_rule: {...}}.",
            "oneOf": [{"$ref": "#/$defs/builtin_name"}, {"$ref": "#/$defs/builtin_rule"}] + entries,
        },
        "rules": {"description": "A list of rules.", "type": ["array", "null"], "items": {"$ref": "#/$defs/rule"}},
        "profiler_config": dict(_object(forms["profiler_config"]), type=["object", "null"]),
    })
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "sm-debug-config configuration file",
        **_object(forms["config"]),
        "$defs": defs,
    }
