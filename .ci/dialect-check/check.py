#!/usr/bin/env python3
"""Validates toolhook's tool definitions, in every dialect and locale, with the official client
libraries' own request types and the rules of each API.

Input: the JSON document of `demo --definitions-json` (a file, or `-` for stdin):
    {"tools": [{"name", "plugin", "dialect", "locale", "parameters", "definition"}], "errors": [...]}

For every definition it checks:
  types      the definition validates against the official request type of its API (pydantic,
             JSON mode, strict, by wire name only), with unknown keys forbidden at every level
             except inside JSON Schemas (see `close`);
  name       the tool name (and, for Gemini, the parameter names) follows the API's rules;
  schema     the parameters schema passes the JSON Schema 2020-12 metaschema, has an object at its
             root, every `$ref` resolves inside the same schema (`"$ref": "#"`, the whole
             parameters object, is an error), every `required` name is a property, and every
             `default`, `enum` and `const` value fits its own schema;
  strict     (openai-*-strict) the rules of OpenAI's structured outputs;
  gemini     (gemini) the rules of Gemini's OpenAPI-subset schemas;
  round-trip argument objects valid for the neutral schema validate against the dialect's schema
             (strict dialects: optional fields sent as null and maps as key/value pairs; gemini: its
             schema read as JSON Schema, an enum's numbers sent as their strings).
Before that, a self-test proves that each check rejects what it must (an unknown key at the top,
one nested, a wrong type, a bad name, a broken schema...). Exit status: 0 all passed, 1 a check
failed, 2 bad input, 3 the self-test failed.
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import re
import sys
import typing
from collections import defaultdict
from dataclasses import dataclass, field

import jsonschema
import pydantic
import typing_extensions
from pydantic import BaseModel, TypeAdapter

# --------------------------------------------------------------------------------------------
# The official types, closed: unknown keys forbidden.
# --------------------------------------------------------------------------------------------


_WRAPPERS = {typing.Annotated} | {
    getattr(module, name)
    for module in (typing, typing_extensions)
    for name in ("Required", "NotRequired", "ReadOnly")
    if hasattr(module, name)
}


def _strip(tp):
    """Removes the Annotated/Required/NotRequired/ReadOnly wrappers around a type."""
    while typing.get_origin(tp) in _WRAPPERS:
        tp = typing.get_args(tp)[0]
    return tp


def close(root, keep_open=()):
    """A TypeAdapter for `root` that forbids unknown keys in every model and TypedDict reachable
    from it, except the types in `keep_open` (the libraries' own holders of a JSON Schema, whose
    extra keys are schema keywords). Pydantic reads a TypedDict's config from its
    `__pydantic_config__` and a model's from `model_config`; a model's schema embeds its fields'
    schemas when built, so models are rebuilt leaves first."""
    seen, order = set(), []

    def visit(tp):
        tp = _strip(tp)
        is_model = isinstance(tp, type) and issubclass(tp, BaseModel)
        is_typed_dict = isinstance(tp, type) and typing_extensions.is_typeddict(tp)
        if is_model or is_typed_dict:
            if tp in seen:
                return
            seen.add(tp)
            if is_model:
                fields = [f.annotation for f in tp.model_fields.values()]
            else:
                fields = list(typing_extensions.get_type_hints(tp, include_extras=True).values())
            for hint in fields:
                visit(hint)
            order.append(tp)  # after its fields: leaves first
        else:
            for arg in typing.get_args(tp):
                if isinstance(arg, type) or typing.get_origin(arg) is not None:
                    visit(arg)

    visit(root)
    for cls in order:
        if cls in keep_open:
            continue
        if issubclass(cls, BaseModel):
            cls.model_config = {**cls.model_config, "extra": "forbid"}
        else:
            cls.__pydantic_config__ = {**getattr(cls, "__pydantic_config__", {}), "extra": "forbid"}
    for cls in order:
        if issubclass(cls, BaseModel):
            cls.model_rebuild(force=True)
    return TypeAdapter(root)


def type_errors(adapter, value):
    """Pydantic's complaints about `value` as the wire JSON of `adapter`'s type: JSON mode (enum
    values as sent), strict (no coercion of "true" or "1"), wire (camelCase) names only."""
    try:
        adapter.validate_json(json.dumps(value), strict=True, by_alias=True, by_name=False)
    except pydantic.ValidationError as error:
        return [
            f"{'.'.join(str(p) for p in e['loc']) or '<root>'}: {e['msg']}"
            + (f" ({json.dumps(e['input'], ensure_ascii=False)[:80]})" if e["type"] != "missing" else "")
            for e in error.errors(include_url=False)
        ]
    return []


class Official:
    """The official request types of each API, closed, built once."""

    def __init__(self):
        from anthropic.types import ToolParam as AnthropicTool
        from google.genai import types as genai
        import mcp.types as mcp_types
        from mcp_types import _v2025_11_25 as mcp_2025, _v2026_07_28 as mcp_2026
        from openai.types.chat import ChatCompletionToolParam
        from openai.types.responses import FunctionToolParam
        from anthropic.types.tool_param import InputSchemaTyped

        self.openai_chat = close(ChatCompletionToolParam)
        self.openai_responses = close(FunctionToolParam)
        # `input_schema` is a JSON Schema: the library keeps its typed form open itself.
        self.anthropic = close(AnthropicTool, keep_open={InputSchemaTyped})
        # google-genai's models forbid unknown keys already; closing them again is a no-op.
        self.gemini = close(genai.FunctionDeclaration)
        self.gemini_tool = close(genai.Tool)
        # mcp.types.Tool is the SDK's superset of every protocol version; the per-version wire
        # models are generated from the published schema of each version toolhook serves. Their
        # InputSchema/OutputSchema models are JSON Schemas (extra keys are keywords): kept open.
        self.mcp = close(mcp_types.Tool)
        self.mcp_wire = {
            "2025-11-25": close(mcp_2025.Tool, keep_open={mcp_2025.InputSchema, mcp_2025.OutputSchema}),
            "2026-07-28": close(mcp_2026.Tool, keep_open={mcp_2026.InputSchema, mcp_2026.OutputSchema}),
        }
        from mcp.shared.tool_name_validation import validate_tool_name

        self.mcp_tool_name = validate_tool_name


# --------------------------------------------------------------------------------------------
# Name rules.
# --------------------------------------------------------------------------------------------

# OpenAI: "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64"
# (FunctionDefinition.name in the openai package). Anthropic documents the same pattern for
# tool names.
OPENAI_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
ANTHROPIC_NAME = OPENAI_NAME
# Gemini (FunctionDeclaration.name in google-genai): "Must start with a letter or an underscore.
# Must be a-z, A-Z, 0-9, or contain underscores, dots, colons and dashes, with a maximum length of
# 128", and (FunctionDeclaration.parameters) "Parameter names must start with a letter or an
# underscore and must only contain chars a-z, A-Z, 0-9, or underscores with a maximum length of 64".
GEMINI_NAME = re.compile(r"[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}")
GEMINI_PARAMETER = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]{0,63}")
# MCP: mcp.shared.tool_name_validation.validate_tool_name (the SDK's own check); its warnings
# (spaces, commas, a leading or trailing dash or dot) count as errors here too.


# --------------------------------------------------------------------------------------------
# JSON Schema helpers.
# --------------------------------------------------------------------------------------------

SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
SCHEMA_ONE = ("additionalProperties", "unevaluatedProperties", "unevaluatedItems", "not", "if", "then",
              "else", "contains", "propertyNames", "contentSchema")
SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")


def walk(schema, path=""):
    """Every subschema of a JSON Schema, with its JSON Pointer."""
    if not isinstance(schema, dict):
        return
    yield path, schema
    for key in SCHEMA_MAPS:
        if isinstance(schema.get(key), dict):
            for name, sub in schema[key].items():
                yield from walk(sub, f"{path}/{key}/{escape(name)}")
    for key in SCHEMA_ONE:
        if isinstance(schema.get(key), dict):
            yield from walk(schema[key], f"{path}/{key}")
    items = schema.get("items")
    if isinstance(items, dict):
        yield from walk(items, f"{path}/items")
    elif isinstance(items, list):
        for i, sub in enumerate(items):
            yield from walk(sub, f"{path}/items/{i}")
    for key in SCHEMA_LISTS:
        if isinstance(schema.get(key), list):
            for i, sub in enumerate(schema[key]):
                yield from walk(sub, f"{path}/{key}/{i}")


def escape(key):
    return key.replace("~", "~0").replace("/", "~1")


def where(path):
    return path or "/"


def resolve_pointer(document, pointer):
    node = document
    for part in pointer.split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise KeyError(pointer)
    return node


def types_of(node):
    t = node.get("type")
    if isinstance(t, str):
        return {t}
    if isinstance(t, list):
        return set(t)
    return set()


def is_object_schema(node):
    return "object" in types_of(node) or (not types_of(node) and "properties" in node)


def ref_problems(schema, ref_key="$ref", defs_prefix="#/"):
    """Every `$ref` must resolve inside the schema itself; `#` (the whole parameters object) is an
    error: a recursive user type must refer to its own definition, not to the tool's arguments."""
    out = []
    nodes = walk(schema) if ref_key == "$ref" else walk_gemini(schema)
    for path, node in nodes:
        ref = node.get(ref_key)
        if ref is None:
            continue
        if not isinstance(ref, str):
            out.append(f"{where(path)}: `{ref_key}` is not a string")
        elif ref == "#":
            out.append(f'{where(path)}: `"{ref_key}": "#"` refers to the whole parameters object, not to a definition')
        elif not ref.startswith(defs_prefix):
            out.append(f"{where(path)}: `{ref_key}: {ref}` does not point inside the schema")
        else:
            try:
                resolve_pointer(schema, ref[1:])
            except KeyError:
                out.append(f"{where(path)}: `{ref_key}: {ref}` does not resolve")
    return out


