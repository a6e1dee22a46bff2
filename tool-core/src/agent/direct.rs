//! The ordinary run's steps ([`Direct`]): the model asked directly, its stream's closed
//! calls started as they come (`driver.rs`), a batch run concurrently.

use std::sync::Arc;

use super::background::Pending;
use super::deferred::Split;
use super::driver::{Closed, Driver};
use super::model::{Delta, ModelRequest, ModelTurn};
use super::partial::Collector;
use super::steps::{Batch, StepFuture, Steps};
use super::{Agent, Event, RunError, Settings, ToolRun};
use crate::context::CancellationToken;
use crate::provider::ToolCall;
use crate::registry::Registry;
use crate::telemetry::{chat_span, record_usage, traced};

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
            let partial = Collector::default();
            let collect = &partial;
            let on_delta = move |delta: Delta<'_>| {
                collect.offer(&delta);
                if let Some(events) = &events
                    && let Some(event) = Event::from_delta(delta)
                {
                    events(&event);
                }
                if let Some(closed) = &closed {
                    closed.offer(&delta);
                }
            };
            let chat = chat_span(agent.model.api().provider_name());
            let respond = traced(
                chat,
                || agent.model.respond(request, &on_delta),
                |span, turn| match turn {
                    Ok(turn) => record_usage(span, turn.usage.input_tokens, turn.usage.output_tokens),
                    Err(_) => {
                        span.record("error.type", "model_error");
                    }
                },
            );
            tokio::select! {
                turn = respond => turn.map_err(|error| RunError::Model { error, partial: partial.take() }),
                () = cancel.cancelled() => Err(RunError::Cancelled),
            }
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
        early: Option<Driver<'a>>,
    ) -> StepFuture<'a, Batch<ToolRun>> {
        Box::pin(async move {
            // Calls to deferred tools never start early (`Closed::offer`), so those the
            // stream started are the first of the calls that run.
            let mut split = Split::of(registry, calls);
            for call in split.handed_back() {
                settings.emit(Event::ToolDeferred { id: call.id.clone(), name: call.name.clone() });
            }
            let calls = core::mem::take(&mut split.run);
            let runs = match early {
                Some(early) => early.finish(calls, pending).await,
                None => Driver::whole(settings, registry, cancel, calls).run(pending).await,
            };
            if let Some(handed_back) = split.into_deferral(&runs) {
                return Batch { items: Vec::new(), records: runs, error: None, handed_back: Some(handed_back) };
            }
            let results: Vec<_> = runs.iter().map(|run| run.result.clone()).collect();
            Batch { items: agent.model.api().results(&results), records: runs, error: None, handed_back: None }
        })
    }

    fn finished(&self, _agent: &Agent, run: ToolRun) -> ToolRun {
        run
    }
}
