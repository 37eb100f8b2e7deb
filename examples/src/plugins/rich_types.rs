//! Tools whose parameters are rich user types: recursive and shared types, enums in every serde
//! tagging form, maps, sets, flattened structs, defaults, bounds and string formats, with
//! structured outputs — every shape a model API's schema dialect has to carry.
//!
//! A project planner and its integrations are the methods of one `#[plugin]`; the document
//! outliner, the comment thread, the shop and the maze are free `#[tool]` fns.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use toolhook::serde_json::Value;
use toolhook::{Json, plugin, schemars, serde, tool};

// ---------------------------------------------------------------------------------------------
// The project planner
// ---------------------------------------------------------------------------------------------

/// How urgent a task is.
#[derive(
    serde::Serialize, serde::Deserialize, schemars::JsonSchema, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord,
)]
#[serde(crate = "toolhook::serde", rename_all = "snake_case")]
#[schemars(crate = "toolhook::schemars")]
pub enum Priority {
    /// Do it today.
    High,
    /// Do it this week.
    Medium,
    /// Do it when there is time.
    Low,
}

/// Someone who works on a project or reports a bug.
#[derive(serde::Deserialize, schemars::JsonSchema, Clone, Debug)]
#[serde(crate = "toolhook::serde", rename_all = "camelCase")]
#[schemars(crate = "toolhook::schemars")]
pub struct Person {
    /// Full name.
    #[schemars(length(min = 1, max = 80))]
    pub name: String,
    /// Work email address.
    #[schemars(email)]
    pub email: String,
    /// How else to reach them.
    pub contact: Option<Contact>,
}

/// Ways to reach a person besides email.
#[derive(serde::Deserialize, schemars::JsonSchema, Clone, Debug)]
#[serde(crate = "toolhook::serde", rename_all = "camelCase")]
#[schemars(crate = "toolhook::schemars")]
pub struct Contact {
    /// Phone number in international form, e.g. "+4930123456".
    #[schemars(regex(pattern = r"^\+[1-9][0-9]{6,14}$"))]
    pub phone: Option<String>,
    /// Chat handle, without the leading "@".
    pub chat_handle: Option<String>,
}

/// One piece of work.
#[derive(serde::Deserialize, schemars::JsonSchema, Clone, Debug)]
#[serde(crate = "toolhook::serde", rename_all = "camelCase")]
#[schemars(crate = "toolhook::schemars")]
pub struct Task {
    /// Short title, unique within the project.
    #[schemars(length(min = 3, max = 120))]
    pub title: String,
    /// How urgent it is.
    pub priority: Priority,
    /// Estimated effort in hours, in half hours.
    #[schemars(range(min = 0.5, max = 80), extend("multipleOf" = 0.5))]
    pub estimate_hours: f64,
    /// Titles of the tasks that must be done first.
    #[serde(default)]
    pub depends_on: BTreeSet<String>,
    /// Who does it; nobody yet when left out.
    pub assignee: Option<Person>,
    /// Whether it is done already.
    #[serde(default)]
    pub done: bool,
}

/// A checkpoint of the project and the tasks that lead to it.
#[derive(serde::Deserialize, schemars::JsonSchema, Clone, Debug)]
#[serde(crate = "toolhook::serde", rename_all = "camelCase")]
#[schemars(crate = "toolhook::schemars")]
pub struct Milestone {
    /// Name of the milestone.
    pub name: String,
    /// Day it is due, e.g. "2025-03-31".
    #[schemars(extend("format" = "date"))]
    pub due_on: Option<String>,
    /// The tasks that lead to it.
    pub tasks: Vec<Task>,
}

/// A project to plan: its owner and milestones.
#[derive(serde::Deserialize, schemars::JsonSchema, Clone, Debug)]
#[serde(crate = "toolhook::serde", rename_all = "camelCase")]
#[schemars(crate = "toolhook::schemars")]
pub struct Project {
    /// Name of the project.
    #[schemars(length(min = 1, max = 60))]
    pub project_name: String,
    /// Who answers for the project.
    pub owner: Person,
    /// When work starts, RFC 3339, e.g. "2025-03-03T09:00:00Z".
    #[schemars(extend("format" = "date-time"))]
    pub starts_at: String,
    /// The milestones, in order.
    #[schemars(length(min = 1))]
    pub milestones: Vec<Milestone>,
}

/// One open task of a plan, in the order it should be worked on.
#[derive(serde::Serialize, schemars::JsonSchema, Debug)]
#[serde(crate = "toolhook::serde", rename_all = "camelCase")]
#[schemars(crate = "toolhook::schemars")]
pub struct PlannedTask {
    /// The milestone it belongs to.
    pub milestone: String,
    /// The task's title.
    pub title: String,
    /// How urgent it is.
    pub priority: Priority,
    /// Who does it, by name; the project owner when nobody was assigned.
    pub owner: String,
    /// Hours of effort.
    pub hours: f64,
}

/// A project's plan: its open tasks in order, and the effort left.
#[derive(serde::Serialize, schemars::JsonSchema, Debug)]
#[serde(crate = "toolhook::serde", rename_all = "camelCase")]
#[schemars(crate = "toolhook::schemars")]
pub struct ProjectPlan {
    /// Name of the project.
    pub project_name: String,
    /// Open tasks, most urgent first, each after the tasks it depends on.
    pub order: Vec<PlannedTask>,
    /// Hours of open work per priority.
    pub hours_by_priority: BTreeMap<String, f64>,
    /// Open tasks nobody is assigned to.
    pub unassigned: Vec<String>,
    /// Email addresses of everyone with open work, the owner included.
    pub people: BTreeSet<String>,
}

/// The settings of a webhook's retries, written beside its other settings.
#[derive(serde::Deserialize, schemars::JsonSchema, Clone, Debug)]
#[serde(crate = "toolhook::serde", rename_all = "camelCase")]
#[schemars(crate = "toolhook::schemars")]
pub struct RetryPolicy {
    /// Delivery attempts before giving up.
    #[serde(default = "RetryPolicy::default_attempts")]
    #[schemars(range(min = 1, max = 10))]
    pub max_attempts: u8,
    /// Seconds before the first retry, in steps of 5; doubled after each failure.
    #[serde(default = "RetryPolicy::default_backoff")]
    #[schemars(range(min = 5, max = 3600), extend("multipleOf" = 5))]
    pub backoff_seconds: u32,
    /// Share of deliveries whose body is logged: more than 0, at most 1.
    #[serde(default = "RetryPolicy::default_sample_rate")]
    #[schemars(range(max = 1), extend("exclusiveMinimum" = 0))]
    pub sample_rate: f64,
}

