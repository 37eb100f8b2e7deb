//! The immutable description of one tool, and the builder that makes one.

use crate::shared::action::{ActionInfo, render_action};
use crate::shared::docs;
use crate::shared::schema::{schema_from_list, schema_from_raw};
use crate::{
    ChatScope, Dialect, Locale, PermissionLevel, ProjectionError, ToolAnnotation, ToolIcon, ToolParameterInfo,
    ToolSpecError, Visibility,
};
use serde_json::{Map, Value};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// Everything a host and a model need to know about one tool: its name, model-visible texts in
/// both locales, its parameters schema, and its access rules.
///
/// Immutable and cheap to clone (the data is shared). Build one with [`ToolSpec::builder`], from a
/// legacy action with [`ToolSpec::from_action`], or let `#[tool]` declare it.
///
/// ```
/// use toolhook::{Locale, ToolParamType, ToolParameterInfo, ToolSpec, Visibility};
///
/// let spec = ToolSpec::builder("weather")
///     .brief_description("Look up the weather")
///     .parameters(vec![
///         ToolParameterInfo::new("city", ToolParamType::String).description("City name"),
///         ToolParameterInfo::new("days", ToolParamType::Integer).default(3).required(false),
///     ])
///     .core_tool(true)
///     .build()?;
/// assert_eq!(spec.visibility(), Visibility::Visible);
/// assert_eq!(spec.description(Locale::En), "Look up the weather");
/// assert_eq!(
///     spec.detailed_description(Locale::En),
///     "Parameter details:\n- city: string, required. City name\n- days: integer, optional. No description. Default: 3"
/// );
/// assert_eq!(spec.parameters_schema()["required"], serde_json::json!(["city"]));
/// # Ok::<(), toolhook::ToolSpecError>(())
/// ```
#[derive(Clone, Debug)]
pub struct ToolSpec {
    /// What a registry's listed copy changes.
    ident: Arc<Identity>,
    /// What every copy shares.
    content: Arc<Content>,
}

#[derive(Clone, Debug)]
struct Identity {
    name: String,
    provider_name: String,
    provider_type: String,
    enabled: bool,
    visibility: Visibility,
    metadata: Map<String, Value>,
}

#[derive(Debug)]
struct Content {
    title: String,
    brief: [Text; 2],
    detailed: [Text; 2],
    schema: Schema,
    schema_zh: Option<Value>,
    output_schema: Option<Value>,
    platforms: Vec<String>,
    permission: PermissionLevel,
    scopes: Vec<ChatScope>,
    icons: Vec<ToolIcon>,
    annotation: ToolAnnotation,
    timeout: Option<Duration>,
    deny_unknown_args: bool,
}

/// A text of a spec: rendered at compile time (shared, never copied) or at run time.
type Text = std::borrow::Cow<'static, str>;

/// A parameters schema: built at run time, or the text `#[tool]` rendered at compile time,
/// parsed on first use (once per process: every copy of a declared tool shares its content), so
/// collecting and listing tools parses no schema that nobody reads.
#[derive(Clone, Debug)]
enum Schema {
    Built(Value),
    Text { text: &'static str, parsed: OnceLock<Value> },
}

impl Schema {
    fn get(&self) -> &Value {
        match self {
            Schema::Built(schema) => schema,
            Schema::Text { text, parsed } => parsed.get_or_init(|| crate::rust_schema::static_schema(text)),
        }
    }

    /// The compile-time text, if the schema is one: `serde_json`'s compact form of a value, so
    /// what serialising [`get`](Self::get) writes, byte for byte (`float_roundtrip` makes every
    /// number read back as written). One exception cannot come from `#[tool]`, whose schemas
    /// refer to nested types through `$defs`: a text nested deeper than `serde_json` parses (128
    /// levels) reads as `{}`, and the text is then the schema as written.
    fn text(&self) -> Option<&'static str> {
        match self {
            Schema::Built(_) => None,
            Schema::Text { text, .. } => Some(text),
        }
    }
}

