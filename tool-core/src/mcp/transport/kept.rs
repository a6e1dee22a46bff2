//! What rmcp 3.11 drops from a client's message, kept where it does not. rmcp models tasks
//! as the 2026-07-28 extension only: it reads a 2025-11-25 task-augmented `tools/call`
//! (`params.task`) as a plain call and a client's `capabilities.tasks` as nothing. Before
//! rmcp reads a message (a stdio line, an HTTP body), the task request moves into the
//! request's `_meta` under [`TASK`] and the capability into `capabilities.experimental`
//! under [`CLIENT_TASKS`], both of which rmcp keeps; the server reads them there
//! (`server/tasks/era.rs`). A message that does not mention a task is passed on untouched,
//! unparsed.

use std::borrow::Cow;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt as _, AsyncRead, AsyncReadExt as _, AsyncWrite, AsyncWriteExt as _, BufReader};

/// The `_meta` key a request's 2025-11-25 `task` (`{"ttl": ms}`) is kept under.
pub(in crate::mcp) const TASK: &str = "tool-core/task";

/// The `capabilities.experimental` key a client's 2025-11-25 `tasks` capability is kept under.
pub(in crate::mcp) const CLIENT_TASKS: &str = "tool-core/tasks";

/// `message` with what rmcp would drop moved where it keeps it; the text itself when there
/// is nothing to move (or it is not JSON: rmcp words that error).
pub(in crate::mcp) fn message(text: &[u8]) -> Cow<'_, [u8]> {
    // Only a message naming a task can need a move: most are passed on unparsed.
    if !text.windows(6).any(|window| window == b"\"task\"" || window == b"\"tasks") {
        return Cow::Borrowed(text);
    }
    let Ok(mut message) = serde_json::from_slice::<Value>(text) else { return Cow::Borrowed(text) };
    if !keep(&mut message) {
        return Cow::Borrowed(text);
    }
    let mut moved = serde_json::to_vec(&message).unwrap_or_else(|_| text.to_vec());
    if text.ends_with(b"\n") {
        moved.push(b'\n');
    }
    Cow::Owned(moved)
}

/// Moves a request's `params.task` and an `initialize`'s `capabilities.tasks`; whether
/// anything moved.
fn keep(message: &mut Value) -> bool {
    let method = message.get("method").and_then(Value::as_str).unwrap_or_default().to_owned();
    let Some(Value::Object(params)) = message.get_mut("params") else { return false };
    if method == "initialize" {
        let Some(Value::Object(capabilities)) = params.get_mut("capabilities") else { return false };
        let Some(tasks) = capabilities.remove("tasks") else { return false };
        let experimental = capabilities.entry("experimental").or_insert_with(|| Value::Object(serde_json::Map::new()));
        // rmcp holds each experimental capability as an object: any other `tasks` is none.
        if let Value::Object(experimental) = experimental
            && tasks.is_object()
        {
            experimental.insert(CLIENT_TASKS.to_owned(), tasks);
        }
        return true;
    }
    let Some(task) = params.remove("task") else { return false };
    let meta = params.entry("_meta").or_insert_with(|| Value::Object(serde_json::Map::new()));
    if let Value::Object(meta) = meta {
        // A task request that is not an object is no task request: the call runs plainly.
        if task.is_object() {
            meta.insert(TASK.to_owned(), task);
        }
    }
    true
}

/// Copies newline-delimited messages from `read` to `write`, each through [`message`]; a
/// line longer than `limit` is dropped unread (the next one is read as usual). Ends when
/// `read` ends or `write` closes.
pub(in crate::mcp) async fn pump(read: impl AsyncRead + Unpin, mut write: impl AsyncWrite + Unpin, limit: usize) {
    let mut reader = BufReader::new(read);
    let mut line = Vec::new();
    loop {
        line.clear();
        let bound = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
        match (&mut reader).take(bound).read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if line.len() > limit && line.last() != Some(&b'\n') {
            // The rest of the overlong line, up to its end, goes unread.
            if !skip_line(&mut reader).await {
                break;
            }
            continue;
        }
        if write.write_all(&message(&line)).await.is_err() || write.flush().await.is_err() {
            break;
        }
    }
    let _ = write.shutdown().await;
}

/// Reads past the end of the current line; `false` at the end of the input.
async fn skip_line(reader: &mut BufReader<impl AsyncRead + Unpin>) -> bool {
    loop {
        let Ok(buffer) = reader.fill_buf().await else { return false };
        if buffer.is_empty() {
            return false;
        }
        if let Some(end) = buffer.iter().position(|byte| *byte == b'\n') {
            reader.consume(end + 1);
            return true;
        }
        let all = buffer.len();
        reader.consume(all);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    fn moved(message: &Value) -> Value {
        serde_json::from_slice(&super::message(message.to_string().as_bytes())).unwrap()
    }

    #[test]
    fn a_task_request_moves_into_meta_and_the_rest_is_untouched() {
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t", "arguments": {"task": 1}, "task": {"ttl": 5}}});
        let kept = moved(&call);
        assert_eq!(kept["params"]["_meta"][super::TASK], json!({"ttl": 5}));
        assert_eq!(kept["params"]["arguments"], json!({"task": 1}), "an argument named task stays");
        assert!(kept["params"].get("task").is_none());
        let plain = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t", "arguments": {"task": 1}}});
        assert_eq!(moved(&plain), plain);
        let text = b"{\"method\":\"ping\"}\n";
        assert!(matches!(super::message(text), std::borrow::Cow::Borrowed(_)));
    }

    #[test]
    fn a_clients_tasks_capability_moves_into_experimental() {
        let tasks = json!({"requests": {"elicitation": {"create": {}}}});
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {"tasks": tasks}, "clientInfo": {"name": "c", "version": "1"}}});
        let kept = moved(&init);
        assert_eq!(kept["params"]["capabilities"]["experimental"][super::CLIENT_TASKS], tasks);
        assert!(kept["params"]["capabilities"].get("tasks").is_none());
    }

    #[tokio::test]
    async fn the_pump_drops_an_overlong_line_and_goes_on() {
        let input = format!("{}\n{{\"method\":\"ping\"}}\n", "x".repeat(100));
        let mut output = Vec::new();
        super::pump(input.as_bytes(), &mut output, 50).await;
        assert_eq!(output, b"{\"method\":\"ping\"}\n");
    }
}
