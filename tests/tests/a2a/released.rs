//! An executor that ends the blocking wait early (`TaskHandle::release`): a blocking
//! `SendMessage` returns the task working, the work goes on in the background, and its
//! outcome reaches `GetTask` and `ListTasks`; an executor that does not release still answers
//! a blocking `SendMessage` once the task is terminal.

use std::sync::Arc;

use serde_json::{Value, json};
use tokio::sync::Notify;
use tool_core::a2a::Part;
use tool_core::a2a::server::{A2aServer, Artifact, Outcome};

use crate::serving::{post, serve};

async fn rpc(base: &str, method: &str, params: Value) -> Value {
    post(base, &json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})).await["result"].clone()
}

fn send(text: &str) -> Value {
    json!({"message": {"messageId": uuid::Uuid::new_v4().to_string(), "role": "ROLE_USER", "parts": [{"text": text}]}})
}

#[tokio::test]
async fn a_released_task_is_returned_working_and_finishes_in_the_background() {
    let go_on = Arc::new(Notify::new());
    let gate = Arc::clone(&go_on);
    let server =
        A2aServer::new(move |request: tool_core::a2a::server::Incoming, task: tool_core::a2a::server::TaskHandle| {
            let gate = Arc::clone(&gate);
            async move {
                if request.text() != "background" {
                    return Outcome::Completed(vec![Artifact::new([Part::text("at once")])]);
                }
                task.release().await;
                gate.notified().await;
                Outcome::Completed(vec![Artifact::new([Part::text("done later")])])
            }
        });
    let base = serve(server).await;

    let task = rpc(&base, "SendMessage", send("background")).await["task"].clone();
    assert_eq!(task["status"]["state"], "TASK_STATE_WORKING", "the blocking reply came before the work ended: {task}");
    let id = task["id"].clone();
    let now = rpc(&base, "GetTask", json!({"id": id})).await;
    assert_eq!(now["status"]["state"], "TASK_STATE_WORKING");
    let listed = rpc(&base, "ListTasks", json!({"status": "TASK_STATE_WORKING"})).await;
    assert!(listed["tasks"].as_array().unwrap().iter().any(|listed| listed["id"] == id), "{listed}");

    go_on.notify_one();
    let mut finished = Value::Null;
    for _ in 0..200 {
        finished = rpc(&base, "GetTask", json!({"id": id})).await;
        if finished["status"]["state"] == "TASK_STATE_COMPLETED" {
            break;
        }
        tokio::time::sleep(core::time::Duration::from_millis(10)).await;
    }
    assert_eq!(finished["status"]["state"], "TASK_STATE_COMPLETED", "{finished}");
    assert_eq!(finished["artifacts"][0]["parts"][0]["text"], "done later");

    // Without a release, a blocking send still waits for the end.
    let whole = rpc(&base, "SendMessage", send("now")).await["task"].clone();
    assert_eq!(whole["status"]["state"], "TASK_STATE_COMPLETED");
}
