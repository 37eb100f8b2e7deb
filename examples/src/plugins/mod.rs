//! The example tools, one concept per module.

pub mod admin;
pub mod calculator;
pub mod chart;
pub mod flaky;
pub mod weather;
pub mod web;
