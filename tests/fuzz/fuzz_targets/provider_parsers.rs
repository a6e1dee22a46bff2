//! Every provider's tool-call parser and stream accumulator on arbitrary JSON: never
//! panics, and whatever calls come out can be answered in every result shape.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use tool_core::provider::{CallResult, anthropic, gemini, mcp, openai};

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<Value>(data) else { return };
    let mut calls = Vec::new();
    calls.extend(openai::parse_chat_completion(&value).unwrap_or_default());
    calls.extend(openai::parse_responses_output(&value).unwrap_or_default());
    calls.extend(anthropic::parse_message(&value).unwrap_or_default());
    calls.extend(gemini::parse_candidate(&value).unwrap_or_default());
    calls.extend(mcp::parse_tools_call(&value).ok());
    let mut chat = openai::ChatStream::new();
    let mut messages = anthropic::MessageStream::new();
    let events: Vec<&Value> = match &value {
        Value::Array(items) => items.iter().collect(),
        other => vec![other],
    };
    for event in events {
        let _ = chat.push(event);
        let _ = messages.push(event);
    }
    calls.extend(chat.finish());
    calls.extend(messages.finish());
    let results: Vec<CallResult> = calls
        .into_iter()
        .map(|call| CallResult { id: call.id, name: call.name, outcome: Ok(tool_core::ToolOutput::text("ok")) })
        .collect();
    let _ = openai::tool_messages(&results);
    let _ = openai::function_call_outputs(&results);
    let _ = anthropic::tool_results_message(&results, Some("t"));
    let _ = gemini::function_responses(&results);
    for result in &results {
        let _ = mcp::call_tool_response(&Value::Null, result);
    }
});
