//! Rich results: every return type, and every provider dialect rendering text, images,
//! audio, resources and links (or describing in text what it cannot carry).

use serde_json::{Value, json};
use tool_core::content::{Audience, ResourceLink};
use tool_core::provider::{self, Arguments, CallResult, ToolCall, anthropic, gemini, mcp_json, openai};
use tool_core::{Content, Registry, ToolOutput, tool};
use tool_tests::block_on;

const PNG: &[u8] = &[0x89, b'P', b'N', b'G', 1, 2, 3];

/// Returns a chart and its caption.
#[tool]
pub fn chart() -> Vec<Content> {
    vec![Content::text("Sales by month"), Content::image(PNG, "image/png")]
}

/// Returns a note, a recording, a PDF, a text file and a link.
#[tool]
pub fn everything() -> Vec<Content> {
    let mut link = ResourceLink::new("file:///notes/todo.md", "todo");
    link.description = Some("open items".to_owned());
    vec![
        Content::text("all of it"),
        Content::audio(b"RIFF", "audio/wav"),
        Content::resource_blob("file:///docs/report.pdf", "application/pdf", b"%PDF"),
        Content::resource_text("file:///notes/a.txt", "text/plain", "line one"),
        Content::ResourceLink(link),
    ]
}

/// Returns the chart again, each block annotated for the client.
#[tool]
pub fn annotated_chart() -> Vec<Content> {
    let meta = json!({"example.com/source": "sales-db"});
    let Value::Object(meta) = meta else { unreachable!() };
    vec![
        Content::text("Sales by month").with_audience([Audience::User, Audience::Assistant]).with_priority(0.5),
        Content::image(PNG, "image/png").with_last_modified("2026-11-29T10:00:00Z").with_meta(meta),
    ]
}

/// Does something and returns nothing, or fails.
#[tool]
pub fn side_effect(ctx: &tool_core::ToolContext) -> Result<(), String> {
    if ctx.is_cancelled() { Err("cancelled".to_owned()) } else { Ok(()) }
}

/// Returns a JSON value.
#[tool]
pub fn raw_value() -> Value {
    json!({"count": 3})
}

fn results(names: &[&str]) -> Vec<CallResult> {
    let mut registry = Registry::new();
    registry.add(ChartTool).unwrap().add(EverythingTool).unwrap().add(SideEffectTool).unwrap();
    registry.add(RawValueTool).unwrap().add(AnnotatedChartTool).unwrap();
    let calls: Vec<ToolCall> = names
        .iter()
        .map(|name| ToolCall::new(format!("id_{name}"), (*name).to_owned(), Arguments::Value(json!({}))))
        .collect();
    block_on(provider::run_calls(&registry, &calls))
}

