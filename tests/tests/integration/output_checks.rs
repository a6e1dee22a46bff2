//! A `#[tool]`'s structured result checked against its output schema (on in debug builds,
//! `Registry::check_outputs` otherwise): a `Serialize` that disagrees with the `ToolSchema`
//! is caught before a client is sent a result that breaks the schema it was promised.

use serde_json::json;
use tool_core::{Registry, Structured, ToolError, ToolSchema, tool};

/// What the schema promises: an integer count.
#[derive(ToolSchema)]
pub struct Tally {
    count: u32,
}

/// What the hand-written `Serialize` sends: a word, not the integer the schema says.
impl serde::Serialize for Tally {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        let mut fields = serializer.serialize_struct("Tally", 1)?;
        match self.count {
            3 => fields.serialize_field("count", "three")?,
            n => fields.serialize_field("count", &n)?,
        }
        fields.end()
    }
}

/// Counts to `n`.
#[tool]
fn tally(n: u32) -> Structured<Tally> {
    Structured(Tally { count: n })
}

/// The same, async, so that the other call path is checked too.
#[tool]
async fn tally_later(n: u32) -> Structured<Tally> {
    core::future::ready(Structured(Tally { count: n })).await
}

#[test]
fn a_result_that_breaks_the_output_schema_is_caught() {
    let mut registry = Registry::new().check_outputs(true);
    registry.add(TallyTool).unwrap().add(TallyLaterTool).unwrap();
    assert_eq!(registry.call("tally", r#"{"n": 2}"#).unwrap().structured(), Some(&json!({"count": 2})));
    let broken = registry.call("tally", r#"{"n": 3}"#).unwrap_err();
    let ToolError::Failed { tool, message } = &broken else { panic!("{broken:?}") };
    assert_eq!(tool, "tally");
    assert!(
        message.contains("breaks the tool's output schema:\n- /count: expected an integer, got a string \"three\""),
        "{message}"
    );
    assert!(message.ends_with("(the fn's Serialize disagrees with its ToolSchema)"), "{message}");
    let later = tool_tests::block_on(registry.call_async(&registry.context(), "tally_later", json!({"n": 3})));
    assert!(matches!(later, Err(ToolError::Failed { .. })), "{later:?}");

    // Off: the result goes out as the fn made it.
    let mut unchecked = Registry::new().check_outputs(false);
    unchecked.add(TallyTool).unwrap();
    assert_eq!(unchecked.call("tally", r#"{"n": 3}"#).unwrap().structured(), Some(&json!({"count": "three"})));
}
