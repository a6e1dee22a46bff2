//! Push notifications: configs created, read, listed and deleted in 1.0's and 0.3's forms,
//! scoped to their task; deliveries to a real receiver on 127.0.0.1 in order, with the
//! config's token and authentication; a receiver that is down or slow never holds up the task
//! and gets a bounded number of tries; a private address is refused unless allowed.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::http::HeaderMap;
use axum::routing::post;
use serde_json::{Value, json};
use tool_core::a2a::Part;
use tool_core::a2a::server::{A2aServer, Artifact, Incoming, Outcome, PushSettings, TaskHandle};

use crate::serving::{post as rpc_post, serve};

async fn execute(request: Incoming, task: TaskHandle) -> Outcome {
    if request.text() == "wait" {
        return Outcome::InputRequired(vec![Part::text("Which city?")]);
    }
    task.working([Part::text("working")]).await;
    task.artifact(Artifact::new([Part::text("part one")])).await;
    Outcome::Completed(vec![Artifact::new([Part::text("done")])])
}

fn quick() -> PushSettings {
    PushSettings::new()
        .allow_private_addresses()
        .retries(3, Duration::from_millis(20))
        .timeout(Duration::from_millis(300))
}

async fn call(base: &str, method: &str, params: Value) -> Value {
    rpc_post(base, &json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})).await
}

fn send(text: &str, push: Option<Value>) -> Value {
    let mut params = json!({"message": {"messageId": uuid::Uuid::new_v4().to_string(), "role": "ROLE_USER", "parts": [{"text": text}]}});
    if let Some(push) = push {
        params["configuration"] = json!({"taskPushNotificationConfig": push});
    }
    params
}

/// What a receiver heard: each body with its token and authorization headers.
type Heard = Arc<Mutex<Vec<(Value, Option<String>, Option<String>)>>>;

