//! Rounds: the loop ends when the model stops calling tools; the round limit fails the run or
//! asks for a last answer without tools; bad calls become results the model can act on;
//! `terminate` ends the run only when every result of a batch asks; events come in order.

use std::sync::{Arc, Mutex};

use serde_json::json;
use tool_core::Registry;
use tool_core::agent::{Agent, Api, Conversation, Hooks, RoundLimit, RunError, ScriptedModel, ToolRun};

use crate::fixture::{answer, calls, registry};

#[tokio::test]
async fn the_loop_runs_calls_and_ends_on_an_answer() {
    let model = ScriptedModel::new(Api::OpenAiChat, [calls(&[("nap", r#"{"ms": 1}"#)]), answer("done")]);
    let agent = Agent::new(model, registry());
    let mut conversation = Conversation::new(Api::OpenAiChat);
    let outcome = agent.run(&mut conversation, "rest a moment").await.unwrap();
    assert_eq!((outcome.text.as_str(), outcome.rounds, outcome.terminated), ("done", 2, false));
    assert_eq!(outcome.usage.input_tokens, 30);
    let roles: Vec<&str> = conversation.items().iter().map(|m| m["role"].as_str().unwrap()).collect();
    assert_eq!(roles, ["user", "assistant", "tool", "assistant"]);
    assert_eq!(conversation.items()[1]["tool_calls"][0]["id"], "call_0");
    assert_eq!(conversation.items()[2], json!({"role": "tool", "tool_call_id": "call_0", "content": "slept 1 ms"}));
}

#[tokio::test]
async fn bad_calls_become_results_the_model_reads() {
    let model = ScriptedModel::new(
        Api::OpenAiChat,
        [
            calls(&[
                ("nope", "{}"),
                ("nap", r#"{"ms": "#),
                ("nap", r#"{"ms": -5, "extra": 1}"#),
                ("crash", "{}"),
                ("nap", "```json\n{\"ms\": 2,}\n```"),
            ]),
            answer("ok"),
        ],
    );
    let agent = Agent::new(model, registry());
    let outcome = agent.run(&mut Conversation::new(Api::OpenAiChat), "go").await.unwrap();
    let texts: Vec<String> = outcome.tool_runs.iter().map(|run| run.result.text()).collect();
    assert!(
        texts[0].starts_with("unknown tool \"nope\"; the available tools are: crash, delete_file, doze"),
        "{}",
        texts[0]
    );
    assert!(texts[1].starts_with("the arguments are not valid JSON"), "{}", texts[1]);
    assert!(
        texts[2].contains("/ms: must be >= 0, got -5") && texts[2].contains("unknown property \"extra\""),
        "{}",
        texts[2]
    );
    assert!(texts[3].contains("crashed (the tool fell over)"), "{}", texts[3]);
    assert_eq!(texts[4], "slept 2 ms", "a fenced argument with a trailing comma is repaired and run");
}

#[tokio::test]
async fn the_round_limit_fails_or_asks_for_a_last_answer() {
    let looping = || (0..4).map(|_| calls(&[("nap", r#"{"ms": 0}"#)])).collect::<Vec<_>>();
    let agent = Agent::new(ScriptedModel::new(Api::OpenAiChat, looping()), registry()).max_rounds(2);
    let error = agent.run(&mut Conversation::new(Api::OpenAiChat), "loop").await.unwrap_err();
    assert_eq!(error, RunError::RoundLimit { rounds: 2 });

    let mut script = looping();
    script.truncate(2);
    script.push(answer("here is what I have"));
    let model = Arc::new(ScriptedModel::new(Api::OpenAiChat, script));
    let agent =
        Agent::new(SharedModel(Arc::clone(&model)), registry()).max_rounds(2).on_round_limit(RoundLimit::FinalAnswer);
    let outcome = agent.run(&mut Conversation::new(Api::OpenAiChat), "loop").await.unwrap();
    assert_eq!((outcome.text.as_str(), outcome.rounds), ("here is what I have", 3));
    let seen = model.seen();
    assert!(seen[0].tools.is_some() && seen[1].tools.is_some());
    assert!(seen[2].tools.is_none(), "the last answer is asked for without tools");
}

/// Lets a test keep a handle on a model it gave the agent.
pub struct SharedModel(pub Arc<ScriptedModel>);

impl tool_core::agent::Model for SharedModel {
    fn api(&self) -> Api {
        self.0.api()
    }
    fn respond<'a>(
        &'a self,
        request: tool_core::agent::ModelRequest<'a>,
        on_delta: tool_core::agent::DeltaSink<'a>,
    ) -> tool_core::agent::ModelFuture<'a> {
        self.0.respond(request, on_delta)
    }
}

/// Asks to end the run after calls to `nap` only.
struct StopAfterNap;

impl Hooks for StopAfterNap {
    fn after_call(&self, run: &mut ToolRun) {
        run.terminate = run.call.name == "nap";
        run.details = Some(json!({"seen": true}));
    }
}

#[tokio::test]
async fn a_batch_ends_the_run_only_when_every_result_asks() {
    let mixed = [
        calls(&[("nap", r#"{"ms": 0}"#), ("doze", r#"{"ms": 0}"#)]),
        calls(&[("nap", r#"{"ms": 0}"#)]),
        answer("never"),
    ];
    let agent = Agent::new(ScriptedModel::new(Api::OpenAiChat, mixed), registry()).hooks(StopAfterNap);
    let outcome = agent.run(&mut Conversation::new(Api::OpenAiChat), "go").await.unwrap();
    assert!(outcome.terminated);
    assert_eq!(outcome.rounds, 2, "the mixed batch went on; the all-nap batch ended the run");
    assert!(outcome.tool_runs.iter().all(|run| run.details == Some(json!({"seen": true}))));
}

#[tokio::test]
async fn events_report_the_run_in_order() {
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let model = ScriptedModel::new(Api::OpenAiChat, [calls(&[("nap", r#"{"ms": 0}"#)]), answer("fin")]);
    let agent = Agent::new(model, registry()).on_event(move |event| sink.lock().unwrap().push(event.clone()));
    agent.run(&mut Conversation::new(Api::OpenAiChat), "go").await.unwrap();
    let kinds: Vec<String> = events
        .lock()
        .unwrap()
        .iter()
        .map(|event| format!("{event:?}").split([' ', '(', '{']).next().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(
        kinds,
        [
            "RunStarted",
            "TurnStarted",
            "ModelRequest",
            "ToolCallDelta",
            "ModelResponse",
            "ToolStarted",
            "ToolProgress",
            "ToolFinished",
            "TurnStarted",
            "ModelRequest",
            "TextDelta",
            "ModelResponse",
            "RunFinished"
        ]
    );
}

/// Swaps the agent's tools for `doze` alone after the first call, as a program changing a
/// running server's tools would.
struct SwapTools(Arc<Mutex<Arc<Registry>>>);

impl Hooks for SwapTools {
    fn after_call(&self, _: &mut ToolRun) {
        let mut only_doze = Registry::new();
        only_doze.add(crate::fixture::DozeTool).unwrap();
        *self.0.lock().unwrap() = Arc::new(only_doze);
    }
}

#[tokio::test]
async fn live_tools_are_offered_and_called_from_the_next_round() {
    let current = Arc::new(Mutex::new(Arc::new(registry())));
    let script = vec![calls(&[("nap", r#"{"ms": 0}"#)]), calls(&[("nap", r#"{"ms": 0}"#)]), answer("done")];
    let model = Arc::new(ScriptedModel::new(Api::OpenAiChat, script));
    let source = Arc::clone(&current);
    let agent = Agent::new(SharedModel(Arc::clone(&model)), Registry::new())
        .live_tools(move || Arc::clone(&source.lock().unwrap()))
        .hooks(SwapTools(Arc::clone(&current)));
    let outcome = agent.run(&mut Conversation::new(Api::OpenAiChat), "nap twice").await.unwrap();
    let offered = |round: usize| -> Vec<String> {
        let tools = model.seen()[round].tools.clone().unwrap();
        tools.as_array().unwrap().iter().map(|tool| tool["function"]["name"].as_str().unwrap().to_owned()).collect()
    };
    assert!(offered(0).contains(&"nap".to_owned()), "{:?}", offered(0));
    assert_eq!(offered(1), ["doze"]);
    assert_eq!(outcome.tool_runs[0].result.text(), "slept 0 ms");
    assert!(
        outcome.tool_runs[1].result.is_error() && outcome.tool_runs[1].result.text().contains("unknown tool"),
        "{}",
        outcome.tool_runs[1].result.text()
    );
    assert_eq!(agent.registry().names(), ["doze"]);
}
