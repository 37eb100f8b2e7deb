//! The macros keep their own copy of the hook catalogue (a proc-macro crate cannot depend on
//! `toolhook`): it must name the same hooks, in order, with the same abort rule.

#[test]
fn the_macros_catalogue_equals_the_sdks() {
    let source = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../sdk-macros/src/catalogue.rs"))
        .expect("the macros' catalogue");
    let listed: Vec<(String, bool)> = source
        .lines()
        .filter_map(|line| line.trim().strip_prefix("hook(\"")?.strip_suffix("),")?.split_once("\", "))
        .map(|(name, abort)| (name.to_owned(), abort == "true"))
        .collect();
    let expected: Vec<(String, bool)> = toolhook::hooks::ALL
        .iter()
        .map(|name| (name.to_string(), toolhook::__private::hook_allows_abort(name)))
        .collect();
    assert_eq!(listed, expected);
}
