//! Collecting every plugin and component linked into the program (plugins.md §1.4).

use crate::provider::plugin::PluginTool;
use serde_json::Value;
use std::collections::BTreeMap;
use toolhook::__private::{ToolKind, ToolRegistration};
use toolhook::{DeclaredTool, ToolSpec};

/// A problem found while collecting plugins; the plugin it names fails to load, the rest load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PluginProblem {
    /// The plugin that fails.
    pub plugin_id: String,
    /// What is wrong, as a sentence.
    pub message: String,
}

/// One declared tool of a collected plugin, with its composed spec.
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

    pub(crate) fn registration(&self) -> &'static ToolRegistration {
        self.registration
    }
}

/// One plugin as collected: identity, components and the problems that keep it from loading.
#[derive(Clone, Debug)]
pub struct CollectedPlugin {
    id: String,
    name: String,
    version: String,
    default_plugin: bool,
    tools: Vec<CollectedTool>,
    problems: Vec<String>,
}

impl CollectedPlugin {
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

    /// Whether this is a package's default plugin (its free `#[tool]` fns).
    pub fn is_default_plugin(&self) -> bool {
        self.default_plugin
    }

    /// Its tools and legacy actions, sorted by name.
    pub fn tools(&self) -> &[CollectedTool] {
        &self.tools
    }

    /// Why it cannot load; empty when it can.
    pub fn problems(&self) -> &[String] {
        &self.problems
    }

    /// The provider's view of the tools: specs stamped with `plugin_id` and `visibility`.
    pub(crate) fn tool_entries(&self) -> Vec<PluginTool> {
        self.tools
            .iter()
            .map(|t| PluginTool {
                registration: t.registration,
                spec: t.spec.__with_metadata([
                    ("plugin_id".to_owned(), Value::from(self.id.clone())),
                    ("visibility".to_owned(), Value::from(t.spec.visibility().as_str())),
                ]),
                enabled: true,
            })
            .collect()
    }
}

/// Every plugin linked into the program, read from `inventory` once and sorted by plugin id (link
/// order never matters).
///
/// Problems do not stop collection: each makes the affected plugin fail with a reason, and the
/// rest load.
#[derive(Clone, Debug, Default)]
pub struct PluginSet {
    plugins: BTreeMap<String, CollectedPlugin>,
}

impl PluginSet {
    /// Collects every plugin and component.
    pub fn collect() -> Self {
        let mut plugins: BTreeMap<String, CollectedPlugin> = BTreeMap::new();
        for declared in DeclaredTool::all() {
            let registration = declared.registration();
            let plugin = plugins.entry(registration.plugin_id.to_owned()).or_insert_with(|| CollectedPlugin {
                id: registration.plugin_id.to_owned(),
                name: registration.plugin_id.to_owned(),
                version: registration.package_version.to_owned(),
                default_plugin: !registration.is_method,
                tools: Vec::new(),
                problems: Vec::new(),
            });
            match declared.spec() {
                Ok(spec) => {
                    if plugin.tools.iter().any(|t| t.name() == spec.name()) {
                        let problem = format!("duplicate tool {} in plugin {}", spec.name(), plugin.id);
                        if !plugin.problems.contains(&problem) {
                            plugin.problems.push(problem);
                        }
                    } else {
                        plugin.tools.push(CollectedTool { registration, spec });
                    }
                }
                Err(error) => plugin.problems.push(format!("{error} (declared at {})", registration.location)),
            }
        }
        for plugin in plugins.values_mut() {
            plugin.tools.sort_by(|a, b| a.name().cmp(b.name()));
        }
        PluginSet { plugins }
    }

    /// The plugins, sorted by id.
    pub fn plugins(&self) -> impl Iterator<Item = &CollectedPlugin> {
        self.plugins.values()
    }

    /// One plugin by id.
    pub fn get(&self, id: &str) -> Option<&CollectedPlugin> {
        self.plugins.get(id)
    }

    /// Every problem found, plugin by plugin.
    pub fn problems(&self) -> Vec<PluginProblem> {
        self.plugins
            .values()
            .flat_map(|p| p.problems.iter().map(|m| PluginProblem { plugin_id: p.id.clone(), message: m.clone() }))
            .collect()
    }
}