impl SpecData {
    fn into_spec(self) -> ToolSpec {
        ToolSpec {
            ident: Arc::new(Identity {
                name: self.name,
                provider_name: self.provider_name,
                provider_type: self.provider_type,
                enabled: self.enabled,
                visibility: self.visibility,
                metadata: self.metadata,
            }),
            content: Arc::new(Content {
                title: self.title,
                brief: self.brief,
                detailed: self.detailed,
                schema: self.schema,
                schema_zh: self.schema_zh,
                output_schema: self.output_schema,
                platforms: self.platforms,
                permission: self.permission,
                scopes: self.scopes,
                icons: self.icons,
                annotation: self.annotation,
                timeout: self.timeout,
                deny_unknown_args: self.deny_unknown_args,
            }),
        }
    }
}

/// Everything a spec holds, while it is being built.
#[derive(Clone, Debug)]
struct SpecData {
    name: String,
    title: String,
    brief: [Text; 2],
    detailed: [Text; 2],
    schema: Schema,
    /// The zh-Hans schema when it differs from the default one (legacy actions, built-ins).
    schema_zh: Option<Value>,
    output_schema: Option<Value>,
    provider_name: String,
    provider_type: String,
    enabled: bool,
    visibility: Visibility,
    platforms: Vec<String>,
    permission: PermissionLevel,
    scopes: Vec<ChatScope>,
    icons: Vec<ToolIcon>,
    annotation: ToolAnnotation,
    metadata: Map<String, Value>,
    timeout: Option<Duration>,
    deny_unknown_args: bool,
}

impl ToolSpec {
    /// Starts building a tool called `name`.
    pub fn builder(name: impl Into<String>) -> ToolSpecBuilder {
        ToolSpecBuilder::new(name.into())
    }

    /// Converts a legacy (SDK 1.x) action declaration into a tool, as the Python SDK's host did:
    /// every parameter an optional string, the activation fields kept as metadata, and a generated
    /// detailed text in each locale. The only error is a blank name; a padded name is trimmed.
    ///
    /// Logs one `tracing` warning per action name, asking for a `#[tool]` declaration.
    ///
    /// ```
    /// use toolhook::{ActionInfo, Locale, ToolSpec};
    ///
    /// let mut info = ActionInfo::new("poke");
    /// info.description = "Poke a user".into();
    /// info.action_parameters.insert("target".into(), "User ID".into());
    /// let spec = ToolSpec::from_action(info)?;
    /// assert_eq!(
    ///     spec.detailed_description(Locale::En),
    ///     "Parameter details:\n- target: string, optional. User ID\n\nLegacy action activation: always."
    /// );
    /// assert_eq!(spec.metadata()["legacy_action"], true);
    ///
    /// assert_eq!(ToolSpec::from_action(ActionInfo::new(" poke "))?.name(), "poke");
    /// assert!(ToolSpec::from_action(ActionInfo::new("  ")).is_err());
    /// # Ok::<(), toolhook::ToolSpecError>(())
    /// ```
    pub fn from_action(mut info: ActionInfo) -> Result<ToolSpec, ToolSpecError> {
        if info.name.trim().is_empty() {
            return Err(ToolSpecError::BlankName);
        }
        // Legacy declarations written by hand may pad the name; the tool takes it trimmed.
        if info.name.trim() != info.name {
            info.name = info.name.trim().to_owned();
        }
        warn_legacy_action_once(&info.name);
        let rendered = render_action(&info);
        let [schema, schema_zh] = rendered.schema;
        let schema_zh = (schema_zh != schema).then_some(schema_zh);
        let mut data = SpecData::new(info.name);
        data.brief = rendered.brief.map(Text::Owned);
        data.detailed = rendered.detailed.map(Text::Owned);
        data.schema = Schema::Built(schema);
        data.schema_zh = schema_zh;
        data.visibility = rendered.visibility;
        data.metadata = rendered.metadata;
        Ok(data.into_spec())
    }

