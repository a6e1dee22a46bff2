//! Long-running tools as MCP tasks (the `io.modelcontextprotocol/tasks` extension): the call
//! answered at once with a task, followed with `tasks/get`, fed with `tasks/update`, stopped
//! with `tasks/cancel`; from any replica sharing the store; a dead replica's task read as
//! failed; an expired task forgotten and its tool stopped. Every wait is bounded.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, ErrorCode, GetTaskParams, ProtocolVersion, TaskPayload,
    TaskStatus, UpdateTaskParams,
};
use rmcp::service::ClientLifecycleMode;
use serde_json::{Value, json};
use tool_core::mcp::McpServer;
use tool_core::tasks::{MemoryTaskStore, TaskSettings};
use tool_core::{Registry, ToolArgs, ToolContext, tool};

use crate::fixture::{Client, Connection};

#[derive(ToolArgs)]
struct CrunchArgs {
    /// How many steps
    #[param(minimum = 1, maximum = 20)]
    steps: u32,
}

/// Crunches numbers for a while
#[tool(task = "optional")]
async fn crunch(ctx: &ToolContext, args: CrunchArgs) -> String {
    for step in 1..=args.steps {
        tokio::time::sleep(Duration::from_millis(10)).await;
        ctx.report_progress(f64::from(step), Some(f64::from(args.steps)), Some("crunching"));
    }
    format!("crunched {}", args.steps)
}

/// Only ever runs as a task
#[tool(task = "required")]
fn batch_job() -> String {
    "batch done".to_owned()
}

#[derive(ToolArgs)]
struct Approval {
    /// Who approves
    #[param(min_length = 1)]
    approver: String,
}

/// Waits for a human's approval
#[tool(task = "optional")]
async fn approve(ctx: &ToolContext) -> Result<String, String> {
    Ok(match ctx.elicit::<Approval>("Who approves the deploy?").await? {
        tool_core::context::Elicitation::Accepted(approval) => format!("approved by {}", approval.approver),
        _ => "not approved".to_owned(),
    })
}

/// The tags of the `forever` calls that stopped on their cancellation token (tests run
/// concurrently, so each looks for its own).
static STOPPED: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

pub(crate) fn stopped(tag: &str) -> bool {
    STOPPED.lock().unwrap().iter().any(|stopped| stopped == tag)
}

#[derive(ToolArgs)]
struct Tag {
    /// Which test's call it is
    tag: String,
}

/// Runs until cancelled
#[tool(task = "optional")]
async fn forever(ctx: &ToolContext, args: Tag) -> Result<String, String> {
    ctx.cancelled().await;
    STOPPED.lock().unwrap().push(args.tag);
    Err("stopped".to_owned())
}

pub(crate) fn registry() -> Registry {
    let mut registry = Registry::new();
    registry.add(CrunchTool).unwrap().add(BatchJobTool).unwrap().add(ApproveTool).unwrap().add(ForeverTool).unwrap();
    registry.add(crate::fixture::EchoTool).unwrap();
    registry
}

/// Short leases (1 s: a heartbeat every third of it), so a lapse is seen in a test's time.
pub(crate) fn settings() -> TaskSettings {
    TaskSettings::new()
        .with_lease(Duration::from_secs(1))
        .with_input_poll(Duration::from_millis(20))
        .with_poll_interval(Duration::from_millis(50))
}

fn replica(store: &Arc<MemoryTaskStore>) -> McpServer {
    McpServer::new(registry()).with_task_store(Arc::clone(store), settings())
}

/// A 2026-07-28 client of `server` over an in-process pipe, declaring the extension (or not).
async fn connect(server: McpServer, tasks: bool) -> Connection {
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(tool_core::mcp::serve_io(server, read, write));
    let lifecycle = ClientLifecycleMode::Discover { preferred_versions: vec![ProtocolVersion::V_2026_07_28] };
    let client = Client { version: Some(ProtocolVersion::V_2026_07_28), tasks, ..Client::capable() };
    rmcp::service::ClientServiceExt::serve_with_lifecycle(client, client_end, lifecycle).await.expect("discovers")
}

async fn start(connection: &Connection, name: &'static str, arguments: Value) -> String {
    let Value::Object(arguments) = arguments else { panic!("arguments are an object") };
    let request = CallToolRequestParams::new(name).with_arguments(arguments);
    match connection.call_tool_once(request).await.unwrap() {
        CallToolResponse::Task(created) => {
            assert_eq!(created.task.status, TaskStatus::Working);
            assert_eq!(created.task.poll_interval_ms, Some(50));
            assert_eq!(created.task.ttl_ms, Some(300_000));
            created.task.task_id
        }
        other => panic!("expected a task, got {other:?}"),
    }
}

