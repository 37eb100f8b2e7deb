//! One declared tool parameter, in the list form the Python SDK uses.

use serde_json::{Map, Value};

/// The JSON type of a declared parameter.
///
/// Serialises in lower case; `Float` stays `"float"` here but is `"number"` in the schema.
///
/// ```
/// use toolhook::ToolParamType;
///
/// assert_eq!(ToolParamType::Float.schema_type(), "number");
/// assert!(serde_json::from_str::<ToolParamType>("\"date\"").is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolParamType {
    /// A JSON string (the default).
    #[default]
    String,
    /// A JSON number without a fractional part.
    Integer,
    /// Any JSON number.
    Number,
    /// Any JSON number; kept apart from `Number` only for the Python SDK's declarations.
    Float,
    /// `true` or `false`.
    Boolean,
    /// A JSON array; needs an item schema.
    Array,
    /// A JSON object.
    Object,
}

impl ToolParamType {
    /// The JSON Schema `type` of this parameter type (`Float` ⇒ `"number"`).
    pub const fn schema_type(self) -> &'static str {
        match self {
            ToolParamType::String => "string",
            ToolParamType::Integer => "integer",
            ToolParamType::Number | ToolParamType::Float => "number",
            ToolParamType::Boolean => "boolean",
            ToolParamType::Array => "array",
            ToolParamType::Object => "object",
        }
    }
}

/// One parameter of a tool, as the Python SDK declares it (the list form of
/// [`ToolSpecBuilder::parameters`](crate::ToolSpecBuilder::parameters)).
///
/// The JSON field names are a contract with hosts and plugins written against the Python SDK;
/// unknown keys are ignored and `required` defaults to `true`. Fields meant for another
/// [`param_type`](Self::param_type) are ignored when the schema is rendered.
///
/// ```
/// use toolhook::{ToolParamType, ToolParameterInfo};
///
/// let unit = ToolParameterInfo::new("unit", ToolParamType::String)
///     .description("Temperature unit")
///     .enum_values(["celsius", "fahrenheit"])
///     .default("celsius")
///     .required(false);
/// let same: ToolParameterInfo = serde_json::from_value(serde_json::json!({
///     "name": "unit", "description": "Temperature unit",
///     "enum_values": ["celsius", "fahrenheit"], "default": "celsius", "required": false,
/// }))
/// .unwrap();
/// assert_eq!(unit, same);
/// ```
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ToolParameterInfo {
    /// The parameter's name in the schema.
    pub name: String,
    /// Its JSON type (default `string`).
    #[serde(default, deserialize_with = "super::nullable::or_default")]
    pub param_type: ToolParamType,
    /// Shown verbatim in the schema and trimmed in the generated docs.
    #[serde(default, deserialize_with = "super::nullable::or_default")]
    pub description: String,
    /// Whether the model must pass it (default `true`).
    #[serde(default = "default_true", deserialize_with = "super::nullable::or_true")]
    pub required: bool,
    /// The allowed values; `None` and `[]` both mean "any".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enum_values: Option<Vec<Value>>,
    /// The default value; JSON `null` means none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
    /// Arrays only: the schema of each item (must be a JSON object).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items_schema: Option<Value>,
    /// Objects only: the schemas of the object's properties.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub properties: Option<Map<String, Value>>,
    /// Objects only: the names of the required properties.
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "super::nullable::or_default")]
    pub required_properties: Vec<String>,
    /// Objects only: `true`, `false` or a schema for undeclared properties.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_properties: Option<Value>,
}

fn default_true() -> bool {
    true
}

impl ToolParameterInfo {
    /// A required parameter with no description.
    pub fn new(name: impl Into<String>, param_type: ToolParamType) -> Self {
        ToolParameterInfo {
            name: name.into(),
            param_type,
            description: String::new(),
            required: true,
            enum_values: None,
            default: None,
            items_schema: None,
            properties: None,
            required_properties: Vec::new(),
            additional_properties: None,
        }
    }

    /// Sets the description.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = description.into();
        self
    }

    /// Sets whether the parameter is required.
    pub fn required(mut self, required: bool) -> Self {
        self.required = required;
        self
    }

    /// Sets the allowed values.
    pub fn enum_values<V: Into<Value>>(mut self, values: impl IntoIterator<Item = V>) -> Self {
        self.enum_values = Some(values.into_iter().map(Into::into).collect());
        self
    }

    /// Sets the default value (`Value::Null` clears it).
    pub fn default(mut self, value: impl Into<Value>) -> Self {
        self.default = Some(value.into()).filter(|v| !v.is_null());
        self
    }

    /// Sets the item schema of an array parameter.
    pub fn items_schema(mut self, schema: Value) -> Self {
        self.items_schema = Some(schema);
        self
    }

    /// Sets the property schemas of an object parameter.
    pub fn properties(mut self, properties: Map<String, Value>) -> Self {
        self.properties = Some(properties);
        self
    }

    /// Sets the required property names of an object parameter.
    pub fn required_properties<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        self.required_properties = names.into_iter().map(Into::into).collect();
        self
    }

    /// Sets `additionalProperties` of an object parameter: `true`, `false` or a schema.
    pub fn additional_properties(mut self, value: impl Into<Value>) -> Self {
        self.additional_properties = Some(value.into());
        self
    }

    /// The enum values that count: `None` for absent or empty.
    pub(crate) fn effective_enum(&self) -> Option<&[Value]> {
        self.enum_values.as_deref().filter(|values| !values.is_empty())
    }

    /// The default that counts: `None` for absent or `null`.
    pub(crate) fn effective_default(&self) -> Option<&Value> {
        self.default.as_ref().filter(|value| !value.is_null())
    }
}