    /// The tool's name (for a listed copy: the registry name).
    pub fn name(&self) -> &str {
        &self.ident.name
    }

    /// A human-readable title, or `""`.
    pub fn title(&self) -> &str {
        &self.content.title
    }

    /// The brief the model sees in its tool definitions.
    pub fn description(&self, locale: Locale) -> &str {
        &self.content.brief[locale.index()]
    }

    /// The detailed description: the generated parameter block and the author's text.
    pub fn detailed_description(&self, locale: Locale) -> &str {
        &self.content.detailed[locale.index()]
    }

    /// The canonical parameters schema (an object schema, declaration order kept) in the default
    /// locale.
    pub fn parameters_schema(&self) -> &Value {
        self.content.schema.get()
    }

    /// The parameters schema in a locale; differs from [`parameters_schema`](Self::parameters_schema)
    /// only for tools with localised parameter texts (legacy actions, `tool_search`).
    pub fn parameters_schema_for(&self, locale: Locale) -> &Value {
        match (locale, &self.content.schema_zh) {
            (Locale::ZhHans, Some(schema)) => schema,
            _ => self.content.schema.get(),
        }
    }

    /// [`parameters_schema_for`](Self::parameters_schema_for) as the JSON text `#[tool]` rendered
    /// at compile time, if it is that text (serialising the schema writes the same bytes).
    pub(crate) fn parameters_schema_text_for(&self, locale: Locale) -> Option<&'static str> {
        match (locale, &self.content.schema_zh) {
            (Locale::ZhHans, Some(_)) => None,
            _ => self.content.schema.text(),
        }
    }

    /// The schema of the tool's structured output, if declared (`Json<T>` returns).
    pub fn output_schema(&self) -> Option<&Value> {
        self.content.output_schema.as_ref()
    }

    /// The provider that serves the tool, or `""` before a provider lists it.
    pub fn provider_name(&self) -> &str {
        &self.ident.provider_name
    }

    /// The kind of provider (`builtin`, `plugin`, `mcp`, …), or `""`.
    pub fn provider_type(&self) -> &str {
        &self.ident.provider_type
    }

    /// Whether the tool may be listed: false when hidden or switched off.
    pub fn enabled(&self) -> bool {
        self.ident.enabled && self.ident.visibility != Visibility::Hidden
    }

    /// Whether the tool is visible, deferred or hidden.
    pub fn visibility(&self) -> Visibility {
        self.ident.visibility
    }

    /// The platforms it is available on (trimmed, lower-cased); empty means any.
    pub fn platforms(&self) -> &[String] {
        &self.content.platforms
    }

    /// The lowest caller rank that may use it.
    pub fn permission(&self) -> PermissionLevel {
        self.content.permission
    }

    /// The chat scopes it is available in; empty means any.
    pub fn scopes(&self) -> &[ChatScope] {
        &self.content.scopes
    }

    /// Icons for hosts and MCP clients.
    pub fn icons(&self) -> &[ToolIcon] {
        &self.content.icons
    }

    /// Behaviour hints (MCP annotations).
    pub fn annotation(&self) -> &ToolAnnotation {
        &self.content.annotation
    }

    /// Free-form metadata, in insertion order. Reserved keys: `plugin_id`, `server_name`,
    /// `registry_original_name`, `visibility`.
    pub fn metadata(&self) -> &Map<String, Value> {
        &self.ident.metadata
    }

    /// The tool's own timeout; `None` means the registry's default.
    pub fn timeout(&self) -> Option<Duration> {
        self.content.timeout
    }

    /// Whether arguments the schema does not declare are errors.
    pub fn deny_unknown_args(&self) -> bool {
        self.content.deny_unknown_args
    }

    /// The definition of this tool in a model API's format (see [`Dialect`]).
    ///
    /// ```
    /// use toolhook::{Dialect, Locale, ToolSpec};
    ///
    /// let spec = ToolSpec::builder("ping").brief_description("Check the bot").build()?;
    /// let def = spec.llm_definition(Dialect::Anthropic, Locale::En)?;
    /// assert_eq!(
    ///     def.to_string(),
    ///     r#"{"name":"ping","description":"Check the bot","input_schema":{"type":"object","properties":{},"required":[]}}"#
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn llm_definition(&self, dialect: Dialect, locale: Locale) -> Result<Value, ProjectionError> {
        crate::dialect::project(self, self.name(), dialect, locale, self.description(locale))
    }

    /// Like [`llm_definition`](Self::llm_definition) with another description text (the registry
    /// appends the detailed text when configured to), under the name `name` (a registry's name
    /// for the tool, so that rendering a definition needs no renamed copy of the spec).
    #[doc(hidden)]
    pub fn __llm_definition_described(
        &self,
        name: &str,
        dialect: Dialect,
        locale: Locale,
        description: &str,
    ) -> Result<Value, ProjectionError> {
        crate::dialect::project(self, name, dialect, locale, description)
    }

    /// [`__llm_definition_described`](Self::__llm_definition_described) as JSON text appended to
    /// `out`: the same bytes as serialising that value. Where the dialect takes the parameters
    /// schema as it is, the definition is written without being built, and a schema `#[tool]`
    /// rendered at compile time is copied as its text, never parsed. Writes nothing on `Err`.
    #[doc(hidden)]
    pub fn __write_llm_definition(
        &self,
        out: &mut Vec<u8>,
        name: &str,
        dialect: Dialect,
        locale: Locale,
        description: &str,
    ) -> Result<(), ProjectionError> {
        crate::dialect::write(self, out, name, dialect, locale, description)
    }

    /// The copy a registry lists: renamed, with `registry_original_name` in its metadata and the
    /// provider's identity. Texts are not re-rendered.
    #[doc(hidden)]
    pub fn __listed_copy(&self, registry_name: &str, provider_name: &str, provider_type: &str) -> ToolSpec {
        let mut ident = (*self.ident).clone();
        ident.metadata.insert("registry_original_name".into(), Value::from(self.ident.name.clone()));
        ident.name = registry_name.to_owned();
        ident.provider_name = provider_name.to_owned();
        ident.provider_type = provider_type.to_owned();
        ToolSpec { ident: Arc::new(ident), content: self.content.clone() }
    }

    /// A copy with extra metadata entries (providers stamp `plugin_id`, `visibility`).
    #[doc(hidden)]
    pub fn __with_metadata(&self, entries: impl IntoIterator<Item = (String, Value)>) -> ToolSpec {
        let mut ident = (*self.ident).clone();
        ident.metadata.extend(entries);
        ToolSpec { ident: Arc::new(ident), content: self.content.clone() }
    }

    /// A copy served by another provider.
    #[doc(hidden)]
    pub fn __with_provider(&self, provider_name: &str, provider_type: &str) -> ToolSpec {
        let mut ident = (*self.ident).clone();
        ident.provider_name = provider_name.to_owned();
        ident.provider_type = provider_type.to_owned();
        ToolSpec { ident: Arc::new(ident), content: self.content.clone() }
    }

    /// A copy with another visibility and switch (the host's decision about a component).
    #[doc(hidden)]
    pub fn __with_visibility(&self, visibility: Visibility) -> ToolSpec {
        let mut ident = (*self.ident).clone();
        ident.visibility = visibility;
        ToolSpec { ident: Arc::new(ident), content: self.content.clone() }
    }
}

