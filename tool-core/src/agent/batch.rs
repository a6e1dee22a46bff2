//! One batch: the calls of one model turn. Every call gets exactly one result, in call
//! order, whatever happens to it. Three phases:
//! 1. in call order, one at a time: `prepare`, `authorize`, approval, `before_call`; a call
//!    refused here never reaches its tool;
//! 2. the calls let through run, concurrently up to a bound (one at a time when the runner
//!    or a tool says `sequential`), each with its own context, under a timeout and the run's
//!    cancellation; async calls are polled together on the run's task, plain fns run on
//!    tokio's blocking pool, or on the run's task once they have always returned at once
//!    (see `tool::pace`);
//! 3. in call order, one at a time: `after_call`.
//!
//! A task-capable call that outlasts `background_after` leaves phase 2 early with a note for
//! the model, and goes on in the background (`background.rs`). Phase 2 is driven by
//! `driver.rs`, for a whole turn or for calls the model's stream closes while the model still
//! writes; phase 3 waits for the whole turn either way.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::Settings;
use super::background::{Pending, started_note};
use super::events::Event;
use super::hooks::{ToolRun, Verdict};
use super::subagent::ParentRun;
use crate::context::CancellationToken;
use crate::dispatch::ToolFuture;
use crate::error::ToolError;
use crate::output::ToolOutput;
use crate::provider::{CallResult, ToolCall, owned_arguments};
use crate::registry::{Entry, Registry, RunPlace};
use crate::tool::TaskSupport;

/// A call after phase 1: let through with its tool, or already answered (refused, or, in a
/// durable run, a deferred call the application answered).
pub(super) enum Gate {
    Run(ToolCall, Entry),
    Answered(ToolCall, Result<ToolOutput, ToolError>),
}

/// A call after phase 1 up to approval: answered already, or with its tool and whether it
/// needs an approver's verdict.
pub(super) enum Screened {
    Answered(ToolCall, ToolError),
    Ready { call: ToolCall, entry: Entry, ask: bool },
}

/// Phase 2's one scheduling rule, for each of its drivers (`driver.rs`, a durable run's
/// steps): one call at a time when the runner or any of
/// `tools` is `sequential`, else up to `max_concurrency` together.
pub(super) fn concurrency<'e>(settings: &Settings, mut tools: impl Iterator<Item = &'e Entry>) -> usize {
    if settings.sequential || tools.any(Entry::sequential) { 1 } else { settings.max_concurrency.max(1) }
}

/// Phase 3 for a batch's outcomes, in call order: a call moved to the background goes to
/// `pending` (its event first), then every call's `after_call` and event.
pub(super) fn conclude(
    settings: &Settings,
    outcomes: Vec<(ToolRun, Option<Moved>)>,
    pending: &mut Pending,
) -> Vec<ToolRun> {
    let mut runs = Vec::with_capacity(outcomes.len());
    for (run, moved) in outcomes {
        if let Some(Moved { token, task, started }) = moved {
            settings.emit(Event::ToolBackgrounded { id: run.call.id.clone(), name: run.call.name.clone() });
            pending.push(run.call.clone(), token, task, started, settings.call_timeout);
        }
        runs.push(run);
    }
    for run in &mut runs {
        finish(settings, run);
    }
    runs
}

/// The event of a call through phase 1, whether it runs or was refused: every call of a
/// batch gets one, in call order, before it runs (in a batch run whole, before any runs).
pub(super) fn started(settings: &Settings, gate: &Gate) {
    let (Gate::Run(call, _) | Gate::Answered(call, _)) = gate;
    settings.emit(Event::ToolStarted { id: call.id.clone(), name: call.name.clone() });
}

/// Phase 3 for one call: `after_call`, then the event.
pub(super) fn finish(settings: &Settings, run: &mut ToolRun) {
    settings.hooks.after_call(run);
    settings.emit(Event::ToolFinished {
        id: run.call.id.clone(),
        name: run.call.name.clone(),
        is_error: run.result.is_error(),
        elapsed: run.elapsed,
        details: run.details.clone(),
    });
}

/// Phase 1 for one call that needs an approver's verdict: the verdict, then [`settle`].
pub(super) async fn approve(settings: &Settings, call: ToolCall, entry: Entry, cancel: &CancellationToken) -> Gate {
    let verdict = match &settings.approver {
        None => Err("it needs approval and no approver is configured".to_owned()),
        Some(approver) => {
            let asked = tokio::time::timeout(settings.approval_timeout, approver.approve(&call));
            tokio::select! {
                answer = asked => match answer {
                    Ok(Ok(verdict)) => Ok(verdict),
                    Ok(Err(error)) => Err(format!("the approver failed: {error}")),
                    Err(_) => Err("no approval came in time".to_owned()),
                },
                () = cancel.cancelled() => {
                    let error = ToolError::Cancelled { tool: call.name.clone() };
                    return Gate::Answered(call, Err(error));
                }
            }
        }
    };
    settle(settings, call, entry, Some(verdict))
}

