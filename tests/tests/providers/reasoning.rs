//! The model's reasoning on each API, whole and streamed: it is the turn's `reasoning`, never
//! its text; a stream hands it on as `Delta::Reasoning`; and what the history keeps is what
//! the API takes back (Anthropic's thinking block with its signature, Chat Completions'
//! message without `reasoning_content`, Gemini's thought part apart from its answer).

use serde_json::{Value, json};
use tool_core::provider::{Api, Delta, ModelTurn};

/// Reasoning "Think." then the answer "Hi", as each API sends it whole and streamed.
fn whole_and_streamed(api: Api) -> (Value, Vec<Value>) {
    match api {
        Api::OpenAiChat => (
            json!({"choices": [{"index": 0, "finish_reason": "stop",
                "message": {"role": "assistant", "content": "Hi", "reasoning_content": "Think."}}]}),
            vec![
                json!({"choices": [{"index": 0, "delta": {"role": "assistant", "reasoning_content": "Thi"}}]}),
                json!({"choices": [{"index": 0, "delta": {"reasoning_content": "nk."}}]}),
                json!({"choices": [{"index": 0, "delta": {"content": "Hi"}}]}),
                json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
                json!("[DONE]"),
            ],
        ),
        Api::OpenAiResponses => {
            let whole = json!({"status": "completed", "output": [
                {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Think."}]},
                {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Hi"}]}]});
            let streamed = vec![
                json!({"type": "response.reasoning_summary_text.delta", "delta": "Thi"}),
                json!({"type": "response.reasoning_summary_text.delta", "delta": "nk."}),
                json!({"type": "response.output_text.delta", "delta": "Hi"}),
                json!({"type": "response.completed", "response": whole.clone()}),
            ];
            (whole, streamed)
        }
        Api::Anthropic => (
            json!({"stop_reason": "end_turn", "content": [
                {"type": "thinking", "thinking": "Think.", "signature": "sig=="},
                {"type": "text", "text": "Hi"}]}),
            vec![
                json!({"type": "message_start", "message": {"usage": {"input_tokens": 5, "output_tokens": 1}}}),
                json!({"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": ""}}),
                json!({"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "Thi"}}),
                json!({"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "nk."}}),
                json!({"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "sig=="}}),
                json!({"type": "content_block_stop", "index": 0}),
                json!({"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}}),
                json!({"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "Hi"}}),
                json!({"type": "content_block_stop", "index": 1}),
                json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 7}}),
                json!({"type": "message_stop"}),
            ],
        ),
        Api::Gemini => (
            json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model",
                "parts": [{"text": "Think.", "thought": true}, {"text": "Hi"}]}}]}),
            vec![
                json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Thi", "thought": true}]}}]}),
                json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "nk.", "thought": true}]}}]}),
                json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Hi"}]}, "finishReason": "STOP"}]}),
            ],
        ),
        _ => unreachable!("the four APIs"),
    }
}

const APIS: [Api; 4] = [Api::OpenAiChat, Api::OpenAiResponses, Api::Anthropic, Api::Gemini];

/// Folds `events` through `api`'s stream reader: the turn and the deltas, as (kind, text).
fn streamed(api: Api, events: &[Value]) -> (ModelTurn, Vec<(&'static str, String)>) {
    let mut reader = api.stream();
    let mut deltas = Vec::new();
    for event in events {
        let data = match event {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        reader
            .push(&data, &mut |delta| match delta {
                Delta::Reasoning(text) => deltas.push(("reasoning", text.to_owned())),
                Delta::Text(text) => deltas.push(("text", text.to_owned())),
                _ => {}
            })
            .unwrap_or_else(|error| panic!("{api:?}: {error}"));
    }
    (reader.finish().unwrap_or_else(|error| panic!("{api:?}: {error}")), deltas)
}

#[test]
fn each_api_keeps_reasoning_apart_from_the_answer_whole_and_streamed() {
    for api in APIS {
        let (whole, events) = whole_and_streamed(api);
        let turn = api.turn(&whole).unwrap_or_else(|error| panic!("{api:?}: {error}"));
        assert_eq!((turn.reasoning.as_str(), turn.text.as_str()), ("Think.", "Hi"), "{api:?} whole");
        let (folded, deltas) = streamed(api, &events);
        assert_eq!((folded.reasoning.as_str(), folded.text.as_str()), ("Think.", "Hi"), "{api:?} streamed");
        let reasoned: String =
            deltas.iter().filter(|(kind, _)| *kind == "reasoning").map(|(_, text)| text.as_str()).collect();
        assert_eq!(reasoned, "Think.", "{api:?}: the deltas add up");
        assert!(deltas.iter().all(|(kind, text)| *kind == "reasoning" || text == "Hi"), "{api:?}: {deltas:?}");
    }
}

#[test]
fn the_history_keeps_what_each_api_takes_back() {
    // Anthropic: the thinking block whole, signature included (a turn after tool use needs it).
    let (_, events) = whole_and_streamed(Api::Anthropic);
    let (turn, _) = streamed(Api::Anthropic, &events);
    assert_eq!(turn.items[0]["content"][0], json!({"type": "thinking", "thinking": "Think.", "signature": "sig=="}));
    // Chat Completions: no `reasoning_content` back (DeepSeek refuses it), whole or streamed.
    let (whole, events) = whole_and_streamed(Api::OpenAiChat);
    assert_eq!(Api::OpenAiChat.turn(&whole).unwrap().items[0].get("reasoning_content"), None);
    assert_eq!(streamed(Api::OpenAiChat, &events).0.items[0].get("reasoning_content"), None);
    // Gemini: the thought part and the answer part stay two parts.
    let (_, events) = whole_and_streamed(Api::Gemini);
    let parts = streamed(Api::Gemini, &events).0.items[0]["parts"].clone();
    assert_eq!(parts, json!([{"text": "Think.", "thought": true}, {"text": "Hi"}]));
}
