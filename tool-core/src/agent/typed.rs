//! Typed final answers ([`Agent::run_for`]) in three modes ([`OutputMode`]): a final-answer
//! tool whose parameters are the answer's compile-time schema (the default), the provider's
//! structured output, or the schema in the instructions. However it arrives, the answer is
//! decoded and checked by the type's generated validator, and a wrong one goes back with
//! every violation until it is right or the attempts run out.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::Value;

use super::record::CallFacts;
use super::{Agent, Conversation, RunError, RunOutcome};
use crate::context::CancellationToken;
use crate::dispatch::{DecodeOptions, decode};
use crate::error::ToolError;
use crate::param::ToolArgs;
use crate::provider::{ArgumentsMode, parse_arguments};
use crate::registry::Registry;
use crate::render::to_json;
use crate::tool::dynamic::DynamicTool;

/// How a typed run ([`Agent::run_for`]) asks the model for its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum OutputMode {
    /// A final-answer tool (`final_answer`, or `final_answer_2`… when a tool has the name)
    /// whose parameters are the answer's schema, in the provider's dialect and strict where
    /// it can be: the run ends when it is called with a valid answer, and a wrong one is
    /// answered with its violations as any tool call is. Works wherever tools do, tools and
    /// answer in the same run. An answer written as text instead is taken if it is valid.
    #[default]
    Tool,
    /// The provider's structured output (`response_format`, `text.format`,
    /// `output_config.format`, `responseSchema`) on every request. Hosted APIs let the model
    /// call tools before it answers; servers that turn the schema into a grammar (`llama.cpp`,
    /// Ollama, vLLM) constrain every token to it, so the model can never call a tool there.
    Native,
    /// The schema in the instructions and the answer read from the text (a Markdown fence
    /// around it is fine): for models with neither tools nor structured output.
    Prompted,
}

/// A run's typed answer, and the run.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Answer<T> {
    /// The answer, decoded and valid.
    pub value: T,
    /// The run that produced it (its `text` is the answer's JSON).
    pub run: RunOutcome,
}

/// The name a schema goes by in a request: the type's own name, as providers allow it.
fn schema_name<T>() -> String {
    let full = core::any::type_name::<T>();
    let last = full.rsplit("::").next().unwrap_or(full);
    let name: String = last
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' })
        .take(64)
        .collect();
    if name.is_empty() { "answer".to_owned() } else { name }
}

/// `text` as an answer of `T`: the JSON as written, repaired (a Markdown fence around it, a
/// trailing comma), or the first fenced block or outermost braces of a text around it.
fn read_answer<T: ToolArgs>(text: &str, options: &DecodeOptions) -> Result<T, ToolError> {
    let Err(ToolError::InvalidJson { message }) = decode::<T>(text, options) else {
        return decode::<T>(text, options).map_err(as_answer);
    };
    let repaired = parse_arguments(text);
    if repaired.mode == ArgumentsMode::Repaired
        && let Some(value) = repaired.value
    {
        return decode::<T>(value, options).map_err(as_answer);
    }
    match embedded(text) {
        Some(inner) if inner.len() < text.len() => read_answer::<T>(inner, options),
        _ => Err(ToolError::InvalidJson { message }),
    }
}

/// The JSON a text around it holds: its first fenced block, else from its first `{` to its
/// last `}`.
fn embedded(text: &str) -> Option<&str> {
    if let Some(start) = text.find("```") {
        let block = &text[start + 3..];
        let body = &block[block.find('\n')? + 1..];
        return Some(body[..body.find("```")?].trim());
    }
    Some(&text[text.find('{')?..=text.rfind('}')?])
}

/// An answer's violations, named for the answer rather than a Rust type.
fn as_answer(error: ToolError) -> ToolError {
    match error {
        ToolError::InvalidArguments { violations, .. } => {
            ToolError::InvalidArguments { tool: "answer".to_owned(), violations }
        }
        other => other,
    }
}

