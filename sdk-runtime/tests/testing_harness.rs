//! `testing::invoke` reaches `#[plugin]` methods, keeps their state between calls, and explains
//! a miss.

use std::sync::Mutex;
use toolhook::{plugin, tool};
use toolhook_runtime::testing;

/// Counts things.
#[derive(Debug, Default)]
pub struct Counter {
    count: Mutex<u32>,
}

#[plugin(id = "acme.counter")]
impl Counter {
    /// Counts one more.
    #[tool]
    async fn count(&self) -> String {
        let mut count = self.count.lock().unwrap();
        *count += 1;
        count.to_string()
    }
}

/// Says hello.
#[tool]
fn hello() -> &'static str {
    "hello"
}

#[tokio::test]
async fn plugin_methods_are_reached_and_keep_their_state() {
    let first = testing::invoke("count", "{}").await;
    assert!(first.success, "{}", first.error_message);
    let second = testing::invoke("count", "{}").await;
    assert_eq!(second.content.parse::<u32>().unwrap(), first.content.parse::<u32>().unwrap() + 1);
    assert_eq!(testing::invoke("hello", "").await.content, "hello");
}

#[tokio::test]
async fn a_miss_names_the_declared_tools_and_the_missing_link() {
    let miss = testing::invoke("helo", "").await;
    assert!(!miss.success);
    let message = miss.error_message;
    assert!(message.starts_with("Tool not found: helo"), "{message}");
    assert!(message.contains("Declared tools: count, hello."), "{message}");
    assert!(message.contains("use my_plugin_crate as _;"), "{message}");
}
