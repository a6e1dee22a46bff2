//! 2025-11-25 tasks, beside the extension and chosen by the negotiated revision, driven as
//! raw JSON-RPC lines (rmcp's client drops 2025-11-25's task fields): `capabilities.tasks`
//! and `execution.taskSupport` stated; a task-augmented `tools/call` answered with a task,
//! followed with `tasks/get`, read with `tasks/result`, listed page by page, cancelled; a
//! call that ends in an error ends its task `failed`; the tool's questions sent to the client
//! tied to the task while it is `input_required`; and the server's own questions run as the
//! client's tasks when it says it can. Every answer is checked against the revision's
//! official schema. Every wait is bounded.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf};
use tool_core::mcp::McpServer;
use tool_core::tasks::MemoryTaskStore;
use tool_core::{ToolContext, tool};

use crate::revisions::Revision;

/// Fails, as a task may
#[tool(task = "optional")]
fn failing_job() -> Result<String, String> {
    Err("the job failed: no input".to_owned())
}

#[derive(tool_core::ToolArgs)]
struct Color {
    /// A color
    #[param(min_length = 1)]
    color: String,
}

/// Asks the user for a color, plainly
#[tool]
async fn ask_color(ctx: &ToolContext) -> Result<String, String> {
    Ok(match ctx.elicit::<Color>("Which color?").await? {
        tool_core::context::Elicitation::Accepted(answer) => format!("chose {}", answer.color),
        _ => "no color".to_owned(),
    })
}

fn server() -> McpServer {
    let mut registry = crate::tasks::registry();
    registry.add(FailingJobTool).unwrap().add(AskColorTool).unwrap();
    McpServer::new(registry).with_task_store(Arc::new(MemoryTaskStore::new()), crate::tasks::settings())
}

/// A raw client: what it sends, how it answers the server's own requests, what it was asked.
struct Raw {
    write: WriteHalf<DuplexStream>,
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    next: u64,
    schema: Revision,
    /// The server's requests, as sent.
    asked: Vec<Value>,
    /// How the client answers a server request (by its method and params); `null` holds it
    /// unanswered in `held`.
    answers: fn(&str, &Value) -> Value,
    held: Vec<Value>,
}

impl Raw {
    async fn connect(revision: &str, capabilities: Value, answers: fn(&str, &Value) -> Value) -> (Raw, Value) {
        let (client_end, server_end) = tokio::io::duplex(1 << 20);
        let (read, write) = tokio::io::split(server_end);
        tokio::spawn(tool_core::mcp::serve_io(server(), read, write));
        let (read, write) = tokio::io::split(client_end);
        let schema = Revision::load(revision);
        let mut raw = Raw {
            write,
            lines: BufReader::new(read).lines(),
            next: 0,
            schema,
            asked: Vec::new(),
            answers,
            held: Vec::new(),
        };
        let params = json!({"protocolVersion": revision, "capabilities": capabilities, "clientInfo": {"name": "raw", "version": "1"}});
        let initialized = raw.request("initialize", params).await;
        raw.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;
        (raw, initialized)
    }

    async fn send(&mut self, message: Value) {
        self.write.write_all(format!("{message}\n").as_bytes()).await.unwrap();
    }

