//! A second pass over the tool model with values worked out from the written rules alone: the
//! serialised form of a spec, `ToolParamType` and `ToolParameterInfo` reading, what the runtime
//! builder refuses (each invalid input) and how it settles briefs, detailed texts and raw schemas,
//! the doc-comment text of `#[tool]`, legacy action conversion (parameters, visibility, metadata,
//! detailed parts) and the argument object a legacy action receives.
// Legacy actions are deprecated on purpose; these tests declare one.
#![allow(deprecated)]

use serde_json::{Map, Value, json};
use std::time::Duration;
use toolhook::__private::Invoker;
use toolhook::{
    ActionInfo, ChatScope, DeclaredTool, Locale, PermissionLevel, ToolAnnotation, ToolExecutionContext,
    ToolExecutionResult, ToolIcon, ToolInvocation, ToolParamType as T, ToolParameterInfo as P, ToolSpec, Visibility,
    action, tool,
};
use toolhook_runtime::{PluginToolProvider, ToolRegistry};

// ---- helpers ------------------------------------------------------------------------------------

fn text<S: serde::Serialize + ?Sized>(value: &S) -> String {
    serde_json::to_string(value).unwrap()
}

fn keys(value: &Value) -> Vec<&str> {
    value.as_object().unwrap().keys().map(String::as_str).collect()
}

fn briefs(spec: &ToolSpec) -> [String; 2] {
    [spec.description(Locale::En).to_owned(), spec.description(Locale::ZhHans).to_owned()]
}

fn docs(spec: &ToolSpec) -> [String; 2] {
    [spec.detailed_description(Locale::En).to_owned(), spec.detailed_description(Locale::ZhHans).to_owned()]
}

fn pair(en: &str, zh: &str) -> [String; 2] {
    [en.to_owned(), zh.to_owned()]
}

fn raw(schema: Value) -> Result<ToolSpec, toolhook::ToolSpecError> {
    ToolSpec::builder("raw_tool").parameters_raw(schema).build()
}

fn listed(parameters: Vec<P>) -> Result<ToolSpec, toolhook::ToolSpecError> {
    ToolSpec::builder("list_tool").parameters(parameters).build()
}

fn action_spec(input: Value) -> ToolSpec {
    let info: ActionInfo = serde_json::from_value(input).unwrap();
    ToolSpec::from_action(info).unwrap()
}

fn declared(name: &str) -> ToolSpec {
    DeclaredTool::all()
        .into_iter()
        .find(|t| t.name() == name)
        .unwrap_or_else(|| panic!("no tool {name}"))
        .spec()
        .unwrap()
}

fn full_context() -> ToolExecutionContext {
    ToolExecutionContext {
        session_id: "sess".into(),
        stream_id: "st".into(),
        reasoning: "why".into(),
        group_id: "g1".into(),
        user_id: "u1".into(),
        platform: "qq".into(),
        ..Default::default()
    }
}

async fn invoke(name: &str, arguments: &str) -> ToolExecutionResult {
    let registry = ToolRegistry::default();
    registry.register_provider(PluginToolProvider::from_declared());
    registry.invoke(ToolInvocation::new(name, arguments), Some(&full_context())).await
}

// ---- the serialised form ------------------------------------------------------------------------

fn everything_set() -> ToolSpec {
    ToolSpec::builder("full")
        .title("Full")
        .brief_description("Does everything.")
        .detailed_description("More.")
        .parameters(vec![P::new("q", T::String).description("Query")])
        .output_schema(json!({"type": "object", "properties": {}, "required": []}))
        .provider("prov", "plugin")
        .visibility(Visibility::Hidden)
        .platforms(["QQ"])
        .permission(PermissionLevel::BotAdmin)
        .scopes([ChatScope::Group])
        .icon(ToolIcon::new("https://example.com/i.png"))
        .annotation(ToolAnnotation { title: "T".into(), ..Default::default() })
        .metadata("k", 1)
        .timeout(Duration::from_secs(5))
        .deny_unknown_args(true)
        .build()
        .unwrap()
}

