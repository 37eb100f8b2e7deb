//! A tool or parameter without a description warns, at its name: the model needs one. Here the
//! warnings are denied, so that they show. A hidden tool, a described one, a parameter of a type
//! with its own docs and a context parameter do not warn; `#[allow(deprecated)]` silences a tool.
#![deny(deprecated)]

use toolhook::schemars::JsonSchema;
use toolhook::serde::Deserialize;
use toolhook::{ToolExecutionContext, plugin, tool};

/// A point, described by its own docs.
#[derive(JsonSchema, Deserialize)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
struct Point {
    x: i32,
}

#[tool]
fn undocumented(city: String, #[param(description = " ")] days: u8, point: Point, ctx: &ToolExecutionContext) {
    let _ = (city, days, point, ctx);
}

/// Described.
#[tool]
fn described(
    /// The city.
    city: String,
    #[param(description = "Days ahead.")] days: u8,
    unit: Option<String>,
) {
    let _ = (city, days, unit);
}

#[tool(description = "Described by the attribute.")]
fn by_attribute() {}

#[tool(visibility = "hidden")]
fn hidden(city: String) {
    let _ = city;
}

#[allow(deprecated)]
#[tool]
fn allowed(city: String) {
    let _ = city;
}

#[derive(Default)]
struct Weather;

/// Weather.
#[plugin(id = "acme.weather")]
impl Weather {
    #[tool]
    async fn forecast(&self, city: String) -> String {
        city
    }
}

fn main() {}