    /// The answer to `method` (its `result`, or the whole message with its `error`),
    /// answering the server's own requests meanwhile.
    async fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})).await;
        loop {
            let line = tokio::time::timeout(Duration::from_secs(10), self.lines.next_line()).await.expect("in time");
            let message: Value = serde_json::from_str(&line.unwrap().expect("the server writes")).unwrap();
            if let Some(asked) = message.get("method").and_then(Value::as_str) {
                if let Some(own_id) = message.get("id") {
                    let answer = (self.answers)(asked, &message["params"]);
                    if answer.is_null() {
                        self.held.push(message);
                        continue;
                    }
                    self.asked.push(message.clone());
                    self.send(json!({"jsonrpc": "2.0", "id": own_id, "result": answer})).await;
                }
                continue;
            }
            if message["id"] == json!(id) {
                return message.get("result").cloned().unwrap_or(message);
            }
        }
    }

    /// `value` is a valid `definition` of the revision.
    fn valid(&self, definition: &str, value: &Value) {
        let found = self.schema.check(definition, value);
        assert!(found.is_empty(), "{definition}: {found:#?}\n{value:#}");
    }

    /// Polls `tasks/get` (at most 5 s) until the task leaves `working`; its statuses seen.
    async fn until_ended(&mut self, id: &str) -> (Value, Vec<String>) {
        let mut seen = Vec::new();
        for _ in 0..250 {
            let task = self.request("tasks/get", json!({"taskId": id})).await;
            self.valid("GetTaskResult", &task);
            let status = task["status"].as_str().unwrap().to_owned();
            if seen.last() != Some(&status) {
                seen.push(status.clone());
            }
            if !matches!(status.as_str(), "working" | "input_required") {
                return (task, seen);
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("task {id} did not end; statuses {seen:?}");
    }
}

fn no_answers(method: &str, _: &Value) -> Value {
    panic!("the server asked {method}, which this client does not answer")
}

/// A task-augmented call's created task, checked.
async fn start(raw: &mut Raw, name: &str, arguments: Value, ttl: u64) -> String {
    let created = raw.request("tools/call", json!({"name": name, "arguments": arguments, "task": {"ttl": ttl}})).await;
    raw.valid("CreateTaskResult", &created);
    assert_eq!(created["task"]["status"], "working", "{created}");
    assert_eq!(created["task"]["pollInterval"], 50, "{created}");
    created["task"]["taskId"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn the_revision_states_tasks_and_each_tools_support() {
    let (mut raw, initialized) = Raw::connect("2025-11-25", json!({}), no_answers).await;
    raw.valid("InitializeResult", &initialized);
    assert_eq!(
        initialized["capabilities"]["tasks"],
        json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}})
    );
    assert!(initialized["capabilities"].get("extensions").is_none(), "{initialized}");
    let tools = raw.request("tools/list", json!({})).await;
    raw.valid("ListToolsResult", &tools);
    let support = |name: &str| {
        let tool = tools["tools"].as_array().unwrap().iter().find(|tool| tool["name"] == name).unwrap();
        tool.get("execution").map(|execution| execution["taskSupport"].clone())
    };
    assert_eq!(support("crunch"), Some(json!("optional")));
    assert_eq!(support("batch_job"), Some(json!("required")));
    assert_eq!(support("echo"), None, "forbidden is the default, left unsaid");
    // An earlier revision has no such fields (2026-07-28 states the extension instead).
    let (mut earlier, initialized) = Raw::connect("2025-06-18", json!({}), no_answers).await;
    assert!(initialized["capabilities"].get("tasks").is_none(), "{initialized}");
    assert!(initialized["capabilities"].get("extensions").is_none(), "{initialized}");
    let tools = earlier.request("tools/list", json!({})).await;
    assert!(tools["tools"].as_array().unwrap().iter().all(|tool| tool.get("execution").is_none()), "{tools}");
}

