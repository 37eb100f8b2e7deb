//! Every supported form of #[tool], in a crate that depends on toolhook alone.
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::num::NonZeroU16;
use std::sync::Arc;
use toolhook::{
    Json, ToolExecutionContext, ToolExecutionResult, ToolInvocation, ToolOutput, schemars, serde, tool,
};

#[derive(serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
struct Filter {
    field: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde", rename_all = "snake_case")]
#[schemars(crate = "toolhook::schemars")]
enum Unit {
    Celsius,
    Fahrenheit,
}

type Count = u32;

/// Every parameter type.
#[tool(
    name = "every_type",
    description = "legacy",
    brief_description = "brief",
    detailed_description = "details",
    title = "Every type",
    core_tool = false,
    visibility = "deferred",
    platforms = "qq",
    permission = "user",
    scopes = ["group", "private", "channel"],
    timeout_ms = 10,
    deny_unknown_args = true,
    metadata(a = "x", b = 1, c = -2.5, d = false)
)]
#[allow(clippy::too_many_arguments)]
async fn every_type(
    a: String,
    b: &str,
    c: char,
    d: Cow<'_, str>,
    e: Box<str>,
    f: Arc<str>,
    #[param(default = -3)] g: i64,
    h: NonZeroU16,
    #[param(default = 1)] i: f32,
    j: bool,
    k: Option<Vec<u8>>,
    l: VecDeque<String>,
    m: [i32; 2],
    n: Box<[f64]>,
    o: HashSet<String>,
    p: BTreeSet<u8>,
    q: HashMap<String, bool>,
    r: BTreeMap<String, Vec<String>>,
    s: toolhook::__private::serde_json::Value,
    t: Filter,
    #[param(enum = ["celsius"], default = "celsius")] u: Unit,
    #[param(default = 5)] v: Count,
    w: Option<&str>,
    ctx: &ToolExecutionContext,
    call: &ToolInvocation,
) -> Result<Json<Filter>, String> {
    let _ = (a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t, u, v, w, ctx, call);
    Ok(Json(Filter { field: String::new() }))
}

#[tool]
fn returns_unit() {}

/// Serialisable returns that are not text: structured content.
#[tool]
fn returns_a_pair() -> (i32, i32) {
    (1, 2)
}

/// A boxed list.
#[tool]
fn returns_a_boxed_list() -> Box<Vec<i32>> {
    Box::new(vec![1])
}

/// A borrowed slice.
#[tool]
fn returns_a_slice() -> &'static [i32] {
    &[1, 2]
}

/// A copy-on-write list.
#[tool]
fn returns_a_cow_list() -> std::borrow::Cow<'static, [i32]> {
    std::borrow::Cow::Borrowed(&[1, 2])
}

/// Text borrowed from the call.
#[tool]
fn returns_text_borrowed_from_the_call(call: &ToolInvocation) -> &str {
    call.reasoning()
}

/// A return value that borrows the call.
#[tool]
fn returns_a_borrow_of_the_call(call: &ToolInvocation) -> (bool, &str) {
    (true, call.call_id())
}

/// The same, from an async tool.
#[tool]
async fn returns_a_borrow_of_the_call_async(call: &ToolInvocation) -> Result<(bool, &str), String> {
    Ok((true, call.session_id()))
}

#[tool]
fn returns_output() -> ToolOutput {
    ToolOutput::failure("no")
}

#[tool]
fn returns_result() -> ToolExecutionResult {
    ToolExecutionResult::success("", "ok")
}

#[tool]
fn returns_tuple() -> (bool, &'static str) {
    (true, "ok")
}

#[tool]
async fn returns_option() -> Option<Cow<'static, str>> {
    None
}

#[tool]
fn returns_boxed() -> Box<str> {
    "x".into()
}

#[tool]
fn r#fn(r#type: u8) -> u8 {
    r#type
}

fn main() {}
