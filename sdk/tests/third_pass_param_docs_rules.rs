//! A third, independent pass over the generated parameter docs (`ToolSpec::detailed_description`)
//! and the brief (`ToolSpec::description`) in English and Simplified Chinese, for specs built with
//! `ToolSpec::builder` (parameter list and legacy dict form) and with `#[tool]`: header and line
//! layout, parameter order, type names, required/optional markers, enum and default parts for every
//! JSON kind, punctuation and full stops, empty descriptions, and how the block meets the author's
//! text. Every text is compared byte for byte.

use serde_json::{Value, json};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::num::NonZeroU32;
use toolhook::{
    Locale, ToolExecutionContext, ToolParamType as T, ToolParameterInfo as P, ToolSpec, schemars, serde, tool,
};

// ---- helpers ------------------------------------------------------------------------------------

#[path = "common/specs.rs"]
#[allow(dead_code)]
mod specs;
use specs::{declared, docs, listed, map, raw, text};

fn raw_with_detail(name: &str, schema: Value, detail: &str) -> ToolSpec {
    ToolSpec::builder(name)
        .brief_description("Brief.")
        .detailed_description(detail)
        .parameters_raw(schema)
        .build()
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

// ---- builder, parameter list --------------------------------------------------------------------

#[test]
fn a_required_parameter_with_a_default_is_marked_required_and_shows_the_default() {
    let spec = listed("tp_required_default", vec![P::new("limit", T::Integer).description("Max results.").default(5)]);
    assert_eq!(spec.parameters_schema()["required"], json!(["limit"]));
    let [en, zh] = docs(&spec);
    assert_eq!(en, "Parameter details:\n- limit: integer, required. Max results. Default: 5");
    assert_eq!(zh, "参数说明：\n- limit：integer，必填。Max results. 默认值：5。");
}

#[test]
fn a_null_default_and_an_empty_enum_in_the_list_form_leave_no_parts() {
    let spec = listed(
        "tp_no_parts",
        vec![
            P::new("a", T::String)
                .description("A")
                .default(Value::Null)
                .enum_values(Vec::<Value>::new())
                .required(false),
        ],
    );
    assert_eq!(
        text(spec.parameters_schema()),
        r#"{"type":"object","properties":{"a":{"type":"string","description":"A"}},"required":[]}"#
    );
    let [en, zh] = docs(&spec);
    assert_eq!(en, "Parameter details:\n- a: string, optional. A");
    assert_eq!(zh, "参数说明：\n- a：string，可选。A");
}

#[test]
fn allowed_values_of_every_json_kind_render_per_locale() {
    let spec = listed(
        "tp_mixed_enum",
        vec![P::new("pick", T::String).description("Pick one").enum_values(vec![
            json!(" a "),
            json!("b, c"),
            json!("d、e"),
            json!(1),
            json!(-2.5),
            json!(true),
            json!(null),
            json!([1, "x"]),
            json!({"k": "v"}),
            json!([]),
            json!({}),
        ])],
    );
    let [en, zh] = docs(&spec);
    assert_eq!(
        zh,
        "参数说明：\n- pick：string，必填。Pick one 可选值： a 、b, c、d、e、1、-2.5、True、None、[1, 'x']、{'k': 'v'}、[]、{}。"
    );
    assert_eq!(
        en,
        "Parameter details:\n- pick: string, required. Pick one. Allowed values:  a , b, c, d、e, 1, -2.5, true, null, [1,\"x\"], {\"k\":\"v\"}, [], {}"
    );
}

#[test]
fn an_object_default_keeps_its_key_order_and_nested_kinds_in_both_locales() {
    let spec = listed(
        "tp_object_default",
        vec![
            P::new("opts", T::Object)
                .description("Options")
                .default(json!({"z": 1, "a": {"y": [0.5, 1e-05]}, "m": null, "s": "it's"}))
                .required(false),
        ],
    );
    let [en, zh] = docs(&spec);
    assert_eq!(
        zh,
        "参数说明：\n- opts：object，可选。Options 默认值：{'z': 1, 'a': {'y': [0.5, 1e-05]}, 'm': None, 's': \"it's\"}。"
    );
    assert_eq!(
        en,
        "Parameter details:\n- opts: object, optional. Options. Default: {\"z\":1,\"a\":{\"y\":[0.5,0.00001]},\"m\":null,\"s\":\"it's\"}"
    );
}

#[test]
fn descriptions_ending_in_other_punctuation_keep_it_before_the_part_separator() {
    let spec = listed(
        "tp_punctuation",
        vec![
            P::new("sure", T::String).description("Really?").default("yes").required(false),
            P::new("wait", T::String).description("Wait...").enum_values(["a", "b"]),
            P::new("bang", T::String).description("Stop!"),
        ],
    );
    let [en, zh] = docs(&spec);
    assert_eq!(
        en,
        "Parameter details:\n- sure: string, optional. Really?. Default: yes\n- wait: string, required. Wait... Allowed values: a, b\n- bang: string, required. Stop!"
    );
    assert_eq!(
        zh,
        "参数说明：\n- sure：string，可选。Really? 默认值：yes。\n- wait：string，必填。Wait... 可选值：a、b。\n- bang：string，必填。Stop!"
    );
}

#[test]
fn descriptions_made_of_full_stops_lose_exactly_one_in_english() {
    let spec =
        listed("tp_stops", vec![P::new("a", T::String).description("..."), P::new("b", T::String).description(". .")]);
    let [en, zh] = docs(&spec);
    assert_eq!(en, "Parameter details:\n- a: string, required. ..\n- b: string, required. .");
    assert_eq!(zh, "参数说明：\n- a：string，必填。...\n- b：string，必填。. .");
}

#[test]
fn a_string_default_ending_in_a_full_stop_keeps_it() {
    let spec = listed(
        "tp_default_stop",
        vec![
            P::new("ver", T::String).description("Version.").default("v1.").required(false),
            P::new("q", T::String).description("Query."),
        ],
    );
    let [en, zh] = docs(&spec);
    assert_eq!(en, "Parameter details:\n- ver: string, optional. Version. Default: v1.\n- q: string, required. Query");
    assert_eq!(zh, "参数说明：\n- ver：string，可选。Version. 默认值：v1.。\n- q：string，必填。Query.");
}

#[test]
fn the_whole_detailed_text_is_trimmed_so_a_last_english_default_loses_trailing_spaces() {
    let spec = listed("tp_last_pad", vec![P::new("pad", T::String).description("Pad").default("x  ").required(false)]);
    let [en, zh] = docs(&spec);
    assert_eq!(en, "Parameter details:\n- pad: string, optional. Pad. Default: x");
    assert_eq!(zh, "参数说明：\n- pad：string，可选。Pad 默认值：x  。");
}

#[test]
fn author_text_that_only_resembles_a_header_follows_the_block() {
    for detail in ["参数说明:x", "parameter details: x", "Parameter details：x", "Parameter details x"] {
        let spec = ToolSpec::builder("tp_lookalike")
            .brief_description("Brief.")
            .detailed_description(detail)
            .parameters(vec![P::new("q", T::String).description("Query")])
            .build()
            .unwrap();
        let [en, zh] = docs(&spec);
        assert_eq!(en, format!("Parameter details:\n- q: string, required. Query\n\n{detail}"), "{detail}");
        assert_eq!(zh, format!("参数说明：\n- q：string，必填。Query\n\n{detail}"), "{detail}");
    }
}

#[test]
fn parameters_with_cjk_names_and_an_empty_description() {
    let spec = listed(
        "tp_cjk_names",
        vec![
            P::new("城市", T::String).description("城市名称"),
            P::new("天数", T::Integer).description("").default(3).required(false),
        ],
    );
    let [en, zh] = docs(&spec);
    assert_eq!(zh, "参数说明：\n- 城市：string，必填。城市名称\n- 天数：integer，可选。无额外说明 默认值：3。");
    assert_eq!(
        en,
        "Parameter details:\n- 城市: string, required. 城市名称\n- 天数: integer, optional. No description. Default: 3"
    );
}

#[test]
fn object_and_array_parameters_get_one_line_each_without_their_nested_schemas() {
    let spec = listed(
        "tp_nested_list",
        vec![
            P::new("filter", T::Object)
                .description("Filter.")
                .properties(map(json!({"field": {"type": "string", "description": "Field"}})))
                .required_properties(["field"])
                .additional_properties(false),
            P::new("rows", T::Array)
                .description("Rows.")
                .items_schema(json!({"type": "object", "properties": {"id": {"type": "integer", "description": "Id"}}}))
                .required(false),
        ],
    );
    let [en, zh] = docs(&spec);
    assert_eq!(en, "Parameter details:\n- filter: object, required. Filter\n- rows: array, optional. Rows");
    assert_eq!(zh, "参数说明：\n- filter：object，必填。Filter.\n- rows：array，可选。Rows.");
}

#[test]
fn the_brief_never_carries_the_block_and_falls_back_to_the_tool_name() {
    let q = || vec![P::new("q", T::String).description("Query")];
    let spec = ToolSpec::builder("tp_lookup").parameters(q()).build().unwrap();
    assert_eq!(spec.description(Locale::En), "Tool tp_lookup");
    assert_eq!(spec.description(Locale::ZhHans), "工具 tp_lookup");
    assert_eq!(spec.detailed_description(Locale::En), "Parameter details:\n- q: string, required. Query");
    let spec = ToolSpec::builder("tp_lookup")
        .description("  Looks up.  ")
        .detailed_description("More.")
        .parameters(q())
        .build()
        .unwrap();
    assert_eq!(spec.description(Locale::En), "Looks up.");
    assert_eq!(spec.description(Locale::ZhHans), "Looks up.");
    assert_eq!(spec.detailed_description(Locale::ZhHans), "参数说明：\n- q：string，必填。Query\n\nMore.");
}

#[test]
fn the_serialised_spec_holds_both_locales_briefs_and_detailed_texts() {
    let spec = ToolSpec::builder("tp_serialised")
        .brief_description("Finds.")
        .detailed_description("Note.")
        .parameters(vec![P::new("q", T::String).description("Query.").enum_values(["a", "b"])])
        .build()
        .unwrap();
    let value = serde_json::to_value(&spec).unwrap();
    assert_eq!(text(&value["description"]), r#"{"en":"Finds.","zh-Hans":"Finds."}"#);
    assert_eq!(
        text(&value["detailed_description"]),
        r#"{"en":"Parameter details:\n- q: string, required. Query. Allowed values: a, b\n\nNote.","zh-Hans":"参数说明：\n- q：string，必填。Query. 可选值：a、b。\n\nNote."}"#
    );
}

#[test]
fn author_text_with_several_paragraphs_follows_the_block_trimmed() {
    let spec = ToolSpec::builder("tp_paragraphs")
        .brief_description("Brief.")
        .detailed_description("\n\n  First.\n\nSecond.\n  \n")
        .parameters(vec![P::new("n", T::Number).description("N").default(1.5).required(false)])
        .build()
        .unwrap();
    let [en, zh] = docs(&spec);
    assert_eq!(en, "Parameter details:\n- n: number, optional. N. Default: 1.5\n\nFirst.\n\nSecond.");
    assert_eq!(zh, "参数说明：\n- n：number，可选。N 默认值：1.5。\n\nFirst.\n\nSecond.");
}

// ---- builder, legacy dict form ------------------------------------------------------------------

#[test]
fn a_full_schema_without_object_valued_properties_has_only_the_author_text() {
    let schema = || json!({"type": "object", "properties": {"a": "text", "b": 1, "c": null}, "required": []});
    let spec = raw_with_detail("tp_no_object_props", schema(), "  Note.  ");
    assert_eq!(docs(&spec), ["Note.", "Note."]);
    let spec = raw("tp_no_object_props", schema());
    assert_eq!(docs(&spec), ["", ""]);
}

#[test]
fn properties_that_are_not_an_object_leave_no_block() {
    let spec =
        raw_with_detail("tp_bad_props", json!({"type": "object", "properties": "oops", "required": []}), "Note.");
    assert_eq!(text(spec.parameters_schema()), r#"{"type":"object","properties":{},"required":[]}"#);
    assert_eq!(docs(&spec), ["Note.", "Note."]);
}

#[test]
fn a_required_that_is_not_a_list_makes_every_parameter_optional() {
    let spec = raw(
        "tp_bad_required",
        json!({"type": "object", "properties": {"a": {"type": "string", "description": "A"}}, "required": "a"}),
    );
    assert_eq!(
        text(spec.parameters_schema()),
        r#"{"type":"object","properties":{"a":{"type":"string","description":"A"}},"required":[]}"#
    );
    let [en, zh] = docs(&spec);
    assert_eq!(en, "Parameter details:\n- a: string, optional. A");
    assert_eq!(zh, "参数说明：\n- a：string，可选。A");
}

#[test]
fn required_names_without_a_property_change_nothing_and_lines_follow_the_properties() {
    let spec = raw(
        "tp_ghost_required",
        json!({
            "type": "object",
            "properties": {"b": {"type": "integer", "description": "B"}, "a": {"type": "string", "description": "A"}},
            "required": ["ghost", "a"],
        }),
    );
    let [en, zh] = docs(&spec);
    assert_eq!(en, "Parameter details:\n- b: integer, optional. B\n- a: string, required. A");
    assert_eq!(zh, "参数说明：\n- b：integer，可选。B\n- a：string，必填。A");
}

#[test]
fn a_property_map_documents_enum_default_and_missing_types() {
    let spec = raw(
        "tp_property_map",
        json!({
            "mode": {"type": "STRING", "enum": ["x", "y"], "default": "x", "required": false, "description": "Mode."},
            "n": {"required": true, "default": 3},
        }),
    );
    assert_eq!(spec.parameters_schema()["required"], json!(["n"]));
    let [en, zh] = docs(&spec);
    assert_eq!(
        en,
        "Parameter details:\n- mode: string, optional. Mode. Allowed values: x, y. Default: x\n- n: string, required. No description. Default: 3"
    );
    assert_eq!(
        zh,
        "参数说明：\n- mode：string，可选。Mode. 可选值：x、y。 默认值：x。\n- n：string，必填。无额外说明 默认值：3。"
    );
}

#[test]
fn numeric_descriptions_render_as_python_floats_and_compact_json() {
    let spec = raw(
        "tp_numeric_descriptions",
        json!({
            "a": {"type": "string", "description": 1e-05},
            "b": {"type": "string", "description": 1e16},
            "c": {"type": "string", "description": 100},
            "d": {"type": "string", "description": -1},
        }),
    );
    let [en, zh] = docs(&spec);
    assert_eq!(
        zh,
        "参数说明：\n- a：string，可选。1e-05\n- b：string，可选。1e+16\n- c：string，可选。100\n- d：string，可选。-1"
    );
    assert_eq!(
        en,
        "Parameter details:\n- a: string, optional. 0.00001\n- b: string, optional. 1e+16\n- c: string, optional. 100\n- d: string, optional. -1"
    );
}

// ---- #[tool] ------------------------------------------------------------------------------------

/// Type names.
#[tool]
#[allow(clippy::too_many_arguments)]
fn tp_type_names(
    /// Letter.
    letter: char,
    /// Label.
    label: &str,
    /// Note.
    note: Cow<'_, str>,
    /// Huge.
    huge: u128,
    /// Tiny.
    tiny: i8,
    /// Index.
    idx: usize,
    /// Count.
    count: NonZeroU32,
    /// Ratio.
    ratio: f32,
    /// On.
    on: bool,
    /// Queue.
    queue: VecDeque<u8>,
    /// Names.
    names: BTreeSet<String>,
    /// Triple.
    triple: [u8; 3],
    /// Boxed.
    boxed: Box<[String]>,
    /// Seen.
    seen: HashSet<i32>,
    /// Flags.
    flags: BTreeMap<String, bool>,
    /// Extra.
    extra: serde_json::Map<String, Value>,
    /// Maybe tags.
    maybe_tags: Option<Vec<String>>,
    /// Maybe map.
    maybe_map: Option<HashMap<String, u8>>,
    /// Maybe on.
    maybe_on: Option<bool>,
) {
    let _ = (letter, label, note, huge, tiny, idx, count, ratio, on, queue, names, triple, boxed, seen, flags);
    let _ = (extra, maybe_tags, maybe_map, maybe_on);
}

#[test]
fn rust_types_are_named_by_their_json_type_in_both_locales() {
    let [en, zh] = docs(&declared("tp_type_names"));
    assert_eq!(
        en,
        "Parameter details:\n\
         - letter: string, required. Letter\n\
         - label: string, required. Label\n\
         - note: string, required. Note\n\
         - huge: integer, required. Huge\n\
         - tiny: integer, required. Tiny\n\
         - idx: integer, required. Index\n\
         - count: integer, required. Count\n\
         - ratio: number, required. Ratio\n\
         - on: boolean, required. On\n\
         - queue: array, required. Queue\n\
         - names: array, required. Names\n\
         - triple: array, required. Triple\n\
         - boxed: array, required. Boxed\n\
         - seen: array, required. Seen\n\
         - flags: object, required. Flags\n\
         - extra: object, required. Extra\n\
         - maybe_tags: array, optional. Maybe tags\n\
         - maybe_map: object, optional. Maybe map\n\
         - maybe_on: boolean, optional. Maybe on"
    );
    assert_eq!(
        zh,
        "参数说明：\n\
         - letter：string，必填。Letter.\n\
         - label：string，必填。Label.\n\
         - note：string，必填。Note.\n\
         - huge：integer，必填。Huge.\n\
         - tiny：integer，必填。Tiny.\n\
         - idx：integer，必填。Index.\n\
         - count：integer，必填。Count.\n\
         - ratio：number，必填。Ratio.\n\
         - on：boolean，必填。On.\n\
         - queue：array，必填。Queue.\n\
         - names：array，必填。Names.\n\
         - triple：array，必填。Triple.\n\
         - boxed：array，必填。Boxed.\n\
         - seen：array，必填。Seen.\n\
         - flags：object，必填。Flags.\n\
         - extra：object，必填。Extra.\n\
         - maybe_tags：array，可选。Maybe tags.\n\
         - maybe_map：object，可选。Maybe map.\n\
         - maybe_on：boolean，可选。Maybe on."
    );
}

/// Renamed.
#[tool]
fn tp_renamed(
    /// Zulu.
    zulu: String,
    /// The kind.
    #[param(rename = "kind")]
    r#type: String,
    ctx: &ToolExecutionContext,
    /// Match mode.
    r#match: Option<String>,
    /// Alpha.
    alpha: u8,
) {
    let _ = (zulu, r#type, ctx, r#match, alpha);
}

#[test]
fn lines_use_schema_names_in_declaration_order_without_context_parameters() {
    let [en, zh] = docs(&declared("tp_renamed"));
    assert_eq!(
        en,
        "Parameter details:\n- zulu: string, required. Zulu\n- kind: string, required. The kind\n- match: string, optional. Match mode\n- alpha: integer, required. Alpha"
    );
    assert_eq!(
        zh,
        "参数说明：\n- zulu：string，必填。Zulu.\n- kind：string，必填。The kind.\n- match：string，可选。Match mode.\n- alpha：integer，必填。Alpha."
    );
}

/// Integers.
#[tool]
fn tp_integer_parts(
    /// Step.
    #[param(enum = [-1, 0, 1], default = -1)]
    step: i32,
    /// Big.
    #[param(default = 18446744073709551615)]
    big: u64,
    /// Level.
    #[param(enum = [10, 20])]
    level: Option<u16>,
) {
    let _ = (step, big, level);
}

#[test]
fn integer_enums_and_defaults_render_in_decimal_through_the_macro() {
    let [en, zh] = docs(&declared("tp_integer_parts"));
    assert_eq!(
        en,
        "Parameter details:\n- step: integer, optional. Step. Allowed values: -1, 0, 1. Default: -1\n- big: integer, optional. Big. Default: 18446744073709551615\n- level: integer, optional. Level. Allowed values: 10, 20"
    );
    assert_eq!(
        zh,
        "参数说明：\n- step：integer，可选。Step. 可选值：-1、0、1。 默认值：-1。\n- big：integer，可选。Big. 默认值：18446744073709551615。\n- level：integer，可选。Level. 可选值：10、20。"
    );
}

#[test]
fn a_declared_tool_documents_like_the_builder_list_it_stands_for() {
    let declared = declared("tp_integer_parts");
    let built = ToolSpec::builder("tp_integer_parts")
        .brief_description("Integers.")
        .parameters(vec![
            P::new("step", T::Integer).description("Step.").enum_values([-1, 0, 1]).default(-1).required(false),
            P::new("big", T::Integer).description("Big.").default(u64::MAX).required(false),
            P::new("level", T::Integer).description("Level.").enum_values([10, 20]).required(false),
        ])
        .build()
        .unwrap();
    assert_eq!(docs(&declared), docs(&built));
    assert_eq!(declared.description(Locale::En), built.description(Locale::En));
    assert_eq!(declared.description(Locale::ZhHans), "Integers.");
}

/// Array defaults.
#[tool]
fn tp_array_defaults(
    /// Weights.
    #[param(default = [0.5, 0.00001, 100.0])]
    weights: Vec<f64>,
    /// Flags.
    #[param(default = [true, false])]
    flags: Vec<bool>,
    /// Words.
    #[param(default = ["it's \"x\"", "a\\b", "中文"])]
    words: Vec<String>,
) {
    let _ = (weights, flags, words);
}

#[test]
fn array_defaults_of_floats_booleans_and_quoted_strings_render_per_locale() {
    let [en, zh] = docs(&declared("tp_array_defaults"));
    assert_eq!(
        zh,
        concat!(
            "参数说明：\n- weights：array，可选。Weights. 默认值：[0.5, 1e-05, 100.0]。\n",
            "- flags：array，可选。Flags. 默认值：[True, False]。\n",
            r#"- words：array，可选。Words. 默认值：['it\'s "x"', 'a\\b', '中文']。"#,
        )
    );
    assert_eq!(
        en,
        concat!(
            "Parameter details:\n- weights: array, optional. Weights. Default: [0.5,0.00001,100.0]\n",
            "- flags: array, optional. Flags. Default: [true,false]\n",
            r#"- words: array, optional. Words. Default: ["it's \"x\"","a\\b","中文"]"#,
        )
    );
}

/// Float literals.
#[tool]
fn tp_float_literals(
    /// A.
    #[param(default = -0.5)]
    a: f64,
    /// B.
    #[param(default = 1e300)]
    b: f64,
    /// C.
    #[param(default = 0.0001)]
    c: f64,
    /// D.
    #[param(default = 123456789.0)]
    d: f64,
    /// E.
    #[param(default = 0.1)]
    e: f64,
    /// F.
    #[param(default = 1e15)]
    f: f64,
) {
    let _ = (a, b, c, d, e, f);
}

#[test]
fn float_literal_defaults_render_at_the_edges_of_both_notations() {
    let [en, zh] = docs(&declared("tp_float_literals"));
    assert_eq!(
        zh,
        "参数说明：\n- a：number，可选。A. 默认值：-0.5。\n- b：number，可选。B. 默认值：1e+300。\n- c：number，可选。C. 默认值：0.0001。\n- d：number，可选。D. 默认值：123456789.0。\n- e：number，可选。E. 默认值：0.1。\n- f：number，可选。F. 默认值：1000000000000000.0。"
    );
    assert_eq!(
        en,
        "Parameter details:\n- a: number, optional. A. Default: -0.5\n- b: number, optional. B. Default: 1e+300\n- c: number, optional. C. Default: 0.0001\n- d: number, optional. D. Default: 123456789.0\n- e: number, optional. E. Default: 0.1\n- f: number, optional. F. Default: 1000000000000000.0"
    );
}

/// Quoted strings.
#[tool]
fn tp_string_values(
    /// Greeting.
    #[param(default = "say \"hi\"")]
    greeting: String,
    /// Word.
    #[param(enum = ["it's", "a\"b", "中文"], default = "it's")]
    word: String,
) {
    let _ = (greeting, word);
}

#[test]
fn string_defaults_and_allowed_values_are_bare_in_both_locales() {
    let [en, zh] = docs(&declared("tp_string_values"));
    assert_eq!(
        zh,
        "参数说明：\n- greeting：string，可选。Greeting. 默认值：say \"hi\"。\n- word：string，可选。Word. 可选值：it's、a\"b、中文。 默认值：it's。"
    );
    assert_eq!(
        en,
        "Parameter details:\n- greeting: string, optional. Greeting. Default: say \"hi\"\n- word: string, optional. Word. Allowed values: it's, a\"b, 中文. Default: it's"
    );
}

/// Brief line.
///
/// Doc detail, replaced.
#[tool(detailed_description = "第一段。\n\n第二段。")]
fn tp_attribute_detail(
    /// 关键词
    q: String,
) {
    let _ = q;
}

#[test]
fn a_detailed_description_attribute_replaces_the_doc_detail_after_the_block() {
    let spec = declared("tp_attribute_detail");
    assert_eq!(spec.description(Locale::En), "Brief line.");
    assert_eq!(spec.description(Locale::ZhHans), "Brief line.");
    let [en, zh] = docs(&spec);
    assert_eq!(en, "Parameter details:\n- q: string, required. 关键词\n\n第一段。\n\n第二段。");
    assert_eq!(zh, "参数说明：\n- q：string，必填。关键词\n\n第一段。\n\n第二段。");
}

/// Search the archive.
///   Results are ranked.
///
/// Only public items.
///
/// Older items may be missing.
#[tool]
fn tp_doc_detail(
    /// Search words.
    query: String,
    /// Page size.
    #[param(default = 10)]
    size: u32,
) {
    let _ = (query, size);
}

#[test]
fn a_doc_comment_gives_the_brief_and_the_text_after_the_block() {
    let spec = declared("tp_doc_detail");
    assert_eq!(spec.description(Locale::En), "Search the archive. Results are ranked.");
    assert_eq!(spec.description(Locale::ZhHans), "Search the archive. Results are ranked.");
    let [en, zh] = docs(&spec);
    assert_eq!(
        en,
        "Parameter details:\n- query: string, required. Search words\n- size: integer, optional. Page size. Default: 10\n\nOnly public items.\n\nOlder items may be missing."
    );
    assert_eq!(
        zh,
        "参数说明：\n- query：string，必填。Search words.\n- size：integer，可选。Page size. 默认值：10。\n\nOnly public items.\n\nOlder items may be missing."
    );
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[serde(crate = "toolhook::serde", rename_all = "snake_case")]
#[schemars(crate = "toolhook::schemars")]
#[allow(dead_code)]
enum Pace {
    SlowPace,
    FastPace,
}

/// Pace.
#[tool]
fn tp_pace(
    /// Pace to keep.
    pace: Pace,
    /// Fallback pace.
    backup: Option<Pace>,
) {
    let _ = (pace, backup);
}

#[test]
fn an_undocumented_unit_enum_lists_its_serialised_names_as_allowed_values() {
    let [en, zh] = docs(&declared("tp_pace"));
    assert_eq!(
        en,
        "Parameter details:\n- pace: string, required. Pace to keep. Allowed values: slow_pace, fast_pace\n- backup: string, optional. Fallback pace. Allowed values: slow_pace, fast_pace"
    );
    assert_eq!(
        zh,
        "参数说明：\n- pace：string，必填。Pace to keep. 可选值：slow_pace、fast_pace。\n- backup：string，可选。Fallback pace. 可选值：slow_pace、fast_pace。"
    );
}

/// Headers.
///
/// 参数说明：
/// - q：自定义
#[tool]
fn tp_zh_header_in_doc(
    /// Query.
    q: String,
) {
    let _ = q;
}

#[test]
fn a_doc_detail_starting_with_the_chinese_header_is_used_as_is_in_english_too() {
    let [en, zh] = docs(&declared("tp_zh_header_in_doc"));
    assert_eq!(en, "参数说明：\n- q：自定义");
    assert_eq!(zh, en);
}

/// Parameter docs.
#[tool]
fn tp_param_doc_layout(
    /// First line.
    ///    Second line.
    ///
    /// Next paragraph.
    a: String,
    /// Ignored.
    #[param(description = "  完成。 ")]
    b: Option<String>,
) {
    let _ = (a, b);
}

#[test]
fn multi_paragraph_and_attribute_descriptions_render_in_the_block() {
    let [en, zh] = docs(&declared("tp_param_doc_layout"));
    assert_eq!(
        en,
        "Parameter details:\n- a: string, required. First line. Second line.\n\nNext paragraph\n- b: string, optional. 完成。"
    );
    assert_eq!(
        zh,
        "参数说明：\n- a：string，必填。First line. Second line.\n\nNext paragraph.\n- b：string，可选。完成。"
    );
}
