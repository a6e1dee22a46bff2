//! The HTTP model clients against a local server replaying each provider's recorded
//! responses, whole and streamed: the requests they send, the turns they read, and every
//! failure typed (rate limits retried as asked, overloads retried, refusals and 500s not, a cut-off stream and
//! malformed JSON refused).

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tool_core::agent::clients::HttpModel;
use tool_core::agent::{Agent, Api, Conversation, Model, ModelError, ModelRequest, StopReason};
use tool_core::provider::Arguments;

use crate::fixture::registry;
use crate::replay::{Canned, Replay};

async fn respond(model: &HttpModel, tools: Option<&Value>) -> Result<tool_core::agent::ModelTurn, ModelError> {
    let history = [model.api().user("hi")];
    let mut request = ModelRequest::new(&history).with_system("be brief");
    if let Some(tools) = tools {
        request = request.with_tools(tools, None);
    }
    model.respond(request, &|_| {}).await
}

fn chat_answer() -> Value {
    json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": "Hello"}, "finish_reason": "stop"}],
           "usage": {"prompt_tokens": 3, "completion_tokens": 1}})
}

#[tokio::test]
async fn openai_chat_whole_and_streamed() {
    let stream = Canned::raw_sse(concat!(
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Let me \"}}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"check.\",\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"nap\",\"arguments\":\"{\\\"ms\\\"\"}}]}}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\": 5}\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\n",
        "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":4}}\n\n",
        "data: [DONE]\n\n",
    ));
    let replay = Replay::start([Canned::json(&chat_answer()), stream]).await;
    let whole =
        HttpModel::new(Api::OpenAiChat, format!("{}/v1", replay.url()), "gpt-test").api_key("sk-test").stream(false);
    let turn = respond(&whole, None).await.unwrap();
    assert_eq!((turn.text.as_str(), turn.stop), ("Hello", StopReason::EndTurn));

    let streamed = HttpModel::new(Api::OpenAiChat, format!("{}/v1", replay.url()), "gpt-test");
    let tools = Api::OpenAiChat.tools(&registry(), true);
    let turn = respond(&streamed, Some(&tools)).await.unwrap();
    assert_eq!(turn.text, "Let me check.");
    assert_eq!(turn.calls[0].arguments, Arguments::Text(r#"{"ms": 5}"#.to_owned().into()));
    assert_eq!((turn.stop, turn.usage.input_tokens), (StopReason::ToolUse, 9));
    assert_eq!(turn.items[0]["tool_calls"][0]["function"]["arguments"], r#"{"ms": 5}"#);

    let received = replay.received();
    assert_eq!(received[0].path, "/v1/chat/completions");
    assert_eq!(received[0].headers["authorization"], "Bearer sk-test");
    assert_eq!(received[0].body["messages"][0], json!({"role": "system", "content": "be brief"}));
    assert_eq!(received[1].body["stream"], true);
    assert_eq!(received[1].body["stream_options"], json!({"include_usage": true}));
    assert_eq!(received[1].body["tools"], tools);
}

#[tokio::test]
async fn anthropic_messages_streamed() {
    let events = [
        (
            Some("message_start"),
            json!({"type": "message_start", "message": {"id": "msg_1", "role": "assistant", "content": [], "usage": {"input_tokens": 25, "output_tokens": 1}}}),
        ),
        (
            Some("content_block_start"),
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        ),
        (
            Some("content_block_delta"),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Napping"}}),
        ),
        (Some("content_block_stop"), json!({"type": "content_block_stop", "index": 0})),
        (
            Some("content_block_start"),
            json!({"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "nap", "input": {}}}),
        ),
        (
            Some("content_block_delta"),
            json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\"ms\":"}}),
        ),
        (
            Some("content_block_delta"),
            json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": " 7}"}}),
        ),
        (Some("content_block_stop"), json!({"type": "content_block_stop", "index": 1})),
        (
            Some("message_delta"),
            json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 12}}),
        ),
        (Some("message_stop"), json!({"type": "message_stop"})),
    ];
    let replay = Replay::start([Canned::sse(&events)]).await;
    let model = HttpModel::new(Api::Anthropic, replay.url(), "claude-test").api_key("key-a");
    let texts = std::sync::Mutex::new(String::new());
    let history = [Api::Anthropic.user("hi")];
    let turn = model
        .respond(ModelRequest::new(&history), &|d| {
            if let tool_core::agent::Delta::Text(t) = d {
                texts.lock().unwrap().push_str(t);
            }
        })
        .await
        .unwrap();
    assert_eq!(*texts.lock().unwrap(), "Napping");
    assert_eq!(
        turn.items[0]["content"][1],
        json!({"type": "tool_use", "id": "toolu_1", "name": "nap", "input": {"ms": 7}})
    );
    assert_eq!((turn.stop, turn.usage.input_tokens, turn.usage.output_tokens), (StopReason::ToolUse, 25, 12));
    let received = &replay.received()[0];
    assert_eq!(received.path, "/v1/messages");
    assert_eq!(
        (&received.headers["x-api-key"], &received.headers["anthropic-version"]),
        (&"key-a".parse().unwrap(), &"2023-06-01".parse().unwrap())
    );
    assert_eq!(received.body["max_tokens"], 4096);
}

