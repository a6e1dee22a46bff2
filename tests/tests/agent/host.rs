//! An agent answering what a tool asks of its caller: a person at the keyboard fills the
//! form a tool elicits (`ctx.elicit::<Form>()`), through the agent's `Host`.

use std::sync::{Arc, Mutex};

use serde_json::json;
use tool_core::agent::{Agent, Api, Conversation, ScriptedModel};
use tool_core::context::{Elicitation, ElicitationAnswer, ElicitationRequest, Host, HostFuture};
use tool_core::{Registry, ToolArgs, ToolContext, tool};

use crate::fixture::{answer, calls};

/// Whether to go ahead.
#[derive(Debug, ToolArgs)]
pub struct Confirm {
    /// Yes to go ahead
    pub proceed: bool,
}

/// Books a trip, once the traveller confirms
#[tool]
pub async fn book_trip(ctx: &ToolContext) -> String {
    match ctx.elicit::<Confirm>("Book the trip to Rome?").await {
        Ok(Elicitation::Accepted(Confirm { proceed: true })) => "booked".to_owned(),
        Ok(_) => "not booked: the traveller said no".to_owned(),
        Err(error) => format!("not booked: {error}"),
    }
}

/// The person at the keyboard: says yes, and keeps what it was asked.
#[derive(Clone, Default)]
struct Keyboard(Arc<Mutex<Vec<ElicitationRequest>>>);

impl Host for Keyboard {
    fn elicit(&self, request: ElicitationRequest) -> HostFuture<'_, ElicitationAnswer> {
        self.0.lock().unwrap().push(request);
        Box::pin(async { Ok(ElicitationAnswer::Accept(json!({"proceed": true}))) })
    }
}

fn registry() -> Registry {
    let mut registry = Registry::new();
    registry.add(BookTripTool).unwrap();
    registry
}

#[tokio::test]
async fn the_agents_host_answers_a_tools_form() {
    let script = || [calls(&[("book_trip", "{}")]), answer("done")];
    let keyboard = Keyboard::default();
    let agent = Agent::new(ScriptedModel::new(Api::OpenAiChat, script()), registry()).host(keyboard.clone());
    let outcome = agent.run(&mut Conversation::new(Api::OpenAiChat), "book it").await.unwrap();
    assert_eq!(outcome.tool_runs[0].result.text(), "booked");
    let asked = keyboard.0.lock().unwrap().clone();
    assert_eq!(asked[0].message, "Book the trip to Rome?");
    assert_eq!(asked[0].requested_schema["properties"]["proceed"]["type"], "boolean", "the form's derived schema");

    let without = Agent::new(ScriptedModel::new(Api::OpenAiChat, script()), registry());
    let outcome = without.run(&mut Conversation::new(Api::OpenAiChat), "book it").await.unwrap();
    assert!(outcome.tool_runs[0].result.text().starts_with("not booked:"), "{}", outcome.tool_runs[0].result.text());
}