impl Agent {
    /// Runs the agent for an answer of type `T` (derived like tool arguments) rather than
    /// text, asked for as [`Agent::output_mode`] says (a final-answer tool unless set); tools
    /// may be called on the way. The answer is decoded and checked by `T`'s generated
    /// validator; a wrong one goes back to the model with every violation, up to `retries`
    /// times.
    ///
    /// # Errors
    /// As [`Agent::run`], and [`RunError::InvalidOutput`] with the last answer's problems when
    /// the model never gave a valid one.
    pub async fn run_for<T: ToolArgs + Send + 'static>(
        &self,
        conversation: &mut Conversation,
        user: &str,
        retries: usize,
    ) -> Result<Answer<T>, RunError> {
        self.run_for_until(conversation, user, retries, &CancellationToken::new()).await
    }

    /// [`Agent::run_for`], stopped when `cancel` is.
    ///
    /// # Errors
    /// As [`Agent::run_for`], and [`RunError::Cancelled`].
    pub async fn run_for_until<T: ToolArgs + Send + 'static>(
        &self,
        conversation: &mut Conversation,
        user: &str,
        retries: usize,
        cancel: &CancellationToken,
    ) -> Result<Answer<T>, RunError> {
        let options = DecodeOptions::default().lenient(self.lenient);
        let check = |text: &str| read_answer::<T>(text, &options).map(drop);
        let given: Arc<Mutex<Option<T>>> = Arc::default();
        let mut expected = Expected {
            format: None,
            check: &check,
            retries,
            tool: None,
            instructions: None,
            alone: Arc::new(AtomicBool::new(true)),
        };
        match self.output_mode {
            OutputMode::Tool => {
                let (slot, alone) = (Arc::clone(&given), Arc::clone(&expected.alone));
                let name = free_name(&self.tools_now());
                let refusal = format!(
                    "Not taken: an answer given beside other calls was written before their results. Read \
                     them, then call `{name}` alone."
                );
                let tool = DynamicTool::typed(name, ANSWER_TOOL, move |_context, answer: T| {
                    let taken = alone.load(Ordering::Relaxed);
                    if taken {
                        *slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(answer);
                    }
                    let outcome = if taken { Ok("Answer received.") } else { Err(refusal.clone()) };
                    async move { outcome }
                });
                expected.tool = Some(tool.map_err(|error| RunError::InvalidOutput {
                    attempts: 0,
                    error: ToolError::Failed { tool: "answer".to_owned(), message: error.to_string() },
                })?);
            }
            OutputMode::Native => {
                expected.format = Some(self.model.api().answer_format(&T::SCHEMA, &schema_name::<T>()));
            }
            OutputMode::Prompted => expected.instructions = Some(instructions(&to_json(&T::SCHEMA))),
        }
        let mut run = self.run_with(&self.settings, conversation, user, cancel, Some(&expected)).await?;
        if !run.deferred.is_empty() {
            return Err(RunError::Deferred { calls: run.deferred });
        }
        let answered = expected.tool.as_ref().and_then(|tool| {
            let call = run.tool_runs.iter().rev().find(|r| r.call.name == tool.name() && !r.result.is_error())?;
            Some(call.call.arguments.to_text().into_owned())
        });
        if let Some(text) = answered {
            run.text = text;
        }
        let value = match given.lock().unwrap_or_else(PoisonError::into_inner).take() {
            Some(value) => value,
            None if run.stop == super::StopReason::Refusal => return Err(RunError::Refused { text: run.text }),
            None => read_answer::<T>(&run.text, &options)
                .map_err(|error| RunError::InvalidOutput { attempts: retries + 1, error })?,
        };
        Ok(Answer { value, run })
    }

    /// How typed runs ([`Agent::run_for`]) ask for their answer: [`OutputMode::Tool`] unless
    /// set.
    #[must_use]
    pub fn output_mode(mut self, mode: OutputMode) -> Self {
        self.output_mode = mode;
        self
    }
}

