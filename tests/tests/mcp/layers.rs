//! tower layers around tools (`Registry::layer`, `layer_group`, `layer_tool`), served over
//! MCP (stdio's transport, and streamable HTTP, where a session's calls of tools without a
//! context skip the session's worker): a layer's rejection is a result the model reads
//! (`isError`), never a protocol error, and a layer on one tool or group leaves the others
//! alone.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rmcp::ServiceExt as _;
use serde_json::json;
use tokio::sync::Semaphore;
use tool_core::mcp::{HttpOptions, McpServer};
use tool_core::{Registry, ToolContext, tool};
use tower::ServiceBuilder;
use tower::timeout::TimeoutLayer;

use crate::fixture::{Client, Connection, call, eventually, text};

/// Holds until the test releases it, counting the calls that got in.
struct Gate {
    entered: AtomicUsize,
    release: Semaphore,
}

/// Waits at the gate
#[tool]
async fn hold(ctx: &ToolContext) -> Result<&'static str, String> {
    let gate = ctx.state::<Arc<Gate>>().map_err(|error| error.to_string())?;
    gate.entered.fetch_add(1, Ordering::SeqCst);
    let _permit = gate.release.acquire().await.map_err(|error| error.to_string())?;
    Ok("released")
}

/// Answers at once
#[tool]
fn ping() -> &'static str {
    "pong"
}

/// Deletes everything (an admin tool)
#[tool(group = "admin")]
fn wipe() -> &'static str {
    "wiped"
}

/// Sleeps for ten seconds
#[tool]
async fn nap() -> &'static str {
    tokio::time::sleep(Duration::from_secs(10)).await;
    "rested"
}

fn registry(gate: &Arc<Gate>) -> Registry {
    let mut registry = Registry::new().with_state(Arc::clone(gate));
    registry.add(HoldTool).unwrap().add(PingTool).unwrap().add(WipeTool).unwrap().add(NapTool).unwrap();
    registry
}

fn gate() -> Arc<Gate> {
    Arc::new(Gate { entered: AtomicUsize::new(0), release: Semaphore::new(0) })
}

/// How the test reaches the server.
#[derive(Clone, Copy, Debug)]
enum Over {
    Pipe,
    Http,
}

async fn connect(registry: Registry, over: Over) -> Connection {
    let server = McpServer::new(registry);
    match over {
        Over::Pipe => {
            let (client_end, server_end) = tokio::io::duplex(1 << 16);
            let (read, write) = tokio::io::split(server_end);
            tokio::spawn(tool_core::mcp::serve_io(server, read, write));
            Client::default().serve(client_end).await.expect("the client connects")
        }
        Over::Http => {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let url = format!("http://{}/mcp", listener.local_addr().unwrap());
            let serving =
                tool_core::mcp::serve_http_on(server, listener, HttpOptions::default(), std::future::pending());
            tokio::spawn(serving);
            let transport = rmcp::transport::StreamableHttpClientTransport::from_uri(url);
            Client::default().serve(transport).await.expect("the client connects")
        }
    }
}

#[tokio::test]
async fn a_concurrency_limit_on_one_tool_sheds_its_second_call_and_no_other_tools() {
    for over in [Over::Pipe, Over::Http] {
        concurrency_limit_over(over).await;
    }
}

async fn concurrency_limit_over(over: Over) {
    let gate = gate();
    let mut registry = registry(&gate);
    registry.layer_tool("hold", ServiceBuilder::new().load_shed().concurrency_limit(1));
    let connection = Arc::new(connect(registry, over).await);
    let first = tokio::spawn({
        let connection = Arc::clone(&connection);
        async move { call(&connection, "hold", json!({})).await }
    });
    assert!(eventually(Duration::from_secs(10), || gate.entered.load(Ordering::SeqCst) == 1).await);

    let second = call(&connection, "hold", json!({})).await.expect("a result, not a protocol error");
    assert_eq!(second.is_error, Some(true));
    assert_eq!(text(&second), "the call to tool \"hold\" was turned away (service overloaded); try again later");
    assert_eq!(gate.entered.load(Ordering::SeqCst), 1, "the shed call never reached the tool");
    assert_eq!(text(&call(&connection, "ping", json!({})).await.unwrap()), "pong", "other tools are not limited");

    gate.release.add_permits(1);
    assert_eq!(text(&first.await.unwrap().unwrap()), "released");
    gate.release.add_permits(1);
    assert_eq!(text(&call(&connection, "hold", json!({})).await.unwrap()), "released", "the slot is free again");
}

#[tokio::test]
async fn a_group_layer_wraps_the_groups_tools_only() {
    for over in [Over::Pipe, Over::Http] {
        let gate = gate();
        let mut registry = registry(&gate);
        // A limit of zero is never ready: load shedding turns every call away.
        registry.layer_group("admin", ServiceBuilder::new().load_shed().concurrency_limit(0));
        let connection = connect(registry, over).await;
        let wiped = call(&connection, "wipe", json!({})).await.unwrap();
        assert_eq!(wiped.is_error, Some(true), "{over:?}");
        assert!(text(&wiped).contains("turned away (service overloaded)"), "{over:?}: {}", text(&wiped));
        assert_eq!(text(&call(&connection, "ping", json!({})).await.unwrap()), "pong");
    }
}

#[tokio::test]
async fn a_timeout_for_every_tool_cuts_a_slow_call_short_with_a_result() {
    for over in [Over::Pipe, Over::Http] {
        let gate = gate();
        let mut registry = registry(&gate);
        registry.layer(TimeoutLayer::new(Duration::from_millis(50)));
        let connection = connect(registry, over).await;
        let napped = call(&connection, "nap", json!({})).await.unwrap();
        assert_eq!(napped.is_error, Some(true), "{over:?}");
        assert!(text(&napped).contains("turned away (request timed out)"), "{over:?}: {}", text(&napped));
        assert_eq!(text(&call(&connection, "ping", json!({})).await.unwrap()), "pong");
        // A tool's own error passes through the layers unchanged.
        let unknown_state = call(&connection, "hold", json!({"extra": 1})).await.unwrap();
        assert!(text(&unknown_state).contains("extra"), "{over:?}: {}", text(&unknown_state));
    }
}