#[tokio::test]
async fn gemini_and_responses_streamed() {
    let gemini = Canned::sse(&[
        (None, json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Sure, "}]}}]})),
        (
            None,
            json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "napping."}, {"functionCall": {"name": "nap", "args": {"ms": 1}}}]}, "finishReason": "STOP"}],
                      "usageMetadata": {"promptTokenCount": 4, "candidatesTokenCount": 6}}),
        ),
    ]);
    let responses = Canned::sse(&[
        (Some("response.output_text.delta"), json!({"type": "response.output_text.delta", "delta": "Ok"})),
        (
            Some("response.completed"),
            json!({"type": "response.completed", "response": {"status": "completed", "output": [
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Ok"}]}
        ], "usage": {"input_tokens": 2, "output_tokens": 1}}}),
        ),
    ]);
    let replay = Replay::start([gemini, responses]).await;
    let turn = respond(&HttpModel::new(Api::Gemini, replay.url(), "gemini-test").api_key("g"), None).await.unwrap();
    assert_eq!(turn.text, "Sure, napping.");
    assert_eq!(turn.calls[0].name, "nap");
    assert_eq!(turn.items[0]["parts"].as_array().unwrap().len(), 2, "text pieces are joined");
    let turn = respond(&HttpModel::new(Api::OpenAiResponses, replay.url(), "o-test"), None).await.unwrap();
    assert_eq!((turn.text.as_str(), turn.usage.output_tokens), ("Ok", 1));
    let received = replay.received();
    assert_eq!(received[0].path, "/models/gemini-test:streamGenerateContent?alt=sse");
    assert_eq!(received[0].body["systemInstruction"], json!({"parts": [{"text": "be brief"}]}));
    assert_eq!(received[1].path, "/responses");
    assert_eq!(received[1].body["instructions"], "be brief");
}

#[tokio::test]
async fn rate_limits_and_overloads_are_retried_then_typed_and_refusals_are_not() {
    let replay = Replay::start([
        Canned::status(429, "slow down").header("retry-after", "0.05"),
        Canned::status(503, "busy"),
        Canned::json(&chat_answer()),
        Canned::status(429, "still too fast").header("retry-after", "0"),
        Canned::status(429, "still too fast").header("retry-after", "0"),
        Canned::status(400, "bad request"),
        Canned::status(500, "the prompt cannot be rendered"),
    ])
    .await;
    let model = HttpModel::new(Api::OpenAiChat, replay.url(), "m").stream(false).retries(2, Duration::from_secs(1));
    let started = Instant::now();
    assert_eq!(respond(&model, None).await.unwrap().text, "Hello");
    assert!(started.elapsed() >= Duration::from_millis(50), "it waited as asked");
    assert_eq!(replay.received().len(), 3);
    let limited =
        HttpModel::new(Api::OpenAiChat, replay.url(), "m").stream(false).retries(1, Duration::from_millis(10));
    assert!(matches!(respond(&limited, None).await.unwrap_err(), ModelError::RateLimited { retry_after: Some(_), .. }));
    let error = respond(&limited, None).await.unwrap_err();
    assert_eq!(
        error,
        ModelError::Http { status: Some(400), message: "bad request".to_owned() },
        "a client error is not retried"
    );
    let error = respond(&limited, None).await.unwrap_err();
    assert_eq!(
        error,
        ModelError::Http { status: Some(500), message: "the prompt cannot be rendered".to_owned() },
        "a 500 is the server refusing this request: the same request would get the same answer"
    );
    assert_eq!(replay.received().len(), 7);
}

