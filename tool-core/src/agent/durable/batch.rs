//! A durable run's batch: the calls of one model turn in the ordinary batch's three phases
//! (`agent/batch.rs`), each journaled so that a replay finds it where it was left:
//! 1. in call order, as workflow code (again on every replay): `prepare`, `authorize`, the
//!    repeat limit, approval on an awakeable, `before_call`; then every call's `ToolStarted`;
//! 2. the calls let through run together, up to the agent's bound (one at a time when it or
//!    a tool says `sequential`), each result a journaled step of its own, journaled in call
//!    order. Restate's Rust SDK journals a step only when it is awaited alone (sdk-rust#72),
//!    so the steps are awaited one after the other while the calls run on a task of their
//!    own: the first step whose result the journal lacks starts every call from it on, and
//!    each step waits for its call's result. A call whose result is journaled is never called
//!    again; every call after the first not journaled is not journaled either (the order is
//!    the call order), so none of those it starts had ended before;
//! 3. one journaled step runs `after_call` and sends `ToolFinished` for every call, in call
//!    order, once all have ended, on the calls as the journal reads them back.

use std::sync::{Arc, Mutex, PoisonError};

use restate_sdk::serde::Json;
use tokio::sync::{Semaphore, oneshot};

use super::context::{RunContext, Step};
use super::journal::CallStep;
use super::journal::arguments_value;
use super::{DeferredCall, JournaledCall, PendingApproval};
use crate::agent::batch::{self, Gate, Screened};
use crate::agent::hooks::{ToolRun, Verdict};
use crate::agent::model::ModelError;
use crate::agent::steps::Batch;
use crate::agent::{Api, RunError, Settings};
use crate::context::CancellationToken;
use crate::error::ToolError;
use crate::provider::ToolCall;
use crate::registry::{Entry, Registry};

/// Runs `calls` and answers each, in order.
pub(super) async fn run<C: RunContext>(
    ctx: &C,
    settings: &Settings,
    api: Api,
    registry: &Arc<Registry>,
    calls: Vec<ToolCall>,
) -> Batch<JournaledCall> {
    // Restate's cancellation reaches the run at its next step, not inside one.
    let cancel = CancellationToken::new();
    let mut gates = Vec::with_capacity(calls.len());
    let mut calls = calls.into_iter();
    while let Some(call) = calls.next() {
        match gate(ctx, settings, registry, call, &cancel).await {
            Ok(gate) => gates.push(gate),
            Err((call, error)) => {
                let unanswered = gates.into_iter().map(called).chain(core::iter::once(call)).chain(calls);
                return cancelled(api, unanswered, error);
            }
        }
    }
    for gate in &gates {
        batch::started(settings, gate);
    }
    let launcher = Arc::new(Mutex::new(Launcher::new(settings, registry, &gates)));
    let mut runs = Vec::with_capacity(gates.len());
    let mut error = None;
    let mut index = 0;
    for gate in gates {
        let run = match gate {
            Gate::Answered(call, outcome) => batch::answered(call, outcome, ZERO),
            Gate::Run(call, _) if error.is_some() => cancelled_run(call),
            Gate::Run(call, _) => {
                index += 1;
                match call_step(ctx, &launcher, index - 1, &call).await {
                    Ok(run) => run,
                    Err(step_error) => {
                        error = Some(step_error);
                        cancelled_run(call)
                    }
                }
            }
        };
        runs.push(run);
    }
    if let Some(error) = error {
        // Cancelled: no step can be journaled any more; the calls that ended are answered
        // as they ended, in this process.
        let mut steps = Vec::with_capacity(runs.len());
        for mut run in runs {
            batch::finish(settings, &mut run);
            steps.push(CallStep::of(api, &run));
        }
        return joined(api, steps, Some(error));
    }
    match after_calls(ctx, settings, api, runs).await {
        Ok(steps) => joined(api, steps, None),
        Err(error) => Batch { items: Vec::new(), records: Vec::new(), error: Some(error), handed_back: None },
    }
}

const ZERO: core::time::Duration = core::time::Duration::ZERO;

