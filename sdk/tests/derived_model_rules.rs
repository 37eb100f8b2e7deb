//! The tool model checked rule by rule with values worked out from the written rules alone: the
//! names `Locale`, `Visibility`, `ToolParamType`, `PermissionLevel`, `Phase`, `ActivationType` and
//! `ChatMode` read and write, the JSON forms of `ToolParameterInfo`, `ToolIcon`, `ToolAnnotation`,
//! `ActionInfo`, `ToolContentItem` and `ToolSpec`, what `ToolSpecBuilder` accepts and refuses (and
//! how its errors name the parameter), how visibility, platforms and metadata are settled, and what
//! `#[tool]` and `#[action]` make of attribute keys, doc comments, parameter types and return
//! types. Texts and key order are compared byte for byte (serialised JSON).
// Some declarations leave descriptions out on purpose (fallback texts), so the warning `#[tool]`
// gives for them is silenced here; `#[action]` warns as deprecated too.
#![allow(deprecated)]

use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, HashSet};
use std::time::Duration;
use toolhook::__private::Invoker;
use toolhook::{
    ActionInfo, ActivationType, ChatMode, ChatScope, DeclaredTool, Json, Locale, PermissionLevel, Phase,
    ToolAnnotation, ToolAvailabilityContext, ToolContentItem, ToolExecutionContext, ToolExecutionResult, ToolIcon,
    ToolInvocation, ToolOutput, ToolParamType as T, ToolParameterInfo as P, ToolSpec, Visibility, action, tool,
};

// ---- helpers ------------------------------------------------------------------------------------

fn declared_tool(name: &str) -> DeclaredTool {
    DeclaredTool::all().into_iter().find(|t| t.name() == name).unwrap_or_else(|| panic!("no tool {name}"))
}