def value_problems(schema):
    """`default`, `enum` and `const` values must fit their own schema."""
    out = []
    validator = jsonschema.Draft202012Validator(schema)
    for path, node in walk(schema):
        if "default" in node:
            rest = {k: v for k, v in node.items() if k != "default"}
            for e in validator.evolve(schema=rest).iter_errors(node["default"]):
                out.append(f"{where(path)}: default {json.dumps(node['default'], ensure_ascii=False)} is not valid here: {e.message}")
                break
        declared = {k: node[k] for k in ("type",) if k in node}
        if declared:
            typed = validator.evolve(schema=declared)
            for value in node.get("enum", []) if isinstance(node.get("enum"), list) else []:
                if not typed.is_valid(value):
                    out.append(f"{where(path)}: enum value {json.dumps(value, ensure_ascii=False)} is not of type {json.dumps(node['type'])}")
            if "const" in node and not typed.is_valid(node["const"]):
                out.append(f"{where(path)}: const {json.dumps(node['const'], ensure_ascii=False)} is not of type {json.dumps(node['type'])}")
    return out


def required_problems(schema, walker=None):
    out = []
    for path, node in (walker or walk)(schema):
        required, properties = node.get("required"), node.get("properties")
        if isinstance(required, list) and isinstance(properties, dict):
            for name in required:
                if name not in properties:
                    out.append(f"{where(path)}: `required` names `{name}`, which is not a property")
    return out


_METASCHEMA_VERDICTS = {}


def metaschema_error(schema):
    """The JSON Schema 2020-12 metaschema's objection to `schema`, or None; remembered by content
    (the same schema comes back in many dialects and both locales, and the check is slow)."""
    key = json.dumps(schema, sort_keys=True)
    if key not in _METASCHEMA_VERDICTS:
        try:
            jsonschema.Draft202012Validator.check_schema(schema)
            _METASCHEMA_VERDICTS[key] = None
        except jsonschema.SchemaError as e:
            _METASCHEMA_VERDICTS[key] = f"{'/' + '/'.join(str(p) for p in e.absolute_path)}: {e.message}"
    return _METASCHEMA_VERDICTS[key]


def json_schema_problems(schema):
    """The checks every JSON Schema dialect shares; returns {check: [messages]}."""
    problems = defaultdict(list)
    if not isinstance(schema, dict):
        problems["schema"].append(f"the parameters schema is {type(schema).__name__}, not an object")
        return problems
    error = metaschema_error(schema)
    if error:
        problems["schema"].append(f"metaschema: {error}")
        return problems
    if schema.get("type") != "object":
        problems["schema"].append(f"the root is not `type: object` (type: {json.dumps(schema.get('type'))})")
    problems["schema"] += ref_problems(schema)
    if problems["schema"]:
        return problems  # values and round trips need resolvable refs
    problems["schema"] += required_problems(schema)
    problems["schema"] += value_problems(schema)
    return problems


# --------------------------------------------------------------------------------------------
# OpenAI strict mode.
# --------------------------------------------------------------------------------------------

