//! The agent loop's overhead per tool call: one run whose model asks for 8 calls of a no-op
//! tool (a plain fn, an `inline` plain fn, and an async fn) and then answers, against the same run with no calls (the model and conversation
//! cost) plus 8 `Registry::call`s (the dispatch cost), in one run.
//!
//! `cargo bench -p tool-tests --bench agent` prints the three timings and the overhead per
//! call: (run with calls - run without - 8 x registry.call) / 8; then the same for a run
//! whose model asks for one call, and for runs spawned onto a worker thread.
#![allow(missing_docs, clippy::print_stdout)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;
use tool_core::agent::{Agent, Api, Model, ModelFuture, ModelRequest, ModelTurn, StopReason};
use tool_core::provider::{Arguments, ToolCall};
use tool_core::{Registry, tool};

/// Does nothing
#[tool]
fn noop() -> &'static str {
    "ok"
}

/// Does nothing, and says so: it never blocks
#[tool(inline)]
fn noop_inline() -> &'static str {
    "ok"
}

/// Does nothing, asynchronously
#[tool]
async fn noop_async() -> &'static str {
    std::future::ready("ok").await
}

/// Answers from two prepared turns: the calls first, then the answer once results are in.
struct Prepared {
    calls: ModelTurn,
    answer: ModelTurn,
}

impl Prepared {
    fn new(tool: &str, calls: usize) -> Self {
        let tool_calls: Vec<ToolCall> = (0..calls)
            .map(|i| ToolCall::new(format!("call_{i}"), tool.to_owned(), Arguments::Text("{}".to_owned().into())))
            .collect();
        let message = json!({"role": "assistant", "content": null});
        Prepared {
            calls: ModelTurn::new(StopReason::ToolUse, vec![message.clone()]).with_calls(tool_calls),
            answer: ModelTurn::new(StopReason::EndTurn, vec![message]).with_text("done"),
        }
    }
}

impl Model for Prepared {
    fn api(&self) -> Api {
        Api::OpenAiChat
    }

    fn respond<'a>(&'a self, request: ModelRequest<'a>, _: tool_core::agent::DeltaSink<'a>) -> ModelFuture<'a> {
        let answered = request.history.len() > 1 || self.calls.calls.is_empty();
        let turn = if answered { self.answer.clone() } else { self.calls.clone() };
        Box::pin(async move { Ok(turn) })
    }
}

fn agent(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let mut registry = Registry::new();
    registry.add(NoopTool).unwrap().add(NoopAsyncTool).unwrap().add(NoopInlineTool).unwrap();
    let without = Agent::new(Prepared::new("noop", 0), registry.clone());
    let mut group = c.benchmark_group("agent, 8 no-op calls");
    for tool in ["noop", "noop_async", "noop_inline"] {
        let with_calls = Agent::new(Prepared::new(tool, 8), registry.clone());
        group.bench_function(format!("run with a batch of 8 {tool}"), |b| {
            b.iter(|| runtime.block_on(async { with_calls.run(&mut with_calls.conversation(), "go").await.unwrap() }));
        });
    }
    group.bench_function("run without calls", |b| {
        b.iter(|| runtime.block_on(async { without.run(&mut without.conversation(), "go").await.unwrap() }));
    });
    group.bench_function("8 x registry.call", |b| {
        b.iter(|| {
            for _ in 0..8 {
                black_box(registry.call(black_box("noop"), black_box("{}")).unwrap());
            }
        });
    });
    group.finish();

    // The same, timed here so that the overhead per call is printed as one figure.
    let time = |f: &mut dyn FnMut()| {
        let rounds = 2000;
        let start = Instant::now();
        for _ in 0..rounds {
            f();
        }
        start.elapsed() / rounds
    };
    let bare: Duration = time(&mut || {
        runtime.block_on(async { without.run(&mut without.conversation(), "go").await.unwrap() });
    });
    let direct: Duration = time(&mut || {
        for _ in 0..8 {
            black_box(registry.call("noop", "{}").unwrap());
        }
    });
    for tool in ["noop", "noop_async", "noop_inline"] {
        let with_calls = Agent::new(Prepared::new(tool, 8), registry.clone());
        let runs: Duration = time(&mut || {
            runtime.block_on(async { with_calls.run(&mut with_calls.conversation(), "go").await.unwrap() });
        });
        let per_call = runs.saturating_sub(bare).saturating_sub(direct) / 8;
        println!(
            "{tool}: run with 8 calls {runs:?}, without {bare:?}, 8 x registry.call {direct:?}: overhead per call {:.2} µs",
            per_call.as_secs_f64() * 1e6
        );
    }
    // A turn with one call, the common case: a plain fn handed to the blocking pool pays the
    // whole hand-off (two thread wake-ups), which a batch of 8 shares out; one that has
    // always returned at once runs on the run's task instead (criterion's runs above made
    // sure of that).
    for tool in ["noop", "noop_inline"] {
        let with_call = Agent::new(Prepared::new(tool, 1), registry.clone());
        let runs: Duration = time(&mut || {
            runtime.block_on(async { with_call.run(&mut with_call.conversation(), "go").await.unwrap() });
        });
        let overhead = runs.saturating_sub(bare).saturating_sub(direct / 8);
        println!("{tool}: run with 1 call {runs:?}: overhead {:.2} µs", overhead.as_secs_f64() * 1e6);
    }
    // The runs above are the futures `block_on` polls on this thread. A run spawned onto a
    // worker thread is the case where `block_in_place` hands the worker's other tasks to
    // another thread while a fn runs in place: the same batch of 8, spawned.
    let spawned = |agent: &std::sync::Arc<Agent>| {
        let agent = std::sync::Arc::clone(agent);
        runtime.block_on(async move {
            tokio::spawn(async move { agent.run(&mut agent.conversation(), "go").await.unwrap() }).await.unwrap()
        });
    };
    let without = std::sync::Arc::new(Agent::new(Prepared::new("noop", 0), registry.clone()));
    let bare: Duration = time(&mut || spawned(&without));
    for tool in ["noop", "noop_async", "noop_inline"] {
        let with_calls = std::sync::Arc::new(Agent::new(Prepared::new(tool, 8), registry.clone()));
        let runs: Duration = time(&mut || spawned(&with_calls));
        let per_call = runs.saturating_sub(bare).saturating_sub(direct) / 8;
        println!(
            "{tool}, spawned: run with 8 calls {runs:?}, without {bare:?}: overhead per call {:.2} µs",
            per_call.as_secs_f64() * 1e6
        );
    }
}

criterion_group!(benches, agent);
criterion_main!(benches);