// "`Serialize` form: `name, title, description {en, zh-Hans}, detailed_description {en, zh-Hans},
// parameters_schema, output_schema, provider_name, provider_type, enabled, visibility, platforms,
// permission, scopes, icons, annotation, metadata`": a spec with every setter used (timeout and
// `deny_unknown_args` included) still writes exactly these keys, and the texts under `en`, `zh-Hans`.
#[test]
fn a_spec_with_every_setter_used_still_serialises_exactly_the_listed_keys() {
    let value = serde_json::to_value(everything_set()).unwrap();
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
    assert_eq!(keys(&value["description"]), ["en", "zh-Hans"]);
    assert_eq!(keys(&value["detailed_description"]), ["en", "zh-Hans"]);
}

// The serialised values are the accessors': "`enabled()` (false when hidden …)", visibility
// "serde lowercase", `PermissionLevel` "serde snake_case", platforms "trimmed, lowercased".
#[test]
fn the_serialised_values_are_the_accessors_values() {
    let spec = everything_set();
    assert!(!spec.enabled());
    let value = serde_json::to_value(&spec).unwrap();
    assert_eq!(value["name"], "full");
    assert_eq!(value["title"], "Full");
    assert_eq!(text(&value["description"]), r#"{"en":"Does everything.","zh-Hans":"Does everything."}"#);
    assert_eq!(
        text(&value["detailed_description"]),
        r#"{"en":"Parameter details:\n- q: string, required. Query\n\nMore.","zh-Hans":"参数说明：\n- q：string，必填。Query\n\nMore."}"#
    );
    assert_eq!(text(&value["output_schema"]), r#"{"type":"object","properties":{},"required":[]}"#);
    assert_eq!((value["provider_name"].clone(), value["provider_type"].clone()), (json!("prov"), json!("plugin")));
    assert_eq!(value["enabled"], false);
    assert_eq!(value["visibility"], "hidden");
    assert_eq!(value["platforms"], json!(["qq"]));
    assert_eq!(value["permission"], "bot_admin");
    assert_eq!(value["icons"][0]["src"], "https://example.com/i.png");
    assert_eq!(text(&value["metadata"]), r#"{"k":1}"#);
}

// ---- ToolParamType and ToolParameterInfo --------------------------------------------------------

// ToolParamType "serde lowercase …. Other strings fail to deserialise."
#[test]
fn param_types_in_other_spellings_fail_to_deserialise() {
    for bad in ["String", "INTEGER", "Float", " string", "number ", "int", "str", "double", "bool", "list", ""] {
        assert!(serde_json::from_value::<T>(json!(bad)).is_err(), "{bad:?} was read");
    }
}

// ToolParameterInfo "(serde; unknown keys ignored; names are a contract …)".
#[test]
fn a_parameter_ignores_keys_it_does_not_know() {
    let info: P = serde_json::from_value(json!({
        "name": "n",
        "param_type": "integer",
        "minimum": 1,
        "x-vendor": {"a": [1]},
        "description": "Count",
        "title": "N"
    }))
    .unwrap();
    assert_eq!(info, P::new("n", T::Integer).description("Count"));
}

// "names are a contract": the type is read from `param_type` only; a `type` key is an unknown key
// and is ignored, leaving the default `string`.
#[test]
fn a_type_key_is_not_read_as_the_parameter_type() {
    let info: P = serde_json::from_value(json!({"name": "n", "type": "integer"})).unwrap();
    assert_eq!(info.param_type, T::String);
}

// "`enum_values` … `[]` = none"; "`default` … JSON `null` = none", read from JSON: the schema has
// "`enum` (non-empty only); `default` (set only)".
#[test]
fn an_empty_enum_and_a_null_default_read_from_json_leave_no_trace() {
    let info: P = serde_json::from_value(json!({
        "name": "u", "param_type": "integer", "required": false, "enum_values": [], "default": null
    }))
    .unwrap();
    let spec = listed(vec![info]).unwrap();
    assert_eq!(
        text(spec.parameters_schema()),
        r#"{"type":"object","properties":{"u":{"type":"integer","description":""}},"required":[]}"#
    );
    assert_eq!(
        docs(&spec),
        pair(
            "Parameter details:\n- u: integer, optional. No description",
            "参数说明：\n- u：integer，可选。无额外说明"
        )
    );
}

// ---- ToolInvocation -----------------------------------------------------------------------------

/// Reports the call it was given.
#[tool]
fn sp_call_echo(call: &ToolInvocation, n: Option<i64>) -> String {
    let _ = n;
    format!(
        "<{}>|{}|{}|{}|{}",
        call.arguments.as_text(),
        call.call_id(),
        call.session_id(),
        call.stream_id(),
        call.reasoning()
    )
}

// "**ToolInvocation** `{tool_name, arguments, call_id, session_id, stream_id, reasoning, metadata}`;
// `arguments` keeps the model's JSON text as received": the injected `&ToolInvocation` carries the
// text as sent (spacing, string-typed number) and the ids.
#[tokio::test]
async fn an_injected_invocation_carries_the_text_as_sent_and_its_ids() {
    let sent = " {\"n\":  \"7\" }\n";
    let call = ToolInvocation::new("sp_call_echo", sent)
        .with_call_id("c9")
        .with_session_id("s1")
        .with_stream_id("st1")
        .with_reasoning("r1");
    let tool = DeclaredTool::all().into_iter().find(|t| t.name() == "sp_call_echo").unwrap();
    let ctx: Option<&ToolExecutionContext> = None;
    let outcome = match tool.registration().invoker {
        Invoker::Async(f) => f(None, call, ctx, Locale::En, None).await,
        Invoker::Sync(f) => f(None, call, ctx.cloned(), Locale::En, None),
    };
    let result = outcome.unwrap_or_else(|e| panic!("{}", e.message(Locale::En)));
    assert_eq!(result.content, format!("<{sent}>|c9|s1|st1|r1"));
}

// ---- the builder: briefs and detailed texts -----------------------------------------------------

// "**brief**: first non-blank of `brief_description`, `description`, doc first paragraph; trimmed;
// else `Tool {name}` / `工具 {name}`. A blank `brief_description` is absent"; blank = "empty after
// trim" with Rust's trim (a full-width space is blank).
#[test]
fn the_brief_is_the_first_non_blank_source_trimmed_else_the_name() {
    let spec = ToolSpec::builder("b").brief_description("\u{3000}\n").description("  Legacy brief  ").build().unwrap();
    assert_eq!(briefs(&spec), pair("Legacy brief", "Legacy brief"));
    let spec = ToolSpec::builder("b").description("Legacy").brief_description("\tBrief \n").build().unwrap();
    assert_eq!(briefs(&spec), pair("Brief", "Brief"));
    let spec = ToolSpec::builder("b").brief_description(" ").description("\u{3000}").build().unwrap();
    assert_eq!(briefs(&spec), pair("Tool b", "工具 b"));
}

// "**detailed**: … if the schema has at least one object-valued property: the locale's block, then
// one blank line and the author text when non-empty; else the author text (possibly `""`).
// Trimmed."
#[test]
fn the_detailed_text_is_the_block_then_the_author_text_when_there_is_one() {
    let q = || vec![P::new("q", T::String).description("Query")];
    let spec = ToolSpec::builder("d").parameters(q()).detailed_description(" \n\u{3000}").build().unwrap();
    assert_eq!(
        docs(&spec),
        pair("Parameter details:\n- q: string, required. Query", "参数说明：\n- q：string，必填。Query")
    );
    let spec = ToolSpec::builder("d").parameters(q()).detailed_description("\n  Note.  \n").build().unwrap();
    assert_eq!(
        docs(&spec),
        pair(
            "Parameter details:\n- q: string, required. Query\n\nNote.",
            "参数说明：\n- q：string，必填。Query\n\nNote."
        )
    );
    let spec = ToolSpec::builder("d").detailed_description("  Note.\n").build().unwrap();
    assert_eq!(docs(&spec), pair("Note.", "Note."));
}

// ---- the builder: errors ------------------------------------------------------------------------

// `build()` fails on "non-empty `parameters` and `parameters_raw` together" (in either call order);
// an empty list beside a raw schema is no conflict.
#[test]
fn a_non_empty_list_and_a_raw_schema_together_fail_but_an_empty_list_does_not() {
    let q = || vec![P::new("q", T::String)];
    let dict = || json!({"a": {"type": "string", "required": true}});
    assert!(ToolSpec::builder("both").parameters(q()).parameters_raw(dict()).build().is_err());
    assert!(ToolSpec::builder("both").parameters_raw(dict()).parameters(q()).build().is_err());
    let spec = ToolSpec::builder("both").parameters(vec![]).parameters_raw(dict()).build().unwrap();
    assert_eq!(
        text(spec.parameters_schema()),
        r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}"#
    );
}

// `build()` fails on "a parameter name that is blank" (blank = "empty after trim").
#[test]
fn blank_parameter_names_in_a_list_fail() {
    for name in ["", "   ", "\u{3000}", "\n\t"] {
        assert!(listed(vec![P::new(name, T::String)]).is_err(), "{name:?} was accepted");
    }
}

// `build()` fails on "a raw top-level property `"type":"array"` without `items`", in the full
// schema form too (with or without its own `type`), naming the parameter.
#[test]
fn a_full_raw_schema_with_an_array_property_without_items_fails() {
    for schema in [
        json!({"type": "object", "properties": {"zq_tags": {"type": "array"}}}),
        json!({"properties": {"zq_tags": {"type": "array", "description": "Tags"}}, "required": []}),
    ] {
        let error = raw(schema.clone()).expect_err(&schema.to_string());
        assert!(error.to_string().contains("zq_tags"), "{error}");
    }
}

// Only top-level arrays need items: "Nested schemas are copied, not validated."
#[test]
fn nested_arrays_without_items_are_copied_unchecked() {
    let nested = json!({"type": "object", "properties": {"o": {"type": "object", "properties": {"a": {"type": "array"}}}}, "required": []});
    let spec = raw(nested.clone()).unwrap();
    assert_eq!(text(spec.parameters_schema()), text(&nested));
    let mut inner = Map::new();
    inner.insert("a".into(), json!({"type": "array"}));
    let spec = listed(vec![
        P::new("o", T::Object).properties(inner),
        P::new("m", T::Array).items_schema(json!({"type": "array"})),
    ])
    .unwrap();
    assert_eq!(
        text(spec.parameters_schema()),
        r#"{"type":"object","properties":{"o":{"type":"object","description":"","properties":{"a":{"type":"array"}},"required":[]},"m":{"type":"array","description":"","items":{"type":"array"}}},"required":["o","m"]}"#
    );
}

// `build()` fails on "a `parameters_raw` that is not an object".
#[test]
fn a_raw_schema_that_is_not_an_object_fails() {
    for schema in [json!([]), json!([{"q": {"type": "string"}}]), json!("object"), json!(1), json!(true), Value::Null] {
        assert!(raw(schema.clone()).is_err(), "{schema} was accepted");
    }
}

// `build()` fails on a `parameters_raw` "whose `type` is neither `"object"` nor an object value (a
// property named `type`)".
#[test]
fn a_raw_schema_typed_other_than_object_fails() {
    for schema in [
        json!({"type": "array", "items": {"type": "string"}}),
        json!({"type": "Object", "properties": {}}),
        json!({"type": "OBJECT"}),
        json!({"type": " object", "properties": {}}),
        json!({"type": 3}),
        json!({"type": null, "properties": {}}),
        json!({"type": ["object", "null"]}),
        json!({"type": "string", "description": "x"}),
    ] {
        assert!(raw(schema.clone()).is_err(), "{schema} was accepted");
    }
    assert!(raw(json!({"type": "object"})).is_ok());
    assert_eq!(
        text(raw(json!({"type": {"type": "integer"}})).unwrap().parameters_schema()),
        r#"{"type":"object","properties":{"type":{"type":"integer"}},"required":[]}"#
    );
}

// `build()` fails on "a non-object `items_schema`", naming the parameter.
#[test]
fn an_items_schema_of_any_other_json_kind_fails() {
    for items in [json!(true), json!(1), json!([{"type": "string"}])] {
        let error =
            listed(vec![P::new("zq_items", T::Array).items_schema(items.clone())]).expect_err(&items.to_string());
        assert!(error.to_string().contains("zq_items"), "{error}");
    }
}

// "`additional_properties` | `Option<Value>` | … objects only; `true`, `false` or a schema"; `build()`
// fails on "an `additional_properties` that is not a bool or object"; a valid one comes "then
// `additionalProperties` if set", after `required`.
#[test]
fn additional_properties_take_bools_and_objects_only() {
    for bad in [json!("true"), json!(1), json!([]), json!([{"type": "string"}])] {
        let error =
            listed(vec![P::new("zq_add", T::Object).additional_properties(bad.clone())]).expect_err(&bad.to_string());
        assert!(error.to_string().contains("zq_add"), "{error}");
    }
    for (good, written) in
        [(json!(true), "true"), (json!(false), "false"), (json!({"type": "integer"}), r#"{"type":"integer"}"#)]
    {
        let spec = listed(vec![P::new("m", T::Object).additional_properties(good)]).unwrap();
        assert_eq!(
            text(spec.parameters_schema()),
            format!(
                r#"{{"type":"object","properties":{{"m":{{"type":"object","description":"","properties":{{}},"required":[],"additionalProperties":{written}}}}},"required":["m"]}}"#
            )
        );
    }
}

// "The builder adds no metadata of its own."
#[test]
fn the_builder_adds_no_metadata_of_its_own() {
    let spec = ToolSpec::builder("quiet")
        .core_tool(true)
        .platforms(["qq"])
        .permission(PermissionLevel::Owner)
        .scopes([ChatScope::Private])
        .title("Quiet")
        .provider("p", "plugin")
        .timeout(Duration::from_millis(10))
        .deny_unknown_args(true)
        .parameters(vec![P::new("q", T::String)])
        .build()
        .unwrap();
    assert_eq!(text(spec.metadata()), "{}");
    let spec = ToolSpec::builder("hidden").visibility(Visibility::Hidden).enabled(false).build().unwrap();
    assert_eq!(text(spec.metadata()), "{}");
}

// The name errors are "a blank name or one with surrounding whitespace" only: a long name or one
// with whitespace inside builds and keeps its spelling.
#[test]
fn long_names_and_names_with_inner_whitespace_build() {
    let long = "a".repeat(300);
    for name in [long.as_str(), "a\tb", "a\nb", "工具 名"] {
        let spec = ToolSpec::builder(name).build().unwrap_or_else(|e| panic!("{name:?}: {e}"));
        assert_eq!(spec.name(), name);
    }
}

// "with `deny_unknown_args` … the schema gains a top-level `"additionalProperties": false` after
// `required`", for a builder list too.
#[test]
fn deny_unknown_args_closes_a_listed_schema_after_required() {
    let spec =
        ToolSpec::builder("closed").parameters(vec![P::new("q", T::String)]).deny_unknown_args(true).build().unwrap();
    assert_eq!(
        text(spec.parameters_schema()),
        r#"{"type":"object","properties":{"q":{"type":"string","description":""}},"required":["q"],"additionalProperties":false}"#
    );
}

// Full schema: "copied in key order; a missing `type` is inserted first as `"object"`; `properties`
// missing or not an object → `{}`, `required` missing or not a list → `[]` (replaced in place, else
// appended)"; "`{}` → no parameters".
#[test]
fn a_full_raw_schema_is_repaired_in_place_or_appended() {
    let spec = raw(json!({"required": "q", "properties": [1], "title": "T"})).unwrap();
    assert_eq!(text(spec.parameters_schema()), r#"{"type":"object","required":[],"properties":{},"title":"T"}"#);
    assert_eq!(docs(&spec), pair("", ""));
    let spec = raw(json!({"type": "object", "title": "T"})).unwrap();
    assert_eq!(text(spec.parameters_schema()), r#"{"type":"object","title":"T","properties":{},"required":[]}"#);
    let spec = raw(json!({})).unwrap();
    assert_eq!(text(spec.parameters_schema()), r#"{"type":"object","properties":{},"required":[]}"#);
}

// ---- #[tool]: doc comments ----------------------------------------------------------------------

/// Lists   files.
///
/// Steps:
///    1. read
///    2. sort
///
///
///
/// Done.
#[tool]
fn sp_indented_steps() {}

// "`///` … one leading space removed per line, lines joined with `\n`, paragraphs split at blank
// lines"; "**Remaining paragraphs** = detailed candidate (trailing whitespace removed, one blank line
// between paragraphs, trimmed)": indentation inside a paragraph stays.
#[test]
fn the_detailed_doc_text_keeps_indentation_inside_a_paragraph() {
    let spec = declared("sp_indented_steps");
    assert_eq!(briefs(&spec), pair("Lists   files.", "Lists   files."));
    let expected = "Steps:\n   1. read\n   2. sort\n\nDone.";
    assert_eq!(docs(&spec), pair(expected, expected));
}

// ---- legacy actions as data ---------------------------------------------------------------------

// "per `action_parameters` entry: name = key trimmed (blank skipped; a repeat overwrites the value,
// first slot kept)"; all optional; metadata keeps `action_parameters` as "raw values".
#[test]
fn action_parameter_keys_are_trimmed_blank_ones_skipped_and_repeats_overwrite_in_place() {
    let spec = action_spec(json!({
        "name": "keys",
        "action_parameters": {"b": "first", " a ": "A", "  ": "blank", "b ": "second"}
    }));
    assert_eq!(
        text(spec.parameters_schema()),
        r#"{"type":"object","properties":{"b":{"type":"string","description":"second"},"a":{"type":"string","description":"A"}},"required":[]}"#
    );
    assert_eq!(text(&spec.metadata()["action_parameters"]), r#"{"b":"first"," a ":"A","  ":"blank","b ":"second"}"#);
}

// "d = the value rendered (zh-Hans PyStr; English the string or compact JSON) and trimmed, or when
// the value is falsy or d blank `兼容旧 Action 参数` / `Legacy action parameter`"; the default
// schema is the English one.
#[test]
fn action_parameter_descriptions_render_per_locale_and_falsy_ones_fall_back() {
    let spec = action_spec(json!({
        "name": "render",
        "action_parameters": {
            "count": 5, "flag": true, "tags": ["x", 1], "eps": 0.00001, "opts": {"k": null},
            "note": "  The target.  ", "zero": 0, "off": false, "empty": "", "list": [], "obj": {},
            "nil": null, "blank": "   ", "fzero": 0.0
        }
    }));
    let descriptions = |schema: &Value| -> Vec<(String, String)> {
        schema["properties"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v["description"].as_str().unwrap().to_owned()))
            .collect()
    };
    let en: Vec<(String, String)> = [
        ("count", "5"),
        ("flag", "true"),
        ("tags", r#"["x",1]"#),
        ("eps", "0.00001"),
        ("opts", r#"{"k":null}"#),
        ("note", "The target."),
    ]
    .into_iter()
    .chain(["zero", "off", "empty", "list", "obj", "nil", "blank", "fzero"].map(|k| (k, "Legacy action parameter")))
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect();
    let zh: Vec<(String, String)> = [
        ("count", "5"),
        ("flag", "True"),
        ("tags", "['x', 1]"),
        ("eps", "1e-05"),
        ("opts", "{'k': None}"),
        ("note", "The target."),
    ]
    .into_iter()
    .chain(["zero", "off", "empty", "list", "obj", "nil", "blank", "fzero"].map(|k| (k, "兼容旧 Action 参数")))
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect();
    assert_eq!(descriptions(spec.parameters_schema()), en);
    assert_eq!(descriptions(spec.parameters_schema_for(Locale::En)), en);
    assert_eq!(descriptions(spec.parameters_schema_for(Locale::ZhHans)), zh);
}

// The detailed text of an action starts with the block of its parameters ("if any parameter"),
// each locale from its own descriptions; the English line removes "one trailing `.`".
#[test]
fn an_action_block_shows_each_locales_rendered_descriptions() {
    let spec = action_spec(json!({
        "name": "block",
        "action_parameters": {"note": " The target. ", "on": true, "n": 2}
    }));
    assert_eq!(
        docs(&spec),
        pair(
            "Parameter details:\n- note: string, optional. The target\n- on: string, optional. true\n- n: string, optional. 2\n\nLegacy action activation: always.",
            "参数说明：\n- note：string，可选。The target.\n- on：string，可选。True\n- n：string，可选。2\n\n兼容旧 Action 激活方式：always。"
        )
    );
}

// "**visibility**: `extra.visibility` (string, trimmed, lowercased) when valid; else
// `extra.core_tool` truthy → visible; else deferred" (falsy: `null`, `false`, `0`, `0.0`, `""`,
// `[]`, `{}`; everything else truthy, `"false"` included).
#[test]
fn action_visibility_comes_from_a_valid_visibility_else_a_truthy_core_tool() {
    let vis = |extra: Value| {
        let mut input = json!({"name": "v"});
        input.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        let spec = action_spec(input);
        (spec.visibility(), spec.enabled())
    };
    use Visibility::*;
    assert_eq!(vis(json!({"visibility": " VISIBLE "})), (Visible, true));
    assert_eq!(vis(json!({"visibility": "\u{3000}Hidden\n"})), (Hidden, false));
    assert_eq!(vis(json!({"visibility": "deferred", "core_tool": true})), (Deferred, true));
    assert_eq!(vis(json!({"visibility": "public", "core_tool": true})), (Visible, true));
    assert_eq!(vis(json!({"visibility": 1, "core_tool": "false"})), (Visible, true));
    assert_eq!(vis(json!({"core_tool": "0"})), (Visible, true));
    assert_eq!(vis(json!({"core_tool": [0]})), (Visible, true));
    for falsy in [json!(null), json!(false), json!(0), json!(0.0), json!(""), json!([]), json!({})] {
        assert_eq!(vis(json!({"core_tool": falsy})), (Deferred, true), "core_tool {falsy}");
    }
    assert_eq!(vis(json!({"visibility": ""})), (Deferred, true));
}

// "**metadata**: `extra` keys in order, then `legacy_action: true`, `legacy_component_type:
// "ACTION"`, `activation_type`, …, `action_prompt` (raw values, enums as strings); a colliding extra
// key keeps its slot and takes the legacy value."
#[test]
fn colliding_extra_keys_keep_their_slot_and_take_the_legacy_values() {
    let spec = action_spec(json!({
        "name": "m",
        "legacy_action": false,
        "zeta": [1],
        "activation_type": "random",
        "legacy_component_type": "TOOL",
        "visibility": "visible",
        "activation_probability": 0.25,
        "chat_mode": "priority"
    }));
    assert_eq!(
        text(spec.metadata()),
        r#"{"legacy_action":true,"zeta":[1],"legacy_component_type":"ACTION","visibility":"visible","activation_type":"random","activation_keywords":[],"activation_probability":0.25,"chat_mode":"priority","action_parameters":{},"action_require":[],"associated_types":[],"parallel_action":false,"action_prompt":""}"#
    );
}

// Detailed parts "joined by `\n\n`, list items trimmed and blank ones dropped": usage notes, message
// types `{a、b}` / `{a, b}`, and the activation lines; the English prompt has "one trailing `.` of
// the prompt removed first", the zh-Hans one does not.
#[test]
fn action_detail_lists_are_trimmed_without_blanks_and_the_prompt_ends_per_locale() {
    let spec = action_spec(json!({
        "name": "greet",
        "activation_type": "keyword",
        "activation_keywords": [" hi ", "", "hello"],
        "action_require": [" use sparingly ", "  ", "ask first"],
        "associated_types": ["text", " ", "image"],
        "action_prompt": "Greet the user.."
    }));
    assert_eq!(
        docs(&spec),
        pair(
            "Usage notes:\n- use sparingly\n- ask first\n\nApplicable message types: text, image.\n\nLegacy action activation: keyword.\nActivation keywords: hi, hello.\nOriginal action prompt: Greet the user..",
            "使用建议：\n- use sparingly\n- ask first\n\n适用消息类型：text、image。\n\n兼容旧 Action 激活方式：keyword。\n激活关键词：hi、hello。\n原始 Action 提示语：Greet the user..。"
        )
    );
}

// Lists whose items are all blank leave their parts out ("blank ones dropped"; "if requirements",
// "if message types"; the keyword line in brackets).
#[test]
fn action_lists_of_blank_items_leave_their_parts_out() {
    let spec = action_spec(json!({
        "name": "quiet",
        "activation_type": "keyword",
        "activation_keywords": ["  "],
        "action_require": ["", " "],
        "associated_types": ["\t"]
    }));
    assert_eq!(docs(&spec), pair("Legacy action activation: keyword.", "兼容旧 Action 激活方式：keyword。"));
}

// "`ToolSpec::from_action(ActionInfo)` … its only error is a blank name"; "**brief**: `description`
// trimmed, else `Tool {name}` / `工具 {name}`".
#[test]
fn from_action_fails_only_on_a_blank_name_and_trims_the_brief() {
    for name in ["", "  ", "\u{3000}", "\n"] {
        assert!(ToolSpec::from_action(ActionInfo::new(name)).is_err(), "{name:?} was accepted");
    }
    assert!(ToolSpec::from_action(ActionInfo::new(" wave ")).is_ok());
    let spec = action_spec(json!({"name": "wave", "description": "  Waves hello \n"}));
    assert_eq!(briefs(&spec), pair("Waves hello", "Waves hello"));
    let spec = action_spec(json!({"name": "wave", "description": "\u{3000} "}));
    assert_eq!(briefs(&spec), pair("Tool wave", "工具 wave"));
}

// ---- what a legacy action receives --------------------------------------------------------------

/// Echoes its legacy argument object.
#[action]
fn sp_legacy_echo(call: &ToolInvocation) -> Value {
    call.arguments.to_value().unwrap_or(Value::Null)
}

// "Empty or whitespace text or `null` = `{}`"; legacy actions get "the model's arguments, plus each
// of the five keys above that is missing or empty (from a non-empty context value), then `stream_id`
// and `chat_id` set to `sid`, `reasoning` to the context's reasoning and `action_data` to a copy of
// the model's original arguments".
#[tokio::test]
async fn an_action_called_without_arguments_gets_the_whole_legacy_object() {
    for sent in ["", "   \n", "null"] {
        let result = invoke("sp_legacy_echo", sent).await;
        assert!(result.success, "{sent:?}: {}", result.error_message);
        assert_eq!(
            text(result.structured_content().unwrap()),
            r#"{"stream_id":"st","chat_id":"st","group_id":"g1","user_id":"u1","platform":"qq","reasoning":"why","action_data":{}}"#,
            "{sent:?}"
        );
    }
}

// "Invalid JSON, or JSON that is not an object, is an error" for actions too: `arguments must be a
// JSON object`, `arguments are not valid JSON: {serde message}`, as `InvalidArguments` failures.
#[tokio::test]
async fn an_action_called_with_arguments_that_are_not_an_object_fails() {
    for sent in ["[1]", "\"x\"", "5"] {
        let result = invoke("sp_legacy_echo", sent).await;
        assert!(!result.success, "{sent}");
        assert_eq!(
            result.error_message, "Tool sp_legacy_echo failed: InvalidArguments: arguments must be a JSON object",
            "{sent}"
        );
    }
    let result = invoke("sp_legacy_echo", "{\"x\":").await;
    assert!(!result.success);
    assert!(
        result
            .error_message
            .starts_with("Tool sp_legacy_echo failed: InvalidArguments: arguments are not valid JSON: "),
        "{}",
        result.error_message
    );
}
