//! An agent as a tool of another (`Agent::into_tool`): the parent's model calls it with a
//! derived input, the child runs with its own model and tools, its answer is the result, its
//! events reach the parent's sink nested under the call, and cancelling the parent cancels it.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tool_core::agent::{Agent, Api, Conversation, Event, RunError, ScriptedModel};
use tool_core::context::CancellationToken;
use tool_core::{Registry, ToolArgs};

use crate::fixture::{NapTool, answer, calls};

#[derive(ToolArgs)]
struct Topic {
    /// What to research
    #[param(min_length = 1)]
    topic: String,
}

fn researcher(model: ScriptedModel) -> tool_core::DynamicTool {
    let mut tools = Registry::new();
    tools.add(NapTool).unwrap();
    Agent::new(model, tools)
        .system("You research topics.")
        .into_tool("research", "Researches a topic", |input: Topic| format!("Research {}", input.topic))
        .unwrap()
}

#[tokio::test(start_paused = true)]
async fn the_child_runs_with_its_own_model_and_tools_and_answers_the_call() {
    let child = ScriptedModel::new(
        Api::Anthropic,
        [
            serde_json::json!({"id": "m1", "type": "message", "role": "assistant", "model": "m",
            "content": [{"type": "tool_use", "id": "t1", "name": "nap", "input": {"ms": 30}}],
            "stop_reason": "tool_use", "usage": {"input_tokens": 5, "output_tokens": 3}}),
            serde_json::json!({"id": "m2", "type": "message", "role": "assistant", "model": "m",
            "content": [{"type": "text", "text": "rust is a language"}],
            "stop_reason": "end_turn", "usage": {"input_tokens": 9, "output_tokens": 4}}),
        ],
    );
    let mut tools = Registry::new();
    tools.add_dynamic(researcher(child)).unwrap();
    let parent =
        Arc::new(ScriptedModel::new(Api::OpenAiChat, [calls(&[("research", r#"{"topic": "rust"}"#)]), answer("done")]));
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let agent = Agent::new(Arc::clone(&parent), tools).on_event(move |event| sink.lock().unwrap().push(event.clone()));
    let outcome = agent.run(&mut Conversation::new(Api::OpenAiChat), "research rust").await.unwrap();
    assert_eq!(outcome.text, "done");
    assert_eq!(outcome.tool_runs[0].result.text(), "rust is a language");

    // The child's run, nested under the parent's call, in order.
    let events = events.lock().unwrap();
    let nested: Vec<&Event> = events
        .iter()
        .filter_map(|event| match event {
            Event::Nested { call_id, event } if call_id == "call_0" => Some(&**event),
            _ => None,
        })
        .collect();
    assert!(matches!(nested.first(), Some(Event::RunStarted)), "{nested:?}");
    assert!(nested.iter().any(|e| matches!(e, Event::ToolFinished { name, is_error: false, .. } if name == "nap")));
    assert!(matches!(nested.last(), Some(Event::RunFinished { rounds: 2, .. })), "{nested:?}");
}

#[tokio::test(start_paused = true)]
async fn an_invalid_input_never_reaches_the_child() {
    let child = ScriptedModel::new(Api::OpenAiChat, []);
    let mut tools = Registry::new();
    tools.add_dynamic(researcher(child)).unwrap();
    let parent = ScriptedModel::new(Api::OpenAiChat, [calls(&[("research", r#"{"topic": ""}"#)]), answer("ok")]);
    let outcome = Agent::new(parent, tools).run(&mut Conversation::new(Api::OpenAiChat), "go").await.unwrap();
    let text = outcome.tool_runs[0].result.text();
    assert!(text.contains("/topic: must be at least 1 character long"), "{text}");
}

#[tokio::test(start_paused = true)]
async fn cancelling_the_parent_run_cancels_the_child() {
    // The child naps for a minute; the parent is cancelled after a second.
    let child = ScriptedModel::new(Api::OpenAiChat, [calls(&[("nap", r#"{"ms": 60000}"#)]), answer("late")]);
    let mut tools = Registry::new();
    tools.add_dynamic(researcher(child)).unwrap();
    let parent = ScriptedModel::new(Api::OpenAiChat, [calls(&[("research", r#"{"topic": "rust"}"#)]), answer("x")]);
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let agent = Agent::new(parent, tools).on_event(move |event| sink.lock().unwrap().push(event.clone()));
    let cancel = CancellationToken::new();
    let stop = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_secs(1)).await;
        stop.cancel();
    });
    let started = tokio::time::Instant::now();
    let outcome = agent.run_until(&mut Conversation::new(Api::OpenAiChat), "go", &cancel).await;
    assert!(matches!(outcome, Err(RunError::Cancelled)), "{outcome:?}");
    assert!(started.elapsed() < Duration::from_mins(1), "the child's nap ran to its end (virtual time)");
    // The child's nap heard of it: "interrupted" is its answer.
    let events = events.lock().unwrap();
    assert!(
        events.iter().any(|event| matches!(event, Event::Nested { event, .. }
            if matches!(&**event, Event::ToolFinished { name, .. } if name == "nap"))),
        "{events:?}"
    );
}