fn declared(name: &str) -> ToolSpec {
    declared_tool(name).spec().unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn text<S: toolhook::serde::Serialize + ?Sized>(value: &S) -> String {
    serde_json::to_string(value).unwrap()
}

fn docs(spec: &ToolSpec) -> [String; 2] {
    [spec.detailed_description(Locale::En).to_owned(), spec.detailed_description(Locale::ZhHans).to_owned()]
}

fn briefs(spec: &ToolSpec) -> [String; 2] {
    [spec.description(Locale::En).to_owned(), spec.description(Locale::ZhHans).to_owned()]
}

async fn call_in(name: &str, args: &str, locale: Locale) -> ToolExecutionResult {
    let tool = declared_tool(name);
    let call = ToolInvocation::new(name, args).with_call_id("call_1");
    let ctx: Option<&ToolExecutionContext> = None;
    let outcome = match tool.registration().invoker {
        Invoker::Async(f) => f(None, call, ctx, locale, None).await,
        Invoker::Sync(f) => f(None, call, ctx.cloned(), locale, None),
    };
    outcome.unwrap_or_else(|e| panic!("{name}: {}", e.message(locale)))
}

async fn call(name: &str, args: &str) -> ToolExecutionResult {
    call_in(name, args, Locale::En).await
}

fn keys(value: &Value) -> Vec<&str> {
    value.as_object().unwrap().keys().map(String::as_str).collect()
}

// ---- the model's types -------------------------------------------------------------------------

fn clone_debug_send_sync<X: Clone + std::fmt::Debug + Send + Sync>() {}

// "All types are `Clone + Debug + Send + Sync`".
#[test]
fn every_type_of_the_model_is_clone_debug_send_and_sync() {
    clone_debug_send_sync::<Locale>();
    clone_debug_send_sync::<T>();
    clone_debug_send_sync::<Visibility>();
    clone_debug_send_sync::<PermissionLevel>();
    clone_debug_send_sync::<ChatScope>();
    clone_debug_send_sync::<ToolIcon>();
    clone_debug_send_sync::<ToolAnnotation>();
    clone_debug_send_sync::<P>();
    clone_debug_send_sync::<ToolSpec>();
    clone_debug_send_sync::<ToolInvocation>();
    clone_debug_send_sync::<ToolExecutionContext>();
    clone_debug_send_sync::<Phase>();
    clone_debug_send_sync::<ToolAvailabilityContext>();
    clone_debug_send_sync::<ToolContentItem>();
    clone_debug_send_sync::<ToolExecutionResult>();
    clone_debug_send_sync::<ToolOutput>();
    clone_debug_send_sync::<ActionInfo>();
    clone_debug_send_sync::<ActivationType>();
    clone_debug_send_sync::<ChatMode>();
}

// ---- Locale -------------------------------------------------------------------------------------

// Locale "`FromStr` ASCII case-insensitive with `_` = `-`: `en`, `en-us`, `en-gb`, `zh-hans`,
// `zh-cn`, `zh`" (and nothing else).
#[test]
fn locale_reads_the_listed_tags_in_any_ascii_case_with_underscores_and_no_others() {
    for tag in ["en", "EN", "En-Us", "en_us", "EN_GB", "en-gb"] {
        assert_eq!(tag.parse::<Locale>().ok(), Some(Locale::En), "{tag}");
    }
    for tag in ["zh-hans", "ZH_HANS", "zh-Hans", "zh-CN", "zh_cn", "Zh", "ZH"] {
        assert_eq!(tag.parse::<Locale>().ok(), Some(Locale::ZhHans), "{tag}");
    }
    // Only the listed tags are read: other languages are no locale.
    for tag in ["", "fr", "de", "english", "chinese"] {
        assert!(tag.parse::<Locale>().is_err(), "{tag:?} parsed");
    }
}

// Locale "`En` (Default) | `ZhHans`; serde/`Display` `"en"`, `"zh-Hans"`".
#[test]
fn locale_names_are_en_and_zh_hans_and_english_is_the_default() {
    assert_eq!(Locale::default(), Locale::En);
    assert_eq!(Locale::En.to_string(), "en");
    assert_eq!(Locale::ZhHans.to_string(), "zh-Hans");
    assert_eq!(text(&[Locale::En, Locale::ZhHans]), r#"["en","zh-Hans"]"#);
    assert_eq!(serde_json::from_str::<Locale>(r#""zh-Hans""#).unwrap(), Locale::ZhHans);
    assert_eq!(serde_json::from_str::<Locale>(r#""en""#).unwrap(), Locale::En);
}

// ---- ToolParamType, Visibility, access, Phase -----------------------------------------------------

// ToolParamType "`String, Integer, Number, Float, Boolean, Array, Object`, serde lowercase
// (`"float"` stays `"float"`)".
#[test]
fn param_types_read_and_write_lowercase_and_float_stays_float() {
    let all = [T::String, T::Integer, T::Number, T::Float, T::Boolean, T::Array, T::Object];
    let written = r#"["string","integer","number","float","boolean","array","object"]"#;
    assert_eq!(text(&all), written);
    assert_eq!(serde_json::from_str::<Vec<T>>(written).unwrap(), all);
}

// Visibility "`FromStr` trims and lowercases (`" VISIBLE "` → `Visible`)", trim being Rust's
// `str::trim` (so a full-width space or a newline is trimmed too); other names fail.
#[test]
fn visibility_parses_trimmed_and_lowercased_names_only() {
    assert_eq!(" VISIBLE ".parse::<Visibility>().ok(), Some(Visibility::Visible));
    assert_eq!("\u{3000}Hidden\n".parse::<Visibility>().ok(), Some(Visibility::Hidden));
    assert_eq!("\tDeFeRrEd".parse::<Visibility>().ok(), Some(Visibility::Deferred));
    for bad in ["", "   ", "public", "visible!"] {
        assert!(bad.parse::<Visibility>().is_err(), "{bad:?} parsed");
    }
}

// Visibility "`Visible, Deferred (default), Hidden`, serde lowercase".
#[test]
fn visibility_serde_names_are_lowercase_and_deferred_is_the_default() {
    assert_eq!(Visibility::default(), Visibility::Deferred);
    let all = [Visibility::Visible, Visibility::Deferred, Visibility::Hidden];
    assert_eq!(text(&all), r#"["visible","deferred","hidden"]"#);
    assert_eq!(
        serde_json::from_str::<Vec<Visibility>>(r#"["hidden","visible"]"#).unwrap(),
        [Visibility::Hidden, Visibility::Visible]
    );
}

// "`PermissionLevel` `User < GroupAdmin < GroupOwner < BotAdmin < Owner` (serde snake_case, default
// `User`)"; "**Phase** `Timing | Action` (serde lowercase)".
#[test]
fn permission_levels_are_ordered_and_named_in_snake_case_and_phases_in_lowercase() {
    use PermissionLevel::*;
    let all = [User, GroupAdmin, GroupOwner, BotAdmin, Owner];
    assert!(all.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(PermissionLevel::default(), User);
    let written = r#"["user","group_admin","group_owner","bot_admin","owner"]"#;
    assert_eq!(text(&all), written);
    assert_eq!(serde_json::from_str::<Vec<PermissionLevel>>(written).unwrap(), all);
    // "**Phase** `Timing | Action` (serde lowercase)".
    assert_eq!(text(&[Phase::Timing, Phase::Action]), r#"["timing","action"]"#);
    assert_eq!(serde_json::from_str::<Phase>(r#""action""#).unwrap(), Phase::Action);
}

// "**ToolIcon** `{src, mime_type = "", sizes = []}`. **ToolAnnotation** `{…}`, all defaulted."
#[test]
fn icons_and_annotations_default_every_field_left_out() {
    let icon: ToolIcon = serde_json::from_value(json!({"src": "https://example.com/i.png"})).unwrap();
    assert_eq!(icon.src, "https://example.com/i.png");
    assert_eq!(icon.mime_type, "");
    assert!(icon.sizes.is_empty());
    let annotation: ToolAnnotation = serde_json::from_value(json!({})).unwrap();
    assert!(annotation.audience.is_empty());
    assert_eq!(annotation.priority, None);
    assert_eq!(annotation.title, "");
    assert_eq!(
        (annotation.read_only, annotation.destructive, annotation.idempotent, annotation.open_world),
        (None, None, None, None)
    );
    assert!(annotation.metadata.is_empty());
}

// ---- ToolParameterInfo --------------------------------------------------------------------------

// ToolParameterInfo: `name` required; `param_type` default `string`; `description` `""`;
// `required` **true**; the optional fields none; `required_properties` `[]`.
#[test]
fn a_parameter_of_only_a_name_takes_every_default_of_the_table() {
    let info: P = serde_json::from_value(json!({"name": "q"})).unwrap();
    assert_eq!(info.name, "q");
    assert_eq!(info.param_type, T::String);
    assert_eq!(info.description, "");
    assert!(info.required);
    assert_eq!(info.enum_values, None);
    assert_eq!(info.default, None);
    assert_eq!(info.items_schema, None);
    assert_eq!(info.properties, None);
    assert!(info.required_properties.is_empty());
    assert_eq!(info.additional_properties, None);
    assert_eq!(info, P::new("q", T::String));
}

// ToolParameterInfo: "`name` | `String` | required"; the other fields read `null` as their
// default (a declaration with `null` for a field, as other hosts write an unset one, loads).
#[test]
fn a_parameter_needs_a_name_and_reads_null_fields_as_their_defaults() {
    assert!(serde_json::from_value::<P>(json!({"param_type": "string", "description": "x"})).is_err());
    let info: P = serde_json::from_value(json!({
        "name": "q",
        "param_type": null,
        "description": null,
        "required": null,
        "enum_values": null,
        "default": null,
        "items_schema": null,
        "properties": null,
        "required_properties": null,
        "additional_properties": null
    }))
    .unwrap();
    assert_eq!(info, P::new("q", T::String));
    assert!(info.required);
}

// "`::new(name, type)` plus setters named after the fields": the setters give what the same JSON
// fields give; objects list "`properties` (verbatim…), `required` (= `required_properties`,
// always), then `additionalProperties` if set".
#[test]
fn setters_named_after_the_fields_equal_the_json_form() {
    let mut properties = Map::new();
    properties.insert("k".to_owned(), json!({"type": "string"}));
    let built = P::new("cfg", T::Object)
        .description("Config")
        .required(false)
        .properties(properties)
        .required_properties(["k"])
        .additional_properties(false);
    let read: P = serde_json::from_value(json!({
        "name": "cfg",
        "param_type": "object",
        "description": "Config",
        "required": false,
        "properties": {"k": {"type": "string"}},
        "required_properties": ["k"],
        "additional_properties": false
    }))
    .unwrap();
    assert_eq!(built, read);
    let spec = ToolSpec::builder("cfg_tool").parameters(vec![built]).build().unwrap();
    assert_eq!(
        text(spec.parameters_schema()),
        r#"{"type":"object","properties":{"cfg":{"type":"object","description":"Config","properties":{"k":{"type":"string"}},"required":["k"],"additionalProperties":false}},"required":[]}"#
    );
}

// "names are a contract": a parameter writes its JSON under the field names and reads back the
// same; `param_type` as its lowercase name.
#[test]
fn a_parameter_writes_under_its_field_names_and_reads_back_the_same() {
    let info = P::new("tags", T::Array)
        .description("Tags")
        .required(false)
        .enum_values([json!(["a"]), json!(["b"])])
        .default(json!(["a"]))
        .items_schema(json!({"type": "string"}));
    let value = serde_json::to_value(&info).unwrap();
    let allowed = [
        "name",
        "param_type",
        "description",
        "required",
        "enum_values",
        "default",
        "items_schema",
        "properties",
        "required_properties",
        "additional_properties",
    ];
    for key in keys(&value) {
        assert!(allowed.contains(&key), "unexpected key {key}");
    }
    for key in ["name", "param_type", "description", "required", "enum_values", "default", "items_schema"] {
        assert!(value.get(key).is_some(), "missing key {key}");
    }
    assert_eq!(value["param_type"], "array");
    assert_eq!(value["items_schema"], json!({"type": "string"}));
    assert_eq!(serde_json::from_value::<P>(value).unwrap(), info);
}

// "`enum_values` … `[]` = none"; "`default` … JSON `null` = none", set through the setters: the
// schema has "`enum` (non-empty only); `default` (set only)", and the block neither part.
#[test]
fn an_empty_enum_and_a_null_default_given_to_the_setters_are_none() {
    let info = P::new("a", T::String).enum_values(Vec::<Value>::new()).default(Value::Null);
    let spec = ToolSpec::builder("no_enum").parameters(vec![info]).build().unwrap();
    assert_eq!(
        text(spec.parameters_schema()),
        r#"{"type":"object","properties":{"a":{"type":"string","description":""}},"required":["a"]}"#
    );
    assert_eq!(
        docs(&spec),
        [
            "Parameter details:\n- a: string, required. No description".to_owned(),
            "参数说明：\n- a：string，必填。无额外说明".to_owned()
        ]
    );
}

// ---- ToolSpec -----------------------------------------------------------------------------------

// "`Serialize` form: `name, title, description {en, zh-Hans}, detailed_description {en,
// zh-Hans}, parameters_schema, output_schema, provider_name, provider_type, enabled, visibility,
// platforms, permission, scopes, icons, annotation, metadata`".
#[test]
fn a_spec_serialises_its_keys_in_the_written_order() {
    let spec = ToolSpec::builder("ordered").build().unwrap();
    let value = serde_json::to_value(&spec).unwrap();
    assert_eq!(
        keys(&value),
        [
            "name",
            "title",
            "description",
            "detailed_description",
            "parameters_schema",
            "output_schema",
            "provider_name",
            "provider_type",
            "enabled",
            "visibility",
            "platforms",
            "permission",
            "scopes",
            "icons",
            "annotation",
            "metadata",
        ]
    );
}

// Serialize form "`description {en, zh-Hans}, detailed_description {en, zh-Hans}`"; a brief
// "else `Tool {name}` / `工具 {name}`"; `title()` `""`; `provider_name()`, `provider_type()` "else
// `""`"; Visibility default deferred; `permission` default `user`; `parameters_schema_for(locale)`
// differs only for legacy actions and built-ins.
#[test]
fn a_bare_spec_serialises_both_locales_texts_and_its_defaults() {
    let spec = ToolSpec::builder("bare").build().unwrap();
    let value = serde_json::to_value(&spec).unwrap();
    assert_eq!(text(&value["description"]), r#"{"en":"Tool bare","zh-Hans":"工具 bare"}"#);
    assert_eq!(text(&value["detailed_description"]), r#"{"en":"","zh-Hans":""}"#);
    assert_eq!(text(&value["parameters_schema"]), r#"{"type":"object","properties":{},"required":[]}"#);
    assert_eq!(value["name"], "bare");
    assert_eq!(value["title"], "");
    assert_eq!(value["provider_name"], "");
    assert_eq!(value["provider_type"], "");
    assert_eq!(value["enabled"], true);
    assert_eq!(value["visibility"], "deferred");
    assert_eq!(value["permission"], "user");
    assert_eq!(value["platforms"], json!([]));
    assert_eq!(value["scopes"], json!([]));
    assert_eq!(value["icons"], json!([]));
    assert_eq!(value["metadata"], json!({}));
    assert_eq!(spec.parameters_schema_for(Locale::ZhHans), spec.parameters_schema());
}

// "`enabled()` (false when hidden or `.enabled(false)`)": disabling does not change the visibility.
#[test]
fn disabling_a_tool_keeps_its_visibility() {
    let spec = ToolSpec::builder("off").enabled(false).build().unwrap();
    assert!(!spec.enabled());
    assert_eq!(spec.visibility(), Visibility::Deferred);
    let value = serde_json::to_value(&spec).unwrap();
    assert_eq!((value["enabled"].clone(), value["visibility"].clone()), (json!(false), json!("deferred")));
    let spec = ToolSpec::builder("core_off").core_tool(true).enabled(false).build().unwrap();
    assert!(!spec.enabled());
    assert_eq!(spec.visibility(), Visibility::Visible);
}

// "`.title`, `.output_schema`, `.provider(name, type)`, `.enabled`, `.icon`, `.annotation`,
// `.permission`, `.scopes`, `.timeout(Duration)`, `.deny_unknown_args(bool)` | as named".
#[test]
fn the_plain_setters_are_read_back_by_their_accessors() {
    let annotation = ToolAnnotation { title: "Forecast".into(), read_only: Some(true), ..Default::default() };
    let output = json!({"type": "object", "properties": {"t": {"type": "number"}}, "required": ["t"]});
    let spec = ToolSpec::builder("named")
        .title("Weather")
        .output_schema(output.clone())
        .provider("weather_plugin", "plugin")
        .icon(ToolIcon::new("https://example.com/w.png"))
        .annotation(annotation.clone())
        .permission(PermissionLevel::GroupOwner)
        .scopes([ChatScope::Group])
        .timeout(Duration::from_millis(2500))
        .deny_unknown_args(true)
        .build()
        .unwrap();
    assert_eq!(spec.title(), "Weather");
    assert_eq!(spec.output_schema().map(text), Some(text(&output)));
    assert_eq!((spec.provider_name(), spec.provider_type()), ("weather_plugin", "plugin"));
    assert_eq!(spec.icons(), [ToolIcon::new("https://example.com/w.png")]);
    assert_eq!(spec.annotation(), &annotation);
    assert_eq!(spec.permission(), PermissionLevel::GroupOwner);
    assert_eq!(spec.scopes(), [ChatScope::Group]);
    assert_eq!(spec.timeout(), Some(Duration::from_millis(2500)));
    assert!(spec.deny_unknown_args());
    assert!(spec.enabled());
}

// ---- calls, contexts, content -------------------------------------------------------------------

// "`arguments` keeps the model's JSON text as received".
#[test]
fn a_call_keeps_its_argument_text_as_received() {
    let sent = " {\"b\": 1.50,\n \"a\": [1e2]} ";
    let call = ToolInvocation::new("t", sent);
    assert_eq!(call.arguments.as_text(), sent);
    assert_eq!(call.tool_name, "t");
}

// "**ToolAvailabilityContext**: the same without `reasoning` and `metadata`;
// `From<&ToolExecutionContext>`"; `locale: Locale` defaults to `En`.
#[test]
fn an_availability_context_copies_every_field_it_has() {
    let mut ctx = ToolExecutionContext::default();
    assert_eq!(ctx.locale, Locale::En);
    ctx.session_id = "s1".into();
    ctx.stream_id = "st1".into();
    ctx.reasoning = "because".into();
    ctx.group_id = "g1".into();
    ctx.user_id = "u1".into();
    ctx.platform = "qq".into();
    ctx.is_group_chat = Some(true);
    ctx.permission = PermissionLevel::BotAdmin;
    ctx.scope = Some(ChatScope::Group);
    ctx.phase = Some(Phase::Timing);
    ctx.locale = Locale::ZhHans;
    ctx.metadata.insert("k".into(), json!(1));
    let a = ToolAvailabilityContext::from(&ctx);
    assert_eq!(
        (a.session_id.as_str(), a.stream_id.as_str(), a.group_id.as_str(), a.user_id.as_str(), a.platform.as_str()),
        ("s1", "st1", "g1", "u1", "qq")
    );
    assert_eq!(a.is_group_chat, Some(true));
    assert_eq!(a.permission, PermissionLevel::BotAdmin);
    assert_eq!(a.scope, Some(ChatScope::Group));
    assert_eq!(a.phase, Some(Phase::Timing));
    assert_eq!(a.locale, Locale::ZhHans);
}

// ToolContentItem: "Constructors `text`, `image(data, mime)`, `audio`, `resource_link(uri, name)`,
// `resource(uri, text)`, `binary(data, mime)`"; "Serialised with exactly these nine keys in this
// order (`"annotation": null` when absent)".
#[test]
fn content_item_constructors_fill_their_fields_and_serialise_nine_keys() {
    let item = |t: &str, text: &str, data: &str, mime: &str, uri: &str, name: &str| {
        format!(
            r#"{{"content_type":"{t}","text":"{text}","data":"{data}","mime_type":"{mime}","uri":"{uri}","name":"{name}","description":"","annotation":null,"metadata":{{}}}}"#
        )
    };
    assert_eq!(text(&ToolContentItem::text("hi")), item("text", "hi", "", "", "", ""));
    assert_eq!(text(&ToolContentItem::image("QUJD", "image/png")), item("image", "", "QUJD", "image/png", "", ""));
    assert_eq!(text(&ToolContentItem::audio("QUJD", "audio/wav")), item("audio", "", "QUJD", "audio/wav", "", ""));
    assert_eq!(
        text(&ToolContentItem::resource_link("https://example.com/d", "doc")),
        item("resource_link", "", "", "", "https://example.com/d", "doc")
    );
    assert_eq!(
        text(&ToolContentItem::resource("file:///a.txt", "body")),
        item("resource", "body", "", "", "file:///a.txt", "")
    );
    assert_eq!(
        text(&ToolContentItem::binary("QUJD", "application/pdf")),
        item("binary", "", "QUJD", "application/pdf", "", "")
    );
}

// ---- the builder --------------------------------------------------------------------------------

// "`build()` fails (`thiserror`, naming the parameter) on: … a parameter name that is … padded or
// repeated; an array parameter without `items_schema`, or a raw top-level property
// `"type":"array"` without `items`; a non-object `items_schema`; an `additional_properties` that is
// not a bool or object".
#[test]
fn build_errors_name_the_parameter_at_fault() {
    let fails = |list: Vec<P>, parameter: &str| {
        let error = ToolSpec::builder("bad").parameters(list).build().expect_err(parameter);
        assert!(error.to_string().contains(parameter), "{error} does not name {parameter}");
    };
    fails(vec![P::new("zq_dup", T::String), P::new("zq_dup", T::Integer)], "zq_dup");
    fails(vec![P::new("\u{a0}zq_pad", T::String)], "zq_pad");
    fails(vec![P::new("zq_arr", T::Array)], "zq_arr");
    fails(vec![P::new("zq_items", T::Array).items_schema(json!("string"))], "zq_items");
    fails(vec![P::new("zq_add", T::Object).additional_properties(json!("yes"))], "zq_add");
    let error = ToolSpec::builder("bad")
        .parameters_raw(json!({"zq_raw": {"type": "array", "description": "no items"}}))
        .build()
        .expect_err("raw array without items");
    assert!(error.to_string().contains("zq_raw"), "{error} does not name zq_raw");
}

// "a blank name or one with surrounding whitespace" fails, blank being "empty after trim" (Rust's
// trim: full-width spaces and newlines count); nothing else about a name fails the build.
#[test]
fn only_blank_or_padded_tool_names_fail() {
    for name in ["", "\u{3000}", " \n", "ping\n", "\u{3000}ping", "ping\t"] {
        assert!(ToolSpec::builder(name).build().is_err(), "{name:?} was accepted");
    }
    for name in ["web search", "天气", "a.b-c"] {
        let spec = ToolSpec::builder(name).build().unwrap_or_else(|e| panic!("{name:?}: {e}"));
        assert_eq!(spec.name(), name);
    }
}

// "`.core_tool(bool)` | visible, unless `.visibility(..)` is also called (any order)";
// "`.visibility(Visibility)` | wins; default deferred".
#[test]
fn visibility_wins_over_core_tool_whichever_is_called_first() {
    let vis = |b: toolhook::ToolSpecBuilder| b.build().unwrap().visibility();
    assert_eq!(vis(ToolSpec::builder("a").visibility(Visibility::Deferred).core_tool(true)), Visibility::Deferred);
    assert_eq!(vis(ToolSpec::builder("a").core_tool(true).visibility(Visibility::Deferred)), Visibility::Deferred);
    assert_eq!(vis(ToolSpec::builder("a").visibility(Visibility::Visible).core_tool(false)), Visibility::Visible);
    assert_eq!(vis(ToolSpec::builder("a").visibility(Visibility::Hidden).core_tool(true)), Visibility::Hidden);
    assert_eq!(vis(ToolSpec::builder("a").core_tool(true)), Visibility::Visible);
    assert_eq!(vis(ToolSpec::builder("a").core_tool(false)), Visibility::Deferred);
}

// "`.metadata(key, Into<Value>)` | call order; a repeated key keeps its first slot and the last
// value".
#[test]
fn a_repeated_metadata_key_keeps_its_first_slot_and_takes_the_last_value() {
    let spec = ToolSpec::builder("meta")
        .metadata("a", 1)
        .metadata("b", "two")
        .metadata("c", true)
        .metadata("a", json!({"x": null}))
        .metadata("b", 2.5)
        .build()
        .unwrap();
    assert_eq!(text(spec.metadata()), r#"{"a":{"x":null},"b":2.5,"c":true}"#);
}

// "`.platforms(iter of Into<String>)` | trimmed, lowercased, duplicates dropped (first kept)", trim
// being Rust's `str::trim`; "a blank platform" fails the build.
#[test]
fn platforms_are_trimmed_as_rust_trims_and_a_full_width_blank_one_fails() {
    let spec = ToolSpec::builder("p").platforms([" \u{3000}Discord\t", "QQ", "discord", "qq\n"]).build().unwrap();
    assert_eq!(spec.platforms(), ["discord", "qq"]);
    assert!(ToolSpec::builder("p").platforms(["qq", "\u{3000}"]).build().is_err());
    assert!(ToolSpec::builder("p").platforms(Vec::<String>::new()).build().unwrap().platforms().is_empty());
}

// ---- legacy actions as data ---------------------------------------------------------------------

// ActionInfo "(serde, every key but `name` optional)": `activation_type` default `always`,
// `activation_probability` 1.0, `chat_mode` default `normal`; "any other key kept in `extra: Map`
// (flattened, input order)".
#[test]
fn an_action_of_a_name_takes_the_defaults_and_keeps_other_keys_flattened() {
    let info: ActionInfo = serde_json::from_value(json!({"name": "wave", "zeta": 1, "alpha": [true]})).unwrap();
    assert_eq!(info.activation_type, ActivationType::Always);
    assert_eq!(info.activation_probability, 1.0);
    assert_eq!(info.chat_mode, ChatMode::Normal);
    assert_eq!(info.description, "");
    assert!(!info.parallel_action);
    assert!(info.action_parameters.is_empty() && info.activation_keywords.is_empty());
    assert_eq!(text(&info.extra), r#"{"zeta":1,"alpha":[true]}"#);
    let mut plain = ActionInfo::new("wave");
    plain.extra = info.extra.clone();
    assert_eq!(plain, info);
    // Flattened: written back at the top level, beside the named fields.
    let written = serde_json::to_value(&info).unwrap();
    assert_eq!(written["zeta"], 1);
    assert_eq!(written["alpha"], json!([true]));
    assert!(written.get("extra").is_none());
    assert_eq!(serde_json::from_value::<ActionInfo>(written).unwrap(), info);
}

// "`activation_type: ActivationType` (`never|always|random|keyword`…)"; "`chat_mode: ChatMode`
// (`focus|normal|priority|all`…)".
#[test]
fn activation_types_and_chat_modes_read_and_write_their_names() {
    use ActivationType::*;
    use ChatMode::*;
    let types = [Never, Always, Random, Keyword];
    assert_eq!(text(&types), r#"["never","always","random","keyword"]"#);
    assert_eq!(serde_json::from_str::<Vec<ActivationType>>(r#"["never","always","random","keyword"]"#).unwrap(), types);
    let modes = [Focus, Normal, Priority, All];
    assert_eq!(text(&modes), r#"["focus","normal","priority","all"]"#);
    assert_eq!(serde_json::from_str::<Vec<ChatMode>>(r#"["focus","normal","priority","all"]"#).unwrap(), modes);
}

// `from_action`: "metadata: … `legacy_action: true`, `legacy_component_type: "ACTION"`,
// `activation_type`, …, `action_prompt` (raw values, enums as strings)"; brief "else `Tool {name}` /
// `工具 {name}`"; detailed "always" part only; schema all optional, `required: []`.
#[test]
fn a_bare_legacy_action_converts_with_the_default_fields() {
    let spec = ToolSpec::from_action(ActionInfo::new("nudge")).unwrap();
    assert_eq!(
        text(spec.metadata()),
        r#"{"legacy_action":true,"legacy_component_type":"ACTION","activation_type":"always","activation_keywords":[],"activation_probability":1.0,"chat_mode":"normal","action_parameters":{},"action_require":[],"associated_types":[],"parallel_action":false,"action_prompt":""}"#
    );
    assert_eq!(briefs(&spec), ["Tool nudge".to_owned(), "工具 nudge".to_owned()]);
    assert_eq!(
        docs(&spec),
        ["Legacy action activation: always.".to_owned(), "兼容旧 Action 激活方式：always。".to_owned()]
    );
    assert_eq!(text(spec.parameters_schema()), r#"{"type":"object","properties":{},"required":[]}"#);
    assert_eq!(spec.visibility(), Visibility::Deferred);
}

// ---- #[tool]: doc comments ----------------------------------------------------------------------

/// Brief   with  inner   spaces
///    and a second line.
#[doc = "   \t"]
/// Detail after a whitespace-only line.
#[tool]
fn whitespace_line() {}

// "paragraphs split at blank lines" (blank = empty after trim, so a line of spaces and a tab
// splits too); "**First paragraph** = brief candidate (lines trimmed, joined with one space)" —
// the spaces inside a line stay.
#[test]
fn a_whitespace_only_doc_line_separates_paragraphs() {
    let spec = declared("whitespace_line");
    assert_eq!(
        briefs(&spec),
        [
            "Brief   with  inner   spaces and a second line.".to_owned(),
            "Brief   with  inner   spaces and a second line.".to_owned()
        ]
    );
    assert_eq!(
        docs(&spec),
        ["Detail after a whitespace-only line.".to_owned(), "Detail after a whitespace-only line.".to_owned()]
    );
}

#[doc = "Brief in one attribute.\n\nDetail in the same attribute."]
#[tool]
fn one_doc_attribute() {}

// "`#[doc = "…"]` form the doc text: …, lines joined with `\n`, paragraphs split at blank lines":
// one attribute holding a blank line gives a brief and a detail.
#[test]
fn one_doc_attribute_may_hold_several_paragraphs() {
    let spec = declared("one_doc_attribute");
    assert_eq!(spec.description(Locale::En), "Brief in one attribute.");
    assert_eq!(spec.detailed_description(Locale::En), "Detail in the same attribute.");
}

/// Padded description.
#[tool]
fn padded_description(#[param(description = "  Padded text.  ")] p: String) {
    let _ = p;
}

// ToolParameterInfo `description`: "verbatim in the schema, trimmed in docs"; English desc "trimmed,
// one trailing `.` removed"; zh-Hans desc "trimmed; … nothing appended".
#[test]
fn an_attribute_description_is_verbatim_in_the_schema_and_trimmed_in_the_docs() {
    let spec = declared("padded_description");
    assert_eq!(spec.parameters_schema()["properties"]["p"]["description"], "  Padded text.  ");
    assert_eq!(
        docs(&spec),
        [
            "Parameter details:\n- p: string, required. Padded text".to_owned(),
            "参数说明：\n- p：string，必填。Padded text.".to_owned()
        ]
    );
}

/// Spaced parameter docs.
#[tool]
fn spaced_parameter_docs(
    /// One
    ///    more.
    #[doc = " \t"]
    /// Two.
    ///
    ///
    /// Three.
    a: String,
) {
    let _ = a;
}

// Parameter docs: "lines trimmed and joined with a space, paragraphs joined with `\n\n`", with
// paragraphs split at blank lines (a line of spaces and a tab is blank; several blank lines are
// one break).
#[test]
fn parameter_doc_paragraphs_split_at_any_blank_line_and_join_with_one_blank_line() {
    let spec = declared("spaced_parameter_docs");
    assert_eq!(spec.parameters_schema()["properties"]["a"]["description"], "One more.\n\nTwo.\n\nThree.");
}

// ---- #[tool]: attribute keys --------------------------------------------------------------------

/// Scopes repeated.
#[tool(scopes = ["group", "private", "group"])]
fn repeated_scopes() {}

/// One scope.
#[tool(scopes = "channel")]
fn one_scope() {}

// `scopes`: "string or array of `"private"`, `"group"`, `"channel"`; … repeats dropped".
#[test]
fn scopes_may_be_one_string_and_repeats_are_dropped() {
    assert_eq!(declared("repeated_scopes").scopes(), [ChatScope::Group, ChatScope::Private]);
    assert_eq!(declared("one_scope").scopes(), [ChatScope::Channel]);
}

/// Explicit falses.
#[tool(core_tool = false, deny_unknown_args = false, permission = "group_owner", timeout_ms = 1)]
fn explicit_falses(
    /// Query.
    q: String,
) {
    let _ = q;
}

// `core_tool` "bool" (a core tool is visible, else deferred); `deny_unknown_args` "flag" (the schema
// gains `additionalProperties: false` only with it); `permission` names; `timeout_ms` "positive
// integer".
#[test]
fn explicit_false_flags_leave_the_defaults() {
    let spec = declared("explicit_falses");
    assert_eq!(spec.visibility(), Visibility::Deferred);
    assert!(!spec.deny_unknown_args());
    assert_eq!(
        text(spec.parameters_schema()),
        r#"{"type":"object","properties":{"q":{"type":"string","description":"Query."}},"required":["q"]}"#
    );
    assert_eq!(spec.permission(), PermissionLevel::GroupOwner);
    assert_eq!(spec.timeout(), Some(Duration::from_millis(1)));
}

/// Metadata of every literal kind.
#[tool(metadata(text = "中文", count = 0, ratio = 2.5, on = true, text_two = ""))]
fn metadata_kinds() {}

// "`metadata(k = lit, …)` | string/integer/float/bool literals, in written order"; "The builder adds
// no metadata of its own" (nor do the other keys).
#[test]
fn metadata_literals_keep_their_kinds_and_order() {
    assert_eq!(
        text(declared("metadata_kinds").metadata()),
        r#"{"text":"中文","count":0,"ratio":2.5,"on":true,"text_two":""}"#
    );
}

// ---- #[tool]: parameters ------------------------------------------------------------------------

/// Context by path.
#[tool]
fn context_paths(
    /// Stream.
    stream_id: Option<String>,
    call: &toolhook::ToolInvocation,
    /// Chat.
    chat_id: String,
    ctx: &toolhook::ToolExecutionContext,
    /// Platform.
    platform: Option<String>,
) -> String {
    format!("{}|{chat_id}|{:?}|{:?}|{}", call.tool_name, stream_id, platform, ctx.platform)
}

// "Context parameters: a `&ToolExecutionContext` or `&ToolInvocation` parameter (matched by last
// path segment …) is injected by the runtime and never appears in the schema"; "ordinary
// parameters named `stream_id`, `chat_id`, … or `platform` stay in the schema".
#[tokio::test]
async fn context_parameters_written_by_path_are_injected_and_context_names_stay() {
    let spec = declared("context_paths");
    assert_eq!(
        text(spec.parameters_schema()),
        r#"{"type":"object","properties":{"stream_id":{"type":"string","description":"Stream."},"chat_id":{"type":"string","description":"Chat."},"platform":{"type":"string","description":"Platform."}},"required":["chat_id"]}"#
    );
    let r = call("context_paths", r#"{"chat_id": "c9"}"#).await;
    assert!(r.success, "{}", r.error_message);
    assert_eq!(r.content, "context_paths|c9|None|None|");
}

/// Optional containers.
#[tool]
fn optional_containers(
    /// Weights
    weights: Option<BTreeMap<String, f32>>,
    /// Pair
    pair: Option<[u8; 2]>,
    /// Tags
    tags: Option<HashSet<String>>,
) {
    let _ = (weights, pair, tags);
}

// "`Option<T>` | as T | as T, not required, no `null`"; maps: "`properties: {}`, `required: []`,
// `additionalProperties` = schema of T"; sequences "`items` = schema of T"; per parameter "`type`;
// `description`; …; `items`; objects: `properties`, `required`, then `additionalProperties`"; the
// block's type is the schema type.
#[test]
fn options_of_maps_and_sequences_keep_the_container_schema() {
    let spec = declared("optional_containers");
    assert_eq!(
        text(spec.parameters_schema()),
        concat!(
            r#"{"type":"object","properties":{"#,
            r#""weights":{"type":"object","description":"Weights","properties":{},"required":[],"additionalProperties":{"type":"number"}},"#,
            r#""pair":{"type":"array","description":"Pair","items":{"type":"integer"}},"#,
            r#""tags":{"type":"array","description":"Tags","items":{"type":"string"}}"#,
            r#"},"required":[]}"#
        )
    );
    assert_eq!(docs(&spec), [
        "Parameter details:\n- weights: object, optional. Weights\n- pair: array, optional. Pair\n- tags: array, optional. Tags"
            .to_owned(),
        "参数说明：\n- weights：object，可选。Weights\n- pair：array，可选。Pair\n- tags：array，可选。Tags".to_owned()
    ]);
}

// ---- #[tool]: return types ----------------------------------------------------------------------

/// Reports with a pair.
#[tool]
fn pair_reply(
    /// Whether it worked.
    ok: bool,
) -> (bool, String) {
    if ok { (true, "  done  ".to_owned()) } else { (false, "  no luck \n".to_owned()) }
}

// "`(bool, S: Display)` | true → `content` = S trimmed; false → failure with `error_message` = S
// trimmed; no structured content"; decision "`(bool, msg)` from a Rust fn | history = the message".
#[tokio::test]
async fn a_bool_pair_gives_the_message_as_its_history_in_both_locales() {
    let r = call("pair_reply", r#"{"ok": false}"#).await;
    assert!(!r.success);
    assert_eq!(r.error_message, "no luck");
    assert_eq!(r.structured_content(), None);
    assert_eq!(r.history_content(Locale::En), "no luck");
    let r = call_in("pair_reply", r#"{"ok": false}"#, Locale::ZhHans).await;
    assert_eq!(r.history_content(Locale::ZhHans), "no luck");
    let r = call("pair_reply", r#"{"ok": true}"#).await;
    assert!(r.success);
    assert_eq!(r.content, "done");
    assert_eq!(r.structured_content(), None);
    assert_eq!(r.history_content(Locale::En), "done");
}

/// Maybe a pair.
#[tool]
fn maybe_pair(
    /// Which answer.
    which: u8,
) -> Option<(bool, String)> {
    match which {
        0 => None,
        1 => Some((false, " bad ".to_owned())),
        _ => Some((true, " good ".to_owned())),
    }
}

// "`Option<T>` | `None` as `()`, `Some` as T"; "`()` | success, empty".
#[tokio::test]
async fn an_option_looks_through_to_a_bool_pair() {
    let r = call("maybe_pair", r#"{"which": 0}"#).await;
    assert!(r.success);
    assert_eq!((r.content.as_str(), r.error_message.as_str()), ("", ""));
    assert_eq!(r.structured_content(), None);
    let r = call("maybe_pair", r#"{"which": 1}"#).await;
    assert!(!r.success);
    assert_eq!(r.error_message, "bad");
    let r = call("maybe_pair", r#"{"which": 2}"#).await;
    assert!(r.success);
    assert_eq!(r.content, "good");
}

/// Output or error.
#[tool]
async fn output_or_error(
    /// Whether to fail.
    fail: bool,
) -> Result<ToolOutput, String> {
    if fail {
        Err("  broke \n".to_owned())
    } else {
        Ok(ToolOutput::text("  fine  ").with_metadata("b", 2).with_metadata("a", 1))
    }
}

// "`Result<T, E: Display>` | `Ok` as T; `Err(e)` → failure, `error_message` = `e.to_string()`
// trimmed"; "`ToolOutput` | its fields; `content` trimmed; success unless built with `failure`".
#[tokio::test]
async fn a_result_looks_through_to_a_tool_output() {
    let r = call("output_or_error", r#"{"fail": false}"#).await;
    assert!(r.success);
    assert_eq!(r.content, "fine");
    assert_eq!(text(&r.metadata), r#"{"b":2,"a":1}"#);
    let r = call("output_or_error", r#"{"fail": true}"#).await;
    assert!(!r.success);
    assert_eq!(r.error_message, "broke");
}

/// Structured output with history.
#[tool]
fn structured_output() -> ToolOutput {
    ToolOutput::structured(json!({"n": 1, "a": [true]}))
        .with_post_history(json!({"role": "user", "content": "next"}))
        .stop_after_execution(true)
}

// "**ToolOutput**: `text(s)`, `structured(v)`, …, `.with_post_history(Value)`,
// `.stop_after_execution(bool)`"; "`ToolOutput` | its fields".
#[tokio::test]
async fn a_structured_tool_output_keeps_its_history_messages_and_stop_flag() {
    let r = call("structured_output", "").await;
    assert!(r.success);
    assert_eq!(r.content, "");
    assert_eq!(r.structured_content().map(text), Some(r#"{"n":1,"a":[true]}"#.to_owned()));
    assert_eq!(text(r.post_history_messages()), r#"[{"role":"user","content":"next"}]"#);
    assert!(r.stop_after_execution);
}

/// A mood.
#[allow(dead_code)]
#[derive(toolhook::serde::Serialize, toolhook::schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
enum Mood {
    Calm,
    Busy,
}

/// What was counted.
#[derive(toolhook::serde::Serialize, toolhook::schemars::JsonSchema)]
#[serde(crate = "toolhook::serde")]
#[schemars(crate = "toolhook::schemars")]
struct Counted {
    /// How many.
    n: u8,
}

/// Reports a mood.
#[tool]
fn mood_output() -> Json<Mood> {
    Json(Mood::Calm)
}

/// Maybe counts.
#[tool]
fn maybe_counted() -> Option<Json<Counted>> {
    Some(Json(Counted { n: 3 }))
}

// "`Json<T>` | success, `structured_content` = T; `output_schema` = schema of T (must be an object
// type, else a build error)"; "`Option<T>` | … `Some` as T", so an optional `Json<T>` declares T's
// schema, cleaned ("`format` on integers/numbers removed"; doc-comment descriptions and `minimum`
// kept).
#[tokio::test]
async fn json_outputs_must_be_objects_and_options_of_them_declare_the_schema() {
    assert!(declared_tool("mood_output").spec().is_err());
    let spec = declared("maybe_counted");
    assert_eq!(
        spec.output_schema(),
        Some(&json!({
            "type": "object",
            "properties": {"n": {"type": "integer", "description": "How many.", "minimum": 0, "maximum": 255}},
            "required": ["n"],
            "description": "What was counted."
        }))
    );
    let r = call("maybe_counted", "").await;
    assert!(r.success);
    assert_eq!(r.structured_content().map(text), Some(r#"{"n":3}"#.to_owned()));
}

// ---- #[action] ----------------------------------------------------------------------------------

/// Doc brief, replaced by the attribute.
///
/// Not used by actions.
#[action(
    name = "greet_user",
    description = "  Greet someone.  ",
    activation_type = "keyword",
    activation_keywords = ["hi", " hello ", "  "],
    chat_mode = "priority"
)]
fn greet_action(
    /// The target.
    #[param(rename = "who")]
    target: Option<String>,
) -> String {
    target.unwrap_or_default()
}

// `#[action]`: "The tool equals `ToolSpec::from_action` of the same values"; "key = its name, value =
// its `///` doc"; from_action: brief "`description` trimmed"; keywords line "list items trimmed and
// blank ones dropped"; English desc "one trailing `.` removed", zh-Hans nothing removed; metadata
// "raw values, enums as strings"; always deferred.
#[test]
fn a_named_action_with_keywords_equals_its_conversion() {
    let spec = declared("greet_user");
    let mut info = ActionInfo::new("greet_user");
    info.description = "  Greet someone.  ".to_owned();
    info.activation_type = ActivationType::Keyword;
    info.activation_keywords = vec!["hi".into(), " hello ".into(), "  ".into()];
    info.chat_mode = ChatMode::Priority;
    info.action_parameters.insert("who".into(), json!("The target."));
    let converted = ToolSpec::from_action(info).unwrap();
    assert_eq!(text(&spec), text(&converted));
    assert_eq!(briefs(&spec), ["Greet someone.".to_owned(), "Greet someone.".to_owned()]);
    assert_eq!(docs(&spec), [
        "Parameter details:\n- who: string, optional. The target\n\nLegacy action activation: keyword.\nActivation keywords: hi, hello."
            .to_owned(),
        "参数说明：\n- who：string，可选。The target.\n\n兼容旧 Action 激活方式：keyword。\n激活关键词：hi、hello。".to_owned()
    ]);
    assert_eq!(
        text(spec.parameters_schema()),
        r#"{"type":"object","properties":{"who":{"type":"string","description":"The target."}},"required":[]}"#
    );
    assert_eq!(
        text(spec.metadata()),
        r#"{"legacy_action":true,"legacy_component_type":"ACTION","activation_type":"keyword","activation_keywords":["hi"," hello ","  "],"activation_probability":1.0,"chat_mode":"priority","action_parameters":{"who":"The target."},"action_require":[],"associated_types":[],"parallel_action":false,"action_prompt":""}"#
    );
    assert_eq!(spec.visibility(), Visibility::Deferred);
}

#[action]
fn bare_action(x: Option<String>) -> String {
    x.unwrap_or_default()
}

// `#[action]` without doc or description: brief "`Tool {name}` / `工具 {name}`"; a parameter
// without a doc: "when the value is falsy … `兼容旧 Action 参数` / `Legacy action parameter`", so
// `parameters_schema_for(ZhHans)` differs from `parameters_schema()`.
#[test]
fn an_undocumented_action_gets_the_fallback_texts_per_locale() {
    let spec = declared("bare_action");
    assert_eq!(briefs(&spec), ["Tool bare_action".to_owned(), "工具 bare_action".to_owned()]);
    assert_eq!(spec.parameters_schema()["properties"]["x"]["description"], "Legacy action parameter");
    assert_eq!(spec.parameters_schema_for(Locale::ZhHans)["properties"]["x"]["description"], "兼容旧 Action 参数");
    assert_eq!(
        docs(&spec),
        [
            "Parameter details:\n- x: string, optional. Legacy action parameter\n\nLegacy action activation: always."
                .to_owned(),
            "参数说明：\n- x：string，可选。兼容旧 Action 参数\n\n兼容旧 Action 激活方式：always。".to_owned()
        ]
    );
    assert_eq!(spec.visibility(), Visibility::Deferred);
}

#[action(activation_probability = 1)]
fn raw_named_action(
    /// Kind of
    ///   thing.
    r#type: Option<String>,
) -> String {
    r#type.unwrap_or_default()
}

// `#[action]` parameters: "key = its name, value = its `///` doc" (a parameter's doc: "lines trimmed
// and joined with a space"; its name "the identifier without `r#`"); `activation_probability`
// "(float)", kept raw in the metadata as the `f64` field holds it.
#[test]
fn an_action_parameter_is_keyed_by_its_plain_name_with_its_joined_doc() {
    let spec = declared("raw_named_action");
    assert_eq!(
        text(spec.parameters_schema()),
        r#"{"type":"object","properties":{"type":{"type":"string","description":"Kind of thing."}},"required":[]}"#
    );
    assert_eq!(text(&spec.metadata()["action_parameters"]), r#"{"type":"Kind of thing."}"#);
    assert_eq!(text(&spec.metadata()["activation_probability"]), "1.0");
}
