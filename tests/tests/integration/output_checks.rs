//! A `#[tool]`'s structured result checked against its output schema (on in debug builds,
//! `Registry::check_outputs` otherwise): a `Serialize` that disagrees with the `ToolSchema`
//! is caught before a client is sent a result that breaks the schema it was promised.

use serde_json::json;
use tool_core::registry::OutputMismatch;
use tool_core::{DynamicTool, Registry, Structured, ToolError, ToolOutput, ToolSchema, tool};

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

#[test]
fn a_mismatch_may_be_wrapped_rather_than_refused_with_its_violations_kept() {
    let mut registry = Registry::new().check_outputs(true).on_output_mismatch(OutputMismatch::Wrap);
    registry.add(TallyTool).unwrap().add(TallyLaterTool).unwrap();
    // A result that keeps its promise goes out as it is.
    assert_eq!(registry.call("tally", r#"{"n": 2}"#).unwrap().structured(), Some(&json!({"count": 2})));
    for output in [
        registry.call("tally", r#"{"n": 3}"#).unwrap(),
        tool_tests::block_on(registry.call_async(&registry.context(), "tally_later", json!({"n": 3}))).unwrap(),
    ] {
        assert_eq!(output.structured(), Some(&json!({"result": {"count": "three"}})));
        let kept = output.details().unwrap()["output_violations"].as_str().unwrap();
        assert!(kept.contains("/count: expected an integer, got a string \"three\""), "{kept}");
    }

    // A tool made at run time says it for its own output schema.
    let schema = r#"{"type":"object","properties":{"count":{"type":"integer"}},"required":["count"]}"#;
    let make = |mismatch| {
        DynamicTool::new("word_count", "Counts", r#"{"type":"object"}"#, |_ctx, _args| async {
            Ok(ToolOutput::text("three").with_structured(json!({"count": "three"})).with_details(json!({"took_ms": 4})))
        })
        .unwrap()
        .with_output_schema(schema)
        .unwrap()
        .on_output_mismatch(mismatch)
    };
    let mut tools = Registry::new();
    tools.add_dynamic(make(OutputMismatch::Refuse)).unwrap();
    let refused = tool_tests::block_on(tools.call_async(&tools.context(), "word_count", json!({}))).unwrap_err();
    assert!(refused.to_string().contains("breaks the tool's output schema"), "{refused}");
    let mut tools = Registry::new();
    tools.add_dynamic(make(OutputMismatch::Wrap)).unwrap();
    let wrapped = tool_tests::block_on(tools.call_async(&tools.context(), "word_count", json!({}))).unwrap();
    assert_eq!(wrapped.structured(), Some(&json!({"result": {"count": "three"}})));
    let details = wrapped.details().unwrap();
    assert_eq!(details["took_ms"], 4, "the tool's own details are kept");
    assert!(details["output_violations"].as_str().unwrap().contains("/count: expected an integer"), "{details}");
}

/// A number, as a structured result.
#[tool]
fn answer_number() -> serde_json::Value {
    json!(42)
}

/// The `CallToolResult` an MCP server sends for `output`.
fn mcp_result(output: ToolOutput) -> serde_json::Value {
    let result = tool_core::provider::CallResult::new("1", "answer", Ok(output));
    tool_core::provider::mcp_json::call_tool_response(&json!(1), &result)["result"].clone()
}

#[test]
fn a_primitive_result_may_be_wrapped_as_result() {
    let mut plain = Registry::new();
    plain.add(AnswerNumberTool).unwrap();
    let output = plain.call("answer_number", "{}").unwrap();
    assert_eq!(output.structured(), Some(&json!(42)), "off by default");
    let sent = mcp_result(output);
    assert!(sent.get("structuredContent").is_none(), "MCP's structuredContent is an object: {sent}");

    let mut wrapping = Registry::new().wrap_primitive_results(true);
    wrapping.add(AnswerNumberTool).unwrap().add(TallyTool).unwrap();
    let output = wrapping.call("answer_number", "{}").unwrap();
    assert_eq!(output.structured(), Some(&json!({"result": 42})));
    assert_eq!(output.to_text(), "42", "the text is unchanged");
    let sent = mcp_result(output);
    assert_eq!(sent["structuredContent"], json!({"result": 42}));
    // An object is not wrapped.
    assert_eq!(wrapping.call("tally", r#"{"n": 2}"#).unwrap().structured(), Some(&json!({"count": 2})));
}
