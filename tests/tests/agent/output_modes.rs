//! The answer tool (the default output mode) and the prompted mode: the answer's schema as a
//! tool beside the others, a wrong answer answered with its violations as any call is, the
//! run ended by a valid one; the last round offering the answer tool alone; the schema in the
//! instructions and a fenced answer read from the text.

use std::sync::Arc;

use serde_json::Value;
use tool_core::Registry;
use tool_core::agent::{Agent, Api, Conversation, OutputMode, RoundLimit, RunError, ScriptedModel};

use crate::fixture::{Forecast, answer, calls, registry};
use crate::loop_semantics::SharedModel;

/// The names of the tools a request offered.
fn offered(tools: Option<&Value>) -> Vec<String> {
    let tools = tools.and_then(Value::as_array).cloned().unwrap_or_default();
    tools.iter().map(|tool| tool["function"]["name"].as_str().unwrap_or_default().to_owned()).collect()
}

#[tokio::test]
async fn the_answer_tool_sits_beside_the_tools_and_ends_the_run_when_valid() {
    let script = [
        calls(&[("nap", r#"{"ms": 1}"#)]),
        calls(&[("final_answer", r#"{"city": "Oslo", "days": 30}"#)]),
        calls(&[("final_answer", r#"{"city": "Oslo", "days": 3}"#)]),
        answer("never asked"),
    ];
    let model = Arc::new(ScriptedModel::new(Api::OpenAiChat, script));
    let agent = Agent::new(SharedModel(Arc::clone(&model)), registry());
    let answer = agent.run_for::<Forecast>(&mut Conversation::new(Api::OpenAiChat), "forecast", 2).await.unwrap();
    assert_eq!(answer.value, Forecast { city: "Oslo".to_owned(), days: 3 });
    assert_eq!((answer.run.rounds, answer.run.text.as_str()), (3, r#"{"city": "Oslo", "days": 3}"#));
    let seen = model.seen();
    assert!(seen.iter().all(|request| request.output.is_none()), "no structured output: it would force the answer");
    let names = offered(seen[0].tools.as_ref());
    assert!(names.contains(&"nap".to_owned()) && names.contains(&"final_answer".to_owned()), "{names:?}");
    let tool =
        seen[0].tools.as_ref().unwrap().as_array().unwrap().iter().find(|t| t["function"]["name"] == "final_answer");
    let function = &tool.unwrap()["function"];
    assert_eq!(function["parameters"]["properties"]["days"]["maximum"], 10, "the answer's compile-time schema");
    assert_eq!(function["strict"], true);
    let refused = &answer.run.tool_runs[1];
    assert!(refused.result.is_error());
    assert!(refused.result.text().contains("/days: must be <= 10, got 30"), "{}", refused.result.text());
    assert_eq!(answer.run.tool_runs[2].result.text(), "Answer received.");
}

#[tokio::test]
async fn an_answer_beside_other_calls_waits_for_their_results_and_is_not_counted() {
    let script = [
        calls(&[("nap", r#"{"ms": 1}"#), ("final_answer", r#"{"city": "Oslo", "days": 3}"#)]),
        calls(&[("final_answer", r#"{"city": "Oslo", "days": 4}"#)]),
    ];
    let agent = Agent::new(ScriptedModel::new(Api::OpenAiChat, script), registry());
    let answer = agent.run_for::<Forecast>(&mut Conversation::new(Api::OpenAiChat), "forecast", 0).await.unwrap();
    assert_eq!(answer.value.days, 4, "the answer written after the nap's result");
    let texts: Vec<String> = answer.run.tool_runs.iter().map(|run| run.result.text()).collect();
    assert_eq!(texts[0], "slept 1 ms");
    assert!(texts[1].contains("Not taken: an answer given beside other calls"), "{}", texts[1]);
}

#[tokio::test]
async fn a_text_answer_is_taken_when_valid_and_otherwise_asked_for_through_the_tool() {
    let script = [answer("It will be sunny."), answer("```json\n{\"city\": \"Rome\", \"days\": 2}\n```")];
    let model = Arc::new(ScriptedModel::new(Api::OpenAiChat, script));
    let agent = Agent::new(SharedModel(Arc::clone(&model)), Registry::new());
    let answer = agent.run_for::<Forecast>(&mut Conversation::new(Api::OpenAiChat), "forecast", 1).await.unwrap();
    assert_eq!(answer.value.city, "Rome");
    let told = model.seen()[1].history.last().unwrap()["content"].as_str().unwrap().to_owned();
    assert!(told.ends_with("Give your answer by calling `final_answer` with it."), "{told}");
}

#[tokio::test]
async fn no_valid_answer_is_an_error_worded_for_an_answer() {
    let wrong = || calls(&[("final_answer", r#"{"city": "", "days": 1}"#)]);
    let agent = Agent::new(ScriptedModel::new(Api::OpenAiChat, [wrong(), wrong()]), Registry::new());
    let error = agent.run_for::<Forecast>(&mut Conversation::new(Api::OpenAiChat), "forecast", 1).await.unwrap_err();
    assert!(matches!(error, RunError::InvalidOutput { attempts: 2, .. }), "{error:?}");
    assert_eq!(
        error.to_string(),
        "the model gave no valid answer in 2 attempt(s); the last:\n- /city: must be at least 1 character long, got 0: \"\""
    );
}

#[tokio::test]
async fn the_last_round_offers_the_answer_tool_alone() {
    let script = [
        calls(&[("nap", r#"{"ms": 1}"#)]),
        calls(&[("nap", r#"{"ms": 2}"#), ("final_answer", r#"{"city": "Nice", "days": 1}"#)]),
    ];
    let model = Arc::new(ScriptedModel::new(Api::OpenAiChat, script));
    let agent =
        Agent::new(SharedModel(Arc::clone(&model)), registry()).max_rounds(1).on_round_limit(RoundLimit::FinalAnswer);
    let answer = agent.run_for::<Forecast>(&mut Conversation::new(Api::OpenAiChat), "forecast", 0).await.unwrap();
    assert_eq!(answer.value.city, "Nice");
    assert_eq!(offered(model.seen()[1].tools.as_ref()), ["final_answer"]);
    let texts: Vec<String> = answer.run.tool_runs.iter().map(|run| run.result.text()).collect();
    assert!(texts[1].starts_with("unknown tool \"nap\""), "{texts:?}");
}

#[tokio::test]
async fn a_taken_name_gives_the_answer_tool_another() {
    let mut taken = Registry::new();
    let tool = tool_core::DynamicTool::new("final_answer", "mine", r#"{"type":"object"}"#, |_, _| async {
        Ok(tool_core::ToolOutput::text("mine"))
    });
    taken.add_dynamic(tool.unwrap()).unwrap();
    let model =
        Arc::new(ScriptedModel::new(Api::OpenAiChat, [calls(&[("final_answer_2", r#"{"city": "Bonn", "days": 5}"#)])]));
    let agent = Agent::new(SharedModel(Arc::clone(&model)), taken);
    let answer = agent.run_for::<Forecast>(&mut Conversation::new(Api::OpenAiChat), "forecast", 0).await.unwrap();
    assert_eq!(answer.value.days, 5);
}

#[tokio::test]
async fn the_prompted_mode_puts_the_schema_in_the_instructions() {
    let model = Arc::new(ScriptedModel::new(
        Api::OpenAiChat,
        [answer("Here it is:\n```json\n{\"city\": \"Bern\", \"days\": 4}\n```")],
    ));
    let agent = Agent::new(SharedModel(Arc::clone(&model)), Registry::new())
        .system("Be brief.")
        .output_mode(OutputMode::Prompted);
    let answer = agent.run_for::<Forecast>(&mut Conversation::new(Api::OpenAiChat), "forecast", 0).await;
    let seen = model.seen();
    let system = seen[0].system.clone().unwrap_or_default();
    assert!(
        system.starts_with("Be brief.\n\nWhen you give your final answer, answer with one JSON value only"),
        "{system}"
    );
    assert!(
        system.contains(r#""days":{"description":"Days ahead","type":"integer","minimum":1,"maximum":10}"#),
        "{system}"
    );
    assert!(seen[0].tools.is_none() && seen[0].output.is_none());
    assert_eq!(answer.unwrap().value.city, "Bern");
}
