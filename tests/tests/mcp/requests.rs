//! What a tool asks of the client while it runs: progress, log messages at the session's
//! level, sampling, elicitation, and cancellation it observes; on every protocol revision.

use std::time::Duration;

use rmcp::model::{
    CacheScope, CallToolRequestParams, ClientRequest, LoggingLevel, ProtocolVersion, Request, SetLevelRequestParams,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, PeerRequestOptions};
use serde_json::json;

use tool_core::mcp::HttpOptions;

use crate::fixture::{Client, Http, SLOW, call, connect_pipe, eventually, text};

#[tokio::test]
async fn progress_arrives_in_order_before_the_result() {
    let client = Client::default();
    let connection = connect_pipe(client.clone()).await;
    let result = call(&connection, "chatty", json!({})).await.unwrap();
    assert_eq!(text(&result), "done");
    let progress = client.progress.lock().unwrap().clone();
    let steps: Vec<(f64, Option<f64>, Option<String>)> =
        progress.iter().map(|p| (p.progress, p.total, p.message.clone())).collect();
    assert_eq!(
        steps,
        [
            (1.0, Some(3.0), Some("step 1".to_owned())),
            (2.0, Some(3.0), Some("step 2".to_owned())),
            (3.0, Some(3.0), Some("step 3".to_owned()))
        ]
    );
    connection.cancel().await.unwrap();
}

#[tokio::test]
async fn log_messages_follow_the_level_the_client_sets() {
    let client = Client::default();
    let connection = connect_pipe(client.clone()).await;
    call(&connection, "chatty", json!({})).await.unwrap();
    // No level set yet: everything is sent.
    assert!(eventually(Duration::from_secs(5), || client.logs.lock().unwrap().len() == 3).await);
    connection.set_level(SetLevelRequestParams::new(LoggingLevel::Warning)).await.unwrap();
    client.logs.lock().unwrap().clear();
    call(&connection, "chatty", json!({})).await.unwrap();
    assert!(eventually(Duration::from_secs(5), || !client.logs.lock().unwrap().is_empty()).await);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let logs = client.logs.lock().unwrap().clone();
    assert_eq!(logs.len(), 1, "{logs:?}");
    assert_eq!((logs[0].level, logs[0].logger.as_deref()), (LoggingLevel::Warning, Some("disk")));
    assert_eq!(logs[0].data, json!({"free": "2%"}));
    connection.cancel().await.unwrap();
}

