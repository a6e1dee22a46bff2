//! The loop's first request is the one a user would write by hand for the same tools, system
//! prompt and settings, on each API: the tools in the order they were added, their
//! parameters as declared, and no member the program did not ask for. The intended
//! differences of the defaults (strict schemas, streaming) are each turned off here, and
//! shown in the second test.

use serde_json::{Value, json};
use tool_core::Registry;
use tool_core::agent::clients::HttpModel;
use tool_core::agent::{Agent, Api, Conversation};

use crate::fixture::{DozeTool, NapTool};
use crate::replay::{Canned, Replay};
use crate::typed::text_answer;

/// Two tools, `nap` added before `doze` (not their names' order).
fn tools() -> Registry {
    let mut tools = Registry::new();
    tools.add(NapTool).unwrap().add(DozeTool).unwrap();
    tools
}

/// `name`'s description and parameters, as its definition states them.
fn declared(name: &str) -> (String, Value) {
    let tools = tools();
    let entry = tools.get(name).unwrap();
    (entry.description().to_owned(), serde_json::from_str(entry.parameters_json()).unwrap())
}

/// The body of the loop's first request on `api`, built by `configure`.
async fn first_body(api: Api, configure: impl FnOnce(HttpModel) -> HttpModel, strict: bool) -> Value {
    let replay = Replay::start([Canned::json(&text_answer(api, "ok"))]).await;
    let model = configure(HttpModel::new(api, format!("{}/v1", replay.url()), "m"));
    let agent = Agent::new(model, tools()).system("Be brief.").strict(strict);
    // The reply may not suit the request (a whole body to a streamed one): only the request
    // is read.
    let _ = agent.run(&mut Conversation::new(api), "Nap a little.").await;
    replay.received()[0].body.clone()
}

/// What a user writes by hand for `api`: the API's documented members, nothing more.
fn by_hand(api: Api) -> Value {
    let ((doze_text, doze), (nap_text, nap)) = (declared("doze"), declared("nap"));
    match api {
        Api::OpenAiChat => json!({
            "model": "m",
            "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Nap a little."}],
            "tools": [
                {"type": "function", "function": {"name": "nap", "description": nap_text, "parameters": nap}},
                {"type": "function", "function": {"name": "doze", "description": doze_text, "parameters": doze}},
            ],
        }),
        // The Responses API reads a missing `strict` as true: a tool that is not strict says so.
        Api::OpenAiResponses => json!({
            "model": "m",
            "instructions": "Be brief.",
            "input": [{"role": "user", "content": "Nap a little."}],
            "tools": [
                {"type": "function", "name": "nap", "description": nap_text, "parameters": nap, "strict": false},
                {"type": "function", "name": "doze", "description": doze_text, "parameters": doze, "strict": false},
            ],
        }),
        // Messages requires `max_tokens`.
        Api::Anthropic => json!({
            "model": "m",
            "max_tokens": 4096,
            "system": "Be brief.",
            "messages": [{"role": "user", "content": "Nap a little."}],
            "tools": [
                {"name": "nap", "description": nap_text, "input_schema": nap},
                {"name": "doze", "description": doze_text, "input_schema": doze},
            ],
        }),
        _ => json!({
            "contents": [{"role": "user", "parts": [{"text": "Nap a little."}]}],
            "systemInstruction": {"parts": [{"text": "Be brief."}]},
            "tools": [{"functionDeclarations": [
                {"name": "nap", "description": nap_text, "parametersJsonSchema": nap},
                {"name": "doze", "description": doze_text, "parametersJsonSchema": doze},
            ]}],
        }),
    }
}

#[tokio::test]
async fn the_first_request_is_the_one_a_user_would_write_on_every_api() {
    for api in [Api::OpenAiChat, Api::OpenAiResponses, Api::Anthropic, Api::Gemini] {
        let body = first_body(api, |model| model.stream(false), false).await;
        assert_eq!(body, by_hand(api), "{api:?}");
    }
}

#[tokio::test]
async fn each_default_that_differs_says_so_and_turns_off() {
    // Streaming (the clients' default): the stream flag, and Chat Completions' usage in it.
    let streamed = first_body(Api::OpenAiChat, |model| model, false).await;
    assert_eq!((&streamed["stream"], &streamed["stream_options"]), (&json!(true), &json!({"include_usage": true})));
    // Strict schemas (the agent's default): `strict: true` and the strict form of each schema.
    let strict = first_body(Api::OpenAiChat, |model| model.stream(false), true).await;
    assert_eq!(strict["tools"][0]["function"]["strict"], true);
    assert_eq!(strict["tools"][0]["function"]["parameters"]["additionalProperties"], false);
}
