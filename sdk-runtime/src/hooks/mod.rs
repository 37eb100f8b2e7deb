//! Hook specs, the built-in catalogue, the dispatcher and its circuit breaker.

pub(crate) mod catalogue;
