//! 1,000 `#[tool]`s, `lookup_000` to `lookup_999`, and what a hand-written program would embed
//! for each: its name, description and schema text.

use toolhook::tool;

pub(crate) const COUNT: usize = 1000;

pub(crate) const DESCRIPTION: &str = "Look up one record of the catalogue.";

/// The schema text `#[tool]` renders for every one of them.
pub(crate) const SCHEMA: &str = r#"{"type":"object","properties":{"key":{"type":"string","description":"The record's key."},"limit":{"type":"integer","minimum":0,"description":"How many related records to include."}},"required":["key"]}"#;

pub(crate) fn name(i: usize) -> String {
    format!("lookup_{i:03}")
}

macro_rules! one {
    ($h:tt $t:tt $u:tt) => {
        pastey::paste! {
            /// Look up one record of the catalogue.
            #[tool(core_tool = true)]
            async fn [<lookup_ $h $t $u>](
                /// The record's key.
                key: String,
                /// How many related records to include.
                limit: Option<u32>,
            ) -> String {
                format!("{key}: {}", limit.unwrap_or(0))
            }
        }
    };
}

macro_rules! ten {
    ($h:tt $t:tt) => {
        one!($h $t 0); one!($h $t 1); one!($h $t 2); one!($h $t 3); one!($h $t 4);
        one!($h $t 5); one!($h $t 6); one!($h $t 7); one!($h $t 8); one!($h $t 9);
    };
}

macro_rules! hundred {
    ($h:tt) => {
        ten!($h 0); ten!($h 1); ten!($h 2); ten!($h 3); ten!($h 4);
        ten!($h 5); ten!($h 6); ten!($h 7); ten!($h 8); ten!($h 9);
    };
}

hundred!(0);
hundred!(1);
hundred!(2);
hundred!(3);
hundred!(4);
hundred!(5);
hundred!(6);
hundred!(7);
hundred!(8);
hundred!(9);
