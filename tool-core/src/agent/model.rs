//! The [`Model`] abstraction: a conversation, tool definitions and a tool choice in; an
//! assistant turn out ([`ModelTurn`]: text, tool calls, why it stopped, usage, and the items
//! to keep in the history). Each [`Api`] is spoken by its module in `provider`, so the runner
//! keeps the history in the provider's own form.

use core::fmt;
use core::future::Future;
use core::pin::Pin;

use crate::provider::ResponseError;
pub use crate::provider::{Api, Delta, ModelRequest, ModelTurn, StopReason, Usage};

/// Where a model hands its [`Delta`]s.
pub type DeltaSink<'a> = &'a (dyn Fn(Delta<'_>) + Send + Sync);

/// Why a model gave no turn.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ModelError {
    /// The HTTP request failed or was refused (with the status, when there was one).
    Http {
        /// The status code.
        status: Option<u16>,
        /// The error body or message.
        message: String,
    },
    /// Too many requests, after the retries allowed.
    RateLimited {
        /// How long the provider asked to wait, in seconds.
        retry_after: Option<f64>,
        /// The error body.
        message: String,
    },
    /// The response was not the documented shape.
    Malformed(ResponseError),
    /// A scripted model ran out of responses.
    Exhausted,
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelError::Http { status: Some(status), message } => {
                write!(f, "the model request failed ({status}): {message}")
            }
            ModelError::Http { status: None, message } => write!(f, "the model request failed: {message}"),
            ModelError::RateLimited { retry_after, message } => {
                write!(f, "the model is rate limited")?;
                if let Some(seconds) = retry_after {
                    write!(f, " (retry after {seconds} s)")?;
                }
                write!(f, ": {message}")
            }
            ModelError::Malformed(error) => error.fmt(f),
            ModelError::Exhausted => f.write_str("the scripted model has no more responses"),
        }
    }
}

impl std::error::Error for ModelError {}

impl From<ResponseError> for ModelError {
    fn from(error: ResponseError) -> Self {
        ModelError::Malformed(error)
    }
}

/// The future of [`Model::respond`].
pub type ModelFuture<'a> = Pin<Box<dyn Future<Output = Result<ModelTurn, ModelError>> + Send + 'a>>;

/// Something that answers a conversation: an HTTP client, a scripted replay, your own.
pub trait Model: Send + Sync {
    /// The conversation shape it speaks.
    fn api(&self) -> Api;

    /// One turn. `on_delta` receives text and tool calls as they stream, for models that
    /// stream.
    fn respond<'a>(&'a self, request: ModelRequest<'a>, on_delta: DeltaSink<'a>) -> ModelFuture<'a>;
}

impl<M: Model + ?Sized> Model for Box<M> {
    fn api(&self) -> Api {
        (**self).api()
    }

    fn respond<'a>(&'a self, request: ModelRequest<'a>, on_delta: DeltaSink<'a>) -> ModelFuture<'a> {
        (**self).respond(request, on_delta)
    }
}

impl<M: Model + ?Sized> Model for std::sync::Arc<M> {
    fn api(&self) -> Api {
        (**self).api()
    }

    fn respond<'a>(&'a self, request: ModelRequest<'a>, on_delta: DeltaSink<'a>) -> ModelFuture<'a> {
        (**self).respond(request, on_delta)
    }
}
