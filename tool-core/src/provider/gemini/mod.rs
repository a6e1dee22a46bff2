//! Gemini `generateContent`: `functionDeclarations` (with `parameters`, the `OpenAPI` subset,
//! or `parametersJsonSchema`), `functionCall` parts (ids may be missing: stable ones are
//! made), and `functionResponse` parts with `output` or `error`.

use serde_json::{Value, json};

use super::{
    CallArguments, CallResult, ObjectWriter, ResponseError, SchemaFallback, ToolCall, ToolChoice, ToolList, malformed,
    string_at, tool_array,
};
use crate::content::{Content, Resource, ResourceContents};
use crate::error::ToolError;
use crate::output::ToolOutput;
use crate::registry::{Entry, Registry};

mod schema;
pub(crate) use schema::entry_parameters;
use schema::{entry_loss, takes_arguments};
pub use schema::{parameters_from, schema_loss, value_loss};

/// Which schema field a declaration carries; the two are mutually exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SchemaField {
    /// `parameters`: Gemini's `Schema` object (upper-case types, `nullable`, no
    /// `additionalProperties`).
    Parameters,
    /// `parametersJsonSchema`: JSON Schema as emitted.
    ParametersJsonSchema,
}

/// `tools`: `[{"functionDeclarations":[{"name":…,"description":…,"parameters":…}]}]`.
///
/// A tool without arguments is declared without `parameters`: the API reference documents
/// the field as optional (`FunctionDeclaration`, ai.google.dev/api/caching), and an `OBJECT`
/// with empty `properties` is reported refused (vercel/ai#3371, agno-agi/agno#2112). In
/// [`SchemaField::Parameters`], each tool whose schema the `Schema` object cannot carry whole
/// (a map's value schema, `exclusiveMinimum`, a set's `uniqueItems`...) is in
/// [`ToolList::fallbacks`] with what it loses; dispatch still enforces all of it.
pub fn tools<'e>(tools: impl IntoIterator<Item = &'e Entry>, field: SchemaField) -> ToolList {
    let declarations = tool_array(tools, |out, entry, fallbacks| {
        let mut declaration = ObjectWriter::new(out);
        declaration.string("name", entry.name()).string("description", entry.description());
        if takes_arguments(entry) {
            match field {
                SchemaField::Parameters => {
                    if let Some(reason) = entry_loss(entry) {
                        fallbacks.push(SchemaFallback { tool: entry.name().to_owned(), reason });
                    }
                    declaration.raw("parameters", &entry_parameters(entry));
                }
                SchemaField::ParametersJsonSchema => {
                    declaration.raw("parametersJsonSchema", entry.parameters_json());
                }
            }
        }
        declaration.end();
    });
    let mut json = String::from("[");
    ObjectWriter::new(&mut json).raw("functionDeclarations", &declarations.json).end();
    json.push(']');
    ToolList { json, fallbacks: declarations.fallbacks }
}

/// The `functionCall` parts of the first candidate, in order. A call without an `id` gets
/// `gemini-call-{part index}-{name}`: the same response always yields the same ids.
///
/// # Errors
/// A [`ResponseError`] naming the first member that is missing or of the wrong type.
pub fn parse_candidate(response: &Value) -> Result<Vec<ToolCall>, ResponseError> {
    let parts = response
        .pointer("/candidates/0/content/parts")
        .and_then(Value::as_array)
        .ok_or_else(|| malformed("no /candidates/0/content/parts array"))?;
    parts
        .iter()
        .enumerate()
        .filter_map(|(i, part)| part.get("functionCall").map(|call| (i, call)))
        .map(|(i, call)| {
            let name = string_at(call, "/name")?.to_owned();
            let id =
                call.get("id").and_then(Value::as_str).map_or_else(|| format!("gemini-call-{i}-{name}"), str::to_owned);
            let args = call.get("args").cloned().unwrap_or_else(|| json!({}));
            Ok(ToolCall { id, name, arguments: CallArguments::Value(args) })
        })
        .collect()
}

/// The user turn answering the calls: one `functionResponse` per call, in order, with
/// `{"output": …}` (the structured result, or the text) or `{"error": …}`. Images, audio
/// and embedded binary resources go in the response's own `parts` as `inlineData`
/// (multimodal function responses); the text keeps everything else.
#[must_use]
pub fn function_responses(results: &[CallResult]) -> Value {
    let parts: Vec<Value> = results
        .iter()
        .map(|r| {
            let mut function_response = json!({"id": r.id, "name": r.name});
            let response = match &r.outcome {
                Ok(output) => {
                    let (text, media) = split_media(output);
                    if !media.is_empty() {
                        function_response["parts"] = Value::Array(media);
                    }
                    json!({"output": output.structured().cloned().unwrap_or(Value::String(text))})
                }
                Err(error) => json!({"error": error.to_string()}),
            };
            function_response["response"] = response;
            json!({"functionResponse": function_response})
        })
        .collect();
    json!({"role": "user", "parts": parts})
}

/// The output's text, and its binary blocks as `inlineData` parts.
fn split_media(output: &ToolOutput) -> (String, Vec<Value>) {
    if output.is_text_only() {
        return (output.to_text().into_owned(), Vec::new());
    }
    let mut text = String::new();
    let mut media = Vec::new();
    for block in output.content() {
        let inline = match block {
            Content::Image(m) | Content::Audio(m) => Some((m.mime_type.as_str(), m.data.as_str())),
            Content::Resource(Resource { mime_type, contents: ResourceContents::Blob(data), .. }) => {
                Some((mime_type.as_deref().unwrap_or("application/octet-stream"), data.as_str()))
            }
            _ => None,
        };
        if let Some((mime_type, data)) = inline {
            media.push(json!({"inlineData": {"mimeType": mime_type, "data": data}}));
        } else {
            if !text.is_empty() {
                text.push_str("\n\n");
            }
            text.push_str(&block.describe());
        }
    }
    (text, media)
}

/// `toolConfig`, its named tools checked against `registry`.
///
/// # Errors
/// [`ToolError::UnknownTool`] when a named tool is not in `registry`.
pub fn tool_config(choice: &ToolChoice, registry: &Registry) -> Result<Value, ToolError> {
    choice.ensure_known(registry)?;
    let config = match choice {
        ToolChoice::Auto | ToolChoice::Allowed { required: false, .. } => json!({"mode": "AUTO"}),
        ToolChoice::None => json!({"mode": "NONE"}),
        ToolChoice::Required => json!({"mode": "ANY"}),
        ToolChoice::Tool(name) => json!({"mode": "ANY", "allowedFunctionNames": [name]}),
        ToolChoice::Allowed { tools, required: true } => json!({"mode": "ANY", "allowedFunctionNames": tools}),
    };
    Ok(json!({"functionCallingConfig": config}))
}
