//! A call as it ran, before `after_call`, as the journal keeps it ([`RanRecord`]): the
//! batch's `after_call` step reads the calls back from the journal, so what it sees after a
//! restart is what it would have seen without one. Every part reads back as it was written:
//! a result's blocks in MCP's JSON, each error with its fields, each violation whole.

use core::time::Duration;
use std::collections::HashSet;
use std::sync::{Mutex, OnceLock, PoisonError};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::journal::CallRecord;
use crate::agent::hooks::ToolRun;
use crate::error::ToolError;
use crate::output::ToolOutput;
use crate::provider::CallResult;
use crate::provider::mcp_json::{content_block, content_from};
use crate::{Violation, Violations};

/// A call and its result before `after_call`.
#[derive(Serialize, Deserialize)]
pub(super) struct RanRecord {
    call: CallRecord,
    outcome: OutcomeRecord,
    elapsed: Duration,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum OutcomeRecord {
    Output { content: Vec<Value>, structured: Option<Value>, details: Option<Value>, terminate: bool },
    Error(ErrorRecord),
}

/// [`ToolError`], variant for variant.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum ErrorRecord {
    UnknownTool { name: String, available: Vec<String> },
    InvalidJson { message: String },
    InvalidArguments { tool: String, violations: Vec<ViolationRecord>, omitted: usize },
    Failed { tool: String, message: String },
    Panicked { tool: String, message: String },
    RequiresAsync { tool: String },
    TimedOut { tool: String, after: Duration },
    Cancelled { tool: String },
    Denied { tool: String, reason: String },
    Rejected { tool: String, reason: String },
}

#[derive(Serialize, Deserialize)]
struct ViolationRecord {
    path: String,
    keyword: String,
    message: String,
    expected: Option<String>,
    received: Option<String>,
    property: Option<String>,
}

impl From<&ToolRun> for RanRecord {
    fn from(run: &ToolRun) -> Self {
        let outcome = match &run.result.outcome {
            Ok(output) => OutcomeRecord::Output {
                content: output.content().iter().map(content_block).collect(),
                structured: output.structured().cloned(),
                details: output.details().cloned(),
                terminate: output.terminates(),
            },
            Err(error) => OutcomeRecord::Error(ErrorRecord::from(error)),
        };
        RanRecord { call: CallRecord::from(run.call.clone()), outcome, elapsed: run.elapsed }
    }
}

impl From<RanRecord> for ToolRun {
    fn from(record: RanRecord) -> Self {
        let call = crate::provider::ToolCall::from(record.call);
        let outcome = match record.outcome {
            OutcomeRecord::Output { content, structured, details, terminate } => {
                let mut output = ToolOutput::new(content.iter().map(content_from));
                if let Some(structured) = structured {
                    output = output.with_structured(structured);
                }
                if let Some(details) = details {
                    output = output.with_details(details);
                }
                Ok(if terminate { output.terminate() } else { output })
            }
            OutcomeRecord::Error(error) => Err(ToolError::from(error)),
        };
        // As the batch answers a call: the result's own details and request to end the run.
        let (details, terminate) = match &outcome {
            Ok(output) => (output.details().cloned(), output.terminates()),
            Err(_) => (None, false),
        };
        let result = CallResult { id: call.id.clone(), name: call.name.clone(), outcome };
        ToolRun { call, result, details, terminate, elapsed: record.elapsed }
    }
}

impl From<&ToolError> for ErrorRecord {
    fn from(error: &ToolError) -> Self {
        match error.clone() {
            ToolError::UnknownTool { name, available } => ErrorRecord::UnknownTool { name, available },
            ToolError::InvalidJson { message } => ErrorRecord::InvalidJson { message },
            ToolError::InvalidArguments { tool, violations } => ErrorRecord::InvalidArguments {
                tool,
                omitted: violations.omitted(),
                violations: violations.iter().map(ViolationRecord::from).collect(),
            },
            ToolError::Failed { tool, message } => ErrorRecord::Failed { tool, message },
            ToolError::Panicked { tool, message } => ErrorRecord::Panicked { tool, message },
            ToolError::RequiresAsync { tool } => ErrorRecord::RequiresAsync { tool },
            ToolError::TimedOut { tool, after } => ErrorRecord::TimedOut { tool, after },
            ToolError::Cancelled { tool } => ErrorRecord::Cancelled { tool },
            ToolError::Denied { tool, reason } => ErrorRecord::Denied { tool, reason },
            ToolError::Rejected { tool, reason } => ErrorRecord::Rejected { tool, reason },
        }
    }
}

