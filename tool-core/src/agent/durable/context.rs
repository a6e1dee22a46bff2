//! The Restate contexts a durable run goes on in, and those that read and answer its waiting
//! call: sealed traits over the SDK's contexts whose operations come back as boxed `Send`
//! futures, so that a run's future is `Send` for whatever lifetime the handler's context has.

use core::future::Future;
use core::pin::Pin;

use restate_sdk::context::{
    ContextAwakeables, ContextReadState, ContextSideEffects, ContextWriteState, ObjectContext, RunFuture as _,
    RunRetryPolicy, SharedObjectContext, SharedWorkflowContext, WorkflowContext,
};
use restate_sdk::errors::{HandlerError, TerminalError};
use restate_sdk::serde::Json;
use serde::Serialize;

use super::{APPROVAL_KEY, DEFERRED_KEY, Decision, DeferredAnswer, DeferredCall, PendingApproval};

/// The Restate contexts that read a run's waiting call and resolve its awakeable: those of a
/// workflow and of a virtual object, shared or exclusive.
pub trait ApprovalContext: Sync + sealed::Sealed {
    #[doc(hidden)]
    fn __pending(&self) -> Journaled<'_, Option<Json<PendingApproval>>>;

    #[doc(hidden)]
    fn __resolve(&self, awakeable: &str, decision: Decision);

    #[doc(hidden)]
    fn __deferred(&self) -> Journaled<'_, Option<Json<DeferredCall>>>;

    #[doc(hidden)]
    fn __answer(&self, awakeable: &str, answer: DeferredAnswer);
}

macro_rules! approval_context {
    ($($context:ident),*) => {$(
        impl ApprovalContext for $context<'_> {
            fn __pending(&self) -> Journaled<'_, Option<Json<PendingApproval>>> {
                Box::pin(self.get::<Json<PendingApproval>>(APPROVAL_KEY))
            }

            fn __resolve(&self, awakeable: &str, decision: Decision) {
                self.resolve_awakeable(awakeable, Json(decision));
            }

            fn __deferred(&self) -> Journaled<'_, Option<Json<DeferredCall>>> {
                Box::pin(self.get::<Json<DeferredCall>>(DEFERRED_KEY))
            }

            fn __answer(&self, awakeable: &str, answer: DeferredAnswer) {
                self.resolve_awakeable(awakeable, Json(answer));
            }
        }
    )*};
}

approval_context!(WorkflowContext, SharedWorkflowContext, ObjectContext, SharedObjectContext);

/// A future of a context's operation, boxed so that a run's future is `Send` for whatever
/// lifetime the handler's context has.
#[doc(hidden)]
pub type Journaled<'a, T> = Pin<Box<dyn Future<Output = Result<T, TerminalError>> + Send + 'a>>;

/// The Restate contexts a durable run can go on in: a workflow's `run` handler
/// ([`WorkflowContext`]) and a virtual object's exclusive handler ([`ObjectContext`]), which
/// journal steps, wait on awakeables and keep the waiting call in their state.
pub trait RunContext: Sync + sealed::Sealed {
    #[doc(hidden)]
    fn __journal<T>(&self, name: String, retry: Option<RunRetryPolicy>, step: Step<T>) -> Journaled<'_, Json<T>>
    where
        T: Serialize + serde::de::DeserializeOwned + Send + 'static;

    #[doc(hidden)]
    fn __awakeable(&self) -> (String, Journaled<'_, Json<Decision>>);

    #[doc(hidden)]
    fn __keep(&self, waiting: PendingApproval);

    #[doc(hidden)]
    fn __forget(&self);

    #[doc(hidden)]
    fn __answer_awakeable(&self) -> (String, Journaled<'_, Json<DeferredAnswer>>);

    #[doc(hidden)]
    fn __keep_deferred(&self, waiting: DeferredCall);

    #[doc(hidden)]
    fn __forget_deferred(&self);
}

mod sealed {
    pub trait Sealed {}
}

impl sealed::Sealed for SharedWorkflowContext<'_> {}
impl sealed::Sealed for SharedObjectContext<'_> {}

macro_rules! run_context {
    ($context:ident) => {
        impl sealed::Sealed for $context<'_> {}

        impl RunContext for $context<'_> {
            fn __journal<T>(&self, name: String, retry: Option<RunRetryPolicy>, step: Step<T>) -> Journaled<'_, Json<T>>
            where
                T: Serialize + serde::de::DeserializeOwned + Send + 'static,
            {
                let run = self.run(move || step).name(name);
                match retry {
                    Some(retry) => Box::pin(run.retry_policy(retry)),
                    None => Box::pin(run),
                }
            }

            fn __awakeable(&self) -> (String, Journaled<'_, Json<Decision>>) {
                let (id, verdict) = self.awakeable::<Json<Decision>>();
                (id, Box::pin(verdict))
            }

            fn __keep(&self, waiting: PendingApproval) {
                self.set(APPROVAL_KEY, Json(waiting));
            }

            fn __forget(&self) {
                self.clear(APPROVAL_KEY);
            }

            fn __answer_awakeable(&self) -> (String, Journaled<'_, Json<DeferredAnswer>>) {
                let (id, answer) = self.awakeable::<Json<DeferredAnswer>>();
                (id, Box::pin(answer))
            }

            fn __keep_deferred(&self, waiting: DeferredCall) {
                self.set(DEFERRED_KEY, Json(waiting));
            }

            fn __forget_deferred(&self) {
                self.clear(DEFERRED_KEY);
            }
        }
    };
}

run_context!(WorkflowContext);
run_context!(ObjectContext);

/// A step's work. Boxed: an `async` block inside a fn generic over the context's lifetime
/// would make the handler's future `Send` only for that one lifetime (rust-lang/rust#100013),
/// which Restate's handler macros cannot use.
#[doc(hidden)]
pub type Step<T> = Pin<Box<dyn Future<Output = Result<Json<T>, HandlerError>> + Send>>;
