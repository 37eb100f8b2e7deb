//! Collecting every plugin and component linked into the program.

use super::unavailable::Unavailable;
use crate::command::CommandSpec;
use crate::plugins::config::{ConfigError, normalise};
use crate::provider::plugin::PluginTool;
use rustc_hash::FxHashMap as HashMap;
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::OnceLock;
use toolhook::__private::{
    CommandRegistration, ConfigDeclaration, PluginRegistration, ToolKind, ToolRegistration, inventory,
};
use toolhook::{DeclaredHookHandler, DeclaredTool, ToolSpec, ToolSpecError};

/// A problem found while collecting or loading plugins. With a `component`, only that component
/// (a tool, a hook handler, a command) is left out and the rest of its plugin loads; without one,
/// the whole plugin fails.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PluginProblem {
    /// The plugin it concerns.
    pub plugin_id: String,
    /// The component left out (`tool weather`, `hook handler audit`, `command note`), or `None`
    /// when the whole plugin fails.
    pub component: Option<String>,
    /// What is wrong, as a sentence.
    pub message: String,
}

impl PluginProblem {
    pub(crate) fn plugin(plugin_id: &str, message: impl Into<String>) -> Self {
        PluginProblem { plugin_id: plugin_id.to_owned(), component: None, message: message.into() }
    }

    pub(crate) fn component(plugin_id: &str, component: String, message: impl Into<String>) -> Self {
        PluginProblem { plugin_id: plugin_id.to_owned(), component: Some(component), message: message.into() }
    }

    /// Logs it: an error when the whole plugin fails, a warning when one component is left out.
    pub(crate) fn log(&self) {
        self.log_as(&self.message);
    }

    /// [`log`](Self::log) with `message` in place of the problem's own: its English words, for a
    /// problem worded in another locale (log lines are English).
    pub(crate) fn log_as(&self, message: &str) {
        match &self.component {
            None => tracing::error!(plugin = %self.plugin_id, problem = %message, "plugin cannot load"),
            Some(component) => tracing::warn!(
                plugin = %self.plugin_id, %component, problem = %message, "component left out; the rest of the plugin loads"
            ),
        }
    }
}

impl std::fmt::Display for PluginProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.component {
            None => write!(f, "plugin {}: {}", self.plugin_id, self.message),
            Some(component) => write!(f, "plugin {}, {component} (left out): {}", self.plugin_id, self.message),
        }
    }
}

/// One declared tool (or legacy action) of a collected plugin, with its composed spec.
#[derive(Clone, Debug)]
pub struct CollectedTool {
    registration: &'static ToolRegistration,
    spec: ToolSpec,
}

impl CollectedTool {
    /// The tool's name.
    pub fn name(&self) -> &str {
        self.spec.name()
    }

    /// Tool or legacy action.
    pub fn kind(&self) -> ToolKind {
        self.registration.kind
    }

    /// Its spec, as the plugin declared it.
    pub fn spec(&self) -> &ToolSpec {
        &self.spec
    }
}

/// One plugin as collected: identity, components and the problems that keep it from loading.
#[derive(Clone, Debug)]
pub struct CollectedPlugin {
    id: String,
    name: String,
    version: String,
    description: String,
    registration: Option<&'static PluginRegistration>,
    package: String,
    tools: Vec<CollectedTool>,
    handlers: Vec<DeclaredHookHandler>,
    commands: Vec<CommandSpec>,
    problems: Vec<String>,
    /// Components left out, with why; the plugin loads without them.
    left_out: Vec<PluginProblem>,
}

impl CollectedPlugin {
    fn new(id: &str, name: &str, version: &str, package: &str) -> Self {
        CollectedPlugin {
            id: id.to_owned(),
            name: name.to_owned(),
            version: version.to_owned(),
            description: String::new(),
            registration: None,
            package: package.to_owned(),
            tools: Vec::new(),
            handlers: Vec::new(),
            commands: Vec::new(),
            problems: Vec::new(),
            left_out: Vec::new(),
        }
    }