impl RetryPolicy {
    fn default_attempts() -> u8 {
        3
    }

    fn default_backoff() -> u32 {
        30
    }

    fn default_sample_rate() -> f64 {
        0.1
    }
}

/// Where and how project events are pushed to another service.
#[derive(serde::Deserialize, schemars::JsonSchema, Clone, Debug)]
#[serde(crate = "toolhook::serde", rename_all = "camelCase")]
#[schemars(crate = "toolhook::schemars")]
pub struct Webhook {
    /// The https address events are posted to.
    #[schemars(url)]
    pub endpoint: String,
    /// Who is told when deliveries keep failing.
    #[schemars(email)]
    pub alert_email: Option<String>,
    /// Events to push, such as "task.created" or "milestone.reached".
    #[schemars(length(min = 1), inner(regex(pattern = r"^[a-z]+\.[a-z_]+$")))]
    pub events: BTreeSet<String>,
    /// Extra HTTP headers sent with each delivery, by header name.
    #[serde(default)]
    pub headers: BTreeMap<String, String>,
    /// Secret the deliveries are signed with.
    #[schemars(length(min = 16, max = 64))]
    pub secret: String,
    /// When deliveries start, RFC 3339; at once when left out.
    #[schemars(extend("format" = "date-time"))]
    pub active_from: Option<String>,
    /// How failed deliveries are retried.
    #[serde(flatten)]
    pub retry: RetryPolicy,
}

/// A webhook as it was set up.
#[derive(serde::Serialize, schemars::JsonSchema, Debug)]
#[serde(crate = "toolhook::serde", rename_all = "camelCase")]
#[schemars(crate = "toolhook::schemars")]
pub struct WebhookSummary {
    /// The address events are posted to.
    pub endpoint: String,
    /// The events pushed, sorted.
    pub events: Vec<String>,
    /// Seconds waited before each retry.
    pub retry_delays_seconds: Vec<u32>,
    /// Header names sent, signature header included, sorted.
    pub header_names: Vec<String>,
    /// Who is told of failures, if anyone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alert_email: Option<String>,
    /// When deliveries start, if not at once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub active_from: Option<String>,
}

/// The application an event comes from, written beside the event's fields.
#[derive(serde::Deserialize, schemars::JsonSchema, Clone, Debug)]
#[serde(crate = "toolhook::serde", rename_all = "camelCase")]
#[schemars(crate = "toolhook::schemars")]
pub struct EventSource {
    /// Name of the application.
    pub app: String,
    /// Its version, e.g. "1.4.2".
    #[schemars(regex(pattern = r"^\d+\.\d+\.\d+$"))]
    pub app_version: Option<String>,
}

/// Something that happened in a project, for the audit log.
#[derive(serde::Deserialize, schemars::JsonSchema, Clone, Debug)]
#[serde(crate = "toolhook::serde", rename_all = "camelCase")]
#[schemars(crate = "toolhook::schemars")]
pub struct AuditEvent {
    /// Kind of event, such as "task.created".
    #[schemars(regex(pattern = r"^[a-z]+\.[a-z_]+$"))]
    pub event_type: String,
    /// When it happened, RFC 3339.
    #[schemars(extend("format" = "date-time"))]
    pub occurred_at: String,
    /// Where it comes from.
    #[serde(flatten)]
    pub source: EventSource,
    /// The event's data, any JSON.
    pub payload: Value,
    /// Free labels, each once.
    #[serde(default)]
    pub tags: HashSet<String>,
}

/// A setting's value: a flag, a number, a text or a list of texts, written as plain JSON.
#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Clone, Debug, PartialEq)]
#[serde(crate = "toolhook::serde", untagged)]
#[schemars(crate = "toolhook::schemars")]
pub enum Setting {
    /// On or off.
    Flag(bool),
    /// A number.
    Number(f64),
    /// A text.
    Text(String),
    /// Several texts.
    List(Vec<String>),
}

impl Setting {
    fn kind(&self) -> &'static str {
        match self {
            Setting::Flag(_) => "flag",
            Setting::Number(_) => "number",
            Setting::Text(_) => "text",
            Setting::List(_) => "list",
        }
    }
}

/// A setting as stored: its value, and whether it may be changed.
#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Clone, Debug, PartialEq)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
pub struct StoredSetting {
    /// The value.
    pub value: Setting,
    /// Whether the value is fixed: overrides of a locked setting are refused.
    #[serde(default)]
    pub locked: bool,
}

/// Settings after overrides were applied.
#[derive(serde::Serialize, schemars::JsonSchema, Debug)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
pub struct MergedSettings {
    /// Every setting as it is now.
    pub settings: BTreeMap<String, StoredSetting>,
    /// Settings an override changed, sorted.
    pub changed: Vec<String>,
    /// Settings the overrides added, sorted.
    pub added: Vec<String>,
}

/// How badly a bug hurts, as a number: 1 minor, 2 major, 3 critical.
#[derive(serde::Deserialize, schemars::JsonSchema, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[serde(crate = "toolhook::serde", try_from = "u8")]
#[schemars(crate = "toolhook::schemars", extend("enum" = [1, 2, 3]))]
#[repr(u8)]
pub enum Severity {
    /// A nuisance with a workaround.
    Minor = 1,
    /// A feature does not work.
    Major = 2,
    /// Data is lost or nobody can work.
    Critical = 3,
}

impl TryFrom<u8> for Severity {
    type Error = String;

    fn try_from(value: u8) -> Result<Self, Self::Error> {
        match value {
            1 => Ok(Severity::Minor),
            2 => Ok(Severity::Major),
            3 => Ok(Severity::Critical),
            other => Err(format!("severity {other} is not 1, 2 or 3")),
        }
    }
}

/// A bug as reported.
#[derive(serde::Deserialize, schemars::JsonSchema, Clone, Debug)]
#[serde(crate = "toolhook::serde", rename_all = "camelCase")]
#[schemars(crate = "toolhook::schemars")]
pub struct BugReport {
    /// Tracker number.
    #[schemars(range(min = 1))]
    pub id: u32,
    /// One-line summary.
    #[schemars(length(min = 5, max = 100))]
    pub title: String,
    /// How badly it hurts.
    pub severity: Severity,
    /// Who reported it.
    pub reporter: Person,
    /// Steps that make it happen, in order.
    #[serde(default)]
    pub steps: Vec<String>,
    /// Versions of what it was seen on, by component, e.g. {"browser": "Firefox 128"}.
    pub environment: Option<BTreeMap<String, String>>,
}

