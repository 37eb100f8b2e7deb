//! MCP servers' tools as a provider: every server a host configures, kept connected, its tools
//! in the registry like any other provider's.

use super::RULES_META_KEY;
use super::config::{McpServerEntry, McpServersConfig, McpToolRules};
use super::connection::{CallError, Connection, McpServerStatus, SpecMaker};
use crate::context_parts::ContextParts;
use crate::provider::{RegistryLink, ToolProvider};
use serde_json::{Map, Value};
use std::sync::{Arc, OnceLock, RwLock};
use std::time::Duration;
use toolhook::{
    BoxFuture, Interaction, Locale, ToolAnnotation, ToolArguments, ToolAvailabilityContext, ToolError,
    ToolExecutionContext, ToolExecutionResult, ToolInvocation, ToolSpec, Visibility,
};

/// The tools of MCP servers, as one [`ToolProvider`] (`provider_name` and `provider_type`
/// `mcp`): servers over stdio (a child process) or Streamable HTTP, each kept connected in the
/// background.
///
/// - **Listing never waits**: it is each server's tools as last listed (in configuration
///   order), with the host's rules (visibility, permission, platforms, scopes) per server and per
///   tool. A server that says its tools changed is listed again and the registry told.
/// - **Names, descriptions and schemas are kept as the server sent them** (schemas with their
///   JSON Schema 2020-12 keywords and `$schema` kept; an empty input schema is an empty object
///   schema); the registry makes names every model API accepts and settles duplicates. A tool
///   without a description gets "MCP tool from {server}".
/// - **A dead or hung server costs only its own tools**: connecting and listing have a timeout;
///   a lost server is reconnected with exponential backoff and jitter, its tools stay listed and
///   fail at once with "MCP server '{name}' is not connected"; after too many failures in a row it
///   is disabled (its tools withdrawn) until [`restart`](Self::restart). A call that times out or
///   whose caller goes away is cancelled at the server (`notifications/cancelled`).
/// - **The caller's context reaches the server's tool**: progress and log messages go to the
///   calling context, and so do the server's questions (elicitation, sampling, roots) when the
///   caller can answer them, else to the host's [`Interaction`](McpToolProviderBuilder::interaction);
///   what nobody can answer is refused (a question for the user is declined).
///
/// ```no_run
/// # async fn host() -> Result<(), Box<dyn std::error::Error>> {
/// use toolhook_runtime::ToolRegistry;
/// use toolhook_runtime::mcp::{McpServersConfig, McpToolProvider};
///
/// let config = McpServersConfig::from_json(&std::fs::read_to_string("mcp.json")?)?;
/// let mcp = McpToolProvider::new(&config);
/// let registry = ToolRegistry::default();
/// registry.register_provider(mcp.clone());
/// mcp.wait_connected(std::time::Duration::from_secs(30)).await;
/// for (name, status) in mcp.servers() {
///     println!("{name}: {status:?}");
/// }
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct McpToolProvider {
    inner: Arc<Inner>,
}

struct Inner {
    servers: RwLock<Vec<Arc<Connection>>>,
    link: Arc<OnceLock<RegistryLink>>,
    host: Option<Arc<dyn Interaction>>,
    locale: Locale,
}

impl Drop for Inner {
    /// The last handle on the provider is gone: its servers are closed (children get their stdin
    /// closed, then a signal).
    fn drop(&mut self) {
        for connection in self.servers.get_mut().unwrap_or_else(|p| p.into_inner()).iter() {
            connection.close();
        }
    }
}

impl std::fmt::Debug for McpToolProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpToolProvider").field("servers", &self.servers()).finish()
    }
}

/// Builds an [`McpToolProvider`].
#[must_use]
pub struct McpToolProviderBuilder {
    config: McpServersConfig,
    host: Option<Arc<dyn Interaction>>,
    locale: Locale,
}

impl std::fmt::Debug for McpToolProviderBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpToolProviderBuilder").field("config", &self.config).finish_non_exhaustive()
    }
}