# The subset of JSON Schema that OpenAI's structured outputs (`strict: true`) accept. Source: the
# "Supported schemas" section of OpenAI's Structured Outputs guide (platform.openai.com, guides/
# structured-outputs), whose rules strict function calling shares. The list follows that guide as
# it read when this check was written. When OpenAI widens the subset, widen it here:
#   types string, number, integer, boolean, object, array, null (in a list of types), enum, anyOf;
#   string: pattern, format (the formats below); number/integer: multipleOf, maximum,
#   exclusiveMaximum, minimum, exclusiveMinimum; array: items, minItems, maxItems;
#   object: properties, required (every property), additionalProperties (false, always);
#   definitions with $defs and $ref; const; description and title as annotations.
# Not supported there: e.g. minLength/maxLength, uniqueItems, contains, patternProperties,
# propertyNames, min/maxProperties, allOf, not, if/then/else, dependent*, prefixItems, default.
# Limits: the root is an object (not anyOf), at most 10 levels of nesting, 5000 properties and
# 1000 enum values. openai-python's own strictifier (openai/lib/_pydantic.py) adds one rule: a
# `$ref` with sibling keywords is not accepted (it inlines such refs), and refs are `#/...`.
STRICT_KEYWORDS = {
    "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf",
    "$ref", "$defs", "definitions", "description", "title",
    "pattern", "format",
    "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
    "minItems", "maxItems",
}
STRICT_FORMATS = {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
STRICT_TYPES = {"string", "number", "integer", "boolean", "object", "array", "null"}
STRICT_MAX_DEPTH, STRICT_MAX_PROPERTIES, STRICT_MAX_ENUM = 10, 5000, 1000


def strict_problems(schema):
    out = []
    if not isinstance(schema, dict):
        return ["the parameters schema is not an object"]
    if "anyOf" in schema or schema.get("type") != "object":
        out.append("/: the root must be `type: object`, not a union")
    total_properties = 0
    for path, node in walk(schema):
        unknown = sorted(set(node) - STRICT_KEYWORDS)
        if unknown:
            out.append(f"{where(path)}: keyword(s) strict mode does not accept: {', '.join(unknown)}")
        bad_types = sorted(types_of(node) - STRICT_TYPES)
        if bad_types:
            out.append(f"{where(path)}: type(s) {bad_types} are not supported")
        if "format" in node and node["format"] not in STRICT_FORMATS:
            out.append(f"{where(path)}: format `{node['format']}` is not one strict mode supports")
        if "$ref" in node and len(node) > 1:
            out.append(f"{where(path)}: `$ref` has sibling keywords ({', '.join(sorted(k for k in node if k != '$ref'))})")
        if isinstance(node.get("enum"), list):
            if len(node["enum"]) > STRICT_MAX_ENUM:
                out.append(f"{where(path)}: {len(node['enum'])} enum values, more than {STRICT_MAX_ENUM}")
        if is_object_schema(node):
            properties = node.get("properties")
            if node.get("additionalProperties") is not False:
                out.append(f"{where(path)}: an object without `additionalProperties: false`")
            if not isinstance(properties, dict):
                out.append(f"{where(path)}: an object without `properties`")
                continue
            total_properties += len(properties)
            required = node.get("required")
            if not isinstance(required, list) or set(required) != set(properties):
                missing = sorted(set(properties) - set(required or []))
                out.append(f"{where(path)}: `required` must list every property (missing: {', '.join(missing) or '-'})")
        depth = path.count("/properties/") + path.count("/items")
        if depth > STRICT_MAX_DEPTH:
            out.append(f"{where(path)}: nested {depth} levels deep, more than {STRICT_MAX_DEPTH}")
    if total_properties > STRICT_MAX_PROPERTIES:
        out.append(f"{total_properties} properties in all, more than {STRICT_MAX_PROPERTIES}")
    return out


# --------------------------------------------------------------------------------------------
# Gemini.
# --------------------------------------------------------------------------------------------


def walk_gemini(schema, path=""):
    if not isinstance(schema, dict):
        return
    yield path, schema
    for key in ("properties", "defs"):
        if isinstance(schema.get(key), dict):
            for name, sub in schema[key].items():
                yield from walk_gemini(sub, f"{path}/{key}/{escape(name)}")
    if isinstance(schema.get("items"), dict):
        yield from walk_gemini(schema["items"], f"{path}/items")
    if isinstance(schema.get("additionalProperties"), dict):
        yield from walk_gemini(schema["additionalProperties"], f"{path}/additionalProperties")
    if isinstance(schema.get("anyOf"), list):
        for i, sub in enumerate(schema["anyOf"]):
            yield from walk_gemini(sub, f"{path}/anyOf/{i}")


def gemini_problems(parameters):
    """Rules the Gemini API enforces beyond the shape of its Schema type (each is an answer of the
    API, 400 INVALID_ARGUMENT, that users of the API have reported): the parameters are an OBJECT;
    `enum` is only allowed for STRING type; `properties` only for OBJECT type and, when present,
    "should be non-empty for OBJECT type"; a `required` name must be a property."""
    out = []
    if parameters is None:
        return out
    if str(parameters.get("type", "")).upper() != "OBJECT":
        out.append("/: the parameters must be `type: object`")
    for name in (parameters.get("properties") or {}):
        if not GEMINI_PARAMETER.fullmatch(name):
            out.append(f"parameter name `{name}` breaks Gemini's rule ^[a-zA-Z_][a-zA-Z0-9_]{{0,63}}$")
    for path, node in walk_gemini(parameters):
        kind = str(node.get("type", "")).upper()
        if "enum" in node and kind != "STRING":
            out.append(f"{where(path)}: `enum` is only allowed for STRING type (type: {node.get('type')})")
        if "properties" in node:
            if kind != "OBJECT":
                out.append(f"{where(path)}: `properties` is only allowed for OBJECT type (type: {node.get('type')})")
            elif not node["properties"]:
                out.append(f"{where(path)}: `properties` should be non-empty for OBJECT type")
    out += required_problems(parameters, walk_gemini)
    out += ref_problems(parameters, ref_key="ref", defs_prefix="#/defs/")
    return out


def gemini_to_json_schema(node):
    """Reads a Gemini (OpenAPI-subset) schema as JSON Schema, for the round trip: lower-case types,
    `nullable` as a `null` type (and a `null` enum value), `ref`/`defs` as `$ref`/`$defs`;
    `format`, `example` and `propertyOrdering` are annotations there and are left out."""
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key in ("type", "nullable", "format", "example", "propertyOrdering"):
            continue
        if key == "properties":
            out[key] = {k: gemini_to_json_schema(v) for k, v in value.items()}
        elif key == "defs":
            out["$defs"] = {k: gemini_to_json_schema(v) for k, v in value.items()}
        elif key == "ref":
            out["$ref"] = value.replace("#/defs/", "#/$defs/", 1)
        elif key in ("items", "additionalProperties"):
            out[key] = gemini_to_json_schema(value)
        elif key == "anyOf":
            out[key] = [gemini_to_json_schema(v) for v in value]
        else:
            out[key] = copy.deepcopy(value)
    nullable = node.get("nullable") is True
    if "type" in node:
        kind = str(node["type"]).lower()
        out["type"] = [kind, "null"] if nullable and kind != "null" else kind
        if nullable and isinstance(out.get("enum"), list) and None not in out["enum"]:
            out["enum"] = out["enum"] + [None]
    elif nullable:
        out = {"anyOf": [out, {"type": "null"}]}
    return out


# --------------------------------------------------------------------------------------------
# Round trip: argument objects made from the neutral schema.
# --------------------------------------------------------------------------------------------

FORMAT_SAMPLES = {
    "date-time": "2024-01-02T03:04:05Z", "date": "2024-01-02", "time": "03:04:05Z", "duration": "P1D",
    "email": "a@example.com", "idn-email": "a@example.com", "hostname": "example.com",
    "idn-hostname": "example.com", "ipv4": "192.0.2.1", "ipv6": "2001:db8::1",
    "uri": "https://example.com/a", "uri-reference": "/a", "iri": "https://example.com/a",
    "iri-reference": "/a", "uuid": "123e4567-e89b-12d3-a456-426614174000", "regex": "a+",
    "json-pointer": "/a", "relative-json-pointer": "0/a", "uri-template": "https://example.com/{a}",
}
NUMERIC_KEYWORDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")


def sample_for_pattern(pattern, variant=0):
    """A short string the regular expression matches, made from its parse tree (Python's own
    parser: the JSON Schema patterns toolhook emits are in the subset ECMA-262 and Python share).
    Each repeat takes its least count (one at least), each class and alternation its first choice;
    `variant` widens the repeats so that array items can differ. None when no sample is found."""
    try:
        from re import _constants as c, _parser as sre_parse  # Python 3.11+
    except ImportError:  # older Pythons
        import sre_constants as c
        import sre_parse

    def category(code):
        return {c.CATEGORY_DIGIT: "0", c.CATEGORY_WORD: "a", c.CATEGORY_SPACE: " ",
                c.CATEGORY_NOT_DIGIT: "a", c.CATEGORY_NOT_WORD: "-", c.CATEGORY_NOT_SPACE: "a"}.get(code, "a")

    def one_of(items):
        if items and items[0][0] == c.NEGATE:
            excluded = [x for x in items[1:]]
            for ch in "aA0_-. ":
                if not any(matches_item(x, ch) for x in excluded):
                    return ch
            return "~"
        op, av = items[0]
        if op == c.LITERAL:
            return chr(av)
        if op == c.RANGE:
            return chr(av[0])
        if op == c.CATEGORY:
            return category(av)
        return "a"

    def matches_item(item, ch):
        op, av = item
        if op == c.LITERAL:
            return ord(ch) == av
        if op == c.RANGE:
            return av[0] <= ord(ch) <= av[1]
        if op == c.CATEGORY:
            return re.fullmatch(re.escape(ch), category(av)) is not None
        return False

    groups = {}

    def emit(tokens):
        out = []
        for op, av in tokens:
            if op == c.LITERAL:
                out.append(chr(av))
            elif op == c.NOT_LITERAL:
                out.append("a" if av != ord("a") else "b")
            elif op == c.ANY:
                out.append("a")
            elif op == c.IN:
                out.append(one_of(av))
            elif op in (c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", None)):
                low, high, sub = av
                count = max(low, 1) + variant
                if high is not c.MAXREPEAT:
                    count = min(count, high)
                out.append(emit(sub) * count)
            elif op == c.SUBPATTERN:
                text = emit(av[-1])
                if av[0] is not None:
                    groups[av[0]] = text
                out.append(text)
            elif op == c.BRANCH:
                branches = av[1]
                out.append(emit(branches[variant % len(branches)]))
            elif op == c.GROUPREF:
                out.append(groups.get(av, ""))
            # AT (anchors), ASSERT, ASSERT_NOT: nothing to emit
        return "".join(out)

    try:
        text = emit(sre_parse.parse(pattern))
    except Exception:  # an unusual pattern: the caller reports that no sample was found
        return None
    return text if re.search(pattern, text) else None


class Generator:
    """Deterministic argument values for a neutral schema: `full` sends every optional property,
    otherwise only the required ones; `variant` picks other enum values and array lengths."""

    def __init__(self, root, full, variant=0):
        self.root, self.full, self.variant = root, full, variant
        self.validator = jsonschema.Draft202012Validator(root, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)

    def valid(self, schema, value):
        return self.validator.evolve(schema=schema).is_valid(value)

    def value(self, schema, depth=0):
        if depth > 12:
            raise ValueError("nested too deep to make a value")
        if schema is True or schema == {}:
            return "any"
        if not isinstance(schema, dict):
            raise ValueError(f"cannot make a value for {schema!r}")
        if "$ref" in schema:
            target = resolve_pointer(self.root, schema["$ref"][1:])
            merged = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
            return self.value(merged, depth + 1)
        if "const" in schema:
            return copy.deepcopy(schema["const"])
        if isinstance(schema.get("enum"), list) and schema["enum"]:
            values = [v for v in schema["enum"] if v is not None] or schema["enum"]
            ordered = values[self.variant % len(values):] + values[: self.variant % len(values)]
            for v in ordered:
                if self.valid(schema, v):
                    return copy.deepcopy(v)
            raise ValueError("no enum value fits the schema")
        for key in ("anyOf", "oneOf"):
            if isinstance(schema.get(key), list):
                rest = {k: v for k, v in schema.items() if k != key}
                branches = [b for b in schema[key] if not (isinstance(b, dict) and b.get("type") == "null")]
                branches = branches[self.variant % max(len(branches), 1):] + branches[: self.variant % max(len(branches), 1)]
                for branch in branches or schema[key]:
                    try:
                        candidate = self.value({**rest, **branch} if isinstance(branch, dict) else branch, depth + 1)
                    except ValueError:
                        continue
                    if self.valid(schema, candidate):
                        return candidate
                raise ValueError(f"no `{key}` branch gives a valid value")
        if isinstance(schema.get("allOf"), list):
            merged = {k: v for k, v in schema.items() if k != "allOf"}
            for branch in schema["allOf"]:
                for k, v in (branch.items() if isinstance(branch, dict) else []):
                    if k == "properties":
                        merged.setdefault("properties", {}).update(v)
                    elif k == "required":
                        merged["required"] = sorted(set(merged.get("required", [])) | set(v))
                    else:
                        merged.setdefault(k, v)
            return self.value(merged, depth + 1)
        declared = schema.get("type")
        kinds = declared if isinstance(declared, list) else [declared] if declared else []
        non_null = [t for t in kinds if t != "null"]
        if kinds and not non_null:
            return None
        if non_null:
            kind = non_null[0]
        elif "properties" in schema or "additionalProperties" in schema:
            kind = "object"
        elif "items" in schema or "prefixItems" in schema:
            kind = "array"
        else:
            return "any"  # an untyped schema takes any value
        return getattr(self, f"make_{kind}")(schema, depth)

    def make_string(self, schema, depth):
        if schema.get("format") in FORMAT_SAMPLES:
            return FORMAT_SAMPLES[schema["format"]]
        low, high = schema.get("minLength", 0), schema.get("maxLength", 10_000)
        if "pattern" in schema:
            text = sample_for_pattern(schema["pattern"], self.variant)
            if text is None or not low <= len(text) <= high:
                raise ValueError(f"no sample string matches the pattern {schema['pattern']!r}")
            return text
        word = "text" if self.variant == 0 else f"text{self.variant}"
        text = (word * (low // len(word) + 1))[: max(low, len(word))]
        return text[:high]

    def _number(self, schema, integer):
        bounds = {k: schema[k] for k in NUMERIC_KEYWORDS if k in schema}
        bounds["type"] = "integer" if integer else "number"
        low = schema.get("minimum", schema.get("exclusiveMinimum"))
        high = schema.get("maximum", schema.get("exclusiveMaximum"))
        step = schema.get("multipleOf") or (1 if integer else 0.5)
        start = 1 + self.variant
        if low is not None:
            start = low
        elif high is not None:
            start = min(start, high)
        first = math.ceil(start / step)
        for i in range(1000):
            value = round((first + i) * step, 10)
            if integer or float(value).is_integer():
                value = int(value) if float(value).is_integer() else value
            if self.valid(bounds, value):
                return value
            if high is not None and value > high:
                break
        raise ValueError(f"no number fits {json.dumps(bounds)}")

    def make_integer(self, schema, depth):
        return self._number(schema, True)

    def make_number(self, schema, depth):
        return self._number(schema, False)

    def make_boolean(self, schema, depth):
        return self.variant % 2 == 0

    def make_null(self, schema, depth):
        return None

    def make_array(self, schema, depth):
        count = schema.get("minItems", 0)
        if self.full and depth < 6:
            count = max(count, 1 + self.variant % 2)
        if "maxItems" in schema:
            count = min(count, schema["maxItems"])
        prefix = schema.get("prefixItems", [])
        out = []
        for i in range(count):
            item_schema = prefix[i] if i < len(prefix) else schema.get("items", {})
            if item_schema is False:
                break
            sub = Generator(self.root, self.full, self.variant + i)
            out.append(sub.value(item_schema, depth + 1))
        if schema.get("uniqueItems") and len({json.dumps(v, sort_keys=True) for v in out}) != len(out):
            raise ValueError("cannot make distinct array items")
        return out

    def make_object(self, schema, depth):
        properties = schema.get("properties", {}) or {}
        required = set(schema.get("required", []))
        out = {}
        for name, sub in properties.items():
            if name in required or (self.full and depth < 6):
                out[name] = self.value(sub, depth + 1)
        extra = schema.get("additionalProperties")
        if self.full and depth < 6 and isinstance(extra, dict) and extra:
            out["extra_key"] = self.value(extra, depth + 1)
        for name in required - set(out):
            if isinstance(extra, dict):
                out[name] = self.value(extra, depth + 1)
            else:
                out[name] = "any"
        return out


def arguments_for(neutral):
    """The argument objects of the round trip, each checked against the neutral schema."""
    made = []
    for full, variant in ((False, 0), (True, 0), (True, 1)):
        generator = Generator(neutral, full, variant)
        args = generator.value(neutral)
        errors = list(generator.validator.iter_errors(args))
        if errors:
            raise ValueError(f"made {json.dumps(args)[:200]}, which the neutral schema rejects: {errors[0].message}")
        if args not in [a for _, a in made]:
            made.append(("all optional fields" if full else "required fields only", args))
    return made


STRICT_MAP_VALUE_KEYS = ("type", "anyOf", "oneOf", "$ref", "enum", "const")


def is_strict_map(schema):
    """A map the strict dialects send as key/value pairs: any keys, values of a stated schema, no
    named properties."""
    values = schema.get("additionalProperties")
    return (
        isinstance(values, dict)
        and any(k in values for k in STRICT_MAP_VALUE_KEYS)
        and not schema.get("properties")
    )


def null_filled(value, schema, root):
    """`value` as a strict dialect's caller sends it: every optional property it leaves out sent as
    null, at every level (the neutral schema tells which properties exist), and every map as a list
    of {"key", "value"} pairs."""
    if not isinstance(schema, dict):
        return value
    if "$ref" in schema:
        target = resolve_pointer(root, schema["$ref"][1:])
        return null_filled(value, {**target, **{k: v for k, v in schema.items() if k != "$ref"}}, root)
    validator = jsonschema.Draft202012Validator(root)
    for key in ("anyOf", "oneOf", "allOf"):
        for branch in schema.get(key, []) if isinstance(schema.get(key), list) else []:
            if validator.evolve(schema=branch).is_valid(value) and key != "allOf":
                return null_filled(value, branch, root)
    if isinstance(value, dict) and is_strict_map(schema):
        values = schema["additionalProperties"]
        return [{"key": k, "value": null_filled(v, values, root)} for k, v in value.items()]
    if isinstance(value, dict):
        properties = schema.get("properties", {}) or {}
        out = {}
        for name, sub in properties.items():
            out[name] = null_filled(value[name], sub, root) if name in value else None
        for name in value:
            if name not in out:
                out[name] = value[name]
        return out
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [null_filled(v, schema["items"], root) for v in value]
    return value


# --------------------------------------------------------------------------------------------
# Per-dialect checks.
# --------------------------------------------------------------------------------------------


@dataclass
class Result:
    problems: dict = field(default_factory=lambda: defaultdict(list))

    def add(self, check, messages):
        for m in messages:
            self.problems[check].append(m)


def parameters_of(dialect, definition):
    if dialect == "neutral":
        return definition.get("parameters_schema")
    if dialect.startswith("openai-chat"):
        return (definition.get("function") or {}).get("parameters")
    if dialect.startswith("openai-responses") or dialect == "gemini":
        return definition.get("parameters")
    if dialect == "anthropic":
        return definition.get("input_schema")
    if dialect == "mcp":
        return definition.get("inputSchema")
    raise KeyError(dialect)


def check_types(official, dialect, d):
    if dialect == "neutral":
        expected = {"name": str, "description": str, "parameters_schema": dict}
        out = [f"unknown key `{k}`" for k in d if k not in expected]
        out += [f"`{k}` missing or not a {t.__name__}" for k, t in expected.items() if not isinstance(d.get(k), t)]
        return out
    if dialect.startswith("openai-chat"):
        out = type_errors(official.openai_chat, d)
        strict = (d.get("function") or {}).get("strict")
    elif dialect.startswith("openai-responses"):
        out = type_errors(official.openai_responses, d)
        strict = d.get("strict")
    elif dialect == "anthropic":
        out = type_errors(official.anthropic, d)
        schema = d.get("input_schema")
        if isinstance(schema, dict) and schema.get("type") != "object":
            out.append("input_schema: `type` must be `object`")
        for key in ("anyOf", "oneOf", "allOf"):
            if isinstance(schema, dict) and key in schema:
                out.append(f"input_schema: `{key}` is not accepted at the top level")
        return out
    elif dialect == "gemini":
        out = type_errors(official.gemini, d)
        if "parameters" in d and "parametersJsonSchema" in d:
            out.append("`parameters` and `parametersJsonSchema` are mutually exclusive")
        out += [f"Tool.functionDeclarations: {m}" for m in type_errors(official.gemini_tool, {"functionDeclarations": [d]})
                if not out]
        return out
    elif dialect == "mcp":
        out = [f"mcp.types.Tool: {m}" for m in type_errors(official.mcp, d)]
        for version, adapter in official.mcp_wire.items():
            out += [f"Tool@{version}: {m}" for m in type_errors(adapter, d)]
        return out
    else:
        raise KeyError(dialect)
    want = dialect.endswith("-strict")
    if dialect.startswith("openai-responses") and strict is not want:
        out.append(f"`strict` is {json.dumps(strict)}, the dialect sends {json.dumps(want)}")
    if dialect.startswith("openai-chat") and bool(strict) is not want:
        out.append(f"`strict` is {json.dumps(strict)}, the dialect sends {json.dumps(want)}")
    return out


def check_name(official, dialect, d):
    name = (d.get("function") or {}).get("name") if dialect.startswith("openai-chat") else d.get("name")
    if not isinstance(name, str):
        return ["no name"]
    if dialect.startswith("openai"):
        return [] if OPENAI_NAME.fullmatch(name) else [f"`{name}` breaks OpenAI's rule ^[a-zA-Z0-9_-]{{1,64}}$"]
    if dialect == "anthropic":
        return [] if ANTHROPIC_NAME.fullmatch(name) else [f"`{name}` breaks Anthropic's rule ^[a-zA-Z0-9_-]{{1,64}}$"]
    if dialect == "gemini":
        return [] if GEMINI_NAME.fullmatch(name) else [f"`{name}` breaks Gemini's rule ^[a-zA-Z_][a-zA-Z0-9_.:-]{{0,127}}$"]
    if dialect == "mcp":
        result = official.mcp_tool_name(name)
        return ([] if result.is_valid else [f"`{name}` is not a valid MCP tool name"]) + [f"`{name}`: {w}" for w in result.warnings]
    return []


def check_definition(official, entry):
    """All checks of one definition; {check: [messages]}."""
    dialect, d, neutral = entry["dialect"], entry["definition"], entry["parameters"]
    result = Result()
    result.add("types", check_types(official, dialect, d))
    result.add("name", check_name(official, dialect, d))
    name = (d.get("function") or {}).get("name") if dialect.startswith("openai-chat") else d.get("name")
    if name != entry["name"]:
        result.add("types", [f"the definition names `{name}`, the tool is `{entry['name']}`"])
    parameters = parameters_of(dialect, d)
    if dialect == "gemini":
        result.add("gemini", gemini_problems(parameters))
        as_json_schema = gemini_to_json_schema(parameters) if parameters is not None else None
        if as_json_schema is not None:
            error = metaschema_error(as_json_schema)
            if error:
                result.add("gemini", [f"read as JSON Schema, fails the metaschema: {error}"])
                as_json_schema = False
            else:
                result.add("gemini", [f"read as JSON Schema: {m}" for m in value_problems(as_json_schema)])
        target = as_json_schema
    else:
        if parameters is None:
            result.add("schema", ["no parameters schema"])
            return result
        for check, messages in json_schema_problems(parameters).items():
            result.add(check, messages)
        if dialect == "mcp" and "outputSchema" in d:
            for check, messages in json_schema_problems(d["outputSchema"]).items():
                result.add(check, [f"outputSchema: {m}" for m in messages])
        if dialect.endswith("-strict"):
            result.add("strict", strict_problems(parameters))
        target = parameters if not result.problems.get("schema") else False
    if target is False:
        return result
    result.add("round-trip", round_trip(dialect, neutral, target))
    return result


_ARGUMENTS = {}


def round_trip(dialect, neutral, target):
    key = json.dumps(neutral, sort_keys=True)
    if key not in _ARGUMENTS:
        if metaschema_error(neutral) or ref_problems(neutral):
            _ARGUMENTS[key] = "no arguments made: the neutral schema is broken (see the neutral dialect)"
        else:
            try:
                _ARGUMENTS[key] = arguments_for(neutral)
            except (ValueError, KeyError) as e:
                _ARGUMENTS[key] = f"cannot make arguments from the neutral schema: {e}"
    made = _ARGUMENTS[key]
    if isinstance(made, str):
        return [made]
    out = []
    validator = None if target is None else jsonschema.Draft202012Validator(target, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    for label, args in made:
        if dialect.endswith("-strict"):
            sent = null_filled(args, neutral, neutral)
        elif dialect == "gemini":
            sent = enum_strings(args, target)
        else:
            sent = args
        if validator is None:
            if sent != {}:
                out.append(f"{label}: {json.dumps(sent, ensure_ascii=False)[:120]} sent, but the definition declares no parameters")
            continue
        error = jsonschema.exceptions.best_match(validator.iter_errors(sent))
        if error is not None:
            at = "/" + "/".join(str(p) for p in error.absolute_path)
            sample = json.dumps(sent, ensure_ascii=False)
            sample = sample if len(sample) <= 160 else sample[:157] + "..."
            out.append(f"{label}: rejected at {at}: {error.message[:200]}; arguments sent: {sample}")
    return out


def enum_strings(value, gemini):
    """`value` as a Gemini caller sends it: a number or boolean where the Gemini schema (read as JSON
    Schema) has an enum of strings only (an enum of numbers, sent as its values' compact JSON) is
    sent as that string, at any depth; the registry turns it back into the value."""
    if not isinstance(gemini, dict):
        return value
    if isinstance(value, dict):
        properties = gemini.get("properties") or {}
        return {k: enum_strings(v, properties.get(k) or {}) for k, v in value.items()}
    if isinstance(value, list):
        items = gemini.get("items")
        return [enum_strings(v, items) for v in value] if isinstance(items, dict) else value
    strings = isinstance(gemini.get("enum"), list) and all(isinstance(e, str) for e in gemini["enum"] if e is not None)
    if strings and not isinstance(value, str) and value is not None:
        return json.dumps(value, separators=(",", ":"))
    return value


# --------------------------------------------------------------------------------------------
# Self-test: each check rejects what it must.
# --------------------------------------------------------------------------------------------

GOOD_PARAMETERS = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "description": "City."},
        "days": {"type": "integer", "default": 0, "minimum": 0},
        "node": {"$ref": "#/$defs/Node"},
    },
    "required": ["city"],
    "$defs": {"Node": {"type": "object", "properties": {"next": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]}},
                       "required": []}},
}
GOOD_STRICT = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "days": {"type": ["integer", "null"]}},
    "required": ["city", "days"],
    "additionalProperties": False,
}
GOOD = {
    "neutral": {"name": "weather", "description": "d", "parameters_schema": GOOD_PARAMETERS},
    "openai-chat": {"type": "function", "function": {"name": "weather", "description": "d", "parameters": GOOD_PARAMETERS}},
    "openai-chat-strict": {"type": "function", "function": {"name": "weather", "description": "d", "parameters": GOOD_STRICT, "strict": True}},
    "openai-responses": {"type": "function", "name": "weather", "description": "d", "parameters": GOOD_PARAMETERS, "strict": False},
    "openai-responses-strict": {"type": "function", "name": "weather", "description": "d", "parameters": GOOD_STRICT, "strict": True},
    "anthropic": {"name": "weather", "description": "d", "input_schema": GOOD_PARAMETERS},
    "gemini": {"name": "weather", "description": "d", "parameters": {
        "type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer", "nullable": True, "default": 0},
                                         "unit": {"type": "string", "enum": ["c", "f"]}}, "required": ["city"]}},
    "mcp": {"name": "weather", "title": "Weather", "description": "d", "inputSchema": GOOD_PARAMETERS,
            "outputSchema": {"type": "object", "properties": {"t": {"type": "number"}}},
            "annotations": {"readOnlyHint": True}, "icons": [{"src": "data:image/png;base64,AA==", "mimeType": "image/png"}]},
}
NEUTRAL_FOR = {d: (GOOD_PARAMETERS if d not in ("openai-chat-strict", "openai-responses-strict", "gemini") else
                   {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}, "required": ["city"]})
               for d in GOOD}


