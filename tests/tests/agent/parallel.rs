//! `Sampling::parallel_tool_calls`: sent as each API names it, only when the program asks and
//! only with tools; the HTTP clients put it in the body they send.

use serde_json::Value;
use tool_core::agent::clients::HttpModel;
use tool_core::agent::{Agent, Api, Conversation};
use tool_core::provider::Sampling;

use crate::fixture::registry;
use crate::replay::{Canned, Replay};
use crate::typed::text_answer;

/// The body an agent with `sampling` sends `api` (tools offered unless `without_tools`).
async fn body(api: Api, sampling: Option<Sampling>, without_tools: bool) -> Value {
    let replay = Replay::start([Canned::json(&text_answer(api, "ok"))]).await;
    let model = HttpModel::new(api, format!("{}/v1", replay.url()), "m").stream(false);
    let tools = if without_tools { tool_core::Registry::new() } else { registry() };
    let mut agent = Agent::new(model, tools);
    if let Some(sampling) = sampling {
        agent = agent.sampling(sampling);
    }
    agent.run(&mut Conversation::new(api), "hi").await.unwrap();
    replay.received()[0].body.clone()
}

#[tokio::test]
async fn parallel_tool_calls_are_sent_as_each_api_names_them_and_only_when_asked() {
    for api in [Api::OpenAiChat, Api::OpenAiResponses] {
        let on = body(api, Some(Sampling::new().parallel_tool_calls(true)), false).await;
        assert_eq!(on["parallel_tool_calls"], true, "{api:?}: {on}");
        let off = body(api, Some(Sampling::new().parallel_tool_calls(false)), false).await;
        assert_eq!(off["parallel_tool_calls"], false, "{api:?}: {off}");
        let unasked = body(api, None, false).await;
        assert!(unasked.get("parallel_tool_calls").is_none(), "no flag the program did not ask for: {unasked}");
        let no_tools = body(api, Some(Sampling::new().parallel_tool_calls(true)), true).await;
        assert!(no_tools.get("parallel_tool_calls").is_none(), "only with tools: {no_tools}");
    }
    // Anthropic: several calls unless the tool choice disables them.
    let off = body(Api::Anthropic, Some(Sampling::new().parallel_tool_calls(false)), false).await;
    assert_eq!(off["tool_choice"], serde_json::json!({"type": "auto", "disable_parallel_tool_use": true}), "{off}");
    let on = body(Api::Anthropic, Some(Sampling::new().parallel_tool_calls(true)), false).await;
    assert!(on.get("tool_choice").is_none() && on.get("parallel_tool_calls").is_none(), "its default: {on}");
    // Gemini has no such member.
    let gemini = body(Api::Gemini, Some(Sampling::new().parallel_tool_calls(false)), false).await;
    assert!(!gemini.to_string().contains("parallel"), "{gemini}");
}
