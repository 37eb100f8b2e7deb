//! Hook specs, the built-in catalogue, the dispatcher and its circuit breaker (hooks.md).

mod breaker;
pub(crate) mod catalogue;
mod dispatcher;
mod spec;
