//! `ListTasks` pages chained by a cursor: a task updated between two pages moves ahead of the
//! cursor and is never listed twice, and every task is listed once in a listing where nothing
//! changes. A page reads its own tasks from the store's listing, not every task; a store that
//! keeps no listing gives the same pages by reading them all.

use core::time::Duration;
use std::sync::Arc;

use serde_json::{Value, json};
use tool_core::a2a::Part;
use tool_core::a2a::server::{A2aServer, Artifact, Incoming, Outcome, TaskHandle};
use tool_core::tasks::{MemoryTaskStore, TaskSettings};

use crate::counting_store::Counting;
use crate::serving::{post, serve};

async fn execute(request: Incoming, _task: TaskHandle) -> Outcome {
    if request.continues {
        return Outcome::Completed(vec![Artifact::new([Part::text("answered")])]);
    }
    Outcome::InputRequired(vec![Part::text("Which city?")])
}

async fn rpc(base: &str, method: &str, params: Value) -> Value {
    post(base, &json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})).await["result"].clone()
}

fn message(task_id: Option<&Value>) -> Value {
    let mut message =
        json!({"messageId": uuid::Uuid::new_v4().to_string(), "role": "ROLE_USER", "parts": [{"text": "go"}]});
    if let Some(id) = task_id {
        message["taskId"] = id.clone();
    }
    json!({"message": message})
}

fn ids(page: &Value) -> Vec<String> {
    page["tasks"].as_array().unwrap().iter().map(|task| task["id"].as_str().unwrap().to_owned()).collect()
}

/// Every task, page by page, `size` at a time; `between` runs after the first page.
async fn walk(base: &str, size: u64, mut between: impl AsyncFnMut()) -> Vec<String> {
    let mut seen = Vec::new();
    let mut token = String::new();
    for page_number in 0..50 {
        let page = rpc(base, "ListTasks", json!({"pageSize": size, "pageToken": token})).await;
        seen.extend(ids(&page));
        token = page["nextPageToken"].as_str().unwrap().to_owned();
        if page_number == 0 {
            between().await;
        }
        if token.is_empty() {
            break;
        }
    }
    seen
}

#[tokio::test]
async fn pages_chain_by_cursor_and_never_list_a_task_twice() {
    let base = serve(A2aServer::new(execute)).await;
    let mut created = Vec::new();
    for _ in 0..7 {
        created.push(rpc(&base, "SendMessage", message(None)).await["task"]["id"].clone());
        // Distinct update times, so the order is the creation order reversed.
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // Nothing changes: every task once, the most recently updated first.
    let listed = walk(&base, 3, async || {}).await;
    let newest_first: Vec<String> = created.iter().rev().map(|id| id.as_str().unwrap().to_owned()).collect();
    assert_eq!(listed, newest_first);

    // The oldest task (not listed yet) and the newest (listed) are updated after the first
    // page: neither is listed twice, and every task left behind the cursor still is.
    let (oldest, newest) = (created[0].clone(), created[6].clone());
    let base_for_update = base.clone();
    let listed = walk(&base, 3, async || {
        for id in [&oldest, &newest] {
            let answered = rpc(&base_for_update, "SendMessage", message(Some(id))).await;
            assert_eq!(answered["task"]["status"]["state"], "TASK_STATE_COMPLETED");
        }
    })
    .await;
    let mut unique = listed.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), listed.len(), "no task listed twice: {listed:?}");
    for id in &created[1..6] {
        assert!(listed.contains(&id.as_str().unwrap().to_owned()), "{id} was listed");
    }
}

#[tokio::test]
async fn a_page_reads_its_own_tasks_and_counts_from_the_listing() {
    for listing in [true, false] {
        let store = Arc::new(Counting::new(MemoryTaskStore::new(), listing));
        let replica = || A2aServer::new(execute).with_task_store(Arc::clone(&store), TaskSettings::default());
        let (a, b) = (serve(replica()).await, serve(replica()).await);
        for i in 0..12 {
            let mut sent = message(None);
            sent["message"]["contextId"] = json!(if i % 3 == 0 { "thirds" } else { "rest" });
            rpc(&a, "SendMessage", sent).await;
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        store.take();
        // Through B, which runs none of them, so each task listed is read from the store.
        let page = rpc(&b, "ListTasks", json!({"pageSize": 5})).await;
        let thirds = rpc(&b, "ListTasks", json!({"contextId": "thirds", "pageSize": 2})).await;
        let next =
            rpc(&b, "ListTasks", json!({"contextId": "thirds", "pageSize": 2, "pageToken": thirds["nextPageToken"]}))
                .await;
        let shape = |page: &Value| (ids(page).len(), page["totalSize"].as_u64(), page["nextPageToken"] != "");
        assert_eq!(
            [shape(&page), shape(&thirds), shape(&next)],
            [(5, Some(12), true), (2, Some(4), true), (2, Some(4), false)]
        );
        assert!(
            thirds["tasks"]
                .as_array()
                .unwrap()
                .iter()
                .chain(next["tasks"].as_array().unwrap())
                .all(|task| task["contextId"] == "thirds")
        );
        let (loads, scans) = store.take();
        if listing {
            assert_eq!((loads, scans), (5 + 2 + 2, 0), "a page reads its own tasks, and never scans the store");
        } else {
            assert_eq!(scans, 3, "without a listing, each page scans the store");
            assert!(loads >= 3 * 12, "and reads every task: {loads}");
        }
    }
}
