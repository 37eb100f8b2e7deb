//! Every registry, deferred-tool, built-in and plugin-provider case of
//! `tests/vectors/host_cases.json`, driven from the JSON.

use serde_json::{Map, Value, json};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use toolhook::{
    BoxFuture, ChatScope, DeclaredTool, Dialect, Locale, PermissionLevel, ToolAvailabilityContext, ToolError,
    ToolExecutionContext, ToolExecutionResult, ToolInvocation, ToolSpec, tool,
};
use toolhook_runtime::{
    BuiltinTool, BuiltinToolProvider, ChatScopeFilter, DeferredTools, DuplicatePolicy, PhaseFilter, PluginState,
    PluginToolProvider, PluginToolsSpec, RegistryConfig, Source, ToolProvider, ToolRegistry,
};

// ---- plugin tools the plugin cases serve --------------------------------------------------------

/// Echoes the argument object it was given.
#[tool]
fn lookup(
    call: &ToolInvocation,
    /// The query.
    q: Option<String>,
    /// The user id.
    user_id: Option<String>,
    /// The platform.
    platform: Option<String>,
    /// The stream id.
    stream_id: Option<String>,
    /// The chat id.
    chat_id: Option<String>,
    /// The group id.
    group_id: Option<String>,
) -> Value {
    let _ = (q, user_id, platform, stream_id, chat_id, group_id);
    call.arguments.to_value().unwrap_or(Value::Null)
}

/// Broken.
#[tool]
fn broken() -> Result<(), String> {
    Err("tool crashed".into())
}

/// Mute.
#[tool]
fn mute() -> Result<(), String> {
    Err(String::new())
}

/// B tool.
#[tool(visibility = "deferred")]
fn b_tool() {}
/// A tool.
#[tool(visibility = "visible")]
fn a_tool() {}
#[tool(visibility = "hidden")]
fn secret() {}
/// C tool.
#[tool(visibility = "deferred")]
fn c_tool() {}
/// Core tool.
#[tool(visibility = "visible")]
fn core_tool() {}

// ---- scripted providers -------------------------------------------------------------------------

#[derive(Default)]
struct Record {
    list_contexts: Vec<Option<ToolAvailabilityContext>>,
    received: Vec<ToolInvocation>,
    closed: Vec<String>,
}

struct Scripted {
    name: String,
    kind: String,
    tools: Vec<Value>,
    list_fails: Option<String>,
    list_panics: Option<String>,
    close_fails: Option<String>,
    record: Arc<Mutex<Record>>,
    dropped: Arc<AtomicBool>,
}

fn build_spec(tool: &Value) -> ToolSpec {
    let mut b = ToolSpec::builder(tool["name"].as_str().unwrap());
    if let Some(d) = tool.get("description").and_then(Value::as_str) {
        b = b.description(d);
    }
    if let Some(s) = tool.get("parameters_schema") {
        b = b.parameters_raw(s.clone());
    }
    if let Some(e) = tool.get("enabled").and_then(Value::as_bool) {
        b = b.enabled(e);
    }
    if let Some(v) = tool.get("visibility").and_then(Value::as_str) {
        b = b.visibility(v.parse().unwrap());
    }
    if let Some(m) = tool.get("metadata").and_then(Value::as_object) {
        for (k, v) in m {
            b = b.metadata(k.clone(), v.clone());
        }
    }
    if let Some(a) = tool.get("access") {
        if let Some(p) = a.get("permission") {
            b = b.permission(serde_json::from_value::<PermissionLevel>(p.clone()).unwrap());
        }
        if let Some(p) = a.get("platforms").and_then(Value::as_array) {
            b = b.platforms(p.iter().map(|p| p.as_str().unwrap().to_owned()));
        }
        if let Some(s) = a.get("scopes") {
            b = b.scopes(serde_json::from_value::<Vec<ChatScope>>(s.clone()).unwrap());
        }
    }
    if let Some(ms) = tool.get("timeout_ms").and_then(Value::as_u64) {
        b = b.timeout(Duration::from_millis(ms));
    }
    b.build().unwrap()
}

