//! What every run must show, whatever the model wrote: in the history the agent keeps (and
//! sends back), each call made is answered exactly once, in the order the calls were made;
//! and the run's records say the same.

use serde_json::Value;
use tool_core::agent::{Api, Conversation, RunError, RunOutcome};

/// The ids of the calls the model made, in order, and of the results sent back, in order.
pub fn calls_and_results(api: Api, conversation: &Conversation) -> (Vec<String>, Vec<String>) {
    let text = |value: &Value| value.as_str().unwrap_or_default().to_owned();
    let (mut calls, mut results) = (Vec::new(), Vec::new());
    for item in conversation.items() {
        match api {
            Api::OpenAiChat => {
                for call in item["tool_calls"].as_array().into_iter().flatten() {
                    calls.push(text(&call["id"]));
                }
                if item["role"] == "tool" {
                    results.push(text(&item["tool_call_id"]));
                }
            }
            Api::OpenAiResponses => match item["type"].as_str() {
                Some("function_call") => calls.push(text(&item["call_id"])),
                Some("function_call_output") => results.push(text(&item["call_id"])),
                _ => {}
            },
            _ => {
                for block in item["content"].as_array().into_iter().flatten() {
                    match block["type"].as_str() {
                        Some("tool_use") => calls.push(text(&block["id"])),
                        Some("tool_result") => results.push(text(&block["tool_use_id"])),
                        _ => {}
                    }
                }
            }
        }
    }
    (calls, results)
}

/// A run's end, whatever the model did: on an answer, [`answered_once_in_order`]; at the
/// round limit (a small model may call tools until then, which is the model's part), every
/// call of the history still answered once, in order; no other error.
pub fn settled(api: Api, conversation: &Conversation, outcome: &Result<RunOutcome, RunError>) {
    match outcome {
        Ok(outcome) => answered_once_in_order(api, conversation, outcome),
        Err(RunError::RoundLimit { rounds }) => {
            let (calls, results) = calls_and_results(api, conversation);
            assert_eq!(calls, results, "{api:?}: every call answered once, in order");
            println!("  {api:?}: still calling tools after {rounds} rounds ({} calls)", calls.len());
        }
        Err(error) => panic!("{api:?}: {error}"),
    }
}

/// Every call in `conversation` answered once, in order, and `outcome`'s records are those
/// calls; prints what the model did.
pub fn answered_once_in_order(api: Api, conversation: &Conversation, outcome: &RunOutcome) {
    let (calls, results) = calls_and_results(api, conversation);
    assert_eq!(calls, results, "{api:?}: every call answered once, in order");
    let recorded: Vec<&str> = outcome.tool_runs.iter().map(|run| run.call.id.as_str()).collect();
    assert_eq!(recorded, calls, "{api:?}: the run's records are the calls of the history");
    for run in &outcome.tool_runs {
        println!("  {api:?} {}({}) -> {}", run.call.name, run.call.arguments.to_text(), run.result.text());
    }
    println!("  {api:?} in {} round(s), stop {:?}: {}", outcome.rounds, outcome.stop, outcome.text);
}
