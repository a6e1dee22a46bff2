//! Patterns are ECMA-262 regular expressions, as JSON Schema says, and decide alike wherever
//! they are written: `#[param(pattern)]`, a run-time schema, another server's tool.
//! Lookaround and backreferences work; `\d` is ASCII digits; a match that would backtrack
//! without end stops at the bound with a violation that says so.

use serde_json::{Value, json};
use tool_core::ToolArgs;
use tool_core::dispatch::DecodeOptions;
use tool_core::schema::RuntimeSchema;

#[derive(ToolArgs, Debug)]
struct Account {
    /// A user name that is not a reserved one
    #[param(pattern = "^(?!admin$)[a-z]+$")]
    user: String,
    /// A code of ASCII digits
    #[param(pattern = "^\\d{3}$")]
    code: String,
    /// A word said twice
    #[param(pattern = "^(\\w+) \\1$")]
    echo: String,
}

/// The violations of `arguments` as the derive reports them, and as a run-time schema made
/// from the derive's own schema does, in order.
fn both(arguments: &Value) -> (Vec<String>, Vec<String>) {
    let lines = |violations: &tool_core::Violations| violations.iter().map(ToString::to_string).collect::<Vec<_>>();
    let derived = match tool_core::dispatch::decode::<Account>(arguments.clone(), &DecodeOptions::default()) {
        Ok(_) => Vec::new(),
        Err(tool_core::ToolError::InvalidArguments { violations, .. }) => lines(&violations),
        Err(other) => panic!("{other}"),
    };
    let schema =
        RuntimeSchema::new(serde_json::from_str(&tool_core::render::json_schema::<Account>()).unwrap()).unwrap();
    let run_time = schema.validate(arguments).err().map(|violations| lines(&violations)).unwrap_or_default();
    (derived, run_time)
}

#[test]
fn lookaround_backreferences_and_ascii_digits_decide_alike_on_both_sides() {
    let good = json!({"user": "bob", "code": "042", "echo": "hey hey"});
    assert_eq!(both(&good), (vec![], vec![]));
    for (field, bad) in [("user", "admin"), ("code", "\u{663}\u{664}\u{665}"), ("echo", "hey you")] {
        let mut arguments = good.clone();
        arguments[field] = json!(bad);
        let (derived, run_time) = both(&arguments);
        assert_eq!(derived.len(), 1, "{field}: {derived:?}");
        assert!(derived[0].starts_with(&format!("/{field}: must match the pattern")), "{derived:?}");
        assert_eq!(derived, run_time, "{field}");
    }
}

#[test]
fn a_match_that_would_backtrack_without_end_is_stopped_and_said() {
    let schema = RuntimeSchema::new(json!({"type": "string", "pattern": "^(a*)*\\1b$"})).unwrap();
    let violations = schema.validate(&json!("a".repeat(40))).unwrap_err();
    let said = violations.iter().map(ToString::to_string).collect::<Vec<_>>();
    assert_eq!(
        said,
        [
            "(root): could not be checked against the pattern \"^(a*)*\\\\1b$\": matching took more than 1000000 backtracking steps"
        ]
    );
}

#[test]
fn a_pattern_that_is_not_ecma_262_is_refused_when_made() {
    for pattern in ["(?P<name>x)", "(?#comment)a", "^(abc]"] {
        let schema = json!({"type": "object", "properties": {"n": {"type": "string", "pattern": pattern}}});
        let error = RuntimeSchema::new(schema).expect_err(pattern).to_string();
        let expected = format!("the schema at /properties/n/pattern: the pattern {pattern:?} is not usable");
        assert!(error.starts_with(&expected), "{error}");
    }
}
