//! A host's own tool source as a provider, next to the compiled-in plugins: one registry, one
//! name space, one result model.
//!
//! `cargo run -p toolhook-examples --example custom_provider`

use toolhook::{
    BoxFuture, Dialect, ToolAvailabilityContext, ToolError, ToolExecutionContext, ToolExecutionResult, ToolInvocation,
    ToolSpec,
};
use toolhook_runtime::{PluginToolProvider, ToolProvider, ToolRegistry};

use toolhook_examples as _;

/// Tools a host defines at run time (from a database, say).
struct Scripts {
    scripts: Vec<(String, String)>,
}

impl ToolProvider for Scripts {
    fn provider_name(&self) -> &str {
        "scripts"
    }

    fn provider_type(&self) -> &str {
        "scripts"
    }

    fn listing_depends_on(&self) -> toolhook_runtime::ContextParts {
        toolhook_runtime::ContextParts::NONE
    }

    fn list_tools<'a>(
        &'a self,
        _: Option<&'a ToolAvailabilityContext>,
    ) -> BoxFuture<'a, Result<Vec<ToolSpec>, ToolError>> {
        let specs = self.scripts.iter().map(|(name, _)| {
            ToolSpec::builder(name).brief_description(format!("Run the {name} script")).core_tool(true).build()
        });
        Box::pin(
            async move { specs.collect::<Result<Vec<_>, _>>().map_err(|e| ToolError::new("BadScript", e.to_string())) },
        )
    }

    fn invoke<'a>(
        &'a self,
        call: ToolInvocation,
        _: Option<&'a ToolExecutionContext>,
    ) -> BoxFuture<'a, Result<ToolExecutionResult, ToolError>> {
        Box::pin(async move {
            let (_, output) = self
                .scripts
                .iter()
                .find(|(name, _)| *name == call.tool_name)
                .ok_or_else(|| ToolError::transport("script vanished"))?;
            Ok(ToolExecutionResult::success(call.tool_name, output.clone()))
        })
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let registry = ToolRegistry::default();
    registry.register_provider(PluginToolProvider::from_declared());
    registry.register_provider(Scripts { scripts: vec![("greet".into(), "Hello from a script".into())] });
    let names: Vec<String> =
        registry.list_tools(None).await.iter().map(|t| format!("{} ({})", t.name(), t.provider_name())).collect();
    println!("{}", names.join("\n"));
    println!("{}", registry.invoke(ToolInvocation::new("greet", ""), None).await.content);
    let definitions = registry.get_llm_definitions(None, Dialect::Gemini).await;
    println!("{} Gemini definitions", definitions.len());
}
