//! Tool calls streamed as they are written: each provider's recorded stream, read by the
//! HTTP client, hands on every call's id, name and argument text so far; the agent turns each
//! into `Event::ToolCallDelta` with the arguments so far as a value; a stream cut mid-argument
//! shows what was written and ends the run with an error, never a call.

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tool_core::agent::clients::HttpModel;
use tool_core::agent::{Agent, Api, Conversation, Event, RunError};

use crate::fixture::registry;
use crate::replay::{Canned, Replay};

/// Runs `api`'s client against `stream`; the tool-call events of the first turn and how the
/// run ended.
async fn run(
    api: Api,
    stream: Canned,
    then: Option<Canned>,
) -> (Vec<(usize, String, String, String, Option<Value>)>, Result<String, RunError>) {
    let replay = Replay::start([stream].into_iter().chain(then)).await;
    let base = if api == Api::Anthropic { replay.url() } else { format!("{}/v1", replay.url()) };
    let model = HttpModel::new(api, base, "m").api_key("k").retries(0, std::time::Duration::ZERO);
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let agent = Agent::new(model, registry()).on_event(move |event| {
        if let Event::ToolCallDelta { index, id, name, arguments, partial } = event {
            sink.lock().unwrap().push((*index, id.clone(), name.clone(), arguments.clone(), partial.clone()));
        }
    });
    let outcome = agent.run(&mut Conversation::new(api), "nap").await.map(|outcome| outcome.text);
    let events = events.lock().unwrap().clone();
    (events, outcome)
}

fn answer(api: Api) -> Canned {
    let text = |text: &str| match api {
        Api::OpenAiChat => Canned::raw_sse(&format!(
            "data: {}\n\ndata: {}\n\ndata: [DONE]\n\n",
            json!({"choices": [{"index": 0, "delta": {"role": "assistant", "content": text}}]}),
            json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
        )),
        Api::Anthropic => Canned::sse(&[
            (Some("message_start"), json!({"type": "message_start", "message": {"usage": {"input_tokens": 1}}})),
            (
                Some("content_block_start"),
                json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
            ),
            (
                Some("content_block_delta"),
                json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}}),
            ),
            (
                Some("message_delta"),
                json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 1}}),
            ),
            (Some("message_stop"), json!({"type": "message_stop"})),
        ]),
        Api::OpenAiResponses => Canned::sse(&[(
            None,
            json!({"type": "response.completed", "response": {"status": "completed",
            "output": [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]}]}}),
        )]),
        _ => Canned::sse(&[(
            None,
            json!({"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP"}]}),
        )]),
    };
    text("rested")
}

/// The call `nap({"ms": 5})`, its arguments in two pieces where the API streams them.
fn call_stream(api: Api, cut: bool) -> Canned {
    match api {
        Api::OpenAiChat => {
            let mut events = vec![
                json!({"choices": [{"index": 0, "delta": {"role": "assistant", "tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {"name": "nap", "arguments": "{\"ms\""}}]}}]}),
                json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": ": 5"}}]}}]}),
            ];
            if !cut {
                events.push(json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "}"}}]}, "finish_reason": "tool_calls"}]}));
            }
            let mut body: Vec<String> = events.iter().map(|event| format!("data: {event}\n\n")).collect();
            if !cut {
                body.push("data: [DONE]\n\n".to_owned());
            }
            Canned::raw_sse(&body.concat())
        }
        Api::Anthropic => {
            let mut events = vec![
                (Some("message_start"), json!({"type": "message_start", "message": {"usage": {"input_tokens": 1}}})),
                (
                    Some("content_block_start"),
                    json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "nap", "input": {}}}),
                ),
                (
                    Some("content_block_delta"),
                    json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\"ms\""}}),
                ),
                (
                    Some("content_block_delta"),
                    json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": ": 5"}}),
                ),
            ];
            if !cut {
                events.extend([
                    (Some("content_block_delta"), json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "}"}})),
                    (Some("content_block_stop"), json!({"type": "content_block_stop", "index": 0})),
                    (Some("message_delta"), json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 1}})),
                    (Some("message_stop"), json!({"type": "message_stop"})),
                ]);
            }
            Canned::sse(&events)
        }
        Api::OpenAiResponses => {
            let mut events = vec![
                (
                    None,
                    json!({"type": "response.output_item.added", "output_index": 0, "item": {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "nap", "arguments": ""}}),
                ),
                (
                    None,
                    json!({"type": "response.function_call_arguments.delta", "output_index": 0, "item_id": "fc_1", "delta": "{\"ms\""}),
                ),
                (
                    None,
                    json!({"type": "response.function_call_arguments.delta", "output_index": 0, "item_id": "fc_1", "delta": ": 5"}),
                ),
            ];
            if !cut {
                events.extend([
                    (None, json!({"type": "response.function_call_arguments.delta", "output_index": 0, "item_id": "fc_1", "delta": "}"})),
                    (None, json!({"type": "response.completed", "response": {"status": "completed", "output": [
                        {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "nap", "arguments": "{\"ms\": 5}", "status": "completed"}]}})),
                ]);
            }
            Canned::sse(&events)
        }
        // Gemini sends a call whole, in one event; cut, the stream ends before it.
        _ => Canned::sse(&if cut {
            vec![(None, json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Let me nap"}]}}]}))]
        } else {
            vec![(
                None,
                json!({"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": "nap", "args": {"ms": 5}}}]}, "finishReason": "STOP"}]}),
            )]
        }),
    }
}

