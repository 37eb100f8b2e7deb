//! The MCP servers a host uses, as MCP clients write them (`{"mcpServers": {name: entry}}`, an
//! entry with `command`/`args`/`env` or `url`/`headers`), so users can paste entries they
//! already have. toolhook's own settings for an entry live under its `toolhook` key.

use super::RULES_META_KEY;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;
use toolhook::{ChatScope, PermissionLevel, ToolSpec, Visibility};

/// How to reach an MCP server.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum McpTransport {
    /// A child process that speaks MCP on its stdin and stdout.
    Stdio {
        /// The program.
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Variables added to its environment.
        env: BTreeMap<String, String>,
        /// Its working directory (default: the host's).
        cwd: Option<PathBuf>,
    },
    /// Streamable HTTP.
    Http {
        /// The endpoint, e.g. `https://mcp.example.com/mcp`.
        url: String,
        /// Headers sent with every request, e.g. `Authorization: Bearer …`.
        headers: BTreeMap<String, String>,
    },
}

/// Which MCP protocol era to speak with a server.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum McpProtocol {
    /// 2026-07-28 when the server speaks it, else 2025-11-25 (`initialize`).
    #[default]
    Auto,
    /// 2026-07-28 only (stateless, `server/discover`).
    Stateless,
    /// 2025-11-25 only (`initialize`, sessions): for servers that mishandle a request they do not
    /// know.
    Initialize,
}

impl std::str::FromStr for McpProtocol {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "auto" => Ok(McpProtocol::Auto),
            "2026-07-28" => Ok(McpProtocol::Stateless),
            "2025-11-25" => Ok(McpProtocol::Initialize),
            other => Err(format!("unknown protocol {other:?}; expected \"auto\", \"2026-07-28\" or \"2025-11-25\"")),
        }
    }
}

/// Where and how a server's tools are offered: the host's decision, per server and per tool.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct McpToolRules {
    /// Visible, deferred or hidden (default for a server: deferred, as `tool_search` finds them,
    /// unless the tool lists its own in `_meta` `toolhook/rules`).
    pub visibility: Option<Visibility>,
    /// The lowest caller rank that may use the tools.
    pub permission: Option<PermissionLevel>,
    /// The platforms they are offered on.
    pub platforms: Option<Vec<String>>,
    /// The chat scopes they are offered in.
    pub scopes: Option<Vec<ChatScope>>,
}

impl McpToolRules {
    /// Sets the visibility.
    #[must_use]
    pub fn visibility(mut self, visibility: Visibility) -> Self {
        self.visibility = Some(visibility);
        self
    }

    /// Sets the permission.
    #[must_use]
    pub fn permission(mut self, permission: PermissionLevel) -> Self {
        self.permission = Some(permission);
        self
    }

    /// A tool's own rules, as a plugin process lists them (`_meta` [`RULES_META_KEY`]): every
    /// rule, the unlimited ones included.
    pub(crate) fn of_spec(spec: &ToolSpec) -> McpToolRules {
        McpToolRules {
            visibility: Some(spec.visibility()),
            permission: Some(spec.permission()),
            platforms: Some(spec.platforms().to_vec()),
            scopes: Some(spec.scopes().to_vec()),
        }
    }

    /// The rules as the JSON object [`from_meta`](Self::from_meta) reads (the keys of a
    /// server's `toolhook` settings).
    pub(crate) fn to_meta(&self) -> Value {
        let mut map = Map::new();
        if let Some(visibility) = self.visibility {
            map.insert("visibility".into(), visibility.as_str().into());
        }
        if let Some(permission) = self.permission {
            map.insert("permission".into(), permission.to_string().into());
        }
        if let Some(platforms) = &self.platforms {
            map.insert("platforms".into(), platforms.clone().into());
        }
        if let Some(scopes) = &self.scopes {
            map.insert("scopes".into(), scopes.iter().map(ToString::to_string).collect::<Vec<_>>().into());
        }
        Value::Object(map)
    }

