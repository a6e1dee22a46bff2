//! What a model request holds: sampling settings under each API's own names, tool parameters
//! in the order they were declared, and no member a server must know only to ignore it.

use serde_json::{Value, json};
use tool_core::agent::clients::HttpModel;
use tool_core::agent::{Agent, Api, Model, ModelRequest};
use tool_core::provider::Sampling;
use tool_core::{Registry, ToolArgs, tool};

use crate::replay::{Canned, Replay};

#[derive(Debug, ToolArgs)]
pub struct Trip {
    /// Where to
    pub to: String,
    /// Where from
    pub from: String,
    /// Adults travelling
    pub adults: u8,
}

/// Books a trip
#[tool]
pub fn book(args: Trip) -> String {
    format!("{} to {} for {}", args.from, args.to, args.adults)
}

fn sampling() -> Sampling {
    Sampling::new().temperature(0.0).top_p(0.5).seed(42).max_tokens(64).stop(["END"]).extra("cache_prompt", false)
}

/// The body `api`'s client sends for one request with [`sampling`].
async fn body(api: Api) -> Value {
    let replay = Replay::start([Canned::status(400, "unread")]).await;
    let model = HttpModel::new(api, replay.url(), "m").stream(false).max_tokens(999);
    let history = [api.user("hi")];
    let sampling = sampling();
    let _refused = model.respond(ModelRequest::new(&history).with_sampling(&sampling), &|_| {}).await;
    replay.received().remove(0).body
}

#[tokio::test]
async fn sampling_reaches_every_api_under_its_own_names() {
    let chat = body(Api::OpenAiChat).await;
    for (member, value) in [
        ("temperature", json!(0.0)),
        ("top_p", json!(0.5)),
        ("seed", json!(42)),
        ("max_completion_tokens", json!(64)),
        ("stop", json!(["END"])),
        ("cache_prompt", json!(false)),
    ] {
        assert_eq!(chat[member], value, "Chat Completions {member}");
    }
    let responses = body(Api::OpenAiResponses).await;
    assert_eq!((&responses["temperature"], &responses["max_output_tokens"]), (&json!(0.0), &json!(64)));
    assert!(responses.get("seed").is_none() && responses.get("stop").is_none(), "the Responses API has neither");
    let messages = body(Api::Anthropic).await;
    assert_eq!((&messages["max_tokens"], &messages["stop_sequences"]), (&json!(64), &json!(["END"])));
    assert!(messages.get("seed").is_none(), "Messages has no seed");
    let gemini = body(Api::Gemini).await;
    assert_eq!(
        gemini["generationConfig"],
        json!({"maxOutputTokens": 64, "temperature": 0.0, "topP": 0.5, "seed": 42, "stopSequences": ["END"]})
    );
    assert_eq!(gemini["cache_prompt"], false);
}

#[tokio::test]
async fn the_agent_sends_its_sampling_and_parameters_in_declared_order() {
    let replay = Replay::start([Canned::json(&crate::fixture::answer("Booked"))]).await;
    let mut registry = Registry::new();
    registry.add(BookTool).unwrap();
    let model = HttpModel::new(Api::OpenAiChat, replay.url(), "m").stream(false);
    let agent = Agent::new(model, registry).sampling(Sampling::new().seed(7));
    agent.run(&mut agent.conversation(), "book").await.unwrap();
    let sent = replay.received().remove(0).body;
    assert_eq!(sent["seed"], 7);
    let function = &sent["tools"][0]["function"];
    let order: Vec<&String> = function["parameters"]["properties"].as_object().unwrap().keys().collect();
    assert_eq!(order, ["to", "from", "adults"], "as declared, not sorted");
    assert!(function.get("strict").is_none() || function["strict"] == true, "Chat reads a missing `strict` as false");
}

#[test]
fn chat_writes_strict_only_when_true_and_responses_always() {
    let mut registry = Registry::new();
    registry.add(BookTool).unwrap();
    let chat = Api::OpenAiChat.tools(&registry, false);
    assert!(chat[0]["function"].get("strict").is_none(), "{chat}");
    let responses = Api::OpenAiResponses.tools(&registry, false);
    assert_eq!(responses[0]["strict"], false, "the Responses API reads a missing `strict` as true");
    assert_eq!(Api::OpenAiChat.tools(&registry, true)[0]["function"]["strict"], true);
}