/// The planner: projects, schedules, webhooks, settings and bug triage.
#[derive(Debug, Default)]
pub struct Planner;

/// Plans projects and wires them to other services.
#[plugin(id = "examples.rich_types", name = "Planner")]
impl Planner {
    /// Order a project's open tasks: most urgent first, each after the tasks it depends on.
    #[tool]
    async fn plan_project(
        &self,
        /// The project, with its milestones and their tasks.
        project: Project,
    ) -> Result<Json<ProjectPlan>, String> {
        plan(project).map(Json)
    }

    /// Spread hours of work over the days of a week, one person working the tasks in order.
    #[tool(description_zh_hans = "把工作时长按顺序分配到一周的各个工作日。")]
    async fn spread_hours(
        &self,
        /// Hours of each task, in the order they are worked on.
        #[param(description_zh_hans = "按处理顺序排列的各项任务时长（小时）。")]
        hours: Vec<f64>,
        /// Hours worked each day.
        #[param(default = 8, description_zh_hans = "每天的工作时长（小时）。")]
        daily_capacity: u8,
        /// Days worked in the week.
        #[param(enum = [4, 5, 6], default = 5)]
        days: u8,
        /// What to do with a task that does not fit in what is left of a day: split it, or move it
        /// to the next day whole.
        #[param(enum = ["split", "next_day"], default = "split")]
        overflow: String,
        /// Name of the week, shown first.
        #[param(rename = "week")]
        week_label: Option<String>,
    ) -> Result<String, String> {
        spread(&hours, f64::from(daily_capacity), usize::from(days), overflow == "split", week_label.as_deref())
    }

    /// Put labels on tasks; every task and every label counts once.
    #[tool]
    async fn label_tasks(
        &self,
        /// Numbers of the tasks to label.
        task_ids: HashSet<u32>,
        /// The labels to put on.
        labels: BTreeSet<String>,
        /// Remove the tasks' other labels.
        #[param(default = false)]
        replace: bool,
        /// Also set the tasks' priority.
        priority: Option<Priority>,
    ) -> Result<String, String> {
        if task_ids.is_empty() || labels.is_empty() {
            return Err("give at least one task and one label".into());
        }
        let mut ids: Vec<u32> = task_ids.into_iter().collect();
        ids.sort_unstable();
        let ids = ids.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
        let labels = labels.into_iter().collect::<Vec<_>>().join(", ");
        let how = if replace { " instead of their labels" } else { "" };
        let priority = priority.map(|p| format!(", priority {}", serde_name(&p))).unwrap_or_default();
        Ok(format!("Tasks {ids} labelled {labels}{how}{priority}."))
    }

    /// Add up a timesheet: one row of daily hours per person.
    #[tool]
    async fn timesheet_totals(
        &self,
        /// Names of the people, one per row.
        people: Vec<String>,
        /// Hours worked, a row per person and a column per day.
        hours: Vec<Vec<f64>>,
    ) -> Result<String, String> {
        if people.len() != hours.len() {
            return Err(format!("{} people but {} rows of hours", people.len(), hours.len()));
        }
        let totals: Vec<f64> = hours.iter().map(|row| row.iter().sum()).collect();
        let lines: Vec<String> = people.iter().zip(&totals).map(|(name, total)| format!("{name}: {total} h")).collect();
        Ok(format!("{}\nTeam: {} h", lines.join("\n"), totals.iter().sum::<f64>()))
    }

    /// Set up a webhook that pushes project events to another service.
    #[tool]
    async fn configure_webhook(
        &self,
        /// The webhook's settings.
        webhook: Webhook,
    ) -> Result<Json<WebhookSummary>, String> {
        if !webhook.endpoint.starts_with("https://") {
            return Err(format!("the endpoint must use https: {}", webhook.endpoint));
        }
        let retry = &webhook.retry;
        // The schema states the bounds; a model may still send other values.
        if !(1..=10).contains(&retry.max_attempts) {
            return Err(format!("maxAttempts must be 1 to 10, not {}", retry.max_attempts));
        }
        if !(5..=3600).contains(&retry.backoff_seconds) || !retry.backoff_seconds.is_multiple_of(5) {
            return Err(format!(
                "backoffSeconds must be a multiple of 5 from 5 to 3600, not {}",
                retry.backoff_seconds
            ));
        }
        if !(retry.sample_rate > 0.0 && retry.sample_rate <= 1.0) {
            return Err(format!("sampleRate must be more than 0 and at most 1, not {}", retry.sample_rate));
        }
        let delays = (0..retry.max_attempts.saturating_sub(1)).map(|i| retry.backoff_seconds << i).collect();
        let mut header_names: Vec<String> = webhook.headers.keys().cloned().collect();
        header_names.push("X-Signature".into());
        header_names.sort();
        Ok(Json(WebhookSummary {
            endpoint: webhook.endpoint,
            events: webhook.events.into_iter().collect(),
            retry_delays_seconds: delays,
            header_names,
            alert_email: webhook.alert_email,
            active_from: webhook.active_from,
        }))
    }

    /// Write an event to the project's audit log.
    #[tool]
    async fn record_event(
        &self,
        /// The event.
        event: AuditEvent,
        /// What the caller knows about why it happened, any JSON.
        note: Option<toolhook::serde_json::Value>,
    ) -> String {
        let version = event.source.app_version.map(|v| format!(" {v}")).unwrap_or_default();
        let keys = match &event.payload {
            Value::Object(map) if !map.is_empty() => map.keys().cloned().collect::<Vec<_>>().join(", "),
            Value::Object(_) => "none".into(),
            other => format!("a single {} value", json_kind(other)),
        };
        let mut tags: Vec<String> = event.tags.into_iter().collect();
        tags.sort();
        let tags = if tags.is_empty() { String::new() } else { format!(" [{}]", tags.join(", ")) };
        let note = note.map(|n| format!("\nNote: {n}")).unwrap_or_default();
        format!(
            "Logged {} from {}{version} at {}{tags}; payload fields: {keys}{note}",
            event.event_type, event.source.app, event.occurred_at
        )
    }

