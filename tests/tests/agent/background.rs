//! Long-running calls in the agent loop (`Agent::background_after`): a task-capable tool that
//! outlasts the threshold is answered with a note, goes on in the background, and its result
//! reaches the model as a message in a later round; the model is asked again when it arrives.
//! On tokio's paused clock, so the rounds are counted, never timed.

use std::sync::Mutex;
use std::time::Duration;

use serde_json::Value;
use tool_core::agent::{Agent, Api, Conversation, Event, RunError, ScriptedModel};
use tool_core::context::CancellationToken;
use tool_core::{Registry, ToolArgs, ToolContext, tool};

use crate::fixture::{NapTool, answer, calls};

#[derive(ToolArgs)]
struct Render {
    /// Milliseconds it takes
    #[param(minimum = 0, maximum = 600_000)]
    ms: u64,
}

/// What `render` calls heard of cancellation.
static INTERRUPTED: Mutex<Vec<u64>> = Mutex::new(Vec::new());

/// Renders a video; long
#[tool(task = "optional")]
async fn render(ctx: &ToolContext, args: Render) -> Result<String, String> {
    tokio::select! {
        () = tokio::time::sleep(Duration::from_millis(args.ms)) => Ok(format!("rendered in {} ms", args.ms)),
        () = ctx.cancelled() => {
            INTERRUPTED.lock().unwrap().push(args.ms);
            Err("interrupted".to_owned())
        }
    }
}

fn registry() -> Registry {
    let mut registry = Registry::new();
    registry.add(RenderTool).unwrap().add(NapTool).unwrap();
    registry
}

fn texts(history: &[Value]) -> String {
    serde_json::to_string(history).unwrap()
}

#[tokio::test(start_paused = true)]
async fn a_long_task_capable_call_goes_on_in_the_background_and_its_result_comes_later() {
    let model = std::sync::Arc::new(ScriptedModel::new(
        Api::OpenAiChat,
        [calls(&[("render", r#"{"ms": 1000}"#), ("nap", r#"{"ms": 10}"#)]), answer("rendering, wait"), answer("done")],
    ));
    let events = std::sync::Arc::new(Mutex::new(Vec::new()));
    let seen = std::sync::Arc::clone(&events);
    let agent = Agent::new(std::sync::Arc::clone(&model), registry())
        .background_after(Duration::from_millis(50))
        .on_event(move |event| seen.lock().unwrap().push(event.clone()));
    let outcome = agent.run(&mut Conversation::new(Api::OpenAiChat), "render it").await.unwrap();
    assert_eq!((outcome.text.as_str(), outcome.rounds), ("done", 3));

    let asked = model.seen();
    // The model was told which tools may answer at once and finish later.
    let tools = asked[0].tools.clone().unwrap();
    let description = |name: &str| {
        let tool = tools.as_array().unwrap().iter().find(|tool| tool["function"]["name"] == name).unwrap();
        tool["function"]["description"].as_str().unwrap().to_owned()
    };
    assert!(description("render").ends_with("its result comes in a later message."), "{}", description("render"));
    assert!(!description("nap").contains("may run long"), "{}", description("nap"));
    // Round 2: the call's result says it goes on; the quick call's result is there.
    let second = texts(&asked[1].history);
    assert!(second.contains("render is still running and goes on in the background (call call_0)"), "{second}");
    assert!(second.contains("slept 10 ms"), "{second}");
    // Round 3, asked once the call ended: its result as a message.
    let third = asked[2].history.last().unwrap();
    assert_eq!(third["role"], "user");
    let note = third["content"].as_str().unwrap();
    assert!(note.starts_with("The background call call_0 of render finished after "), "{note}");
    assert!(note.ends_with(" s: rendered in 1000 ms"), "{note}");

    let runs: Vec<(&str, String)> =
        outcome.tool_runs.iter().map(|run| (run.call.name.as_str(), run.result.text())).collect();
    assert_eq!(runs.len(), 3, "{runs:?}");
    assert_eq!(runs[2], ("render", "rendered in 1000 ms".to_owned()));
    let events = events.lock().unwrap();
    assert!(events.iter().any(|e| matches!(e, Event::ToolBackgrounded { name, .. } if name == "render")));
}

#[tokio::test(start_paused = true)]
async fn a_tool_that_is_no_task_is_awaited_in_its_round() {
    let model = std::sync::Arc::new(ScriptedModel::new(
        Api::OpenAiChat,
        [calls(&[("nap", r#"{"ms": 1000}"#)]), answer("done")],
    ));
    let agent = Agent::new(std::sync::Arc::clone(&model), registry()).background_after(Duration::from_millis(50));
    let outcome = agent.run(&mut Conversation::new(Api::OpenAiChat), "nap").await.unwrap();
    assert_eq!(outcome.rounds, 2);
    assert_eq!(outcome.tool_runs[0].result.text(), "slept 1000 ms");
}

#[tokio::test(start_paused = true)]
async fn a_run_cancelled_while_a_call_is_in_the_background_cancels_it() {
    let model = ScriptedModel::new(Api::OpenAiChat, [calls(&[("render", r#"{"ms": 77000}"#)]), answer("waiting")]);
    let agent = Agent::new(model, registry()).background_after(Duration::from_millis(50));
    let cancel = CancellationToken::new();
    let stop = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_secs(5)).await;
        stop.cancel();
    });
    let outcome = agent.run_until(&mut Conversation::new(Api::OpenAiChat), "render", &cancel).await;
    assert!(matches!(outcome, Err(RunError::Cancelled)), "{outcome:?}");
    // The background call heard of it.
    for _ in 0..100 {
        if INTERRUPTED.lock().unwrap().contains(&77000) {
            break;
        }
        tokio::task::yield_now().await;
    }
    assert!(INTERRUPTED.lock().unwrap().contains(&77000));
}
