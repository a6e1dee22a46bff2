//! A streamed answer (`SendStreamingMessage`, `SubscribeToTask`): the events of a run as
//! server-sent events, each a whole JSON-RPC response, closed once the task settles.

use std::collections::VecDeque;

use futures_util::Stream;
use serde_json::{Value, json};
use tokio::sync::broadcast::{self, error::RecvError};

use super::run::is_settled;

/// The events of one stream: those known when it opened, then the run's as they come.
pub(super) struct Events {
    first: VecDeque<Value>,
    receiver: broadcast::Receiver<Value>,
}

impl Events {
    pub(super) fn new(first: Vec<Value>, receiver: broadcast::Receiver<Value>) -> Self {
        Events { first: first.into(), receiver }
    }

    /// The events, ending after the one that settles the task (or a direct message).
    pub(super) fn results(self) -> impl Stream<Item = Value> + Send + 'static {
        futures_util::stream::unfold((self, false), |(mut events, done)| async move {
            if done {
                return None;
            }
            let event = match events.first.pop_front() {
                Some(event) => event,
                None => loop {
                    match events.receiver.recv().await {
                        Ok(event) => break event,
                        // A slow reader missed updates: the next ones still come, in order.
                        Err(RecvError::Lagged(_)) => {}
                        Err(RecvError::Closed) => return None,
                    }
                },
            };
            let done = ends(&event);
            Some((event, (events, done)))
        })
    }

    /// The events as JSON-RPC responses to request `id`.
    pub(super) fn responses(self, id: Value) -> impl Stream<Item = Value> + Send + 'static {
        futures_util::StreamExt::map(self.results(), move |event| json!({"jsonrpc": "2.0", "id": id, "result": event}))
    }
}

/// Whether a stream closes after `event`: a message, or a task or status that settled.
fn ends(event: &Value) -> bool {
    let state = event
        .pointer("/task/status/state")
        .or_else(|| event.pointer("/statusUpdate/status/state"))
        .and_then(Value::as_str);
    event.get("message").is_some() || state.is_some_and(is_settled)
}

/// What a method answers: a result, or a stream of them.
pub(super) enum Answer {
    Result(Value),
    Stream(Events),
}