#[tokio::test]
async fn sampling_and_elicitation_reach_a_capable_client() {
    let http = Http::start(HttpOptions::default()).await;
    let client = Client::capable();
    for connection in [connect_pipe(client.clone()).await, http.connect(client.clone()).await] {
        let sampled = call(&connection, "ask_llm", json!({"prompt": "2+2?"})).await.unwrap();
        assert_eq!(text(&sampled), "llm said: echo 2+2?");

        *client.answer.lock().unwrap() = Some(json!({"name": "Ada", "email": "ada@example.com"}));
        assert_eq!(text(&call(&connection, "ask_user", json!({})).await.unwrap()), "hello Ada <ada@example.com>");

        // An answer that breaks the form is refused like bad arguments, and the tool says so.
        *client.answer.lock().unwrap() = Some(json!({"name": "", "email": "nope"}));
        let refused = call(&connection, "ask_user", json!({})).await.unwrap();
        assert_eq!(refused.is_error, Some(true));
        assert!(text(&refused).contains("/email: must be a valid email"), "{}", text(&refused));

        *client.answer.lock().unwrap() = None;
        assert_eq!(text(&call(&connection, "ask_user", json!({})).await.unwrap()), "declined");
        connection.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn a_client_without_the_capability_gets_an_error_not_a_hang() {
    let connection = connect_pipe(Client::default()).await;
    let sampled = tokio::time::timeout(Duration::from_secs(10), call(&connection, "ask_llm", json!({"prompt": "?"})))
        .await
        .expect("no hang")
        .unwrap();
    assert_eq!(text(&sampled), "tool \"ask_llm\" failed: the caller does not support sampling");
    let elicited = call(&connection, "ask_user", json!({})).await.unwrap();
    assert_eq!(text(&elicited), "tool \"ask_user\" failed: the caller does not support elicitation");
    connection.cancel().await.unwrap();
}

#[tokio::test]
async fn a_cancelled_call_observes_it_and_the_connection_goes_on() {
    let http = Http::start(HttpOptions::default()).await;
    for (id, connection) in [(101, connect_pipe(Client::default()).await), (102, http.connect(Client::default()).await)]
    {
        let Ok(serde_json::Value::Object(arguments)) = serde_json::to_value(json!({"id": id})) else { unreachable!() };
        let request =
            ClientRequest::CallToolRequest(Request::new(CallToolRequestParams::new("slow").with_arguments(arguments)));
        let handle = connection.send_cancellable_request(request, PeerRequestOptions::no_options()).await.unwrap();
        assert!(eventually(Duration::from_secs(10), || SLOW.lock().unwrap().get(&id) == Some(&"started")).await);
        handle.cancel(Some("the user pressed stop".to_owned())).await.unwrap();
        assert!(
            eventually(Duration::from_secs(10), || SLOW.lock().unwrap().get(&id) == Some(&"cancelled")).await,
            "the tool did not observe its cancellation: {:?}",
            SLOW.lock().unwrap().get(&id)
        );
        assert_eq!(text(&call(&connection, "echo", json!({"zebra": "still", "apple": 2})).await.unwrap()), "still 2");
        connection.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn on_2026_07_28_elicitation_becomes_input_rounds() {
    let client = Client { version: Some(ProtocolVersion::V_2026_07_28), ..Client::capable() };
    *client.answer.lock().unwrap() = Some(json!({"name": "Grace", "email": "grace@example.com"}));
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(tool_core::mcp::serve_io(crate::fixture::server(), read, write));
    let lifecycle = ClientLifecycleMode::Discover { preferred_versions: vec![ProtocolVersion::V_2026_07_28] };
    let connection = client.clone().serve_with_lifecycle(client_end, lifecycle).await.expect("discovers");
    let result = call(&connection, "ask_user", json!({})).await.unwrap();
    assert_eq!(text(&result), "hello Grace <grace@example.com>");
    // 2026-07-28 results say they are complete (SEP-2322); the Python SDK refuses them otherwise.
    assert_eq!(result.result_type, Some(rmcp::model::ResultType::COMPLETE));
    let plain = call(&connection, "echo", json!({"zebra": "z", "apple": 1})).await.unwrap();
    assert_eq!(plain.result_type, Some(rmcp::model::ResultType::COMPLETE));
    let sampled = call(&connection, "ask_llm", json!({"prompt": "hi"})).await.unwrap();
    assert_eq!(text(&sampled), "llm said: echo hi");
    connection.cancel().await.unwrap();
}

/// A 2026-07-28 client holds no session and hears of no change: the list says how long it
/// stays fresh (SEP-2549), 0 ms unless the server says otherwise, and whether it is the
/// same for every caller.
#[tokio::test]
async fn on_2026_07_28_the_tool_list_carries_its_cache_hints() {
    for (server, ttl, scope) in [
        (crate::fixture::server(), 0, CacheScope::Public),
        (crate::fixture::server().with_list_ttl(Duration::from_secs(30)), 30_000, CacheScope::Public),
        (crate::fixture::server().with_tool_filter(|tool, _| tool.name() != "boom"), 0, CacheScope::Private),
    ] {
        let (client_end, server_end) = tokio::io::duplex(1 << 16);
        let (read, write) = tokio::io::split(server_end);
        tokio::spawn(tool_core::mcp::serve_io(server, read, write));
        let lifecycle = ClientLifecycleMode::Discover { preferred_versions: vec![ProtocolVersion::V_2026_07_28] };
        let client = Client { version: Some(ProtocolVersion::V_2026_07_28), ..Client::default() };
        let connection = client.serve_with_lifecycle(client_end, lifecycle).await.expect("discovers");
        let listed = connection.list_tools(None).await.unwrap();
        assert_eq!((listed.ttl_ms, listed.cache_scope), (Some(ttl), Some(scope)));
        let names: Vec<&str> = listed.tools.iter().map(|tool| tool.name.as_ref()).collect();
        assert_eq!(names.contains(&"boom"), scope == CacheScope::Public, "{names:?}");
        connection.cancel().await.unwrap();
    }
}