    /// The rules a server listed for its tool in `_meta` [`RULES_META_KEY`]. A key this version
    /// does not know is an error: it could be a rule that narrows who may use the tool.
    pub(crate) fn from_meta(value: &Value) -> Result<McpToolRules, McpConfigError> {
        rules_from(&format!("_meta.{RULES_META_KEY}"), value, false)
    }

    /// These rules, with `other`'s where it sets them.
    pub(crate) fn overridden_by(&self, other: Option<&McpToolRules>) -> McpToolRules {
        let Some(other) = other else { return self.clone() };
        McpToolRules {
            visibility: other.visibility.or(self.visibility),
            permission: other.permission.or(self.permission),
            platforms: other.platforms.clone().or_else(|| self.platforms.clone()),
            scopes: other.scopes.clone().or_else(|| self.scopes.clone()),
        }
    }
}

/// One MCP server a host uses.
///
/// ```
/// use std::time::Duration;
/// use toolhook::Visibility;
/// use toolhook_runtime::mcp::{McpServerEntry, McpToolRules};
///
/// let everything = McpServerEntry::stdio("npx")
///     .args(["-y", "@modelcontextprotocol/server-everything"])
///     .timeout(Duration::from_secs(60))
///     .tool("echo", McpToolRules::default().visibility(Visibility::Visible));
/// let remote = McpServerEntry::http("https://mcp.example.com/mcp").header("Authorization", "Bearer s3cret");
/// # let _ = (everything, remote);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct McpServerEntry {
    /// How to reach it.
    pub transport: McpTransport,
    /// Whether to use it (default true).
    pub enabled: bool,
    /// How long one call of its tools may take (default 300 s); also the tools' registry timeout.
    pub timeout: Duration,
    /// How long connecting and listing may take (default 30 s: `npx` may have to fetch a package).
    pub connect_timeout: Duration,
    /// The rules of all its tools.
    pub rules: McpToolRules,
    /// Rules for single tools, by the server's name for them.
    pub tools: BTreeMap<String, McpToolRules>,
    /// How many times in a row it may fail to start or crash before it is disabled (default 5);
    /// a restart that lasts resets the count.
    pub max_restarts: u32,
    /// Restart a stdio server when its program changes on disk (default false).
    pub watch: bool,
    /// The protocol era to speak (default: the newest both sides know).
    pub protocol: McpProtocol,
    /// How often to check that a connected server still answers (default 15 s; `None`: never).
    /// A server that does not answer within 10 s (or the connect timeout, if shorter) is
    /// reconnected, and its calls in flight fail.
    pub ping_interval: Option<Duration>,
    /// Whether each call carries the caller's chat context (default false): set it for a
    /// toolhook plugin process (see [`forward_context`](Self::forward_context)).
    pub forward_context: bool,
}

impl McpServerEntry {
    fn new(transport: McpTransport) -> Self {
        McpServerEntry {
            transport,
            enabled: true,
            timeout: Duration::from_secs(300),
            connect_timeout: Duration::from_secs(30),
            rules: McpToolRules::default(),
            tools: BTreeMap::new(),
            max_restarts: 5,
            watch: false,
            protocol: McpProtocol::Auto,
            ping_interval: Some(Duration::from_secs(15)),
            forward_context: false,
        }
    }

    /// A server run as a child process.
    pub fn stdio(command: impl Into<String>) -> Self {
        Self::new(McpTransport::Stdio { command: command.into(), args: Vec::new(), env: BTreeMap::new(), cwd: None })
    }

    /// A server reached over Streamable HTTP.
    pub fn http(url: impl Into<String>) -> Self {
        Self::new(McpTransport::Http { url: url.into(), headers: BTreeMap::new() })
    }

    /// Adds arguments (stdio).
    #[must_use]
    pub fn args<S: Into<String>>(mut self, more: impl IntoIterator<Item = S>) -> Self {
        if let McpTransport::Stdio { args, .. } = &mut self.transport {
            args.extend(more.into_iter().map(Into::into));
        }
        self
    }

