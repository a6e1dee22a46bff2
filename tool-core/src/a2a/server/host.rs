//! The task as the caller of what runs in it: a tool's elicitation, and an agent's approvals,
//! become questions to the A2A client (`INPUT_REQUIRED`), answered by its next message.

use serde_json::{Value, json};

use super::handle::TaskHandle;
use super::model::Incoming;
use crate::a2a::Part;
use crate::context::{ElicitationAnswer, ElicitationRequest, Host, HostFuture};

/// A [`Host`] whose elicitation asks the task's client.
pub(super) struct TaskHost(pub(super) TaskHandle);

impl Host for TaskHost {
    fn elicit(&self, request: ElicitationRequest) -> HostFuture<'_, ElicitationAnswer> {
        Box::pin(async move {
            let question =
                [Part::Text(request.message), Part::Data(json!({"requestedSchema": request.requested_schema}))];
            let answer = self.0.ask(question).await;
            Ok(elicitation(&answer))
        })
    }
}

/// The answer's content: its data part (or text holding a JSON object); "decline"/"no"
/// declines, "cancel" cancels, and other text declines.
fn elicitation(answer: &Incoming) -> ElicitationAnswer {
    if let Some(content) = object(answer) {
        return ElicitationAnswer::Accept(content);
    }
    match answer.text().trim().to_ascii_lowercase().as_str() {
        "cancel" => ElicitationAnswer::Cancel,
        _ => ElicitationAnswer::Decline,
    }
}

/// The first data part holding an object, or text that is one.
pub(super) fn object(answer: &Incoming) -> Option<Value> {
    answer.parts.iter().find_map(|part| match part {
        Part::Data(data) if data.is_object() => Some(data.clone()),
        Part::Text(text) => serde_json::from_str::<Value>(text).ok().filter(Value::is_object),
        _ => None,
    })
}
