//! Typed final answers (`Agent::run_for`) in their native mode: the answer's schema in each
//! provider's structured-output mode, the answer checked by the type's generated validator,
//! its violations sent back until it is right, tools on the way; and the HTTP clients sending
//! the mode in their bodies. The answer tool and the prompted mode: `output_modes.rs`.

use serde_json::{Value, json};
use tool_core::ToolArgs;
use tool_core::agent::clients::HttpModel;
use tool_core::agent::{Agent, Api, Conversation, OutputMode, RunError, ScriptedModel};

use crate::fixture::{Forecast, calls, registry};
use crate::replay::{Canned, Replay};

/// A final text answer in `api`'s response shape.
pub fn text_answer(api: Api, text: &str) -> Value {
    match api {
        Api::OpenAiChat => crate::fixture::answer(text),
        Api::OpenAiResponses => json!({"status": "completed", "output": [
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]}]}),
        Api::Anthropic => json!({"id": "m", "type": "message", "role": "assistant", "model": "m",
            "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
            "usage": {"input_tokens": 3, "output_tokens": 2}}),
        _ => json!({"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP"}]}),
    }
}

#[tokio::test]
async fn every_provider_is_asked_in_its_own_mode_and_the_answer_is_typed() {
    for api in [Api::OpenAiChat, Api::OpenAiResponses, Api::Anthropic, Api::Gemini] {
        let model = std::sync::Arc::new(ScriptedModel::new(api, [text_answer(api, r#"{"city": "Paris", "days": 3}"#)]));
        let agent =
            Agent::new(std::sync::Arc::clone(&model), tool_core::Registry::new()).output_mode(OutputMode::Native);
        let answer = agent.run_for::<Forecast>(&mut Conversation::new(api), "forecast", 2).await.unwrap();
        assert_eq!(answer.value, Forecast { city: "Paris".to_owned(), days: 3 });
        let output = model.seen()[0].output.clone().expect("the mode was asked for");
        let schema = match api {
            Api::OpenAiChat => {
                assert_eq!(
                    (
                        output["response_format"]["type"].clone(),
                        output["response_format"]["json_schema"]["strict"].clone()
                    ),
                    (json!("json_schema"), json!(true))
                );
                assert_eq!(output["response_format"]["json_schema"]["name"], "Forecast");
                output["response_format"]["json_schema"]["schema"].clone()
            }
            Api::OpenAiResponses => {
                assert_eq!(output["text"]["format"]["strict"], true);
                output["text"]["format"]["schema"].clone()
            }
            Api::Anthropic => output["output_config"]["format"]["schema"].clone(),
            _ => {
                assert_eq!(output["generationConfig"]["responseMimeType"], "application/json");
                output["generationConfig"]["responseSchema"].clone()
            }
        };
        // Each in its dialect: Gemini's upper-case OpenAPI types, the others JSON Schema.
        let object = if api == Api::Gemini { "OBJECT" } else { "object" };
        assert_eq!(schema["type"], object, "{api:?}: {schema}");
        assert!(schema["properties"]["days"].is_object(), "{api:?}: {schema}");
    }
}

#[tokio::test]
async fn a_wrong_answer_goes_back_with_its_violations_until_it_is_right() {
    let model = std::sync::Arc::new(ScriptedModel::new(
        Api::OpenAiChat,
        [
            crate::fixture::answer(r#"{"city": "", "days": 30}"#),
            crate::fixture::answer("not json"),
            crate::fixture::answer(r#"{"city": "Oslo", "days": 2}"#),
        ],
    ));
    let agent = Agent::new(std::sync::Arc::clone(&model), tool_core::Registry::new());
    let answer = agent.run_for::<Forecast>(&mut Conversation::new(Api::OpenAiChat), "forecast", 2).await.unwrap();
    assert_eq!(answer.value, Forecast { city: "Oslo".to_owned(), days: 2 });
    assert_eq!(answer.run.rounds, 3);
    let seen = model.seen();
    let correction = seen[1].history.last().unwrap()["content"].as_str().unwrap().to_owned();
    assert!(correction.contains("/city: must be at least 1 character long"), "{correction}");
    assert!(correction.contains("/days: must be <= 10, got 30"), "{correction}");
    let correction = seen[2].history.last().unwrap()["content"].as_str().unwrap().to_owned();
    assert!(correction.contains("not JSON") || correction.contains("expected"), "{correction}");
}

#[tokio::test]
async fn no_valid_answer_within_the_retries_is_a_typed_error_with_the_last_violations() {
    let model = ScriptedModel::new(
        Api::Anthropic,
        [
            text_answer(Api::Anthropic, r#"{"city": "Rome", "days": 0}"#),
            text_answer(Api::Anthropic, r#"{"city": "Rome", "days": 11}"#),
        ],
    );
    let agent = Agent::new(model, tool_core::Registry::new());
    let error = agent.run_for::<Forecast>(&mut Conversation::new(Api::Anthropic), "forecast", 1).await.unwrap_err();
    let RunError::InvalidOutput { attempts, error } = error else { panic!("{error:?}") };
    assert_eq!(attempts, 2);
    let tool_core::ToolError::InvalidArguments { violations, .. } = error else { panic!("{error:?}") };
    assert_eq!(violations.to_string(), "- /days: must be <= 10, got 11");
}

#[tokio::test]
async fn tools_and_a_native_answer_in_one_run() {
    let model = std::sync::Arc::new(ScriptedModel::new(
        Api::OpenAiChat,
        [calls(&[("nap", r#"{"ms": 1}"#)]), crate::fixture::answer(r#"{"city": "Lima", "days": 1}"#)],
    ));
    let agent = Agent::new(std::sync::Arc::clone(&model), registry()).output_mode(OutputMode::Native);
    let answer = agent.run_for::<Forecast>(&mut Conversation::new(Api::OpenAiChat), "forecast", 0).await.unwrap();
    assert_eq!(answer.value.city, "Lima");
    assert_eq!(answer.run.tool_runs[0].result.text(), "slept 1 ms");
    let seen = model.seen();
    assert!(seen[0].tools.is_some() && seen[0].output.is_some(), "tools and the answer's form asked together");
}

/// The clients put the mode in their bodies, Gemini's merged into its `generationConfig`.
#[tokio::test]
async fn the_clients_send_the_mode_in_their_bodies() {
    for (api, check) in [
        (Api::OpenAiChat, "/response_format/json_schema/strict"),
        (Api::OpenAiResponses, "/text/format/strict"),
        (Api::Anthropic, "/output_config/format/type"),
        (Api::Gemini, "/generationConfig/responseMimeType"),
    ] {
        let replay = Replay::start([Canned::json(&text_answer(api, r#"{"city": "Bern", "days": 4}"#))]).await;
        let model = HttpModel::new(api, format!("{}/v1", replay.url()), "m").stream(false).max_tokens(100);
        let agent = Agent::new(model, tool_core::Registry::new()).output_mode(OutputMode::Native);
        let answer = agent.run_for::<Forecast>(&mut Conversation::new(api), "forecast", 0).await.unwrap();
        assert_eq!(answer.value.days, 4);
        let body = &replay.received()[0].body;
        assert!(body.pointer(check).is_some_and(|value| !value.is_null()), "{api:?}: {body}");
        if api == Api::Gemini {
            assert_eq!(body["generationConfig"]["maxOutputTokens"], 100, "merged, not replaced: {body}");
        }
    }
}

#[derive(Debug, ToolArgs)]
struct Tally {
    /// Votes per option
    votes: std::collections::HashMap<String, u32>,
}

#[tokio::test]
async fn anthropic_is_asked_no_structured_output_its_strict_mode_cannot_state() {
    let model = std::sync::Arc::new(ScriptedModel::new(
        Api::Anthropic,
        [text_answer(Api::Anthropic, r#"{"votes": {"a": 2}}"#)],
    ));
    let agent = Agent::new(std::sync::Arc::clone(&model), tool_core::Registry::new()).output_mode(OutputMode::Native);
    let answer = agent.run_for::<Tally>(&mut Conversation::new(Api::Anthropic), "tally", 0).await.unwrap();
    assert_eq!(answer.value.votes["a"], 2);
    assert_eq!(model.seen()[0].output, Some(json!({})), "a map has no strict form: nothing is forced");
}
