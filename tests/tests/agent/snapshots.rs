//! Runs saved and picked up again (`on_snapshot`, `resume`), and steered while they go
//! (`Steering`).

use std::sync::{Arc, Mutex};

use tool_core::agent::{Agent, Api, Conversation, Hooks, RunSnapshot, ScriptedModel, Steering, ToolRun};
use tool_core::context::CancellationToken;

use crate::fixture::{answer, calls, registry};
use crate::loop_semantics::SharedModel;

#[tokio::test]
async fn a_snapshot_after_each_round_serializes_and_resumes_on_another_agent() {
    let snapshots: Arc<Mutex<Vec<RunSnapshot>>> = Arc::default();
    let sink = Arc::clone(&snapshots);
    let script = [calls(&[("nap", r#"{"ms": 1}"#)]), calls(&[("nap", r#"{"ms": 2}"#)]), answer("done")];
    let agent = Agent::new(ScriptedModel::new(Api::OpenAiChat, script), registry())
        .on_snapshot(move |snapshot| sink.lock().unwrap().push(snapshot.clone()));
    let mut conversation = Conversation::new(Api::OpenAiChat);
    let whole = agent.run(&mut conversation, "nap twice").await.unwrap();
    let snapshots = snapshots.lock().unwrap().clone();
    assert_eq!(
        snapshots.iter().map(|s| (s.rounds, s.conversation.items().len())).collect::<Vec<_>>(),
        [(1, 3), (2, 5)]
    );

    // Saved after the first round, read back, and finished by another process's agent.
    let saved = serde_json::to_string(&snapshots[0]).unwrap();
    assert!(saved.starts_with(r#"{"conversation":{"api":"openai_chat","items":[{"role":"user""#), "{saved}");
    let mut snapshot: RunSnapshot = serde_json::from_str(&saved).unwrap();
    assert_eq!(snapshot, snapshots[0]);
    let model = Arc::new(ScriptedModel::new(Api::OpenAiChat, [calls(&[("nap", r#"{"ms": 2}"#)]), answer("done")]));
    let resumed = Agent::new(SharedModel(Arc::clone(&model)), registry());
    let outcome = resumed.resume(&mut snapshot, &CancellationToken::new()).await.unwrap();
    assert_eq!(model.seen()[0].history, snapshots[0].conversation.items(), "asked from the snapshot, no new message");
    assert_eq!((outcome.text.as_str(), outcome.rounds), ("done", whole.rounds));
    assert_eq!(outcome.usage.input_tokens, whole.usage.input_tokens, "tokens counted from the snapshot's");
    assert_eq!(snapshot.conversation, conversation, "the same history as the run never stopped");
}

/// Types a message while the first call runs, as a person at the keyboard would.
struct TypesWhileRunning(Steering);

impl Hooks for TypesWhileRunning {
    fn after_call(&self, _: &mut ToolRun) {
        self.0.push("Also check Tuesday.");
    }
}

#[tokio::test]
async fn a_steering_message_joins_the_next_round() {
    let steering = Steering::new();
    let model = Arc::new(ScriptedModel::new(Api::OpenAiChat, [calls(&[("nap", r#"{"ms": 1}"#)]), answer("ok")]));
    let agent = Agent::new(SharedModel(Arc::clone(&model)), registry())
        .steering(steering.clone())
        .hooks(TypesWhileRunning(steering));
    agent.run(&mut Conversation::new(Api::OpenAiChat), "check Monday").await.unwrap();
    let seen = model.seen();
    let last = seen[1].history.last().unwrap();
    assert_eq!((last["role"].as_str(), last["content"].as_str()), (Some("user"), Some("Also check Tuesday.")));
    assert_eq!(seen[1].history[2]["role"], "tool", "after the result it followed");
}