fn matches_when(tool: &Value, ctx: Option<&ToolAvailabilityContext>) -> bool {
    let (Some(when), Some(ctx)) = (tool.get("available_when").and_then(Value::as_object), ctx) else { return true };
    let ctx = serde_json::to_value(ctx).unwrap();
    when.iter().all(|(k, v)| ctx.get(k) == Some(v))
}

struct DropFlag(Arc<AtomicBool>);
impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

impl ToolProvider for Scripted {
    fn provider_name(&self) -> &str {
        &self.name
    }
    fn provider_type(&self) -> &str {
        &self.kind
    }
    fn list_tools<'a>(
        &'a self,
        ctx: Option<&'a ToolAvailabilityContext>,
    ) -> BoxFuture<'a, Result<Vec<ToolSpec>, ToolError>> {
        self.record.lock().unwrap().list_contexts.push(ctx.cloned());
        if let Some(payload) = &self.list_panics {
            std::panic::panic_any(payload.clone());
        }
        if let Some(message) = &self.list_fails {
            return Box::pin(std::future::ready(Err(ToolError::new("ListFailed", message.clone()))));
        }
        let specs = self.tools.iter().filter(|t| matches_when(t, ctx)).map(build_spec).collect();
        Box::pin(std::future::ready(Ok(specs)))
    }
    fn invoke<'a>(
        &'a self,
        call: ToolInvocation,
        _: Option<&'a ToolExecutionContext>,
    ) -> BoxFuture<'a, Result<ToolExecutionResult, ToolError>> {
        self.record.lock().unwrap().received.push(call.clone());
        let tool = self.tools.iter().find(|t| t["name"] == call.tool_name).cloned().unwrap_or(Value::Null);
        let dropped = self.dropped.clone();
        Box::pin(async move {
            let behaviour = tool.get("behaviour").cloned().unwrap_or(Value::Null);
            if let Some(returns) = behaviour.get("returns") {
                let mut r: ToolExecutionResult = serde_json::from_value(returns.clone()).unwrap();
                if returns.get("success").is_none() {
                    r.success = true;
                }
                return Ok(r);
            }
            if let Some(e) = behaviour.get("error") {
                return Err(ToolError::new(e["type"].as_str().unwrap().to_owned(), e["message"].as_str().unwrap()));
            }
            if let Some(p) = behaviour.get("panics").and_then(Value::as_str) {
                std::panic::panic_any(p.to_owned());
            }
            if behaviour.get("panics_with_non_string_payload").is_some() {
                std::panic::panic_any(42_u8);
            }
            if let Some(ms) = behaviour.get("sleeps_ms").and_then(Value::as_u64) {
                let _flag = DropFlag(dropped);
                tokio::time::sleep(Duration::from_millis(ms)).await;
                std::mem::forget(_flag);
            }
            Ok(ToolExecutionResult::success(call.tool_name.clone(), format!("ran {}", call.tool_name)))
        })
    }
    fn close<'a>(&'a self) -> BoxFuture<'a, Result<(), ToolError>> {
        self.record.lock().unwrap().closed.push(self.name.clone());
        let result = match &self.close_fails {
            Some(m) => Err(ToolError::new("CloseFailed", m.clone())),
            None => Ok(()),
        };
        Box::pin(std::future::ready(result))
    }
}

struct Fixture {
    registry: ToolRegistry,
    deferred: DeferredTools,
    records: Vec<(String, Arc<Mutex<Record>>)>,
    closed: Arc<Mutex<Record>>,
    dropped: Arc<AtomicBool>,
}

impl Fixture {
    fn scripted(&self, provider: &Value) -> Scripted {
        Scripted {
            name: provider["name"].as_str().unwrap().to_owned(),
            kind: provider["type"].as_str().unwrap().to_owned(),
            tools: provider.get("tools").and_then(Value::as_array).cloned().unwrap_or_default(),
            list_fails: provider.get("list_fails").and_then(Value::as_str).map(str::to_owned),
            list_panics: provider.get("list_panics").map(|p| p.as_str().map_or_else(|| p.to_string(), str::to_owned)),
            close_fails: provider.get("close_fails").and_then(Value::as_str).map(str::to_owned),
            record: self.closed.clone(),
            dropped: self.dropped.clone(),
        }
    }

