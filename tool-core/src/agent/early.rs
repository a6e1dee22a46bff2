//! Calls that start while the model writes ([`Agent::early_calls`](super::Agent::early_calls)).
//! The model's stream closes a call ([`Delta::ToolCallDone`]) when its arguments are whole;
//! [`Closed`] queues such calls in call order, and [`Early`] takes each through phase 1 (one
//! at a time, in call order) and starts it while the model goes on, polled on the run's task
//! beside the model's request. When the turn is whole, its other calls join the same queue
//! and the batch ends as an ordinary one does (`batch.rs`): every call answered, in call
//! order, `after_call` and the events in call order.
//!
//! A turn with nothing started yet when it is whole runs as an ordinary batch.

use core::future::{Future, poll_fn};
use core::pin::pin;
use core::task::{Context, Poll, Waker};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use futures_util::stream::{FuturesOrdered, StreamExt};
use tokio::sync::Semaphore;

use super::Settings;
use super::background::Pending;
use super::batch::{self, Gate, Moved};
use super::hooks::ToolRun;
use crate::context::CancellationToken;
use crate::provider::{Delta, ToolCall};
use crate::registry::Registry;

/// The calls a turn's stream has closed, waiting for phase 1, in call order. The model's
/// delta sink writes here ([`Closed::offer`]); [`Early`] reads.
pub(super) struct Closed {
    state: Mutex<Queue>,
    /// The run's answer tool: its call and every call after it wait for the whole turn (an
    /// answer is refused beside other calls, which only the whole turn tells).
    answer_tool: Option<String>,
}

#[derive(Default)]
struct Queue {
    calls: VecDeque<ToolCall>,
    /// The index of the next call that may join: calls join in call order only.
    next: usize,
    /// No more calls join from the stream.
    stopped: bool,
    waker: Option<Waker>,
}

impl Closed {
    /// Takes the call `delta` closes, if it is the next in call order.
    pub(super) fn offer(&self, delta: &Delta<'_>) {
        let Delta::ToolCallDone { index, id, name, arguments } = *delta else { return };
        let mut queue = self.queue();
        if queue.stopped || index != queue.next {
            return;
        }
        if self.answer_tool.as_deref() == Some(name) {
            queue.stopped = true;
            return;
        }
        queue.next += 1;
        queue.calls.push_back(ToolCall::new(id, name, arguments.to_owned()));
        if let Some(waker) = queue.waker.take() {
            waker.wake();
        }
    }

    fn queue(&self) -> MutexGuard<'_, Queue> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

type Outcome = (ToolRun, Option<Moved>);

/// A boxed future polled on the run's task.
type Boxed<'a, T> = core::pin::Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// One turn's calls, started as the stream closes them.
pub(super) struct Early<'a> {
    settings: &'a Settings,
    registry: &'a Arc<Registry>,
    /// The run's cancellation, passed on to `cancel`.
    run_cancel: &'a CancellationToken,
    /// The turn's: the run's, or the turn's failing before it was whole.
    cancel: &'a CancellationToken,
    closed: Arc<Closed>,
    permits: Arc<Semaphore>,
    /// How many calls may run at once while the turn is not whole.
    bound: usize,
    /// The call in phase 1, if any.
    admitting: Option<Boxed<'a, Gate>>,
    running: FuturesOrdered<Boxed<'a, Outcome>>,
    /// Calls that ended, in call order.
    done: Vec<Outcome>,
    /// Calls through phase 1.
    admitted: usize,
}

impl<'a> Early<'a> {
    /// Early starts for a turn whose calls run against `registry`, the run's cancellation
    /// passed on to `cancel`; `answer_tool`'s calls wait for the whole turn.
    pub(super) fn new(
        settings: &'a Settings,
        registry: &'a Arc<Registry>,
        run_cancel: &'a CancellationToken,
        cancel: &'a CancellationToken,
        answer_tool: Option<&str>,
    ) -> Self {
        // A `sequential` tool makes its whole turn run one call at a time; until the turn is
        // whole, any call may be followed by one, so calls go one at a time where the
        // registry has such a tool.
        let bound = batch::concurrency(settings, registry.iter());
        Early {
            settings,
            registry,
            run_cancel,
            cancel,
            closed: Arc::new(Closed { state: Mutex::default(), answer_tool: answer_tool.map(str::to_owned) }),
            permits: Arc::new(Semaphore::new(bound)),
            bound,
            admitting: None,
            running: FuturesOrdered::new(),
            done: Vec::new(),
            admitted: 0,
        }
    }

    /// Where the model's stream hands the calls it closes.
    pub(super) fn sink(&self) -> Arc<Closed> {
        Arc::clone(&self.closed)
    }

    /// How many of the turn's calls were taken from the stream: the first this many.
    pub(super) fn taken(&self) -> usize {
        self.closed.queue().next
    }

