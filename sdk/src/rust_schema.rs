//! Schemas of Rust types: schemars output cleaned for model APIs, and the
//! composition of a `#[tool]` whose parameter types are only known at run time.

use crate::shared::schema::{merge_property, object_schema};
use crate::{ToolSpec, ToolSpecBuilder, ToolSpecError};
use schemars::{JsonSchema, SchemaGenerator, generate::SchemaSettings};
use serde_json::{Map, Value};

/// Collects the schemas of Rust types for one tool, keeping the definitions of recursive types.
#[derive(Debug)]
pub struct SchemaCx {
    tool: &'static str,
    generator: SchemaGenerator,
    /// Definitions recursive types still refer to, kept at the schema root.
    defs: Map<String, Value>,
    error: Option<ToolSpecError>,
    parameter: &'static str,
    /// Schemas of what a tool returns: an `Option` field is written as `null` there, so its
    /// schema keeps taking `null`.
    output: bool,
}

impl SchemaCx {
    pub(crate) fn new(tool: &'static str) -> Self {
        let settings = SchemaSettings::draft2020_12();
        SchemaCx {
            tool,
            generator: settings.into_generator(),
            defs: Map::new(),
            error: None,
            parameter: "",
            output: false,
        }
    }

    /// The cleaned schema of `T`.
    pub fn schema<T: JsonSchema + ?Sized>(&mut self) -> Value {
        let root = self.generator.root_schema_for::<T>().to_value();
        match clean(root, &mut self.defs, self.output) {
            Ok(schema) => like_the_macro(schema),
            Err(detail) => {
                self.error.get_or_insert(ToolSpecError::UntypedParameter {
                    tool: self.tool.to_owned(),
                    parameter: self.parameter.to_owned(),
                    detail,
                });
                Value::Object(Map::new())
            }
        }
    }
}

/// Parameter schemas of types the macro could not recognise by path (an alias, a bare `Value` or
/// `Map` import) made equal to what the macro renders for the recognised ones:
/// a schema that accepts any JSON (`true`, or `{}` with at most a description, schemars' form of
/// `serde_json::Value`) becomes an open object, since untyped schemas are rejected by some model
/// APIs; a map (`{"type":"object","additionalProperties":…}` without `properties`) gets the
/// empty `properties` and `required` the macro writes.
fn like_the_macro(schema: Value) -> Value {
    let (values, description) = match &schema {
        Value::Bool(true) => (Value::Bool(true), None),
        Value::Object(map) if map.keys().all(|k| k == "description") => {
            (Value::Bool(true), map.get("description").cloned())
        }
        Value::Object(map)
            if map.get("type").and_then(Value::as_str) == Some("object")
                && !map.contains_key("properties")
                && map.keys().all(|k| matches!(k.as_str(), "type" | "description" | "additionalProperties")) =>
        {
            (map.get("additionalProperties").cloned().unwrap_or(Value::Bool(true)), map.get("description").cloned())
        }
        _ => return schema,
    };
    let mut object = map_of(values);
    if let (Some(description), Value::Object(map)) = (description, &mut object) {
        map.insert("description".into(), description);
    }
    object
}

/// `{"type":"array","items":items}`.
pub fn array_of(items: Value) -> Value {
    let mut map = Map::with_capacity(2);
    map.insert("type".into(), Value::from("array"));
    map.insert("items".into(), items);
    Value::Object(map)
}

/// `{"type":"object","properties":{},"required":[],"additionalProperties":values}`.
pub fn map_of(values: Value) -> Value {
    let mut schema = object_schema(Map::new(), Vec::new());
    if let Value::Object(map) = &mut schema {
        map.insert("additionalProperties".into(), values);
    }
    schema
}

/// Parses schema text the macro rendered.
pub fn static_schema(text: &'static str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| Value::Object(Map::new()))
}