    /// Sets an environment variable (stdio).
    #[must_use]
    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        if let McpTransport::Stdio { env, .. } = &mut self.transport {
            env.insert(key.into(), value.into());
        }
        self
    }

    /// Sets the working directory (stdio).
    #[must_use]
    pub fn cwd(mut self, dir: impl Into<PathBuf>) -> Self {
        if let McpTransport::Stdio { cwd, .. } = &mut self.transport {
            *cwd = Some(dir.into());
        }
        self
    }

    /// Adds a header (HTTP).
    #[must_use]
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        if let McpTransport::Http { headers, .. } = &mut self.transport {
            headers.insert(name.into(), value.into());
        }
        self
    }

    /// Sets the call timeout.
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Sets the connect timeout.
    #[must_use]
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// Sets the rules of all its tools.
    #[must_use]
    pub fn rules(mut self, rules: McpToolRules) -> Self {
        self.rules = rules;
        self
    }

    /// Sets the rules of one tool.
    #[must_use]
    pub fn tool(mut self, name: impl Into<String>, rules: McpToolRules) -> Self {
        self.tools.insert(name.into(), rules);
        self
    }

    /// Sets how many failures in a row disable it.
    #[must_use]
    pub fn max_restarts(mut self, max: u32) -> Self {
        self.max_restarts = max;
        self
    }

    /// Restarts it when its program changes on disk.
    #[must_use]
    pub fn watch(mut self, watch: bool) -> Self {
        self.watch = watch;
        self
    }

    /// Sets the protocol era.
    #[must_use]
    pub fn protocol(mut self, protocol: McpProtocol) -> Self {
        self.protocol = protocol;
        self
    }

    /// Sets how often to check that the server still answers (`None`: never).
    #[must_use]
    pub fn ping_interval(mut self, every: Option<Duration>) -> Self {
        self.ping_interval = every;
        self
    }

    /// Sends the caller's chat context with each call: the whole
    /// [`ToolExecutionContext`](toolhook::ToolExecutionContext) (chat, user, platform, rank,
    /// session, the model's `reasoning` and the host's `metadata`), in the request's `_meta`
    /// under `toolhook/context`, for a server that reads it: a plugin in its own process
    /// ([`serve_plugin_process`](super::serve_plugin_process)) then fills its context parameters
    /// from it as it would in the host. Leave it off (the default) for any other server: the
    /// context names the chat and the user. Host and plugin should be built with the same
    /// toolhook version: a context the plugin cannot read fails the call.
    #[must_use]
    pub fn forward_context(mut self, forward: bool) -> Self {
        self.forward_context = forward;
        self
    }
}

/// A mistake in an MCP servers document, naming the entry.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{at}: {message}")]
pub struct McpConfigError {
    at: String,
    message: String,
}

impl McpConfigError {
    fn new(at: impl Into<String>, message: impl Into<String>) -> Self {
        McpConfigError { at: at.into(), message: message.into() }
    }

    /// Where: `mcpServers.{name}` or deeper.
    pub fn at(&self) -> &str {
        &self.at
    }
}

/// The MCP servers a host uses, in the order they were written.
///
/// ```
/// use toolhook_runtime::mcp::McpServersConfig;
///
/// let config = McpServersConfig::from_json(r#"{"mcpServers": {
///     "everything": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"]},
///     "remote": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer s3cret"},
///                "toolhook": {"timeout_secs": 60, "visibility": "visible"}}
/// }}"#)?;
/// assert_eq!(config.servers().map(|(name, _)| name).collect::<Vec<_>>(), ["everything", "remote"]);
///
/// let error = McpServersConfig::from_json(r#"{"mcpServers": {"broken": {"args": ["x"]}}}"#).unwrap_err();
/// assert_eq!(error.to_string(), r#"mcpServers.broken: needs "command" (a program to run) or "url" (an HTTP endpoint)"#);
/// # Ok::<(), toolhook_runtime::mcp::McpConfigError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct McpServersConfig {
    servers: Vec<(String, McpServerEntry)>,
}

