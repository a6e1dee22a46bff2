//! What a typed run expects of its answer ([`Agent::run_for`](super::Agent::run_for)): the
//! request fields asking each provider's structured-output mode for the answer's schema, the
//! check of an answer, and what a wrong one is told.

use serde_json::{Value, json};

use super::model::Api;
use crate::error::ToolError;
use crate::render::{Dialect, to_json_in};
use crate::schema::Schema;

/// How a run asks for and checks its answer.
pub(crate) struct Expected<'a> {
    /// The request fields that ask for it, in the API's shape.
    pub(crate) format: Value,
    /// Checks an answer's text: the violations, as an error, when it is not one.
    pub(crate) check: &'a (dyn Fn(&str) -> Result<(), ToolError> + Send + Sync),
    /// How many more answers the model may give after a wrong one.
    pub(crate) retries: usize,
}

/// The request fields asking `api` for an answer of `schema`, named `name`: strict where the
/// provider's strict dialect can state the schema.
pub(super) fn format(api: Api, schema: &Schema, name: &str) -> Value {
    let render = |dialect: Dialect| -> Value {
        serde_json::from_str(&to_json_in(schema, dialect)).unwrap_or_else(|_| json!({"type": "object"}))
    };
    let strict = |dialect: Dialect| dialect.strict_problem(schema).is_none();
    match api {
        Api::OpenAiChat => {
            let strict = strict(Dialect::OpenAiStrict);
            let schema = render(if strict { Dialect::OpenAiStrict } else { Dialect::JsonSchema });
            json!({"response_format": {"type": "json_schema",
                "json_schema": {"name": name, "schema": schema, "strict": strict}}})
        }
        Api::OpenAiResponses => {
            let strict = strict(Dialect::OpenAiStrict);
            let schema = render(if strict { Dialect::OpenAiStrict } else { Dialect::JsonSchema });
            json!({"text": {"format": {"type": "json_schema", "name": name, "schema": schema, "strict": strict}}})
        }
        Api::Anthropic => {
            let schema =
                render(if strict(Dialect::AnthropicStrict) { Dialect::AnthropicStrict } else { Dialect::JsonSchema });
            json!({"output_config": {"format": {"type": "json_schema", "schema": schema}}})
        }
        Api::Gemini => json!({"generationConfig": {
            "responseMimeType": "application/json",
            "responseSchema": render(Dialect::GeminiParameters),
        }}),
    }
}

/// What the model is told when its answer is not one.
pub(super) fn correction(error: &ToolError) -> String {
    let problems = match error {
        ToolError::InvalidArguments { violations, .. } => violations.to_string(),
        other => format!("- {other}"),
    };
    format!("Your answer does not have the required form:\n{problems}\nAnswer again with the corrected JSON only.")
}
