//! Sampling, elicitation and roots on protocol revisions from 2026-07-28 (SEP-2322), where a
//! server may not send requests: the call ends with an `InputRequiredResult` naming what it
//! needs, and the client retries the same `tools/call` with the answers. The tool is run
//! again from the start and its k-th request finds the k-th answer, so a tool keeps one API
//! on every revision; what it did before asking is done again (say so in its docs if that
//! matters). The answers of earlier rounds travel in `requestState`, which holds only what
//! the client itself answered.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

#[expect(deprecated, reason = "SEP-2577 deprecates sampling and logging; 2025 clients use both")]
use rmcp::model::{CreateMessageResult, ElicitResult, InputRequiredResult, InputResponses, ListRootsResult};
use serde_json::{Value, json};
use tokio::sync::Notify;

use crate::context::{
    ElicitationAnswer, ElicitationRequest, HostError, Root, SamplingRequest, SamplingResponse, UrlElicitation,
};
use crate::mcp::server::wire;

/// One round of a call: the answers known so far, and what the tool asked that has none.
pub(crate) struct Rounds {
    answers: BTreeMap<String, Value>,
    next: AtomicUsize,
    asked: Mutex<BTreeMap<String, Value>>,
    blocked: Notify,
}

impl Rounds {
    /// The round of a `tools/call` carrying `requestState` and `inputResponses` (neither on
    /// the first round).
    pub(crate) fn new(request_state: Option<&str>, responses: Option<&InputResponses>) -> Self {
        let mut answers: BTreeMap<String, Value> =
            request_state.and_then(|state| serde_json::from_str(state).ok()).unwrap_or_default();
        if let Some(responses) = responses {
            answers.extend(responses.iter().map(|(key, value)| (key.clone(), value.clone())));
        }
        Rounds { answers, next: AtomicUsize::new(0), asked: Mutex::new(BTreeMap::new()), blocked: Notify::new() }
    }

    /// The answer to the tool's next request, or `None` after recording the request.
    fn answer(&self, request: impl FnOnce() -> Value) -> Option<&Value> {
        let key = format!("input-{}", self.next.fetch_add(1, Ordering::Relaxed));
        if let Some(answer) = self.answers.get(&key) {
            return Some(answer);
        }
        self.asked.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(key, request());
        self.blocked.notify_one();
        None
    }

    #[expect(deprecated, reason = "SEP-2577 deprecates sampling and logging; 2025 clients use both")]
    pub(crate) async fn sample(&self, request: &SamplingRequest) -> Result<SamplingResponse, HostError> {
        let params = wire::sampling_params(request)?;
        let answer = self.answer(|| json!({"method": "sampling/createMessage", "params": params}));
        let Some(answer) = answer else {
            return core::future::pending().await;
        };
        let result: CreateMessageResult = serde_json::from_value(answer.clone())
            .map_err(|e| HostError::Failed { message: format!("unreadable sampling answer: {e}") })?;
        wire::sampling_response(&result)
    }

    pub(crate) async fn elicit(&self, request: ElicitationRequest) -> Result<ElicitationAnswer, HostError> {
        let params = wire::elicitation_params(request)?;
        let answer = self.answer(|| json!({"method": "elicitation/create", "params": params}));
        let Some(answer) = answer else {
            return core::future::pending().await;
        };
        let result: ElicitResult = serde_json::from_value(answer.clone())
            .map_err(|e| HostError::Failed { message: format!("unreadable elicitation answer: {e}") })?;
        Ok(wire::elicitation_answer(result))
    }

    pub(crate) async fn elicit_url(&self, request: &UrlElicitation) -> Result<ElicitationAnswer, HostError> {
        // 2026-07-28 has no elicitation id: the URL itself ties the answer to the request.
        let params = json!({"mode": "url", "message": request.message, "url": request.url});
        let Some(answer) = self.answer(|| json!({"method": "elicitation/create", "params": params})) else {
            return core::future::pending().await;
        };
        let result: ElicitResult = serde_json::from_value(answer.clone())
            .map_err(|e| HostError::Failed { message: format!("unreadable elicitation answer: {e}") })?;
        Ok(wire::elicitation_answer(result))
    }

    #[expect(deprecated, reason = "SEP-2577 deprecates roots; 2025 clients use them")]
    pub(crate) async fn roots(&self) -> Result<Vec<Root>, HostError> {
        let Some(answer) = self.answer(|| json!({"method": "roots/list"})) else {
            return core::future::pending().await;
        };
        let result: ListRootsResult = serde_json::from_value(answer.clone())
            .map_err(|e| HostError::Failed { message: format!("unreadable roots answer: {e}") })?;
        Ok(wire::roots(result))
    }

    /// Completes once the tool asked for something this round has no answer to.
    pub(crate) async fn blocked(&self) {
        self.blocked.notified().await;
    }

    /// The result that ends this round: what was asked, and every answer so far as state.
    pub(crate) fn input_required(&self) -> Result<InputRequiredResult, serde_json::Error> {
        let asked = core::mem::take(&mut *self.asked.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
        let requests = serde_json::from_value(Value::Object(asked.into_iter().collect()))?;
        let state = serde_json::to_string(&self.answers)?;
        Ok(InputRequiredResult::new(Some(requests), Some(state)))
    }
}