    /// Apply overrides to settings and say what changed.
    #[tool]
    async fn merge_settings(
        &self,
        /// The settings as they are, by name.
        current: BTreeMap<String, StoredSetting>,
        /// New settings, by name; `locked` locks a setting from now on.
        overrides: HashMap<String, StoredSetting>,
        /// Refuse overrides of unknown settings or of another kind (a text for a flag, say).
        #[param(default = false)]
        strict: bool,
    ) -> Result<Json<MergedSettings>, String> {
        let mut settings = current;
        let (mut changed, mut added) = (Vec::new(), Vec::new());
        let mut overrides: Vec<(String, StoredSetting)> = overrides.into_iter().collect();
        overrides.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, new) in overrides {
            match settings.get(&name) {
                None if strict => return Err(format!("unknown setting {name}")),
                None => added.push(name.clone()),
                Some(old) if old.locked => return Err(format!("{name} is locked")),
                Some(old) if strict && old.value.kind() != new.value.kind() => {
                    return Err(format!("{name} is a {}, not a {}", old.value.kind(), new.value.kind()));
                }
                Some(old) if *old != new => changed.push(name.clone()),
                Some(_) => {}
            }
            settings.insert(name, new);
        }
        Ok(Json(MergedSettings { settings, changed, added }))
    }

    /// Order bug reports for fixing: most severe first, then oldest.
    #[tool]
    async fn triage_bugs(
        &self,
        /// The reports to order.
        bugs: Vec<BugReport>,
    ) -> String {
        let mut bugs = bugs;
        bugs.sort_by(|a, b| b.severity.cmp(&a.severity).then(a.id.cmp(&b.id)));
        let lines: Vec<String> = bugs
            .iter()
            .map(|bug| {
                let severity = match bug.severity {
                    Severity::Minor => "minor",
                    Severity::Major => "major",
                    Severity::Critical => "critical",
                };
                let environment = bug
                    .environment
                    .as_ref()
                    .map(|e| {
                        format!(" on {}", e.iter().map(|(k, v)| format!("{k} {v}")).collect::<Vec<_>>().join(", "))
                    })
                    .unwrap_or_default();
                format!(
                    "#{} {severity}: {} ({}, by {}{environment})",
                    bug.id,
                    bug.title,
                    counted(bug.steps.len(), "step"),
                    bug.reporter.name
                )
            })
            .collect();
        if lines.is_empty() { "No bugs to triage.".into() } else { lines.join("\n") }
    }
}

/// The plan of a project: open tasks by priority, each after its open dependencies.
fn plan(project: Project) -> Result<ProjectPlan, String> {
    let mut open: Vec<(usize, String, Task)> = Vec::new();
    for (index, milestone) in project.milestones.iter().enumerate() {
        for task in milestone.tasks.iter().filter(|t| !t.done) {
            open.push((index, milestone.name.clone(), task.clone()));
        }
    }
    open.sort_by(|a, b| a.2.priority.cmp(&b.2.priority).then(a.0.cmp(&b.0)).then(a.2.title.cmp(&b.2.title)));
    let titles: BTreeSet<String> = open.iter().map(|(_, _, t)| t.title.clone()).collect();
    let mut placed: BTreeSet<String> = BTreeSet::new();
    let mut order = Vec::with_capacity(open.len());
    while !open.is_empty() {
        // The most urgent task whose open dependencies are all placed.
        let ready = open
            .iter()
            .position(|(_, _, t)| t.depends_on.iter().all(|d| placed.contains(d) || !titles.contains(d)))
            .ok_or_else(|| {
                let stuck = open.iter().map(|(_, _, t)| t.title.as_str()).collect::<Vec<_>>().join(", ");
                format!("these tasks depend on each other in a circle: {stuck}")
            })?;
        let (_, milestone, task) = open.remove(ready);
        placed.insert(task.title.clone());
        order.push((milestone, task));
    }
    let mut hours_by_priority = BTreeMap::new();
    let mut people = BTreeSet::from([project.owner.email.clone()]);
    let mut unassigned = Vec::new();
    let order = order
        .into_iter()
        .map(|(milestone, task)| {
            let priority = serde_name(&task.priority);
            *hours_by_priority.entry(priority).or_insert(0.0) += task.estimate_hours;
            let owner = match &task.assignee {
                Some(person) => {
                    people.insert(person.email.clone());
                    person.name.clone()
                }
                None => {
                    unassigned.push(task.title.clone());
                    project.owner.name.clone()
                }
            };
            PlannedTask { milestone, title: task.title, priority: task.priority, owner, hours: task.estimate_hours }
        })
        .collect();
    Ok(ProjectPlan { project_name: project.project_name, order, hours_by_priority, unassigned, people })
}

/// How a value is written in JSON, without quotes.
fn serde_name<T: serde::Serialize>(value: &T) -> String {
    match toolhook::serde_json::to_value(value) {
        Ok(Value::String(name)) => name,
        Ok(other) => other.to_string(),
        Err(_) => String::new(),
    }
}