/// A webhook on 127.0.0.1 that waits `delay` before answering; its URL and what it heard.
async fn receiver(delay: Duration) -> (String, Heard) {
    let heard: Heard = Arc::default();
    let keep = Arc::clone(&heard);
    let app = Router::new().route(
        "/hook",
        post(move |headers: HeaderMap, body: String| {
            let keep = Arc::clone(&keep);
            async move {
                let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
                let body = serde_json::from_str(&body).unwrap_or(Value::String(body));
                keep.lock().unwrap().push((body, header("x-a2a-notification-token"), header("authorization")));
                tokio::time::sleep(delay).await;
                "ok"
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, heard)
}

/// Whether `body` tells that the task completed.
fn completes(body: &Value) -> bool {
    body.pointer("/statusUpdate/status/state") == Some(&json!("TASK_STATE_COMPLETED"))
}

/// Waits (at most 1,000 tries 10 ms apart) until `heard` holds the task's last event.
async fn until_completed(heard: &Heard) -> Vec<(Value, Option<String>, Option<String>)> {
    for _ in 0..1_000 {
        if heard.lock().unwrap().iter().any(|(body, _, _)| completes(body)) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    heard.lock().unwrap().clone()
}

#[tokio::test]
async fn configs_are_created_read_listed_and_deleted_in_both_forms() {
    let base = serve(A2aServer::new(execute).with_push(quick())).await;
    let card: Value = reqwest::get(format!("{base}/.well-known/agent-card.json")).await.unwrap().json().await.unwrap();
    assert_eq!(card["capabilities"]["pushNotifications"], true);
    let task = call(&base, "SendMessage", send("wait", None)).await["result"]["task"]["id"].clone();

    let created = call(
        &base,
        "CreateTaskPushNotificationConfig",
        json!({"taskId": task, "id": "a", "url": "https://example.com/hook", "token": "t1"}),
    )
    .await;
    assert_eq!(created["result"], json!({"taskId": task, "id": "a", "url": "https://example.com/hook", "token": "t1"}));
    let got = call(&base, "GetTaskPushNotificationConfig", json!({"taskId": task, "id": "a"})).await;
    assert_eq!(got["result"]["url"], "https://example.com/hook");
    // 0.3: nested under the task, and listed bare.
    let set = call(&base, "tasks/pushNotificationConfig/set", json!({"taskId": task, "pushNotificationConfig": {"id": "b", "url": "https://example.com/b", "authentication": {"schemes": ["Bearer"], "credentials": "s"}}})).await;
    assert_eq!(
        set["result"]["pushNotificationConfig"]["authentication"],
        json!({"schemes": ["Bearer"], "credentials": "s"}),
        "{set}"
    );
    let listed = call(&base, "ListTaskPushNotificationConfigs", json!({"taskId": task})).await;
    let ids: Vec<&str> =
        listed["result"]["configs"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["a", "b"]);
    assert_eq!(listed["result"]["configs"][1]["authentication"], json!({"scheme": "Bearer", "credentials": "s"}));
    let legacy = call(&base, "tasks/pushNotificationConfig/list", json!({"id": task})).await;
    assert_eq!(legacy["result"].as_array().unwrap().len(), 2, "{legacy}");

    let deleted = call(&base, "DeleteTaskPushNotificationConfig", json!({"taskId": task, "id": "a"})).await;
    assert_eq!(deleted["result"], json!({}));
    let gone = call(&base, "GetTaskPushNotificationConfig", json!({"taskId": task, "id": "a"})).await;
    assert_eq!(gone["error"]["code"], -32001);
    let gone =
        call(&base, "tasks/pushNotificationConfig/delete", json!({"id": task, "pushNotificationConfigId": "a"})).await;
    assert_eq!(gone["error"]["code"], -32001, "deleted once");

    // An unknown task, a bad URL, a missing one.
    let unknown =
        call(&base, "CreateTaskPushNotificationConfig", json!({"taskId": "nope", "url": "https://example.com/hook"}))
            .await;
    assert_eq!(unknown["error"]["code"], -32001);
    let bad =
        call(&base, "CreateTaskPushNotificationConfig", json!({"taskId": task, "url": "ftp://example.com/x"})).await;
    assert_eq!(bad["error"]["code"], -32602);
    assert!(bad["error"]["message"].as_str().unwrap().contains("not an http or https URL"), "{bad}");
    let missing = call(&base, "CreateTaskPushNotificationConfig", json!({"taskId": task})).await;
    assert_eq!(missing["error"]["code"], -32602);

    // A server that sends none says so.
    let off = serve(A2aServer::new(execute).with_push(PushSettings::disabled())).await;
    let refused = call(&off, "ListTaskPushNotificationConfigs", json!({"taskId": task})).await;
    assert_eq!(refused["error"]["code"], -32003);
}

#[tokio::test]
async fn every_event_reaches_the_webhook_in_order_with_its_token_and_authentication() {
    let (hook, heard) = receiver(Duration::ZERO).await;
    let base = serve(A2aServer::new(execute).with_push(quick())).await;
    let push =
        json!({"url": hook, "token": "secret-token", "authentication": {"scheme": "Bearer", "credentials": "abc"}});
    let task = call(&base, "SendMessage", send("go", Some(push))).await["result"]["task"].clone();
    assert_eq!(task["status"]["state"], "TASK_STATE_COMPLETED");
    let heard = until_completed(&heard).await;
    let kinds: Vec<String> = heard
        .iter()
        .map(|(body, _, _)| {
            let key = body.as_object().unwrap().keys().next().unwrap().clone();
            let state = body.pointer("/statusUpdate/status/state").and_then(Value::as_str).unwrap_or_default();
            format!("{key} {state}").trim().to_owned()
        })
        .collect();
    assert_eq!(kinds.first().map(String::as_str), Some("task"), "{kinds:?}");
    assert!(kinds.contains(&"artifactUpdate".to_owned()), "{kinds:?}");
    assert_eq!(kinds.last().map(String::as_str), Some("statusUpdate TASK_STATE_COMPLETED"), "{kinds:?}");
    for (_, token, authorization) in &heard {
        assert_eq!((token.as_deref(), authorization.as_deref()), (Some("secret-token"), Some("Bearer abc")));
    }
}

#[tokio::test]
async fn a_webhook_that_is_down_or_slow_never_holds_up_the_task_and_is_tried_a_bounded_number_of_times() {
    // Down: nothing listens on this port any more.
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let down = format!("http://{}/hook", closed.local_addr().unwrap());
    drop(closed);
    // Slow: answers after twice the try's timeout.
    let (slow, heard) = receiver(Duration::from_millis(600)).await;
    let base = serve(A2aServer::new(execute).with_push(quick())).await;
    let first = call(&base, "SendMessage", send("go", Some(json!({"url": down})))).await["result"]["task"].clone();
    let second = call(&base, "SendMessage", send("go", Some(json!({"url": slow})))).await["result"]["task"].clone();
    let states = (first["status"]["state"].as_str(), second["status"]["state"].as_str());
    assert_eq!(states, (Some("TASK_STATE_COMPLETED"), Some("TASK_STATE_COMPLETED")));
    // The task ended before its last event was delivered: deliveries follow it, apart.
    assert!(!heard.lock().unwrap().iter().any(|(body, _, _)| completes(body)), "the task did not wait for them");
    // The server keeps serving while deliveries fail.
    let again = call(&base, "GetTask", json!({"id": first["id"]})).await;
    assert_eq!(again["result"]["status"]["state"], "TASK_STATE_COMPLETED");
    // Every event of the slow receiver's task is tried three times (each try times out), in
    // order, and never more: the last event's three tries, once they are all in.
    until_completed(&heard).await;
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let heard = heard.lock().unwrap().clone();
    let finals = heard.iter().filter(|(body, _, _)| completes(body)).count();
    assert_eq!(finals, 3, "tries of the last event");
    let firsts = heard.iter().filter(|(body, _, _)| body.get("task").is_some()).count();
    assert_eq!(firsts, 3, "tries of the first event");
}

#[tokio::test]
async fn a_private_address_is_refused_unless_allowed() {
    let (hook, heard) = receiver(Duration::ZERO).await;
    let base = serve(A2aServer::new(execute)).await;
    let task = call(&base, "SendMessage", send("go", Some(json!({"url": hook})))).await["result"]["task"].clone();
    assert_eq!(task["status"]["state"], "TASK_STATE_COMPLETED");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(heard.lock().unwrap().is_empty(), "127.0.0.1 is not called by default");
}

#[tokio::test]
async fn a_config_registered_on_one_replica_is_delivered_by_the_one_running_the_task() {
    let (hook, heard) = receiver(Duration::ZERO).await;
    let store = Arc::new(tool_core::tasks::MemoryTaskStore::new());
    let settings = tool_core::tasks::TaskSettings::default();
    let running =
        serve(A2aServer::new(execute).with_push(quick()).with_task_store(Arc::clone(&store), settings.clone())).await;
    let other = serve(A2aServer::new(execute).with_push(quick()).with_task_store(Arc::clone(&store), settings)).await;
    let task = call(&running, "SendMessage", send("wait", None)).await["result"]["task"]["id"].clone();
    let created = call(&other, "CreateTaskPushNotificationConfig", json!({"taskId": task, "url": hook})).await;
    assert!(created["result"]["id"].as_str().is_some_and(|id| !id.is_empty()), "an id is given: {created}");
    // The answer goes to the replica running the task, which reads the config the other wrote.
    let mut answer = send("Oslo", None);
    answer["message"]["taskId"] = task.clone();
    call(&running, "SendMessage", answer).await;
    let heard = until_completed(&heard).await;
    assert!(
        heard.iter().any(|(body, _, _)| completes(body) && body.pointer("/statusUpdate/taskId") == Some(&task)),
        "{heard:?}"
    );
}