    fn record_of(&self, name: &str) -> Arc<Mutex<Record>> {
        self.records.iter().find(|(n, _)| n == name).map(|(_, r)| r.clone()).unwrap_or_else(|| self.closed.clone())
    }
}

fn setup(setup: &Value) -> Fixture {
    let locale = match setup.get("locale").and_then(Value::as_str) {
        Some(l) => l.parse().unwrap(),
        None => Locale::En,
    };
    let policy = match setup.get("duplicate_policy").and_then(Value::as_str) {
        Some("rename") => DuplicatePolicy::Rename,
        _ => DuplicatePolicy::Skip,
    };
    let mut config = RegistryConfig::default().locale(locale).duplicate_policy(policy);
    if let Some(ms) = setup.get("default_timeout_ms").and_then(Value::as_u64) {
        config = config.default_timeout(Some(Duration::from_millis(ms)));
    }
    let registry = ToolRegistry::new(config);
    let deferred = DeferredTools::new();
    let mut fixture = Fixture {
        registry,
        deferred: deferred.clone(),
        records: Vec::new(),
        closed: Arc::new(Mutex::new(Record::default())),
        dropped: Arc::new(AtomicBool::new(false)),
    };
    for provider in setup.get("providers").and_then(Value::as_array).into_iter().flatten() {
        let mut scripted = fixture.scripted(provider);
        let record = Arc::new(Mutex::new(Record::default()));
        scripted.record = record.clone();
        fixture.records.push((scripted.name.clone(), record));
        fixture.registry.register_provider(scripted);
    }
    let deferred_setup = setup.get("visible_tools").is_some()
        || setup.get("deferred_tools").is_some()
        || setup.get("builtin_tools").is_some();
    if deferred_setup {
        let mut builtin = BuiltinToolProvider::with_deferred(deferred).locale(locale);
        if setup.get("without_tool_search") == Some(&Value::Bool(true)) {
            builtin = builtin.without_tool_search();
        }
        for entry in setup.get("builtin_tools").and_then(Value::as_array).into_iter().flatten() {
            let spec = ToolSpec::builder(entry["name"].as_str().unwrap()).build().unwrap();
            let mut tool = BuiltinTool::new(spec, |call, _| async move {
                Ok(ToolExecutionResult::success(call.tool_name.clone(), "ran"))
            });
            tool = tool.phase(match entry.get("phase").and_then(Value::as_str) {
                Some("timing") => PhaseFilter::Timing,
                Some("both") => PhaseFilter::Both,
                _ => PhaseFilter::Action,
            });
            tool = tool.chat_scope(match entry.get("chat_scope").and_then(Value::as_str) {
                Some("group") => ChatScopeFilter::Group,
                Some("private") => ChatScopeFilter::Private,
                _ => ChatScopeFilter::All,
            });
            if let Some(e) = entry.get("enabled").and_then(Value::as_bool) {
                tool = tool.enabled(e);
            }
            builtin = builtin.with_tool(tool);
        }
        fixture.registry.register_provider(builtin);
        let mut tools = Vec::new();
        for (list, visibility) in [("visible_tools", "visible"), ("deferred_tools", "deferred")] {
            for t in setup.get(list).and_then(Value::as_array).into_iter().flatten() {
                let mut t = t.clone();
                t["visibility"] = json!(visibility);
                tools.push(t);
            }
        }
        if !tools.is_empty() {
            let provider = json!({"name": "deferred_fixture", "type": "plugin", "tools": tools});
            let mut scripted = fixture.scripted(&provider);
            let record = Arc::new(Mutex::new(Record::default()));
            scripted.record = record.clone();
            fixture.records.push(("deferred_fixture".into(), record));
            fixture.registry.register_provider(scripted);
        }
    }
    if let Some(plugins) = setup.get("plugins").and_then(Value::as_array) {
        let declared = DeclaredTool::all();
        let specs = plugins
            .iter()
            .map(|p| PluginToolsSpec {
                id: p["id"].as_str().unwrap().to_owned(),
                source: if p.get("source").and_then(Value::as_str) == Some("builtin") {
                    Source::Builtin
                } else {
                    Source::ThirdParty
                },
                state: serde_json::from_value::<PluginState>(p["state"].clone()).unwrap(),
                tools: p["tools"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(|t| declared.iter().find(|d| d.name() == t["name"]).copied())
                    .collect(),
            })
            .collect();
        fixture.registry.register_provider(PluginToolProvider::with_plugins(specs).unwrap());
    }
    fixture
}

fn availability(v: Option<&Value>) -> Option<ToolAvailabilityContext> {
    match v {
        None | Some(Value::Null) => None,
        Some(v) => Some(serde_json::from_value(v.clone()).unwrap()),
    }
}

fn execution(v: Option<&Value>) -> Option<ToolExecutionContext> {
    match v {
        None | Some(Value::Null) => None,
        Some(v) => Some(serde_json::from_value(v.clone()).unwrap()),
    }
}

/// `expected` must match `actual` on every key it shows (objects partially, lists in order).
fn partial(case: &str, what: &str, expected: &Value, actual: &Value) {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            for (k, v) in e {
                partial(case, &format!("{what}.{k}"), v, a.get(k).unwrap_or(&Value::Null));
            }
        }
        (Value::Array(e), Value::Array(a)) => {
            assert_eq!(e.len(), a.len(), "{case}: {what}: {expected} vs {actual}");
            for (i, (e, a)) in e.iter().zip(a).enumerate() {
                partial(case, &format!("{what}[{i}]"), e, a);
            }
        }
        _ => assert_eq!(expected, actual, "{case}: {what}"),
    }
}

