//! Batches: concurrent by default (plain fns too, on the blocking pool until they have
//! always returned at once), bounded, sequential when asked, under a timeout and the run's
//! cancellation, every call answered in order.

use std::sync::atomic::Ordering;
use std::time::Duration;

use tokio::time::Instant;

use tool_core::agent::{Agent, Api, Conversation, RunError, ScriptedModel};
use tool_core::{ToolError, context::CancellationToken};

use crate::fixture::{LEDGER_PEAK, answer, calls, registry};

fn eight(tool: &str, ms: u64) -> Vec<(String, String)> {
    (0..8).map(|_| (tool.to_owned(), format!(r#"{{"ms": {ms}}}"#))).collect()
}

/// An agent that runs a batch of identical calls: the repeat limit would refuse them.
fn runner(
    model: impl tool_core::agent::Model + 'static,
    registry: impl Into<std::sync::Arc<tool_core::Registry>>,
) -> Agent {
    Agent::new(model, registry).max_repeats(usize::MAX)
}

fn script(batch: &[(String, String)]) -> ScriptedModel {
    let pairs: Vec<(&str, &str)> = batch.iter().map(|(n, a)| (n.as_str(), a.as_str())).collect();
    ScriptedModel::new(Api::OpenAiChat, [calls(&pairs), answer("done")])
}

// Concurrency is shown by what can be counted, never by a wall-clock bound: async calls on
// tokio's paused clock (virtual time moves only when every task waits, so it measures how
// the calls overlapped whatever the machine's load), plain fns by a rendezvous that calls
// run one at a time never reach.

#[tokio::test(start_paused = true)]
async fn eight_async_calls_of_100_ms_run_together_in_order() {
    let mut batch = eight("nap", 100);
    batch[3] = ("crash".to_owned(), "{}".to_owned());
    let agent = runner(script(&batch), registry());
    let started = Instant::now();
    let outcome = agent.run(&mut Conversation::new(Api::OpenAiChat), "go").await.unwrap();
    // One after another, seven naps would take 700 ms.
    let elapsed = started.elapsed();
    assert!(elapsed >= ms(100) && elapsed < ms(200), "seven calls of 100 ms overlap: {elapsed:?} of virtual time");
    in_order_with_the_crash_answered(&outcome);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eight_plain_calls_run_together_in_order() {
    // Seven calls wait for each other on the blocking pool: they meet only if all run at once.
    let mut batch: Vec<(String, String)> = (0..8).map(|_| ("meet".to_owned(), r#"{"expect": 7}"#.to_owned())).collect();
    batch[3] = ("crash".to_owned(), "{}".to_owned());
    let outcome = runner(script(&batch), registry()).run(&mut Conversation::new(Api::OpenAiChat), "go").await.unwrap();
    in_order_with_the_crash_answered(&outcome);
    assert!(outcome.tool_runs.iter().enumerate().all(|(i, run)| i == 3 || run.result.text() == "met 7"));
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

fn in_order_with_the_crash_answered(outcome: &tool_core::agent::RunOutcome) {
    let ids: Vec<&str> = outcome.tool_runs.iter().map(|run| run.result.id.as_str()).collect();
    assert_eq!(ids, ["call_0", "call_1", "call_2", "call_3", "call_4", "call_5", "call_6", "call_7"]);
    assert!(outcome.tool_runs[3].result.is_error(), "the panic is an error result");
    assert!(outcome.tool_runs.iter().enumerate().all(|(i, run)| i == 3 || !run.result.is_error()));
}

#[tokio::test(start_paused = true)]
async fn sequential_runs_one_call_at_a_time() {
    let agent = runner(script(&eight("nap", 30)), registry()).sequential(true);
    let started = Instant::now();
    agent.run(&mut Conversation::new(Api::OpenAiChat), "go").await.unwrap();
    let elapsed = started.elapsed();
    assert!(elapsed >= ms(240) && elapsed < ms(270), "eight calls of 30 ms, one after another: {elapsed:?}");

    // One tool marked `#[tool(sequential)]` makes its whole batch sequential.
    let mut batch = eight("ledger", 20);
    batch.push(("nap".to_owned(), r#"{"ms": 1}"#.to_owned()));
    LEDGER_PEAK.store(0, Ordering::SeqCst);
    runner(script(&batch), registry()).run(&mut Conversation::new(Api::OpenAiChat), "go").await.unwrap();
    assert_eq!(LEDGER_PEAK.load(Ordering::SeqCst), 1);
}

#[tokio::test(start_paused = true)]
async fn the_bound_limits_calls_at_once() {
    let agent = runner(script(&eight("nap", 100)), registry()).max_concurrency(2);
    let started = Instant::now();
    agent.run(&mut Conversation::new(Api::OpenAiChat), "go").await.unwrap();
    let elapsed = started.elapsed();
    assert!(elapsed >= ms(400) && elapsed < ms(500), "eight calls of 100 ms, two at a time: {elapsed:?}");
}

#[tokio::test(start_paused = true)]
async fn a_slow_call_times_out_and_the_run_goes_on() {
    let batch = vec![("nap".to_owned(), r#"{"ms": 10000}"#.to_owned()), ("nap".to_owned(), r#"{"ms": 1}"#.to_owned())];
    let agent = runner(script(&batch), registry()).call_timeout(Duration::from_millis(100));
    let started = Instant::now();
    let outcome = agent.run(&mut Conversation::new(Api::OpenAiChat), "go").await.unwrap();
    // Not the 10 s nap: the first call was stopped at its timeout.
    let elapsed = started.elapsed();
    assert!(elapsed >= ms(100) && elapsed < ms(200), "{elapsed:?}");
    assert!(matches!(outcome.tool_runs[0].result.outcome, Err(ToolError::TimedOut { .. })));
    assert_eq!(outcome.tool_runs[0].result.text(), "tool \"nap\" did not finish within 100 ms and was stopped");
    assert_eq!(outcome.tool_runs[1].result.text(), "slept 1 ms");
    assert_eq!(outcome.text, "done");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_mid_batch_answers_every_call() {
    let mut batch = eight("nap", 10_000);
    // Long enough that no stall of the machine lets it finish within the grace.
    batch.push(("doze".to_owned(), r#"{"ms": 4000}"#.to_owned()));
    let agent = runner(script(&batch), registry()).cancel_grace(Duration::from_millis(300));
    let cancel = CancellationToken::new();
    let trigger = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        trigger.cancel();
    });
    let mut conversation = Conversation::new(Api::OpenAiChat);
    let error = agent.run_until(&mut conversation, "go", &cancel).await.unwrap_err();
    assert_eq!(error, RunError::Cancelled);
    let results: Vec<&serde_json::Value> = conversation.items().iter().filter(|m| m["role"] == "tool").collect();
    assert_eq!(results.len(), 9, "every call is answered");
    for (i, result) in results.iter().take(8).enumerate() {
        assert_eq!(result["tool_call_id"], format!("call_{i}"));
        assert_eq!(result["content"], "interrupted", "async tools observe the cancellation");
    }
    assert_eq!(results[8]["content"], "the call to tool \"doze\" was cancelled", "a blocking one past its grace");
}

/// The registry's tower layers wrap the agent's calls as they wrap the MCP server's: a
/// layer that sheds every call of `nap` gives the model a result it reads, and the
/// other calls of the batch run.
#[tokio::test]
async fn registry_layers_wrap_the_agents_calls() {
    let mut registry = registry();
    registry.layer_tool("nap", tower::ServiceBuilder::new().load_shed().concurrency_limit(0));
    let batch = [("nap", r#"{"ms": 1}"#), ("doze", r#"{"ms": 1}"#)].map(|(n, a)| (n.to_owned(), a.to_owned()));
    let outcome = runner(script(&batch), registry).run(&mut Conversation::new(Api::OpenAiChat), "go").await.unwrap();
    let shed = &outcome.tool_runs[0].result;
    assert!(shed.is_error() && shed.text().contains("was turned away (service overloaded)"), "{}", shed.text());
    assert!(!outcome.tool_runs[1].result.is_error(), "{}", outcome.tool_runs[1].result.text());
}

/// Says which thread it ran on (a plain fn that never blocks)
#[tool_core::tool(inline)]
fn where_inline() -> String {
    format!("{:?}", std::thread::current().id())
}

/// Says which thread it ran on (a plain fn)
#[tool_core::tool]
fn where_pooled() -> String {
    format!("{:?}", std::thread::current().id())
}

/// An `inline` plain fn runs on the run's own thread; another plain fn on the blocking pool.
#[tokio::test]
async fn an_inline_plain_fn_runs_on_the_callers_task() {
    let mut registry = tool_core::Registry::new();
    registry.add(WhereInlineTool).unwrap().add(WherePooledTool).unwrap();
    let batch = [("where_inline", "{}"), ("where_pooled", "{}")].map(|(n, a)| (n.to_owned(), a.to_owned()));
    let outcome = runner(script(&batch), registry).run(&mut Conversation::new(Api::OpenAiChat), "go").await.unwrap();
    let here = format!("{:?}", std::thread::current().id());
    assert_eq!(outcome.tool_runs[0].result.text(), here);
    assert_ne!(outcome.tool_runs[1].result.text(), here);
}

/// Says which thread it ran on (a plain fn that always returns at once)
#[tool_core::tool]
fn where_quick() -> String {
    format!("{:?}", std::thread::current().id())
}

/// Set by the test that makes `where_at_times_slow` slow.
static SLOW_NOW: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Says which thread it ran on, after 5 ms when `SLOW_NOW` is set (a plain fn)
#[tool_core::tool]
fn where_at_times_slow() -> String {
    if SLOW_NOW.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(5));
    }
    format!("{:?}", std::thread::current().id())
}

/// Runs `tool` alone in a batch, `runs` times (bounded), each on a new run of `agent`:
/// whether each came back from the run's own thread.
async fn in_place_by_run(tool: &str, runs: usize, agent: impl Fn(ScriptedModel) -> Agent) -> Vec<bool> {
    let here = format!("{:?}", std::thread::current().id());
    let mut seen = Vec::with_capacity(runs);
    for _ in 0..runs {
        let batch = [(tool.to_owned(), "{}".to_owned())];
        let outcome = agent(script(&batch)).run(&mut Conversation::new(Api::OpenAiChat), "go").await.unwrap();
        seen.push(outcome.tool_runs[0].result.text() == here);
    }
    seen
}

/// A plain fn goes to the blocking pool (it may block) until it has returned at once four
/// times in a row; from then on a batch runs it on the run's own thread (`block_in_place`),
/// saving the two thread wake-ups of the hand-off.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plain_fn_that_always_returns_at_once_comes_to_the_runs_task() {
    let mut registry = tool_core::Registry::new();
    registry.add(WhereQuickTool).unwrap();
    let seen = in_place_by_run("where_quick", 40, |model| runner(model, registry.clone())).await;
    assert_eq!(seen[..4], [false; 4], "the first four runs are on the pool");
    // Each later run comes in place unless the machine paused a run on the pool beyond the
    // bound, which only restarts the streak.
    assert!(seen.contains(&true), "{seen:?}");
}

/// A run in place that turns out slow sends the fn back to the pool, and a deadline as near
/// as the bound of a quick run keeps even a quick fn there: a timeout must be able to end
/// the wait.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_run_in_place_or_a_near_deadline_sends_the_fn_to_the_pool() {
    let mut registry = tool_core::Registry::new();
    registry.add(WhereAtTimesSlowTool).unwrap();
    let agent = |model| runner(model, registry.clone());
    let seen = in_place_by_run("where_at_times_slow", 40, agent).await;
    assert!(seen.contains(&true), "quick: it comes in place ({seen:?})");
    // A deadline of 100 µs, the bound itself: on the pool (or timed out), never here.
    let near = |model| runner(model, registry.clone()).call_timeout(Duration::from_micros(100));
    assert_eq!(in_place_by_run("where_at_times_slow", 1, near).await, [false]);
    // One slow run in place, then the next run is on the pool again. (Rarely, a pause of the
    // machine restarts the streak just before; then the slow run is on the pool: try again.)
    for _ in 0..5 {
        let seen = in_place_by_run("where_at_times_slow", 1, agent).await;
        if seen != [true] {
            continue;
        }
        SLOW_NOW.store(true, Ordering::SeqCst);
        let slow = in_place_by_run("where_at_times_slow", 2, agent).await;
        SLOW_NOW.store(false, Ordering::SeqCst);
        if slow[0] {
            assert!(!slow[1], "after a slow run in place, the next run is on the pool");
            return;
        }
    }
    panic!("the fn never came in place again");
}

/// Counts its calls under a `tokio::sync::Mutex` taken with `blocking_lock`, which panics
/// inside the runtime's context (a plain fn)
#[tool_core::tool]
fn count_under_lock() -> String {
    static CALLS: tokio::sync::Mutex<u32> = tokio::sync::Mutex::const_new(0);
    let mut calls = CALLS.blocking_lock();
    *calls += 1;
    format!("{:?}", std::thread::current().id())
}

/// Says which thread it ran on (a plain fn that always returns at once)
#[tool_core::tool]
fn where_on_one_thread() -> String {
    format!("{:?}", std::thread::current().id())
}

/// In place, a plain fn still runs outside the runtime's context, as on the pool: what may
/// block there (`blocking_lock`, `Handle::block_on`) still works.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plain_fn_in_place_may_still_block_as_on_the_pool() {
    let mut registry = tool_core::Registry::new();
    registry.add(CountUnderLockTool).unwrap();
    let here = format!("{:?}", std::thread::current().id());
    let mut in_place = 0;
    for _ in 0..40 {
        let batch = [("count_under_lock".to_owned(), "{}".to_owned())];
        let outcome =
            runner(script(&batch), registry.clone()).run(&mut Conversation::new(Api::OpenAiChat), "go").await.unwrap();
        let result = &outcome.tool_runs[0].result;
        assert!(!result.is_error(), "{}", result.text());
        in_place += usize::from(result.text() == here);
    }
    assert!(in_place > 0, "it came in place and did not panic there");
}

/// A current-thread runtime has no thread to hand its other tasks to while a fn runs in
/// place: there, a plain fn stays on the pool however quick it is.
#[tokio::test]
async fn on_a_current_thread_runtime_a_plain_fn_stays_on_the_pool() {
    let mut registry = tool_core::Registry::new();
    registry.add(WhereOnOneThreadTool).unwrap();
    let seen = in_place_by_run("where_on_one_thread", 20, |model| runner(model, registry.clone())).await;
    assert_eq!(seen, [false; 20]);
}

/// Says which thread it ran on (a plain fn that always returns at once)
#[tool_core::tool]
fn where_in_a_batch() -> String {
    format!("{:?}", std::thread::current().id())
}

/// A batch with several plain fns to run in place polls its calls under one
/// `block_in_place` the first time: on a worker thread, async calls beside them still
/// sleep on the runtime's timer, and a fn may still take a `blocking_lock`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_of_quick_plain_fns_on_a_worker_runs_beside_async_calls() {
    let mut registry = registry();
    registry.add(WhereInABatchTool).unwrap().add(CountUnderLockTool).unwrap();
    let warmed = in_place_by_run("where_in_a_batch", 40, |model| runner(model, registry.clone())).await;
    assert!(warmed.contains(&true), "{warmed:?}");
    let batch = [
        ("where_in_a_batch", "{}"),
        ("nap", r#"{"ms": 10}"#),
        ("where_in_a_batch", "{}"),
        ("count_under_lock", "{}"),
        ("where_in_a_batch", "{}"),
    ]
    .map(|(n, a)| (n.to_owned(), a.to_owned()));
    for _ in 0..5 {
        let agent = runner(script(&batch), registry.clone());
        // Spawned, so the run is polled by a worker thread, whose other tasks tokio hands over.
        let outcome = tokio::spawn(async move { agent.run(&mut Conversation::new(Api::OpenAiChat), "go").await })
            .await
            .unwrap()
            .unwrap();
        let texts: Vec<String> = outcome.tool_runs.iter().map(|run| run.result.text()).collect();
        assert!(outcome.tool_runs.iter().all(|run| !run.result.is_error()), "{texts:?}");
        assert_eq!(texts[1], "slept 10 ms");
    }
}
