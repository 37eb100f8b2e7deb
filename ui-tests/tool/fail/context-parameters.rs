use toolhook::{LegacyActionContext, ToolExecutionContext, tool};

#[tool]
async fn lookup(
    /// Docs on a context parameter.
    ctx: &ToolExecutionContext,
    #[param(description = "no")] other: &ToolExecutionContext,
) {
    let _ = (ctx, other);
}

/// A tool cannot take the legacy action context.
#[tool]
async fn poke(target: String, ctx: &LegacyActionContext) -> String {
    format!("{target} {}", ctx.stream_id)
}

fn main() {}
