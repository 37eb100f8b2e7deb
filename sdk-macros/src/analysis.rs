//! What `#[tool]` (and `#[action]`) read from a fn's signature: each parameter's role, schema
//! name, shape and texts. `tool.rs` fills it in; the command and code generation read it.

use crate::schema::CheckedLiteral;
use crate::signature::Shape;
use syn::{Ident, Type};

/// What a fn parameter is to the generated code.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum ParamKind {
    /// Filled from the model's arguments.
    Model,
    /// `&ToolExecutionContext`.
    ExecutionContext,
    /// `&ToolInvocation`.
    Invocation,
    /// `&LegacyActionContext` (actions only).
    LegacyContext,
}

pub(crate) struct ParamAnalysis {
    pub(crate) ident: Ident,
    pub(crate) schema_name: String,
    pub(crate) ty: Type,
    pub(crate) shape: Shape,
    pub(crate) kind: ParamKind,
    pub(crate) description: Option<String>,
    /// `#[param(description_zh_hans = …)]`: the author's own zh-Hans text.
    pub(crate) description_zh_hans: Option<String>,
    pub(crate) default: Option<CheckedLiteral>,
    pub(crate) enum_values: Option<Vec<CheckedLiteral>>,
}

impl ParamAnalysis {
    pub(crate) fn required(&self) -> bool {
        !matches!(self.shape, Shape::Option(_)) && self.default.is_none()
    }

    pub(crate) fn model(&self) -> bool {
        self.kind == ParamKind::Model
    }
}

pub(crate) struct FnAnalysis {
    pub(crate) params: Vec<ParamAnalysis>,
    pub(crate) is_async: bool,
    /// An `async fn` whose body can never wait (see [`crate::awaits`]): it runs to its end in
    /// one poll.
    pub(crate) never_waits: bool,
    pub(crate) output: Option<Type>,
}

impl FnAnalysis {
    pub(crate) fn model_params(&self) -> impl Iterator<Item = &ParamAnalysis> {
        self.params.iter().filter(|p| p.model())
    }
}