/// Checks that a JSON value deserialises into a parameter's type.
pub type ValueCheck = fn(&Value) -> Result<(), String>;

/// One parameter of a `#[tool]` composed at run time.
#[derive(Debug)]
pub struct RustParam {
    /// Schema name.
    pub name: &'static str,
    /// Whether the model must pass it.
    pub required: bool,
    /// `#[param(description)]` or the `///` docs; `None` takes the type's doc comment.
    pub description: Option<&'static str>,
    /// `#[param(description_zh_hans)]`: the author's zh-Hans text.
    pub description_zh_hans: Option<&'static str>,
    /// `#[param(enum)]` values, as JSON text.
    pub enum_values: Option<&'static str>,
    /// `#[param(default)]`, as JSON text.
    pub default: Option<&'static str>,
    /// The type's schema before the parameter's own parts.
    pub schema: fn(&mut SchemaCx) -> Value,
    /// Checks that a value deserialises into the parameter type.
    pub check: Option<ValueCheck>,
}

/// Composes a tool whose parameter types are only known at run time: the cleaned schemas of its
/// parameter types, the parameters' own description, enum and default, then the builder.
pub fn compose(
    tool: &'static str,
    builder: ToolSpecBuilder,
    params: &[RustParam],
    output: Option<fn(&mut SchemaCx) -> Value>,
) -> Result<ToolSpec, ToolSpecError> {
    let mut cx = SchemaCx::new(tool);
    let mut properties = Map::with_capacity(params.len());
    let mut properties_zh = Map::new();
    let mut required = Vec::new();
    let mut documented = Vec::new();
    for param in params {
        cx.parameter = param.name;
        let base = (param.schema)(&mut cx);
        if base.as_object().and_then(crate::shared::schema::variant_docs).is_some() {
            documented.push(param.name.to_owned());
        }
        let enum_values = param.enum_values.map(static_schema);
        let default = param.default.map(static_schema);
        if let Some(check) = param.check {
            let values = enum_values.iter().flat_map(|v| v.as_array().into_iter().flatten().map(|v| ("enum", v)));
            for (what, value) in default.iter().map(|d| ("default", d)).chain(values) {
                if let Err(reason) = check(value) {
                    return Err(ToolSpecError::ValueDoesNotFit {
                        tool: tool.to_owned(),
                        parameter: param.name.to_owned(),
                        what,
                        value: value.to_string(),
                        reason,
                    });
                }
            }
        }
        let enum_values = enum_values.as_ref().and_then(Value::as_array).map(Vec::as_slice);
        let property = merge_property(&base, param.description, enum_values, default.as_ref());
        if params.iter().any(|p| p.description_zh_hans.is_some()) {
            let zh = match param.description_zh_hans {
                Some(text) => merge_property(&base, Some(text), enum_values, default.as_ref()),
                None => property.clone(),
            };
            properties_zh.insert(param.name.to_owned(), zh);
        }
        properties.insert(param.name.to_owned(), property);
        if param.required {
            required.push(Value::from(param.name));
        }
    }
    let output_schema = match output {
        Some(output) => {
            cx.parameter = "output";
            cx.output = true;
            let schema = output(&mut cx);
            match schema.get("type") {
                Some(Value::String(t)) if t == "object" => Some(schema),
                other => {
                    return Err(ToolSpecError::OutputSchemaNotObject {
                        tool: tool.to_owned(),
                        detail: other.map_or_else(|| "a schema without a type".to_owned(), |t| format!("type {t}")),
                    });
                }
            }
        }
        None => None,
    };
    if let Some(error) = cx.error.take() {
        return Err(error);
    }
    let translated = !properties_zh.is_empty();
    let mut schema = object_schema(properties, required.clone());
    let mut schema_zh = translated.then(|| object_schema(properties_zh, required));
    if !cx.defs.is_empty() {
        let defs = Value::Object(std::mem::take(&mut cx.defs));
        for schema in std::iter::once(&mut schema).chain(schema_zh.as_mut()) {
            if let Value::Object(map) = schema {
                map.insert("$defs".into(), defs.clone());
            }
        }
    }
    let mut builder = builder.parameters_raw(schema).__documented_values(documented);
    if let Some(zh) = schema_zh {
        builder = builder.parameters_raw_zh_hans(zh);
    }
    if let Some(output) = output_schema {
        builder = builder.output_schema(output);
    }
    builder.build()
}