impl McpToolProviderBuilder {
    /// How the host answers servers' questions that the calling context cannot (default: it
    /// answers none).
    pub fn interaction(mut self, host: Arc<dyn Interaction>) -> Self {
        self.host = Some(host);
        self
    }

    /// The language of the provider's own texts (default English; give the registry's).
    pub fn locale(mut self, locale: Locale) -> Self {
        self.locale = locale;
        self
    }

    /// The provider; every enabled server starts connecting in the background (on the current
    /// tokio runtime).
    pub fn build(self) -> McpToolProvider {
        let provider = McpToolProvider {
            inner: Arc::new(Inner {
                servers: RwLock::new(Vec::new()),
                link: Arc::new(OnceLock::new()),
                host: self.host,
                locale: self.locale,
            }),
        };
        for (name, entry) in self.config.servers() {
            provider.add_server(name, entry.clone());
        }
        provider
    }
}

impl McpToolProvider {
    /// The servers of a configuration, connecting in the background.
    pub fn new(config: &McpServersConfig) -> Self {
        Self::builder(config).build()
    }

    /// Starts building a provider over a configuration.
    pub fn builder(config: &McpServersConfig) -> McpToolProviderBuilder {
        McpToolProviderBuilder { config: config.clone(), host: None, locale: Locale::En }
    }

