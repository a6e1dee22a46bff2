//! The one driver of a batch's phase 2 (the phases are in `batch.rs`), for a whole turn and
//! for calls that start while the model writes ([`Agent::early_calls`](super::Agent::early_calls)).
//! [`Closed`] queues calls in call order; [`Driver`] takes each through phase 1 (one at a
//! time, in call order) and starts it, polled on the run's task. Every call is answered, in
//! call order, `after_call` and the events in call order.
//!
//! While the model writes, its stream closes a call ([`Delta::ToolCallDone`]) when its
//! arguments are whole, and the call starts while the model goes on, beside the model's
//! request. When the turn is whole, its other calls join the same queue. A turn with nothing
//! started by then runs whole, which differs in three ways only: every call is through
//! phase 1 (approvals included) before any starts, so a refused call never follows a started
//! one; the bound comes from the turn's own tools, not from every tool the run may call; and
//! several plain fns run in place are first polled under one `block_in_place`.

use core::future::{Future, poll_fn};
use core::pin::pin;
use core::task::{Context, Poll, Waker};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use futures_util::stream::{FuturesOrdered, StreamExt};
use tokio::sync::Semaphore;

use super::background::Pending;
use super::batch::{self, Gate, Moved, Screened};
use super::hooks::ToolRun;
use super::{EarlyCalls, Settings};
use crate::context::CancellationToken;
use crate::provider::{Delta, ToolCall};
use crate::registry::Registry;
use crate::registry::multi_thread;

/// The calls a turn's stream has closed, waiting for phase 1, in call order. The model's
/// delta sink writes here ([`Closed::offer`]); [`Early`] reads.
pub(super) struct Closed {
    state: Mutex<Queue>,
    /// The run's answer tool: its call and every call after it wait for the whole turn (an
    /// answer is refused beside other calls, which only the whole turn tells).
    answer_tool: Option<String>,
    /// The tools the turn's calls run against, asked whether a call may start early.
    registry: Arc<Registry>,
    /// Which calls may.
    policy: EarlyCalls,
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
        let entry = self.registry.get(name);
        // A deferred tool's call is never run: those after it wait for the whole turn too,
        // so that the calls taken early are the turn's first ones.
        let unsafe_early = entry.is_some_and(crate::registry::Entry::is_deferred)
            || (self.policy != EarlyCalls::Every && !entry.is_some_and(crate::registry::Entry::starts_early));
        if self.answer_tool.as_deref() == Some(name) || unsafe_early {
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

/// One turn's calls: started as the stream closes them, or run whole.
pub(super) struct Driver<'a> {
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
    /// A whole turn's calls through phase 1, held until every call is (`None` while the
    /// model writes).
    held: Option<Vec<Gate>>,
    /// The next poll of `running` goes under one `block_in_place`.
    together: bool,
    /// The call in phase 1, if any.
    admitting: Option<Boxed<'a, Gate>>,
    running: FuturesOrdered<Boxed<'a, Outcome>>,
    /// Calls that ended, in call order.
    done: Vec<Outcome>,
    /// Calls through phase 1.
    admitted: usize,
}

impl<'a> Driver<'a> {
    /// Early starts for a turn whose calls run against `registry`, the run's cancellation
    /// passed on to `cancel`; `answer_tool`'s calls wait for the whole turn.
    pub(super) fn streaming(
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
        Driver {
            settings,
            registry,
            run_cancel,
            cancel,
            closed: Arc::new(Closed {
                state: Mutex::default(),
                answer_tool: answer_tool.map(str::to_owned),
                registry: Arc::clone(registry),
                policy: settings.early_calls,
            }),
            permits: Arc::new(Semaphore::new(bound)),
            bound,
            held: None,
            together: false,
            admitting: None,
            running: FuturesOrdered::new(),
            done: Vec::new(),
            admitted: 0,
        }
    }

