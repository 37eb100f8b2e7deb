//! A long-running tool reaches its caller through its context: progress, logs, cancellation and
//! questions, with nothing but toolhook (no MCP types) in the signature.
use toolhook::serde_json::json;
use toolhook::{Elicitation, InputKind, LogLevel, Progress, RootsRequest, SamplingRequest, ToolExecutionContext, tool};

/// Summarise the files of a project, asking before the long part.
#[tool]
async fn summarise(ctx: &ToolExecutionContext, files: Vec<String>) -> Result<String, String> {
    if ctx.can_ask(InputKind::Elicitation) {
        let schema = json!({"type": "object", "properties": {"go": {"type": "boolean"}}, "required": ["go"]});
        let reply = ctx.elicit(Elicitation::new("Summarise every file?", schema)).await.map_err(|e| e.to_string())?;
        if reply.accepted().is_none() {
            return Ok("not now".into());
        }
    }
    let roots = ctx.list_roots(RootsRequest::new()).await.unwrap_or_default();
    for (done, file) in files.iter().enumerate() {
        if ctx.is_cancelled() {
            break;
        }
        ctx.report_progress(Progress::new(done as f64).total(files.len() as f64)).await;
        ctx.log(LogLevel::Debug, json!({"file": file, "roots": roots.len()})).await;
    }
    let summary = ctx.sample(SamplingRequest::new(200).user("Summarise these files")).await.map_err(|e| e.to_string())?;
    Ok(summary.text)
}

/// Stop when the caller gives up.
#[tool]
async fn wait_for_it(ctx: &ToolExecutionContext) -> &'static str {
    ctx.cancelled().await;
    "cancelled"
}

fn main() {}