    fn connections(&self) -> Vec<Arc<Connection>> {
        self.inner.servers.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    fn connection(&self, name: &str) -> Option<Arc<Connection>> {
        self.find(|c| c.name == name)
    }

    /// A call of `tool` on the server named `server` (else the first server that lists it).
    fn invoke_on<'a>(
        &'a self,
        tool: String,
        arguments: ToolArguments,
        server: Option<&str>,
        ctx: Option<&'a ToolExecutionContext>,
    ) -> BoxFuture<'a, Result<ToolExecutionResult, ToolError>> {
        let locale = ctx.map_or(self.inner.locale, |c| c.locale);
        let lists = |c: &Connection| c.live().tools.iter().any(|s| s.name() == tool);
        let connection = match server {
            Some(server) => match self.connection(server) {
                Some(connection) if lists(&connection) => connection,
                Some(_) => {
                    let text = locale.pick(
                        format!("MCP server '{server}' does not provide tool '{tool}'"),
                        format!("MCP 服务器 '{server}' 未提供工具 '{tool}'"),
                    );
                    return Box::pin(std::future::ready(Ok(ToolExecutionResult::failure(tool, text))));
                }
                None => return Box::pin(std::future::ready(Ok(not_found(&tool, locale)))),
            },
            None => match self.find(lists) {
                Some(connection) => connection,
                None => return Box::pin(std::future::ready(Ok(not_found(&tool, locale)))),
            },
        };
        Box::pin(async move {
            // The model's text is kept beside the parsed object: a server that asks for input
            // gets the arguments again from it, and no call has to keep a copy of the object.
            let arguments = match arguments {
                ToolArguments::Value(Value::Object(map)) => Ok((map, None)),
                ToolArguments::Value(Value::Null) => Ok((Map::new(), None)),
                ToolArguments::Value(_) => Err(None),
                ToolArguments::Text(text) if text.trim().is_empty() => Ok((Map::new(), None)),
                ToolArguments::Text(text) => match serde_json::from_str::<Value>(&text) {
                    Ok(Value::Object(map)) => Ok((map, Some(text))),
                    Ok(Value::Null) => Ok((Map::new(), None)),
                    Ok(_) => Err(None),
                    Err(e) => Err(Some(e)),
                },
            };
            let (arguments, text) = match arguments {
                Ok(parsed) => parsed,
                Err(None) => {
                    return Err(ToolError::invalid_arguments_localized(
                        "arguments must be a JSON object",
                        "参数必须是 JSON 对象",
                    ));
                }
                Err(Some(e)) => {
                    return Err(ToolError::invalid_arguments_localized(
                        format!("arguments are not valid JSON: {e}"),
                        format!("参数不是合法的 JSON：{e}"),
                    ));
                }
            };
            let caller = ctx.and_then(|c| c.interaction.shared());
            // Only a server the host named as one of its own plugin processes hears who calls.
            let context = ctx.filter(|_| connection.forwards_context()).and_then(|c| serde_json::to_value(c).ok());
            let (tool, outcome) = connection.call(tool, arguments, text, caller, context).await;
            let server = &connection.name;
            match outcome {
                Ok(mut result) => {
                    result.tool_name = tool;
                    Ok(result)
                }
                Err(CallError::NotConnected) => Ok(ToolExecutionResult::failure(
                    tool,
                    locale.pick(
                        format!("MCP server '{server}' is not connected"),
                        format!("MCP 服务器 '{server}' 未连接"),
                    ),
                )),
                Err(CallError::Lost) => {
                    tracing::warn!(server = %server, tool = %tool, "MCP server's connection broke during a call");
                    Ok(ToolExecutionResult::failure(
                        tool.clone(),
                        // A transport error, worded as every other one, with what happened.
                        locale.pick(
                            format!("MCP tool '{tool}' failed: MCP server '{server}' stopped before answering; try again shortly"),
                            format!("MCP 工具 '{tool}' 执行失败: MCP 服务器 '{server}' 在回答前停止了；请稍后重试"),
                        ),
                    ))
                }
                Err(CallError::Refused(error) | CallError::Transport(error)) => {
                    tracing::warn!(server = %server, tool = %tool, %error, "MCP call failed");
                    Ok(ToolExecutionResult::failure(
                        tool.clone(),
                        locale.pick(
                            format!("MCP tool '{tool}' failed: {error}"),
                            format!("MCP 工具 '{tool}' 执行失败: {error}"),
                        ),
                    ))
                }
            }
        })
    }

    /// The first server that `matches`, without copying the list.
    fn find(&self, matches: impl Fn(&Connection) -> bool) -> Option<Arc<Connection>> {
        self.inner.servers.read().unwrap_or_else(|p| p.into_inner()).iter().find(|c| matches(c)).cloned()
    }

    /// Adds a server (one with the same name is stopped and replaced, keeping its place).
    pub fn add_server(&self, name: &str, entry: McpServerEntry) {
        let link = self.inner.link.clone();
        let changed: Arc<dyn Fn() + Send + Sync> = Arc::new(move || {
            if let Some(link) = link.get() {
                link.notify();
            }
        });
        let rules = entry.clone();
        let make_spec: Arc<SpecMaker> =
            Arc::new(move |server: &str, tool: &rmcp::model::Tool| spec_of(server, tool, &rules));
        let connection = Connection::start(name.to_owned(), entry, self.inner.host.clone(), make_spec, changed.clone());
        let replaced = {
            let mut servers = self.inner.servers.write().unwrap_or_else(|p| p.into_inner());
            match servers.iter_mut().find(|c| c.name == name) {
                Some(slot) => Some(std::mem::replace(slot, connection)),
                None => {
                    servers.push(connection);
                    None
                }
            }
        };
        if let Some(old) = replaced {
            old.close();
        }
        changed();
    }

    /// Stops and removes a server; `false` when there is none of that name.
    pub async fn remove_server(&self, name: &str) -> bool {
        let removed = {
            let mut servers = self.inner.servers.write().unwrap_or_else(|p| p.into_inner());
            let position = servers.iter().position(|c| c.name == name);
            position.map(|i| servers.remove(i))
        };
        match removed {
            Some(connection) => {
                connection.stop().await;
                if let Some(link) = self.inner.link.get() {
                    link.notify();
                }
                true
            }
            None => false,
        }
    }

    /// Each server and where it stands, in configuration order.
    pub fn servers(&self) -> Vec<(String, McpServerStatus)> {
        self.connections().iter().map(|c| (c.name.clone(), c.live().status.clone())).collect()
    }

    /// Restarts a server: a new connection (for stdio, a new process) is made and listed while
    /// the old one keeps serving; then calls go to the new one, calls in flight on the old one
    /// finish (30 s at most), and the old one is closed. Also brings back a disabled server.
    /// `false` when there is no server of that name or it is stopped.
    pub fn restart(&self, name: &str) -> bool {
        self.connection(name).is_some_and(|c| c.request("restart"))
    }

    /// Waits until every enabled server is connected, disabled or stopped, or `timeout` passed;
    /// returns where each stands.
    pub async fn wait_connected(&self, timeout: Duration) -> Vec<(String, McpServerStatus)> {
        let settled = |status: &McpServerStatus| !matches!(status, McpServerStatus::Connecting);
        let until = crate::guard::deadline_after(tokio::time::Instant::now(), timeout);
        while tokio::time::Instant::now() < until && !self.servers().iter().all(|(_, s)| settled(s)) {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        self.servers()
    }
}

