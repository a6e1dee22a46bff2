//! What the server tests share: a server on a free port, and a JSON request to it.

use serde_json::Value;
use tool_core::a2a::server::A2aServer;

/// Serves `server` on a free port of 127.0.0.1; its base URL.
pub async fn serve(server: A2aServer) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(server.serve(listener, std::future::pending()));
    base
}

/// The JSON reply to a JSON-RPC request `body` posted to the server at `base`.
pub async fn post(base: &str, body: &Value) -> Value {
    reqwest::Client::new().post(format!("{base}/")).json(body).send().await.unwrap().json().await.unwrap()
}
