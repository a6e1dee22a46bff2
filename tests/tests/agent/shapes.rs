//! Each provider's documented response shapes through the loop: the history keeps the
//! assistant turn with its calls and the results in that provider's own form.

use serde_json::json;
use tool_core::agent::{Agent, Api, Conversation, ScriptedModel, StopReason};

use crate::fixture::registry;

#[tokio::test]
async fn anthropic_messages() {
    let model = ScriptedModel::new(
        Api::Anthropic,
        [
            json!({"id": "msg_01", "role": "assistant", "stop_reason": "tool_use",
                   "content": [{"type": "text", "text": "Resting."},
                               {"type": "tool_use", "id": "toolu_01", "name": "nap", "input": {"ms": 1}}],
                   "usage": {"input_tokens": 12, "output_tokens": 6}}),
            json!({"id": "msg_02", "role": "assistant", "stop_reason": "end_turn",
                   "content": [{"type": "text", "text": "Rested."}], "usage": {"input_tokens": 30, "output_tokens": 3}}),
        ],
    );
    let agent = Agent::new(model, registry());
    let mut conversation = Conversation::new(Api::Anthropic);
    let outcome = agent.run(&mut conversation, "rest").await.unwrap();
    assert_eq!((outcome.text.as_str(), outcome.usage.input_tokens), ("Rested.", 42));
    let items = conversation.items();
    assert_eq!(items[1]["content"][1]["type"], "tool_use");
    assert_eq!(
        items[2],
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "content": "slept 1 ms", "is_error": false}]})
    );
}

#[tokio::test]
async fn gemini_generate_content() {
    let model = ScriptedModel::new(
        Api::Gemini,
        [
            json!({"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": "nap", "args": {"ms": 2}}}]},
                                  "finishReason": "STOP"}],
                   "usageMetadata": {"promptTokenCount": 9, "candidatesTokenCount": 4}}),
            json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Done napping."}]}, "finishReason": "STOP"}]}),
        ],
    );
    let agent = Agent::new(model, registry());
    let mut conversation = Conversation::new(Api::Gemini);
    let outcome = agent.run(&mut conversation, "rest").await.unwrap();
    assert_eq!(outcome.text, "Done napping.");
    let items = conversation.items();
    assert_eq!(items[0], json!({"role": "user", "parts": [{"text": "rest"}]}));
    assert_eq!(items[1]["role"], "model");
    assert_eq!(
        items[2]["parts"][0]["functionResponse"]["id"], "gemini-call-0-nap",
        "a stable id when Gemini sends none"
    );
    assert_eq!(items[2]["parts"][0]["functionResponse"]["response"], json!({"output": "slept 2 ms"}));
}

#[tokio::test]
async fn openai_responses() {
    let model = ScriptedModel::new(
        Api::OpenAiResponses,
        [
            json!({"status": "completed", "output": [
                {"type": "function_call", "id": "fc_1", "call_id": "call_abc", "name": "nap", "arguments": "{\"ms\": 3}", "status": "completed"}
            ], "usage": {"input_tokens": 5, "output_tokens": 2}}),
            json!({"status": "completed", "output": [
                {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Awake."}]}
            ]}),
        ],
    );
    let agent = Agent::new(model, registry());
    let mut conversation = Conversation::new(Api::OpenAiResponses);
    let outcome = agent.run(&mut conversation, "rest").await.unwrap();
    assert_eq!(outcome.text, "Awake.");
    let items = conversation.items();
    assert_eq!(items[1]["type"], "function_call");
    assert_eq!(items[2], json!({"type": "function_call_output", "call_id": "call_abc", "output": "slept 3 ms"}));
}

#[test]
fn stop_reasons_are_read_from_each_shape() {
    let turn = Api::Anthropic.turn(&json!({"content": [], "stop_reason": "max_tokens"})).unwrap();
    assert_eq!(turn.stop, StopReason::MaxTokens);
    let turn = Api::OpenAiChat
        .turn(&json!({"choices": [{"message": {"content": "x"}, "finish_reason": "content_filter"}]}))
        .unwrap();
    assert_eq!(turn.stop, StopReason::Refusal);
    assert!(Api::Gemini.turn(&json!({"candidates": []})).is_err());
}
