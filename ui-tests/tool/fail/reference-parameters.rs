//! Parameters are taken by value: each borrowed type is one error naming the owned type to write.
//! `&str`, `Option<&str>` and the context parameters are references the macro accepts.
use std::collections::HashMap;
use toolhook::schemars::JsonSchema;
use toolhook::serde::Deserialize;
use toolhook::{ToolExecutionContext, tool};

/// A point.
#[derive(JsonSchema, Deserialize)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
struct Point {
    x: i32,
}

/// Move a point.
#[tool]
fn move_point(
    /// The point.
    point: &Point,
    /// Names.
    names: &[String],
    /// Tags.
    tags: Vec<&str>,
    /// Counts.
    counts: HashMap<&str, u32>,
    /// Target.
    target: &mut Point,
    /// A name.
    name: &str,
    /// A label.
    label: Option<&str>,
    ctx: &ToolExecutionContext,
) {
    let _ = (point, names, tags, counts, target, name, label, ctx);
}

fn main() {}