/// "1 step", "2 steps".
fn counted(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// The JSON type of a value, in words.
fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Tasks of the given hours put on days of `capacity` hours; `split` cuts a task at the end of a
/// day, otherwise a task that does not fit moves to the next day whole.
fn spread(hours: &[f64], capacity: f64, days: usize, split: bool, week: Option<&str>) -> Result<String, String> {
    if let Some(bad) = hours.iter().position(|h| !h.is_finite() || *h <= 0.0) {
        return Err(format!("task {} has no positive number of hours", bad + 1));
    }
    let total: f64 = hours.iter().sum();
    let too_much = || format!("{total} h of work do not fit in {days} days of {capacity} h");
    if capacity <= 0.0 || total > capacity * days as f64 {
        return Err(too_much());
    }
    let mut schedule: Vec<Vec<(usize, f64)>> = vec![Vec::new()];
    let mut left = capacity;
    for (index, &task) in hours.iter().enumerate() {
        let mut remaining = task;
        if !split && remaining > capacity {
            return Err(format!("task {} takes {task} h, more than a day", index + 1));
        }
        while remaining > 0.0 {
            if left <= 0.0 || (!split && remaining > left) {
                if schedule.len() == days {
                    return Err(too_much());
                }
                schedule.push(Vec::new());
                left = capacity;
            }
            let part = remaining.min(left);
            if let Some(day) = schedule.last_mut() {
                day.push((index + 1, part));
            }
            remaining -= part;
            left -= part;
        }
    }
    let mut lines: Vec<String> = week.map(|w| vec![w.to_owned()]).unwrap_or_default();
    for (day, parts) in schedule.iter().enumerate().filter(|(_, parts)| !parts.is_empty()) {
        let parts: Vec<String> = parts.iter().map(|(task, h)| format!("task {task} {h} h")).collect();
        lines.push(format!("Day {}: {}", day + 1, parts.join(", ")));
    }
    Ok(lines.join("\n"))
}

// ---------------------------------------------------------------------------------------------
// The document outliner and the comment thread
// ---------------------------------------------------------------------------------------------

/// A heading of a document and the sections under it.
#[derive(serde::Deserialize, schemars::JsonSchema, Clone, Debug)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
pub struct OutlineNode {
    /// The heading's text.
    #[schemars(length(min = 1))]
    pub heading: String,
    /// What the section says, in one line.
    pub summary: Option<String>,
    /// The sections under this heading, in order.
    #[serde(default)]
    pub children: Vec<OutlineNode>,
}

impl OutlineNode {
    /// Appends this node and its children, numbered under `number`, down to `max_depth` levels.
    fn render(&self, number: &str, depth: usize, max_depth: usize, numbered: bool, lines: &mut Vec<String>) {
        let indent = "  ".repeat(depth - 1);
        let label = if numbered { format!("{number} ") } else { "- ".to_owned() };
        let summary = self.summary.as_deref().map(|s| format!(" — {s}")).unwrap_or_default();
        lines.push(format!("{indent}{label}{}{summary}", self.heading));
        if self.children.is_empty() {
            return;
        }
        if depth >= max_depth {
            lines.push(format!("{indent}  … {} more", self.children.iter().map(OutlineNode::count).sum::<usize>()));
            return;
        }
        for (i, child) in self.children.iter().enumerate() {
            child.render(&format!("{number}{}.", i + 1), depth + 1, max_depth, numbered, lines);
        }
    }

    /// This node and every node under it.
    fn count(&self) -> usize {
        1 + self.children.iter().map(OutlineNode::count).sum::<usize>()
    }

    /// Adds this node and the nodes under it to the counts per level and the leaves.
    fn tally(&self, depth: usize, per_level: &mut Vec<u32>, leaves: &mut Vec<String>) {
        if per_level.len() < depth {
            per_level.push(0);
        }
        per_level[depth - 1] += 1;
        if self.children.is_empty() {
            leaves.push(self.heading.clone());
        }
        for child in &self.children {
            child.tally(depth + 1, per_level, leaves);
        }
    }
}

/// Render a document's outline as an indented table of contents.
#[tool]
pub fn outline_document(
    /// The document's top heading, with every section under it.
    outline: OutlineNode,
    /// Levels shown; deeper sections are counted, not listed.
    #[param(default = 6)]
    max_depth: u8,
    /// Number the headings ("1.2.") instead of bulleting them.
    #[param(default = true)]
    numbered: bool,
) -> Result<String, String> {
    if max_depth == 0 {
        return Err("max_depth must be at least 1".into());
    }
    let mut lines = Vec::new();
    outline.render("1.", 1, usize::from(max_depth), numbered, &mut lines);
    Ok(lines.join("\n"))
}

/// The shape of a document's outline.
#[derive(serde::Serialize, schemars::JsonSchema, Debug)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
pub struct OutlineStats {
    /// Headings in all, at every level.
    pub headings: u32,
    /// Headings per level, the top level first.
    pub per_level: Vec<u32>,
    /// Headings with no sections under them, in document order.
    pub leaves: Vec<String>,
}

/// Count the headings of a document's sections, per level.
#[tool]
pub fn outline_stats(
    /// The document's top-level sections, each with the sections under it.
    sections: Vec<OutlineNode>,
) -> Json<OutlineStats> {
    let (mut per_level, mut leaves) = (Vec::new(), Vec::new());
    for section in &sections {
        section.tally(1, &mut per_level, &mut leaves);
    }
    Json(OutlineStats { headings: per_level.iter().sum(), per_level, leaves })
}

/// A comment and the reply it got, which may have a reply in turn.
#[derive(serde::Deserialize, schemars::JsonSchema, Clone, Debug)]
#[serde(crate = "toolhook::serde", rename_all = "camelCase")]
#[schemars(crate = "toolhook::schemars")]
pub struct Comment {
    /// Who wrote it.
    pub author: String,
    /// What it says.
    #[schemars(length(min = 1, max = 2000))]
    pub text: String,
    /// When it was posted, RFC 3339.
    #[schemars(extend("format" = "date-time"))]
    pub posted_at: String,
    /// Reactions by emoji, with how many people gave each.
    #[serde(default)]
    pub reactions: BTreeMap<String, u32>,
    /// The reply to this comment, if there is one.
    pub reply: Option<Box<Comment>>,
}

/// Render a comment thread, one comment a line.
#[tool]
pub fn render_thread(
    /// The first comment; each reply hangs off the comment before it.
    thread: Comment,
    /// Show the newest comment first.
    #[param(default = false)]
    newest_first: bool,
) -> String {
    let mut lines = Vec::new();
    let mut next = Some(&thread);
    while let Some(comment) = next {
        let reactions: Vec<String> = comment.reactions.iter().map(|(emoji, n)| format!("{emoji} {n}")).collect();
        let reactions = if reactions.is_empty() { String::new() } else { format!(" ({})", reactions.join(", ")) };
        lines.push(format!("{} at {}: {}{reactions}", comment.author, comment.posted_at, comment.text));
        next = comment.reply.as_deref();
    }
    if newest_first {
        lines.reverse();
    }
    format!("{}\n{}", counted(lines.len(), "comment"), lines.join("\n"))
}

// ---------------------------------------------------------------------------------------------
// The shop
// ---------------------------------------------------------------------------------------------

/// An amount of money.
#[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Clone, Debug, PartialEq, Eq)]
#[serde(crate = "toolhook::serde", deny_unknown_fields)]
#[schemars(crate = "toolhook::schemars")]
pub struct Money {
    /// The amount in the currency's smallest unit, e.g. cents.
    pub cents: u64,
    /// Three-letter ISO 4217 code, e.g. "EUR".
    #[schemars(regex(pattern = r"^[A-Z]{3}$"))]
    pub currency: String,
}

impl Money {
    fn new(cents: u64, currency: &str) -> Money {
        Money { cents, currency: currency.to_owned() }
    }
}

impl std::fmt::Display for Money {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}.{:02}", self.currency, self.cents / 100, self.cents % 100)
    }
}

