//! A plain fn that blocks its thread does not hold up anyone else: the server runs it off the
//! runtime's worker (`block_in_place`), whether its call goes through the session's worker
//! (a tool with a context) or is answered on its own request (one without). Shown by
//! counting on a multi-thread runtime with a single worker, where a tool run on the worker
//! would stop every other client until it returned.

use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use tool_core::mcp::{HttpOptions, McpServer, serve_http_on};
use tool_core::{Registry, ToolContext, tool};

use crate::fixture::{Client, call, text};

/// The blocked tool's side of the test: it waits on this channel.
struct Valve(Mutex<mpsc::Receiver<()>>);

/// Blocks its thread until the test opens the valve (at most a minute)
#[tool]
fn block(ctx: &ToolContext) -> Result<&'static str, String> {
    let valve = ctx.state::<Arc<Valve>>().map_err(|error| error.to_string())?;
    let waited = valve.0.lock().unwrap().recv_timeout(Duration::from_mins(1));
    Ok(if waited.is_ok() { "opened" } else { "gave up" })
}

/// The valve of `block_plain`, which has no context to find one in.
static PLAIN_VALVE: Mutex<Option<mpsc::Receiver<()>>> = Mutex::new(None);

/// Blocks its thread until the test opens the valve (at most a minute), without a context
#[tool]
fn block_plain() -> &'static str {
    let Some(valve) = PLAIN_VALVE.lock().unwrap().take() else { return "no valve" };
    if valve.recv_timeout(Duration::from_mins(1)).is_ok() { "opened" } else { "gave up" }
}

/// Answers at once
#[tool]
fn pong() -> &'static str {
    "pong"
}

#[tokio::test(flavor = "multi_thread", worker_threads = 1)]
async fn a_blocking_tool_does_not_delay_other_clients() {
    let (open, valve) = mpsc::channel();
    let mut registry = Registry::new().with_state(Arc::new(Valve(Mutex::new(valve))));
    registry.add(BlockTool).unwrap().add(PongTool).unwrap();
    blocked_while_others_call(registry, "block", &open).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 1)]
async fn a_blocking_tool_answered_outside_the_session_does_not_delay_other_clients() {
    let (open, valve) = mpsc::channel();
    *PLAIN_VALVE.lock().unwrap() = Some(valve);
    let mut registry = Registry::new();
    registry.add(BlockPlainTool).unwrap().add(PongTool).unwrap();
    blocked_while_others_call(registry, "block_plain", &open).await;
}

/// Calls `tool`, which blocks until `open` is sent to, and counts the calls of another
/// client answered meanwhile.
async fn blocked_while_others_call(registry: Registry, tool: &'static str, open: &mpsc::Sender<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(serve_http_on(McpServer::new(registry), listener, HttpOptions::default(), std::future::pending()));
    let connect = || {
        let url = url.clone();
        async move {
            use rmcp::ServiceExt as _;
            Client::default()
                .serve(rmcp::transport::StreamableHttpClientTransport::from_uri(url))
                .await
                .expect("the client connects")
        }
    };
    let blocked_client = Arc::new(connect().await);
    let blocked = tokio::spawn({
        let client = Arc::clone(&blocked_client);
        async move { call(&client, tool, json!({})).await }
    });
    let other = connect().await;
    let mut answered = 0;
    for _ in 0..20 {
        let reply = tokio::time::timeout(Duration::from_secs(10), call(&other, "pong", json!({}))).await;
        if !reply.is_ok_and(|reply| reply.is_ok_and(|result| text(&result) == "pong")) {
            break;
        }
        answered += 1;
    }
    assert!(!blocked.is_finished(), "the blocking call is still blocked");
    assert_eq!(answered, 20, "every other call was answered while a tool blocked");
    open.send(()).unwrap();
    assert_eq!(text(&blocked.await.unwrap().unwrap()), "opened");
}
