//! rmcp's own answers to malformed JSON-RPC, with a bare rmcp server (no tool-core in the
//! path): the reproduction of the upstream report in `docs/upstream/rmcp-json-rpc-errors.md`,
//! which is why tool-core answers these itself (`tool-core/src/mcp/transport/malformed.rs` on HTTP,
//! `mcp::serve_io` on a byte stream; `malformed.rs` beside this file shows those answers).
//!
//! It pins rmcp's answers as they are. When it fails, rmcp has changed: read the report
//! again, and drop what of our layer rmcp now does itself.

use std::sync::Arc;

use rmcp::ServerHandler;
use rmcp::model::{ServerCapabilities, ServerConfig};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::{Value, json};

/// An rmcp server with the default handler, as its users start one.
#[derive(Clone)]
struct Bare;

impl ServerHandler for Bare {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

async fn serve_bare() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let service: StreamableHttpService<Bare, LocalSessionManager> = StreamableHttpService::new(
        || Ok(Bare),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let router = axum::Router::new().nest_service("/mcp", service);
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    format!("http://{addr}/mcp")
}

/// rmcp on HTTP: a body that is no JSON-RPC 2.0 message is `415 Unsupported Media Type` with
/// a line of text, where JSON-RPC says `-32700` or `-32600` in a JSON body, and the
/// streamable HTTP transport says 400.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rmcp_alone_answers_a_malformed_body_with_415_and_text() {
    let url = serve_bare().await;
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    for body in [
        "{not json",
        deep.as_str(),
        r#"{"jsonrpc":"1.0","id":1,"method":"tools/list"}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":7}"#,
    ] {
        let response = crate::fixture::post_raw(&url, body).await;
        let status = response.status().as_u16();
        let content_type = response.headers().get("content-type").map(|v| v.to_str().unwrap().to_owned());
        let text = response.text().await.unwrap();
        assert_eq!(status, 415, "{body}: {text}");
        assert!(serde_json::from_str::<Value>(&text).is_err(), "not a JSON-RPC error: {body}: {text}");
        assert_ne!(content_type.as_deref(), Some("application/json"), "{body}: {text}");
    }
}

/// rmcp on a byte stream: a `tools/call` whose params break their shape is "method not
/// found", `-32601`, where JSON-RPC says invalid params, `-32602`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rmcp_alone_answers_misshapen_tool_call_params_with_method_not_found() {
    use rmcp::ServiceExt as _;
    let (client, server) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server);
    tokio::spawn(async move {
        let transport = rmcp::transport::async_rw::AsyncRwTransport::new_server(read, write);
        if let Ok(running) = Bare.serve(transport).await {
            let _ = running.waiting().await;
        }
    });
    let mut raw = crate::fixture::RawLines::initialized(client).await;
    for (id, params) in [
        (1, json!({"name": "echo", "arguments": [1, 2]})),
        (2, json!({"name": "echo", "arguments": "text"})),
        (3, json!({"name": 7})),
    ] {
        let answer = raw.ask(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})).await;
        assert_eq!((answer["id"].as_i64(), answer["error"]["code"].as_i64()), (Some(id), Some(-32601)), "{answer}");
    }
}
