//! Handoffs (`Agent::handoff`): the model calls a handoff tool, and the run goes on with the
//! other agent (its model, tools and limits) on the same conversation; a handoff a hook
//! refuses hands nothing over; agents of different shapes, or a name already taken, are
//! refused when the handoff is made.

use std::sync::{Arc, Mutex};

use serde_json::Value;
use tool_core::agent::{Agent, Api, Conversation, Event, HandoffError, Hooks, ScriptedModel};
use tool_core::provider::ToolCall;
use tool_core::{Registry, RegistryError};

use crate::fixture::{NapTool, answer, calls};

/// The tool names a request offered.
fn offered(tools: Option<&Value>) -> Vec<String> {
    tools
        .and_then(Value::as_array)
        .map(|tools| tools.iter().map(|tool| tool["function"]["name"].as_str().unwrap().to_owned()).collect())
        .unwrap_or_default()
}

fn billing(model: Arc<ScriptedModel>) -> Agent {
    let mut tools = Registry::new();
    tools.add(NapTool).unwrap();
    Agent::new(model, tools).system("You are the billing desk.")
}

#[tokio::test(start_paused = true)]
async fn the_other_agent_answers_from_the_handoff_on_the_same_conversation() {
    let desk = Arc::new(ScriptedModel::new(Api::OpenAiChat, [calls(&[("nap", r#"{"ms": 5}"#)]), answer("refunded")]));
    let front = Arc::new(ScriptedModel::new(Api::OpenAiChat, [calls(&[("transfer_to_billing", "{}")])]));
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let triage = Agent::new(Arc::clone(&front), Registry::new())
        .handoff("transfer_to_billing", "Hands billing questions to the billing desk", billing(Arc::clone(&desk)))
        .unwrap()
        .on_event(move |event| sink.lock().unwrap().push(event.clone()));
    let mut conversation = Conversation::new(Api::OpenAiChat);
    let outcome = triage.run(&mut conversation, "refund my order").await.unwrap();

    assert_eq!(outcome.text, "refunded");
    assert_eq!(outcome.handoffs, ["transfer_to_billing"]);
    assert_eq!(outcome.rounds, 3);
    let names: Vec<&str> = outcome.tool_runs.iter().map(|run| run.call.name.as_str()).collect();
    assert_eq!(names, ["transfer_to_billing", "nap"]);
    // user, the handoff call, its result, the desk's call, its result, the answer.
    assert_eq!(conversation.items().len(), 6);

    // Each agent offered its own tools; the desk read the whole conversation.
    let (front, desk) = (front.seen(), desk.seen());
    assert_eq!(offered(front[0].tools.as_ref()), ["transfer_to_billing"]);
    assert_eq!(offered(desk[0].tools.as_ref()), ["nap"]);
    assert_eq!(desk[0].history.len(), 3);
    assert_eq!(desk[0].history[0]["content"], "refund my order");
    assert!(desk[0].history[2]["content"].as_str().unwrap().contains("handed over"), "{:?}", desk[0].history[2]);

    // The run's sink heard both agents, the handoff between them.
    let events = events.lock().unwrap();
    let at = events.iter().position(|e| matches!(e, Event::HandedOff { to } if to == "transfer_to_billing")).unwrap();
    assert!(
        matches!(events[at - 1], Event::ToolFinished { ref name, is_error: false, .. } if name == "transfer_to_billing")
    );
    assert!(matches!(events[at + 1], Event::TurnStarted { round: 2 }));
    assert!(events.iter().any(|e| matches!(e, Event::ToolFinished { name, .. } if name == "nap")));
    assert!(matches!(events.last(), Some(Event::RunFinished { rounds: 3, .. })));
}

/// Refuses every handoff.
struct NoTransfers;

impl Hooks for NoTransfers {
    fn authorize(&self, call: &ToolCall) -> Result<(), String> {
        if call.name.starts_with("transfer_to_") { Err("stay on the line".to_owned()) } else { Ok(()) }
    }
}

#[tokio::test(start_paused = true)]
async fn a_handoff_a_hook_refuses_hands_nothing_over() {
    let desk = Arc::new(ScriptedModel::new(Api::OpenAiChat, []));
    let front = ScriptedModel::new(
        Api::OpenAiChat,
        [calls(&[("transfer_to_billing", "{}")]), answer("I will help you myself")],
    );
    let triage = Agent::new(front, Registry::new())
        .hooks(NoTransfers)
        .handoff("transfer_to_billing", "Hands billing questions on", billing(Arc::clone(&desk)))
        .unwrap();
    let outcome = triage.run(&mut Conversation::new(Api::OpenAiChat), "refund").await.unwrap();
    assert_eq!(outcome.text, "I will help you myself");
    assert!(outcome.handoffs.is_empty());
    assert!(outcome.tool_runs[0].result.text().contains("stay on the line"));
    assert!(desk.seen().is_empty(), "the desk was never asked");
}

#[test]
fn agents_of_different_shapes_or_a_taken_name_are_refused() {
    let desk = || billing(Arc::new(ScriptedModel::new(Api::OpenAiChat, [])));
    let anthropic = Agent::new(ScriptedModel::new(Api::Anthropic, []), Registry::new());
    let refused = anthropic.handoff("transfer_to_billing", "..", desk()).unwrap_err();
    assert_eq!(refused, HandoffError::DifferentApi { from: Api::Anthropic, to: Api::OpenAiChat });
    assert!(refused.to_string().contains("both agents must speak one API"), "{refused}");

    let mut tools = Registry::new();
    tools.add(NapTool).unwrap();
    let napper = Agent::new(ScriptedModel::new(Api::OpenAiChat, []), tools);
    let taken = napper.handoff("nap", "..", desk()).unwrap_err();
    assert!(
        matches!(taken, HandoffError::Tool(RegistryError::DuplicateName { ref name, .. }) if name == "nap"),
        "{taken:?}"
    );

    let twice = Agent::new(ScriptedModel::new(Api::OpenAiChat, []), Registry::new())
        .handoff("transfer", "..", desk())
        .unwrap()
        .handoff("transfer", "..", desk());
    assert!(matches!(twice, Err(HandoffError::Tool(RegistryError::DuplicateName { .. }))));
    let bad = Agent::new(ScriptedModel::new(Api::OpenAiChat, []), Registry::new()).handoff("a b", "..", desk());
    assert!(matches!(bad, Err(HandoffError::Tool(RegistryError::InvalidName { .. }))));
}

#[tokio::test(start_paused = true)]
async fn an_agent_with_live_tools_offers_its_handoffs_beside_them() {
    let desk = Arc::new(ScriptedModel::new(Api::OpenAiChat, [answer("billing here")]));
    let front = Arc::new(ScriptedModel::new(Api::OpenAiChat, [calls(&[("transfer_to_billing", "{}")])]));
    let mut live = Registry::new();
    live.add(NapTool).unwrap();
    let live = Arc::new(live);
    let triage = Agent::new(Arc::clone(&front), Registry::new())
        .live_tools(move || Arc::clone(&live))
        .handoff("transfer_to_billing", "Hands billing questions on", billing(Arc::clone(&desk)))
        .unwrap();
    let outcome = triage.run(&mut Conversation::new(Api::OpenAiChat), "refund").await.unwrap();
    assert_eq!(outcome.text, "billing here");
    assert_eq!(outcome.handoffs, ["transfer_to_billing"]);
    assert_eq!(offered(front.seen()[0].tools.as_ref()), ["nap", "transfer_to_billing"]);
}
