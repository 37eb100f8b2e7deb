//! A parameter type without `JsonSchema` or `Deserialize` is one error per parameter, at the type,
//! whichever derive it lacks. A set of a type without `Eq` and `Hash` is told what the set needs.
use std::collections::HashSet;
use toolhook::schemars::JsonSchema;
use toolhook::serde::Deserialize;
use toolhook::tool;

struct Opaque;

/// Has a schema only.
#[derive(JsonSchema)]
#[schemars(crate = "toolhook::schemars")]
struct SchemaOnly {
    x: i32,
}

/// Deserialises only.
#[derive(Deserialize)]
#[serde(crate = "toolhook::serde")]
struct DeserializeOnly {
    x: i32,
}

/// Has both, but no `Eq` or `Hash` for a set.
#[derive(JsonSchema, Deserialize)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
struct Point {
    x: i32,
}

/// Look things up.
#[tool]
fn lookup(
    /// A thing.
    thing: Opaque,
    /// Things.
    things: Vec<Opaque>,
    /// Maybe one.
    maybe: Option<SchemaOnly>,
    /// Another.
    other: DeserializeOnly,
    /// Points.
    points: HashSet<Point>,
) {
    let _ = (thing, things, maybe, other.x, points);
}

fn main() {}
