//! Every provider's tool-call parser, turn reader and stream reader on arbitrary JSON: never
//! panics, and whatever calls come out can be answered in every result shape.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use tool_core::provider::{Api, CallResult, anthropic, gemini, mcp_json, openai};

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<Value>(data) else { return };
    let mut calls = Vec::new();
    calls.extend(openai::parse_chat_completion(&value).unwrap_or_default());
    calls.extend(openai::parse_responses_output(&value).unwrap_or_default());
    calls.extend(anthropic::parse_message(&value).unwrap_or_default());
    calls.extend(gemini::parse_candidate(&value).unwrap_or_default());
    calls.extend(mcp_json::parse_tools_call(&value).ok());
    // Every stream reader the agent uses, on the value's elements as events.
    let events: Vec<String> = match &value {
        Value::Array(items) => items.iter().map(Value::to_string).collect(),
        other => vec![other.to_string()],
    };
    for api in Api::ALL {
        let mut reader = api.stream();
        for event in &events {
            let _ = reader.push(event, &mut |_| {});
        }
        let _ = reader.push("[DONE]", &mut |_| {});
        if let Ok(turn) = reader.finish() {
            calls.extend(turn.calls);
        }
        if let Ok(turn) = api.turn(&value) {
            calls.extend(turn.calls);
        }
    }
    let results: Vec<CallResult> = calls
        .into_iter()
        .map(|call| CallResult::new(call.id, call.name, Ok(tool_core::ToolOutput::text("ok"))))
        .collect();
    let _ = openai::tool_messages(&results);
    let _ = openai::function_call_outputs(&results);
    let _ = anthropic::tool_results_message(&results, Some("t"));
    let _ = gemini::function_responses(&results);
    for result in &results {
        let _ = mcp_json::call_tool_response(&Value::Null, result);
    }
});