impl McpServersConfig {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a server (one with the same name is replaced, keeping its place).
    #[must_use]
    pub fn server(mut self, name: impl Into<String>, entry: McpServerEntry) -> Self {
        let name = name.into();
        match self.servers.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = entry,
            None => self.servers.push((name, entry)),
        }
        self
    }

    /// The servers, in order.
    pub fn servers(&self) -> impl Iterator<Item = (&str, &McpServerEntry)> {
        self.servers.iter().map(|(n, e)| (n.as_str(), e))
    }

    /// Reads a document `{"mcpServers": {…}}` (or the bare map).
    pub fn from_json(text: &str) -> Result<Self, McpConfigError> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| McpConfigError::new("mcpServers", format!("not JSON: {e}")))?;
        Self::from_value(&value)
    }

    /// Reads a parsed document.
    pub fn from_value(document: &Value) -> Result<Self, McpConfigError> {
        let servers = match document.get("mcpServers") {
            Some(servers) => servers,
            None => document,
        };
        let Some(servers) = servers.as_object() else {
            return Err(McpConfigError::new("mcpServers", "must be an object of server entries"));
        };
        let mut config = McpServersConfig::new();
        for (name, entry) in servers {
            let at = format!("mcpServers.{name}");
            if name.trim().is_empty() {
                return Err(McpConfigError::new(at, "a server needs a name"));
            }
            config.servers.push((name.clone(), entry_from(&at, entry)?));
        }
        Ok(config)
    }
}

fn entry_from(at: &str, value: &Value) -> Result<McpServerEntry, McpConfigError> {
    let error = |message: String| McpConfigError::new(at, message);
    let Some(map) = value.as_object() else { return Err(error("must be an object".into())) };
    let text = |key: &str| -> Result<Option<String>, McpConfigError> {
        match map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => {
                Err(error(format!("\"{key}\" must be a string, not {}", toolhook::args::describe_value(other))))
            }
        }
    };
    let strings = |key: &str| -> Result<Map<String, Value>, McpConfigError> {
        match map.get(key) {
            None | Some(Value::Null) => Ok(Map::new()),
            Some(Value::Object(entries)) => {
                if let Some((k, v)) = entries.iter().find(|(_, v)| !v.is_string()) {
                    return Err(error(format!(
                        "\"{key}.{k}\" must be a string, not {}",
                        toolhook::args::describe_value(v)
                    )));
                }
                Ok(entries.clone())
            }
            Some(other) => Err(error(format!(
                "\"{key}\" must be an object of strings, not {}",
                toolhook::args::describe_value(other)
            ))),
        }
    };
    let to_map = |m: Map<String, Value>| -> BTreeMap<String, String> {
        m.into_iter().map(|(k, v)| (k, v.as_str().unwrap_or_default().to_owned())).collect()
    };
    let kind = text("type")?;
    let (command, url) = (text("command")?, text("url")?);
    let transport = match (command, url, kind.as_deref()) {
        (_, _, Some("sse")) => {
            return Err(error(
                "the old HTTP+SSE transport is not supported; use the server's Streamable HTTP endpoint".into(),
            ));
        }
        (Some(_), Some(_), _) => return Err(error("has both \"command\" and \"url\"; give one".into())),
        (Some(command), None, None | Some("stdio")) => {
            let args = match map.get("args") {
                None | Some(Value::Null) => Vec::new(),
                Some(Value::Array(items)) => items
                    .iter()
                    .enumerate()
                    .map(|(i, a)| {
                        a.as_str().map(str::to_owned).ok_or_else(|| error(format!("\"args[{i}]\" must be a string")))
                    })
                    .collect::<Result<_, _>>()?,
                Some(other) => {
                    return Err(error(format!(
                        "\"args\" must be an array of strings, not {}",
                        toolhook::args::describe_value(other)
                    )));
                }
            };
            if command.trim().is_empty() {
                return Err(error("\"command\" is empty".into()));
            }
            McpTransport::Stdio { command, args, env: to_map(strings("env")?), cwd: text("cwd")?.map(PathBuf::from) }
        }
        (None, Some(url), None | Some("http" | "streamable-http" | "streamableHttp")) => {
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err(error(format!("\"url\" must start with http:// or https://, not {url:?}")));
            }
            McpTransport::Http { url, headers: to_map(strings("headers")?) }
        }
        (_, _, Some(other)) if !matches!(other, "stdio" | "http" | "streamable-http" | "streamableHttp") => {
            return Err(error(format!("unknown \"type\" {other:?}; expected \"stdio\" or \"http\"")));
        }
        (Some(_), None, Some(_)) => return Err(error("\"type\" says HTTP, but the entry has a \"command\"".into())),
        (None, Some(_), Some(_)) => return Err(error("\"type\" says stdio, but the entry has a \"url\"".into())),
        (None, None, _) => {
            return Err(error("needs \"command\" (a program to run) or \"url\" (an HTTP endpoint)".into()));
        }
    };
    let mut entry = McpServerEntry::new(transport);
    match map.get("disabled") {
        None | Some(Value::Null) => {}
        Some(Value::Bool(disabled)) => entry.enabled = !disabled,
        Some(other) => {
            return Err(error(format!(
                "\"disabled\" must be true or false, not {}",
                toolhook::args::describe_value(other)
            )));
        }
    }
    if let Some(own) = map.get("toolhook") {
        toolhook_settings(&format!("{at}.toolhook"), own, &mut entry)?;
    }
    Ok(entry)
}

