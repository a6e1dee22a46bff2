//! [`CancellationToken`]: a flag a caller raises to stop a running tool, which a sync tool
//! polls and an async tool awaits. Written here rather than taken from `tokio-util` because
//! `tool-core` imposes no runtime; it is a flag plus the wakers of the tasks awaiting it.

use core::fmt;
use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll, Waker};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// A flag a caller raises to ask a running tool to stop; cheap to clone and share.
///
/// ```
/// # use tool_core::context::CancellationToken;
/// let token = CancellationToken::new();
/// let waiting = token.clone();
/// token.cancel();
/// assert!(waiting.is_cancelled());
/// # let mut cx = core::task::Context::from_waker(core::task::Waker::noop());
/// # let mut future = core::pin::pin!(waiting.cancelled());
/// # assert!(future.as_mut().poll(&mut cx).is_ready());
/// ```
#[derive(Clone, Default)]
pub struct CancellationToken(Arc<Inner>);

#[derive(Default)]
struct Inner {
    cancelled: AtomicBool,
    next_id: AtomicU64,
    // The tasks awaiting `cancelled()`, each under the id of its future so that a future
    // dropped before the cancellation takes its waker back out.
    waiters: Mutex<Vec<(u64, Waker)>>,
}

impl CancellationToken {
    /// A token not yet cancelled.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks every holder of this token to stop, and wakes every task awaiting
    /// [`CancellationToken::cancelled`]. Calling it again does nothing.
    pub fn cancel(&self) {
        if self.0.cancelled.swap(true, Ordering::AcqRel) {
            return;
        }
        let waiters = core::mem::take(&mut *self.0.waiters.lock().unwrap_or_else(PoisonError::into_inner));
        for (_, waker) in waiters {
            waker.wake();
        }
    }

    /// Whether [`CancellationToken::cancel`] was called.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.0.cancelled.load(Ordering::Acquire)
    }

    /// Completes once the token is cancelled (at once if it already is), on any executor.
    #[must_use = "a future does nothing unless awaited"]
    pub fn cancelled(&self) -> Cancelled<'_> {
        Cancelled { token: self, id: None }
    }

    /// Whether both handles share one flag.
    #[must_use]
    pub fn same_as(&self, other: &CancellationToken) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl fmt::Debug for CancellationToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CancellationToken").field("cancelled", &self.is_cancelled()).finish()
    }
}

/// The future of [`CancellationToken::cancelled`].
#[derive(Debug)]
pub struct Cancelled<'a> {
    token: &'a CancellationToken,
    id: Option<u64>,
}

impl Future for Cancelled<'_> {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let inner = &self.token.0;
        if inner.cancelled.load(Ordering::Acquire) {
            return Poll::Ready(());
        }
        let mut waiters = inner.waiters.lock().unwrap_or_else(PoisonError::into_inner);
        // Checked again under the lock: `cancel` sets the flag before taking the lock, so
        // a cancellation cannot slip between this check and the registration below.
        if inner.cancelled.load(Ordering::Acquire) {
            return Poll::Ready(());
        }
        let id = *self.id.get_or_insert_with(|| inner.next_id.fetch_add(1, Ordering::Relaxed));
        match waiters.iter_mut().find(|(waiter, _)| *waiter == id) {
            Some((_, waker)) => waker.clone_from(cx.waker()),
            None => waiters.push((id, cx.waker().clone())),
        }
        Poll::Pending
    }
}

impl Drop for Cancelled<'_> {
    fn drop(&mut self) {
        if let Some(id) = self.id {
            let mut waiters = self.token.0.waiters.lock().unwrap_or_else(PoisonError::into_inner);
            waiters.retain(|(waiter, _)| *waiter != id);
        }
    }
}