/// Phase 1 up to approval: `prepare`, the lookup, `authorize`, the repeat limit, and whether the call needs a
/// verdict.
pub(super) fn screen(
    settings: &Settings,
    registry: &Registry,
    mut call: ToolCall,
    cancel: &CancellationToken,
) -> Screened {
    settings.hooks.prepare(&mut call);
    if cancel.is_cancelled() {
        let error = ToolError::Cancelled { tool: call.name.clone() };
        return Screened::Answered(call, error);
    }
    let entry = match registry.lookup(&call.name) {
        Ok(entry) => entry.clone(),
        Err(unknown) => return Screened::Answered(call, unknown),
    };
    if let Err(reason) = settings.hooks.authorize(&call) {
        let error = denied(&call, reason);
        return Screened::Answered(call, error);
    }
    if let Some(reason) = settings.repeats.refuse(&call, settings.max_repeats) {
        let error = denied(&call, reason);
        return Screened::Answered(call, error);
    }
    let ask = settings.approval.needs_approval(&call.name, entry.requires_approval());
    Screened::Ready { call, entry, ask }
}

/// Phase 1 after approval: the verdict (`Err` is a failed or missing approver, which denies),
/// then `before_call`.
pub(super) fn settle(
    settings: &Settings,
    mut call: ToolCall,
    entry: Entry,
    verdict: Option<Result<Verdict, String>>,
) -> Gate {
    match verdict {
        None | Some(Ok(Verdict::Approve)) => {}
        Some(Ok(Verdict::Edit(arguments))) => call.arguments = arguments,
        Some(Ok(Verdict::Deny(reason)) | Err(reason)) => {
            let error = denied(&call, reason);
            return Gate::Answered(call, Err(error));
        }
    }
    if let Err(reason) = settings.hooks.before_call(&call) {
        let error = denied(&call, reason);
        return Gate::Answered(call, Err(error));
    }
    Gate::Run(call, entry)
}

fn denied(call: &ToolCall, reason: String) -> ToolError {
    ToolError::Denied { tool: call.name.clone(), reason }
}

/// A call moved to the background: its cancellation, its future, and when it started.
pub(super) struct Moved {
    token: CancellationToken,
    task: ToolFuture<'static>,
    started: Instant,
}

impl Moved {
    /// Cancels the call, whose result no one will read.
    pub(super) fn stop(self) {
        self.token.cancel();
    }
}

/// Phase 2 for one call: its own task, timeout and cancellation; or, for a task-capable tool
/// that outlasts [`Settings::background_after`], a note for the model and the call to go on.
pub(super) async fn execute(
    settings: &Settings,
    registry: &Arc<Registry>,
    call: ToolCall,
    entry: &Entry,
    cancel: &CancellationToken,
) -> (ToolRun, Option<Moved>) {
    let started = Instant::now();
    let token = CancellationToken::new();
    let events = settings.events.clone();
    let mut context = registry.context().with_call_id(&call.id).with_cancellation(token.clone());
    if let Some(host) = &settings.host {
        context = context.with_host(Arc::clone(host));
    }
    if let Some(events) = events {
        let parent = ParentRun { call_id: call.id.clone(), events: Arc::clone(&events) };
        context =
            context.with_progress(move |progress| events(&Event::ToolProgress(progress))).with_run(Arc::new(parent));
    }
    let background_after = background_after(settings, entry);
    let deadline = deadline(settings, entry);
    let mut task: ToolFuture<'static> = match owned_arguments(&call) {
        Ok(arguments) => registry.start_call(entry, context, arguments, RunPlace::Batch { deadline }),
        Err(error) => crate::dispatch::ready(Err(error)),
    };
    // Dropping `task` stops an async call; a plain fn on the blocking pool runs to its end,
    // its result unread.
    let outcome = tokio::select! {
        outcome = &mut task => outcome,
        // Disabled (never polled) unless the call may move to the background.
        () = tokio::time::sleep(background_after.unwrap_or_default()), if background_after.is_some() => {
            let note = started_note(&call);
            let run = answered(call, Ok(note), started.elapsed());
            return (run, Some(Moved { token, task, started }));
        }
        () = tokio::time::sleep(settings.call_timeout) => {
            token.cancel();
            Err(ToolError::TimedOut { tool: call.name.clone(), after: settings.call_timeout })
        }
        () = cancel.cancelled() => {
            // The tool hears of it through its context and may still finish, within grace.
            token.cancel();
            tokio::time::timeout(settings.cancel_grace, &mut task)
                .await
                .unwrap_or_else(|_| Err(ToolError::Cancelled { tool: call.name.clone() }))
        }
    };
    drop(task);
    (answered(call, outcome, started.elapsed()), None)
}

/// Whether a call of `entry` would run in place, on the run's thread (see `tool::pace`).
pub(super) fn in_place(settings: &Settings, registry: &Registry, entry: &Entry) -> bool {
    registry.batch_in_place(entry, deadline(settings, entry))
}

/// When a call of `entry` may move to the background, if it may.
fn background_after(settings: &Settings, entry: &Entry) -> Option<Duration> {
    settings
        .background_after
        .filter(|after| *after < settings.call_timeout && entry.task_support() != TaskSupport::Forbidden)
}

/// The soonest anything but the run's cancellation may end the wait for a call of `entry`:
/// a plain fn runs on the run's thread only if it returns before then.
fn deadline(settings: &Settings, entry: &Entry) -> Duration {
    background_after(settings, entry).unwrap_or(settings.call_timeout)
}

/// A call's record: its result, and the details and end-of-run request its tool set.
pub(super) fn answered(call: ToolCall, outcome: Result<ToolOutput, ToolError>, elapsed: Duration) -> ToolRun {
    let (details, terminate) = match &outcome {
        Ok(output) => (output.details().cloned(), output.terminates()),
        Err(_) => (None, false),
    };
    let result = CallResult { id: call.id.clone(), name: call.name.clone(), outcome };
    ToolRun { call, result, details, terminate, elapsed }
}