#[tokio::test]
async fn a_task_is_created_followed_read_and_listed() {
    let (mut raw, _) = Raw::connect("2025-11-25", json!({}), no_answers).await;
    let id = start(&mut raw, "crunch", json!({"steps": 5}), 60_000).await;
    let (task, statuses) = raw.until_ended(&id).await;
    assert_eq!(task["status"], "completed", "{task}");
    assert_eq!(task["ttl"], 60_000, "the client's ttl, within the server's");
    assert!(statuses.iter().all(|status| status == "working" || status == "completed"), "{statuses:?}");
    let result = raw.request("tasks/result", json!({"taskId": id})).await;
    raw.valid("CallToolResult", &result);
    assert_eq!(result["content"][0]["text"], "crunched 5");
    assert_eq!(result["_meta"]["io.modelcontextprotocol/related-task"], json!({"taskId": id}));
    // A required-task tool called as one; listed beside the first, oldest first.
    let second = start(&mut raw, "batch_job", json!({}), 600_000_000).await;
    let listed = raw.request("tasks/list", json!({})).await;
    raw.valid("ListTasksResult", &listed);
    let ids: Vec<&str> =
        listed["tasks"].as_array().unwrap().iter().map(|task| task["taskId"].as_str().unwrap()).collect();
    assert_eq!(ids, [id.as_str(), second.as_str()]);
    assert_eq!(listed["tasks"][1]["ttl"], 300_000, "a client asks for less time than the server keeps, never more");
    let bad_cursor = raw.request("tasks/list", json!({"cursor": "not-ours"})).await;
    assert_eq!(bad_cursor["error"]["code"], -32602, "{bad_cursor}");
    // tasks/result waits for a task still working.
    let waited = raw.request("tasks/result", json!({"taskId": second})).await;
    assert_eq!(waited["content"][0]["text"], "batch done", "{waited}");
    for method in ["tasks/get", "tasks/result", "tasks/cancel"] {
        let unknown = raw.request(method, json!({"taskId": "no-such-task"})).await;
        assert_eq!(unknown["error"]["code"], -32602, "{method}: {unknown}");
        raw.valid("JSONRPCErrorResponse", &unknown);
    }
}

#[tokio::test]
async fn a_tool_that_must_or_cannot_be_a_task_is_refused_otherwise() {
    let (mut raw, _) = Raw::connect("2025-11-25", json!({}), no_answers).await;
    let plain = raw.request("tools/call", json!({"name": "batch_job", "arguments": {}})).await;
    assert_eq!(plain["error"]["code"], -32601, "{plain}");
    let as_task = raw.request("tools/call", json!({"name": "echo", "arguments": {"text": "hi"}, "task": {}})).await;
    assert_eq!(as_task["error"]["code"], -32601, "{as_task}");
    // A tool that may be a task runs plainly when not asked to be one.
    let crunched = raw.request("tools/call", json!({"name": "crunch", "arguments": {"steps": 1}})).await;
    raw.valid("CallToolResult", &crunched);
    assert_eq!(crunched["content"][0]["text"], "crunched 1");
}