impl From<ErrorRecord> for ToolError {
    fn from(record: ErrorRecord) -> Self {
        match record {
            ErrorRecord::UnknownTool { name, available } => ToolError::UnknownTool { name, available },
            ErrorRecord::InvalidJson { message } => ToolError::InvalidJson { message },
            ErrorRecord::InvalidArguments { tool, violations: kept, omitted } => {
                let mut violations = Violations::new();
                for violation in kept {
                    violations.push_violation(violation.into());
                }
                violations.add_omitted(omitted);
                ToolError::InvalidArguments { tool, violations }
            }
            ErrorRecord::Failed { tool, message } => ToolError::Failed { tool, message },
            ErrorRecord::Panicked { tool, message } => ToolError::Panicked { tool, message },
            ErrorRecord::RequiresAsync { tool } => ToolError::RequiresAsync { tool },
            ErrorRecord::TimedOut { tool, after } => ToolError::TimedOut { tool, after },
            ErrorRecord::Cancelled { tool } => ToolError::Cancelled { tool },
            ErrorRecord::Denied { tool, reason } => ToolError::Denied { tool, reason },
            ErrorRecord::Rejected { tool, reason } => ToolError::Rejected { tool, reason },
        }
    }
}

impl From<&Violation> for ViolationRecord {
    fn from(violation: &Violation) -> Self {
        ViolationRecord {
            path: violation.path.clone(),
            keyword: violation.keyword.to_owned(),
            message: violation.message.clone(),
            expected: violation.expected.clone(),
            received: violation.received.map(str::to_owned),
            property: violation.property.clone(),
        }
    }
}

impl From<ViolationRecord> for Violation {
    fn from(record: ViolationRecord) -> Self {
        let mut violation = Violation::new(record.path, interned(&record.keyword), record.message);
        violation.expected = record.expected;
        violation.received = record.received.as_deref().map(interned);
        violation.property = record.property;
        violation
    }
}

/// `text` as the `&'static str` a [`Violation`] holds: JSON Schema's keywords and JSON's
/// type names from a table; any other word (a custom validator's) kept once per process, so
/// replaying a run many times does not grow memory.
fn interned(text: &str) -> &'static str {
    const KNOWN: &[&str] = &[
        "type",
        "required",
        "additionalProperties",
        "properties",
        "items",
        "prefixItems",
        "enum",
        "const",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "minItems",
        "maxItems",
        "uniqueItems",
        "contains",
        "minProperties",
        "maxProperties",
        "propertyNames",
        "dependentRequired",
        "anyOf",
        "oneOf",
        "allOf",
        "not",
        "deserialize",
        "string",
        "integer",
        "number",
        "boolean",
        "null",
        "array",
        "object",
    ];
    static OTHERS: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    if let Some(known) = KNOWN.iter().find(|known| **known == text) {
        return known;
    }
    let mut others = OTHERS.get_or_init(Mutex::default).lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(kept) = others.get(text) {
        return kept;
    }
    let kept: &'static str = Box::leak(text.to_owned().into_boxed_str());
    others.insert(kept);
    kept
}

#[cfg(test)]
mod tests {
    use core::time::Duration;

    use serde_json::json;

    use super::{RanRecord, ToolRun};
    use crate::agent::batch::answered;
    use crate::content::{Content, ResourceLink};
    use crate::error::ToolError;
    use crate::output::ToolOutput;
    use crate::provider::{Arguments, ToolCall};
    use crate::{Violation, Violations};

    fn read_back(run: &ToolRun) -> ToolRun {
        let journaled = serde_json::to_string(&RanRecord::from(run)).unwrap();
        ToolRun::from(serde_json::from_str::<RanRecord>(&journaled).unwrap())
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
        custom.received = Some("integer");
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

    #[test]
    fn a_word_outside_json_schema_is_kept_once() {
        assert!(core::ptr::eq(super::interned("even_number"), super::interned(&String::from("even_number"))));
        assert!(core::ptr::eq(super::interned("minimum"), super::interned(&String::from("minimum"))));
    }
}