    /// Awaits `step` (the model's request), starting calls as its stream closes them.
    pub(super) async fn alongside<T>(&mut self, step: Boxed<'_, T>) -> T {
        let mut step = step;
        poll_fn(|cx| {
            if let Poll::Ready(out) = step.as_mut().poll(cx) {
                return Poll::Ready(out);
            }
            self.drive(cx);
            Poll::Pending
        })
        .await
    }

    /// The batch of the whole turn, `calls`: those not taken from the stream join the
    /// queue, and every call is answered, in call order.
    pub(super) async fn finish(mut self, calls: Vec<ToolCall>, pending: &mut Pending) -> Vec<ToolRun> {
        let taken = {
            let mut queue = self.closed.queue();
            queue.stopped = true;
            queue.next
        };
        if self.admitted == 0 && self.admitting.is_none() {
            // Nothing started while the model wrote: the turn's own calls, as one batch.
            return batch::run(self.settings, self.registry, calls, self.run_cancel, pending).await;
        }
        // The bound held back for a `sequential` tool is lifted once the turn holds no call
        // to one (names are looked up only where the registry has such a tool).
        let full = self.settings.max_concurrency.max(1);
        let lift = full > self.bound
            && batch::concurrency(self.settings, calls.iter().filter_map(|call| self.registry.get(&call.name)))
                > self.bound;
        if lift {
            self.permits.add_permits(full - self.bound);
        }
        self.closed.queue().calls.extend(calls.into_iter().skip(taken));
        let mut cancelled = pin!(self.run_cancel.cancelled());
        poll_fn(|cx| {
            if cancelled.as_mut().poll(cx).is_ready() {
                self.cancel.cancel();
            }
            self.drive(cx);
            if self.idle() { Poll::Ready(()) } else { Poll::Pending }
        })
        .await;
        batch::conclude(self.settings, core::mem::take(&mut self.done), pending)
    }

    /// Stops the turn's calls (a turn that failed or a run cancelled before the turn was
    /// whole): those waiting never start, those running are cancelled within the grace,
    /// and each is answered and told as any call is.
    pub(super) async fn abandon(mut self) -> Vec<ToolRun> {
        self.cancel.cancel();
        {
            let mut queue = self.closed.queue();
            queue.stopped = true;
            queue.calls.clear();
        }
        poll_fn(|cx| {
            self.drive(cx);
            if self.idle() { Poll::Ready(()) } else { Poll::Pending }
        })
        .await;
        let mut runs = Vec::with_capacity(self.done.len());
        for (mut run, moved) in core::mem::take(&mut self.done) {
            if let Some(moved) = moved {
                moved.stop();
            }
            batch::finish(self.settings, &mut run);
            runs.push(run);
        }
        runs
    }

    /// Whether every call taken has ended.
    fn idle(&self) -> bool {
        self.admitting.is_none() && self.running.is_empty() && self.closed.queue().calls.is_empty()
    }

    /// Takes queued calls through phase 1, one at a time, starting each let through; polls
    /// those running, keeping the ended in call order.
    fn drive(&mut self, cx: &mut Context<'_>) {
        if self.run_cancel.is_cancelled() {
            self.cancel.cancel();
        }
        loop {
            if self.admitting.is_none() {
                let next = {
                    let mut queue = self.closed.queue();
                    let call = queue.calls.pop_front();
                    if call.is_none() {
                        queue.waker = Some(cx.waker().clone());
                    }
                    call
                };
                let Some(call) = next else { break };
                let (settings, registry, cancel) = (self.settings, self.registry, self.cancel);
                self.admitting = Some(Box::pin(batch::gate(settings, registry, call, cancel)));
            }
            let Some(admitting) = &mut self.admitting else { break };
            let Poll::Ready(gate) = admitting.as_mut().poll(cx) else { break };
            self.admitting = None;
            self.admitted += 1;
            batch::started(self.settings, &gate);
            let run = self.start(gate);
            self.running.push_back(run);
        }
        while let Poll::Ready(Some(outcome)) = self.running.poll_next_unpin(cx) {
            self.done.push(outcome);
        }
    }

    /// Phase 2 for a call through phase 1.
    fn start(&self, gate: Gate) -> Boxed<'a, Outcome> {
        match gate {
            Gate::Answered(call, error) => {
                Box::pin(core::future::ready((batch::answered(call, Err(error), Duration::ZERO), None)))
            }
            Gate::Run(call, entry) => {
                let permits = Arc::clone(&self.permits);
                let (settings, registry, cancel) = (self.settings, self.registry, self.cancel);
                Box::pin(async move {
                    // The semaphore is never closed, so acquiring cannot fail.
                    let _permit = permits.acquire_owned().await.ok();
                    batch::execute(settings, registry, call, &entry, cancel).await
                })
            }
        }
    }
}