/// Cleans a schemars root schema: refs inlined (recursive ones kept, their definitions moved to
/// `defs`), `$schema`, `title` and numeric `format` dropped, string-const unions made enums, and a
/// `oneOf`/`anyOf` without `type` given its branches' common type. Errors name what has no single
/// type.
pub(crate) fn clean_root(root: Value, defs: &mut Map<String, Value>) -> Result<Value, String> {
    clean(root, defs, false)
}

fn clean(mut root: Value, defs: &mut Map<String, Value>, output: bool) -> Result<Value, String> {
    let mut local_defs = match &mut root {
        Value::Object(map) => match map.shift_remove("$defs") {
            Some(Value::Object(d)) => d,
            _ => Map::new(),
        },
        _ => Map::new(),
    };
    // A recursive type at the root refers to itself as `#`; once its schema is placed under a
    // tool's properties, `#` would mean the tool's parameters. It becomes a definition of its own.
    if refers_to_root(&root) {
        let name = root.get("title").and_then(Value::as_str).unwrap_or("Recursive").to_owned();
        let reference = format!("#/$defs/{name}");
        retarget_root_refs(&mut root, &reference);
        for def in local_defs.values_mut() {
            retarget_root_refs(def, &reference);
        }
        local_defs.insert(name, root);
        root = Value::Object(Map::from_iter([("$ref".to_owned(), Value::from(reference))]));
    }
    let mut cleaner = Cleaner { defs: &local_defs, stack: Vec::new(), recursive: Map::new(), output };
    let cleaned = cleaner.clean(&root);
    let recursive = std::mem::take(&mut cleaner.recursive);
    for (name, def) in recursive {
        defs.entry(name).or_insert(def);
    }
    require_single_type(&cleaned)?;
    Ok(cleaned)
}

/// Whether a schema refers to its own root (`"$ref": "#"`).
fn refers_to_root(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.iter().any(|(k, v)| (k == "$ref" && v == "#") || refers_to_root(v)),
        Value::Array(items) => items.iter().any(refers_to_root),
        _ => false,
    }
}

fn retarget_root_refs(schema: &mut Value, reference: &str) {
    match schema {
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                if key == "$ref" && value == "#" {
                    *value = Value::from(reference);
                } else {
                    retarget_root_refs(value, reference);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| retarget_root_refs(v, reference)),
        _ => {}
    }
}

struct Cleaner<'a> {
    defs: &'a Map<String, Value>,
    stack: Vec<String>,
    recursive: Map<String, Value>,
    /// An output schema: optional fields keep their `null` (serde writes `None` as `null`).
    output: bool,
}

