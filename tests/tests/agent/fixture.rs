//! Tools for the runner tests, and chat-completion responses to script with.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tool_core::{Registry, ToolArgs, ToolContext, tool};

#[derive(Debug, ToolArgs)]
pub struct Nap {
    /// Milliseconds
    #[param(minimum = 0, maximum = 60_000)]
    pub ms: u64,
}

/// Sleeps without blocking, and stops early when cancelled
#[tool]
pub async fn nap(ctx: &ToolContext, args: Nap) -> String {
    ctx.report_progress(0.0, None, Some("asleep"));
    tokio::select! {
        () = tokio::time::sleep(Duration::from_millis(args.ms)) => format!("slept {} ms", args.ms),
        () = ctx.cancelled() => "interrupted".to_owned(),
    }
}

/// Sleeps on a thread (a plain fn: it runs on the blocking pool)
#[tool]
pub fn doze(args: Nap) -> String {
    std::thread::sleep(Duration::from_millis(args.ms));
    format!("dozed {} ms", args.ms)
}

/// A typed answer the output-mode tests ask for.
#[derive(Debug, PartialEq, ToolArgs)]
pub struct Forecast {
    /// The city
    #[param(min_length = 1)]
    pub city: String,
    /// Days ahead
    #[param(minimum = 1, maximum = 10)]
    pub days: u8,
}

#[derive(Debug, ToolArgs)]
pub struct Meet {
    /// How many calls must be running at once before any goes on.
    pub expect: usize,
}

/// How many `meet` calls have arrived in this process (one test uses it, once).
static MEETING: (Mutex<usize>, Condvar) = (Mutex::new(0), Condvar::new());

/// Waits on a thread until `expect` calls have arrived (a plain fn: it runs on the
/// blocking pool), and says whether they all did: calls run one at a time never meet, since
/// the first waits for the others. It gives up after 30 s rather than hang a test.
#[tool]
pub fn meet(args: Meet) -> String {
    let (count, arrived) = &MEETING;
    let mut arrivals = count.lock().unwrap();
    *arrivals += 1;
    arrived.notify_all();
    let (arrivals, waited) =
        arrived.wait_timeout_while(arrivals, Duration::from_secs(30), |arrivals| *arrivals < args.expect).unwrap();
    drop(arrivals);
    if waited.timed_out() { "alone".to_owned() } else { format!("met {}", args.expect) }
}

/// Always panics
#[tool]
pub fn crash() -> String {
    panic!("the tool fell over")
}

/// How many `ledger` calls are running right now, and the most at once.
pub static LEDGER_RUNNING: AtomicUsize = AtomicUsize::new(0);
pub static LEDGER_PEAK: AtomicUsize = AtomicUsize::new(0);

/// Appends to a ledger, one call at a time
#[tool(sequential)]
pub async fn ledger(args: Nap) -> String {
    let running = LEDGER_RUNNING.fetch_add(1, Ordering::SeqCst) + 1;
    LEDGER_PEAK.fetch_max(running, Ordering::SeqCst);
    tokio::time::sleep(Duration::from_millis(args.ms)).await;
    LEDGER_RUNNING.fetch_sub(1, Ordering::SeqCst);
    "written".to_owned()
}

#[derive(Debug, ToolArgs)]
pub struct Path {
    #[param(min_length = 1)]
    pub path: String,
}

/// Deletes a file (it asks first)
#[tool(requires_approval, destructive)]
pub fn delete_file(args: Path) -> String {
    format!("deleted {}", args.path)
}

pub fn registry() -> Registry {
    let mut registry = Registry::new();
    registry.add(NapTool).unwrap().add(DozeTool).unwrap().add(CrashTool).unwrap().add(MeetTool).unwrap();
    registry.add(LedgerTool).unwrap().add(DeleteFileTool).unwrap();
    registry
}

/// A Chat Completions response calling `calls` (name, arguments text).
pub fn calls(calls: &[(&str, &str)]) -> Value {
    let tool_calls: Vec<Value> = calls
        .iter()
        .enumerate()
        .map(|(i, (name, arguments))| {
            json!({"id": format!("call_{i}"), "type": "function", "function": {"name": name, "arguments": arguments}})
        })
        .collect();
    json!({
        "choices": [{"index": 0, "message": {"role": "assistant", "content": null, "tool_calls": tool_calls},
                     "finish_reason": "tool_calls"}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5}
    })
}

/// A Chat Completions response answering `text`.
pub fn answer(text: &str) -> Value {
    json!({
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 20, "completion_tokens": 7}
    })
}
