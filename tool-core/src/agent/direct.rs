//! The ordinary run's steps ([`Direct`]): the model asked directly, its stream's closed
//! calls started as they come (`early.rs`), a batch run concurrently.

use std::sync::Arc;

use super::background::Pending;
use super::early::{Closed, Early};
use super::model::{Delta, ModelRequest, ModelTurn};
use super::steps::{Batch, StepFuture, Steps};
use super::telemetry::chat_span;
use super::{Agent, Event, RunError, Settings, ToolRun, batch};
use crate::context::CancellationToken;
use crate::provider::ToolCall;
use crate::registry::Registry;

/// The ordinary run's steps: the model asked directly (its `chat` span, cancellable), a
/// batch run concurrently.
pub(super) struct Direct;

impl Steps for Direct {
    type Record = ToolRun;

    fn rereads_tools(&self) -> bool {
        true
    }

    fn starts_early(&self) -> bool {
        true
    }

    fn model<'a>(
        &'a self,
        agent: &'a Agent,
        settings: &'a Settings,
        request: ModelRequest<'a>,
        _round: usize,
        cancel: &'a CancellationToken,
        closed: Option<Arc<Closed>>,
    ) -> StepFuture<'a, Result<ModelTurn, RunError>> {
        Box::pin(async move {
            let events = settings.events.clone();
            let on_delta = move |delta: Delta<'_>| {
                if let Some(events) = &events
                    && let Some(event) = Event::from_delta(delta)
                {
                    events(&event);
                }
                if let Some(closed) = &closed {
                    closed.offer(&delta);
                }
            };
            let chat = chat_span(agent.model.api());
            let respond = tracing::Instrument::instrument(agent.model.respond(request, &on_delta), chat.clone());
            let turn = tokio::select! {
                turn = respond => turn.map_err(|error| {
                    chat.record("error.type", "model_error");
                    RunError::Model(error)
                })?,
                () = cancel.cancelled() => return Err(RunError::Cancelled),
            };
            chat.record("gen_ai.usage.input_tokens", turn.usage.input_tokens);
            chat.record("gen_ai.usage.output_tokens", turn.usage.output_tokens);
            Ok(turn)
        })
    }

    fn calls<'a>(
        &'a self,
        agent: &'a Agent,
        settings: &'a Settings,
        registry: &'a Arc<Registry>,
        calls: Vec<ToolCall>,
        cancel: &'a CancellationToken,
        pending: &'a mut Pending,
        early: Option<Early<'a>>,
    ) -> StepFuture<'a, Batch<ToolRun>> {
        Box::pin(async move {
            let runs = match early {
                Some(early) => early.finish(calls, pending).await,
                None => batch::run(settings, registry, calls, cancel, pending).await,
            };
            let results: Vec<_> = runs.iter().map(|run| run.result.clone()).collect();
            Batch { items: agent.model.api().results(&results), records: runs, error: None }
        })
    }

    fn finished(&self, _agent: &Agent, run: ToolRun) -> ToolRun {
        run
    }
}