/// toolhook's settings of an entry.
fn toolhook_settings(at: &str, value: &Value, entry: &mut McpServerEntry) -> Result<(), McpConfigError> {
    let Some(map) = value.as_object() else { return Err(McpConfigError::new(at, "must be an object")) };
    for (key, value) in map {
        let at_key = format!("{at}.{key}");
        let error = |message: String| McpConfigError::new(&at_key, message);
        let seconds = || {
            value.as_f64().filter(|s| *s > 0.0 && s.is_finite()).map(Duration::from_secs_f64).ok_or_else(|| {
                error(format!("must be a number of seconds above 0, not {}", toolhook::args::describe_value(value)))
            })
        };
        match key.as_str() {
            "timeout_secs" => entry.timeout = seconds()?,
            "connect_timeout_secs" => entry.connect_timeout = seconds()?,
            "max_restarts" => {
                entry.max_restarts = value.as_u64().and_then(|n| u32::try_from(n).ok()).ok_or_else(|| {
                    error(format!("must be a whole number, not {}", toolhook::args::describe_value(value)))
                })?;
            }
            "watch" => entry.watch = value.as_bool().ok_or_else(|| error("must be true or false".into()))?,
            "forward_context" => {
                entry.forward_context = value.as_bool().ok_or_else(|| error("must be true or false".into()))?;
            }
            "ping_secs" => {
                entry.ping_interval = match value.as_f64() {
                    Some(0.0) => None,
                    _ => Some(seconds()?),
                };
            }
            "protocol" => {
                let text = value.as_str().ok_or_else(|| error("must be a string".into()))?;
                entry.protocol = text.parse().map_err(error)?;
            }
            "tools" => {
                let Some(tools) = value.as_object() else {
                    return Err(error("must be an object of tool names".into()));
                };
                for (tool, rules) in tools {
                    entry.tools.insert(tool.clone(), rules_from(&format!("{at_key}.{tool}"), rules, false)?);
                }
            }
            _ => {}
        }
    }
    let rules = Value::Object(map.iter().filter(|(k, _)| is_rule(k)).map(|(k, v)| (k.clone(), v.clone())).collect());
    entry.rules = rules_from(at, &rules, true)?;
    let known = [
        "timeout_secs",
        "connect_timeout_secs",
        "ping_secs",
        "max_restarts",
        "watch",
        "forward_context",
        "protocol",
        "tools",
    ];
    if let Some(unknown) = map.keys().find(|k| !known.contains(&k.as_str()) && !is_rule(k)) {
        let expected = known.iter().chain(RULES.iter()).map(|k| format!("\"{k}\"")).collect::<Vec<_>>().join(", ");
        return Err(McpConfigError::new(
            format!("{at}.{unknown}"),
            format!("unknown setting; expected one of {expected}"),
        ));
    }
    Ok(())
}

