//! Runs that end once their tools have answered (`Agent::stop_after`), and a run that ends
//! when the model repeats a call after it was told it has the result.

use std::sync::Arc;

use tool_core::agent::{Agent, Api, Conversation, ScriptedModel, StopAfter, Stopped};

use crate::fixture::{answer, calls, registry};
use crate::loop_semantics::SharedModel;

async fn run_with(stop: StopAfter, script: Vec<serde_json::Value>) -> (tool_core::agent::RunOutcome, usize) {
    let model = Arc::new(ScriptedModel::new(Api::OpenAiChat, script));
    let agent = Agent::new(SharedModel(Arc::clone(&model)), registry()).stop_after(stop);
    let outcome = agent.run(&mut Conversation::new(Api::OpenAiChat), "go").await.unwrap();
    (outcome, model.seen().len())
}

#[tokio::test]
async fn a_run_ends_after_its_first_tools_with_their_outputs() {
    let script = vec![calls(&[("nap", r#"{"ms": 1}"#), ("doze", r#"{"ms": 2}"#)]), answer("never asked")];
    let (outcome, asked) = run_with(StopAfter::FirstTools, script).await;
    assert_eq!((outcome.rounds, asked), (1, 1), "the model is not asked again");
    assert_eq!(outcome.text, "slept 1 ms\n\ndozed 2 ms");
    assert_eq!(outcome.stopped, Some(Stopped::AfterTools));

    // The default goes on to the model's answer.
    let script = vec![calls(&[("nap", r#"{"ms": 1}"#)]), answer("rested")];
    let (outcome, asked) = outcome_default(script).await;
    assert_eq!((outcome.text.as_str(), asked, outcome.stopped), ("rested", 2, None));
}

async fn outcome_default(script: Vec<serde_json::Value>) -> (tool_core::agent::RunOutcome, usize) {
    run_with(StopAfter::default(), script).await
}

#[tokio::test]
async fn a_run_ends_after_a_named_tool_or_when_a_hook_says_so() {
    let script = vec![calls(&[("nap", r#"{"ms": 1}"#)]), calls(&[("doze", r#"{"ms": 2}"#)]), answer("never asked")];
    let (outcome, asked) = run_with(StopAfter::tools(["doze"]), script).await;
    assert_eq!((outcome.rounds, asked, outcome.text.as_str()), (2, 2, "dozed 2 ms"));

    let failed = StopAfter::when(|runs| runs.iter().any(|run| run.result.is_error()));
    let script = vec![calls(&[("nap", r#"{"ms": 1}"#)]), calls(&[("crash", "{}")]), answer("never asked")];
    let (outcome, asked) = run_with(failed, script).await;
    assert_eq!((outcome.rounds, asked, outcome.stopped), (2, 2, Some(Stopped::AfterTools)));
    assert!(outcome.text.contains("crash"), "{}", outcome.text);
}

#[tokio::test]
async fn a_model_that_repeats_a_call_after_it_was_told_ends_the_run_cleanly() {
    let repeat = || calls(&[("nap", r#"{"ms": 1}"#)]);
    let script = vec![repeat(), repeat(), repeat(), repeat(), answer("never asked")];
    let model = Arc::new(ScriptedModel::new(Api::OpenAiChat, script));
    let agent = Agent::new(SharedModel(Arc::clone(&model)), registry()).max_repeats(1).max_rounds(10);
    let mut conversation = Conversation::new(Api::OpenAiChat);
    let outcome = agent.run(&mut conversation, "nap").await.unwrap();
    // Round 1 runs it; round 2 is told it has the result; round 3 repeats it again: the end.
    assert_eq!((outcome.rounds, model.seen().len()), (3, 3));
    assert_eq!(outcome.stopped, Some(Stopped::Repeats));
    let told: Vec<bool> = outcome.tool_runs.iter().map(|run| run.result.is_error()).collect();
    assert_eq!(told, [false, true, true]);
    let last = conversation.items().last().unwrap();
    assert_eq!(last["role"], "tool", "the last call is answered too");
}
