//! What a tool's own result asks of the run: details the model never sees, on the call's
//! record and its `ToolFinished` event (before `after_call` reads them); an end to the run
//! with no further model round. And `ToolStarted` for every call of a batch, refused ones
//! included, in call order before any runs. Partial results while a call runs, for whoever
//! watches, never for the model.

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tool_core::agent::{Agent, Api, Conversation, Event, Hooks, ScriptedModel, ToolRun};
use tool_core::context::Progress;
use tool_core::{ToolArgs, ToolContext, ToolOutput, tool};

use crate::fixture::{answer, calls, registry};
use crate::loop_semantics::SharedModel;

#[derive(Debug, ToolArgs)]
pub struct Order {
    /// The order's id
    #[param(min_length = 1)]
    pub id: String,
}

/// Places an order: the last step of a run
#[tool]
pub fn place_order(args: Order) -> ToolOutput {
    ToolOutput::text(format!("order {} placed", args.id)).with_details(json!({"receipt": args.id})).terminate()
}

/// What `after_call` saw of each call's details.
struct SeenDetails(Arc<Mutex<Vec<Option<Value>>>>);

impl Hooks for SeenDetails {
    fn after_call(&self, run: &mut ToolRun) {
        self.0.lock().unwrap().push(run.details.clone());
    }
}

#[tokio::test]
async fn a_tool_attaches_details_and_ends_the_run_itself() {
    let mut tools = registry();
    tools.add(PlaceOrderTool).unwrap();
    let model = Arc::new(ScriptedModel::new(
        Api::OpenAiChat,
        [calls(&[("place_order", r#"{"id": "A7"}"#)]), answer("never asked")],
    ));
    let events = Arc::new(Mutex::new(Vec::new()));
    let (sink, seen) = (Arc::clone(&events), Arc::new(Mutex::new(Vec::new())));
    let agent = Agent::new(SharedModel(Arc::clone(&model)), tools)
        .hooks(SeenDetails(Arc::clone(&seen)))
        .on_event(move |event| sink.lock().unwrap().push(event.clone()));
    let mut conversation = Conversation::new(Api::OpenAiChat);
    let outcome = agent.run(&mut conversation, "order A7").await.unwrap();
    assert!(outcome.terminated);
    assert_eq!((outcome.rounds, model.seen().len()), (1, 1), "no model round after it");
    assert_eq!(outcome.tool_runs[0].details, Some(json!({"receipt": "A7"})));
    assert_eq!(*seen.lock().unwrap(), [Some(json!({"receipt": "A7"}))], "after_call reads them");
    let finished = events.lock().unwrap().iter().find_map(|event| match event {
        Event::ToolFinished { details, .. } => Some(details.clone()),
        _ => None,
    });
    assert_eq!(finished, Some(Some(json!({"receipt": "A7"}))));
    let sent = conversation.items().last().unwrap().to_string();
    assert!(sent.contains("order A7 placed") && !sent.contains("receipt"), "the model never sees them: {sent}");
}

#[tokio::test]
async fn every_call_starts_in_call_order_before_any_runs() {
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let batch = calls(&[("nap", r#"{"ms": 20}"#), ("nope", "{}"), ("nap", r#"{"ms": 1}"#)]);
    let model = ScriptedModel::new(Api::OpenAiChat, [batch, answer("done")]);
    let agent = Agent::new(model, registry()).on_event(move |event| sink.lock().unwrap().push(event.clone()));
    agent.run(&mut Conversation::new(Api::OpenAiChat), "go").await.unwrap();
    let order: Vec<String> = events
        .lock()
        .unwrap()
        .iter()
        .filter_map(|event| match event {
            Event::ToolStarted { id, .. } => Some(format!("start {id}")),
            Event::ToolFinished { id, .. } => Some(format!("finish {id}")),
            _ => None,
        })
        .collect();
    assert_eq!(
        order,
        ["start call_0", "start call_1", "start call_2", "finish call_0", "finish call_1", "finish call_2"]
    );
}

/// Transcribes a recording, a line at a time
#[tool]
pub async fn transcribe(ctx: &ToolContext) -> String {
    let mut text = String::new();
    for (done, line) in ["Hello,", "world."].into_iter().enumerate() {
        text.push_str(line);
        if ctx.reports_reach_anyone() {
            #[expect(clippy::cast_precision_loss, reason = "two lines")]
            let report = Progress::new((done + 1) as f64).with_total(2.0).with_partial(ToolOutput::text(text.clone()));
            ctx.report(report);
        }
        text.push(' ');
        tokio::task::yield_now().await;
    }
    text.trim_end().to_owned()
}

#[tokio::test]
async fn a_running_call_reports_partial_results_to_watchers_and_the_model_reads_only_the_last() {
    let mut tools = registry();
    tools.add(TranscribeTool).unwrap();
    let model = Arc::new(ScriptedModel::new(Api::OpenAiChat, [calls(&[("transcribe", "{}")]), answer("done")]));
    let events: Arc<Mutex<Vec<Event>>> = Arc::default();
    let heard = Arc::clone(&events);
    let agent = Agent::new(SharedModel(Arc::clone(&model)), tools)
        .on_event(move |event| heard.lock().unwrap().push(event.clone()));
    agent.run(&mut Conversation::new(Api::OpenAiChat), "transcribe it").await.unwrap();
    let partials: Vec<(Option<String>, f64, String)> = events
        .lock()
        .unwrap()
        .iter()
        .filter_map(|event| match event {
            Event::ToolProgress(progress) => {
                let text = progress.partial.as_ref()?.to_text().into_owned();
                Some((progress.call_id.clone(), progress.progress, text))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        partials,
        [
            (Some("call_0".to_owned()), 1.0, "Hello,".to_owned()),
            (Some("call_0".to_owned()), 2.0, "Hello, world.".to_owned())
        ]
    );
    let result = &model.seen()[1].history[2];
    assert_eq!(result["content"], "Hello, world.", "the model reads the result, not the partials");
}
