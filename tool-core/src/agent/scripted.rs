//! [`ScriptedModel`]: a model that replays provider responses, for tests and examples: each
//! turn is the next response, read exactly as the HTTP client reads a real one.

use std::collections::VecDeque;
use std::sync::{Mutex, PoisonError};

use serde_json::Value;

use super::model::{Api, Delta, DeltaSink, Model, ModelError, ModelFuture, ModelRequest};

/// A request as the scripted model saw it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SeenRequest {
    /// The instructions sent.
    pub system: Option<String>,
    /// The conversation sent.
    pub history: Vec<Value>,
    /// The tools offered, if any.
    pub tools: Option<Value>,
    /// The tool choice, if any.
    pub tool_choice: Option<Value>,
    /// The form asked of the answer, if any.
    pub output: Option<Value>,
}

/// Replays recorded responses of one [`Api`], one per turn, and records what it was asked.
#[derive(Debug)]
pub struct ScriptedModel {
    api: Api,
    responses: Mutex<VecDeque<Value>>,
    seen: Mutex<Vec<SeenRequest>>,
}

impl ScriptedModel {
    /// A model that answers with `responses`, in order (raw provider response bodies).
    pub fn new(api: Api, responses: impl IntoIterator<Item = Value>) -> Self {
        ScriptedModel { api, responses: Mutex::new(responses.into_iter().collect()), seen: Mutex::default() }
    }

    /// What it has been asked, in order.
    #[must_use]
    pub fn seen(&self) -> Vec<SeenRequest> {
        self.seen.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }
}

impl Model for ScriptedModel {
    fn api(&self) -> Api {
        self.api
    }

    fn respond<'a>(&'a self, request: ModelRequest<'a>, on_delta: DeltaSink<'a>) -> ModelFuture<'a> {
        self.seen.lock().unwrap_or_else(PoisonError::into_inner).push(SeenRequest {
            system: request.system.map(str::to_owned),
            history: request.history.to_vec(),
            tools: request.tools.cloned(),
            tool_choice: request.tool_choice.cloned(),
            output: request.output.cloned(),
        });
        let next = self.responses.lock().unwrap_or_else(PoisonError::into_inner).pop_front();
        let api = self.api;
        Box::pin(async move {
            let response = next.ok_or(ModelError::Exhausted)?;
            let turn = api.turn(&response)?;
            if !turn.text.is_empty() {
                on_delta(Delta::Text(&turn.text));
            }
            // Each call as one delta, then closed, as a stream would end it; the last call of
            // a turn cut off at the output limit stays open.
            let cut = turn.stop == crate::provider::StopReason::MaxTokens;
            for (index, call) in turn.calls.iter().enumerate() {
                let arguments = call.arguments.to_text();
                on_delta(Delta::ToolCall { index, id: &call.id, name: &call.name, arguments: &arguments });
                let open = cut && index + 1 == turn.calls.len();
                if !open && crate::provider::whole_object(&arguments) {
                    on_delta(Delta::ToolCallDone { index, id: &call.id, name: &call.name, arguments: &arguments });
                }
            }
            Ok(turn)
        })
    }
}
