//! Every case of `tests/vectors/results.json` and `tests/derived/results.json` (further cases,
//! each worked out from the rules its `note` quotes), split into the tool message and its media
//! messages as a host writes them into the history.

use serde_json::Value;
use toolhook::{Locale, ToolExecutionResult};
use toolhook_runtime::split_tool_result;

#[test]
fn every_results_vector_splits_into_the_expected_history_messages() {
    let cases: Vec<Value> = ["vectors", "derived"]
        .into_iter()
        .flat_map(|dir| {
            let path = format!("{}/tests/{dir}/results.json", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
            serde_json::from_str::<Vec<Value>>(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
        })
        .collect();
    assert!(!cases.is_empty());
    for case in cases {
        let name = case["case"].as_str().unwrap();
        let tool = case["tool_name"].as_str().unwrap();
        let call_id = case["call_id"].as_str().unwrap();
        let expected = &case["expected"];
        for (locale, key) in [(Locale::En, "en"), (Locale::ZhHans, "zh_hans")] {
            let result = ToolExecutionResult::from_raw_in(tool, case["input"].clone(), locale);
            let split = split_tool_result(call_id, tool, &result, locale);
            assert_eq!(split.tool_message, expected[format!("tool_message_{key}")], "{name}: tool message ({locale})");
            let media = expected["media"].as_array().unwrap();
            assert_eq!(split.media.len(), media.len(), "{name}: media count ({locale})");
            for (actual, want) in split.media.iter().zip(media) {
                assert_eq!(actual.message_id, want["message_id"], "{name}");
                assert_eq!(actual.tool_call_id, want["tool_call_id"], "{name}");
                assert_eq!(actual.item_index as u64, want["item_index"].as_u64().unwrap(), "{name}");
                assert_eq!(actual.header_text, want["header_text"], "{name}");
                assert_eq!(actual.visible_text, want[format!("visible_text_{key}")], "{name}: visible text ({locale})");
                let bytes = actual.image.as_ref().map_or(0, Vec::len) as u64;
                assert_eq!(bytes, want["image_bytes"].as_u64().unwrap(), "{name}: image bytes");
            }
        }
    }
}

#[test]
fn an_empty_result_still_tells_the_model_what_happened() {
    let ok = ToolExecutionResult::success("t", "  ");
    assert_eq!(split_tool_result("c", "t", &ok, Locale::En).tool_message, "Tool executed successfully.");
    assert_eq!(split_tool_result("c", "t", &ok, Locale::ZhHans).tool_message, "工具执行成功。");
    let failed = ToolExecutionResult::failure("t", "");
    assert_eq!(split_tool_result("c", "draw", &failed, Locale::En).tool_message, "Tool draw failed.");
    assert_eq!(split_tool_result("c", "draw", &failed, Locale::ZhHans).tool_message, "工具 draw 执行失败。");
}

#[test]
fn a_data_url_with_nothing_after_its_comma_is_no_image() {
    let mut result = ToolExecutionResult::success("draw", "done");
    let mut empty = toolhook::ToolContentItem::image("", "image/png");
    empty.uri = "data:image/png;base64,".into();
    let mut tiny = toolhook::ToolContentItem::image("", "image/png");
    tiny.uri = "data:image/png;base64,iVBO".into();
    *result.content_items_mut() = vec![empty, tiny];
    let history = split_tool_result("c", "draw", &result, Locale::En);
    assert_eq!(history.media.len(), 2);
    assert_eq!(history.media[0].image, None);
    assert!(!history.media[0].visible_text.contains("[image]"), "{}", history.media[0].visible_text);
    assert_eq!(history.media[1].image.as_deref(), Some(&[0x89, 0x50, 0x4e][..]));
    assert!(history.media[1].visible_text.ends_with("\n[image]"), "{}", history.media[1].visible_text);
}

/// Base64 whose last symbol carries bits past the data (as some encoders leave it) still decodes,
/// padded or not; what is not base64 at all stays no image.
#[test]
fn base64_with_stray_trailing_bits_is_an_image() {
    let mut result = ToolExecutionResult::success("draw", "done");
    *result.content_items_mut() = ["QUJ=", "QUJ", "QUI", "Q", "QU J"]
        .into_iter()
        .map(|data| toolhook::ToolContentItem::image(data, "image/png"))
        .collect();
    let history = split_tool_result("c", "draw", &result, Locale::En);
    let images: Vec<Option<&[u8]>> = history.media.iter().map(|m| m.image.as_deref()).collect();
    assert_eq!(images, [Some(&b"AB"[..]), Some(&b"AB"[..]), Some(&b"AB"[..]), None, None]);
}

/// The header and the list escape the id in their attributes; the text a model reads shows the
/// id as it is, like the parts after it.
#[test]
fn the_visible_text_shows_the_id_unescaped() {
    let mut result = ToolExecutionResult::success("draw", "done");
    *result.content_items_mut() = vec![toolhook::ToolContentItem::image("QUJD", "image/png")];
    let history = split_tool_result("c\"<1>", "draw", &result, Locale::En);
    let media = &history.media[0];
    assert_eq!(media.message_id, "tool_result:c\"<1>:1");
    assert!(media.header_text.starts_with("<tool_result_media msg_id=\"tool_result:c&quot;&lt;1&gt;:1\""));
    assert_eq!(media.visible_text, "<tool_result_media msg_id=\"tool_result:c\"<1>:1\" />\nimage / image/png\n[image]");
}

#[test]
fn post_history_messages_follow_the_whole_batch() {
    use serde_json::json;
    use toolhook_runtime::{HistoryMessage, batch_history};
    let mut first = ToolExecutionResult::success("a", "one");
    first.post_history_messages_mut().push(json!({"role": "user", "content": "after a"}));
    let mut second = ToolExecutionResult::success("b", "two");
    second.content_items_mut().push(toolhook::ToolContentItem::image("AAAA", "image/png"));
    second.post_history_messages_mut().push(json!({"role": "user", "content": "after b"}));
    let history = batch_history([("c1", &first), ("c2", &second)], Locale::En);
    let kinds: Vec<&str> = history
        .iter()
        .map(|m| match m {
            HistoryMessage::Tool { .. } => "tool",
            HistoryMessage::Media(_) => "media",
            HistoryMessage::Post(_) => "post",
        })
        .collect();
    assert_eq!(kinds, ["tool", "tool", "media", "post", "post"]);
}
