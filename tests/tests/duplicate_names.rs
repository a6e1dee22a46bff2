//! Two `#[tool]`s with one name in the same binary: collecting them is an error naming
//! both, never a silent overwrite. (Its own binary, since it breaks `Registry::collect`.)

mod a {
    /// First.
    #[tool_core::tool(name = "same")]
    pub fn first() -> String {
        String::new()
    }
}

mod b {
    /// Second.
    #[tool_core::tool(name = "same")]
    pub fn second() -> String {
        String::new()
    }
}

#[test]
fn duplicate_names_are_reported_with_both_paths() {
    let error = tool_core::Registry::collect().expect_err("two tools are named `same`");
    let text = error.to_string();
    assert!(text.contains("two tools are named \"same\""), "{text}");
    assert!(text.contains("duplicate_names::a::first"), "{text}");
    assert!(text.contains("duplicate_names::b::second"), "{text}");
}