impl PartialEq for ToolSpec {
    /// Two specs are equal when their serialised forms (key order included) are equal.
    fn eq(&self, other: &Self) -> bool {
        (Arc::ptr_eq(&self.ident, &other.ident) && Arc::ptr_eq(&self.content, &other.content))
            || serde_json::to_string(self).ok() == serde_json::to_string(other).ok()
                && self.content.timeout == other.content.timeout
                && self.content.deny_unknown_args == other.content.deny_unknown_args
                && self.content.schema_zh == other.content.schema_zh
    }
}

impl serde::Serialize for ToolSpec {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(serde::Serialize)]
        struct PerLocale<'a> {
            en: &'a str,
            #[serde(rename = "zh-Hans")]
            zh_hans: &'a str,
        }
        #[derive(serde::Serialize)]
        struct Form<'a> {
            name: &'a str,
            title: &'a str,
            description: PerLocale<'a>,
            detailed_description: PerLocale<'a>,
            parameters_schema: &'a Value,
            output_schema: Option<&'a Value>,
            provider_name: &'a str,
            provider_type: &'a str,
            enabled: bool,
            visibility: Visibility,
            platforms: &'a [String],
            permission: PermissionLevel,
            scopes: &'a [ChatScope],
            icons: &'a [ToolIcon],
            annotation: &'a ToolAnnotation,
            metadata: &'a Map<String, Value>,
        }
        let (i, d) = (&*self.ident, &*self.content);
        Form {
            name: &i.name,
            title: &d.title,
            description: PerLocale { en: &d.brief[0], zh_hans: &d.brief[1] },
            detailed_description: PerLocale { en: &d.detailed[0], zh_hans: &d.detailed[1] },
            parameters_schema: d.schema.get(),
            output_schema: d.output_schema.as_ref(),
            provider_name: &i.provider_name,
            provider_type: &i.provider_type,
            enabled: self.enabled(),
            visibility: i.visibility,
            platforms: &d.platforms,
            permission: d.permission,
            scopes: &d.scopes,
            icons: &d.icons,
            annotation: &d.annotation,
            metadata: &i.metadata,
        }
        .serialize(serializer)
    }
}

