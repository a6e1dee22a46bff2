//! Several replicas of `examples/replica.rs` behind a round-robin balancer, with tasks and
//! sessions in a real Redis: what a team meets once one process is not enough. Each test
//! starts its own `redis-server` and replicas on free 127.0.0.1 ports and stops them all at
//! the end; every wait is bounded.
//!
//! They need `redis-server` and the replica binary, so they are ignored by `cargo test`;
//! `bash tests/scale/run.sh` installs Redis when it is missing, builds the binary and runs
//! them (`.ci/run` does).

// rmcp 3.11 deprecates sampling and logging for 2026-07-28 (SEP-2577); the kill test reports
// its counts.
#![allow(deprecated, clippy::print_stderr, clippy::print_stdout)]

mod balancer;
mod cluster;
#[path = "../support/counting_store.rs"]
mod counting_store;
mod listing;
#[path = "../support/processes.rs"]
mod processes;
#[path = "../support/task_store.rs"]
mod task_store;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CancelTaskParams, ClientCapabilities, ClientConfig, ElicitRequestParams,
    ElicitResult, ElicitationAction, GetTaskParams, Implementation, ProtocolVersion, TaskPayload, TaskStatus,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RequestContext, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, ErrorData, RoleClient, ServiceExt};
use serde_json::{Value, json};
use tool_core::tasks::{MemoryTaskStore, RedisTaskStore, TaskRecord, TaskStore};

use cluster::{Cluster, Redis};

/// The longest any one request may take to be answered.
const BOUND: Duration = Duration::from_secs(20);

/// A client that answers elicitation with a name and declares the tasks extension.
#[derive(Clone)]
struct User {
    version: ProtocolVersion,
}

impl ClientHandler for User {
    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::builder().enable_elicitation().build();
        capabilities.extensions = ClientCapabilities::builder().enable_tasks().build().extensions;
        ClientConfig::new(capabilities, Implementation::new("scale-test", "1.0.0"))
            .with_protocol_version(self.version.clone())
    }

    async fn create_elicitation(
        &self,
        _request: ElicitRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        Ok(ElicitResult::new(ElicitationAction::Accept).with_content(json!({"name": "Ada"})))
    }
}

type Connection = RunningService<RoleClient, User>;

/// A 2026-07-28 client (no session): every request stands alone.
async fn stateless(url: &str) -> Connection {
    let user = User { version: ProtocolVersion::V_2026_07_28 };
    let lifecycle = ClientLifecycleMode::Discover { preferred_versions: vec![ProtocolVersion::V_2026_07_28] };
    let connecting = user.serve_with_lifecycle(StreamableHttpClientTransport::from_uri(url.to_owned()), lifecycle);
    tokio::time::timeout(BOUND, connecting).await.expect("discovery answered").unwrap()
}

/// A 2025-11-25 client, which holds a session.
async fn session(url: &str) -> Connection {
    let user = User { version: ProtocolVersion::V_2025_11_25 };
    let connecting = user.serve(StreamableHttpClientTransport::from_uri(url.to_owned()));
    tokio::time::timeout(BOUND, connecting).await.expect("initialize answered").unwrap()
}

async fn call(connection: &Connection, name: &'static str, arguments: Value) -> Result<String, String> {
    let Value::Object(arguments) = arguments else { panic!("an object") };
    let calling = connection.call_tool(CallToolRequestParams::new(name).with_arguments(arguments));
    let result = tokio::time::timeout(BOUND, calling).await.expect("the call answered").map_err(|e| e.to_string())?;
    let text = result.content.first().and_then(|block| block.as_text()).map(|text| text.text.clone());
    match result.is_error {
        Some(true) => Err(text.unwrap_or_default()),
        _ => Ok(text.unwrap_or_default()),
    }
}

async fn start_task(connection: &Connection, name: &'static str, arguments: Value) -> String {
    let Value::Object(arguments) = arguments else { panic!("an object") };
    let request = CallToolRequestParams::new(name).with_arguments(arguments);
    match tokio::time::timeout(BOUND, connection.call_tool_once(request)).await.expect("the call answered").unwrap() {
        CallToolResponse::Task(created) => created.task.task_id,
        other => panic!("expected a task, got {other:?}"),
    }
}

