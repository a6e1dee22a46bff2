//! Turns the loop does not take as they came: calls cut off at the output limit never run
//! and are not sent back; argument text that is not JSON goes back as the arguments that
//! ran; a call repeated past the limit does not run; a tool choice needs tools.

use std::sync::Arc;

use serde_json::{Value, json};
use tool_core::Registry;
use tool_core::agent::{Agent, Api, Conversation, RunError, ScriptedModel, StopReason};
use tool_core::provider::ToolChoice;

use crate::fixture::{answer, calls, registry};
use crate::loop_semantics::SharedModel;

/// A Chat Completions turn calling `nap` with `arguments`, stopped for `finish_reason`.
fn nap_turn(arguments: &str, finish_reason: &str) -> Value {
    let mut turn = calls(&[("nap", arguments)]);
    turn["choices"][0]["finish_reason"] = json!(finish_reason);
    turn
}

#[tokio::test]
async fn a_turn_cut_off_at_the_output_limit_runs_nothing_and_is_not_sent_back() {
    let model = Arc::new(ScriptedModel::new(
        Api::OpenAiChat,
        [nap_turn(r#"{"ms": 1"#, "length"), nap_turn(r#"{"ms": 1}"#, "length"), answer("done")],
    ));
    let agent = Agent::new(SharedModel(Arc::clone(&model)), registry());
    let mut conversation = Conversation::new(Api::OpenAiChat);
    let outcome = agent.run(&mut conversation, "nap").await.unwrap();
    assert!(outcome.tool_runs.is_empty(), "neither call ran, though the second one parses");
    assert_eq!((outcome.rounds, outcome.text.as_str(), outcome.stop), (3, "done", StopReason::EndTurn));
    let roles: Vec<&str> = conversation.items().iter().map(|item| item["role"].as_str().unwrap()).collect();
    assert_eq!(roles, ["user", "user", "user", "assistant"], "no cut-off turn is kept");
    let told = conversation.items()[1]["content"].as_str().unwrap();
    assert!(told.starts_with("Your last reply was cut off at the output limit") && told.contains("`nap`"), "{told}");
    assert!(!model.seen()[1].history.iter().any(|item| item.get("tool_calls").is_some()));
}

#[tokio::test]
async fn an_answer_cut_off_says_so_in_the_outcome() {
    let mut cut = answer("The weather in Par");
    cut["choices"][0]["finish_reason"] = json!("length");
    let agent = Agent::new(ScriptedModel::new(Api::OpenAiChat, [cut]), registry());
    let outcome = agent.run(&mut Conversation::new(Api::OpenAiChat), "weather?").await.unwrap();
    assert_eq!((outcome.text.as_str(), outcome.stop), ("The weather in Par", StopReason::MaxTokens));
}

#[tokio::test]
async fn arguments_that_are_not_json_go_back_as_the_arguments_that_ran() {
    let turn = calls(&[("nap", r#"{"ms": "#), ("nap", "```json\n{\"ms\": 2,}\n```"), ("nap", r#"{"ms": 3}"#)]);
    let model = Arc::new(ScriptedModel::new(Api::OpenAiChat, [turn, answer("ok")]));
    let agent = Agent::new(SharedModel(Arc::clone(&model)), registry());
    let outcome = agent.run(&mut Conversation::new(Api::OpenAiChat), "go").await.unwrap();
    let texts: Vec<String> = outcome.tool_runs.iter().map(|run| run.result.text()).collect();
    assert!(texts[0].starts_with("the arguments are not valid JSON"), "{}", texts[0]);
    assert_eq!(texts[1..], ["slept 2 ms", "slept 3 ms"]);
    let sent = &model.seen()[1].history[1]["tool_calls"];
    let arguments: Vec<&str> = (0..3).map(|i| sent[i]["function"]["arguments"].as_str().unwrap()).collect();
    assert_eq!(arguments, ["{}", r#"{"ms":2}"#, r#"{"ms": 3}"#], "broken text never goes back");
}

#[tokio::test]
async fn a_call_repeated_past_the_limit_does_not_run() {
    let same = || calls(&[("nap", r#"{"ms": 1}"#), ("nap", r#"{ "ms":1 }"#)]);
    let script = [same(), same(), calls(&[("nap", r#"{"ms": 2}"#)]), answer("done")];
    let agent = Agent::new(ScriptedModel::new(Api::OpenAiChat, script), registry()).max_repeats(3);
    let outcome = agent.run(&mut Conversation::new(Api::OpenAiChat), "nap").await.unwrap();
    let texts: Vec<String> = outcome.tool_runs.iter().map(|run| run.result.text()).collect();
    assert_eq!(texts[..3], ["slept 1 ms", "slept 1 ms", "slept 1 ms"], "the same arguments, spaced otherwise");
    assert!(texts[3].contains("it already ran 3 times in this run with these same arguments"), "{}", texts[3]);
    assert_eq!(texts[4], "slept 2 ms", "other arguments are another call");
    let again = Agent::new(ScriptedModel::new(Api::OpenAiChat, [same(), answer("ok")]), registry()).max_repeats(1);
    let outcome = again.run(&mut Conversation::new(Api::OpenAiChat), "nap").await.unwrap();
    assert!(!outcome.tool_runs[0].result.is_error() && outcome.tool_runs[1].result.is_error());
}

#[tokio::test]
async fn a_tool_choice_that_asks_for_a_call_needs_tools() {
    for choice in [ToolChoice::Required, ToolChoice::Tool("nap".to_owned())] {
        let agent =
            Agent::new(ScriptedModel::new(Api::OpenAiChat, [answer("hi")]), Registry::new()).tool_choice(choice);
        let error = agent.run(&mut Conversation::new(Api::OpenAiChat), "hi").await.unwrap_err();
        assert_eq!(error, RunError::ToolChoiceWithoutTools);
    }
    let agent =
        Agent::new(ScriptedModel::new(Api::OpenAiChat, [answer("hi")]), Registry::new()).tool_choice(ToolChoice::Auto);
    assert_eq!(agent.run(&mut Conversation::new(Api::OpenAiChat), "hi").await.unwrap().text, "hi");
}

#[tokio::test]
async fn the_agent_forgives_a_number_written_as_text_unless_told_not_to() {
    let script = || [calls(&[("nap", r#"{"ms": "5"}"#)]), answer("done")];
    let agent = Agent::new(ScriptedModel::new(Api::OpenAiChat, script()), registry());
    let outcome = agent.run(&mut Conversation::new(Api::OpenAiChat), "nap").await.unwrap();
    assert_eq!(outcome.tool_runs[0].result.text(), "slept 5 ms");
    let strict = Agent::new(ScriptedModel::new(Api::OpenAiChat, script()), registry()).lenient(false);
    let outcome = strict.run(&mut Conversation::new(Api::OpenAiChat), "nap").await.unwrap();
    assert!(
        outcome.tool_runs[0].result.text().contains("/ms: expected an integer, got a string"),
        "{}",
        outcome.tool_runs[0].result.text()
    );
}

#[tokio::test]
async fn instructions_are_written_for_each_round_from_the_run_s_state() {
    let model =
        Arc::new(ScriptedModel::new(Api::OpenAiChat, [calls(&[("nap", r#"{"seconds": 0}"#)]), answer("rested")]));
    let agent = Agent::new(SharedModel(Arc::clone(&model)), registry()).system("You rest.").instructions(|turn| {
        let results = turn.history.iter().filter(|item| item["role"] == "tool").count();
        (turn.round > 1).then(|| format!("Round {}: {results} result(s) in; answer if they are enough.", turn.round))
    });
    agent.run(&mut Conversation::new(Api::OpenAiChat), "rest").await.unwrap();
    let systems: Vec<Option<String>> = model.seen().into_iter().map(|seen| seen.system).collect();
    assert_eq!(
        systems,
        [
            Some("You rest.".to_owned()),
            Some("You rest.\n\nRound 2: 1 result(s) in; answer if they are enough.".to_owned())
        ]
    );
}