impl SpecData {
    fn new(name: String) -> Self {
        SpecData {
            name,
            title: String::new(),
            brief: Default::default(),
            detailed: Default::default(),
            // Every way of building sets the schema; this is a placeholder.
            schema: Schema::Built(Value::Null),
            schema_zh: None,
            output_schema: None,
            provider_name: String::new(),
            provider_type: String::new(),
            enabled: true,
            visibility: Visibility::Deferred,
            platforms: Vec::new(),
            permission: PermissionLevel::User,
            scopes: Vec::new(),
            icons: Vec::new(),
            annotation: ToolAnnotation::default(),
            metadata: Map::new(),
            timeout: None,
            deny_unknown_args: false,
        }
    }
}

fn check_name(name: &str) -> Result<(), ToolSpecError> {
    if name.trim().is_empty() {
        return Err(ToolSpecError::BlankName);
    }
    if name.trim() != name {
        return Err(ToolSpecError::PaddedName { name: name.to_owned() });
    }
    Ok(())
}

fn warn_legacy_action_once(name: &str) {
    use std::collections::HashSet;
    use std::sync::{Mutex, OnceLock};
    static WARNED: OnceLock<Mutex<HashSet<String>>> = OnceLock::new();
    let mut warned = WARNED.get_or_init(Default::default).lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if warned.insert(name.to_owned()) {
        tracing::warn!("legacy action \"{name}\" is converted to a tool; declare it with #[tool]");
    }
}

