//! Context loaded before a run asks the model: a [`Preload`] (passages a retriever finds for
//! the user's message, the memories saved about them) reads the message and writes text the
//! model reads with it, in every round of that run, after the system prompt. It is not kept
//! in the conversation: the next run loads its own.

use core::future::Future;
use core::pin::Pin;
use std::sync::Arc;

use super::{Agent, Event, Settings};

/// What a [`Preload`] gives: the text to add (`None`: nothing relevant), or why it could not.
pub type PreloadFuture<'a> = Pin<Box<dyn Future<Output = Result<Option<String>, String>> + Send + 'a>>;

/// Loads context for a run from its user message, before the model is asked
/// ([`Agent::preload`]): `retrieve::Retrieval` and `retrieve::Memories` in their
/// injected modes.
pub trait Preload: Send + Sync + 'static {
    /// The text the model should read with `message`, in a run whose calls get `context`
    /// (the registry's context: its state, the caller's claims).
    fn preload<'a>(&'a self, context: &'a crate::ToolContext, message: &'a str) -> PreloadFuture<'a>;
}

impl<P: Preload> Preload for Arc<P> {
    fn preload<'a>(&'a self, context: &'a crate::ToolContext, message: &'a str) -> PreloadFuture<'a> {
        (**self).preload(context, message)
    }
}

impl Agent {
    /// Loads context with `source` before each run that has a user message; each source's
    /// text joins the system prompt of that run's rounds, in the order the sources were
    /// added. A source that fails is left out, said in [`Event::PreloadFailed`].
    #[must_use]
    pub fn preload(mut self, source: impl Preload) -> Self {
        Arc::make_mut(&mut self.preloads).push(Arc::new(source));
        self
    }

    /// What this agent's sources load for `message`, joined; `None` when none has anything.
    pub(super) async fn preloaded(&self, settings: &Settings, message: &str) -> Option<String> {
        let context = self.tools_now().context().clone();
        let mut parts = Vec::new();
        for source in self.preloads.iter() {
            match source.preload(&context, message).await {
                Ok(Some(text)) => parts.push(text),
                Ok(None) => {}
                Err(problem) => settings.emit(Event::PreloadFailed { problem }),
            }
        }
        (!parts.is_empty()).then(|| parts.join("\n\n"))
    }
}
