//! Every API's stream reader against the whole response it stands for: folding a stream
//! gives the turn [`Api::turn`] reads from the unstreamed response, the deltas handed on
//! add up to that turn, and a stream cut short, or an event missing what the format
//! requires, is an error, never half a turn.

use std::collections::BTreeMap;

use serde_json::{Value, json};
use tool_core::provider::{Api, Arguments, Delta, ModelTurn, StreamReader, anthropic, openai};

/// A text, then `get_weather({"city":"Oslo"})` and `get_time({"zone":"UTC"})`, as each API
/// sends it whole and streamed (the weather call's arguments in two pieces, interleaved with
/// the other call where the API streams arguments).
fn whole_and_streamed(api: Api) -> (Value, Vec<Value>) {
    match api {
        Api::OpenAiChat => (
            json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": "Hi there", "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Oslo\"}"}},
                {"id": "c2", "type": "function", "function": {"name": "get_time", "arguments": "{\"zone\":\"UTC\"}"}}]},
                "finish_reason": "tool_calls"}], "usage": {"prompt_tokens": 5, "completion_tokens": 7}}),
            vec![
                json!({"choices": [{"index": 0, "delta": {"role": "assistant", "content": "Hi"}}]}),
                json!({"choices": [{"index": 0, "delta": {"content": " there"}}]}),
                json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":"}}]}}]}),
                json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 1, "id": "c2", "type": "function", "function": {"name": "get_time", "arguments": "{\"zone\":\"UTC\"}"}}]}}]}),
                json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "\"Oslo\"}"}}]}}]}),
                json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
                json!({"choices": [], "usage": {"prompt_tokens": 5, "completion_tokens": 7}}),
                json!("[DONE]"),
            ],
        ),
        Api::Anthropic => (
            json!({"content": [{"type": "text", "text": "Hi there"},
                {"type": "tool_use", "id": "t1", "name": "get_weather", "input": {"city": "Oslo"}},
                {"type": "tool_use", "id": "t2", "name": "get_time", "input": {"zone": "UTC"}}],
                "stop_reason": "tool_use", "usage": {"input_tokens": 5, "output_tokens": 7}}),
            vec![
                json!({"type": "message_start", "message": {"usage": {"input_tokens": 5, "output_tokens": 1}}}),
                json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
                json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}}),
                json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": " there"}}),
                json!({"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "t1", "name": "get_weather", "input": {}}}),
                json!({"type": "content_block_start", "index": 2, "content_block": {"type": "tool_use", "id": "t2", "name": "get_time", "input": {}}}),
                json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\"city\":"}}),
                json!({"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta", "partial_json": "{\"zone\":\"UTC\"}"}}),
                json!({"type": "content_block_stop", "index": 0}),
                json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "\"Oslo\"}"}}),
                json!({"type": "content_block_stop", "index": 1}),
                json!({"type": "content_block_stop", "index": 2}),
                json!({"type": "ping"}),
                json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 7}}),
                json!({"type": "message_stop"}),
            ],
        ),
        Api::OpenAiResponses => {
            let whole = json!({"status": "completed", "output": [
                {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Hi there"}]},
                {"type": "function_call", "call_id": "c1", "name": "get_weather", "arguments": "{\"city\":\"Oslo\"}"},
                {"type": "function_call", "call_id": "c2", "name": "get_time", "arguments": "{\"zone\":\"UTC\"}"}],
                "usage": {"input_tokens": 5, "output_tokens": 7}});
            let streamed = vec![
                json!({"type": "response.output_text.delta", "output_index": 0, "delta": "Hi"}),
                json!({"type": "response.output_text.delta", "output_index": 0, "delta": " there"}),
                json!({"type": "response.output_item.added", "output_index": 1, "item": {"type": "function_call", "call_id": "c1", "name": "get_weather", "arguments": ""}}),
                json!({"type": "response.output_item.added", "output_index": 2, "item": {"type": "function_call", "call_id": "c2", "name": "get_time", "arguments": ""}}),
                json!({"type": "response.function_call_arguments.delta", "output_index": 1, "delta": "{\"city\":"}),
                json!({"type": "response.function_call_arguments.delta", "output_index": 2, "delta": "{\"zone\":\"UTC\"}"}),
                json!({"type": "response.function_call_arguments.delta", "output_index": 1, "delta": "\"Oslo\"}"}),
                json!({"type": "response.output_item.done", "output_index": 1, "item": whole["output"][1]}),
                json!({"type": "response.output_item.done", "output_index": 2, "item": whole["output"][2]}),
                json!({"type": "response.completed", "response": whole}),
            ];
            (whole, streamed)
        }
        _ => (
            json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Hi there"},
                {"functionCall": {"name": "get_weather", "args": {"city": "Oslo"}}},
                {"functionCall": {"id": "g2", "name": "get_time", "args": {"zone": "UTC"}}}]}, "finishReason": "STOP"}],
                "usageMetadata": {"promptTokenCount": 5, "candidatesTokenCount": 7}}),
            vec![
                json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Hi"}]}}], "usageMetadata": {"promptTokenCount": 5}}),
                json!({"candidates": [{"content": {"role": "model", "parts": [{"text": " there"}]}}]}),
                json!({"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": "get_weather", "args": {"city": "Oslo"}}}]}}]}),
                json!({"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"id": "g2", "name": "get_time", "args": {"zone": "UTC"}}}]}, "finishReason": "STOP"}],
                    "usageMetadata": {"promptTokenCount": 5, "candidatesTokenCount": 7}}),
            ],
        ),
    }
}