#[tokio::test]
async fn every_provider_streams_its_calls_as_they_are_written() {
    for (api, id) in [
        (Api::OpenAiChat, "call_1"),
        (Api::Anthropic, "toolu_1"),
        (Api::OpenAiResponses, "call_1"),
        (Api::Gemini, "gemini-call-0-nap"),
    ] {
        let (deltas, outcome) = run(api, call_stream(api, false), Some(answer(api))).await;
        assert_eq!(outcome.as_deref(), Ok("rested"), "{api:?}");
        let last = deltas.last().unwrap_or_else(|| panic!("{api:?}: no call was streamed"));
        assert_eq!((last.0, last.1.as_str(), last.2.as_str()), (0, id, "nap"), "{api:?}");
        assert_eq!(last.4, Some(json!({"ms": 5})), "{api:?}: {deltas:?}");
        // Where the API streams arguments, they grow piece by piece.
        let texts: Vec<&str> = deltas.iter().map(|delta| delta.3.as_str()).collect();
        if api != Api::Gemini {
            assert!(texts.contains(&"{\"ms\": 5"), "{api:?}: {texts:?}");
            assert!(texts.windows(2).all(|pair| pair[1].starts_with(pair[0])), "{api:?}: {texts:?}");
        }
    }
}

#[tokio::test]
async fn a_stream_cut_mid_argument_shows_what_was_written_and_calls_nothing() {
    for api in [Api::OpenAiChat, Api::Anthropic, Api::OpenAiResponses] {
        let (deltas, outcome) = run(api, call_stream(api, true), None).await;
        let error = outcome.unwrap_err();
        assert!(error.to_string().contains("the stream ended before the response was complete"), "{api:?}: {error}");
        let last = deltas.last().unwrap_or_else(|| panic!("{api:?}: nothing was streamed"));
        // The text stops mid-object; the best-effort value closes it.
        assert_eq!(last.3, "{\"ms\": 5", "{api:?}");
        assert_eq!(last.4, Some(json!({"ms": 5})), "{api:?}");
    }
    // Gemini writes a call whole: cut before it, nothing of it was streamed.
    let (deltas, outcome) = run(Api::Gemini, call_stream(Api::Gemini, true), None).await;
    assert!(deltas.is_empty() && outcome.is_err(), "{deltas:?} {outcome:?}");
}

/// Every subscriber gets every event, in the order they were added; a turn's reasoning comes
/// as `Event::Reasoning`, apart from its answer.
#[tokio::test]
async fn several_subscribers_each_hear_the_reasoning_and_every_event() {
    use tool_core::agent::ScriptedModel;
    let response = json!({"stop_reason": "end_turn", "content": [
        {"type": "thinking", "thinking": "The user greets me.", "signature": "sig=="},
        {"type": "text", "text": "Hello!"}]});
    let heard: Arc<Mutex<Vec<(u8, String)>>> = Arc::default();
    let (first, second) = (Arc::clone(&heard), Arc::clone(&heard));
    let name = |event: &Event| match event {
        Event::Reasoning { round, text } => format!("reasoning {round}: {text}"),
        Event::RunFinished { .. } => "finished".to_owned(),
        _ => "other".to_owned(),
    };
    let agent = Agent::new(ScriptedModel::new(Api::Anthropic, [response]), tool_core::Registry::new())
        .on_event(move |event| first.lock().unwrap().push((1, name(event))))
        .on_event(move |event| second.lock().unwrap().push((2, name(event))));
    let outcome = agent.run(&mut Conversation::new(Api::Anthropic), "hi").await.unwrap();
    assert_eq!(outcome.text, "Hello!");
    let heard = heard.lock().unwrap().clone();
    let of = |who: u8| heard.iter().filter(|(by, _)| *by == who).map(|(_, what)| what.clone()).collect::<Vec<_>>();
    assert_eq!(of(1), of(2), "both hear everything");
    assert!(of(1).contains(&"reasoning 1: The user greets me.".to_owned()), "{heard:?}");
    // In the order they were added, event by event.
    assert!(heard.chunks(2).all(|pair| pair[0].0 == 1 && pair[1].0 == 2 && pair[0].1 == pair[1].1), "{heard:?}");
}
