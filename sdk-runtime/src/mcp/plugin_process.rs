//! A plugin in its own process: a plugin crate built as an executable that serves its own tools
//! over MCP stdio, for a host to run through [`McpToolProvider`](super::McpToolProvider).

use super::server::McpServer;
use crate::plugins::{PluginHost, PluginSet};
use crate::registry::ToolRegistry;
use std::process::ExitCode;
use toolhook::{PermissionLevel, ToolSpec};

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
/// Without it a call runs in an empty context. Listing knows no caller, so the tools are listed in
/// an empty context (a `user` on no platform, in no known chat): a tool limited to platforms,
/// chat scopes or a rank above `user` is not served at all, and is named on stderr at start. Keep
/// those tools in the host's process, or set a served tool's access rules in the host's entry
/// ([`McpToolRules`](super::McpToolRules)).
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
        for plugin in plugins.plugins() {
            for tool in plugin.tools() {
                if let Some(limit) = access_limit(tool.spec()) {
                    eprintln!(
                        "{package}: tool {} is limited to {limit} and is not served: a plugin process lists its \
                         tools without a chat (no caller is known then); keep it in the host's process",
                        tool.name()
                    );
                }
            }
        }
        let registry = ToolRegistry::default();
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

/// What keeps a tool from an empty context: its platforms, chat scopes or a rank above `user`.
fn access_limit(spec: &ToolSpec) -> Option<String> {
    let mut limits = Vec::new();
    if !spec.platforms().is_empty() {
        limits.push(format!("platforms {}", spec.platforms().join(", ")));
    }
    if !spec.scopes().is_empty() {
        let scopes: Vec<String> = spec.scopes().iter().map(ToString::to_string).collect();
        limits.push(format!("chat scopes {}", scopes.join(", ")));
    }
    if spec.permission() != PermissionLevel::User {
        limits.push(format!("the rank {} and above", spec.permission()));
    }
    (!limits.is_empty()).then(|| limits.join(" and "))
}

#[cfg(test)]
mod tests {
    use super::access_limit;
    use toolhook::{ChatScope, PermissionLevel, ToolSpec};

    #[test]
    fn a_tool_an_empty_context_cannot_reach_is_named_with_its_limits() {
        let open = ToolSpec::builder("open").description("Open.").build().unwrap();
        assert_eq!(access_limit(&open), None);
        let limited = ToolSpec::builder("limited")
            .description("Limited.")
            .platforms(["qq"])
            .scopes([ChatScope::Group])
            .permission(PermissionLevel::BotAdmin)
            .build()
            .unwrap();
        assert_eq!(
            access_limit(&limited).as_deref(),
            Some("platforms qq and chat scopes group and the rank bot_admin and above")
        );
    }
}
