//! A remote server's progress, delivered to the call it is about, in order and before the
//! call returns. rmcp hands each notification to a task of its own, so two can run swapped
//! and the last can still be queued when the answer arrives. The transport is read in
//! order, though: [`Counting`] counts each call's progress notifications as they arrive,
//! before the answer that follows them, and a finished call waits until as many have been
//! handled ([`Tracker::settle`]). Out of order, a value not above the last one reported is
//! stale and dropped (MCP requires progress to increase).

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use rmcp::RoleClient;
use rmcp::model::{JsonRpcMessage, ProgressNotificationParam, ProgressToken, ServerNotification};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::sync::Notify;

use crate::context::ToolContext;

/// How long a finished call waits at most for progress counted but not yet handled: a
/// bound, so a lost notification task cannot hold a call.
const SETTLE: Duration = Duration::from_secs(2);

/// The calls in flight whose progress a remote server may report, by progress token.
#[derive(Default)]
pub(in crate::mcp) struct Tracker {
    calls: Mutex<HashMap<ProgressToken, Listening>>,
    handled: Notify,
}

/// A call in flight.
struct Listening {
    /// Where its progress goes.
    context: ToolContext,
    /// The last value reported.
    last: f64,
    /// Notifications read from the transport, and handled.
    received: u64,
    seen: u64,
}

impl Tracker {
    fn calls(&self) -> MutexGuard<'_, HashMap<ProgressToken, Listening>> {
        self.calls.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Starts routing `token`'s progress to `context`.
    pub(in crate::mcp) fn listen(&self, token: ProgressToken, context: ToolContext) {
        self.calls().insert(token, Listening { context, last: f64::NEG_INFINITY, received: 0, seen: 0 });
    }

    /// A progress notification read from the transport.
    fn received(&self, token: &ProgressToken) {
        if let Some(call) = self.calls().get_mut(token) {
            call.received += 1;
        }
    }

    /// A progress notification handled: reported unless stale.
    pub(in crate::mcp) fn report(&self, params: &ProgressNotificationParam) {
        let context = {
            let mut calls = self.calls();
            calls.get_mut(&params.progress_token).and_then(|call| {
                call.seen += 1;
                (params.progress > call.last).then(|| {
                    call.last = params.progress;
                    call.context.clone()
                })
            })
        };
        if let Some(context) = context {
            context.report_progress(params.progress, params.total, params.message.as_deref());
        }
        self.handled.notify_waiters();
    }

    /// Waits until every notification read for `token` has been handled (at most
    /// [`SETTLE`]), then stops listening.
    pub(in crate::mcp) async fn settle(&self, token: &ProgressToken) {
        let _ = tokio::time::timeout(SETTLE, async {
            loop {
                let handled = self.handled.notified();
                let mut handled = core::pin::pin!(handled);
                handled.as_mut().enable();
                if self.calls().get(token).is_none_or(|call| call.seen >= call.received) {
                    return;
                }
                handled.await;
            }
        })
        .await;
        self.calls().remove(token);
    }
}

/// A client transport that counts progress notifications as they are read, in order.
pub(in crate::mcp) struct Counting<T> {
    pub(in crate::mcp) inner: T,
    pub(in crate::mcp) tracker: std::sync::Arc<Tracker>,
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for Counting<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.inner.send(item)
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleClient>>> + Send {
        let tracker = std::sync::Arc::clone(&self.tracker);
        let next = self.inner.receive();
        async move {
            let message = next.await;
            if let Some(JsonRpcMessage::Notification(notification)) = &message
                && let ServerNotification::ProgressNotification(progress) = &notification.notification
            {
                tracker.received(&progress.params.progress_token);
            }
            message
        }
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}
