use toolhook::{ToolExecutionContext, tool};

#[tool]
async fn lookup(
    /// Docs on a context parameter.
    ctx: &ToolExecutionContext,
    #[param(description = "no")] other: &ToolExecutionContext,
) {
    let _ = (ctx, other);
}

fn main() {}