fn spec_view(spec: &ToolSpec, locale: Locale) -> Value {
    json!({
        "name": spec.name(),
        "description": spec.description(locale),
        "provider_name": spec.provider_name(),
        "provider_type": spec.provider_type(),
        "metadata": spec.metadata(),
        "visibility": spec.visibility(),
        "enabled": spec.enabled(),
    })
}

fn result_view(r: &ToolExecutionResult) -> Value {
    serde_json::to_value(r).unwrap()
}

struct LogCount(Arc<Mutex<Vec<String>>>);
impl std::io::Write for LogCount {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().push(String::from_utf8_lossy(buf).into_owned());
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

async fn run_step(case: &str, f: &Fixture, action: &Value, expected: &Value, locale: Locale) {
    let (kind, args) = action.as_object().unwrap().iter().next().unwrap();
    let empty = Value::Object(Map::new());
    let expected = if expected.is_null() { &empty } else { expected };
    match kind.as_str() {
        "list_tools" => {
            let listed = f.registry.list_tools(availability(args.get("context")).as_ref()).await;
            if let Some(names) = expected.get("names") {
                let actual: Vec<&str> = listed.iter().map(ToolSpec::name).collect();
                assert_eq!(json!(actual), *names, "{case}: names");
            }
            if let Some(e) = expected.get("listed") {
                let views: Vec<Value> = listed.iter().map(|s| spec_view(s, locale)).collect();
                partial(case, "listed", e, &json!(views));
            }
            if let Some(e) = expected.get("metadata") {
                let metas: Vec<Value> = listed.iter().map(|s| json!(s.metadata())).collect();
                partial(case, "metadata", e, &json!(metas));
            }
            if let Some(order) = expected.get("provider_order") {
                assert_eq!(json!(f.registry.provider_names()), *order, "{case}: provider order");
            }
            if let Some(len) = expected.get("unhashed_candidate_length") {
                let prefix = "mcp_a-very-long-mcp-server-name-that-goes-on-and-on_lookup_everything";
                assert_eq!(json!(prefix.len()), *len);
            }
            if let Some(p) = expected.get("provider") {
                for s in &listed {
                    partial(case, "provider", p, &json!({"name": s.provider_name(), "type": s.provider_type()}));
                }
            }
        }
        "get_llm_definitions" => {
            let dialect: Dialect = args["dialect"].as_str().unwrap().parse().unwrap();
            let defs = f.registry.get_llm_definitions(availability(args.get("context")).as_ref(), dialect).await;
            assert_eq!(
                serde_json::to_string(&defs).unwrap(),
                serde_json::to_string(&expected["definitions"]).unwrap(),
                "{case}"
            );
        }
        "invoke" | "invoke_deferred" => {
            let mut call = ToolInvocation::new(
                args["tool_name"].as_str().unwrap(),
                args.get("arguments").cloned().unwrap_or(Value::Null),
            );
            if let Some(id) = args.get("call_id").and_then(Value::as_str) {
                call = call.with_call_id(id);
            }
            if let Some(m) = args.get("metadata").and_then(Value::as_object) {
                *call.metadata_mut() = m.clone();
            }
            let ctx = execution(args.get("context"));
            let before = tokio::time::Instant::now();
            let result = if kind == "invoke" {
                f.registry.invoke(call, ctx.as_ref()).await
            } else {
                f.deferred.invoke(&f.registry, call, ctx.as_ref().unwrap()).await
            };
            if let Some(e) = expected.get("result") {
                partial(case, "result", e, &result_view(&result));
            }
            if let Some(ms) = expected.get("elapsed_ms_about").and_then(Value::as_u64) {
                let elapsed = before.elapsed().as_millis() as u64;
                assert!(elapsed >= ms && elapsed < ms + 20, "{case}: elapsed {elapsed} ms");
            }
            if expected.get("provider_future_dropped") == Some(&Value::Bool(true)) {
                assert!(f.dropped.load(Ordering::SeqCst), "{case}: provider future not dropped");
            }
            if let Some(e) = expected.get("argument_object") {
                partial(case, "argument_object", e, result.structured_content().unwrap());
                assert_eq!(
                    serde_json::to_string(result.structured_content().unwrap()).unwrap(),
                    serde_json::to_string(e).unwrap(),
                    "{case}: argument order"
                );
            }
            if let Some(e) = expected.get("provider_received") {
                let provider = e.get("provider").and_then(Value::as_str);
                let record =
                    f.records.iter().find(|(n, _)| provider.is_none_or(|p| p == n)).map(|(_, r)| r.clone()).unwrap();
                let received = record.lock().unwrap().received.last().cloned().unwrap();
                let mut view = serde_json::to_value(&received).unwrap();
                view["provider"] = json!(provider);
                view["arguments"] = received.arguments.to_value().unwrap();
                partial(case, "provider_received", e, &view);
            }
            if let Some(to) = expected.get("routed_to").and_then(Value::as_str) {
                assert_eq!(f.record_of(to).lock().unwrap().received.len(), 1, "{case}: routed to {to}");
            }
            if let Some(e) = expected.get("provider_list_context") {
                let record = f.records[0].1.clone();
                let ctx = record.lock().unwrap().list_contexts.last().cloned().unwrap();
                match ctx {
                    None => assert!(e.is_null(), "{case}: provider saw no context"),
                    Some(ctx) => partial(case, "provider_list_context", e, &serde_json::to_value(ctx).unwrap()),
                }
            }
            if let Some(e) = expected.get("provider_spec_metadata_after") {
                let record = f.records[0].1.clone();
                let _ = record;
                let specs = f.registry.list_tools(None).await;
                let mut original = specs[0].metadata().clone();
                original.remove("registry_original_name");
                assert_eq!(json!(original), *e, "{case}: the provider's spec is not mutated");
            }
        }
        "get_tool_spec" => {
            let spec = f
                .registry
                .get_tool_spec(args["name"].as_str().unwrap(), availability(args.get("context")).as_ref())
                .await;
            partial(case, "spec", &expected["spec"], &spec.map(|s| spec_view(&s, locale)).unwrap_or(Value::Null));
        }
        "has_tool" => {
            let has =
                f.registry.has_tool(args["name"].as_str().unwrap(), availability(args.get("context")).as_ref()).await;
            assert_eq!(json!(has), expected["returned"], "{case}");
        }
        "register" => {
            f.registry.register_provider(f.scripted(args));
        }
        "unregister" => {
            let removed = f.registry.unregister_provider(args["name"].as_str().unwrap());
            assert_eq!(json!(removed), expected["returned"], "{case}");
        }
        "provider_names" => {
            assert_eq!(json!(f.registry.provider_names()), expected["names"], "{case}");
        }
        "close" => {
            let outcome = f.registry.close().await;
            let failures: Vec<Value> = match outcome {
                Ok(()) => Vec::new(),
                Err(e) => e.0.iter().map(|(p, e)| json!({"provider": p, "message": e.message(Locale::En)})).collect(),
            };
            let mut closed = Vec::new();
            for (name, record) in &f.records {
                if record.lock().unwrap().closed.contains(name) {
                    closed.push(name.clone());
                }
            }
            assert_eq!(json!(closed), expected["closed_in_order"], "{case}");
            assert_eq!(json!(failures), expected["failures"], "{case}");
        }
        "tool_search" => {
            let result = tool_search(f, args).await;
            if let Some(e) = expected.get("result") {
                partial(case, "result", e, &result_view(&result));
            }
        }
        "tool_search_calls" => {
            let mut results = Vec::new();
            for call in args.as_array().unwrap() {
                results.push(tool_search(f, call).await);
            }
            if let Some(e) = expected.get("results") {
                partial(case, "results", e, &json!(results.iter().map(result_view).collect::<Vec<_>>()));
            }
            if let Some(e) = expected.get("matched_counts") {
                let counts: Vec<usize> = results
                    .iter()
                    .map(|r| r.structured_content().unwrap()["matched_tool_names"].as_array().unwrap().len())
                    .collect();
                assert_eq!(json!(counts), *e, "{case}");
            }
            if let Some(e) = expected.get("matched_tool_names") {
                let names: Vec<Value> =
                    results.iter().map(|r| r.structured_content().unwrap()["matched_tool_names"].clone()).collect();
                assert_eq!(json!(names), *e, "{case}");
            }
        }
        "prepare_round" => {
            let ctx = execution(args.get("context")).unwrap();
            let round = f.deferred.prepare_round(&f.registry, &ctx).await;
            if let Some(e) = expected.get("advertised") {
                assert_eq!(
                    json!(round.advertised().iter().map(ToolSpec::name).collect::<Vec<_>>()),
                    *e,
                    "{case}: advertised"
                );
            }
            if let Some(e) = expected.get("pool") {
                assert_eq!(json!(round.pool().iter().map(ToolSpec::name).collect::<Vec<_>>()), *e, "{case}: pool");
            }
            if let Some(e) = expected.get("reminder") {
                assert_eq!(json!(round.reminder()), *e, "{case}: reminder");
            }
            if let Some(e) = expected.get("reminder_lists") {
                let reminder = round.reminder().unwrap_or("");
                let listed: Vec<&str> = reminder
                    .lines()
                    .filter_map(|l| {
                        let (number, rest) = l.split_once(". ")?;
                        number.parse::<usize>().ok()?;
                        Some(rest.split(':').next().unwrap_or(rest))
                    })
                    .collect();
                assert_eq!(json!(listed), *e, "{case}: reminder lists");
            }
        }
        "resync" => {
            let results: Vec<ToolExecutionResult> = serde_json::from_value(args["results"].clone()).unwrap();
            f.deferred.resync(args["session"].as_str().unwrap(), &results);
        }
        "forget" => f.deferred.forget(args["session"].as_str().unwrap()),
        other => panic!("{case}: unknown action {other}"),
    }
}

async fn tool_search(f: &Fixture, call: &Value) -> ToolExecutionResult {
    let ctx = ToolExecutionContext::for_session(call["session"].as_str().unwrap());
    f.registry.invoke(ToolInvocation::new("tool_search", call["arguments"].clone()), Some(&ctx)).await
}

async fn run_case(case: &Value) {
    let name = case["case"].as_str().unwrap();
    let logs = Arc::new(Mutex::new(Vec::new()));
    let writer = {
        let logs = logs.clone();
        move || LogCount(logs.clone())
    };
    let subscriber =
        tracing_subscriber::fmt().with_writer(writer).with_ansi(false).with_max_level(tracing::Level::WARN).finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    let fixture = setup(&case["setup"]);
    let locale = fixture.registry.locale();
    let action = &case["action"];
    let expected = &case["expected"];
    match action.get("steps") {
        Some(steps) => {
            let steps = steps.as_array().unwrap();
            let expectations = expected["steps"].as_array().unwrap();
            for (step, e) in steps.iter().zip(expectations) {
                run_step(name, &fixture, step, e, locale).await;
            }
        }
        None => run_step(name, &fixture, action, expected, locale).await,
    }
    let lines = logs.lock().unwrap().clone();
    let count = |level: &str| lines.iter().filter(|l| l.contains(level)).count();
    if let Some(n) = expected.get("warnings_logged").and_then(Value::as_u64) {
        assert_eq!(count(" WARN ") as u64, n, "{name}: warnings {lines:?}");
    }
    if let Some(n) = expected.get("warnings_logged_at_least").and_then(Value::as_u64) {
        assert!(count(" WARN ") as u64 >= n, "{name}: warnings {lines:?}");
    }
    if let Some(n) = expected.get("errors_logged").and_then(Value::as_u64) {
        assert_eq!(count("ERROR") as u64, n, "{name}: errors {lines:?}");
    }
}

/// The non-hooks cases of `dir/host_cases.json` (`vectors`, or `derived`: further cases, each
/// worked out from the rule its `note` quotes).
fn cases(dir: &str) -> Vec<Value> {
    let path = format!("{}/tests/{dir}/host_cases.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let all: Value = serde_json::from_str(&text).unwrap();
    all["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| !c["feature"].as_str().unwrap().starts_with("hooks."))
        .cloned()
        .collect()
}

#[tokio::test(start_paused = true)]
async fn every_registry_deferred_and_plugin_provider_case_holds() {
    let cases = cases("vectors");
    assert!(cases.len() >= 30, "{} cases", cases.len());
    for case in &cases {
        // Legacy actions need `#[action]`; that case runs in the plugins tests.
        if case["feature"] == "plugins.arguments.legacy_action" {
            continue;
        }
        run_case(case).await;
    }
}

#[tokio::test(start_paused = true)]
async fn every_derived_registry_deferred_and_plugin_provider_case_holds() {
    let cases = cases("derived");
    assert!(!cases.is_empty());
    for case in &cases {
        run_case(case).await;
    }
}

/// The vocabulary's `list_panics`, which no stored case uses: a provider whose listing panics is
/// skipped like one whose listing fails, loudly, and the others keep serving.
#[tokio::test(start_paused = true)]
async fn a_provider_whose_listing_panics_is_skipped_and_the_rest_serve() {
    let case = serde_json::json!({
        "case": "registry-list-panic-isolated",
        "feature": "registry.listing.provider_failure",
        "setup": {"providers": [
            {"name": "A", "type": "builtin", "list_panics": "listing exploded", "tools": [{"name": "a1"}]},
            {"name": "B", "type": "builtin", "tools": [{"name": "b1"}]}
        ]},
        "action": {"steps": [
            {"list_tools": {"context": null}},
            {"invoke": {"tool_name": "b1"}},
            {"invoke": {"tool_name": "a1"}}
        ]},
        "expected": {"steps": [
            {"names": ["b1"]},
            {"result": {"success": true, "content": "ran b1"}},
            {"result": {"success": false, "error_message": "Tool not found: a1"}}
        ], "warnings_logged_at_least": 1}
    });
    run_case(&case).await;
}