/// An event's `data` as a server sends it.
fn data(event: &Value) -> String {
    event.as_str().map_or_else(|| event.to_string(), str::to_owned)
}

fn value_of(arguments: &Arguments<'_>) -> Value {
    match arguments {
        Arguments::Text(text) => serde_json::from_str(text).expect("whole arguments are JSON"),
        Arguments::Value(value) => value.clone(),
        other => panic!("arguments of an unknown shape: {other:?}"),
    }
}

#[test]
fn every_api_folds_its_stream_into_the_turn_of_its_whole_response() {
    for api in Api::ALL {
        let (whole, events) = whole_and_streamed(api);
        let expected = api.turn(&whole).expect("documented shape");
        let mut reader = api.stream();
        let mut text = String::new();
        let mut calls: BTreeMap<usize, (String, String, String)> = BTreeMap::new();
        for event in &events {
            reader
                .push(&data(event), &mut |delta| match delta {
                    Delta::Text(more) => text.push_str(more),
                    Delta::ToolCall { index, id, name, arguments } => {
                        calls.insert(index, (id.to_owned(), name.to_owned(), arguments.to_owned()));
                    }
                    _ => {}
                })
                .unwrap_or_else(|error| panic!("{api:?}: {error}"));
        }
        let turn = reader.finish().unwrap_or_else(|error| panic!("{api:?}: {error}"));
        assert_eq!(turn, expected, "{api:?}");
        assert_eq!(turn.text, "Hi there", "{api:?}");
        assert_eq!((turn.usage.input_tokens, turn.usage.output_tokens), (5, 7), "{api:?}");
        // The deltas handed on add up to the turn: its text, and each call as it ended.
        assert_eq!(text, turn.text, "{api:?}");
        assert_eq!(calls.len(), 2, "{api:?}");
        for (index, call) in turn.calls.iter().enumerate() {
            let (id, name, arguments) = &calls[&index];
            assert_eq!((id, name), (&call.id, &call.name), "{api:?}");
            let handed: Value = serde_json::from_str(arguments).expect("whole arguments are JSON");
            assert_eq!(handed, value_of(&call.arguments), "{api:?}");
        }
        // The reader is empty afterwards: finishing again is an unfinished stream.
        assert!(reader.finish().is_err(), "{api:?}");
    }
}

#[test]
fn a_stream_cut_before_its_last_event_is_an_error_for_every_api() {
    for api in Api::ALL {
        let (_, events) = whole_and_streamed(api);
        let mut reader = api.stream();
        for event in &events[..events.len() - 1] {
            reader.push(&data(event), &mut |_| {}).expect("documented shape");
        }
        let error = reader.finish().expect_err("cut short");
        assert!(error.to_string().contains("the stream ended before the response was complete"), "{api:?}: {error}");
    }
}

#[test]
fn a_chat_fragment_without_index_starts_a_call_with_its_id_and_continues_the_last_without() {
    // Some compatible servers send each call whole and leave out `index`.
    let events = [
        json!({"choices": [{"delta": {"tool_calls": [{"id": "a", "function": {"name": "one", "arguments": "{\"x\":"}}]}}]}),
        json!({"choices": [{"delta": {"tool_calls": [{"function": {"arguments": "1}"}}]}}]}),
        json!({"choices": [{"delta": {"tool_calls": [{"id": "b", "function": {"name": "two", "arguments": "{}"}}]}}]}),
        json!({"choices": [{"delta": {}, "finish_reason": "tool_calls"}]}),
    ];
    let mut reader = openai::ChatStream::new();
    for event in &events {
        reader.push(&event.to_string(), &mut |_| {}).expect("read");
    }
    reader.push("[DONE]", &mut |_| {}).expect("read");
    let turn = reader.finish().expect("whole");
    let calls: Vec<(&str, &str, Value)> =
        turn.calls.iter().map(|c| (c.id.as_str(), c.name.as_str(), value_of(&c.arguments))).collect();
    assert_eq!(calls, [("a", "one", json!({"x": 1})), ("b", "two", json!({}))]);
}

#[test]
fn an_anthropic_block_event_without_index_or_an_error_event_fails_the_turn() {
    let mut reader = anthropic::MessageStream::new();
    let event = json!({"type": "content_block_delta", "delta": {"type": "text_delta", "text": "x"}});
    let error = reader.push(&event.to_string(), &mut |_| {}).expect_err("no index");
    assert!(error.to_string().contains("a content block event has no index"), "{error}");
    let event = json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}});
    let error = reader.push(&event.to_string(), &mut |_| {}).expect_err("an error event");
    assert!(error.to_string().contains("overloaded_error"), "{error}");
    let error = reader.push("{not json", &mut |_| {}).expect_err("not JSON");
    assert!(error.to_string().contains("an event is not JSON"), "{error}");
}