/// The spec of a server's tool: its name, texts and schemas as sent, the host's rules over the
/// tool's own (which a plugin process lists in `_meta` [`RULES_META_KEY`]); its metadata is the
/// tool's other `_meta` keys with `server_name` set to the server (after them, or in the place
/// of a `_meta` key of that name).
fn spec_of(server: &str, tool: &rmcp::model::Tool, entry: &McpServerEntry) -> Option<ToolSpec> {
    // The tool's own rules, which a plugin process lists; the host's override them.
    let own = tool.meta.as_ref().and_then(|meta| meta.get(RULES_META_KEY));
    let own = match own.map(McpToolRules::from_meta).transpose() {
        Ok(own) => own.unwrap_or_default(),
        Err(error) => {
            // Listing the tool without rules it claims could offer it to callers they exclude.
            tracing::error!(server, tool = %crate::routes::shown(&tool.name), %error, "MCP tool not listed: its rules cannot be read");
            return None;
        }
    };
    let rules = own.overridden_by(Some(&entry.rules)).overridden_by(entry.tools.get(tool.name.as_ref()));
    let description = tool.description.as_deref().map(str::trim).filter(|d| !d.is_empty());
    let mut builder = ToolSpec::builder(tool.name.to_string())
        .visibility(rules.visibility.unwrap_or(Visibility::Deferred))
        .timeout(entry.timeout);
    // Schemas are kept as sent, `$schema` included (a client that drops it changes what the
    // server declared); an empty input schema declares nothing, and the spec gets the empty
    // object schema of a tool without parameters.
    if !tool.input_schema.is_empty() {
        builder = builder.parameters_verbatim(Value::Object((*tool.input_schema).clone()));
    }
    builder = match description {
        Some(description) => builder.brief_description(description),
        None => builder
            .brief_description_in(Locale::En, format!("MCP tool from {server}"))
            .brief_description_in(Locale::ZhHans, format!("来自 {server} 的 MCP 工具")),
    };
    if let Some(title) = &tool.title {
        builder = builder.title(title.clone());
    }
    if let Some(output) = &tool.output_schema {
        builder = builder.output_schema(Value::Object((**output).clone()));
    }
    if let Some(annotations) = &tool.annotations {
        let annotation = ToolAnnotation {
            title: annotations.title.clone().unwrap_or_default(),
            read_only: annotations.read_only_hint,
            destructive: annotations.destructive_hint,
            idempotent: annotations.idempotent_hint,
            open_world: annotations.open_world_hint,
            ..ToolAnnotation::default()
        };
        builder = builder.annotation(annotation);
    }
    if let Some(meta) = &tool.meta {
        for (key, value) in meta.iter().filter(|(key, _)| *key != RULES_META_KEY) {
            builder = builder.metadata(key.clone(), value.clone());
        }
    }
    // Set last, so that the server's name is the one a `_meta` of the same key would claim.
    builder = builder.metadata("server_name", server);
    if let Some(permission) = rules.permission {
        builder = builder.permission(permission);
    }
    if let Some(platforms) = rules.platforms {
        builder = builder.platforms(platforms);
    }
    if let Some(scopes) = rules.scopes {
        builder = builder.scopes(scopes);
    }
    match builder.build() {
        Ok(spec) => Some(spec),
        Err(error) => {
            tracing::warn!(server, tool = %crate::routes::shown(&tool.name), %error, "MCP tool not listed");
            None
        }
    }
}

