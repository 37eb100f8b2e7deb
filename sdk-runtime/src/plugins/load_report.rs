//! What loading plugins did: each plugin's outcome, and every problem, which a host must look at.

use super::set::PluginProblem;
use super::state::PluginState;

/// One plugin's outcome of [`PluginHost::load_all`](super::PluginHost::load_all).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadOutcome {
    /// The plugin.
    pub plugin_id: String,
    /// Its state after loading.
    pub state: PluginState,
    /// Why it failed or is disabled.
    pub reason: Option<String>,
}

/// What [`PluginHost::load_all`](super::PluginHost::load_all) did: each plugin's outcome, and
/// every problem found while collecting and loading — plugins that failed and components (a
/// tool, a hook handler, a command) that were left out while the rest of their plugin loaded.
///
/// Each problem has also been logged through `tracing`. A host that wants to stop on any
/// problem calls [`into_result`](Self::into_result):
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use toolhook_runtime::{PluginHost, ToolRegistry};
///
/// let registry = ToolRegistry::default();
/// let host = PluginHost::builder().registry(&registry).build();
/// match host.load_all().await.into_result() {
///     Ok(outcomes) => println!("{} plugins loaded", outcomes.len()),
///     Err(error) => eprintln!("{error}"), // one line per problem
/// }
/// # });
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[must_use = "a plugin or a component that failed to load is reported here; look at `problems()` or call `into_result()`"]
pub struct LoadReport {
    outcomes: Vec<LoadOutcome>,
    problems: Vec<PluginProblem>,
}

impl LoadReport {
    pub(crate) fn new(outcomes: Vec<LoadOutcome>, problems: Vec<PluginProblem>) -> Self {
        LoadReport { outcomes, problems }
    }

    /// Each plugin's outcome, in load order (built-in plugins first, then by id).
    pub fn outcomes(&self) -> &[LoadOutcome] {
        &self.outcomes
    }

    /// One plugin's outcome.
    pub fn outcome(&self, plugin_id: &str) -> Option<&LoadOutcome> {
        self.outcomes.iter().find(|o| o.plugin_id == plugin_id)
    }

    /// Every problem: plugins that failed (no `component`) and components left out.
    pub fn problems(&self) -> &[PluginProblem] {
        &self.problems
    }

    /// Whether everything loaded (a plugin switched off by its config is not a problem).
    pub fn is_clean(&self) -> bool {
        self.problems.is_empty()
    }

    /// The outcomes when nothing went wrong, else an error listing every problem.
    pub fn into_result(self) -> Result<Vec<LoadOutcome>, LoadError> {
        if self.problems.is_empty() { Ok(self.outcomes) } else { Err(LoadError { problems: self.problems }) }
    }
}

impl IntoIterator for LoadReport {
    type Item = LoadOutcome;
    type IntoIter = std::vec::IntoIter<LoadOutcome>;

    fn into_iter(self) -> Self::IntoIter {
        self.outcomes.into_iter()
    }
}

impl<'a> IntoIterator for &'a LoadReport {
    type Item = &'a LoadOutcome;
    type IntoIter = std::slice::Iter<'a, LoadOutcome>;

    fn into_iter(self) -> Self::IntoIter {
        self.outcomes.iter()
    }
}

/// Loading found problems: every one of them, one per line when displayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    problems: Vec<PluginProblem>,
}

impl LoadError {
    /// Every problem.
    pub fn problems(&self) -> &[PluginProblem] {
        &self.problems
    }
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let count = self.problems.len();
        write!(f, "{count} problem{} while loading plugins:", if count == 1 { "" } else { "s" })?;
        for problem in &self.problems {
            write!(f, "\n- {problem}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LoadError {}
