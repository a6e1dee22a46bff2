//! Tools that change while the server serves: added, removed, hidden and shown through a
//! `ToolsHandle`, every connected client told, calls refused once a tool is gone.

use std::sync::atomic::Ordering;
use std::time::Duration;

use rmcp::ServiceExt;
use serde_json::json;
use tool_core::{DynamicTool, ToolOutput};

use crate::fixture::{Client, call, server, text};

async fn eventually(done: impl FnMut() -> bool) -> bool {
    crate::fixture::eventually(Duration::from_secs(10), done).await
}

#[tokio::test]
async fn tools_added_removed_hidden_and_shown_while_serving() {
    let server = server();
    let handle = server.tools_handle();
    let client = Client::default();
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(tool_core::mcp::serve_io(server, read, write));
    let connection = client.clone().serve(client_end).await.unwrap();
    let capabilities = connection.peer_info().unwrap().capabilities.tools.clone().unwrap();
    assert_eq!(capabilities.list_changed, Some(true));
    let names = |tools: &[rmcp::model::Tool]| tools.iter().map(|tool| tool.name.to_string()).collect::<Vec<_>>();
    let before = names(&connection.list_all_tools().await.unwrap());

    let greet = DynamicTool::new("greet", "Greets", r#"{"type":"object","properties":{}}"#, |_, _| async {
        Ok(ToolOutput::text("hello"))
    })
    .unwrap();
    handle.update(|registry| registry.add_dynamic(greet).map(|_| ())).await.unwrap();
    assert!(eventually(|| client.list_changed.load(Ordering::SeqCst) == 1).await, "the client is told");
    let after = names(&connection.list_all_tools().await.unwrap());
    assert_eq!(after.len(), before.len() + 1);
    assert!(after.contains(&"greet".to_owned()));
    assert_eq!(text(&call(&connection, "greet", json!({})).await.unwrap()), "hello");

    assert!(handle.disable("echo").await);
    assert!(eventually(|| client.list_changed.load(Ordering::SeqCst) == 2).await);
    assert!(!names(&connection.list_all_tools().await.unwrap()).contains(&"echo".to_owned()));
    let hidden = call(&connection, "echo", json!({"zebra": "x", "apple": 1})).await.unwrap_err();
    assert!(hidden.contains("Unknown tool: echo"), "{hidden}");
    assert_eq!(handle.disabled(), ["echo"]);
    assert!(!handle.disable("echo").await, "already hidden");

    assert!(handle.enable("echo").await);
    assert!(eventually(|| client.list_changed.load(Ordering::SeqCst) == 3).await);
    assert_eq!(text(&call(&connection, "echo", json!({"zebra": "back", "apple": 1})).await.unwrap()), "back 1");

    let removed = handle.update(|registry| registry.remove("greet").is_some()).await;
    assert!(removed);
    assert_eq!(names(&connection.list_all_tools().await.unwrap()), before);
    assert!(eventually(|| client.list_changed.load(Ordering::SeqCst) == 4).await);
    connection.cancel().await.unwrap();
}

#[tokio::test]
async fn a_hidden_tool_whose_name_was_taken_stays_hidden() {
    let handle = server().tools_handle();
    assert!(handle.disable("echo").await);
    let other = DynamicTool::new("echo", "Another echo", r#"{"type":"object","properties":{}}"#, |_, _| async {
        Ok(ToolOutput::text("other"))
    })
    .unwrap();
    handle.update(|registry| registry.add_dynamic(other).map(|_| ())).await.unwrap();
    assert!(!handle.enable("echo").await, "the name is taken");
    assert_eq!(handle.disabled(), ["echo"], "kept, not lost");
    assert_eq!(handle.registry().get("echo").unwrap().description(), "Another echo");
    handle.update(|registry| registry.remove("echo")).await.unwrap();
    assert!(handle.enable("echo").await);
    assert!(handle.disabled().is_empty());
    assert_ne!(handle.registry().get("echo").unwrap().description(), "Another echo");
}

/// Tools are listed in the order they were added; one hidden and shown again keeps its
/// place, one added while serving comes last.
#[tokio::test]
async fn the_list_keeps_the_order_tools_were_added_in() {
    let server = server();
    let handle = server.tools_handle();
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(tool_core::mcp::serve_io(server, read, write));
    let connection = Client::default().serve(client_end).await.unwrap();
    let names = async || {
        let tools = connection.list_all_tools().await.unwrap();
        tools.iter().map(|tool| tool.name.to_string()).collect::<Vec<_>>()
    };
    let before = names().await;
    assert_eq!(before[..3], ["echo", "boom", "refuse"]);
    assert!(handle.disable("boom").await && handle.enable("boom").await);
    assert_eq!(names().await, before, "shown again in its place");
    let late = DynamicTool::new("a_late_one", "Added last", r#"{"type":"object","properties":{}}"#, |_, _| async {
        Ok(ToolOutput::text("late"))
    })
    .unwrap();
    handle.update(|registry| registry.add_dynamic(late).map(|_| ())).await.unwrap();
    let after = names().await;
    assert_eq!(after.last().map(String::as_str), Some("a_late_one"), "{after:?}");
    assert_eq!(after[..after.len() - 1], before[..]);
    connection.cancel().await.unwrap();
}