impl ToolProvider for McpToolProvider {
    fn provider_name(&self) -> &str {
        "mcp"
    }

    fn provider_type(&self) -> &str {
        "mcp"
    }

    fn listing_depends_on(&self) -> ContextParts {
        ContextParts::NONE
    }

    fn attach(&self, link: RegistryLink) {
        let _ = self.inner.link.set(link);
    }

    fn list_tools<'a>(
        &'a self,
        _: Option<&'a ToolAvailabilityContext>,
    ) -> BoxFuture<'a, Result<Vec<ToolSpec>, ToolError>> {
        let mut specs = Vec::new();
        for connection in self.connections() {
            let live = connection.live();
            if !matches!(live.status, McpServerStatus::Disabled { .. } | McpServerStatus::Stopped) {
                specs.extend(live.tools.iter().cloned());
            }
        }
        Box::pin(std::future::ready(Ok(specs)))
    }

    fn invoke<'a>(
        &'a self,
        mut call: ToolInvocation,
        ctx: Option<&'a ToolExecutionContext>,
    ) -> BoxFuture<'a, Result<ToolExecutionResult, ToolError>> {
        let (tool, arguments) = (std::mem::take(&mut call.tool_name), std::mem::take(&mut call.arguments));
        let server = call.metadata().get("mcp_server_name").and_then(Value::as_str);
        self.invoke_on(tool, arguments, server, ctx)
    }

    fn __invoke_on_server<'a>(
        &'a self,
        call: ToolInvocation,
        ctx: Option<&'a ToolExecutionContext>,
        server: &'a str,
    ) -> BoxFuture<'a, Result<ToolExecutionResult, ToolError>> {
        self.invoke_on(call.tool_name, call.arguments, Some(server), ctx)
    }

    fn close<'a>(&'a self) -> BoxFuture<'a, Result<(), ToolError>> {
        Box::pin(async move {
            for connection in self.connections() {
                connection.stop().await;
            }
            Ok(())
        })
    }
}