def mutate(value, path, new=None, delete=False):
    value = copy.deepcopy(value)
    node = value
    for part in path[:-1]:
        node = node[part]
    if delete:
        del node[path[-1]]
    else:
        node[path[-1]] = new
    return value


# (dialect, what, path in the definition, new value, the check that must fail)
BAD = [
    ("openai-chat", "an unknown top-level key", ["bogus"], 1, "types"),
    ("openai-chat", "an unknown key in `function`", ["function", "bogus"], 1, "types"),
    ("openai-chat", "`strict` as a string", ["function", "strict"], "true", "types"),
    ("openai-chat", "a name with a space", ["function", "name"], "get weather", "name"),
    ("openai-chat", '`"$ref": "#"`', ["function", "parameters", "properties", "node"], {"$ref": "#"}, "schema"),
    ("openai-chat", "a dangling `$ref`", ["function", "parameters", "properties", "node"], {"$ref": "#/$defs/Nope"}, "schema"),
    ("openai-chat", "a schema failing the metaschema", ["function", "parameters", "properties", "city", "type"], "text", "schema"),
    ("openai-chat", "a default of the wrong type", ["function", "parameters", "properties", "days", "default"], "zero", "schema"),
    ("openai-chat", "an enum value of the wrong type", ["function", "parameters", "properties", "city", "enum"], ["a", 1], "schema"),
    ("openai-chat", "a root that is not an object", ["function", "parameters", "type"], "array", "schema"),
    ("openai-chat", "a required name that is no property", ["function", "parameters", "required"], ["city", "ghost"], "schema"),
    ("openai-chat", "a property the round trip cannot send", ["function", "parameters", "properties", "city", "maxLength"], 1, "round-trip"),
    ("openai-chat-strict", "an object left open", ["function", "parameters", "additionalProperties"], True, "strict"),
    ("openai-chat-strict", "an optional property", ["function", "parameters", "required"], ["city"], "strict"),
    ("openai-chat-strict", "`minLength`", ["function", "parameters", "properties", "city", "minLength"], 1, "strict"),
    ("openai-chat-strict", "`default`", ["function", "parameters", "properties", "city", "default"], "x", "strict"),
    ("openai-chat-strict", "a `$ref` with a description", ["function", "parameters", "properties", "city"],
     {"$ref": "#/$defs/S", "description": "x"}, "strict"),
    ("openai-chat-strict", "`strict: false`", ["function", "strict"], False, "types"),
    ("openai-chat-strict", "a non-nullable optional property (round trip sends null)",
     ["function", "parameters", "properties", "days"], {"type": "integer"}, "round-trip"),
    ("openai-responses", "an unknown top-level key", ["bogus"], 1, "types"),
    ("openai-responses", "no `strict`", ["strict"], None, "types"),
    ("openai-responses-strict", "`strict: false`", ["strict"], False, "types"),
    ("openai-responses-strict", "`uniqueItems`", ["parameters", "properties", "city", "uniqueItems"], True, "strict"),
    ("anthropic", "an unknown top-level key", ["bogus"], 1, "types"),
    ("anthropic", "an unknown key in `cache_control`", ["cache_control"], {"type": "ephemeral", "bogus": 1}, "types"),
    ("anthropic", "`input_schema` not an object type", ["input_schema", "type"], "array", "types"),
    ("anthropic", "a name longer than 64", ["name"], "x" * 65, "name"),
    ("gemini", "an unknown top-level key", ["bogus"], 1, "types"),
    ("gemini", "an unknown key in a property schema", ["parameters", "properties", "city", "bogus"], 1, "types"),
    ("gemini", "a snake_case key (max_length)", ["parameters", "properties", "city", "max_length"], 3, "types"),
    ("gemini", "`exclusiveMinimum`", ["parameters", "properties", "days", "exclusiveMinimum"], 0, "types"),
    ("gemini", "`multipleOf`", ["parameters", "properties", "days", "multipleOf"], 2, "types"),
    ("gemini", "`uniqueItems`", ["parameters", "properties", "city", "uniqueItems"], True, "types"),
    ("gemini", "`parametersJsonSchema` next to `parameters`", ["parametersJsonSchema"], {"type": "object"}, "types"),
    ("gemini", "an integer enum", ["parameters", "properties", "days", "enum"], ["1", "2"], "gemini"),
    ("gemini", "a default outside a string enum", ["parameters", "properties", "unit", "default"], 1, "gemini"),
    ("gemini", "empty `properties` on an object", ["parameters", "properties", "city"], {"type": "object", "properties": {}}, "gemini"),
    ("gemini", "a name starting with a digit", ["name"], "1weather", "name"),
    ("gemini", "a parameter name with a dash", ["parameters", "properties", "city-name"], {"type": "string"}, "gemini"),
    ("mcp", "an unknown top-level key", ["bogus"], 1, "types"),
    ("mcp", "an unknown key in `annotations`", ["annotations", "bogus"], 1, "types"),
    ("mcp", "an unknown key in an icon", ["icons", 0, "bogus"], 1, "types"),
    ("mcp", "a snake_case key (input_schema)", ["input_schema"], {"type": "object"}, "types"),
    ("mcp", "an input schema that is not an object type", ["inputSchema", "type"], "array", "types"),
    ("mcp", "a name with a space", ["name"], "get weather", "name"),
    ("mcp", "a dangling `$ref` in the output schema", ["outputSchema", "properties", "t"], {"$ref": "#/$defs/T"}, "schema"),
    ("neutral", "an unknown key", ["bogus"], 1, "types"),
]