/// Polls `tasks/get` every 100 ms, at most `limit`, until the task ends; its last payload.
async fn until_ended(connection: &Connection, id: &str, limit: Duration) -> TaskPayload {
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        let got = tokio::time::timeout(BOUND, connection.get_task(GetTaskParams::new(id))).await;
        let got = got.expect("tasks/get answered").unwrap();
        if got.task.status().is_terminal() || tokio::time::Instant::now() > deadline {
            return got.task.payload;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs redis-server and the replica binary: bash tests/scale/run.sh"]
async fn an_elicitation_round_retried_on_another_replica_completes() {
    let cluster = Cluster::start(3).await;
    let client = stateless(&cluster.balancer.url).await;
    // Round one asks; the retry with the answer goes to the next replica, which runs the tool
    // again with it (the earlier answers travel in `requestState`, not in a replica).
    let answer = call(&client, "approve", json!({})).await.unwrap();
    assert!(answer.starts_with("approved by Ada"), "{answer}");
    let rounds = cluster.balancer.replicas_for("tools/call");
    assert_eq!(rounds.len(), 2, "{rounds:?}");
    assert_ne!(rounds[0], rounds[1], "both rounds on one replica: {rounds:?}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs redis-server and the replica binary: bash tests/scale/run.sh"]
async fn a_2025_session_is_served_by_every_replica_in_turn() {
    let cluster = Cluster::start(3).await;
    let client = session(&cluster.balancer.url).await;
    let mut answered_by = std::collections::BTreeSet::new();
    for i in 0..9 {
        let answer = call(&client, "add", json!({"a": i, "b": 1})).await.unwrap();
        assert!(answer.starts_with(&format!("{} (replica ", i + 1)), "{answer}");
        answered_by.insert(answer);
    }
    let replicas: std::collections::BTreeSet<usize> = cluster.balancer.replicas_for("tools/call").into_iter().collect();
    assert_eq!(replicas.len(), 3, "the session's calls went to {replicas:?}");
    // Not shown: elicitation or sampling on a session-era client whose answer lands on
    // another replica. The answer is a POST of its own, and only the replica that asked holds
    // the request it answers (rmcp relays nothing between replicas), so such clients need
    // session affinity at the balancer; clients of 2026-07-28 do not (the test above).
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs redis-server and the replica binary: bash tests/scale/run.sh"]
async fn a_task_started_on_one_replica_is_polled_and_cancelled_through_others() {
    let cluster = Cluster::start(3).await;
    let client = stateless(&cluster.balancer.url).await;
    let id = start_task(&client, "report", json!({"seconds": 60})).await;
    for _ in 0..3 {
        let got = client.get_task(GetTaskParams::new(&id)).await.unwrap();
        assert_eq!(got.task.status(), TaskStatus::Working);
    }
    client.cancel_task(CancelTaskParams::new(&id)).await.unwrap();
    let ended = until_ended(&client, &id, Duration::from_secs(20)).await;
    assert_eq!(ended.status(), TaskStatus::Cancelled, "{ended:?}");
    let started_on = cluster.balancer.replicas_for("tools/call");
    let polled_on: std::collections::BTreeSet<usize> = cluster.balancer.replicas_for("tasks/get").into_iter().collect();
    let cancelled_on = cluster.balancer.replicas_for("tasks/cancel");
    assert!(polled_on.len() >= 2, "polled on {polled_on:?}");
    assert_ne!(started_on, cancelled_on, "started and cancelled on one replica");

    // And one that runs to its end, its result read through whichever replica.
    let id = start_task(&client, "report", json!({"seconds": 1})).await;
    let ended = until_ended(&client, &id, Duration::from_secs(20)).await;
    let TaskPayload::Completed { result } = ended else { panic!("{ended:?}") };
    assert!(result["content"][0]["text"].as_str().unwrap().starts_with("report of 1s"), "{result:?}");
    client.cancel().await.unwrap();
}

/// One replica is killed (SIGKILL) while 1,000 concurrent calls are in flight: every call
/// gets an answer or a clear error within its bound, the survivors keep serving, and a task
/// that ran on the dead replica reads failed once its lease lapses.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs redis-server and the replica binary: bash tests/scale/run.sh"]
async fn a_replica_killed_under_load_loses_no_one_elses_work() {
    let mut cluster = Cluster::start(3).await;
    let url = cluster.balancer.url.clone();
    // Tasks on every replica, so one surely runs on the one that dies.
    let client = stateless(&url).await;
    let mut tasks = Vec::new();
    for _ in 0..3 {
        tasks.push(start_task(&client, "report", json!({"seconds": 600})).await);
    }
    let answered = Arc::new(AtomicUsize::new(0));
    let failed = Arc::new(AtomicUsize::new(0));
    let errors = Arc::new(std::sync::Mutex::new(BTreeMap::<String, usize>::new()));
    let mut calls = Vec::new();
    for i in 0..1000_i64 {
        let (client, answered, failed, errors) =
            (client.peer().clone(), answered.clone(), failed.clone(), errors.clone());
        calls.push(tokio::spawn(async move {
            let arguments = json!({"a": i, "b": 1}).as_object().cloned();
            let call = client.call_tool(CallToolRequestParams::new("add").with_arguments(arguments.unwrap()));
            match tokio::time::timeout(Duration::from_secs(20), call).await {
                Ok(Ok(result)) if result.is_error != Some(true) => {
                    let text = result.content[0].as_text().unwrap().text.clone();
                    assert!(text.starts_with(&format!("{} (replica ", i + 1)), "{text}");
                    answered.fetch_add(1, Ordering::SeqCst);
                }
                Ok(outcome) => {
                    let error = format!("{outcome:?}");
                    let kind = if error.contains("502") || error.contains("Bad Gateway") {
                        "502 from the balancer"
                    } else {
                        "other"
                    };
                    *errors
                        .lock()
                        .unwrap()
                        .entry(format!("{kind}: {}", &error[..error.len().min(160)]))
                        .or_default() += 1;
                    failed.fetch_add(1, Ordering::SeqCst);
                }
                Err(elapsed) => panic!("call {i} got no answer: {elapsed}"),
            }
        }));
    }
    // All 1,000 are under way; the replica dies once a fifth have been answered.
    for _ in 0..2000 {
        if answered.load(Ordering::SeqCst) >= 200 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    cluster.kill_replica(1);
    for call in calls {
        call.await.unwrap();
    }
    let (answered, failed) = (answered.load(Ordering::SeqCst), failed.load(Ordering::SeqCst));
    eprintln!("kill test: {answered} answered, {failed} failed with a clear error: {:?}", errors.lock().unwrap());
    assert_eq!(answered + failed, 1000);
    assert!(answered >= 900, "{answered} answered");

    // The survivors keep serving: every call after the kill is answered.
    for i in 0..30 {
        call(&client, "add", json!({"a": i, "b": 0})).await.unwrap();
    }
    // No task stays working: the dead replica's task reads failed once its lease (2 s here)
    // lapsed; the survivors' tasks still work, and end when cancelled.
    let ran_on = cluster.balancer.replicas_for("tools/call");
    for (id, replica) in tasks.iter().zip(&ran_on) {
        let status = if *replica == 1 {
            until_ended(&client, id, Duration::from_secs(15)).await.status()
        } else {
            assert_eq!(client.get_task(GetTaskParams::new(id)).await.unwrap().task.status(), TaskStatus::Working);
            client.cancel_task(CancelTaskParams::new(id)).await.unwrap();
            until_ended(&client, id, Duration::from_secs(15)).await.status()
        };
        let expected = if *replica == 1 { TaskStatus::Failed } else { TaskStatus::Cancelled };
        assert_eq!(status, expected, "the task on replica {replica}");
    }
    client.cancel().await.unwrap();
}

/// Redis restarts (without persistence) while a task runs: requests fail with a clear error
/// while it is away, and once it is back the forgotten task is an unknown task, never a hang;
/// new tasks work again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs redis-server and the replica binary: bash tests/scale/run.sh"]
async fn a_redis_restart_ends_in_clear_errors_never_a_hang() {
    let mut cluster = Cluster::start(2).await;
    let client = stateless(&cluster.balancer.url).await;
    let id = start_task(&client, "report", json!({"seconds": 600})).await;
    cluster.redis.stop();
    let away = tokio::time::timeout(Duration::from_secs(15), client.get_task(GetTaskParams::new(&id))).await;
    let error = away.expect("an answer while Redis is away").unwrap_err().to_string();
    assert!(error.contains("redis"), "{error}");
    cluster.redis.restart();
    let mut unknown = None;
    for _ in 0..100 {
        match tokio::time::timeout(Duration::from_secs(15), client.get_task(GetTaskParams::new(&id))).await {
            Ok(Err(error)) if error.to_string().contains("Unknown task") => {
                unknown = Some(error);
                break;
            }
            Ok(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            Err(elapsed) => panic!("tasks/get hung after Redis came back: {elapsed}"),
        }
    }
    assert!(unknown.is_some(), "the forgotten task never read as unknown");
    let id = start_task(&client, "report", json!({"seconds": 1})).await;
    assert_eq!(until_ended(&client, &id, Duration::from_secs(20)).await.status(), TaskStatus::Completed);
    client.cancel().await.unwrap();
}

/// The Redis store's contract on its own: a write acts only on a task that exists, so none
/// brings back an expired one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs redis-server and the replica binary: bash tests/scale/run.sh"]
async fn the_redis_store_never_brings_back_an_expired_task() {
    let redis = Redis::start();
    let store = RedisTaskStore::connect(&redis.url()).await.unwrap().with_prefix("contract:");
    task_store::holds_its_contract(&store, Duration::from_millis(300)).await;
}

/// The Redis store's listing: pages, filters and counts read from its sorted sets, a task that
/// moves leaving the sets it left, expired tasks forgotten.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs redis-server and the replica binary: bash tests/scale/run.sh"]
async fn the_redis_store_lists_its_tasks_in_order_filtered_and_counted() {
    let redis = Redis::start();
    let store = RedisTaskStore::connect(&redis.url()).await.unwrap().with_prefix("listing:");
    task_store::lists_its_tasks(&store, Duration::from_millis(500)).await;
}

/// Memories in Redis, as two replicas share them: what one saves the other recalls, each
/// scope its own, concurrent writers on both losing nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs redis-server and the replica binary: bash tests/scale/run.sh"]
async fn memories_in_redis_are_shared_by_replicas_and_kept_apart_by_scope() {
    use tool_core::retrieve::memory::{Memory, MemoryStore, RedisMemory};
    let redis = Redis::start();
    let one = RedisMemory::new(RedisTaskStore::connection(&redis.url()).await.unwrap()).with_prefix("memories:");
    let two = RedisMemory::new(RedisTaskStore::connection(&redis.url()).await.unwrap()).with_prefix("memories:");
    let fact = |text: &str| Memory { text: text.to_owned(), saved_at: 1 };
    one.save("ann", fact("Ann prefers window seats.")).await.unwrap();
    two.save("bob", fact("Bob prefers aisle seats.")).await.unwrap();
    assert_eq!(two.all("ann").await.unwrap(), [fact("Ann prefers window seats.")]);
    assert_eq!(one.all("bob").await.unwrap(), [fact("Bob prefers aisle seats.")]);
    let mut writers = Vec::new();
    for (n, store) in [one.clone(), two.clone(), one.clone(), two.clone()].into_iter().enumerate() {
        writers.push(tokio::spawn(async move {
            for i in 0..50 {
                store.save("crowd", fact(&format!("writer {n} fact {i}"))).await.unwrap();
            }
        }));
    }
    for writer in writers {
        writer.await.unwrap();
    }
    assert_eq!(one.all("crowd").await.unwrap().len(), 200, "nothing lost");
}

/// Throughput of 1, 2 and 3 replicas through the balancer, driven by the official MCP
/// Inspector's `--load` mode, with the machine's CPU use over each run; and what a Redis round
/// trip costs. A benchmark, not a test: `bash tests/bench/scale.sh` runs it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark: bash tests/bench/scale.sh"]
async fn throughput_of_one_two_and_three_replicas() {
    let inspector =
        std::env::var("INSPECTOR").expect("INSPECTOR names the Inspector's CLI (bash tests/bench/scale.sh)");
    let requests = std::env::var("LOAD_REQUESTS").unwrap_or_else(|_| "5000".to_owned());
    let concurrency = std::env::var("LOAD_CONCURRENCY").unwrap_or_else(|_| "50".to_owned());
    let mut baseline = None;
    for replicas in 1..=3 {
        let cluster = Cluster::start(replicas).await;
        let busy_before = cpu_times();
        let driver_before = children_cpu();
        let output = tokio::process::Command::new(&inspector)
            .arg(&cluster.balancer.url)
            .args(["--method", "tools/call", "--tool-name", "add", "--tool-arg", "a=1", "b=2", "--load"])
            .args(["--load-concurrency", &concurrency, "--load-requests", &requests])
            .output()
            .await
            .expect("the Inspector runs");
        let busy_after = cpu_times();
        let driver = children_cpu() - driver_before;
        let summary: Value = serde_json::from_slice(&output.stdout)
            .unwrap_or_else(|_| panic!("the Inspector's summary: {}", String::from_utf8_lossy(&output.stderr)));
        let throughput = summary["throughput"].as_f64().unwrap();
        let baseline = *baseline.get_or_insert(throughput);
        let jiffies = |from: u64, to: u64| f64::from(u32::try_from(to - from).unwrap_or(u32::MAX));
        let all = jiffies(busy_before.1, busy_after.1).max(1.0);
        let cpu = 100.0 * jiffies(busy_before.0, busy_after.0) / all;
        let cores = f64::from(u32::try_from(std::thread::available_parallelism().map_or(1, usize::from)).unwrap_or(1));
        let driver = 100.0 * jiffies(0, driver) / (all / cores);
        eprintln!(
            "{replicas} replica(s): {throughput:.0} calls/s ({:.2}x one), {} ok, {} errors, p50 {} ms, p99 {} ms; CPU {cpu:.0}% of all cores, the Inspector {driver:.0}% of one",
            throughput / baseline,
            summary["ok"],
            summary["errors"],
            summary["latencyMs"]["p50"],
            summary["latencyMs"]["p99"],
        );
    }
    // A Redis round trip (`tasks/get`'s load of a task), against the in-memory store.
    let redis = Redis::start();
    let store = RedisTaskStore::connect(&redis.url()).await.unwrap();
    let memory = MemoryTaskStore::new();
    let record = TaskRecord::new("{}".to_owned(), 0);
    store.create("bench", record.clone(), None).await.unwrap();
    memory.create("bench", record, None).await.unwrap();
    let rounds = 5_000_u32;
    let started = std::time::Instant::now();
    for _ in 0..rounds {
        store.load("bench").await.unwrap().unwrap();
    }
    let redis_load = started.elapsed() / rounds;
    let started = std::time::Instant::now();
    for _ in 0..rounds {
        memory.load("bench").await.unwrap().unwrap();
    }
    let memory_load = started.elapsed() / rounds;
    eprintln!("a task's load: Redis {redis_load:?}, memory {memory_load:?} ({rounds} sequential loads each)");
}

/// The CPU time (jiffies) of this process's children that have been waited for (the
/// Inspector, once its run ended), from /proc/self/stat.
fn children_cpu() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // After the command's `(name)`: fields 3.. ; cutime and cstime are fields 16 and 17.
    let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let field = |index: usize| fields.get(index).and_then(|field| field.parse::<u64>().ok()).unwrap_or(0);
    field(13) + field(14)
}

/// (busy, total) jiffies of all cores, from /proc/stat.
fn cpu_times() -> (u64, u64) {
    let stat = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let fields: Vec<u64> = stat
        .lines()
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .skip(1)
        .filter_map(|field| field.parse().ok())
        .collect();
    let total: u64 = fields.iter().sum();
    let idle = fields.get(3).copied().unwrap_or(0) + fields.get(4).copied().unwrap_or(0);
    (total - idle, total)
}

/// Runs `scale/python_client.py` (the official Python SDK's client) against the balancer
/// with `args`, and returns what it printed; it must end, and succeed, within a minute.
async fn python_client(cluster: &Cluster, args: &[&str]) -> String {
    let sdk = std::env::var("PY_MCP").expect("PY_MCP names the Python SDK's install (bash tests/scale/run.sh)");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scale/python_client.py");
    let run = tokio::process::Command::new("python3")
        .arg(script)
        .arg(&cluster.balancer.url)
        .args(args)
        .env("PYTHONPATH", sdk)
        .output();
    let output = tokio::time::timeout(Duration::from_mins(1), run).await.expect("the client ends").unwrap();
    let printed = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{printed}\n{}", String::from_utf8_lossy(&output.stderr));
    printed
}

/// The official Python SDK's client (2026-07-28) answers an elicitation round whose retry
/// the balancer sends to another replica.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs redis-server and the replica binary: bash tests/scale/run.sh"]
async fn the_python_sdk_client_answers_a_round_retried_on_another_replica() {
    let cluster = Cluster::start(3).await;
    let printed = python_client(&cluster, &[]).await;
    assert!(printed.starts_with("approved by Grace (replica "), "{printed}");
    let rounds = cluster.balancer.replicas_for("tools/call");
    assert_eq!(rounds.len(), 2, "{rounds:?}");
    assert_ne!(rounds[0], rounds[1], "both rounds on one replica: {rounds:?}");
}

/// The official Python SDK's client in a 2025-era session (sessions in Redis): its calls go
/// to several replicas, each answering on the call's own request as `application/json`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs redis-server and the replica binary: bash tests/scale/run.sh"]
async fn the_python_sdk_session_client_is_answered_by_every_replica() {
    let cluster = Cluster::start(3).await;
    let printed = python_client(&cluster, &["legacy"]).await;
    let answers: Vec<&str> = printed.lines().collect();
    assert_eq!(answers.len(), 6, "{printed}");
    for (i, answer) in answers.iter().enumerate() {
        assert!(answer.starts_with(&format!("{} (replica ", i + 1)), "{printed}");
    }
    // The balancer takes turns over every request, the client's other requests included.
    let replicas: std::collections::BTreeSet<usize> = cluster.balancer.replicas_for("tools/call").into_iter().collect();
    assert!(replicas.len() >= 2, "the session's calls went to {replicas:?}");
}

/// A 2026-07-28 response stream cut mid-call (the client's connection to one replica drops)
/// is resumed with `Last-Event-ID` through the balancer on another replica, which replays from
/// Redis what the first one went on writing: the rest of the progress, then the result.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs redis-server and the replica binary: bash tests/scale/run.sh"]
async fn a_stream_cut_mid_call_resumes_on_another_replica() {
    let cluster = Cluster::start(2).await;
    let http = reqwest::Client::new();
    let meta = json!({
        "progressToken": "p1",
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    let call = json!({"jsonrpc": "2.0", "id": 8, "method": "tools/call",
        "params": {"name": "report", "arguments": {"seconds": 2}, "_meta": meta}});
    let mut response = http
        .post(&cluster.balancer.url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "report")
        .body(call.to_string())
        .send()
        .await
        .unwrap();
    // Read until the first progress event, then drop the connection.
    let mut seen = String::new();
    while !seen.contains("notifications/progress") || !seen.ends_with("\n\n") {
        let chunk = tokio::time::timeout(BOUND, response.chunk()).await.expect("an event").unwrap().expect("more");
        seen.push_str(&String::from_utf8_lossy(&chunk));
    }
    drop(response);
    let last = seen.lines().filter_map(|line| line.strip_prefix("id: ")).next_back().expect("an event id").to_owned();
    assert!(!seen.contains("\"result\""), "the result came before the cut: {seen}");

    tokio::time::sleep(Duration::from_millis(2500)).await;
    let mut resumed = http
        .get(&cluster.balancer.url)
        .header("accept", "text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("last-event-id", &last)
        .send()
        .await
        .unwrap();
    let mut replayed = String::new();
    while !replayed.contains("\"result\"") {
        let chunk = tokio::time::timeout(BOUND, resumed.chunk()).await.expect("the replay").unwrap().expect("more");
        replayed.push_str(&String::from_utf8_lossy(&chunk));
    }
    assert!(replayed.contains("\"progress\":1.0"), "{replayed}");
    assert!(replayed.contains("report of 2s written by replica"), "{replayed}");
    let posted = cluster.balancer.replicas_for("tools/call");
    let resumed_on = cluster.balancer.replicas_for("GET");
    assert_eq!((posted.len(), resumed_on.len()), (1, 1));
    assert_ne!(posted[0], resumed_on[0], "the resume went to the replica that ran the call");
}