    fn problem(&mut self, message: String) {
        if !self.problems.contains(&message) {
            self.problems.push(message);
        }
    }

    fn leave_out(&mut self, component: String, message: String) {
        self.left_out.push(PluginProblem::component(&self.id, component, message));
    }

    /// The plugin id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Its display name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its version.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// Its description.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The package that declares it.
    pub fn package(&self) -> &str {
        &self.package
    }

    /// Whether this is a package's default plugin (its free `#[tool]`, `#[action]` and
    /// `#[hook_handler]` fns): no instance, no config, no lifecycle.
    pub fn is_default_plugin(&self) -> bool {
        self.registration.is_none()
    }

    /// Its tools and legacy actions, sorted by name.
    pub fn tools(&self) -> &[CollectedTool] {
        &self.tools
    }

    /// Its hook handlers, sorted by name.
    pub fn hook_handlers(&self) -> &[DeclaredHookHandler] {
        &self.handlers
    }

    /// The commands its tools declare, sorted by name.
    pub fn commands(&self) -> &[CommandSpec] {
        &self.commands
    }

    /// Why it cannot load; empty when it can.
    pub fn problems(&self) -> &[String] {
        &self.problems
    }

    /// Its components that are left out, and why (a tool whose spec is invalid, a duplicate, a
    /// command that does not fit its tool): the plugin loads without them.
    pub fn left_out(&self) -> &[PluginProblem] {
        &self.left_out
    }

    /// The JSON Schema of its config type (`#[plugin(config = …)]`), for a host UI that renders a
    /// settings form; `None` when it declares no config.
    pub fn config_schema(&self) -> Option<Value> {
        self.config().map(|c| (c.schema)())
    }

    /// The version its config documents carry (`config_version = …`, default `1.0.0`).
    pub fn config_version(&self) -> Option<&'static str> {
        self.config().map(|c| c.version)
    }

    /// The document a host stores when it has none yet: the config type's defaults with the
    /// `plugin` section. `Err` when the defaults do not serialise.
    pub fn default_config(&self) -> Option<Result<Value, ConfigError>> {
        let declaration = self.config()?;
        Some(normalise(Some(declaration), None).map(|n| n.document))
    }

    /// The declared config type, if any.
    pub(crate) fn config(&self) -> Option<&'static ConfigDeclaration> {
        self.registration.and_then(|r| r.config)
    }

    pub(crate) fn registration(&self) -> Option<&'static PluginRegistration> {
        self.registration
    }

    /// The provider's view of the tools: specs stamped with `plugin_id` and `visibility`.
    pub(crate) fn tool_entries(&self) -> Vec<PluginTool> {
        self.tools
            .iter()
            .map(|t| {
                PluginTool::new(
                    t.registration,
                    t.spec.__with_metadata([
                        ("plugin_id".to_owned(), Value::from(self.id.clone())),
                        ("visibility".to_owned(), Value::from(t.spec.visibility().as_str())),
                    ]),
                )
            })
            .collect()
    }
}

/// Every tool declared in the program with its composed spec, composed once per process: the
/// registrations are `'static` and compose the same spec every time (parsing the schema text
/// the macro embedded), so every plugin set and registry made afterwards shares these.
fn declared_tools() -> &'static [(DeclaredTool, Result<ToolSpec, ToolSpecError>)] {
    static DECLARED: OnceLock<Vec<(DeclaredTool, Result<ToolSpec, ToolSpecError>)>> = OnceLock::new();
    DECLARED.get_or_init(|| {
        DeclaredTool::all()
            .into_iter()
            .map(|tool| {
                let spec = tool.spec();
                (tool, spec)
            })
            .collect()
    })
}