/// How much of an item is bought: a number of units, or a weight for goods sold loose.
#[derive(serde::Deserialize, schemars::JsonSchema, Clone, Debug)]
#[serde(crate = "toolhook::serde", untagged)]
#[schemars(crate = "toolhook::schemars")]
pub enum Quantity {
    /// A number of units, priced per unit.
    Units(#[schemars(range(min = 1, max = 99))] u32),
    /// A weight, priced per kilogram.
    Weight {
        /// Grams bought.
        #[schemars(range(min = 1))]
        grams: u32,
    },
}

/// How an item is gift-wrapped: "plain", or an object whose single key names the wrapping
/// (serde's default tagging).
#[derive(serde::Deserialize, schemars::JsonSchema, Clone, Debug)]
#[serde(crate = "toolhook::serde", rename_all = "snake_case")]
#[schemars(crate = "toolhook::schemars")]
pub enum GiftWrap {
    /// Brown paper, free.
    Plain,
    /// Patterned paper, 2.50 per line.
    Paper {
        /// The pattern, e.g. "stars".
        pattern: String,
    },
    /// A box with a card bearing this message, 5.00 per line.
    Boxed(#[schemars(length(max = 200))] String),
}

impl GiftWrap {
    fn cents(&self) -> u64 {
        match self {
            GiftWrap::Plain => 0,
            GiftWrap::Paper { .. } => 250,
            GiftWrap::Boxed(_) => 500,
        }
    }
}

/// A line of a shopping cart.
#[derive(serde::Deserialize, schemars::JsonSchema, Clone, Debug)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
pub struct CartItem {
    /// Stock keeping unit, e.g. "TEA-1001".
    #[schemars(regex(pattern = r"^[A-Z]{2,4}-[0-9]{3,6}$"))]
    pub sku: String,
    /// Price of one unit, or of a kilogram for goods sold by weight.
    pub unit_price: Money,
    /// How much is bought.
    pub quantity: Quantity,
    /// How it is gift-wrapped; not at all when left out.
    pub gift_wrap: Option<GiftWrap>,
    /// Notes for the packer, by topic, e.g. {"fragile": "glass lid"}.
    #[serde(default)]
    pub notes: HashMap<String, String>,
}

impl CartItem {
    /// What the line costs, gift wrap included.
    fn total(&self) -> u64 {
        let goods = match self.quantity {
            Quantity::Units(n) => self.unit_price.cents.saturating_mul(u64::from(n)),
            Quantity::Weight { grams } => self.unit_price.cents.saturating_mul(u64::from(grams)) / 1000,
        };
        goods.saturating_add(self.gift_wrap.as_ref().map_or(0, GiftWrap::cents))
    }

    /// What the item weighs: weighed goods as weighed, every unit 200 g.
    fn grams(&self) -> u64 {
        match self.quantity {
            Quantity::Units(n) => 200 * u64::from(n),
            Quantity::Weight { grams } => u64::from(grams),
        }
    }
}

/// A discount on a cart, told apart by its "type".
#[derive(serde::Deserialize, schemars::JsonSchema, Clone, Debug)]
#[serde(crate = "toolhook::serde", tag = "type", rename_all = "snake_case")]
#[schemars(crate = "toolhook::schemars")]
pub enum Discount {
    /// A share of the subtotal off.
    Percent {
        /// Percent off.
        #[schemars(range(min = 1, max = 90))]
        percent: u8,
    },
    /// A fixed amount off, at most the subtotal.
    Fixed {
        /// The amount off.
        amount: Money,
    },
    /// One unit of an item free for every `buy` units of it bought.
    BuyGetOneFree {
        /// The item it applies to.
        sku: String,
        /// Units to buy per free one.
        #[schemars(range(min = 1))]
        buy: u32,
    },
    /// No discount.
    None,
}

impl Discount {
    /// Cents off `subtotal` for `items`.
    fn cents_off(&self, subtotal: &Money, items: &[CartItem]) -> Result<u64, String> {
        Ok(match self {
            Discount::Percent { percent } if !(1..=90).contains(percent) => {
                return Err(format!("a discount of {percent}% is not 1 to 90%"));
            }
            Discount::Percent { percent } => subtotal.cents.saturating_mul(u64::from(*percent)) / 100,
            Discount::Fixed { amount } if amount.currency != subtotal.currency => {
                return Err(format!("the discount is in {}, the cart in {}", amount.currency, subtotal.currency));
            }
            Discount::Fixed { amount } => amount.cents.min(subtotal.cents),
            Discount::BuyGetOneFree { buy: 0, .. } => return Err("buy must be at least 1".into()),
            Discount::BuyGetOneFree { sku, buy } => items
                .iter()
                .filter(|item| &item.sku == sku)
                .map(|item| match item.quantity {
                    Quantity::Units(n) => u64::from(n / buy.saturating_add(1)).saturating_mul(item.unit_price.cents),
                    Quantity::Weight { .. } => 0,
                })
                .sum(),
            Discount::None => 0,
        })
    }
}

/// A postal address.
#[derive(serde::Deserialize, schemars::JsonSchema, Clone, Debug)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
pub struct Address {
    /// Who receives it.
    pub name: String,
    /// Street and number.
    pub street: String,
    /// Postal code.
    #[schemars(length(min = 3, max = 10))]
    pub postal_code: String,
    /// City.
    pub city: String,
    /// Two-letter ISO 3166 country code, e.g. "DE".
    #[schemars(length(equal = 2))]
    pub country: String,
}

/// How fast a courier delivers.
#[derive(serde::Deserialize, schemars::JsonSchema, Clone, Copy, Debug)]
#[serde(crate = "toolhook::serde", rename_all = "snake_case")]
#[schemars(crate = "toolhook::schemars")]
pub enum Speed {
    /// Within the day.
    SameDay,
    /// Within two hours.
    Express,
}

/// How the order reaches the customer: a "method", with its "details" where it has any.
#[derive(serde::Deserialize, schemars::JsonSchema, Clone, Debug)]
#[serde(crate = "toolhook::serde", tag = "method", content = "details", rename_all = "snake_case")]
#[schemars(crate = "toolhook::schemars")]
pub enum Shipping {
    /// Collected at the shop, free.
    Pickup,
    /// Sent by post to the address.
    Post(Address),
    /// Brought by a courier.
    Courier {
        /// Where to.
        address: Address,
        /// How fast.
        speed: Speed,
    },
}

/// The shop's country: posting abroad costs more.
const SHOP_COUNTRY: &str = "DE";

impl Shipping {
    /// Cents of shipping a parcel of `grams`.
    fn cents(&self, grams: u64) -> u64 {
        let extra_kilos = grams.saturating_sub(1).checked_div(1000).unwrap_or(0);
        match self {
            Shipping::Pickup => 0,
            Shipping::Post(address) if address.country == SHOP_COUNTRY => 495 + 100 * extra_kilos,
            Shipping::Post(_) => 1495 + 300 * extra_kilos,
            Shipping::Courier { speed: Speed::SameDay, .. } => 1200,
            Shipping::Courier { speed: Speed::Express, .. } => 2500,
        }
    }

