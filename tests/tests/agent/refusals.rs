//! A turn the provider marks refused or stopped by a content filter, on each of the four
//! APIs (recorded response bodies): its calls never run, the history answers each so the
//! conversation stays valid, and the run ends saying why (`StopReason::Refusal`; a typed run's
//! `RunError::Refused`).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};
use tool_core::agent::{Agent, Api, Conversation, RunError, ScriptedModel, StopReason};
use tool_core::{Registry, ToolArgs, ToolContext, tool};

#[derive(Debug, ToolArgs)]
struct Transfer {
    amount: u32,
}

/// Sends money
#[tool]
fn wire_money(ctx: &ToolContext, args: Transfer) -> String {
    ctx.state::<Arc<AtomicUsize>>().expect("the counter").fetch_add(1, Ordering::SeqCst);
    format!("sent {}", args.amount)
}

/// One response per API: a call to `wire_money` in a turn the provider refused or filtered.
fn refused_turns() -> Vec<(Api, Value)> {
    vec![
        (
            Api::OpenAiChat,
            json!({"choices": [{"index": 0, "finish_reason": "content_filter", "message": {"role": "assistant", "content": null,
                "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "wire_money", "arguments": "{\"amount\": 5}"}}]}}]}),
        ),
        (
            Api::OpenAiResponses,
            json!({"status": "incomplete", "incomplete_details": {"reason": "content_filter"},
                "output": [{"type": "function_call", "call_id": "c1", "name": "wire_money", "arguments": "{\"amount\": 5}"}]}),
        ),
        (
            Api::Anthropic,
            json!({"stop_reason": "refusal", "content": [{"type": "tool_use", "id": "c1", "name": "wire_money", "input": {"amount": 5}}]}),
        ),
        (
            Api::Gemini,
            json!({"candidates": [{"finishReason": "SAFETY", "content": {"role": "model",
                "parts": [{"functionCall": {"name": "wire_money", "args": {"amount": 5}}}]}}]}),
        ),
    ]
}

fn registry(count: &Arc<AtomicUsize>) -> Registry {
    let mut registry = Registry::new().with_state(Arc::clone(count));
    registry.add(WireMoneyTool).unwrap();
    registry
}

#[tokio::test]
async fn a_refused_or_filtered_turn_runs_none_of_its_calls_on_every_api() {
    for (api, response) in refused_turns() {
        let count = Arc::new(AtomicUsize::new(0));
        // A second response that the run must never ask for.
        let agent = Agent::new(ScriptedModel::new(api, [response, json!({"never": "asked"})]), registry(&count));
        let mut conversation = Conversation::new(api);
        let outcome = agent.run(&mut conversation, "pay").await.unwrap_or_else(|error| panic!("{api:?}: {error}"));
        assert_eq!(count.load(Ordering::SeqCst), 0, "{api:?}: the call ran");
        assert_eq!(outcome.stop, StopReason::Refusal, "{api:?}");
        assert!(outcome.tool_runs.is_empty(), "{api:?}");
        // The call is answered in the history, saying why it did not run.
        let told = conversation.items().iter().map(Value::to_string).collect::<String>();
        assert!(told.contains("not run: the turn that made this call was refused"), "{api:?}: {told}");
    }
}

#[tokio::test]
async fn a_typed_run_whose_turn_is_refused_fails_saying_so() {
    #[derive(Debug, ToolArgs)]
    #[allow(dead_code)]
    struct Receipt {
        amount: u32,
    }
    let anthropic = json!({"stop_reason": "refusal", "content": [{"type": "text", "text": "I can't help with that."}]});
    let count = Arc::new(AtomicUsize::new(0));
    let agent = Agent::new(ScriptedModel::new(Api::Anthropic, [anthropic]), registry(&count));
    let error = agent.run_for::<Receipt>(&mut Conversation::new(Api::Anthropic), "pay", 2).await.unwrap_err();
    assert_eq!(error, RunError::Refused { text: "I can't help with that.".to_owned() });
    assert_eq!(error.kind(), "refused");
    assert!(error.to_string().contains("refused"), "{error}");
}

#[test]
fn each_api_reads_its_refusals_and_filters_and_its_output_limit() {
    use tool_core::provider::ModelTurn;
    let stop = |api: Api, response: Value| -> StopReason {
        let turn: ModelTurn = api.turn(&response).unwrap_or_else(|error| panic!("{api:?}: {error}"));
        turn.stop
    };
    for (api, response) in refused_turns() {
        assert_eq!(stop(api, response), StopReason::Refusal, "{api:?}");
    }
    // A structured-output refusal in Chat Completions, and a refusal part in Responses.
    let chat = json!({"choices": [{"index": 0, "finish_reason": "stop",
        "message": {"role": "assistant", "content": null, "refusal": "I can't help with that."}}]});
    assert_eq!(stop(Api::OpenAiChat, chat), StopReason::Refusal);
    let responses = json!({"status": "completed", "output": [{"type": "message", "role": "assistant",
        "content": [{"type": "refusal", "refusal": "I can't help with that."}]}]});
    assert_eq!(stop(Api::OpenAiResponses, responses), StopReason::Refusal);
    // Gemini's other filters.
    for reason in ["RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII"] {
        let gemini = json!({"candidates": [{"finishReason": reason, "content": {"role": "model", "parts": []}}]});
        assert_eq!(stop(Api::Gemini, gemini), StopReason::Refusal, "{reason}");
    }
    // Responses' output limit is `max_output_tokens` under `incomplete`.
    let cut = json!({"status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"}, "output": []});
    assert_eq!(stop(Api::OpenAiResponses, cut), StopReason::MaxTokens);
}
