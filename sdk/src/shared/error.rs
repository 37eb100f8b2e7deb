//! Why a tool declaration cannot become a [`ToolSpec`](crate::ToolSpec).

/// A tool declaration that cannot be built, naming the tool and, where one is at fault, the
/// parameter.
///
/// Returned by [`ToolSpecBuilder::build`](crate::ToolSpecBuilder::build),
/// [`ToolSpec::from_action`](crate::ToolSpec::from_action), and by the registry when it composes
/// a `#[tool]` whose types are checked at run time.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ToolSpecError {
    /// The tool name is empty or only whitespace.
    #[error("tool name must not be empty")]
    BlankName,
    /// The tool name starts or ends with whitespace.
    #[error("tool name `{name}` must not start or end with whitespace")]
    PaddedName {
        /// The name as given.
        name: String,
    },
    /// Both `.parameters(..)` and `.parameters_raw(..)` were given.
    #[error("tool `{tool}`: give either a parameter list or a raw parameter schema, not both")]
    BothParameterForms {
        /// The tool.
        tool: String,
    },
    /// A parameter name is empty or only whitespace.
    #[error("tool `{tool}`: parameter name must not be empty")]
    BlankParameterName {
        /// The tool.
        tool: String,
    },
    /// A parameter name starts or ends with whitespace.
    #[error("tool `{tool}`: parameter name `{parameter}` must not start or end with whitespace")]
    PaddedParameterName {
        /// The tool.
        tool: String,
        /// The parameter name as given.
        parameter: String,
    },
    /// Two parameters share one name.
    #[error("tool `{tool}`: parameter `{parameter}` is declared twice")]
    DuplicateParameter {
        /// The tool.
        tool: String,
        /// The repeated name.
        parameter: String,
    },
    /// An array parameter has no item schema.
    #[error("tool `{tool}`: array parameter `{parameter}` needs an item schema (`items_schema` or `items`)")]
    ArrayWithoutItems {
        /// The tool.
        tool: String,
        /// The parameter.
        parameter: String,
    },
    /// An item schema is not a JSON object.
    #[error("tool `{tool}`: the item schema of parameter `{parameter}` must be a JSON object")]
    ItemsSchemaNotObject {
        /// The tool.
        tool: String,
        /// The parameter.
        parameter: String,
    },
    /// `additional_properties` is neither a bool nor a schema object.
    #[error("tool `{tool}`: `additional_properties` of parameter `{parameter}` must be true, false or a schema object")]
    BadAdditionalProperties {
        /// The tool.
        tool: String,
        /// The parameter.
        parameter: String,
    },
    /// The raw parameter schema is not a JSON object.
    #[error("tool `{tool}`: the raw parameter schema must be a JSON object")]
    RawSchemaNotObject {
        /// The tool.
        tool: String,
    },
    /// The raw parameter schema has a `type` that is neither `"object"` nor a property schema.
    #[error("tool `{tool}`: the raw parameter schema must have type \"object\" (or be a map of parameter schemas)")]
    RawSchemaNotObjectType {
        /// The tool.
        tool: String,
    },
    /// A platform name is empty or only whitespace.
    #[error("tool `{tool}`: platform names must not be empty")]
    BlankPlatform {
        /// The tool.
        tool: String,
    },
    /// A Rust type whose schema has no single JSON type.
    #[error(
        "tool `{tool}`: parameter `{parameter}` has no single JSON type ({detail}); give the enum one representation, e.g. #[serde(tag = \"type\")]"
    )]
    UntypedParameter {
        /// The tool.
        tool: String,
        /// The parameter (`output` for the output schema).
        parameter: String,
        /// What the schema holds instead.
        detail: String,
    },
    /// A `default` or `enum` value that does not deserialise into the parameter's type.
    #[error("tool `{tool}`: {what} value {value} of parameter `{parameter}` does not fit its type: {reason}")]
    ValueDoesNotFit {
        /// The tool.
        tool: String,
        /// The parameter.
        parameter: String,
        /// `default` or `enum`.
        what: &'static str,
        /// The value, as compact JSON.
        value: String,
        /// The deserialisation error.
        reason: String,
    },
    /// A `Json<T>` output whose schema is not an object schema.
    #[error("tool `{tool}`: the output schema must describe a JSON object, got {detail}")]
    OutputSchemaNotObject {
        /// The tool.
        tool: String,
        /// What the schema describes instead.
        detail: String,
    },
    /// A command pattern token whose type does not fit its parameter.
    #[error("tool `{tool}`: command token `{token}` does not fit parameter `{parameter}`: {reason}")]
    CommandToken {
        /// The tool.
        tool: String,
        /// The parameter.
        parameter: String,
        /// The token as written.
        token: String,
        /// Why it does not fit.
        reason: String,
    },
}
