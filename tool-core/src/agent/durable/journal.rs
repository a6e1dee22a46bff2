//! What the journal keeps of a step: a model turn ([`TurnRecord`]) and a call's result
//! ([`CallStep`]), each read back as it was written.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::JournaledCall;
use crate::agent::Api;
use crate::agent::hooks::ToolRun;
use crate::agent::model::{ModelTurn, StopReason, Usage};
use crate::provider::{Arguments, ToolCall};

/// A call's journaled result: what the program keeps, and its items in the conversation.
#[derive(Serialize, Deserialize)]
pub(super) struct CallStep {
    pub(super) call: JournaledCall,
    pub(super) items: Vec<Value>,
}

impl CallStep {
    pub(super) fn of(api: Api, run: &ToolRun) -> Self {
        let error = run.result.outcome.as_ref().err();
        CallStep {
            call: JournaledCall {
                id: run.call.id.clone(),
                name: run.call.name.clone(),
                arguments: arguments_value(&run.call.arguments),
                is_error: error.is_some(),
                error: error.map(|error| error.kind().to_owned()),
                text: run.result.text(),
                details: run.details.clone(),
                terminate: run.terminate,
            },
            items: api.results(core::slice::from_ref(&run.result)),
        }
    }
}

/// Arguments as the program reads them: text that is no JSON stays a string.
pub(super) fn arguments_value(arguments: &Arguments) -> Value {
    match arguments {
        Arguments::Value(value) => value.clone(),
        Arguments::Text(text) => serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_string())),
    }
}

/// A model turn as the journal keeps it.
#[derive(Serialize, Deserialize)]
pub(super) struct TurnRecord {
    text: String,
    calls: Vec<CallRecord>,
    stop: StopRecord,
    input_tokens: u64,
    output_tokens: u64,
    items: Vec<Value>,
}

/// A call as the model made it.
#[derive(Serialize, Deserialize)]
pub(super) struct CallRecord {
    id: String,
    name: String,
    arguments: ArgumentsRecord,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum ArgumentsRecord {
    Text(String),
    Value(Value),
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum StopRecord {
    EndTurn,
    ToolUse,
    MaxTokens,
    Refusal,
    Other(String),
}

impl From<ToolCall> for CallRecord {
    fn from(call: ToolCall) -> Self {
        let arguments = match call.arguments {
            Arguments::Text(text) => ArgumentsRecord::Text(text.into_owned()),
            Arguments::Value(value) => ArgumentsRecord::Value(value),
        };
        CallRecord { id: call.id, name: call.name, arguments }
    }
}

impl From<CallRecord> for ToolCall {
    fn from(call: CallRecord) -> Self {
        let arguments = match call.arguments {
            ArgumentsRecord::Text(text) => Arguments::Text(text.into()),
            ArgumentsRecord::Value(value) => Arguments::Value(value),
        };
        ToolCall { id: call.id, name: call.name, arguments }
    }
}

impl From<ModelTurn> for TurnRecord {
    fn from(turn: ModelTurn) -> Self {
        TurnRecord {
            text: turn.text,
            calls: turn.calls.into_iter().map(CallRecord::from).collect(),
            stop: match turn.stop {
                StopReason::EndTurn => StopRecord::EndTurn,
                StopReason::ToolUse => StopRecord::ToolUse,
                StopReason::MaxTokens => StopRecord::MaxTokens,
                StopReason::Refusal => StopRecord::Refusal,
                StopReason::Other(other) => StopRecord::Other(other),
            },
            input_tokens: turn.usage.input_tokens,
            output_tokens: turn.usage.output_tokens,
            items: turn.items,
        }
    }
}

impl From<TurnRecord> for ModelTurn {
    fn from(turn: TurnRecord) -> Self {
        ModelTurn {
            text: turn.text,
            calls: turn.calls.into_iter().map(ToolCall::from).collect(),
            stop: match turn.stop {
                StopRecord::EndTurn => StopReason::EndTurn,
                StopRecord::ToolUse => StopReason::ToolUse,
                StopRecord::MaxTokens => StopReason::MaxTokens,
                StopRecord::Refusal => StopReason::Refusal,
                StopRecord::Other(other) => StopReason::Other(other),
            },
            usage: Usage { input_tokens: turn.input_tokens, output_tokens: turn.output_tokens },
            items: turn.items,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{CallStep, ModelTurn, TurnRecord};
    use crate::ToolError;
    use crate::agent::Api;
    use crate::output::ToolOutput;
    use crate::provider::{Arguments, CallResult, ToolCall};

    fn results() -> Vec<CallResult> {
        vec![
            CallResult { id: "a".into(), name: "one".into(), outcome: Ok(ToolOutput::text("first")) },
            CallResult {
                id: "b".into(),
                name: "two".into(),
                outcome: Err(ToolError::Failed { tool: "two".into(), message: "no".into() }),
            },
            CallResult {
                id: "c".into(),
                name: "three".into(),
                outcome: Ok(ToolOutput::text("third").with_structured(json!({"n": 3}))),
            },
        ]
    }

    #[test]
    fn each_calls_items_joined_are_the_batchs_items_in_every_api() {
        for api in [Api::OpenAiChat, Api::OpenAiResponses, Api::Anthropic, Api::Gemini] {
            let results = results();
            let per_call = results.iter().map(|result| api.results(core::slice::from_ref(result))).collect();
            assert_eq!(api.join_results(per_call), api.results(&results), "{api:?}");
        }
    }

    #[test]
    fn a_turn_reads_back_from_the_journal_as_it_was() {
        let turn = ModelTurn {
            text: "calling".into(),
            calls: vec![
                ToolCall { id: "1".into(), name: "t".into(), arguments: Arguments::Text("{\"a\": 1".into()) },
                ToolCall { id: "2".into(), name: "u".into(), arguments: Arguments::Value(json!({"b": [2]})) },
            ],
            stop: super::StopReason::Other("pause_turn".into()),
            usage: super::Usage { input_tokens: 7, output_tokens: 9 },
            items: vec![json!({"role": "assistant", "content": "calling"})],
        };
        let journaled = serde_json::to_string(&TurnRecord::from(turn.clone())).unwrap();
        let read: TurnRecord = serde_json::from_str(&journaled).unwrap();
        assert_eq!(ModelTurn::from(read), turn);
    }

    #[test]
    fn a_call_step_keeps_what_the_model_read() {
        let call = ToolCall { id: "b".into(), name: "two".into(), arguments: Arguments::Text("not json".into()) };
        let result = results().remove(1);
        let run = super::ToolRun {
            call,
            result,
            details: Some(json!({"k": 1})),
            terminate: true,
            elapsed: core::time::Duration::ZERO,
        };
        let step = CallStep::of(Api::Anthropic, &run);
        assert_eq!(step.items, Api::Anthropic.results(core::slice::from_ref(&run.result)));
        assert_eq!(step.call.arguments, json!("not json"));
        assert_eq!(step.call.error.as_deref(), Some("failed"));
        assert_eq!(step.call.text, "tool \"two\" failed: no");
        assert!(step.call.is_error && step.call.terminate);
    }
}
