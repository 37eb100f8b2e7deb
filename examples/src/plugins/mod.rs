//! The example plugins, one concept per module.

pub mod admin;
pub mod calculator;
pub mod chart;
pub mod flaky;
pub mod legacy;
pub mod moderation;
pub mod reminders;
pub mod rich_types;
pub mod routing;
pub mod weather;
pub mod web;