/// Phase 1 for one call; `Err` when Restate cancelled the run while it waited for approval.
async fn gate<C: RunContext>(
    ctx: &C,
    settings: &Settings,
    registry: &Registry,
    call: ToolCall,
    cancel: &CancellationToken,
) -> Result<Gate, (ToolCall, RunError)> {
    Ok(match batch::screen(settings, registry, call, cancel) {
        Screened::Answered(call, error) => Gate::Answered(call, Err(error)),
        // A deferred tool's call its schema accepts waits for the application's answer; a
        // bad one runs, and its tool refuses it with every violation.
        Screened::Ready { call, entry, .. }
            if entry.is_deferred() && registry.validate(&call.name, call.arguments.clone()).is_ok() =>
        {
            settings.emit(crate::agent::Event::ToolDeferred { id: call.id.clone(), name: call.name.clone() });
            match wait_for_answer(ctx, &call).await {
                Ok(outcome) => Gate::Answered(call, outcome),
                Err(error) => return Err((call, error)),
            }
        }
        Screened::Ready { call, entry, ask: false } => batch::settle(settings, call, entry, None),
        Screened::Ready { call, entry, ask: true } => match wait_for_verdict(ctx, &call).await {
            Ok(verdict) => batch::settle(settings, call, entry, Some(verdict)),
            Err(error) => return Err((call, error)),
        },
    })
}

/// Waits on an awakeable for the verdict on `call`, with the call kept in the run's state
/// meanwhile. A rejected awakeable denies the call.
async fn wait_for_verdict<C: RunContext>(ctx: &C, call: &ToolCall) -> Result<Result<Verdict, String>, RunError> {
    let (awakeable, verdict) = ctx.__awakeable();
    let waiting = PendingApproval {
        call_id: call.id.clone(),
        tool: call.name.clone(),
        arguments: arguments_value(&call.arguments),
        awakeable,
    };
    ctx.__keep(waiting);
    let verdict = verdict.await;
    ctx.__forget();
    match verdict {
        Ok(Json(decision)) => Ok(Ok(decision.into())),
        Err(error) if error.code() == 409 => Err(RunError::Cancelled),
        Err(error) => Ok(Err(format!("the approver said no: {}", error.message()))),
    }
}

/// Waits on an awakeable for the application's answer to the deferred `call`, with the call
/// kept in the run's state meanwhile. A rejected awakeable fails the call.
async fn wait_for_answer<C: RunContext>(
    ctx: &C,
    call: &ToolCall,
) -> Result<Result<crate::ToolOutput, ToolError>, RunError> {
    let (awakeable, answer) = ctx.__answer_awakeable();
    let waiting = DeferredCall {
        call_id: call.id.clone(),
        tool: call.name.clone(),
        arguments: arguments_value(&call.arguments),
        awakeable,
    };
    ctx.__keep_deferred(waiting);
    let answer = answer.await;
    ctx.__forget_deferred();
    match answer {
        Ok(Json(answer)) => Ok(answer.into_outcome(&call.name)),
        Err(error) if error.code() == 409 => Err(RunError::Cancelled),
        Err(error) => Ok(Err(ToolError::Failed { tool: call.name.clone(), message: error.message().to_owned() })),
    }
}

fn called(gate: Gate) -> ToolCall {
    let (Gate::Run(call, _) | Gate::Answered(call, _)) = gate;
    call
}

/// The calls let through, started together on a task of their own by the first step whose
/// result the journal lacks (and never before: a replay may have their results).
struct Launcher {
    settings: Settings,
    registry: Arc<Registry>,
    /// Each call with its tool, until it is started.
    waiting: Vec<Option<(ToolCall, Entry)>>,
    /// Each started call's result, until its step takes it.
    results: Vec<Option<oneshot::Receiver<ToolRun>>>,
    /// The task that runs them; stopped when the batch is done with (a cancelled run).
    task: Option<AbortOnDrop>,
}

impl Launcher {
    fn new(settings: &Settings, registry: &Arc<Registry>, gates: &[Gate]) -> Self {
        let waiting: Vec<_> = gates
            .iter()
            .filter_map(|gate| match gate {
                Gate::Run(call, entry) => Some(Some((call.clone(), entry.clone()))),
                Gate::Answered(..) => None,
            })
            .collect();
        let results = waiting.iter().map(|_| None).collect();
        Launcher { settings: settings.clone(), registry: Arc::clone(registry), waiting, results, task: None }
    }

    /// The result of call `index`, starting it and every call after it when it is not
    /// started yet.
    fn result(&mut self, index: usize) -> Option<oneshot::Receiver<ToolRun>> {
        if self.results[index].is_none() && self.waiting[index].is_some() {
            self.start_from(index);
        }
        self.results[index].take()
    }