#[tokio::test]
async fn a_call_that_fails_fails_its_task_and_a_cancelled_one_stays_cancelled() {
    let (mut raw, _) = Raw::connect("2025-11-25", json!({}), no_answers).await;
    let failing = start(&mut raw, "failing_job", json!({}), 60_000).await;
    let (task, _) = raw.until_ended(&failing).await;
    assert_eq!(task["status"], "failed", "{task}");
    assert!(task["statusMessage"].as_str().unwrap().contains("the job failed: no input"), "{task}");
    let result = raw.request("tasks/result", json!({"taskId": failing})).await;
    assert_eq!(result["isError"], true, "the call's own answer: {result}");
    let refused = raw.request("tasks/cancel", json!({"taskId": failing})).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert!(refused["error"]["message"].as_str().unwrap().contains("'failed'"), "{refused}");

    let running = start(&mut raw, "forever", json!({"tag": "cancelled-2025"}), 60_000).await;
    let cancelled = raw.request("tasks/cancel", json!({"taskId": running})).await;
    raw.valid("CancelTaskResult", &cancelled);
    assert_eq!(cancelled["status"], "cancelled", "cancelled before the answer: {cancelled}");
    let (task, _) = raw.until_ended(&running).await;
    assert_eq!(task["status"], "cancelled");
    for _ in 0..100 {
        if crate::tasks::stopped("cancelled-2025") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(crate::tasks::stopped("cancelled-2025"), "the tool was told to stop");
    let (task, _) = raw.until_ended(&running).await;
    assert_eq!(task["status"], "cancelled", "it stays cancelled though the tool then returned");
    let result = raw.request("tasks/result", json!({"taskId": running})).await;
    assert_eq!(result["error"]["code"], -32603, "a cancelled call has no result: {result}");
}

fn approve(method: &str, _: &Value) -> Value {
    assert_eq!(method, "elicitation/create");
    json!({"action": "accept", "content": {"approver": "Ada"}})
}

#[tokio::test]
async fn a_tasks_question_goes_to_the_client_tied_to_the_task() {
    let (mut raw, _) = Raw::connect("2025-11-25", json!({"elicitation": {}}), approve).await;
    let id = start(&mut raw, "approve", json!({}), 60_000).await;
    // The question arrives while this client waits for tasks/result.
    let result = raw.request("tasks/result", json!({"taskId": id})).await;
    assert_eq!(result["content"][0]["text"], "approved by Ada", "{result}");
    let [asked] = raw.asked.as_slice() else { panic!("one question: {:?}", raw.asked) };
    assert_eq!(asked["params"]["_meta"]["io.modelcontextprotocol/related-task"], json!({"taskId": id}));
    raw.valid("ElicitRequest", &raw.schema.framed("ElicitRequest", asked));
}

#[tokio::test]
async fn the_task_is_input_required_while_the_client_has_not_answered() {
    fn hold(_: &str, _: &Value) -> Value {
        Value::Null
    }
    let (mut raw, _) = Raw::connect("2025-11-25", json!({"elicitation": {}}), hold).await;
    let id = start(&mut raw, "approve", json!({}), 60_000).await;
    // The server's question is held unanswered until the task is seen waiting for it.
    let mut statuses = Vec::new();
    for _ in 0..200 {
        let task = raw.request("tasks/get", json!({"taskId": id})).await;
        statuses.push(task["status"].as_str().unwrap().to_owned());
        if task["status"] == "input_required" && !raw.held.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(statuses.last().map(String::as_str), Some("input_required"), "{statuses:?}");
    let [question] = raw.held.as_slice() else { panic!("one question: {:?}", raw.held) };
    let answer = json!({"action": "accept", "content": {"approver": "Grace"}});
    raw.send(json!({"jsonrpc": "2.0", "id": question["id"].clone(), "result": answer})).await;
    let (task, _) = raw.until_ended(&id).await;
    assert_eq!(task["status"], "completed");
    let result = raw.request("tasks/result", json!({"taskId": id})).await;
    assert_eq!(result["content"][0]["text"], "approved by Grace");
}

/// A client that runs elicitation as its own tasks: it answers with a task, says it works
/// once, then completed, then gives the answer.
fn client_task(method: &str, params: &Value) -> Value {
    static POLLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let task = |status: &str| json!({"taskId": "client-1", "status": status, "createdAt": "2026-11-29T00:00:00Z", "lastUpdatedAt": "2026-11-29T00:00:00Z", "ttl": 60000, "pollInterval": 50});
    match method {
        "elicitation/create" => {
            assert_eq!(params["task"]["ttl"], 600_000, "a task asked for: {params}");
            json!({"task": task("working")})
        }
        "tasks/get" => {
            assert_eq!(params["taskId"], "client-1");
            let polls = POLLS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            task(if polls == 0 { "input_required" } else { "completed" })
        }
        "tasks/result" => {
            json!({"action": "accept", "content": {"color": "teal"}, "_meta": {"io.modelcontextprotocol/related-task": {"taskId": "client-1"}}})
        }
        other => panic!("unexpected {other}"),
    }
}

#[tokio::test]
async fn the_servers_question_runs_as_the_clients_task_when_it_can() {
    let capabilities = json!({"elicitation": {}, "tasks": {"requests": {"elicitation": {"create": {}}}}});
    let (mut raw, _) = Raw::connect("2025-11-25", capabilities, client_task).await;
    let result = raw.request("tools/call", json!({"name": "ask_color", "arguments": {}})).await;
    assert_eq!(result["content"][0]["text"], "chose teal", "{result}");
    let methods: Vec<&str> = raw.asked.iter().map(|asked| asked["method"].as_str().unwrap()).collect();
    assert_eq!(methods, ["elicitation/create", "tasks/get", "tasks/get", "tasks/result"]);
    for asked in &raw.asked {
        let name = match asked["method"].as_str().unwrap() {
            "elicitation/create" => "ElicitRequest",
            "tasks/get" => "GetTaskRequest",
            _ => "GetTaskPayloadRequest",
        };
        raw.valid(name, &raw.schema.framed(name, asked));
    }
}
