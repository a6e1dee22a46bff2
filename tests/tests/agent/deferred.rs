//! Deferred tools (`DynamicTool::deferred`): a call is handed back to the application, which
//! answers it and resumes the run; the turn's results reach the model together, in call
//! order, with a snapshot or without.

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tool_core::agent::{
    Agent, Api, Conversation, EarlyCalls, Event, NotDeferred, RunError, RunSnapshot, ScriptedModel,
};
use tool_core::context::CancellationToken;
use tool_core::{DynamicTool, Registry, ToolArgs};

use crate::fixture::{answer, calls, registry};
use crate::loop_semantics::SharedModel;

/// Ask the user to confirm a booking
#[derive(ToolArgs)]
struct Confirm {
    /// What to confirm
    #[param(min_length = 1)]
    question: String,
}

/// The fixture's tools, and `confirm`, which the application answers.
fn with_confirm() -> Registry {
    let mut tools = registry();
    tools.add_dynamic(DynamicTool::deferred_typed::<Confirm>("confirm", "Ask the user to confirm").unwrap()).unwrap();
    tools
}

fn anthropic_calls() -> Value {
    json!({"id": "msg_01", "role": "assistant", "stop_reason": "tool_use",
           "content": [{"type": "tool_use", "id": "toolu_1", "name": "nap", "input": {"ms": 1}},
                       {"type": "tool_use", "id": "toolu_2", "name": "confirm", "input": {"question": "Book it?"}},
                       {"type": "tool_use", "id": "toolu_3", "name": "doze", "input": {"ms": 2}}],
           "usage": {"input_tokens": 12, "output_tokens": 6}})
}

fn anthropic_answer() -> Value {
    json!({"id": "msg_02", "role": "assistant", "stop_reason": "end_turn",
           "content": [{"type": "text", "text": "Booked."}], "usage": {"input_tokens": 30, "output_tokens": 3}})
}

