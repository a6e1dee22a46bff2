//! Many calls at once: 50 on one connection, and 10 connections at a time; every answer
//! must belong to its own request.

use serde_json::json;

use tool_core::mcp::HttpOptions;

use crate::fixture::{Client, Connection, Http, call, connect_pipe, text};

async fn fifty_at_once(connection: &Connection, tag: &str) {
    let calls = (0..50_u32).map(|i| async move {
        let zebra = format!("{tag}{i}");
        let result = call(connection, "echo", json!({"zebra": zebra, "apple": i})).await.unwrap();
        (i, text(&result))
    });
    for (i, answer) in futures_util::future::join_all(calls).await {
        assert_eq!(answer, format!("{tag}{i} {i}"));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_concurrent_calls_on_one_connection() {
    let pipe = connect_pipe(Client::default()).await;
    fifty_at_once(&pipe, "pipe").await;
    pipe.cancel().await.unwrap();
    let http = Http::start(HttpOptions::default()).await;
    let connection = http.connect(Client::default()).await;
    fifty_at_once(&connection, "http").await;
    connection.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_connections_at_once() {
    let http = Http::start(HttpOptions::default()).await;
    let http = &http;
    let sessions = (0..10).map(|session| async move {
        let connection = http.connect(Client::default()).await;
        fifty_at_once(&connection, &format!("s{session}-")).await;
        connection.cancel().await.unwrap();
    });
    futures_util::future::join_all(sessions).await;
}