    /// A whole turn, `calls`, against `registry` under the run's `cancel`: [`Driver::run`]
    /// answers each, in order; a task-capable call still running
    /// [`Settings::background_after`] into it is answered with a note and moved to `pending`.
    pub(super) fn whole(
        settings: &'a Settings,
        registry: &'a Arc<Registry>,
        cancel: &'a CancellationToken,
        calls: Vec<ToolCall>,
    ) -> Self {
        let queue = Queue { next: calls.len(), calls: calls.into(), stopped: true, waker: None };
        Driver {
            settings,
            registry,
            run_cancel: cancel,
            cancel,
            closed: Arc::new(Closed {
                state: Mutex::new(queue),
                answer_tool: None,
                registry: Arc::clone(registry),
                policy: EarlyCalls::Never,
            }),
            // Permits come once every call is through phase 1 and its tools are known.
            permits: Arc::new(Semaphore::new(0)),
            bound: 0,
            held: Some(Vec::new()),
            together: false,
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
    pub(super) async fn finish(self, calls: Vec<ToolCall>, pending: &mut Pending) -> Vec<ToolRun> {
        let taken = {
            let mut queue = self.closed.queue();
            queue.stopped = true;
            queue.next
        };
        if self.admitted == 0 && self.admitting.is_none() {
            // Nothing started while the model wrote: the turn runs whole.
            return Driver::whole(self.settings, self.registry, self.run_cancel, calls).run(pending).await;
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
        self.run(pending).await
    }

    /// Drives every call queued to its end, then phase 3.
    pub(super) async fn run(mut self, pending: &mut Pending) -> Vec<ToolRun> {
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
        self.admitting.is_none()
            && self.held.is_none()
            && self.running.is_empty()
            && self.closed.queue().calls.is_empty()
    }

    /// Takes queued calls through phase 1, one at a time, starting each let through; polls
    /// those running, keeping the ended in call order.
    fn drive(&mut self, cx: &mut Context<'_>) {
        if self.run_cancel.is_cancelled() {
            self.cancel.cancel();
        }
        while let Some(gate) = self.admit(cx) {
            self.admitted += 1;
            if let Some(held) = &mut self.held {
                held.push(gate);
                continue;
            }
            batch::started(self.settings, &gate);
            let run = self.start(gate);
            self.running.push_back(run);
        }
        if self.admitting.is_none()
            && let Some(held) = self.held.take_if(|_| self.closed.queue().calls.is_empty())
        {
            self.release(held);
        }
        let running = &mut self.running;
        let done = &mut self.done;
        let mut poll = || {
            while let Poll::Ready(Some(outcome)) = running.poll_next_unpin(cx) {
                done.push(outcome);
            }
        };
        if core::mem::take(&mut self.together) {
            // On a worker thread, the hand-off of its other tasks is then paid once for the
            // batch rather than once a call (the calls' own `block_in_place`s are nested, free).
            tokio::task::block_in_place(poll);
        } else {
            poll();
        }
    }

    /// The next call through phase 1, if one is: only a call that waits for its approval
    /// is a future, held in `admitting` until its verdict.
    fn admit(&mut self, cx: &mut Context<'_>) -> Option<Gate> {
        if self.admitting.is_none() {
            let next = {
                let mut queue = self.closed.queue();
                let call = queue.calls.pop_front();
                if call.is_none() {
                    queue.waker = Some(cx.waker().clone());
                }
                call
            };
            let (settings, registry, cancel) = (self.settings, self.registry, self.cancel);
            match batch::screen(settings, registry, next?, cancel) {
                Screened::Answered(call, error) => return Some(Gate::Answered(call, Err(error))),
                Screened::Ready { call, entry, ask: false } => return Some(batch::settle(settings, call, entry, None)),
                Screened::Ready { call, entry, ask: true } => {
                    self.admitting = Some(Box::pin(batch::approve(settings, call, entry, cancel)));
                }
            }
        }
        let Poll::Ready(gate) = self.admitting.as_mut()?.as_mut().poll(cx) else { return None };
        self.admitting = None;
        Some(gate)
    }

    /// Starts a whole turn's calls, every one through phase 1: each one's event first, in
    /// call order, then phase 2, bounded by the turn's own tools.
    fn release(&mut self, held: Vec<Gate>) {
        let tools = held.iter().filter_map(|gate| match gate {
            Gate::Run(_, entry) => Some(entry),
            Gate::Answered(..) => None,
        });
        self.bound = batch::concurrency(self.settings, tools);
        self.permits.add_permits(self.bound);
        self.together = multi_thread()
            && held
                .iter()
                .filter(
                    |gate| matches!(gate, Gate::Run(_, entry) if batch::in_place(self.settings, self.registry, entry)),
                )
                .nth(1)
                .is_some();
        for gate in &held {
            batch::started(self.settings, gate);
        }
        for gate in held {
            let run = self.start(gate);
            self.running.push_back(run);
        }
    }

    /// Phase 2 for a call through phase 1.
    fn start(&self, gate: Gate) -> Boxed<'a, Outcome> {
        match gate {
            Gate::Answered(call, outcome) => {
                Box::pin(core::future::ready((batch::answered(call, outcome, Duration::ZERO), None)))
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
