//! Real replies of `llama.cpp`'s server (Qwen2.5-Coder-1.5B-Instruct behind `llama-server`,
//! recorded by `tests/llm/` on 2026-11-26) read by every API's parser and stream reader. They
//! differ from the hosted APIs' recordings: `content: ""` beside `tool_calls`, ids without
//! `call_`/`toolu_` prefixes, pretty-printed argument JSON, a Responses stream without
//! `response.function_call_arguments.done`, `sequence_number` or `output_index`, a Messages
//! id in Chat's `chatcmpl-` form.

use serde_json::{Value, json};
use tool_core::provider::{Api, Delta, ModelTurn, StopReason};

/// A recorded file.
fn recorded(name: &str) -> String {
    let path = format!("{}/tests/providers/llama_server/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"))
}

/// A recorded whole response, read as `api`'s turn.
fn whole(api: Api, name: &str) -> ModelTurn {
    let response: Value = serde_json::from_str(&recorded(name)).unwrap();
    api.turn(&response).unwrap()
}

/// A recorded stream, fed to `api`'s reader event by event: the turn, and the tool-call
/// deltas it reported (index, name so far, arguments so far).
fn streamed(api: Api, name: &str) -> (ModelTurn, CallDeltas) {
    let (turn, deltas, _) = streamed_and_closed(api, name);
    (turn, deltas)
}

/// Tool-call deltas: (index, name so far, arguments so far).
type CallDeltas = Vec<(usize, String, String)>;

/// [`streamed`], and where each call was closed: (its index, the number of the event that
/// closed it, the number of events).
fn streamed_and_closed(api: Api, name: &str) -> (ModelTurn, CallDeltas, Vec<(usize, usize, usize)>) {
    let mut reader = api.stream();
    let mut deltas = Vec::new();
    let mut closed = Vec::new();
    let text = recorded(name);
    let events: Vec<&str> = text.split("\n\n").collect();
    let count = events.iter().filter(|event| event.lines().any(|line| line.starts_with("data: "))).count();
    let mut at = 0;
    for event in events {
        let data: Vec<&str> = event.lines().filter_map(|line| line.strip_prefix("data: ")).collect();
        if data.is_empty() {
            continue;
        }
        reader
            .push(&data.join("\n"), &mut |delta| match delta {
                Delta::ToolCall { index, name, arguments, .. } => {
                    deltas.push((index, name.to_owned(), arguments.to_owned()));
                }
                Delta::ToolCallDone { index, .. } => closed.push((index, at, count)),
                _ => {}
            })
            .unwrap();
        at += 1;
    }
    (reader.finish().unwrap(), deltas, closed)
}

/// The turn's calls as (name, arguments parsed).
fn calls(turn: &ModelTurn) -> Vec<(String, Value)> {
    turn.calls
        .iter()
        .map(|call| (call.name.clone(), serde_json::from_str(&call.arguments.to_text()).unwrap()))
        .collect()
}

fn paris() -> Vec<(String, Value)> {
    vec![("get_weather".to_owned(), json!({"city": "Paris", "days": 3}))]
}

#[test]
fn chat_completions_whole_and_streamed() {
    let turn = whole(Api::OpenAiChat, "01-chat-tools.response.json");
    assert_eq!((calls(&turn), &turn.stop, turn.text.as_str()), (paris(), &StopReason::ToolUse, ""));
    assert_eq!(turn.calls[0].id.len(), 32, "an id without the call_ prefix is kept as it is");
    assert_eq!((turn.usage.input_tokens, turn.usage.output_tokens), (286, 37));

    let (turn, deltas) = streamed(Api::OpenAiChat, "02-chat-tools-stream.sse.txt");
    assert_eq!((calls(&turn), turn.stop), (paris(), StopReason::ToolUse));
    assert!(deltas.len() > 5 && deltas.iter().all(|(index, name, _)| *index == 0 && name == "get_weather"));
    assert_eq!(deltas.last().unwrap().2, "{\n    \"city\": \"Paris\",\n    \"days\": 3\n  }");

    let (turn, _) = streamed(Api::OpenAiChat, "04b-parallel-stream.sse.txt");
    let whole_parallel = whole(Api::OpenAiChat, "04-parallel.response.json");
    for turn in [turn, whole_parallel] {
        let ids: Vec<&str> = turn.calls.iter().map(|call| call.id.as_str()).collect();
        assert_eq!(ids.len(), 2, "two parallel calls: {ids:?}");
        assert_ne!(ids[0], ids[1]);
    }
    // The first call is closed as the second starts, well before the stream ends; the
    // second at `finish_reason`, the event before `[DONE]`.
    let (_, _, closed) = streamed_and_closed(Api::OpenAiChat, "04b-parallel-stream.sse.txt");
    let count = closed[0].2;
    assert_eq!(closed, [(0, 13, count), (1, count - 2, count)]);
    let answer = whole(Api::OpenAiChat, "03-roundtrip.turn2.response.json");
    assert!(answer.calls.is_empty() && !answer.text.is_empty() && answer.stop == StopReason::EndTurn);
}

#[test]
fn responses_whole_and_streamed_without_the_done_events() {
    let turn = whole(Api::OpenAiResponses, "07-responses.response.json");
    assert_eq!((calls(&turn), turn.stop), (paris(), StopReason::ToolUse));
    let (turn, deltas) = streamed(Api::OpenAiResponses, "07b-responses-stream.sse.txt");
    assert_eq!((calls(&turn), turn.stop), (paris(), StopReason::ToolUse));
    assert!(turn.calls[0].id.starts_with("call_"), "the call_id, not the item id: {}", turn.calls[0].id);
    assert!(!deltas.is_empty());
    // Closed by `response.output_item.done`, the event before `response.completed`.
    let (_, _, closed) = streamed_and_closed(Api::OpenAiResponses, "07b-responses-stream.sse.txt");
    assert_eq!(closed, [(0, closed[0].2 - 2, closed[0].2)]);
}

#[test]
fn anthropic_messages_whole_and_streamed() {
    let turn = whole(Api::Anthropic, "08-messages.response.json");
    assert_eq!((calls(&turn), turn.stop), (paris(), StopReason::ToolUse));
    let (turn, deltas) = streamed(Api::Anthropic, "08b-messages-stream.sse.txt");
    assert_eq!((calls(&turn), turn.stop), (paris(), StopReason::ToolUse));
    assert_eq!(turn.items[0]["content"][0]["input"], json!({"city": "Paris", "days": 3}), "kept as an object");
    assert!(!deltas.is_empty());
    // Closed by `content_block_stop`, before `message_delta` and `message_stop`.
    let (_, _, closed) = streamed_and_closed(Api::Anthropic, "08b-messages-stream.sse.txt");
    assert_eq!(closed, [(0, closed[0].2 - 3, closed[0].2)]);
    let answer = whole(Api::Anthropic, "08c-messages-turn2.response.json");
    assert!(answer.calls.is_empty() && !answer.text.is_empty() && answer.stop == StopReason::EndTurn);
}
