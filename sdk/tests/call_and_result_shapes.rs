//! The call and the result keep their rare parts in a box made on demand: what a user sees
//! (serialised form, equality, the parts read back) is as if every part were a plain field.

use serde_json::{Value, json};
use toolhook::{ToolContentItem, ToolExecutionResult, ToolInvocation};

#[test]
fn a_call_serialises_every_part_set_or_not() {
    let bare = serde_json::to_value(ToolInvocation::new("weather", r#"{"city":"Paris"}"#)).unwrap();
    assert_eq!(
        bare,
        json!({"tool_name": "weather", "arguments": r#"{"city":"Paris"}"#, "call_id": "", "session_id": "",
               "stream_id": "", "reasoning": "", "metadata": {}})
    );
    let full = ToolInvocation::new("weather", json!({"city": "Paris"}))
        .with_call_id("c1")
        .with_session_id("s1")
        .with_stream_id("t1")
        .with_reasoning("why")
        .with_metadata("trace", 7);
    let written = serde_json::to_value(&full).unwrap();
    assert_eq!(
        written,
        json!({"tool_name": "weather", "arguments": {"city": "Paris"}, "call_id": "c1", "session_id": "s1",
               "stream_id": "t1", "reasoning": "why", "metadata": {"trace": 7}})
    );
    assert_eq!(
        (full.call_id(), full.session_id(), full.stream_id(), full.reasoning(), &full.metadata()["trace"]),
        ("c1", "s1", "t1", "why", &json!(7))
    );
}

#[test]
fn a_call_part_set_empty_equals_one_never_set() {
    let bare = ToolInvocation::new("weather", "{}");
    let mut emptied = bare.clone().with_call_id("c1");
    assert_ne!(bare, emptied);
    emptied.set_call_id("");
    assert_eq!(bare, emptied);
    let mut with_metadata = bare.clone();
    with_metadata.metadata_mut().insert("k".into(), Value::Null);
    assert_ne!(bare, with_metadata);
    with_metadata.metadata_mut().clear();
    assert_eq!(bare, with_metadata);
}

#[test]
fn a_result_serialises_every_part_and_reads_back_the_same() {
    let bare = ToolExecutionResult::success("weather", "Sunny");
    assert_eq!(
        serde_json::to_value(&bare).unwrap(),
        json!({"tool_name": "weather", "success": true, "content": "Sunny", "error_message": "",
               "structured_content": null, "content_items": [], "post_history_messages": [],
               "metadata": {}, "stop_after_execution": false})
    );
    let mut full = ToolExecutionResult::failure("draw", "no paper").with_structured_content(json!({"high": 21}));
    full.content_items_mut().push(ToolContentItem::image("AAAA", "image/png"));
    full.post_history_messages_mut().push(json!({"role": "user", "content": "after"}));
    full.metadata.insert("plugin_id".into(), json!("art"));
    full.stop_after_execution = true;
    let text = serde_json::to_string(&full).unwrap();
    let read: ToolExecutionResult = serde_json::from_str(&text).unwrap();
    assert_eq!(read, full);
    assert_eq!(read.structured_content(), Some(&json!({"high": 21})));
    assert_eq!(read.content_items().len(), 1);
    assert_eq!(read.post_history_messages(), &[json!({"role": "user", "content": "after"})]);
    // Missing parts read as empty.
    let sparse: ToolExecutionResult = serde_json::from_value(json!({"tool_name": "t", "success": true})).unwrap();
    assert_eq!(sparse, ToolExecutionResult::success("t", ""));
    assert!(sparse.structured_content().is_none() && sparse.content_items().is_empty());
}

#[test]
fn a_result_part_set_empty_equals_one_never_set() {
    let bare = ToolExecutionResult::success("weather", "Sunny");
    let mut emptied = bare.clone().with_structured_content(json!(1));
    assert_ne!(bare, emptied);
    *emptied.structured_content_mut() = None;
    emptied.content_items_mut().clear();
    assert_eq!(bare, emptied);
    assert_eq!(format!("{bare:?}"), format!("{emptied:?}"));
}

/// Calls and results move by value through the registry, the provider and the tool: they stay
/// small enough to be moved without a call to `memcpy`.
#[test]
fn calls_and_results_stay_small() {
    assert!(size_of::<ToolInvocation>() <= 128, "{}", size_of::<ToolInvocation>());
    assert!(size_of::<ToolExecutionResult>() <= 128, "{}", size_of::<ToolExecutionResult>());
}
