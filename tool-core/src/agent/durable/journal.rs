//! What the journal keeps of a step: a model turn and a call as it ran are the public
//! [`ModelTurn`](crate::agent::ModelTurn) and [`ToolRun`], serialized as they are; a call's result as the program and
//! the model read it is a [`CallStep`]. Each reads back as it was written.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::JournaledCall;
use crate::agent::Api;
use crate::agent::hooks::ToolRun;
use crate::provider::Arguments;

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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use core::time::Duration;

    use super::CallStep;
    use crate::agent::Api;
    use crate::agent::batch::answered;
    use crate::agent::hooks::ToolRun;
    use crate::agent::model::{ModelTurn, StopReason, Usage};
    use crate::content::{Content, ResourceLink};
    use crate::output::ToolOutput;
    use crate::provider::{Arguments, CallResult, ToolCall};
    use crate::{ToolError, Violation, Violations};

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
            stop: StopReason::Other("pause_turn".into()),
            usage: Usage { input_tokens: 7, output_tokens: 9 },
            items: vec![json!({"role": "assistant", "content": "calling"})],
            reasoning: "the user wants a call".into(),
        };
        let journaled = serde_json::to_string(&turn).unwrap();
        assert_eq!(serde_json::from_str::<ModelTurn>(&journaled).unwrap(), turn);
    }

    #[test]
    fn a_call_step_keeps_what_the_model_read() {
        let call = ToolCall { id: "b".into(), name: "two".into(), arguments: Arguments::Text("not json".into()) };
        let result = results().remove(1);
        let run = ToolRun { call, result, details: Some(json!({"k": 1})), terminate: true, elapsed: Duration::ZERO };
        let step = CallStep::of(Api::Anthropic, &run);
        assert_eq!(step.items, Api::Anthropic.results(core::slice::from_ref(&run.result)));
        assert_eq!(step.call.arguments, json!("not json"));
        assert_eq!(step.call.error.as_deref(), Some("failed"));
        assert_eq!(step.call.text, "tool \"two\" failed: no");
        assert!(step.call.is_error && step.call.terminate);
    }

    fn read_back(run: &ToolRun) -> ToolRun {
        serde_json::from_str(&serde_json::to_string(run).unwrap()).unwrap()
    }

    fn call(arguments: Arguments<'static>) -> ToolCall {
        ToolCall { id: "call_1".into(), name: "lookup".into(), arguments }
    }

    #[test]
    fn every_output_reads_back_as_it_ran() {
        let outputs = [
            ToolOutput::text("plain"),
            ToolOutput::new([
                Content::Text("two blocks".into()),
                Content::image_base64("aGVsbG8=", "image/png"),
                Content::audio_base64("d2F2", "audio/wav"),
                Content::resource_text("file:///a.md", "text/markdown", "# a"),
                Content::ResourceLink(ResourceLink::new("file:///b.bin", "b")),
            ]),
            ToolOutput::text("{\"n\":3}").with_structured(json!({"n": 3})).with_details(json!({"ms": 12})).terminate(),
        ];
        for output in outputs {
            let run = answered(call(Arguments::Text("{\"q\": 1".into())), Ok(output), Duration::from_millis(1500));
            assert_eq!(read_back(&run), run);
        }
    }

    #[test]
    fn every_error_reads_back_with_its_fields() {
        let mut violations = Violations::new();
        let mut custom = Violation::new("/q", "even_number", "must be even, got 3");
        custom.expected = Some("integer".into());
        custom.received = Some("integer".into());
        violations.push_violation(custom);
        violations.push_violation(Violation::new("", "required", "missing property `city`").about("city"));
        violations.add_omitted(4);
        let errors = [
            ToolError::UnknownTool { name: "x".into(), available: vec!["a".into(), "b".into()] },
            ToolError::InvalidJson { message: "EOF at line 1 column 7".into() },
            ToolError::InvalidArguments { tool: "lookup".into(), violations },
            ToolError::Failed { tool: "lookup".into(), message: "no such city".into() },
            ToolError::Panicked { tool: "lookup".into(), message: "index out of bounds".into() },
            ToolError::RequiresAsync { tool: "lookup".into() },
            ToolError::TimedOut { tool: "lookup".into(), after: Duration::from_secs(30) },
            ToolError::Cancelled { tool: "lookup".into() },
            ToolError::Denied { tool: "lookup".into(), reason: "not yours".into() },
            ToolError::Rejected { tool: "lookup".into(), reason: "rate limited".into() },
        ];
        for error in errors {
            let run = answered(call(Arguments::Value(json!({"q": 3}))), Err(error), Duration::ZERO);
            let read = read_back(&run);
            assert_eq!(read, run);
            assert_eq!(read.result.text(), run.result.text());
        }
    }
}