/// Polls `tasks/get` (at most 5 s) until `done` holds; the last state.
async fn poll(connection: &Connection, id: &str, done: impl Fn(&TaskPayload) -> bool) -> TaskPayload {
    for _ in 0..250 {
        let got = connection.get_task(GetTaskParams::new(id)).await.unwrap();
        if done(&got.task.payload) {
            return got.task.payload;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("task {id} never reached the state waited for");
}

fn finished(payload: &TaskPayload) -> bool {
    payload.status().is_terminal()
}

fn result_text(payload: &TaskPayload) -> String {
    let TaskPayload::Completed { result } = payload else { panic!("not completed: {payload:?}") };
    result["content"][0]["text"].as_str().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn a_task_capable_call_is_answered_with_a_task_whose_result_follows() {
    let store = Arc::new(MemoryTaskStore::new());
    let connection = connect(replica(&store), true).await;
    let info = connection.peer_info().expect("discovered");
    assert!(info.capabilities.extensions.as_ref().is_some_and(|e| e.contains_key("io.modelcontextprotocol/tasks")));

    let id = start(&connection, "crunch", json!({"steps": 5})).await;
    let done = poll(&connection, &id, finished).await;
    assert_eq!(result_text(&done), "crunched 5");

    // Validation still comes first: bad arguments end the task with the model-readable error.
    let id = start(&connection, "crunch", json!({"steps": 0})).await;
    let TaskPayload::Completed { result } = poll(&connection, &id, finished).await else { panic!("completed") };
    assert_eq!(result["isError"], true);
    assert!(Value::Object(result.clone()).to_string().contains("/steps"), "{result:?}");
    connection.cancel().await.unwrap();
}

#[tokio::test]
async fn progress_becomes_the_status_message() {
    let store = Arc::new(MemoryTaskStore::new());
    let connection = connect(replica(&store), true).await;
    let id = start(&connection, "crunch", json!({"steps": 20})).await;
    let mut seen = None;
    for _ in 0..250 {
        let got = connection.get_task(GetTaskParams::new(&id)).await.unwrap();
        let working = got.task.status() == TaskStatus::Working;
        if let Some(message) = got.task.task.status_message.filter(|_| working) {
            seen = Some(message);
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let seen = seen.expect("a working task reported its progress");
    assert!(seen.starts_with("crunching (") && seen.ends_with("/20)"), "{seen}");
    poll(&connection, &id, finished).await;
    connection.cancel().await.unwrap();
}

#[tokio::test]
async fn without_the_extension_an_optional_tool_runs_as_a_call_and_a_required_one_is_refused() {
    let store = Arc::new(MemoryTaskStore::new());
    let connection = connect(replica(&store), false).await;
    let answer = crate::fixture::call(&connection, "crunch", json!({"steps": 2})).await.unwrap();
    assert_eq!(crate::fixture::text(&answer), "crunched 2");
    let refused = crate::fixture::call(&connection, "batch_job", json!({})).await.unwrap_err();
    assert!(refused.contains("-32021") || refused.to_lowercase().contains("capabilit"), "{refused}");
    // A tool that is no task is an ordinary call for a client that declared the extension.
    let tasks = connect(replica(&store), true).await;
    let echoed = crate::fixture::call(&tasks, "echo", json!({"zebra": "z", "apple": 1})).await.unwrap();
    assert_eq!(crate::fixture::text(&echoed), "z 1");
    let id = start(&tasks, "batch_job", json!({})).await;
    assert_eq!(result_text(&poll(&tasks, &id, finished).await), "batch done");
    connection.cancel().await.unwrap();
    tasks.cancel().await.unwrap();
}

#[tokio::test]
async fn an_elicitation_is_an_input_request_answered_with_tasks_update_on_another_replica() {
    let store = Arc::new(MemoryTaskStore::new());
    let first = connect(replica(&store), true).await;
    let second = connect(replica(&store), true).await;
    let id = start(&first, "approve", json!({})).await;
    let asked = poll(&second, &id, |payload| matches!(payload, TaskPayload::InputRequired { .. })).await;
    let TaskPayload::InputRequired { input_requests } = asked else { unreachable!() };
    let (key, request) = input_requests.iter().next().expect("one request");
    let request = serde_json::to_value(request).unwrap();
    assert_eq!(request["method"], "elicitation/create");
    assert_eq!(request["params"]["message"], "Who approves the deploy?");

    // Answered through the other replica: the task's own replica finds the answer in the store.
    let mut responses = std::collections::BTreeMap::new();
    responses.insert(key.clone(), json!({"action": "accept", "content": {"approver": "Ada"}}));
    second.update_task(UpdateTaskParams::new(&id, responses)).await.unwrap();
    let done = poll(&second, &id, finished).await;
    assert_eq!(result_text(&done), "approved by Ada");
    first.cancel().await.unwrap();
    second.cancel().await.unwrap();
}

#[tokio::test]
async fn tasks_cancel_through_another_replica_stops_the_tool() {
    let store = Arc::new(MemoryTaskStore::new());
    let first = connect(replica(&store), true).await;
    let second = connect(replica(&store), true).await;
    let id = start(&first, "forever", json!({"tag": "cancelled"})).await;
    assert_eq!(poll(&second, &id, |_| true).await.status(), TaskStatus::Working);
    second.cancel_task(CancelTaskParams::new(&id)).await.unwrap();
    let ended = poll(&first, &id, finished).await;
    assert_eq!(ended.status(), TaskStatus::Cancelled);
    assert!(stopped("cancelled"));
    first.cancel().await.unwrap();
    second.cancel().await.unwrap();
}

#[tokio::test]
async fn an_unknown_task_is_an_invalid_params_error() {
    let store = Arc::new(MemoryTaskStore::new());
    let connection = connect(replica(&store), true).await;
    for error in [
        connection.get_task(GetTaskParams::new("nope")).await.unwrap_err(),
        connection.cancel_task(CancelTaskParams::new("nope")).await.unwrap_err(),
    ] {
        let rmcp::ServiceError::McpError(error) = error else { panic!("{error:?}") };
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        assert!(error.message.contains("Unknown task: nope"), "{}", error.message);
    }
    connection.cancel().await.unwrap();
}

/// A replica dies (its runtime is shut down, every task on it dropped): its task's lease
/// lapses and another replica reports it failed, once and for good.
#[tokio::test]
async fn a_task_whose_replica_died_reads_failed() {
    let store = Arc::new(MemoryTaskStore::new());
    let doomed = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_end);
    doomed.spawn(tool_core::mcp::serve_io(replica(&store), read, write));
    let lifecycle = ClientLifecycleMode::Discover { preferred_versions: vec![ProtocolVersion::V_2026_07_28] };
    let client = Client { version: Some(ProtocolVersion::V_2026_07_28), tasks: true, ..Client::capable() };
    let dying = rmcp::service::ClientServiceExt::serve_with_lifecycle(client, client_end, lifecycle).await.unwrap();
    let id = start(&dying, "forever", json!({"tag": "died"})).await;
    doomed.shutdown_background();

    let survivor = connect(replica(&store), true).await;
    let ended = poll(&survivor, &id, finished).await;
    let TaskPayload::Failed { error } = &ended else { panic!("{ended:?}") };
    assert_eq!(error["code"], -32603);
    assert!(error["message"].as_str().unwrap().contains("stopped before it finished"), "{error:?}");
    // The failure was written back: every later read agrees.
    let again = survivor.get_task(GetTaskParams::new(&id)).await.unwrap();
    assert_eq!(again.task.status(), TaskStatus::Failed);
    survivor.cancel().await.unwrap();
}

/// A task is forgotten its time to live after creation; its tool is stopped.
#[tokio::test]
async fn an_expired_task_is_forgotten_and_its_tool_stopped() {
    let store = Arc::new(MemoryTaskStore::new());
    let server = McpServer::new(registry()).with_task_store(
        Arc::clone(&store),
        settings().with_ttl(Some(Duration::from_millis(200))).with_lease(Duration::from_millis(300)),
    );
    let connection = connect(server, true).await;
    let arguments = json!({"tag": "expired"}).as_object().cloned().unwrap();
    let request = CallToolRequestParams::new("forever").with_arguments(arguments);
    let CallToolResponse::Task(created) = connection.call_tool_once(request).await.unwrap() else { panic!("a task") };
    assert_eq!(created.task.ttl_ms, Some(200));
    let id = created.task.task_id;
    let mut forgotten = false;
    for _ in 0..100 {
        if connection.get_task(GetTaskParams::new(&id)).await.is_err() {
            forgotten = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(forgotten, "the task outlived its time to live");
    for _ in 0..100 {
        if stopped("expired") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(stopped("expired"), "the expired task's tool was not told to stop");
    connection.cancel().await.unwrap();
}

/// The store's contract on its own: writes act only on a task that exists.
#[tokio::test]
async fn the_memory_store_never_brings_back_an_expired_task() {
    crate::task_store::holds_its_contract(&MemoryTaskStore::new(), Duration::from_millis(30)).await;
}

/// The memory store's listing (A2A's `ListTasks`): pages, filters and counts from the
/// listing alone.
#[tokio::test]
async fn the_memory_store_lists_its_tasks_in_order_filtered_and_counted() {
    crate::task_store::lists_its_tasks(&MemoryTaskStore::new(), Duration::from_millis(200)).await;
}
