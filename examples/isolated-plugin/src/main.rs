//! The plugin as an executable: its tools over MCP stdio.

use toolhook_example_isolated as _;

fn main() -> std::process::ExitCode {
    toolhook_runtime::mcp::serve_plugin_process(env!("CARGO_PKG_NAME"))
}
