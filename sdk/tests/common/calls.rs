//! Calling a declared `#[tool]` directly through its invoker, without a registry (included with
//! `#[path]` by the tests that need it).
#![allow(dead_code)]

use toolhook::__private::Invoker;
use toolhook::{DeclaredTool, Locale, ToolError, ToolExecutionContext, ToolExecutionResult, ToolInvocation};

/// The declared tool of that name.
pub(crate) fn declared_tool(name: &str) -> DeclaredTool {
    DeclaredTool::all().into_iter().find(|t| t.name() == name).unwrap_or_else(|| panic!("no tool {name}"))
}

/// Calls the tool with `args` as text, without a context, its texts in `locale`.
pub(crate) async fn call_in(name: &str, args: &str, locale: Locale) -> Result<ToolExecutionResult, ToolError> {
    let tool = declared_tool(name);
    let call = ToolInvocation::new(name, args).with_call_id("call_1");
    let ctx: Option<&ToolExecutionContext> = None;
    match tool.registration().invoker {
        Invoker::Async(f) => f(None, call, ctx, locale, None).await,
        Invoker::Sync(f) => f(None, call, ctx.cloned(), locale, None),
    }
}

/// The content of a call that succeeds.
pub(crate) async fn content(name: &str, args: &str) -> String {
    let result = call_in(name, args, Locale::En).await.unwrap_or_else(|e| panic!("{name}: {}", e.message(Locale::En)));
    assert!(result.success, "{name}: {}", result.error_message);
    result.content
}

/// The argument error of a call, `[English, Simplified Chinese]`.
pub(crate) async fn argument_error(name: &str, args: &str) -> [String; 2] {
    let mut texts = Vec::new();
    for locale in [Locale::En, Locale::ZhHans] {
        let error = call_in(name, args, locale).await.err().unwrap_or_else(|| panic!("{name} {args}: no error"));
        assert_eq!(error.type_name(), "InvalidArguments", "{name} {args}");
        texts.push(error.message(locale).to_owned());
    }
    [texts[0].clone(), texts[1].clone()]
}