#[tokio::test]
async fn a_deferred_call_ends_the_run_and_its_answer_joins_the_turns_results_in_call_order() {
    let events: Arc<Mutex<Vec<Event>>> = Arc::default();
    let heard = Arc::clone(&events);
    let snapshots: Arc<Mutex<Vec<RunSnapshot>>> = Arc::default();
    let sink = Arc::clone(&snapshots);
    let model = Arc::new(ScriptedModel::new(Api::Anthropic, [anthropic_calls(), anthropic_answer()]));
    let agent = Agent::new(SharedModel(Arc::clone(&model)), with_confirm())
        .early_calls(EarlyCalls::Every)
        .on_event(move |event| heard.lock().unwrap().push(event.clone()))
        .on_snapshot(move |snapshot| sink.lock().unwrap().push(snapshot.clone()));
    let mut conversation = Conversation::new(Api::Anthropic);
    let outcome = agent.run(&mut conversation, "book a nap").await.unwrap();

    // The other calls ran; `confirm` was handed back with its checked arguments.
    let ran: Vec<&str> = outcome.tool_runs.iter().map(|run| run.call.name.as_str()).collect();
    assert_eq!(ran, ["nap", "doze"]);
    assert_eq!(outcome.deferred.len(), 1);
    assert_eq!((outcome.deferred[0].id.as_str(), outcome.deferred[0].name.as_str()), ("toolu_2", "confirm"));
    let arguments: Value = serde_json::from_str(&outcome.deferred[0].arguments.to_text()).unwrap();
    assert_eq!(arguments, json!({"question": "Book it?"}));
    let waiting: Vec<&str> = conversation.deferred().map(|call| call.id.as_str()).collect();
    assert_eq!(waiting, ["toolu_2"]);
    assert_eq!(conversation.items().len(), 2, "no result joins the history before every call has one");
    let events = events.lock().unwrap().clone();
    assert!(events.contains(&Event::ToolDeferred { id: "toolu_2".into(), name: "confirm".into() }));
    let started: Vec<&str> = events
        .iter()
        .filter_map(|event| match event {
            Event::ToolStarted { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(started, ["nap", "doze"], "a deferred call never starts, even with EarlyCalls::Every");

    // Going on before the answer is refused, and nothing is asked.
    let refused = agent.resume(&mut RunSnapshot::new(conversation.clone()), &CancellationToken::new()).await;
    assert_eq!(refused.unwrap_err(), RunError::Unanswered { calls: vec!["toolu_2".into()] });
    assert_eq!(model.seen().len(), 1);

    // The snapshot of the round holds the deferral, through JSON, in another process.
    let saved = serde_json::to_string(&snapshots.lock().unwrap()[0]).unwrap();
    let mut snapshot: RunSnapshot = serde_json::from_str(&saved).unwrap();
    assert_eq!(snapshot.conversation, conversation);
    assert_eq!(snapshot.conversation.answer("toolu_9", "yes").unwrap_err().id, "toolu_9");
    let unknown: NotDeferred = snapshot.conversation.answer("x", "yes").unwrap_err();
    assert_eq!(unknown.to_string(), r#"no deferred call with id "x" waits for an answer"#);
    snapshot.conversation.answer("toolu_2", "The user said yes.").unwrap();
    assert_eq!(snapshot.conversation.answer("toolu_2", "again").unwrap_err().id, "toolu_2", "answered once");
    let outcome = agent.resume(&mut snapshot, &CancellationToken::new()).await.unwrap();
    assert_eq!((outcome.text.as_str(), outcome.rounds), ("Booked.", 2));
    assert!(outcome.deferred.is_empty());

    // The model read the three results in one message, in call order, the answer in its place.
    let history = &model.seen()[1].history;
    assert_eq!(history.len(), 3);
    let results: Vec<(&str, &str)> = history[2]["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|block| (block["tool_use_id"].as_str().unwrap(), block["content"].as_str().unwrap()))
        .collect();
    assert_eq!(results, [("toolu_1", "slept 1 ms"), ("toolu_2", "The user said yes."), ("toolu_3", "dozed 2 ms")]);
}

#[tokio::test]
async fn a_deferred_call_with_bad_arguments_is_answered_with_its_violations_and_the_run_goes_on() {
    let script = [calls(&[("confirm", r#"{"question": ""}"#)]), answer("Sorry.")];
    let model = Arc::new(ScriptedModel::new(Api::OpenAiChat, script));
    let agent = Agent::new(SharedModel(Arc::clone(&model)), with_confirm());
    let mut conversation = Conversation::new(Api::OpenAiChat);
    let outcome = agent.run(&mut conversation, "book").await.unwrap();
    assert!(outcome.deferred.is_empty(), "the application only reads calls its schema accepts");
    assert_eq!(outcome.text, "Sorry.");
    let result = &model.seen()[1].history[2];
    assert_eq!(result["role"], "tool");
    assert!(result["content"].as_str().unwrap().contains("/question: must be at least 1 character long"), "{result}");
}

#[tokio::test]
async fn an_application_may_refuse_a_deferred_call_and_the_next_run_carries_its_answer() {
    let script = [calls(&[("confirm", r#"{"question": "Pay 30 EUR?"}"#)]), answer("Cancelled, as you asked.")];
    let model = Arc::new(ScriptedModel::new(Api::OpenAiChat, script));
    let agent = Agent::new(SharedModel(Arc::clone(&model)), with_confirm());
    let mut conversation = Conversation::new(Api::OpenAiChat);
    let outcome = agent.run(&mut conversation, "pay").await.unwrap();
    let id = outcome.deferred[0].id.clone();
    conversation.answer(&id, Err::<String, _>("the user declined")).unwrap();
    // A new message, rather than a resume: the answer goes first, then the message.
    let outcome = agent.run(&mut conversation, "never mind").await.unwrap();
    assert_eq!(outcome.text, "Cancelled, as you asked.");
    let history = &model.seen()[1].history;
    assert_eq!(history[2]["role"], "tool");
    assert_eq!(history[2]["tool_call_id"], id.as_str());
    assert!(history[2]["content"].as_str().unwrap().contains("the user declined"), "{}", history[2]);
    assert_eq!(history[3]["content"], "never mind");
}

#[tokio::test]
async fn a_typed_run_that_hands_a_call_back_says_so() {
    #[derive(ToolArgs, Debug)]
    struct Booking {
        confirmed: bool,
    }
    let script = [calls(&[("confirm", r#"{"question": "Book?"}"#)])];
    let agent = Agent::new(ScriptedModel::new(Api::OpenAiChat, script), with_confirm());
    let mut conversation = Conversation::new(Api::OpenAiChat);
    let error = agent.run_for::<Booking>(&mut conversation, "book", 0).await.unwrap_err();
    let RunError::Deferred { calls } = &error else { panic!("{error:?}") };
    assert_eq!(calls[0].name, "confirm");
    assert_eq!(conversation.deferred().count(), 1, "the conversation holds the turn to answer");
}

#[tokio::test]
async fn a_deferred_tool_called_outside_a_run_says_it_cannot_run_there() {
    let tools = with_confirm();
    let error = tools.call_async(&tools.context(), "confirm", r#"{"question": "Book?"}"#).await.unwrap_err();
    assert!(error.to_string().contains("is answered by the application that defined it"), "{error}");
    assert!(tools.get("confirm").unwrap().is_deferred());
    assert!(!tools.get("nap").unwrap().is_deferred());

    // From a JSON Schema: listed as written, and every call checked before it is handed back.
    let schema = r#"{"type":"object","properties":{"url":{"type":"string","format":"uri"}},"required":["url"]}"#;
    let open = DynamicTool::deferred("open_tab", "Opens a tab in the user's browser", schema).unwrap();
    assert!(open.is_deferred());
    let mut tools = Registry::new();
    tools.add_dynamic(open).unwrap();
    assert_eq!(tools.get("open_tab").unwrap().parameters_json(), schema);
    let refused = tools.validate("open_tab", r#"{"url": 3}"#).unwrap_err();
    assert!(refused.to_string().contains("/url: expected a string"), "{refused}");
}
