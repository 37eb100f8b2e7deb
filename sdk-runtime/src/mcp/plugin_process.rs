//! A plugin in its own process: a plugin crate built as an executable that serves its own tools
//! over MCP stdio, for a host to run through [`McpToolProvider`](super::McpToolProvider).

use super::server::McpServer;
use crate::plugins::{PluginHost, PluginSet};
use crate::registry::{RegistryConfig, ToolRegistry};
use std::process::ExitCode;

/// Serves the tools of the plugins `package` declares (its `#[plugin]`s and its free `#[tool]`s,
/// and nothing another crate linked into the program declares) over MCP on stdin and stdout,
/// until the host closes stdin. The whole `main` of a plugin executable:
///
/// ```no_run
/// // src/main.rs of the plugin crate `my-plugin`, whose tools are in its library
/// # mod my_plugin {}
/// use my_plugin as _; // links the library, and with it its tools
///
/// fn main() -> std::process::ExitCode {
///     toolhook_runtime::mcp::serve_plugin_process(env!("CARGO_PKG_NAME"))
/// }
/// ```
///
/// The plugins load as in a host (config defaults, `on_load`) and unload when the host closes
/// the connection. Log to stderr only: stdout carries the protocol. Hook handlers are not
/// served: hooks stay in the host's process.
///
/// A call carries the host's chat context when the host's entry for the process sets
/// [`forward_context`](super::McpServerEntry::forward_context): context parameters (`chat_id`,
/// `user_id`, …) are filled from it, as in the host.
/// Without it a call runs in an empty context.
///
/// Access rules are the host's to check, as for a plugin in its own process: every tool is
/// listed, whatever its platforms, chat scopes and rank, with those rules and its visibility in
/// the tool's `_meta` (`toolhook/rules`); the host's [`McpToolProvider`](super::McpToolProvider)
/// gives each tool those rules, under any the host's entry sets
/// ([`McpToolRules`](super::McpToolRules)), and its registry enforces them per caller. The
/// process runs every call such a host sends: it leaves the rules to a client that declares the
/// experimental capability `toolhook/rules` (as `McpToolProvider` does) and checks them itself,
/// in the call's forwarded context or an empty one, for any other client.
pub fn serve_plugin_process(package: &str) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("{package}: cannot start a tokio runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async {
        let plugins = PluginSet::collect().retain(|p| p.package() == package);
        if plugins.plugins().next().is_none() {
            eprintln!(
                "{package}: declares no plugin and no tool; if they are in its library, \
                 name the library in the executable (`use my_plugin as _;`) so that it is linked"
            );
            return ExitCode::FAILURE;
        }
        // The host checks the tools' access rules: it learns them from the listing.
        let registry = ToolRegistry::leaving_access_to_client(RegistryConfig::default());
        let host = PluginHost::builder().plugins(plugins).registry(&registry).build();
        for outcome in host.load_all().await {
            if let Some(reason) = outcome.reason {
                eprintln!("{package}: plugin {} is {}: {reason}", outcome.plugin_id, outcome.state);
            }
        }
        let served = match McpServer::builder(&registry).name(package).caller_context(true).build() {
            Ok(server) => server.serve_stdio().await,
            Err(error) => Err(error),
        };
        host.shutdown().await;
        match served {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("{package}: {error}");
                ExitCode::FAILURE
            }
        }
    })
}
