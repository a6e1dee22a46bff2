//! Questions to the client that keep the executor's place (`TaskHandle::ask`): answered through
//! the replica that asked or another one, and an agent's approvals asked that way.

use core::sync::atomic::{AtomicUsize, Ordering};
use core::time::Duration;
use std::sync::Arc;

use serde_json::{Value, json};
use tool_core::a2a::Part;
use tool_core::a2a::server::{A2aServer, Artifact, Incoming, Outcome, TaskHandle};
use tool_core::agent::{Agent, Api, ScriptedModel};
use tool_core::tasks::{MemoryTaskStore, TaskSettings};
use tool_core::{Registry, ToolArgs};

use crate::serving::{post, serve};

async fn confirm(request: Incoming, task: TaskHandle) -> Outcome {
    let first = task.ask([Part::text(format!("Sure about {}?", request.text()))]).await;
    let second = task.ask([Part::text("Really?")]).await;
    let text = format!("confirmed {}: {}, {}", request.text(), first.text(), second.text());
    Outcome::Completed(vec![Artifact::new([Part::text(text)])])
}

async fn send(base: &str, text: &str, task_id: Option<&Value>) -> Value {
    let mut message =
        json!({"messageId": uuid::Uuid::new_v4().to_string(), "role": "ROLE_USER", "parts": [{"text": text}]});
    if let Some(task_id) = task_id {
        message["taskId"] = task_id.clone();
    }
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message": message}});
    post(base, &body).await["result"]["task"].clone()
}

fn question(task: &Value) -> (&str, &str) {
    let state = task["status"]["state"].as_str().unwrap();
    (state, task["status"]["message"]["parts"][0]["text"].as_str().unwrap_or_default())
}

#[tokio::test]
async fn an_executor_asks_twice_and_keeps_its_place() {
    let base = serve(A2aServer::new(confirm)).await;
    let asked = send(&base, "the order", None).await;
    assert_eq!(question(&asked), ("TASK_STATE_INPUT_REQUIRED", "Sure about the order?"));
    let again = send(&base, "yes", Some(&asked["id"])).await;
    assert_eq!(question(&again), ("TASK_STATE_INPUT_REQUIRED", "Really?"));
    let done = send(&base, "yes!", Some(&asked["id"])).await;
    assert_eq!(done["status"]["state"], "TASK_STATE_COMPLETED");
    assert_eq!(done["artifacts"][0]["parts"][0]["text"], "confirmed the order: yes, yes!");

    // A task waiting for its answer is canceled with its executor.
    let waiting = send(&base, "the refund", None).await;
    let body = json!({"jsonrpc": "2.0", "id": 2, "method": "CancelTask", "params": {"id": waiting["id"]}});
    let canceled = post(&base, &body).await;
    assert_eq!(canceled["result"]["status"]["state"], "TASK_STATE_CANCELED");
    let refused = send(&base, "yes", Some(&waiting["id"])).await;
    assert!(refused.is_null(), "a canceled task takes no answer");
}

#[tokio::test]
async fn an_answer_reaches_the_replica_that_asked() {
    let store = Arc::new(MemoryTaskStore::new());
    let mut settings = TaskSettings::default();
    (settings.poll_interval, settings.input_poll) = (Duration::from_millis(20), Duration::from_millis(20));
    let a = serve(A2aServer::new(confirm).with_task_store(Arc::clone(&store), settings.clone())).await;
    let b = serve(A2aServer::new(confirm).with_task_store(Arc::clone(&store), settings)).await;
    let asked = send(&a, "the order", None).await;
    // Through B: written to the store, taken by A's run, B's reply the task as A leaves it.
    let again = send(&b, "yes", Some(&asked["id"])).await;
    assert_eq!(question(&again), ("TASK_STATE_INPUT_REQUIRED", "Really?"));
    let done = send(&b, "sure", Some(&asked["id"])).await;
    assert_eq!(done["artifacts"][0]["parts"][0]["text"], "confirmed the order: yes, sure");
}

static DELETED: AtomicUsize = AtomicUsize::new(0);

#[derive(ToolArgs)]
struct Target {
    /// What to delete.
    path: String,
}

