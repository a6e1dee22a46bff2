//! A `#[tools]` block served over MCP as free fns are: listed with its schemas, called with
//! its receiver, and a tool error, a panic and a cancellation each as a fn's.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, ClientRequest, Request};
use rmcp::service::{PeerRequestOptions, ServiceExt};
use serde_json::json;
use tool_core::mcp::McpServer;
use tool_core::{Registry, ToolContext, tool, tools};

use crate::fixture::{Client, Connection, call, text};

#[derive(Default)]
struct Notes {
    entries: Mutex<Vec<String>>,
    waits: AtomicUsize,
    observed: Mutex<Option<&'static str>>,
}

#[tools]
impl Notes {
    /// Adds a note.
    ///
    /// # Arguments
    /// * `text` - what to note
    #[tool(name = "notes_add")]
    fn add(&self, #[param(min_length = 1)] text: String) -> String {
        let mut entries = self.entries.lock().unwrap();
        entries.push(text);
        entries.len().to_string()
    }

    /// Reads the notes back.
    #[tool(name = "notes_read", read_only)]
    async fn read(&self) -> Result<String, String> {
        tokio::task::yield_now().await;
        let entries = self.entries.lock().unwrap();
        if entries.is_empty() { Err("no notes yet".to_owned()) } else { Ok(entries.join("; ")) }
    }

    /// Panics.
    #[tool(name = "notes_crash")]
    fn crash(&self) -> String {
        let count = self.entries.lock().unwrap().len();
        panic!("notes crashed after {count} notes")
    }

    /// Waits until cancelled.
    #[tool(name = "notes_wait")]
    async fn wait(&self, ctx: &ToolContext) -> String {
        self.waits.fetch_add(1, Ordering::SeqCst);
        tokio::select! {
            () = ctx.cancelled() => *self.observed.lock().unwrap() = Some("cancelled"),
            () = tokio::time::sleep(Duration::from_secs(30)) => *self.observed.lock().unwrap() = Some("finished"),
        }
        "done".to_owned()
    }
}

async fn connect(notes: Arc<Notes>) -> Connection {
    let mut registry = Registry::new();
    registry.add_all(notes).unwrap();
    let server = McpServer::new(registry).with_server_info("notes", "1.0.0");
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(tool_core::mcp::serve_io(server, read, write));
    Client::default().serve(client_end).await.expect("the client connects")
}

async fn eventually(done: impl FnMut() -> bool) -> bool {
    crate::fixture::eventually(Duration::from_secs(10), done).await
}

#[tokio::test]
async fn a_method_block_is_served_like_free_fns() {
    let notes = Arc::new(Notes::default());
    let connection = connect(Arc::clone(&notes)).await;
    let tools = connection.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    assert_eq!(names, ["notes_add", "notes_read", "notes_crash", "notes_wait"], "in declaration order");
    let add = tools.iter().find(|tool| tool.name == "notes_add").unwrap();
    assert_eq!(
        serde_json::to_value(&add.input_schema).unwrap(),
        json!({"type": "object", "properties": {"text": {"description": "what to note", "type": "string", "minLength": 1}}, "required": ["text"], "additionalProperties": false})
    );
    assert_eq!(add.description.as_deref(), Some("Adds a note."));

    let empty = call(&connection, "notes_read", json!({})).await.unwrap();
    assert_eq!((text(&empty), empty.is_error), ("tool \"notes_read\" failed: no notes yet".to_owned(), Some(true)));
    assert_eq!(text(&call(&connection, "notes_add", json!({"text": "milk"})).await.unwrap()), "1");
    assert_eq!(text(&call(&connection, "notes_add", json!({"text": "eggs"})).await.unwrap()), "2");
    let invalid = call(&connection, "notes_add", json!({"text": ""})).await.unwrap();
    assert_eq!(invalid.is_error, Some(true));
    assert!(text(&invalid).contains("/text: must be at least 1 character long"), "{}", text(&invalid));
    assert_eq!(text(&call(&connection, "notes_read", json!({})).await.unwrap()), "milk; eggs");
    assert_eq!(notes.entries.lock().unwrap().len(), 2, "the calls reached the value the test holds");

    let crashed = call(&connection, "notes_crash", json!({})).await.unwrap();
    assert_eq!(crashed.is_error, Some(true));
    assert!(text(&crashed).contains("notes crashed"), "{}", text(&crashed));

    let request = ClientRequest::CallToolRequest(Request::new(CallToolRequestParams::new("notes_wait")));
    let handle = connection.send_cancellable_request(request, PeerRequestOptions::no_options()).await.unwrap();
    assert!(eventually(|| notes.waits.load(Ordering::SeqCst) == 1).await);
    handle.cancel(Some("stop".to_owned())).await.unwrap();
    assert!(eventually(|| notes.observed.lock().unwrap().is_some()).await);
    assert_eq!(*notes.observed.lock().unwrap(), Some("cancelled"));
    assert_eq!(text(&call(&connection, "notes_add", json!({"text": "after"})).await.unwrap()), "3");
    connection.cancel().await.unwrap();
}
