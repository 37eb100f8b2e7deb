//! `#[hook_handler]` and `#[workflow_step]`: every compile error a user can meet, and the forms that
//! must compile. The `.stderr` files were written with rustc 1.95.0; other compiler versions may
//! word notes differently.

#[test]
fn hook_handler() {
    let t = trybuild::TestCases::new();
    t.pass("hook_handler/pass/*.rs");
    t.compile_fail("hook_handler/fail/*.rs");
}

#[test]
fn workflow_step() {
    let t = trybuild::TestCases::new();
    t.compile_fail("workflow_step/fail/*.rs");
}