    fn describe(&self) -> String {
        match self {
            Shipping::Pickup => "pickup at the shop".into(),
            Shipping::Post(address) => format!("post to {}, {}", address.name, address.city),
            Shipping::Courier { address, speed: Speed::SameDay } => format!("same-day courier to {}", address.city),
            Shipping::Courier { address, speed: Speed::Express } => format!("express courier to {}", address.city),
        }
    }
}

/// How the customer pays, written as an object whose single key is the method (serde's default
/// tagging).
#[derive(serde::Deserialize, schemars::JsonSchema, Clone, Debug)]
#[serde(crate = "toolhook::serde", rename_all = "snake_case")]
#[schemars(crate = "toolhook::schemars")]
pub enum Payment {
    /// By card.
    Card {
        /// The card's last four digits.
        #[schemars(regex(pattern = r"^[0-9]{4}$"))]
        last4: String,
        /// The name on the card.
        holder: String,
    },
    /// By bank transfer from this IBAN.
    BankTransfer(#[schemars(regex(pattern = r"^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$"))] String),
    /// With a gift voucher.
    Voucher {
        /// The voucher's code.
        code: String,
        /// What is left on it; unknown when left out.
        balance: Option<Money>,
    },
    /// In cash, at pickup or to the courier.
    Cash {
        /// The money handed over, if known, so that the change can be counted.
        tendered: Option<Money>,
    },
}

impl Payment {
    /// What paying `amount` this way comes to.
    fn pay(&self, amount: &Money) -> Result<String, String> {
        match self {
            Payment::Card { last4, holder } => Ok(format!("{amount} charged to {holder}'s card ending {last4}")),
            Payment::BankTransfer(iban) => Ok(format!("{amount} awaited by transfer from {iban}")),
            Payment::Voucher { code, balance: Some(balance) } if balance.currency != amount.currency => {
                Err(format!("voucher {code} is in {}, not {}", balance.currency, amount.currency))
            }
            Payment::Voucher { code, balance: Some(balance) } if balance.cents < amount.cents => {
                Err(format!("voucher {code} covers only {balance} of {amount}"))
            }
            Payment::Voucher { code, balance: Some(balance) } => {
                let left = Money::new(balance.cents - amount.cents, &amount.currency);
                Ok(format!("{amount} paid with voucher {code}, {left} left on it"))
            }
            Payment::Voucher { code, balance: None } => Ok(format!("{amount} paid with voucher {code}")),
            Payment::Cash { tendered: Some(tendered) } if tendered.currency != amount.currency => {
                Err(format!("{tendered} tendered for {amount}"))
            }
            Payment::Cash { tendered: Some(tendered) } if tendered.cents < amount.cents => {
                Err(format!("{tendered} tendered does not cover {amount}"))
            }
            Payment::Cash { tendered: Some(tendered) } => Ok(format!(
                "{amount} paid in cash, {} change",
                Money::new(tendered.cents - amount.cents, &amount.currency)
            )),
            Payment::Cash { tendered: None } => Ok(format!("{amount} to be paid in cash")),
        }
    }
}

/// A shopping cart at checkout.
#[derive(serde::Deserialize, schemars::JsonSchema, Clone, Debug)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
pub struct Cart {
    /// What is bought; all in one currency.
    #[schemars(length(min = 1, max = 50))]
    pub items: Vec<CartItem>,
    /// The discount to apply, if any.
    pub discount: Option<Discount>,
    /// How the order is delivered.
    pub shipping: Shipping,
    /// How it is paid.
    pub payment: Payment,
}

/// A priced line of a quote.
#[derive(serde::Serialize, schemars::JsonSchema, Debug)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
pub struct QuoteLine {
    /// The item.
    pub sku: String,
    /// What the line costs.
    pub total: Money,
}

/// What a cart costs, line by line.
#[derive(serde::Serialize, schemars::JsonSchema, Debug)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
pub struct Quote {
    /// Each item's price.
    pub lines: Vec<QuoteLine>,
    /// The items together.
    pub subtotal: Money,
    /// Taken off by the discount.
    pub discount: Money,
    /// Added for delivery.
    pub shipping: Money,
    /// What the customer pays.
    pub total: Money,
    /// How delivery and payment go, in words.
    pub summary: String,
}

/// Price a shopping cart: its lines, discount, shipping and total, and how it is paid.
#[tool]
pub fn price_cart(
    /// The cart.
    cart: Cart,
) -> Result<Json<Quote>, String> {
    let currency = cart.items.first().map(|item| item.unit_price.currency.clone()).ok_or("the cart is empty")?;
    if let Some(other) = cart.items.iter().find(|item| item.unit_price.currency != currency) {
        return Err(format!("{} is priced in {}, the cart in {currency}", other.sku, other.unit_price.currency));
    }
    let lines: Vec<QuoteLine> = cart
        .items
        .iter()
        .map(|item| QuoteLine { sku: item.sku.clone(), total: Money::new(item.total(), &currency) })
        .collect();
    let subtotal = Money::new(lines.iter().fold(0, |sum, line| sum.saturating_add(line.total.cents)), &currency);
    let off = cart.discount.as_ref().map_or(Ok(0), |d| d.cents_off(&subtotal, &cart.items))?;
    let shipping = cart.shipping.cents(cart.items.iter().map(CartItem::grams).sum());
    let total = Money::new(subtotal.cents.saturating_sub(off).saturating_add(shipping), &currency);
    let summary = format!("{}; {}", cart.shipping.describe(), cart.payment.pay(&total)?);
    Ok(Json(Quote {
        lines,
        discount: Money::new(off, &currency),
        shipping: Money::new(shipping, &currency),
        subtotal,
        total,
        summary,
    }))
}

/// Work out what a discount takes off a subtotal.
#[tool]
pub fn apply_discount(
    /// The discount.
    discount: Discount,
    /// The subtotal it applies to.
    subtotal: Money,
) -> Result<String, String> {
    if matches!(discount, Discount::BuyGetOneFree { .. }) {
        return Err("a buy-get-one-free discount needs the cart's items: use price_cart".into());
    }
    let off = discount.cents_off(&subtotal, &[])?;
    let to_pay = Money::new(subtotal.cents.saturating_sub(off), &subtotal.currency);
    Ok(format!("{} off, {to_pay} to pay", Money::new(off, &subtotal.currency)))
}

/// Quote the cost of delivering a parcel.
#[tool]
pub fn quote_shipping(
    /// How it is delivered.
    shipping: Shipping,
    /// What the parcel weighs, in grams.
    #[param(default = 1000)]
    weight_grams: u32,
) -> String {
    let cents = shipping.cents(u64::from(weight_grams));
    format!("{}: {}", shipping.describe(), Money::new(cents, "EUR"))
}

/// Take a payment of an amount.
#[tool]
pub fn take_payment(
    /// How it is paid.
    payment: Payment,
    /// How much.
    amount: Money,
) -> Result<String, String> {
    payment.pay(&amount)
}

/// A product of the shop's catalogue.
struct Product {
    sku: &'static str,
    name: &'static str,
    category: &'static str,
    cents: u64,
}

/// The shop's catalogue, in euros.
const CATALOGUE: &[Product] = &[
    Product { sku: "TEA-1001", name: "Green tea, loose", category: "tea", cents: 2400 },
    Product { sku: "TEA-1002", name: "Black tea, loose", category: "tea", cents: 1800 },
    Product { sku: "CUP-2001", name: "Tea cup, blue", category: "tableware", cents: 950 },
    Product { sku: "POT-3001", name: "Tea pot, cast iron", category: "tableware", cents: 4500 },
];

/// How to look a product up: by SKU, by words of its name, or by price range; the fields given
/// tell which.
#[derive(serde::Deserialize, schemars::JsonSchema, Clone, Debug)]
#[serde(crate = "toolhook::serde", untagged)]
#[schemars(crate = "toolhook::schemars")]
pub enum ProductQuery {
    /// By stock keeping unit.
    Sku {
        /// The SKU, e.g. "TEA-1001".
        sku: String,
    },
    /// By words in the name, optionally in one category.
    Words {
        /// Words that must all be in the name.
        words: String,
        /// The category to look in.
        category: Option<String>,
    },
    /// By price range, both ends included.
    PriceRange {
        /// The lowest price.
        min: Money,
        /// The highest price.
        max: Money,
    },
}

/// Find products in the shop's catalogue.
#[tool]
pub fn find_product(
    /// What to look for.
    query: ProductQuery,
) -> String {
    let found: Vec<String> = CATALOGUE
        .iter()
        .filter(|p| match &query {
            ProductQuery::Sku { sku } => p.sku == sku,
            ProductQuery::Words { words, category } => {
                let name = p.name.to_lowercase();
                words.split_whitespace().all(|w| name.contains(&w.to_lowercase()))
                    && category.as_deref().is_none_or(|c| c == p.category)
            }
            ProductQuery::PriceRange { min, max } => {
                min.currency == "EUR" && max.currency == "EUR" && (min.cents..=max.cents).contains(&p.cents)
            }
        })
        .map(|p| format!("{} {} ({})", p.sku, p.name, Money::new(p.cents, "EUR")))
        .collect();
    if found.is_empty() { "No product found.".into() } else { found.join("\n") }
}

/// A product rating: one to five stars.
#[derive(serde::Deserialize, schemars::JsonSchema, Clone, Copy, Debug)]
#[serde(crate = "toolhook::serde", transparent)]
#[schemars(crate = "toolhook::schemars")]
pub struct Stars(#[schemars(range(min = 1, max = 5))] pub u8);

/// Average the star ratings of products.
#[tool]
pub fn rate_products(
    /// Ratings given, by SKU.
    ratings: BTreeMap<String, Vec<Stars>>,
) -> Result<String, String> {
    let mut lines = Vec::new();
    for (sku, stars) in &ratings {
        if let Some(bad) = stars.iter().find(|s| !(1..=5).contains(&s.0)) {
            return Err(format!("{sku}: {} stars is not 1 to 5", bad.0));
        }
        if stars.is_empty() {
            lines.push(format!("{sku}: not rated"));
            continue;
        }
        let average = stars.iter().map(|s| f64::from(s.0)).sum::<f64>() / stars.len() as f64;
        lines.push(format!("{sku}: {average:.1} stars from {}", counted(stars.len(), "rating")));
    }
    Ok(if lines.is_empty() { "No ratings.".into() } else { lines.join("\n") })
}

// ---------------------------------------------------------------------------------------------
// The maze
// ---------------------------------------------------------------------------------------------

/// One square of a maze.
#[derive(serde::Deserialize, schemars::JsonSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(crate = "toolhook::serde", rename_all = "snake_case")]
#[schemars(crate = "toolhook::schemars")]
pub enum Tile {
    /// Can be walked on.
    Open,
    /// Cannot be walked through.
    Wall,
    /// Can be walked on, at three times the cost.
    Mud,
}

/// A maze: a grid of tiles and where the walk starts and ends.
#[derive(serde::Deserialize, schemars::JsonSchema, Clone, Debug)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
pub struct Maze {
    /// Rows of tiles, top to bottom, each left to right; all of one length.
    pub rows: Vec<Vec<Tile>>,
    /// Where the walk starts, as (row, column).
    pub start: (usize, usize),
    /// Where it ends, as (row, column).
    pub goal: (usize, usize),
}

/// Find the cheapest walk through a maze, moving up, down, left or right.
#[tool]
pub fn shortest_route(
    /// The maze.
    maze: Maze,
) -> Result<String, String> {
    let height = maze.rows.len();
    let width = maze.rows.first().map_or(0, Vec::len);
    if height == 0 || maze.rows.iter().any(|row| row.len() != width) {
        return Err("the rows must be non-empty and all of one length".into());
    }
    let inside = |(r, c): (usize, usize)| r < height && c < width;
    if !inside(maze.start) || !inside(maze.goal) {
        return Err(format!("start and goal must lie within the {height}×{width} grid"));
    }
    let cost_of = |(r, c): (usize, usize)| match maze.rows[r][c] {
        Tile::Open => Some(1),
        Tile::Mud => Some(3),
        Tile::Wall => None,
    };
    // Dijkstra with small integer costs: a queue per cost level is enough.
    let mut best = vec![vec![u64::MAX; width]; height];
    let mut queue = VecDeque::from([(0u64, maze.start)]);
    best[maze.start.0][maze.start.1] = 0;
    while let Some((cost, (r, c))) = queue.pop_front() {
        if cost > best[r][c] {
            continue;
        }
        let neighbours = [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)];
        for next in neighbours.into_iter().filter(|&p| inside(p)) {
            if let Some(step) = cost_of(next)
                && cost + step < best[next.0][next.1]
            {
                best[next.0][next.1] = cost + step;
                queue.push_back((cost + step, next));
            }
        }
    }
    match best[maze.goal.0][maze.goal.1] {
        u64::MAX => Err("no route: walls block the way".into()),
        cost => Ok(format!("The cheapest route costs {cost}: 1 per open tile, 3 per mud tile.")),
    }
}
