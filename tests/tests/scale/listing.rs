//! `ListTasks` over a Redis store of thousands of tasks (`bash tests/bench/list-tasks.sh`,
//! figures in `docs/performance.md`): a page read from the store's listing against the same
//! page read by loading every task (the same store with its listing hidden, as a store that
//! keeps none is read), interleaved in one run. Prints; asserts what was read, never a time.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tool_core::a2a::server::{A2aServer, Incoming, Outcome, TaskHandle};
use tool_core::tasks::{Listing, RedisTaskStore, TaskRecord, TaskSettings, TaskStore};

use crate::cluster::Redis;
use crate::counting_store::Counting;

async fn finished(_request: Incoming, _task: TaskHandle) -> Outcome {
    Outcome::Completed(Vec::new())
}

/// Serves `store` on a free port of 127.0.0.1; its base URL.
async fn serve(store: Arc<Counting<RedisTaskStore>>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let server = A2aServer::new(finished).with_task_store(store, TaskSettings::default().with_ttl(None));
    tokio::spawn(server.serve(listener, std::future::pending()));
    base
}

/// The task `i` as an A2A server stores it: one of ten contexts, a second apart, a short history.
fn task(i: u64) -> (String, Value) {
    let at = format!("2026-11-{:02}T{:02}:{:02}:{:02}Z", 1 + i / 86_400, (i / 3600) % 24, (i / 60) % 60, i % 60);
    let id = format!("task-{i:05}");
    let history: Vec<Value> =
        (0..4).map(|n| json!({"messageId": format!("{id}-{n}"), "role": "ROLE_USER", "parts": [{"text": "a question of some length, as users write them"}]})).collect();
    let task = json!({"id": id, "contextId": format!("context-{}", i % 10),
        "status": {"state": "TASK_STATE_COMPLETED", "timestamp": at}, "history": history});
    (id, task)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark: bash tests/bench/list-tasks.sh"]
async fn list_tasks_from_the_listing_and_from_every_task() {
    let redis = Redis::start();
    let count: u64 = std::env::var("LIST_TASKS").ok().and_then(|n| n.parse().ok()).unwrap_or(2000);
    let store = RedisTaskStore::connect(&redis.url()).await.unwrap();
    for i in 0..count {
        let (id, task) = task(i);
        let key = format!("a2a:{id}");
        store.create(&key, TaskRecord::new(task.to_string(), 0), None).await.unwrap();
        let updated = 1_795_996_800_000_000 + i * 1_000_000;
        let listing = Listing::new(updated, None, task["contextId"].as_str().unwrap(), "TASK_STATE_COMPLETED");
        store.index(&key, &listing).await.unwrap();
    }
    let sides = [Arc::new(Counting::new(store.clone(), true)), Arc::new(Counting::new(store, false))];
    let bases = [serve(Arc::clone(&sides[0])).await, serve(Arc::clone(&sides[1])).await];
    let client = reqwest::Client::new();
    let list = async |base: &str, params: Value| -> (Duration, Value) {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "ListTasks", "params": params});
        let started = Instant::now();
        let reply: Value = client.post(format!("{base}/")).json(&body).send().await.unwrap().json().await.unwrap();
        (started.elapsed(), reply)
    };
    println!("| {count} tasks in Redis | from the listing | loading every task | ratio |");
    println!("|---|---|---|---|");
    for (what, params) in [
        ("the newest 50", json!({"pageSize": 50})),
        ("the newest 50 of one context", json!({"pageSize": 50, "contextId": "context-3"})),
    ] {
        let mut times = [Vec::new(), Vec::new()];
        for round in 0..11 {
            for side in [round % 2, 1 - round % 2] {
                let (took, reply) = list(&bases[side], params.clone()).await;
                assert_eq!(reply["result"]["tasks"].as_array().map(Vec::len), Some(50), "{reply}");
                // The first round warms both sides up.
                if round > 0 {
                    times[side].push(took.as_secs_f64() * 1e3);
                }
            }
        }
        let [listed, scanned] = times.map(|mut times| {
            times.sort_by(f64::total_cmp);
            times[times.len() / 2]
        });
        println!("| {what} | {listed:.2} ms | {scanned:.2} ms | {:.3}× |", listed / scanned);
    }
    let [(listed_loads, listed_scans), (scanned_loads, scanned_scans)] = [sides[0].take(), sides[1].take()];
    println!(
        "tasks read: {listed_loads} from the listing ({listed_scans} scans), {scanned_loads} loading every task ({scanned_scans} scans)"
    );
    assert_eq!((listed_loads, listed_scans), (2 * 11 * 50, 0), "a page reads its own 50 tasks");
}