/// Builds a [`ToolSpec`]; see [`ToolSpec::builder`].
///
/// Every method may be called in any order; [`build`](Self::build) checks the whole declaration
/// and renders both locales' texts once.
#[derive(Clone, Debug)]
#[must_use = "call .build() to get the ToolSpec"]
pub struct ToolSpecBuilder {
    data: SpecData,
    description: Option<String>,
    brief_description: Option<String>,
    detailed_description: Option<String>,
    parameters: Vec<ToolParameterInfo>,
    parameters_raw: Option<Value>,
    parameters_raw_zh: Option<Value>,
    parameters_verbatim: Option<Value>,
    /// Properties whose enum values are documented (Rust enums with variant docs).
    documented_values: Vec<String>,
    brief_overrides: [Option<String>; 2],
    detailed_overrides: [Option<String>; 2],
    core_tool: bool,
    visibility: Option<Visibility>,
    prerendered: Option<Prerendered>,
}

/// Texts and schema rendered at compile time by `#[tool]`.
#[derive(Clone, Debug)]
struct Prerendered {
    schema: &'static str,
    schema_zh: Option<&'static str>,
    brief: [&'static str; 2],
    detailed: [&'static str; 2],
}

impl ToolSpecBuilder {
    fn new(name: String) -> Self {
        ToolSpecBuilder {
            data: SpecData::new(name),
            description: None,
            brief_description: None,
            detailed_description: None,
            parameters: Vec::new(),
            parameters_raw: None,
            parameters_raw_zh: None,
            parameters_verbatim: None,
            documented_values: Vec::new(),
            brief_overrides: [None, None],
            detailed_overrides: [None, None],
            core_tool: false,
            visibility: None,
            prerendered: None,
        }
    }

    /// The legacy brief, used when [`brief_description`](Self::brief_description) is unset or blank.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// The brief the model sees next to the tool's name.
    pub fn brief_description(mut self, brief: impl Into<String>) -> Self {
        self.brief_description = Some(brief.into());
        self
    }

    /// The brief in one locale only, overriding [`brief_description`](Self::brief_description)
    /// there (built-in tools with translated texts).
    pub fn brief_description_in(mut self, locale: Locale, brief: impl Into<String>) -> Self {
        self.brief_overrides[locale.index()] = Some(brief.into());
        self
    }

    /// The author's detailed text, shown after the generated parameter block.
    pub fn detailed_description(mut self, detailed: impl Into<String>) -> Self {
        self.detailed_description = Some(detailed.into());
        self
    }

    /// The author's detailed text in one locale only, overriding
    /// [`detailed_description`](Self::detailed_description) there (`#[tool]`'s
    /// `detailed_description_zh_hans`).
    pub fn detailed_description_in(mut self, locale: Locale, detailed: impl Into<String>) -> Self {
        self.detailed_overrides[locale.index()] = Some(detailed.into());
        self
    }

    /// The parameters as a list.
    pub fn parameters(mut self, parameters: Vec<ToolParameterInfo>) -> Self {
        self.parameters = parameters;
        self
    }

    /// The parameters in the legacy dict form: a full object schema, or a map of parameter name to
    /// property schema with a `required` flag per property.
    pub fn parameters_raw(mut self, schema: Value) -> Self {
        self.parameters_raw = Some(schema);
        self
    }

    /// The parameters schema exactly as given: no normalisation and no checks beyond being a JSON
    /// object, every keyword kept (`$schema`, `$defs`, `allOf`, `if`/`then`, vendor keys…). For
    /// schemas from another system, such as an MCP server's tools, that must reach the model
    /// unchanged (only `{}` becomes the schema of an object without properties). The generated
    /// parameter docs are still rendered from it.
    pub fn parameters_verbatim(mut self, schema: Value) -> Self {
        self.parameters_verbatim = Some(schema);
        self
    }

    /// Names the properties that are Rust enums with documented variants: the parameter docs
    /// show each value's doc (a `- value: doc` line of the description) beside the value.
    /// (`#[tool]` calls it; a property's description is otherwise shown as written.)
    #[doc(hidden)]
    pub fn __documented_values(mut self, properties: Vec<String>) -> Self {
        self.documented_values = properties;
        self
    }

    /// The zh-Hans variant of [`parameters_raw`](Self::parameters_raw), for tools whose parameter
    /// descriptions are translated; [`ToolSpec::parameters_schema_for`] returns it for
    /// [`Locale::ZhHans`], and the zh-Hans parameter block is rendered from it.
    pub fn parameters_raw_zh_hans(mut self, schema: Value) -> Self {
        self.parameters_raw_zh = Some(schema);
        self
    }

    /// A core tool is visible, unless [`visibility`](Self::visibility) says otherwise.
    pub fn core_tool(mut self, core_tool: bool) -> Self {
        self.core_tool = core_tool;
        self
    }

    /// Visible, deferred (the default) or hidden; wins over [`core_tool`](Self::core_tool).
    pub fn visibility(mut self, visibility: Visibility) -> Self {
        self.visibility = Some(visibility);
        self
    }

    /// The platforms the tool is available on (trimmed, lower-cased, duplicates dropped; a blank
    /// one is a build error). Empty means any.
    pub fn platforms<S: Into<String>>(mut self, platforms: impl IntoIterator<Item = S>) -> Self {
        self.data.platforms = platforms.into_iter().map(Into::into).collect();
        self
    }

    /// Adds a metadata entry; a repeated key keeps its first position and takes the last value.
    pub fn metadata(mut self, key: impl Into<String>, value: impl Into<Value>) -> Self {
        self.data.metadata.insert(key.into(), value.into());
        self
    }

    /// A human-readable title.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.data.title = title.into();
        self
    }

    /// The schema of the tool's structured output.
    pub fn output_schema(mut self, schema: Value) -> Self {
        self.data.output_schema = Some(schema);
        self
    }

    /// The provider serving the tool (providers set this; plugin authors need not).
    pub fn provider(mut self, name: impl Into<String>, provider_type: impl Into<String>) -> Self {
        self.data.provider_name = name.into();
        self.data.provider_type = provider_type.into();
        self
    }

    /// Switches the tool off (it is then never listed).
    pub fn enabled(mut self, enabled: bool) -> Self {
        self.data.enabled = enabled;
        self
    }

    /// Adds an icon.
    pub fn icon(mut self, icon: ToolIcon) -> Self {
        self.data.icons.push(icon);
        self
    }

    /// Sets the behaviour hints.
    pub fn annotation(mut self, annotation: ToolAnnotation) -> Self {
        self.data.annotation = annotation;
        self
    }

    /// The lowest caller rank that may use the tool.
    pub fn permission(mut self, permission: PermissionLevel) -> Self {
        self.data.permission = permission;
        self
    }

    /// The chat scopes the tool is available in (duplicates dropped). Empty means any.
    pub fn scopes(mut self, scopes: impl IntoIterator<Item = ChatScope>) -> Self {
        self.data.scopes.clear();
        for scope in scopes {
            if !self.data.scopes.contains(&scope) {
                self.data.scopes.push(scope);
            }
        }
        self
    }

    /// The tool's own timeout, overriding the registry default.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.data.timeout = Some(timeout);
        self
    }

