//! What a served agent does with a message: the [`Executor`] a program gives the server.

use core::future::Future;
use core::pin::Pin;

use super::handle::TaskHandle;
use super::model::{Incoming, Outcome};

/// The future an [`Executor`] returns.
pub type ExecuteFuture = Pin<Box<dyn Future<Output = Outcome> + Send>>;

/// What a served agent does with each message: a registry's tools
/// ([`A2aServer::registry`](super::A2aServer::registry)), an agent loop, or any async fn of
/// `(Incoming, TaskHandle)`.
pub trait Executor: Send + Sync + 'static {
    /// Runs `request`, reporting on `task` as it goes.
    fn execute(&self, request: Incoming, task: TaskHandle) -> ExecuteFuture;
}

impl<F, Fut> Executor for F
where
    F: Fn(Incoming, TaskHandle) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Outcome> + Send + 'static,
{
    fn execute(&self, request: Incoming, task: TaskHandle) -> ExecuteFuture {
        Box::pin(self(request, task))
    }
}