def self_test(official):
    """Returns the list of failures of the checker itself."""
    failures = []

    def entry(dialect, definition):
        name = (definition.get("function") or {}).get("name") if dialect.startswith("openai-chat") else definition.get("name")
        return {"name": name, "dialect": dialect, "locale": "en", "definition": definition, "parameters": NEUTRAL_FOR[dialect]}

    for dialect, definition in GOOD.items():
        problems = {k: v for k, v in check_definition(official, entry(dialect, definition)).problems.items() if v}
        if problems:
            failures.append(f"{dialect}: the good sample fails: {dict(problems)}")
    for dialect, what, path, new, check in BAD:
        definition = mutate(GOOD[dialect], path, new, delete=new is None)
        if dialect == "openai-chat-strict" and "$ref" in json.dumps(new):
            definition["function"]["parameters"]["$defs"] = {"S": {"type": "string"}}
        problems = check_definition(official, entry(dialect, definition)).problems
        if not problems.get(check):
            failures.append(f"{dialect}: {what} passed the `{check}` check")
    return failures


# --------------------------------------------------------------------------------------------
# Main: the report.
# --------------------------------------------------------------------------------------------

DIALECT_ORDER = ["neutral", "openai-chat", "openai-chat-strict", "openai-responses", "openai-responses-strict",
                 "anthropic", "gemini", "mcp"]
