//! Compile-fail tests: misuse is an error spanned at the offending token, saying what to
//! write instead. The `.stderr` files are pinned to rustc 1.95; regenerate them with
//! `TRYBUILD=overwrite cargo test -p tool-tests --test ui` and review every change.

#[rustversion::attr(not(stable(1.95)), ignore = "compiler messages are pinned to rustc 1.95")]
#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/tool/*.rs");
    t.compile_fail("ui/param/*.rs");
    t.compile_fail("ui/args/*.rs");
    t.compile_fail("ui/context/*.rs");
    t.compile_fail("ui/forms/*.rs");
    t.compile_fail("ui/served/*.rs");
    t.pass("ui/pass/*.rs");
}
