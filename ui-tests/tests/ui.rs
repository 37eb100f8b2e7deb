//! Compile errors users can meet, and the forms that must compile. The `.stderr` files were
//! written with rustc 1.95.0; other compiler versions may word notes differently.

#[test]
fn tool() {
    let t = trybuild::TestCases::new();
    t.pass("tool/pass/*.rs");
    t.compile_fail("tool/fail/*.rs");
}

#[test]
fn plugin_action_and_command() {
    let t = trybuild::TestCases::new();
    t.pass("plugin/pass/*.rs");
    t.compile_fail("plugin/fail/*.rs");
    t.pass("action/pass/*.rs");
    t.compile_fail("action/fail/*.rs");
    t.compile_fail("command/fail/*.rs");
}