    /// Whether arguments the schema does not declare are errors; the schema then says
    /// `"additionalProperties": false`, in place of any other value a raw schema gave it.
    pub fn deny_unknown_args(mut self, deny: bool) -> Self {
        self.data.deny_unknown_args = deny;
        self
    }

    /// Schema and texts rendered by `#[tool]` at compile time.
    #[doc(hidden)]
    pub fn __prerendered(
        mut self,
        schema: &'static str,
        schema_zh: Option<&'static str>,
        brief: [&'static str; 2],
        detailed: [&'static str; 2],
    ) -> Self {
        self.prerendered = Some(Prerendered { schema, schema_zh, brief, detailed });
        self
    }

    /// Checks the declaration and renders the schema and both locales' texts.
    pub fn build(self) -> Result<ToolSpec, ToolSpecError> {
        let ToolSpecBuilder {
            mut data,
            description,
            brief_description,
            detailed_description,
            parameters,
            parameters_raw,
            parameters_raw_zh,
            parameters_verbatim,
            documented_values,
            brief_overrides,
            detailed_overrides,
            core_tool,
            visibility,
            prerendered,
        } = self;
        check_name(&data.name)?;
        let tool = data.name.clone();
        data.platforms = normalise_platforms(&tool, std::mem::take(&mut data.platforms))?;
        data.visibility = visibility.unwrap_or(if core_tool { Visibility::Visible } else { Visibility::Deferred });
        if let Some(pre) = prerendered {
            let schema = Schema::Text { text: pre.schema, parsed: OnceLock::new() };
            data.schema_zh = pre.schema_zh.map(crate::rust_schema::static_schema).filter(|zh| zh != schema.get());
            data.schema = schema;
            data.brief = pre.brief.map(Text::Borrowed);
            data.detailed = pre.detailed.map(Text::Borrowed);
            return Ok(data.into_spec());
        }
        let given = usize::from(!parameters.is_empty())
            + usize::from(parameters_raw.is_some())
            + usize::from(parameters_verbatim.is_some());
        if given > 1 {
            return Err(ToolSpecError::BothParameterForms { tool });
        }
        let mut schema = match (parameters_raw, parameters_verbatim) {
            (Some(raw), _) => schema_from_raw(&tool, &raw)?,
            (None, Some(Value::Object(map))) if map.is_empty() => crate::shared::schema::empty_object_schema(),
            (None, Some(schema @ Value::Object(_))) => schema,
            (None, Some(_)) => return Err(ToolSpecError::RawSchemaNotObject { tool }),
            (None, None) => schema_from_list(&tool, &parameters)?,
        };
        let mut schema_zh = parameters_raw_zh.map(|raw| schema_from_raw(&tool, &raw)).transpose()?;
        if data.deny_unknown_args {
            for schema in std::iter::once(&mut schema).chain(schema_zh.as_mut()) {
                // The schema says what the flag enforces: an author's `true` or value schema
                // there would advertise arguments that are refused. It goes last, after
                // `required`; a `false` the author placed stays where it is.
                if let Value::Object(map) = schema
                    && map.get("additionalProperties") != Some(&Value::Bool(false))
                {
                    map.shift_remove("additionalProperties");
                    map.insert("additionalProperties".to_owned(), Value::Bool(false));
                }
            }
        }
        let author_text = detailed_description.as_deref().unwrap_or("");
        let candidates = [brief_description.as_deref(), description.as_deref()];
        data.brief = Locale::ALL.map(|locale| match &brief_overrides[locale.index()] {
            Some(text) if !text.trim().is_empty() => Text::Owned(text.trim().to_owned()),
            _ => Text::Owned(docs::brief(&tool, &candidates, locale)),
        });
        data.detailed = Locale::ALL.map(|locale| {
            let schema = match (locale, &schema_zh) {
                (Locale::ZhHans, Some(zh)) => zh,
                _ => &schema,
            };
            let author_text = detailed_overrides[locale.index()].as_deref().unwrap_or(author_text);
            Text::Owned(docs::detailed(schema, author_text, locale, &documented_values))
        });
        data.schema_zh = schema_zh.filter(|zh| *zh != schema);
        data.schema = Schema::Built(schema);
        Ok(data.into_spec())
    }
}

fn normalise_platforms(tool: &str, platforms: Vec<String>) -> Result<Vec<String>, ToolSpecError> {
    let mut out: Vec<String> = Vec::with_capacity(platforms.len());
    for platform in platforms {
        let platform = platform.trim().to_lowercase();
        if platform.is_empty() {
            return Err(ToolSpecError::BlankPlatform { tool: tool.to_owned() });
        }
        if !out.contains(&platform) {
            out.push(platform);
        }
    }
    Ok(out)
}