#[test]
fn long_texts_fold_whole_in_every_api() {
    // 20,000 pieces: each reader appends, so the turn holds every piece once, in order.
    let pieces: Vec<String> = (0..20_000).map(|i| format!("{} ", i % 10)).collect();
    let expected: String = pieces.concat();
    let event = |api: Api, piece: &str| match api {
        Api::OpenAiChat => json!({"choices": [{"index": 0, "delta": {"content": piece}}]}),
        Api::Anthropic => {
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": piece}})
        }
        _ => json!({"candidates": [{"content": {"parts": [{"text": piece}]}}]}),
    };
    for api in [Api::OpenAiChat, Api::Anthropic, Api::Gemini] {
        let mut reader = api.stream();
        let mut handed = 0;
        if api == Api::Anthropic {
            let start =
                json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}});
            reader.push(&start.to_string(), &mut |_| {}).expect("read");
        }
        for piece in &pieces {
            reader.push(&event(api, piece).to_string(), &mut |_| handed += 1).expect("read");
        }
        let last = match api {
            Api::OpenAiChat => json!("[DONE]"),
            Api::Anthropic => json!({"type": "message_stop"}),
            _ => json!({"candidates": [{"content": {"parts": []}, "finishReason": "STOP"}]}),
        };
        reader.push(&data(&last), &mut |_| {}).expect("read");
        let turn: ModelTurn = reader.finish().expect("whole");
        assert_eq!(turn.text, expected, "{api:?}");
        assert_eq!(handed, pieces.len(), "{api:?}");
    }
}

#[test]
fn every_api_closes_each_call_once_with_its_whole_arguments_before_the_stream_ends() {
    for api in Api::ALL {
        let (_, events) = whole_and_streamed(api);
        let mut reader = api.stream();
        // (the event that closed it, its index, id, name, arguments)
        let mut closed: Vec<(usize, usize, String, String, String)> = Vec::new();
        for (at, event) in events.iter().enumerate() {
            reader
                .push(&data(event), &mut |delta| {
                    if let Delta::ToolCallDone { index, id, name, arguments } = delta {
                        closed.push((at, index, id.to_owned(), name.to_owned(), arguments.to_owned()));
                    }
                })
                .unwrap_or_else(|error| panic!("{api:?}: {error}"));
        }
        let turn = reader.finish().unwrap();
        let indices: Vec<usize> = closed.iter().map(|closed| closed.1).collect();
        assert_eq!(indices, [0, 1], "{api:?}: each call once, in call order");
        assert!(closed[0].0 < events.len() - 1, "{api:?}: the first call closed before the stream's last event");
        for ((_, _, id, name, arguments), call) in closed.iter().zip(&turn.calls) {
            assert_eq!((id, name), (&call.id, &call.name), "{api:?}");
            let whole: Value = serde_json::from_str(arguments).expect("whole arguments");
            assert_eq!(whole, value_of(&call.arguments), "{api:?}");
        }
    }
}

#[test]
fn a_chat_call_stays_open_while_its_text_is_not_json_and_the_last_of_a_cut_turn_stays_open() {
    let chunk = |index: u64, id: &str, arguments: &str| {
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": index, "id": id,
            "function": {"name": if id.is_empty() { "" } else { "nap" }, "arguments": arguments}}]}}]})
    };
    let finish = |reason: &str| json!({"choices": [{"index": 0, "delta": {}, "finish_reason": reason}]});
    // Cut at the output limit, the last call stays open however its text reads.
    for (reason, expected) in [("tool_calls", vec![0, 1, 2]), ("length", vec![0, 1])] {
        let events = [
            chunk(0, "a", "{\"ms\": 1}"),
            // The first call is whole when the second starts: closed then.
            chunk(1, "b", "{\"ms\": "),
            // The second is not JSON yet when the third starts: left open, closed at the end.
            chunk(2, "c", "{\"ms\": 3"),
            chunk(1, "", "2}"),
            chunk(2, "", "}"),
            finish(reason),
        ];
        let mut reader = openai::ChatStream::new();
        let mut closed = Vec::new();
        for (at, event) in events.iter().enumerate() {
            reader
                .push(&event.to_string(), &mut |delta| {
                    if let Delta::ToolCallDone { index, .. } = delta {
                        closed.push((at, index));
                    }
                })
                .unwrap();
        }
        let indices: Vec<usize> = closed.iter().map(|(_, index)| *index).collect();
        assert_eq!(indices, expected, "finish_reason {reason}");
        assert_eq!(closed[0], (1, 0), "the first call closes as the second starts");
        assert_eq!(closed[1], (5, 1), "the second closes only at the end");
    }
}