fn not_found(tool: &str, locale: Locale) -> ToolExecutionResult {
    let text = locale.pick(format!("MCP tool '{tool}' not found"), format!("MCP 工具 '{tool}' 未找到"));
    ToolExecutionResult::failure(tool, text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn object(value: Value) -> rmcp::model::JsonObject {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn a_spec_keeps_the_schemas_as_sent_and_the_meta_before_the_server() {
        let mut tool = rmcp::model::Tool::new(
            "search",
            "Search the web",
            object(json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                "properties": {"q": {"type": "string"}}})),
        )
        .with_meta(rmcp::model::MetaObject(object(json!({"vendor": "acme", "server_name": "forged"}))));
        tool.output_schema = Some(Arc::new(object(json!({"$schema": "x", "type": "object", "properties": {}}))));
        let spec = spec_of("brave", &tool, &McpServerEntry::http("http://localhost/mcp")).expect("a spec");
        // Kept byte for byte, `$schema` included.
        assert_eq!(
            spec.parameters_schema().to_string(),
            r#"{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"q":{"type":"string"}}}"#
        );
        assert_eq!(spec.output_schema(), Some(&json!({"$schema": "x", "type": "object", "properties": {}})));
        let metadata: Vec<(&String, &Value)> = spec.metadata().iter().collect();
        assert_eq!(metadata, [(&"vendor".to_owned(), &json!("acme")), (&"server_name".to_owned(), &json!("brave"))]);

        // A `_meta` key named like the server's keeps its place and takes the server's name.
        let tool = tool.with_meta(rmcp::model::MetaObject(object(json!({"server_name": "forged", "vendor": "acme"}))));
        let spec = spec_of("brave", &tool, &McpServerEntry::http("http://localhost/mcp")).expect("a spec");
        let metadata: Vec<(&String, &Value)> = spec.metadata().iter().collect();
        assert_eq!(metadata, [(&"server_name".to_owned(), &json!("brave")), (&"vendor".to_owned(), &json!("acme"))]);

        let bare = rmcp::model::Tool::new("ping", "", object(json!({})));
        let spec = spec_of("brave", &bare, &McpServerEntry::http("http://localhost/mcp")).expect("a spec");
        assert_eq!(spec.parameters_schema(), &json!({"type": "object", "properties": {}, "required": []}));
        assert_eq!(spec.description(Locale::En), "MCP tool from brave");
    }

    #[test]
    fn a_tools_own_rules_apply_under_the_entrys_and_stay_out_of_its_metadata() {
        let own = json!({"visibility": "visible", "permission": "group_admin", "platforms": ["qq"],
            "scopes": ["group"]});
        let tool = rmcp::model::Tool::new("kick", "Kick a member", object(json!({"type": "object"})))
            .with_meta(rmcp::model::MetaObject(object(json!({"vendor": "acme", "toolhook/rules": own}))));
        let entry = McpServerEntry::stdio("plugin");
        let spec = spec_of("plugin", &tool, &entry).expect("a spec");
        assert_eq!(spec.visibility(), Visibility::Visible);
        assert_eq!(spec.permission(), toolhook::PermissionLevel::GroupAdmin);
        assert_eq!(spec.platforms(), ["qq"]);
        assert_eq!(spec.scopes(), [toolhook::ChatScope::Group]);
        let keys: Vec<&String> = spec.metadata().iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["vendor", "server_name"]);

        // The entry's rules win where they are set: for the server, then for the tool.
        let entry = McpServerEntry::stdio("plugin")
            .rules(McpToolRules::default().permission(toolhook::PermissionLevel::Owner))
            .tool("kick", McpToolRules::default().visibility(Visibility::Deferred));
        let spec = spec_of("plugin", &tool, &entry).expect("a spec");
        assert_eq!(spec.visibility(), Visibility::Deferred);
        assert_eq!(spec.permission(), toolhook::PermissionLevel::Owner);
        assert_eq!(spec.platforms(), ["qq"]);

        // Rules that cannot be read keep the tool out, rather than offer it to everyone.
        let unreadable = tool
            .clone()
            .with_meta(rmcp::model::MetaObject(object(json!({"toolhook/rules": {"permission": "emperor"}}))));
        assert!(spec_of("plugin", &unreadable, &McpServerEntry::stdio("plugin")).is_none());
        let not_an_object = tool.clone().with_meta(rmcp::model::MetaObject(object(json!({"toolhook/rules": ["qq"]}))));
        assert!(spec_of("plugin", &not_an_object, &McpServerEntry::stdio("plugin")).is_none());
        // A rule this version does not know could narrow who may use the tool: not listed either.
        let unknown_rule = tool.with_meta(rmcp::model::MetaObject(object(json!({"toolhook/rules": {"min_age": 18}}))));
        assert!(spec_of("plugin", &unknown_rule, &McpServerEntry::stdio("plugin")).is_none());
    }

    #[test]
    fn a_specs_rules_read_back_as_listed() {
        let spec = ToolSpec::builder("kick")
            .description("Kick.")
            .visibility(Visibility::Visible)
            .permission(toolhook::PermissionLevel::BotAdmin)
            .platforms(["qq", "telegram"])
            .scopes([toolhook::ChatScope::Group, toolhook::ChatScope::Private])
            .build()
            .unwrap();
        let listed = McpToolRules::of_spec(&spec).to_meta();
        assert_eq!(
            listed,
            json!({"visibility": "visible", "permission": "bot_admin", "platforms": ["qq", "telegram"],
                "scopes": ["group", "private"]})
        );
        assert_eq!(McpToolRules::from_meta(&listed).unwrap(), McpToolRules::of_spec(&spec));
        let open = ToolSpec::builder("open").description("Open.").build().unwrap();
        let listed = McpToolRules::of_spec(&open).to_meta();
        assert_eq!(listed, json!({"visibility": "deferred", "permission": "user", "platforms": [], "scopes": []}));
    }
}