/// Every plugin linked into the program, read from `inventory` once and sorted by plugin id; each
/// plugin's components sorted by name (link order never matters).
///
/// Problems do not stop collection: a faulty component (a tool whose spec is invalid, a duplicate
/// name, a command that does not fit its tool) is left out of its plugin, which loads without it;
/// only what concerns the whole plugin (a duplicate plugin id, a config type that cannot be one)
/// makes it fail. [`problems`](Self::problems) lists both;
/// [`testing::assert_plugins_valid`](crate::testing::assert_plugins_valid) fails a test with them.
#[derive(Clone, Debug, Default)]
pub struct PluginSet {
    plugins: BTreeMap<String, CollectedPlugin>,
}

impl PluginSet {
    /// Collects every plugin and component.
    pub fn collect() -> Self {
        let mut plugins: BTreeMap<String, CollectedPlugin> = BTreeMap::new();
        let mut declared: Vec<&'static PluginRegistration> =
            inventory::iter::<PluginRegistration>.into_iter().collect();
        declared.sort_by_key(|r| (r.id, r.location));
        for registration in declared {
            match plugins.get_mut(registration.id) {
                Some(existing) => existing.problem(format!("duplicate plugin id {}", registration.id)),
                None => {
                    let mut plugin = CollectedPlugin::new(
                        registration.id,
                        registration.name,
                        registration.version,
                        registration.package,
                    );
                    plugin.description = registration.description.to_owned();
                    plugin.registration = Some(registration);
                    plugins.insert(registration.id.to_owned(), plugin);
                }
            }
        }
        fn entry<'a>(
            plugins: &'a mut BTreeMap<String, CollectedPlugin>,
            plugin_id: &str,
            is_method: bool,
            package: &str,
            version: &str,
        ) -> &'a mut CollectedPlugin {
            let plugin = plugins
                .entry(plugin_id.to_owned())
                .or_insert_with(|| CollectedPlugin::new(plugin_id, plugin_id, version, package));
            if !is_method && plugin.registration.is_some() {
                // A #[plugin] whose id is a package's default plugin: every copy fails.
                plugin.problem(format!("duplicate plugin id {plugin_id}"));
            }
            plugin
        }
        // Each (plugin, tool name) seen so far, and whether it was reported as a duplicate; a
        // duplicate is found by lookup, not by comparing with every earlier tool. Tools and legacy
        // actions share one name space.
        let mut seen: HashMap<(&'static str, &'static str), bool> = HashMap::default();
        for (tool, spec) in declared_tools() {
            let registration = tool.registration();
            let plugin = entry(
                &mut plugins,
                registration.plugin_id,
                registration.is_method,
                registration.package,
                registration.package_version,
            );
            if let Err(error) = spec {
                let what = if registration.kind == ToolKind::LegacyAction { "action" } else { "tool" };
                let message = format!("{error} (declared at {})", registration.location);
                plugin.leave_out(format!("{what} {}", registration.name), message);
            }
            let name = spec.as_ref().map_or(registration.name, |spec| spec.name());
            match seen.get(&(registration.plugin_id, name)) {
                None => {
                    seen.insert((registration.plugin_id, name), false);
                    if let Ok(spec) = spec {
                        plugin.tools.push(CollectedTool { registration, spec: spec.clone() });
                    }
                }
                // Which copy the author meant cannot be known: every copy is left out, whatever
                // its kind, and the name is reported once, as a tool whichever kind came second
                // (the report does not depend on order).
                Some(false) => {
                    seen.insert((registration.plugin_id, name), true);
                    plugin.tools.retain(|t| t.name() != name);
                    plugin.leave_out(format!("tool {name}"), format!("duplicate tool {name} in plugin {}", plugin.id));
                }
                Some(true) => {}
            }
        }
        for handler in DeclaredHookHandler::all() {
            let registration = handler.registration();
            let plugin = entry(
                &mut plugins,
                handler.plugin_id(),
                handler.is_method(),
                registration.package,
                registration.package_version,
            );
            // As with tools, which copy the author meant cannot be known (nor may link order
            // decide): every copy is left out, under one problem.
            let message = format!("duplicate HookHandler {}", handler.full_name());
            if plugin.handlers.iter().any(|h| h.name() == handler.name()) {
                plugin.handlers.retain(|h| h.name() != handler.name());
                plugin.leave_out(format!("hook handler {}", handler.name()), message);
            } else if !plugin.left_out.iter().any(|p| p.message == message) {
                plugin.handlers.push(handler);
            }
        }
        let mut commands: Vec<&'static CommandRegistration> =
            inventory::iter::<CommandRegistration>.into_iter().collect();
        commands.sort_by_key(|c| (c.plugin_id, c.tool));
        for command in commands {
            let Some(plugin) = plugins.get_mut(command.plugin_id) else { continue };
            let Some(tool) = plugin.tools.iter().find(|t| t.name() == command.tool) else { continue };
            match CommandSpec::from_registration(tool.spec(), command) {
                Ok(spec) => plugin.commands.push(spec),
                Err(error) => plugin.leave_out(
                    format!("command {}", command.tool),
                    format!("{error} (declared at {})", command.location),
                ),
            }
        }
        for plugin in plugins.values_mut() {
            plugin.tools.sort_by(|a, b| a.name().cmp(b.name()));
            plugin.handlers.sort_by(|a, b| a.name().cmp(b.name()));
            plugin.commands.sort_by(|a, b| a.name().cmp(b.name()));
            if let Some(config) = plugin.config() {
                let schema = (config.schema)();
                let declares_plugin =
                    schema.get("properties").and_then(Value::as_object).is_some_and(|p| p.contains_key("plugin"));
                if declares_plugin {
                    let id = plugin.id.clone();
                    plugin
                        .problem(format!("config type of plugin {id} must not declare a top-level field named plugin"));
                }
            }
        }
        PluginSet { plugins }
    }

    /// Keeps only the plugins the predicate accepts (a host serving a subset).
    pub fn retain(mut self, keep: impl Fn(&CollectedPlugin) -> bool) -> Self {
        self.plugins.retain(|_, p| keep(p));
        self
    }

    /// Keeps only the plugins with these ids.
    pub fn only<S: AsRef<str>>(self, ids: impl IntoIterator<Item = S>) -> Self {
        let ids: Vec<String> = ids.into_iter().map(|s| s.as_ref().to_owned()).collect();
        self.retain(|p| ids.iter().any(|id| id == p.id()))
    }

    /// The plugins, sorted by id.
    pub fn plugins(&self) -> impl Iterator<Item = &CollectedPlugin> {
        self.plugins.values()
    }

    /// One plugin by id.
    pub fn get(&self, id: &str) -> Option<&CollectedPlugin> {
        self.plugins.get(id)
    }

    /// Every problem found, plugin by plugin: those that fail a whole plugin, then its
    /// components left out.
    pub fn problems(&self) -> Vec<PluginProblem> {
        self.plugins
            .values()
            .flat_map(|p| {
                p.problems.iter().map(|m| PluginProblem::plugin(&p.id, m.clone())).chain(p.left_out.iter().cloned())
            })
            .collect()
    }

    /// Why a tool declared in this program is not served: its own spec or command is faulty, or
    /// its plugin cannot load. `None` for a tool that is fine, or that no plugin declares.
    pub(crate) fn why_not_served(&self, tool: &str) -> Option<Unavailable> {
        self.plugins.values().find_map(|p| {
            let declared = p.tools.iter().any(|t| t.name() == tool);
            if declared && !p.problems.is_empty() {
                return Some(Unavailable::cannot_load(&p.id, &p.problems));
            }
            p.left_out
                .iter()
                .find(|problem| {
                    let component = problem.component.as_deref().unwrap_or_default();
                    component.strip_prefix("tool ").or_else(|| component.strip_prefix("action ")) == Some(tool)
                })
                .map(|problem| Unavailable::as_reported(&problem.message))
        })
    }

    /// Every declared command, sorted by name.
    pub fn commands(&self) -> Vec<CommandSpec> {
        let mut all: Vec<CommandSpec> = self.plugins.values().flat_map(|p| p.commands.iter().cloned()).collect();
        all.sort_by(|a, b| a.name().cmp(b.name()));
        all
    }
}