#[test]
fn unit_and_value_returns() {
    let results = results(&["side_effect", "raw_value"]);
    let empty = results[0].outcome.as_ref().unwrap();
    assert!(empty.content().is_empty());
    assert_eq!(empty.to_text(), "");
    let value = results[1].outcome.as_ref().unwrap();
    assert_eq!(value.to_text(), r#"{"count":3}"#);
    assert_eq!(value.structured(), Some(&json!({"count": 3})));
    let response = mcp_json::call_tool_response(&json!(1), &results[1]);
    assert_eq!(response["result"]["structuredContent"], json!({"count": 3}));
}

#[test]
fn mcp_carries_every_block() {
    let results = results(&["everything"]);
    let response = mcp_json::call_tool_response(&json!(7), &results[0]);
    assert_eq!(
        response["result"]["content"],
        json!([
            {"type": "text", "text": "all of it"},
            {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
            {"type": "resource", "resource": {"uri": "file:///docs/report.pdf", "mimeType": "application/pdf", "blob": "JVBERg=="}},
            {"type": "resource", "resource": {"uri": "file:///notes/a.txt", "mimeType": "text/plain", "text": "line one"}},
            {"type": "resource_link", "uri": "file:///notes/todo.md", "name": "todo", "description": "open items"}
        ])
    );
    assert_eq!(response["result"]["isError"], false);
}

#[test]
fn anthropic_takes_images_and_pdfs_and_describes_the_rest() {
    let results = results(&["chart", "everything"]);
    let message = anthropic::tool_results_message(&results, None);
    let chart = &message["content"][0]["content"];
    assert_eq!(chart[0], json!({"type": "text", "text": "Sales by month"}));
    assert_eq!(
        chart[1],
        json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORwECAw=="}})
    );
    let everything = &message["content"][1]["content"];
    assert_eq!(everything[1]["text"], "[audio/wav audio, 4 bytes, not played: this channel carries text only]");
    assert_eq!(
        everything[2],
        json!({"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERg=="}})
    );
    assert_eq!(everything[3]["text"], "[resource file:///notes/a.txt (text/plain)]\nline one");
    assert_eq!(everything[4]["text"], "[resource link: todo <file:///notes/todo.md>: open items]");
}

#[test]
fn openai_chat_is_text_and_responses_takes_images_and_files() {
    let results = results(&["chart", "everything"]);
    let chat = openai::tool_messages(&results);
    assert_eq!(
        chat[0]["content"],
        "Sales by month\n\n[image/png image, 7 bytes, not shown: this channel carries text only]"
    );
    let outputs = openai::function_call_outputs(&results);
    assert_eq!(
        outputs[0]["output"],
        json!([
            {"type": "input_text", "text": "Sales by month"},
            {"type": "input_image", "image_url": "data:image/png;base64,iVBORwECAw=="}
        ])
    );
    assert_eq!(
        outputs[1]["output"][2],
        json!({"type": "input_file", "filename": "report.pdf", "file_data": "data:application/pdf;base64,JVBERg=="})
    );
}

#[test]
fn gemini_sends_media_as_inline_parts() {
    let results = results(&["chart"]);
    let turn = gemini::function_responses(&results);
    let response = &turn["parts"][0]["functionResponse"];
    assert_eq!(response["response"], json!({"output": "Sales by month"}));
    assert_eq!(response["parts"], json!([{"inlineData": {"mimeType": "image/png", "data": "iVBORwECAw=="}}]));
}

#[test]
fn a_single_text_block_is_borrowed_and_many_are_joined() {
    let one = ToolOutput::text("hi");
    assert!(matches!(one.to_text(), std::borrow::Cow::Borrowed("hi")));
    let two = ToolOutput::new([Content::text("a"), Content::text("b")]);
    assert_eq!(two.to_text(), "a\n\nb");
    assert!(two.is_text_only());
}

/// The outcome of a deletion, as a structured result.
#[derive(serde::Serialize, tool_core::ToolSchema)]
struct Deleted {
    success: bool,
    names: Vec<String>,
}

/// Deletes entities, saying so in a sentence.
#[tool(name = "content_delete")]
fn delete(names: Vec<String>) -> tool_core::StructuredText<Deleted> {
    tool_core::Structured(Deleted { success: true, names }).with_text("Entities deleted successfully")
}

/// Lists entities, pretty-printed.
#[tool(name = "content_list")]
fn list(names: Vec<String>) -> Result<tool_core::StructuredText<Deleted>, String> {
    if names.is_empty() {
        return Err("name at least one entity".to_owned());
    }
    Ok(tool_core::Structured(Deleted { success: true, names }).pretty())
}

/// A structured result can carry the author's own text, or its JSON pretty-printed, and
/// still advertise its output schema and carry the value as `structuredContent`.
#[test]
fn a_structured_result_can_be_worded_by_its_author() {
    let mut registry = Registry::new();
    registry.add(DeleteTool).unwrap().add(ListTool).unwrap();
    for name in ["content_delete", "content_list"] {
        let schema = registry.get(name).unwrap().output_schema().unwrap();
        assert!(schema.contains(r#""success":{"type":"boolean"}"#), "{schema}");
    }
    let deleted = registry.call("content_delete", r#"{"names": ["a"]}"#).unwrap();
    assert_eq!(deleted.to_text(), "Entities deleted successfully");
    assert_eq!(deleted.structured(), Some(&serde_json::json!({"success": true, "names": ["a"]})));
    let listed = registry.call("content_list", r#"{"names": ["a", "b"]}"#).unwrap();
    assert_eq!(listed.to_text(), "{\n  \"success\": true,\n  \"names\": [\n    \"a\",\n    \"b\"\n  ]\n}");
    assert_eq!(listed.structured(), Some(&serde_json::json!({"success": true, "names": ["a", "b"]})));
}

/// Annotations and `_meta` go out on MCP beside each block's own keys; every other dialect
/// renders the block as it would without them; a journal keeps them.
#[test]
fn annotations_and_meta_travel_on_mcp_and_nowhere_else() {
    let results = results(&["annotated_chart", "chart"]);
    let response = mcp_json::call_tool_response(&json!(7), &results[0]);
    assert_eq!(
        response["result"]["content"],
        json!([
            {"type": "text", "text": "Sales by month", "annotations": {"audience": ["user", "assistant"], "priority": 0.5}},
            {"type": "image", "data": "iVBORwECAw==", "mimeType": "image/png",
             "annotations": {"lastModified": "2026-11-29T10:00:00Z"}, "_meta": {"example.com/source": "sales-db"}}
        ])
    );
    let anthropic = anthropic::tool_results_message(&results, None);
    assert_eq!(anthropic["content"][0]["content"], anthropic["content"][1]["content"]);
    let responses = openai::function_call_outputs(&results);
    assert_eq!(responses[0]["output"], responses[1]["output"]);
    let chat = openai::tool_messages(&results);
    assert_eq!(chat[0]["content"], chat[1]["content"]);
    let gemini = gemini::function_responses(&results);
    let (annotated, plain) = (&gemini["parts"][0]["functionResponse"], &gemini["parts"][1]["functionResponse"]);
    assert_eq!((&annotated["response"], &annotated["parts"]), (&plain["response"], &plain["parts"]));
    assert_eq!(annotated["parts"][0]["inlineData"]["mimeType"], "image/png");
    assert!(responses[0]["output"].is_array() && anthropic["content"][0]["content"].is_array());

    let blocks = results[0].outcome.as_ref().unwrap().content();
    assert_eq!(blocks[0].as_text(), Some("Sales by month"));
    let annotated = blocks[0].annotated().expect("annotated");
    assert_eq!((annotated.audience.len(), annotated.priority), (2, Some(0.5)));
    let journaled: Vec<Content> = serde_json::from_value(serde_json::to_value(blocks).unwrap()).unwrap();
    assert_eq!(journaled, blocks);
}

#[test]
#[should_panic(expected = "a priority is from 0 to 1, not 1.5")]
fn a_priority_outside_0_to_1_is_refused_where_it_is_written() {
    let _ = Content::text("x").with_priority(1.5);
}
