//! Another MCP server's tools in a local registry (`RemoteServer`): listed as
//! `mcp_<server>_<tool>`, called, their progress and cancellation passed through, used by
//! the agent loop, and a server that went away answered with errors, not a hang.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use tool_core::agent::{Agent, Api, Conversation, ScriptedModel};
use tool_core::mcp::{HttpOptions, RemoteServer};
use tool_core::{ToolError, context::CancellationToken, context::Progress};

use crate::fixture::{Http, SLOW};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn remote_tools_are_listed_and_called() {
    let http = Http::start(HttpOptions::default()).await;
    let remote = RemoteServer::http("fixture", http.url()).await.unwrap();
    let registry = remote.registry().await.unwrap();
    assert!(registry.names().contains(&"mcp_fixture_echo"), "{:?}", registry.names());
    assert_eq!(registry.get("mcp_fixture_echo").unwrap().title(), Some("Echo"));

    let context = registry.context();
    let output = registry.call_async(&context, "mcp_fixture_echo", json!({"zebra": "hi", "apple": 2})).await.unwrap();
    assert_eq!(output.to_text(), "hi 2");
    // The remote server validated, and the model reads its words.
    let invalid = registry.call_async(&context, "mcp_fixture_echo", json!({"zebra": ""})).await.unwrap_err();
    assert!(invalid.to_string().contains("/zebra: must be at least 1 character long"), "{invalid}");
    let counted = registry.call_async(&context, "mcp_fixture_count", json!({})).await.unwrap();
    assert_eq!(counted.structured(), Some(&json!({"count": 3})));

    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    let reporting = registry.context().with_progress(move |p: Progress| sink.lock().unwrap().push(p.progress));
    registry.call_async(&reporting, "mcp_fixture_chatty", json!({})).await.unwrap();
    // Delivered before the call returns, the last step included, never going backwards:
    // rmcp may hand two notifications over swapped, and then the older one is dropped.
    let seen = seen.lock().unwrap().clone();
    assert!(seen.windows(2).all(|pair| pair[0] < pair[1]) && seen.last() == Some(&3.0), "{seen:?}");

    let token = CancellationToken::new();
    let cancellable = registry.context().with_cancellation(token.clone());
    let trigger = tokio::spawn(async move {
        for _ in 0..500 {
            if SLOW.lock().unwrap().get(&401).is_some() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        token.cancel();
    });
    let cancelled = registry.call_async(&cancellable, "mcp_fixture_slow", json!({"id": 401})).await.unwrap_err();
    trigger.await.unwrap();
    assert!(matches!(cancelled, ToolError::Cancelled { .. }));
    for _ in 0..500 {
        if SLOW.lock().unwrap().get(&401) == Some(&"cancelled") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(SLOW.lock().unwrap().get(&401), Some(&"cancelled"), "the remote tool observed the cancellation");
    remote.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_agent_uses_remote_tools_and_survives_their_server() {
    let mut http = Http::start(HttpOptions::default()).await;
    let remote = RemoteServer::http("fixture", http.url()).await.unwrap();
    let registry = remote.registry().await.unwrap();
    let calls = |args: &str| {
        json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "mcp_fixture_echo", "arguments": args}}]},
            "finish_reason": "tool_calls"}]})
    };
    let answer = json!({"choices": [{"message": {"role": "assistant", "content": "done"}, "finish_reason": "stop"}]});
    let model = ScriptedModel::new(Api::OpenAiChat, [calls(r#"{"zebra": "far", "apple": 9}"#), answer.clone()]);
    let agent = Agent::new(model, registry.clone()).call_timeout(Duration::from_secs(10));
    let outcome = agent.run(&mut Conversation::new(Api::OpenAiChat), "echo").await.unwrap();
    assert_eq!(outcome.tool_runs[0].result.text(), "far 9");

    // The server goes away: the call is answered with an error (at the latest when its
    // timeout stops it).
    drop(http.stop.take());
    let _ = tokio::time::timeout(Duration::from_secs(20), &mut http.done).await;
    let model = ScriptedModel::new(Api::OpenAiChat, [calls(r#"{"zebra": "gone", "apple": 1}"#), answer]);
    let agent = Agent::new(model, registry).call_timeout(Duration::from_secs(10));
    let outcome = agent.run(&mut Conversation::new(Api::OpenAiChat), "echo").await.unwrap();
    assert!(outcome.tool_runs[0].result.is_error(), "{:?}", outcome.tool_runs[0].result);
}