impl Cleaner<'_> {
    fn clean(&mut self, schema: &Value) -> Value {
        let Value::Object(map) = schema else {
            return schema.clone();
        };
        if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
            let name = reference.rsplit('/').next().unwrap_or(reference).to_owned();
            if self.stack.contains(&name) {
                if !self.recursive.contains_key(&name)
                    && let Some(def) = self.defs.get(&name)
                {
                    // Reserve the slot first so the definition's own refs stop here.
                    self.recursive.insert(name.clone(), Value::Null);
                    let cleaned = self.clean_def(&name, def);
                    self.recursive.insert(name.clone(), cleaned);
                }
                let mut out = Map::new();
                out.insert("$ref".into(), Value::from(format!("#/$defs/{name}")));
                return Value::Object(out);
            }
            if let Some(def) = self.defs.get(&name) {
                let mut inlined = self.clean_def(&name, def);
                if let Value::Object(inlined_map) = &mut inlined {
                    // The field's own doc replaces the type's, but not its values' docs.
                    let value_docs = crate::shared::schema::variant_docs(inlined_map);
                    for (key, value) in map {
                        if key != "$ref" && key != "title" {
                            let value = self.clean(value);
                            inlined_map.insert(key.clone(), value);
                        }
                    }
                    if let (Some(list), Some(Value::String(own))) = (value_docs, inlined_map.get_mut("description"))
                        && !own.contains(&list)
                    {
                        own.push('\n');
                        own.push_str(&list);
                    }
                }
                return inlined;
            }
        }
        let mut out = Map::with_capacity(map.len());
        for (key, value) in map {
            match key.as_str() {
                "$schema" | "title" | "$defs" => {}
                "format" if is_numeric(map) => {}
                "properties" | "patternProperties" => {
                    let cleaned =
                        value.as_object().map(|p| p.iter().map(|(k, v)| (k.clone(), self.clean(v))).collect());
                    out.insert(key.clone(), cleaned.map_or_else(|| value.clone(), Value::Object));
                }
                "items" | "additionalProperties" | "not" | "contains" | "propertyNames" => {
                    out.insert(key.clone(), self.clean(value));
                }
                "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                    let cleaned = value.as_array().map(|b| b.iter().map(|x| self.clean(x)).collect());
                    out.insert(key.clone(), cleaned.map_or_else(|| value.clone(), Value::Array));
                }
                _ => {
                    out.insert(key.clone(), value.clone());
                }
            }
        }
        if !self.output {
            strip_optional_nulls(&mut out);
        }
        let out = const_union_to_enum(out);
        Value::Object(add_common_branch_type(out))
    }

    fn clean_def(&mut self, name: &str, def: &Value) -> Value {
        self.stack.push(name.to_owned());
        let cleaned = self.clean(def);
        self.stack.pop();
        cleaned
    }
}

fn is_numeric(map: &Map<String, Value>) -> bool {
    let numeric = |t: &Value| t == "integer" || t == "number";
    match map.get("type") {
        Some(Value::Array(types)) => types.iter().any(numeric),
        Some(t) => numeric(t),
        None => false,
    }
}

/// `Option` fields of structs: schemars adds a `null` type; toolhook's schemas leave optional
/// properties out of `required` instead.
fn strip_optional_nulls(map: &mut Map<String, Value>) {
    let required: Vec<String> = map
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default();
    let Some(Value::Object(properties)) = map.get_mut("properties") else {
        return;
    };
    for (key, prop) in properties.iter_mut() {
        if required.contains(key) {
            continue;
        }
        let Value::Object(prop_map) = prop else {
            continue;
        };
        if let Some(Value::Array(types)) = prop_map.get_mut("type")
            && types.iter().any(|t| t == "null")
        {
            types.retain(|t| t != "null");
            if types.len() == 1 {
                let single = types.remove(0);
                prop_map.insert("type".into(), single);
            }
            if let Some(Value::Array(values)) = prop_map.get_mut("enum") {
                values.retain(|v| !v.is_null());
            }
            continue;
        }
        for keyword in ["anyOf", "oneOf"] {
            let Some(Value::Array(branches)) = prop_map.get(keyword) else {
                continue;
            };
            let is_null = |b: &Value| b.get("type") == Some(&Value::from("null"));
            if branches.len() == 2 && branches.iter().filter(|b| is_null(b)).count() == 1 {
                let kept = branches.iter().find(|b| !is_null(b)).cloned().unwrap_or(Value::Null);
                let mut merged = kept.as_object().cloned().unwrap_or_default();
                for (k, v) in prop_map.iter() {
                    if k != keyword {
                        merged.insert(k.clone(), v.clone());
                    }
                }
                *prop = Value::Object(merged);
                break;
            }
        }
    }
}

