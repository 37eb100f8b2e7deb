//! A tool that doubles as a chat command: pattern, parsing, help, and a call through the registry.
//!
//! `cargo run -p toolhook-examples --example tool_as_command`

use toolhook::{Locale, ToolExecutionContext};
use toolhook_runtime::{CommandSet, PluginSet, PluginToolProvider, ToolRegistry};

use toolhook_examples as _;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let registry = ToolRegistry::default();
    registry.register_provider(PluginToolProvider::from_declared());
    let mut commands = CommandSet::new(&registry);
    commands.extend(PluginSet::collect().commands().into_iter().filter(|c| c.name() == "weather"));
    let weather = PluginSet::collect().commands().into_iter().find(|c| c.name() == "weather").unwrap();
    println!("{}\n", weather.help(Locale::En));
    println!("{}\n", weather.help(Locale::ZhHans));
    let ctx = ToolExecutionContext::default();
    for message in ["weather Paris", "天气 \"New York\" 2 fahrenheit", "weather", "weather Oslo soon"] {
        let reply = commands.run(message, &ctx).await.expect("a weather command");
        println!("/{message}\n  {}", reply.text(Locale::En));
    }
}