    fn start_from(&mut self, first: usize) {
        let calls: Vec<_> = self.waiting[first..].iter_mut().filter_map(Option::take).collect();
        let bound = batch::concurrency(&self.settings, calls.iter().map(|(_, entry)| entry));
        let permits = Arc::new(Semaphore::new(bound));
        let mut runs = Vec::with_capacity(calls.len());
        for ((call, entry), slot) in calls.into_iter().zip(&mut self.results[first..]) {
            let (sender, receiver) = oneshot::channel();
            *slot = Some(receiver);
            let (settings, registry, permits) =
                (self.settings.clone(), Arc::clone(&self.registry), Arc::clone(&permits));
            runs.push(async move {
                // The semaphore is never closed, so acquiring cannot fail. Polled in call
                // order, the calls take their permits in call order.
                let _permit = permits.acquire_owned().await.ok();
                // Restate's cancellation reaches the run at its next step, not inside one.
                let (run, _) = batch::execute(&settings, &registry, call, &entry, &CancellationToken::new()).await;
                // The step that waited is gone only when the run is.
                let _ = sender.send(run);
            });
        }
        self.task = Some(AbortOnDrop(tokio::spawn(futures_util::future::join_all(runs))));
    }
}

/// Stops the calls' task when the batch is dropped (a run cancelled, or failed, midway).
struct AbortOnDrop(tokio::task::JoinHandle<Vec<()>>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Phase 2 for one call let through: its result as a journaled step, awaited alone.
async fn call_step<C: RunContext>(
    ctx: &C,
    launcher: &Arc<Mutex<Launcher>>,
    index: usize,
    call: &ToolCall,
) -> Result<ToolRun, RunError> {
    let name = format!("tool {} {}", call.name, call.id);
    let (launcher, call) = (Arc::clone(launcher), call.clone());
    let step: Step<ToolRun> = Box::pin(async move {
        let result = launcher.lock().unwrap_or_else(PoisonError::into_inner).result(index);
        // No result only when the calls' task was stopped: the run is being torn down.
        let run = match result {
            Some(result) => result.await.unwrap_or_else(|_| cancelled_run(call)),
            None => cancelled_run(call),
        };
        Ok(Json(run))
    });
    journaled(ctx.__journal(name, None, step).await)
}

fn cancelled_run(call: ToolCall) -> ToolRun {
    let error = ToolError::Cancelled { tool: call.name.clone() };
    batch::answered(call, Err(error), ZERO)
}

/// Phase 3 as one journaled step.
async fn after_calls<C: RunContext>(
    ctx: &C,
    settings: &Settings,
    api: Api,
    runs: Vec<ToolRun>,
) -> Result<Vec<CallStep>, RunError> {
    let name = match runs.first() {
        Some(first) if runs.len() > 1 => format!("after_call {} and {} more", first.call.id, runs.len() - 1),
        Some(first) => format!("after_call {}", first.call.id),
        None => "after_call".to_owned(),
    };
    let settings = settings.clone();
    let step: Step<Vec<CallStep>> = Box::pin(async move {
        let mut steps = Vec::with_capacity(runs.len());
        for mut run in runs {
            batch::finish(&settings, &mut run);
            steps.push(CallStep::of(api, &run));
        }
        Ok(Json(steps))
    });
    journaled(ctx.__journal(name, None, step).await)
}

/// A journaled step's value, or how the run ends.
fn journaled<T>(step: Result<Json<T>, restate_sdk::errors::TerminalError>) -> Result<T, RunError> {
    match step {
        Ok(Json(value)) => Ok(value),
        Err(error) if error.code() == 409 => Err(RunError::Cancelled),
        // A step that never fails fails only as the journal does.
        Err(error) => Err(RunError::Model {
            error: ModelError::Http { status: None, message: error.message().to_owned() },
            partial: crate::agent::PartialTurn::default(),
        }),
    }
}

fn joined(api: Api, steps: Vec<CallStep>, error: Option<RunError>) -> Batch<JournaledCall> {
    let mut items = Vec::with_capacity(steps.len());
    let mut records = Vec::with_capacity(steps.len());
    for step in steps {
        items.push(step.items);
        records.push(step.call);
    }
    Batch { items: api.join_results(items), records, error, handed_back: None }
}

/// The batch of a run cancelled in phase 1: no call ran; each is answered as cancelled.
fn cancelled(api: Api, calls: impl Iterator<Item = ToolCall>, error: RunError) -> Batch<JournaledCall> {
    let results: Vec<_> = calls
        .map(|call| crate::provider::CallResult {
            outcome: Err(ToolError::Cancelled { tool: call.name.clone() }),
            id: call.id,
            name: call.name,
        })
        .collect();
    Batch { items: api.results(&results), records: Vec::new(), error: Some(error), handed_back: None }
}