/// The answer tool's description.
const ANSWER_TOOL: &str = "Give your final answer: call this alone, once you have read the results of any other \
                           tool calls; its arguments are the answer.";

/// `final_answer`, or the first of `final_answer_2`, `final_answer_3`… no tool of `registry`
/// has.
fn free_name(registry: &Registry) -> String {
    let mut name = "final_answer".to_owned();
    let mut n = 1;
    while registry.get(&name).is_some() {
        n += 1;
        name = format!("final_answer_{n}");
    }
    name
}

/// The instructions of [`OutputMode::Prompted`], for the schema `schema`.
fn instructions(schema: &str) -> String {
    format!(
        "When you give your final answer, answer with one JSON value only, valid against this JSON Schema:\n{schema}"
    )
}

/// How a run asks for and checks its answer.
pub(crate) struct Expected<'a> {
    /// The request fields that ask for it, in the API's shape ([`OutputMode::Native`]).
    pub(crate) format: Option<Value>,
    /// Checks an answer's text: the violations, as an error, when it is not one.
    pub(crate) check: &'a (dyn Fn(&str) -> Result<(), ToolError> + Send + Sync),
    /// How many more answers the model may give after a wrong one.
    pub(crate) retries: usize,
    /// The tool the answer is given with ([`OutputMode::Tool`]).
    pub(crate) tool: Option<DynamicTool>,
    /// What the instructions add ([`OutputMode::Prompted`]).
    pub(crate) instructions: Option<String>,
    /// Whether the batch about to run calls the answer tool alone: an answer beside other
    /// calls was written before their results, and is refused (without counting as one).
    pub(crate) alone: Arc<AtomicBool>,
}

impl Expected<'_> {
    /// The answer tool's name, in [`OutputMode::Tool`].
    pub(crate) fn tool_name(&self) -> Option<&str> {
        self.tool.as_ref().map(DynamicTool::name)
    }

    /// `registry` with the answer tool, if the run has one.
    pub(crate) fn with_tool(&self, registry: Arc<Registry>) -> Arc<Registry> {
        let Some(tool) = &self.tool else { return registry };
        let mut with = (*registry).clone();
        // Its name was chosen free of the run's first registry; a live registry that has
        // since taken it keeps its tool, and the answer may still come as text.
        let _ = with.add_dynamic(tool.clone());
        Arc::new(with)
    }

    /// A registry of the answer tool alone, for a last round asked without tools.
    pub(crate) fn tool_only(&self) -> Option<Registry> {
        let tool = self.tool.clone()?;
        let mut only = Registry::new();
        only.add_dynamic(tool).ok()?;
        Some(only)
    }
}

/// What the model is told when its answer is not one.
pub(super) fn correction(error: &ToolError, tool: Option<&str>) -> String {
    let problems = match error {
        ToolError::InvalidArguments { violations, .. } => violations.to_string(),
        other => format!("- {other}"),
    };
    match tool {
        Some(tool) => format!(
            "Your answer does not have the required form:\n{problems}\nGive your answer by calling `{tool}` with it."
        ),
        None => format!(
            "Your answer does not have the required form:\n{problems}\nAnswer again with the corrected JSON only."
        ),
    }
}

/// What a batch's calls to the answer tool came to.
#[derive(Default)]
pub(super) struct AnswerCalls {
    /// How many there were.
    pub(super) count: usize,
    /// Whether one gave a valid answer.
    pub(super) accepted: bool,
    /// Why the last refused one was refused.
    pub(super) refused: Option<ToolError>,
}

/// What the calls of `records` to the answer tool `tool` came to.
pub(super) fn answer_calls<R: CallFacts>(records: &[R], tool: &str) -> AnswerCalls {
    let mut calls = AnswerCalls::default();
    for record in records.iter().filter(|record| record.tool() == tool) {
        calls.count += 1;
        match record.error() {
            None if !record.failed() => calls.accepted = true,
            error => calls.refused = error.cloned().or(calls.refused.take()),
        }
    }
    calls
}
