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
    // Validated before it leaves the process, worded as for a `#[tool]`.
    let invalid = registry.call_async(&context, "mcp_fixture_echo", json!({"zebra": ""})).await.unwrap_err();
    assert!(invalid.to_string().contains("/zebra: must be at least 1 character long"), "{invalid}");
    // Checked without calling the server at all, alike.
    assert_eq!(registry.validate("mcp_fixture_echo", json!({"zebra": ""})).unwrap_err(), invalid);
    let valid = json!({"zebra": "hi", "apple": 2});
    assert_eq!(registry.validate("mcp_fixture_echo", valid.clone()).unwrap(), valid);
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

mod checked {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use serde_json::json;
    use tool_core::mcp::{HttpOptions, McpServer, RemoteServer};
    use tool_core::{DynamicTool, Registry, Structured, ToolError, ToolSchema};

    /// What the remote tool says it returns: at most 3.
    #[derive(serde::Serialize, ToolSchema)]
    struct Counted {
        #[param(maximum = 3)]
        count: u32,
    }

    /// A server whose tool states `Counted` as its output schema and answers what it is told
    /// to (a count beyond the schema's, when asked), counting the calls that reach it.
    async fn server(calls: Arc<AtomicUsize>) -> (String, tokio::sync::oneshot::Sender<()>) {
        #[derive(tool_core::ToolArgs)]
        struct Ask {
            #[param(minimum = 0)]
            count: u32,
        }
        let tool = DynamicTool::typed("count", "Counts", move |_, ask: Ask| {
            calls.fetch_add(1, Ordering::SeqCst);
            async move { Structured(Counted { count: ask.count }) }
        })
        .unwrap();
        let mut registry = Registry::new();
        registry.add_dynamic(tool).unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let shutdown = async move {
            let _ = stopped.await;
        };
        tokio::spawn(tool_core::mcp::serve_http_on(
            McpServer::new(registry),
            listener,
            HttpOptions::default(),
            shutdown,
        ));
        (url, stop)
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_remote_call_is_validated_before_it_leaves_and_its_result_against_the_output_schema() {
        let calls = Arc::new(AtomicUsize::new(0));
        let (url, stop) = server(Arc::clone(&calls)).await;
        let remote = RemoteServer::http("far", url).await.unwrap();
        let registry = remote.registry().await.unwrap();
        let entry = registry.get("mcp_far_count").unwrap();
        assert!(entry.output_schema().is_some_and(|schema| schema.contains(r#""maximum":3"#)), "{entry:?}");
        let context = registry.context();

        // Broken arguments never leave the process: the local check names them.
        let refused = registry.call_async(&context, "mcp_far_count", json!({"count": -1, "extra": 1})).await;
        let Err(ToolError::InvalidArguments { tool, violations }) = refused else { panic!("{refused:?}") };
        assert_eq!(tool, "mcp_far_count");
        let text = violations.to_string();
        assert!(text.contains("/count: must be >= 0, got -1") && text.contains("unknown property \"extra\""), "{text}");
        assert_eq!(calls.load(Ordering::SeqCst), 0, "nothing reached the server");

        let fine = registry.call_async(&context, "mcp_far_count", json!({"count": 2})).await.unwrap();
        assert_eq!(fine.structured(), Some(&json!({"count": 2})));
        // The server's answer breaks the schema it stated: a tool error the model can read.
        let lying = registry.call_async(&context, "mcp_far_count", json!({"count": 7})).await.unwrap_err();
        assert!(matches!(lying, ToolError::Failed { .. }), "{lying:?}");
        assert!(
            lying.to_string().contains("breaks the tool's output schema:\n- /count: must be <= 3, got 7"),
            "{lying}"
        );
        assert_eq!(calls.load(Ordering::SeqCst), 2);
        remote.close().await;
        let _ = stop.send(());
    }

    /// A gateway: this crate's server re-serving another server's tools beside its own,
    /// resolved from both sources, each call validated at the gateway before it goes on.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_gateway_re_serves_another_servers_tools_checked() {
        use tool_core::registry::{ToolSource, ToolSources};

        let calls = Arc::new(AtomicUsize::new(0));
        let (url, stop) = server(Arc::clone(&calls)).await;
        let remote = Arc::new(RemoteServer::http("far", url).await.unwrap());
        assert_eq!(remote.label(), "mcp:far");
        let mut native = Registry::new();
        native.add(crate::fixture::EchoTool).unwrap();
        let sources = ToolSources::new().native(native).source(Arc::clone(&remote));
        let merged = sources.resolve().await.unwrap();
        assert_eq!(merged.names(), ["echo", "mcp_far_count"]);

        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let gateway = format!("http://{}/mcp", listener.local_addr().unwrap());
        let (halt, halted) = tokio::sync::oneshot::channel::<()>();
        let shutdown = async move {
            let _ = halted.await;
        };
        let served = McpServer::new((*merged).clone());
        tokio::spawn(tool_core::mcp::serve_http_on(served, listener, HttpOptions::default(), shutdown));
        let client = RemoteServer::http("gw", gateway.clone()).await.unwrap();
        let through = client.registry().await.unwrap();
        let counted = through.get("mcp_gw_mcp_far_count").unwrap();
        assert!(counted.output_schema().is_some_and(|schema| schema.contains(r#""maximum":3"#)), "re-served as stated");
        let context = through.context();
        let fine = through.call_async(&context, "mcp_gw_mcp_far_count", json!({"count": 1})).await.unwrap();
        assert_eq!(fine.structured(), Some(&json!({"count": 1})));
        // A raw client, which checks nothing: the gateway refuses the call itself.
        let raw = rmcp::ServiceExt::serve(
            crate::fixture::Client::default(),
            rmcp::transport::StreamableHttpClientTransport::from_uri(gateway.clone()),
        )
        .await
        .unwrap();
        let refused = crate::fixture::call(&raw, "mcp_far_count", json!({"count": "x"})).await.unwrap();
        assert_eq!(refused.is_error, Some(true));
        assert!(crate::fixture::text(&refused).contains("/count: expected an integer"), "{refused:?}");
        raw.cancel().await.unwrap();
        assert_eq!(calls.load(Ordering::SeqCst), 1, "only the good call reached the far server");
        client.close().await;
        let _ = (halt.send(()), stop.send(()));
    }
}

/// A server that lists one tool whose schema cannot be used (a pattern that is not a regular
/// expression) still serves its others; a lookahead, which ECMA-262 has, is usable.
#[tokio::test]
async fn a_remote_tool_with_an_unusable_schema_is_left_out_and_the_others_serve() {
    use axum::http::header;
    let tools = json!([
        {"name": "good", "inputSchema": {"type": "object", "properties": {"user": {"type": "string", "pattern": "^(?!admin$)[a-z]+$"}}}},
        {"name": "broken", "inputSchema": {"type": "object", "properties": {"n": {"type": "string", "pattern": "(unclosed"}}}},
    ]);
    let app = axum::Router::new().route(
        "/mcp",
        axum::routing::post(move |body: String| {
            let tools = tools.clone();
            async move {
                let request: serde_json::Value = serde_json::from_str(&body).unwrap();
                let Some(id) = request.get("id").cloned() else {
                    return (axum::http::StatusCode::ACCEPTED, [(header::CONTENT_TYPE, "application/json")], String::new());
                };
                let result = match request["method"].as_str().unwrap() {
                    "initialize" => json!({"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "fake", "version": "1"}}),
                    "tools/list" => json!({"tools": tools}),
                    _ => json!({}),
                };
                let answer = json!({"jsonrpc": "2.0", "id": id, "result": result});
                (axum::http::StatusCode::OK, [(header::CONTENT_TYPE, "application/json")], answer.to_string())
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    let remote = RemoteServer::http("fake", format!("http://{address}/mcp")).await.unwrap();
    let registry = remote.registry().await.unwrap();
    assert_eq!(registry.names(), ["mcp_fake_good"]);
    let context = registry.context();
    let refused = registry.call_async(&context, "mcp_fake_good", json!({"user": "admin"})).await.unwrap_err();
    assert!(refused.to_string().contains("/user: must match the pattern"), "{refused}");
}