#[tokio::test]
async fn a_cut_off_stream_and_malformed_json_are_errors() {
    let cut = Canned::raw_sse("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"}}]}\n\n");
    let replay = Replay::start([cut, Canned::raw_sse("data: {not json\n\n"), Canned::status(200, "<html>")]).await;
    let streamed = HttpModel::new(Api::OpenAiChat, replay.url(), "m").retries(0, Duration::ZERO);
    let error = respond(&streamed, None).await.unwrap_err();
    assert!(error.to_string().contains("the stream ended before the response was complete"), "{error}");
    assert!(matches!(respond(&streamed, None).await.unwrap_err(), ModelError::Malformed(_)));
    let whole = HttpModel::new(Api::OpenAiChat, replay.url(), "m").stream(false);
    assert!(matches!(respond(&whole, None).await.unwrap_err(), ModelError::Malformed(_)));
}

#[tokio::test]
async fn a_run_whose_stream_is_cut_off_keeps_what_the_model_had_written() {
    let events = concat!(
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Let me check \"}}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"both.\"}}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",",
        "\"type\":\"function\",\"function\":{\"name\":\"nap\",\"arguments\":\"{\\\"ms\\\": 5}\"}}]}}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"id\":\"call_2\",",
        "\"type\":\"function\",\"function\":{\"name\":\"nap\",\"arguments\":\"{\\\"ms\"}}]}}]}\n\n",
    );
    let replay = Replay::start([Canned::raw_sse(events)]).await;
    let model = HttpModel::new(Api::OpenAiChat, replay.url(), "m").retries(0, Duration::ZERO);
    let agent = Agent::new(model, registry());
    let mut conversation = Conversation::new(Api::OpenAiChat);
    let error = agent.run(&mut conversation, "nap twice").await.unwrap_err();
    let tool_core::agent::RunError::Model { error, partial } = error else { panic!("{error:?}") };
    assert!(error.to_string().contains("the stream ended before the response was complete"), "{error}");
    assert_eq!(partial.text, "Let me check both.");
    // The first call was closed by the second; the second was cut off mid-arguments.
    assert_eq!(partial.calls.len(), 1);
    assert_eq!(
        (partial.calls[0].id.as_str(), partial.calls[0].arguments.to_text().as_ref()),
        ("call_1", r#"{"ms": 5}"#)
    );
    assert_eq!(conversation.items().len(), 1, "a turn that failed is not in the history");
}

#[tokio::test]
async fn an_agent_runs_over_http() {
    let calls = json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": null, "tool_calls": [
        {"id": "call_9", "type": "function", "function": {"name": "nap", "arguments": "{\"ms\": 1}"}}]}, "finish_reason": "tool_calls"}]});
    let replay = Replay::start([Canned::json(&calls), Canned::json(&chat_answer())]).await;
    let model = HttpModel::new(Api::OpenAiChat, replay.url(), "m").stream(false);
    let agent = Agent::new(model, registry()).system("be brief");
    let outcome = agent.run(&mut Conversation::new(Api::OpenAiChat), "rest").await.unwrap();
    assert_eq!(outcome.text, "Hello");
    let second = &replay.received()[1].body["messages"];
    assert_eq!(second[3], json!({"role": "tool", "tool_call_id": "call_9", "content": "slept 1 ms"}));
}
