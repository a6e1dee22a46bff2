//! Calls moved to the background. A task-capable tool (`#[tool(task = "..")]`) still running
//! [`Agent::background_after`](super::Agent::background_after) into its call goes on in a
//! task of its own: the model's result for it says so, the run goes on, and when the call
//! ends its result reaches the model as a message at the start of the next round (providers
//! pair a tool result with its call in the very next message, so a late one cannot be a tool
//! result). A model that answers while calls are in the background is asked again once the
//! next one ends.

use std::time::{Duration, Instant};

use tokio::sync::mpsc;

use super::hooks::ToolRun;
use crate::context::CancellationToken;
use crate::dispatch::ToolFuture;
use crate::error::ToolError;
use crate::output::ToolOutput;
use crate::provider::{CallResult, ToolCall};

/// One call in the background.
struct Background {
    call: ToolCall,
    token: CancellationToken,
    handle: tokio::task::AbortHandle,
    started: Instant,
}

/// A background call's end: its index among the run's background calls, and its outcome.
type Ended = (usize, Result<ToolOutput, ToolError>);

/// What a task-capable tool's description says when calls may move to the background.
pub(super) const LONG_RUNNING_NOTE: &str = "This tool may run long: if it does, its call is answered at once with a \
                                            note, and its result comes in a later message.";

/// What the model reads for a call moved to the background.
pub(super) fn started_note(call: &ToolCall) -> ToolOutput {
    ToolOutput::text(format!(
        "{} is still running and goes on in the background (call {}); its result will come in a later \
         message. Go on meanwhile, or answer once it has come.",
        call.name, call.id
    ))
}

/// What the model reads when a call in the background ends.
fn finished_note(run: &ToolRun) -> String {
    let how = if run.result.is_error() { "failed" } else { "finished" };
    format!(
        "The background call {} of {} {how} after {:.1} s: {}",
        run.call.id,
        run.call.name,
        run.elapsed.as_secs_f64(),
        run.result.text()
    )
}

/// The calls in the background of one run. Dropping it (the run ended, failed or was
/// cancelled) cancels them, and stops those still running after `grace`: an async call is
/// dropped, a plain fn's result goes unread.
pub(super) struct Pending {
    grace: Duration,
    /// Every call moved to the background in this run, by index; `None` once delivered.
    calls: Vec<Option<Background>>,
    sender: mpsc::UnboundedSender<Ended>,
    ended: mpsc::UnboundedReceiver<Ended>,
    /// Ends received while waiting, not yet delivered.
    ready: Vec<Ended>,
}

impl Pending {
    /// None yet; when dropped, calls get `grace` to stop on their own.
    pub(super) fn new(grace: Duration) -> Self {
        let (sender, ended) = mpsc::unbounded_channel();
        Pending { grace, calls: Vec::new(), sender, ended, ready: Vec::new() }
    }

    /// Moves `task` (running since `started`) to the background, bounded by what is left of
    /// `limit`.
    pub(super) fn push(
        &mut self,
        call: ToolCall,
        token: CancellationToken,
        task: ToolFuture<'static>,
        started: Instant,
        limit: Duration,
    ) {
        let index = self.calls.len();
        let tool = call.name.clone();
        let remaining = limit.saturating_sub(started.elapsed());
        let sender = self.sender.clone();
        let handle = tokio::spawn(async move {
            let outcome =
                tokio::time::timeout(remaining, task).await.unwrap_or(Err(ToolError::TimedOut { tool, after: limit }));
            let _ = sender.send((index, outcome));
        });
        self.calls.push(Some(Background { call, token, handle: handle.abort_handle(), started }));
    }

    /// Whether calls are still in the background.
    pub(super) fn is_empty(&self) -> bool {
        self.calls.iter().all(Option::is_none)
    }

    /// The calls that ended since last asked, each as a run and the message that tells the
    /// model.
    pub(super) fn finished(&mut self) -> Vec<(ToolRun, String)> {
        while let Ok(ended) = self.ended.try_recv() {
            self.ready.push(ended);
        }
        let mut runs = Vec::new();
        for (index, outcome) in self.ready.drain(..) {
            let Some(background) = self.calls.get_mut(index).and_then(Option::take) else { continue };
            let result = CallResult { id: background.call.id.clone(), name: background.call.name.clone(), outcome };
            let run = ToolRun {
                call: background.call,
                result,
                details: None,
                terminate: false,
                elapsed: background.started.elapsed(),
            };
            let note = finished_note(&run);
            runs.push((run, note));
        }
        runs
    }

    /// Waits until one of the calls ends; `false` when `cancel` came first.
    pub(super) async fn any_ended(&mut self, cancel: &CancellationToken) -> bool {
        if !self.ready.is_empty() {
            return true;
        }
        tokio::select! {
            ended = self.ended.recv() => {
                // The sender lives in `self`, so the channel never closes while waiting.
                self.ready.extend(ended);
                true
            }
            () = cancel.cancelled() => false,
        }
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        let running: Vec<tokio::task::AbortHandle> = self
            .calls
            .iter()
            .flatten()
            .map(|call| {
                call.token.cancel();
                call.handle.clone()
            })
            .collect();
        // Each call hears of the cancellation through its context and may end on its own;
        // what still runs after the grace is stopped.
        if !running.is_empty()
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            let grace = self.grace;
            runtime.spawn(async move {
                tokio::time::sleep(grace).await;
                running.iter().for_each(tokio::task::AbortHandle::abort);
            });
        }
    }
}
