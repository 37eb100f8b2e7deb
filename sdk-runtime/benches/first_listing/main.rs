//! The first listing of a fresh process: 1,000 `#[tool]`s collected into a registry and listed,
//! against a hand-written program that builds the same map from the same schema texts, in the
//! same run (compare the medians).
//!
//! Each iteration starts this program again as a child that does one thing and exits, so every
//! figure is a whole process: its start, `inventory`'s registrations and the work. `process_only`
//! is the start and exit alone (with the tokio runtime every mode starts, as a host has one);
//! subtract it from both sides to see the work.
//!
//! - `baseline_map`: a hand-written program parses each tool's schema text into a map by name.
//! - `registry_list`: `ToolRegistry` + `PluginToolProvider::from_declared()` + `list_tools`
//!   (goal ≤ 1.1× `baseline_map`).
//! - `baseline_openai_json`: the hand-written map rendered as the OpenAI Chat `tools` JSON text.
//! - `registry_openai_json`: the registry's OpenAI Chat definitions as the JSON text a host
//!   sends (`llm_definitions_json`; goal ≤ 1.1× `baseline_openai_json`).
//! - `registry_openai_values`: the same definitions as values (`get_llm_definitions`), which the
//!   program then serialises itself.
//!
//! `cargo bench -p toolhook-runtime --bench first_listing`

mod tools;

use divan::Bencher;
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::hint::black_box;
use std::process::{Command, Stdio};
use toolhook::Dialect;
use toolhook_runtime::{PluginToolProvider, ToolRegistry};

/// Set in a child: what it does.
const CHILD: &str = "TOOLHOOK_FIRST_LISTING_CHILD";

fn main() {
    if let Ok(mode) = std::env::var(CHILD) {
        let listed = child(&mode);
        if listed != tools::COUNT && mode != "process_only" {
            eprintln!("{mode}: listed {listed} tools, not {}", tools::COUNT);
            std::process::exit(1);
        }
        return;
    }
    divan::main();
}

/// One tool of the hand-written program.
struct Declared {
    description: &'static str,
    parameters: Value,
}

fn hand_written_map() -> HashMap<String, Declared> {
    let mut map = HashMap::with_capacity(tools::COUNT);
    for i in 0..tools::COUNT {
        let parameters = serde_json::from_str(tools::SCHEMA).unwrap_or_else(|_| Value::Object(Map::new()));
        map.insert(tools::name(i), Declared { description: tools::DESCRIPTION, parameters });
    }
    map
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime")
}

fn registry() -> ToolRegistry {
    let registry = ToolRegistry::default();
    registry.register_provider(PluginToolProvider::from_declared());
    registry
}

/// Does what `mode` says once; the number of tools listed. Every mode, baselines included,
/// starts with the tokio runtime a host has anyway, so that its set-up (threads' state, the
/// I/O and time drivers) weighs on both sides alike.
fn child(mode: &str) -> usize {
    let runtime = runtime();
    match mode {
        "process_only" => 0,
        "baseline_map" => black_box(hand_written_map()).len(),
        "baseline_openai_json" => {
            let map = hand_written_map();
            let mut names: Vec<&String> = map.keys().collect();
            names.sort();
            let definitions: Vec<Value> = names
                .iter()
                .map(|name| {
                    let tool = &map[*name];
                    json!({"type": "function", "function": {
                        "name": name, "description": tool.description, "parameters": tool.parameters}})
                })
                .collect();
            let text = serde_json::to_string(&definitions).expect("JSON");
            black_box(text);
            definitions.len()
        }
        "registry_list" => runtime.block_on(registry().list_tools(None)).len(),
        "registry_openai_json" => {
            let text = runtime.block_on(registry().llm_definitions_json(None, Dialect::OpenAiChat));
            black_box(text.matches(r#"{"type":"function","#).count())
        }
        "registry_openai_values" => {
            let definitions = runtime.block_on(registry().get_llm_definitions(None, Dialect::OpenAiChat));
            black_box(serde_json::to_string(&definitions).expect("JSON"));
            definitions.len()
        }
        other => panic!("unknown mode {other}"),
    }
}

fn run(b: Bencher<'_, '_>, mode: &str) {
    let exe = std::env::current_exe().expect("this program");
    b.bench(|| {
        let status =
            Command::new(&exe).env(CHILD, mode).stdin(Stdio::null()).stdout(Stdio::null()).status().expect("a child");
        assert!(status.success(), "{mode} failed");
    });
}

#[divan::bench(sample_count = 40, sample_size = 1)]
fn process_only(b: Bencher<'_, '_>) {
    run(b, "process_only");
}

#[divan::bench(sample_count = 40, sample_size = 1)]
fn baseline_map(b: Bencher<'_, '_>) {
    run(b, "baseline_map");
}

#[divan::bench(sample_count = 40, sample_size = 1)]
fn registry_list(b: Bencher<'_, '_>) {
    run(b, "registry_list");
}

#[divan::bench(sample_count = 40, sample_size = 1)]
fn baseline_openai_json(b: Bencher<'_, '_>) {
    run(b, "baseline_openai_json");
}

#[divan::bench(sample_count = 40, sample_size = 1)]
fn registry_openai_json(b: Bencher<'_, '_>) {
    run(b, "registry_openai_json");
}

#[divan::bench(sample_count = 40, sample_size = 1)]
fn registry_openai_values(b: Bencher<'_, '_>) {
    run(b, "registry_openai_values");
}