/// Deletes a file.
#[tool_core::tool(requires_approval, destructive)]
fn delete_file(args: Target) -> String {
    DELETED.fetch_add(1, Ordering::SeqCst);
    format!("deleted {}", args.path)
}

fn deleting_agent() -> Agent {
    let call = json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": null, "tool_calls": [
        {"id": "call_0", "type": "function", "function": {"name": "delete_file", "arguments": "{\"path\": \"/tmp/x\"}"}}
    ]}, "finish_reason": "tool_calls"}]});
    let done = json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": "all done"}, "finish_reason": "stop"}]});
    let mut registry = Registry::new();
    registry.add(DeleteFileTool).unwrap();
    Agent::new(ScriptedModel::new(Api::OpenAiChat, [call, done]), registry)
}

#[tokio::test]
async fn an_agent_s_approvals_are_asked_of_the_client() {
    let before = DELETED.load(Ordering::SeqCst);
    let base = serve(A2aServer::agent(deleting_agent())).await;
    let asked = send(&base, "clean up", None).await;
    let (state, text) = question(&asked);
    assert_eq!(state, "TASK_STATE_INPUT_REQUIRED");
    assert!(text.contains("delete_file") && text.contains("/tmp/x"), "{text}");
    assert_eq!(asked["status"]["message"]["parts"][1]["data"]["tool"], "delete_file");
    assert_eq!(DELETED.load(Ordering::SeqCst), before, "nothing runs before the answer");
    let done = send(&base, "yes", Some(&asked["id"])).await;
    assert_eq!(done["status"]["state"], "TASK_STATE_COMPLETED");
    assert_eq!(done["artifacts"][0]["parts"][0]["text"], "all done");
    assert_eq!(DELETED.load(Ordering::SeqCst), before + 1);

    // Denied: the tool does not run, and the model reads the reason.
    let base = serve(A2aServer::agent(deleting_agent())).await;
    let asked = send(&base, "clean up", None).await;
    let done = send(&base, "no, keep it", Some(&asked["id"])).await;
    assert_eq!(done["status"]["state"], "TASK_STATE_COMPLETED");
    assert_eq!(DELETED.load(Ordering::SeqCst), before + 1);
}

/// The text of every item of a Chat Completions history.
fn texts(history: &[Value]) -> Vec<String> {
    history.iter().filter_map(|item| item["content"].as_str().map(str::to_owned)).collect()
}

#[tokio::test]
async fn a_context_s_conversation_is_continued_by_any_replica() {
    let store = Arc::new(MemoryTaskStore::new());
    let answer =
        |text: &str| json!({"choices": [{"message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]});
    let model_a = Arc::new(ScriptedModel::new(Api::OpenAiChat, [answer("Rome is sunny")]));
    let model_b = Arc::new(ScriptedModel::new(Api::OpenAiChat, [answer("Then pack light"), answer("Hello")]));
    let settings = TaskSettings::default();
    let a = A2aServer::agent(Agent::new(Arc::clone(&model_a), Registry::new()))
        .with_task_store(Arc::clone(&store), settings.clone());
    let b = A2aServer::agent(Agent::new(Arc::clone(&model_b), Registry::new()))
        .with_task_store(Arc::clone(&store), settings);
    let (a, b) = (serve(a).await, serve(b).await);
    let in_context = |text: &str, context: &str| {
        json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message":
            {"messageId": uuid::Uuid::new_v4().to_string(), "role": "ROLE_USER", "contextId": context, "parts": [{"text": text}]}}})
    };
    let first = post(&a, &in_context("Weather in Rome?", "trip-1")).await;
    assert_eq!(first["result"]["task"]["artifacts"][0]["parts"][0]["text"], "Rome is sunny");
    let second = post(&b, &in_context("What should I pack?", "trip-1")).await;
    assert_eq!(second["result"]["task"]["artifacts"][0]["parts"][0]["text"], "Then pack light");
    // B's model was sent A's exchange before the new question.
    let seen = texts(&model_b.seen()[0].history);
    assert_eq!(seen, ["Weather in Rome?", "Rome is sunny", "What should I pack?"]);
    // Another context starts afresh.
    post(&b, &in_context("Hi", "trip-2")).await;
    assert_eq!(texts(&model_b.seen()[1].history), ["Hi"]);
}