const RULES: [&str; 4] = ["visibility", "permission", "platforms", "scopes"];

fn is_rule(key: &str) -> bool {
    RULES.contains(&key)
}

fn rules_from(at: &str, value: &Value, mixed: bool) -> Result<McpToolRules, McpConfigError> {
    let Some(map) = value.as_object() else { return Err(McpConfigError::new(at, "must be an object")) };
    let mut rules = McpToolRules::default();
    for (key, value) in map {
        let at_key = format!("{at}.{key}");
        let error = |message: String| McpConfigError::new(&at_key, message);
        let text = || {
            value
                .as_str()
                .ok_or_else(|| error(format!("must be a string, not {}", toolhook::args::describe_value(value))))
        };
        let list = || -> Result<Vec<&str>, McpConfigError> {
            value
                .as_array()
                .ok_or_else(|| error("must be an array of strings".into()))?
                .iter()
                .map(|v| v.as_str().ok_or_else(|| error("must be an array of strings".into())))
                .collect()
        };
        match key.as_str() {
            "visibility" => rules.visibility = Some(text()?.parse().map_err(|e| error(format!("{e}")))?),
            "permission" => rules.permission = Some(text()?.parse().map_err(|e| error(format!("{e}")))?),
            "platforms" => rules.platforms = Some(list()?.into_iter().map(str::to_owned).collect()),
            "scopes" => {
                rules.scopes = Some(
                    list()?
                        .into_iter()
                        .map(|s| s.parse().map_err(|e| error(format!("{e}"))))
                        .collect::<Result<_, _>>()?,
                );
            }
            _ if mixed => {}
            other => {
                return Err(McpConfigError::new(
                    format!("{at}.{other}"),
                    "unknown setting; expected \"visibility\", \"permission\", \"platforms\" or \"scopes\"",
                ));
            }
        }
    }
    Ok(rules)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn error(document: Value) -> String {
        McpServersConfig::from_value(&document).unwrap_err().to_string()
    }

    #[test]
    fn entries_pasted_from_other_clients_are_read() {
        let config = McpServersConfig::from_value(&json!({"mcpServers": {
            "files": {"command": "npx", "args": ["-y", "server-files", "/tmp"], "env": {"DEBUG": "1"}, "autoApprove": []},
            "remote": {"type": "http", "url": "http://127.0.0.1:9000/mcp", "headers": {"Authorization": "Bearer t"}},
            "off": {"command": "x", "disabled": true},
        }}))
        .unwrap();
        let servers: Vec<(&str, &McpServerEntry)> = config.servers().collect();
        assert_eq!(servers.len(), 3);
        assert_eq!(
            servers[0].1.transport,
            McpTransport::Stdio {
                command: "npx".into(),
                args: vec!["-y".into(), "server-files".into(), "/tmp".into()],
                env: BTreeMap::from([("DEBUG".into(), "1".into())]),
                cwd: None,
            }
        );
        assert!(
            matches!(&servers[1].1.transport, McpTransport::Http { url, headers } if url.ends_with("/mcp") && headers["Authorization"] == "Bearer t")
        );
        assert!(!servers[2].1.enabled);
    }

    #[test]
    fn toolhook_settings_set_rules_and_limits() {
        let config = McpServersConfig::from_value(&json!({"mcpServers": {"s": {"command": "x", "toolhook": {
            "timeout_secs": 12, "visibility": "visible", "permission": "group_admin", "max_restarts": 2,
            "protocol": "2025-11-25", "ping_secs": 0, "forward_context": true,
            "tools": {"danger": {"permission": "owner", "visibility": "hidden"}},
        }}}}))
        .unwrap();
        let entry = config.servers().next().unwrap().1;
        assert!(entry.forward_context);
        assert!(!McpServerEntry::stdio("x").forward_context, "off unless asked for");
        assert_eq!(entry.timeout, Duration::from_secs(12));
        assert_eq!(entry.max_restarts, 2);
        assert_eq!(entry.protocol, McpProtocol::Initialize);
        assert_eq!(entry.ping_interval, None);
        assert_eq!(entry.rules.visibility, Some(Visibility::Visible));
        assert_eq!(entry.rules.permission, Some(PermissionLevel::GroupAdmin));
        let danger = entry.rules.overridden_by(entry.tools.get("danger"));
        assert_eq!((danger.visibility, danger.permission), (Some(Visibility::Hidden), Some(PermissionLevel::Owner)));
    }

    #[test]
    fn mistakes_name_the_entry_and_the_key() {
        assert_eq!(error(json!({"mcpServers": []})), "mcpServers: must be an object of server entries");
        assert_eq!(
            error(json!({"mcpServers": {"a": {"command": 3}}})),
            "mcpServers.a: \"command\" must be a string, not integer 3"
        );
        assert_eq!(
            error(json!({"mcpServers": {"a": {"command": "x", "url": "http://h"}}})),
            "mcpServers.a: has both \"command\" and \"url\"; give one"
        );
        assert_eq!(
            error(json!({"mcpServers": {"a": {"url": "ftp://h"}}})),
            "mcpServers.a: \"url\" must start with http:// or https://, not \"ftp://h\""
        );
        assert_eq!(
            error(json!({"mcpServers": {"a": {"url": "http://h", "type": "sse"}}})),
            "mcpServers.a: the old HTTP+SSE transport is not supported; use the server's Streamable HTTP endpoint"
        );
        assert_eq!(
            error(json!({"mcpServers": {"a": {"command": "x", "env": {"K": 1}}}})),
            "mcpServers.a: \"env.K\" must be a string, not integer 1"
        );
        assert_eq!(
            error(json!({"mcpServers": {"a": {"command": "x", "args": ["ok", 2]}}})),
            "mcpServers.a: \"args[1]\" must be a string"
        );
        assert!(
            error(json!({"mcpServers": {"a": {"command": "x", "toolhook": {"timout_secs": 3}}}}))
                .starts_with("mcpServers.a.toolhook.timout_secs: unknown setting; expected one of \"timeout_secs\"")
        );
        assert!(
            error(json!({"mcpServers": {"a": {"command": "x", "toolhook": {"visibility": "shown"}}}}))
                .starts_with("mcpServers.a.toolhook.visibility: ")
        );
        assert_eq!(
            error(json!({"mcpServers": {"a": {"command": "x", "toolhook": {"forward_context": "yes"}}}})),
            "mcpServers.a.toolhook.forward_context: must be true or false"
        );
        assert!(
            error(json!({"mcpServers": {"a": {"command": "x", "toolhook": {"tools": {"t": {"permision": "owner"}}}}}}))
                .starts_with("mcpServers.a.toolhook.tools.t.permision: unknown setting")
        );
        assert_eq!(
            error(json!({"mcpServers": {"a": {"command": "x", "toolhook": {"protocol": "2024-11-05"}}}})),
            "mcpServers.a.toolhook.protocol: unknown protocol \"2024-11-05\"; expected \"auto\", \"2026-07-28\" or \"2025-11-25\""
        );
    }
}