/// `oneOf`/`anyOf` of string constants (documented unit variants) → `{"type":"string","enum":[…]}`,
/// the variants' doc comments appended to the description as a list (an `enum` is what every
/// model API takes and every model fills; the list is how each value's meaning reaches it);
/// an untyped all-string `enum` gains `"type":"string"`.
fn const_union_to_enum(map: Map<String, Value>) -> Map<String, Value> {
    for keyword in ["oneOf", "anyOf"] {
        let Some(Value::Array(branches)) = map.get(keyword) else {
            continue;
        };
        let consts: Option<Vec<Value>> = branches
            .iter()
            .map(|b| {
                let c = b
                    .get("const")
                    .or_else(|| b.get("enum").and_then(|e| e.as_array().filter(|a| a.len() == 1)?.first()));
                c.filter(|c| c.is_string()).cloned()
            })
            .collect();
        if let Some(values) = consts.filter(|v| !v.is_empty()) {
            let documented: Vec<String> = values
                .iter()
                .zip(branches)
                .filter_map(|(value, branch)| {
                    let doc = branch.get("description").and_then(Value::as_str)?.trim();
                    (!doc.is_empty()).then(|| format!("- {}: {doc}", value.as_str().unwrap_or_default()))
                })
                .collect();
            let mut out = Map::with_capacity(map.len() + 2);
            out.insert("type".into(), Value::from("string"));
            for (key, value) in &map {
                if key == keyword {
                    out.insert("enum".into(), Value::Array(values.clone()));
                } else if key != "type" {
                    out.insert(key.clone(), value.clone());
                }
            }
            if !documented.is_empty() {
                let list = documented.join("\n");
                let description = match out.get("description").and_then(Value::as_str).map(str::trim) {
                    Some(own) if !own.is_empty() => format!("{own}\n{list}"),
                    _ => list,
                };
                out.insert("description".into(), Value::from(description));
            }
            return out;
        }
    }
    if !map.contains_key("type")
        && let Some(Value::Array(values)) = map.get("enum")
        && !values.is_empty()
        && values.iter().all(Value::is_string)
    {
        let mut out = Map::with_capacity(map.len() + 1);
        out.insert("type".into(), Value::from("string"));
        out.extend(map);
        return out;
    }
    map
}

/// A `oneOf`/`anyOf` without `type` whose branches all have one `type` gets it, first.
fn add_common_branch_type(map: Map<String, Value>) -> Map<String, Value> {
    if map.contains_key("type") {
        return map;
    }
    for keyword in ["oneOf", "anyOf"] {
        let Some(Value::Array(branches)) = map.get(keyword) else {
            continue;
        };
        if let Some(common) = common_type(branches) {
            let mut out = Map::with_capacity(map.len() + 1);
            out.insert("type".into(), common);
            out.extend(map);
            return out;
        }
    }
    map
}

fn common_type(branches: &[Value]) -> Option<Value> {
    let first = branches.first()?.get("type")?;
    branches.iter().all(|b| b.get("type") == Some(first)).then(|| first.clone())
}

/// A parameter (or output) schema must have one JSON type.
fn require_single_type(schema: &Value) -> Result<(), String> {
    let Some(map) = schema.as_object() else {
        return Ok(());
    };
    if map.contains_key("type") || map.contains_key("$ref") {
        return Ok(());
    }
    for keyword in ["oneOf", "anyOf"] {
        if let Some(Value::Array(branches)) = map.get(keyword) {
            let types: Vec<String> =
                branches.iter().map(|b| b.get("type").map_or_else(|| "untyped".to_owned(), Value::to_string)).collect();
            return Err(format!("`{keyword}` branches of types {}", types.join(", ")));
        }
    }
    // `{}` (any JSON) and other untyped schemas are accepted as they are.
    Ok(())
}
