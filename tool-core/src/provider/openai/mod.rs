//! OpenAI: Chat Completions (`tools[].function`) and Responses (flat function tools).
//! Arguments arrive as JSON text, which may be malformed; results carry no error flag, so
//! the text says it.
//!
//! # Chat Completions
//! [`chat_tools`], [`parse_chat_completion`], [`ChatStream`], [`tool_messages`],
//! [`chat_tool_choice`].
//!
//! # Responses
//! [`responses_tools`], [`parse_responses_output`], [`ResponsesStream`],
//! [`function_call_outputs`], [`responses_tool_choice`].

mod chat;
mod responses;

pub(crate) use chat::Chat;
pub use chat::{ChatStream, chat_tool_choice, chat_tools, parse_chat_completion, tool_messages};
pub(crate) use responses::Responses;
pub use responses::{
    ResponsesStream, function_call_outputs, parse_responses_output, responses_tool_choice, responses_tools,
};

use super::{ObjectWriter, SchemaFallback, strict_choice};
use crate::registry::Entry;
use crate::render::Dialect;

/// The environment's prefix, the public base URL and a default model, for both APIs.
const DEFAULTS: (&str, &str, &str) = ("OPENAI", "https://api.openai.com/v1", "gpt-4.1-mini");

/// A function's members, shared by both APIs' tool lists: `name`, `description`,
/// `parameters`, `strict`. Chat Completions reads a missing `strict` as `false`, so there it
/// is written only when true (servers that mimic the API need not know the member); the
/// Responses API reads a missing one as `true`, so there it is always written.
fn function_members(
    object: &mut ObjectWriter<'_>,
    entry: &Entry,
    strict_by_default: bool,
    always_strict_member: bool,
    fallbacks: &mut Vec<SchemaFallback>,
) {
    let choice = strict_choice(entry, Dialect::OpenAiStrict, strict_by_default);
    if let Some(reason) = choice.fallback {
        fallbacks.push(SchemaFallback { tool: entry.name().to_owned(), reason });
    }
    object
        .string("name", entry.name())
        .string("description", entry.description())
        .raw("parameters", &choice.parameters);
    if choice.strict || always_strict_member {
        object.raw("strict", if choice.strict { "true" } else { "false" });
    }
}

/// The API key as a bearer token, as both APIs take it.
fn bearer(api_key: Option<&str>) -> Vec<(&'static str, String)> {
    api_key.map(|key| ("authorization", format!("Bearer {key}"))).into_iter().collect()
}