LOCALES = ["en", "zh-Hans"]


def rich_types_used(tools):
    """Tools whose neutral schema takes a user type: a definition under `$defs`, or a property that
    is itself an object with properties."""
    rich = set()
    for entry in tools:
        params = entry.get("parameters") or {}
        for path, node in walk(params):
            if path.startswith("/$defs/") or (path and is_object_schema(node) and node.get("properties")):
                rich.add(f"{entry['plugin']}::{entry['name']}")
                break
    return sorted(rich)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dump", help="the output of `demo --definitions-json` (`-` for stdin)")
    parser.add_argument("--verbose", "-v", action="store_true", help="list every definition checked")
    options = parser.parse_args()
    try:
        text = sys.stdin.read() if options.dump == "-" else open(options.dump, encoding="utf-8").read()
        dump = json.loads(text)
        tools, errors = dump["tools"], dump["errors"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"dialect check: cannot read the definitions: {e}")
        return 2

    official = Official()
    failures = self_test(official)
    if failures:
        print("dialect check: the checker's self-test failed (a check accepts what it must reject):")
        for f in failures:
            print(f"  {f}")
        return 3
    print(f"self-test: {len(GOOD)} good samples pass, {len(BAD)} bad ones are each rejected by their check")

    # (dialect, tool, check, message) -> locales
    found = defaultdict(list)
    checked = defaultdict(set)
    for entry in tools:
        result = check_definition(official, entry)
        key = f"{entry['plugin']}::{entry['name']}"
        checked[entry["dialect"]].add(key)
        for check, messages in result.problems.items():
            for message in messages:
                found[(entry["dialect"], key, check, message)].append(entry["locale"])
        if options.verbose:
            status = "FAIL" if any(result.problems.values()) else "ok"
            print(f"  {status:4} {entry['dialect']:24} {entry['locale']:8} {key}")

    fallbacks = defaultdict(set)  # (tool, reason) -> {(dialect, locale)}
    for error in errors:
        key = f"{error.get('plugin', '?')}::{error.get('name', '?')}"
        dialect = error.get("dialect")
        if dialect is None:
            found[("(all)", key, "spec", error.get("error", "?"))].append("-")
        elif dialect.endswith("-strict"):
            fallbacks[(key, error.get("error", "?"))].add((dialect, error.get("locale")))
        else:
            found[(dialect, key, "projection", error.get("error", "?"))].append(error.get("locale", "-"))

    rich = rich_types_used(tools)
    if not rich:
        found[("(all)", "(coverage)", "coverage",
               "no declared tool takes a user type (a `$defs` definition or a nested object): the example plugin of rich "
               "user types is missing from the dump, so its definitions were not checked")].append("-")

    plugins = sorted({e["plugin"] for e in tools})
    print(f"checked {len(tools)} definitions: {len({(e['plugin'], e['name']) for e in tools})} tools of "
          f"{len(plugins)} plugins ({', '.join(plugins)}) x {len(checked)} dialects x locales")
    print(f"tools taking user types: {', '.join(rich) if rich else 'none'}")
    failed_definitions = 0
    by_dialect = defaultdict(list)
    for (dialect, tool, check, message), locales in found.items():
        by_dialect[dialect].append((tool, check, message, locales))
    for dialect in DIALECT_ORDER + sorted(set(by_dialect) - set(DIALECT_ORDER)):
        rows = by_dialect.get(dialect, [])
        tools_here = checked.get(dialect, set())
        bad_tools = {tool for tool, *_ in rows}
        failed_definitions += len(bad_tools)
        verdict = "ok" if not rows else f"FAILED ({len(bad_tools)} of {len(tools_here) or '-'} tools)"
        print(f"\n== {dialect}: {verdict}")
        for tool, check, message, locales in sorted(rows, key=lambda r: (r[0], r[1], r[2])):
            where_ = "all locales" if sorted(locales) == LOCALES else ", ".join(sorted(set(locales)))
            print(f"  {tool} [{check}] ({where_}) {message}")
    if fallbacks:
        print("\nnot expressible in strict mode (a host sends these tools' non-strict definitions, checked above):")
        for (tool, reason), pairs in sorted(fallbacks.items()):
            dialects = ", ".join(sorted({d for d, _ in pairs}))
            locales = "all locales" if sorted({l for _, l in pairs}) == LOCALES else ", ".join(sorted({l for _, l in pairs}))
            print(f"  {tool} ({dialects}; {locales}): {reason}")
    problems = sum(len(v) for v in by_dialect.values())
    if problems:
        print(f"\ndialect check FAILED: {problems} problem(s) in {failed_definitions} tool/dialect pair(s)")
        return 1
    print(f"\ndialect check passed: {len(tools)} definitions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
