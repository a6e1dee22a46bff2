//! Gemini `generateContent`: `functionDeclarations` (with `parameters`, the `OpenAPI` subset,
//! or `parametersJsonSchema`), `functionCall` parts (ids may be missing: stable ones are
//! made), and `functionResponse` parts with `output` or `error`.

use serde_json::{Map, Value, json};

use super::turn::{Envelope, rendered};
use super::wire::{Wire, add_note};
use super::{
    Arguments, CallResult, ModelRequest, ModelTurn, ObjectWriter, ResponseError, SamplingMembers, SchemaFallback,
    StopReason, StreamReader, ToolCall, ToolChoice, ToolList, Usage, malformed, string_at, tool_array,
};
use crate::content::{Content, Resource, ResourceContents};
use crate::error::ToolError;
use crate::output::ToolOutput;
use crate::registry::{Entry, Registry};
use crate::render::Dialect;
use crate::schema::Schema;

mod schema;
mod stream;

/// Where `generateContent` takes each sampling setting, all inside `generationConfig`.
const SAMPLING: SamplingMembers = SamplingMembers {
    temperature: "temperature",
    top_p: "topP",
    seed: Some("seed"),
    max_tokens: "maxOutputTokens",
    stop: Some("stopSequences"),
};

pub(crate) use schema::entry_parameters;
use schema::{entry_loss, takes_arguments};
pub use schema::{parameters_from, schema_loss, value_loss};
pub use stream::GenerateStream;

/// Which schema field a declaration carries; the two are mutually exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SchemaField {
    /// `parameters`: Gemini's `Schema` object (upper-case types, `nullable`, no
    /// `additionalProperties`).
    Parameters,
    /// `parametersJsonSchema`: JSON Schema as emitted.
    ParametersJsonSchema,
}

/// `tools`: `[{"functionDeclarations":[{"name":…,"description":…,"parameters":…}]}]`; a tool
/// with an output schema also gets `response` (or `responseJsonSchema`).
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
        // A tool that states its output's schema declares it too, in the same form as its
        // parameters (`response` beside `parameters`, `responseJsonSchema` beside the other).
        if let Some(output) = entry.output_schema() {
            match field {
                SchemaField::Parameters => {
                    if let Ok(schema) = serde_json::from_str::<Value>(output) {
                        declaration.raw("response", &parameters_from(&schema).to_string());
                    }
                }
                SchemaField::ParametersJsonSchema => {
                    declaration.raw("responseJsonSchema", output);
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
            let id = call_id(call, i, &name);
            let args = call.get("args").cloned().unwrap_or_else(|| json!({}));
            Ok(ToolCall { id, name, arguments: Arguments::Value(args) })
        })
        .collect()
}

/// A call's id: its own, or `gemini-call-{part index}-{name}`.
fn call_id(call: &Value, part: usize, name: &str) -> String {
    call.get("id").and_then(Value::as_str).map_or_else(|| format!("gemini-call-{part}-{name}"), str::to_owned)
}

/// A response as a turn: the first candidate's text parts joined, its calls,
/// `finishReason`, `usageMetadata`, and its content (role `model`) for the history.
fn turn(response: &Value) -> Result<ModelTurn, ResponseError> {
    let calls = parse_candidate(response)?;
    let mut content =
        response.pointer("/candidates/0/content").cloned().ok_or_else(|| malformed("no /candidates/0/content"))?;
    // A part marked `thought` is the model's reasoning, not its answer.
    let parts = || content.get("parts").and_then(Value::as_array).into_iter().flatten();
    let thought = |part: &&Value| part.get("thought").and_then(Value::as_bool) == Some(true);
    let text =
        parts().filter(|part| !thought(part)).filter_map(|part| part.get("text").and_then(Value::as_str)).collect();
    let reasoning =
        parts().filter(|part| thought(part)).filter_map(|part| part.get("text").and_then(Value::as_str)).collect();
    content["role"] = json!("model");
    Ok(ModelTurn {
        text,
        reasoning,
        stop: StopReason::of(
            // A prompt blocked outright has no candidate's reason, only `promptFeedback`'s.
            response
                .pointer("/candidates/0/finishReason")
                .and_then(Value::as_str)
                .or_else(|| response.pointer("/promptFeedback/blockReason").map(|_| "SAFETY")),
            !calls.is_empty(),
        ),
        usage: Usage::at(response, "/usageMetadata/promptTokenCount", "/usageMetadata/candidatesTokenCount"),
        calls,
        items: vec![content],
    })
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
        let inline = match block.plain() {
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

/// `generateContent` as the agent speaks it.
pub(crate) struct Generate;

impl Wire for Generate {
    fn provider_name(&self) -> &'static str {
        "gcp.gemini"
    }

    fn defaults(&self) -> (&'static str, &'static str, &'static str) {
        ("GEMINI", "https://generativelanguage.googleapis.com/v1beta", "gemini-2.5-flash")
    }

    fn user(&self, text: &str) -> Value {
        json!({"role": "user", "parts": [{"text": text}]})
    }

    fn results(&self, results: &[CallResult]) -> Vec<Value> {
        vec![function_responses(results)]
    }

    fn join_results(&self, per_call: Vec<Vec<Value>>) -> Vec<Value> {
        // A batch is answered by one user turn, its parts in call order.
        super::join_in_one(self.results(&[]), "parts", per_call)
    }

    fn tools(&self, registry: &Registry, _strict_by_default: bool) -> ToolList {
        tools(registry.in_added_order(), SchemaField::ParametersJsonSchema)
    }

    fn tool_choice(&self, choice: &ToolChoice, registry: &Registry) -> Result<Value, ToolError> {
        tool_config(choice, registry)
    }

    fn turn(&self, response: &Value) -> Result<ModelTurn, ResponseError> {
        turn(response)
    }

    fn stream(&self) -> Box<dyn StreamReader> {
        Box::new(GenerateStream::new())
    }

    fn url(&self, base: &str, model: &str, stream: bool) -> String {
        if stream {
            format!("{base}/models/{model}:streamGenerateContent?alt=sse")
        } else {
            format!("{base}/models/{model}:generateContent")
        }
    }

    fn headers(&self, api_key: Option<&str>) -> Vec<(&'static str, String)> {
        api_key.map(|key| ("x-goog-api-key", key.to_owned())).into_iter().collect()
    }

    fn add_to_description(&self, tools: &mut Value, name: &str, note: &str) {
        let declarations = tools.as_array_mut().into_iter().flatten();
        let functions = declarations.filter_map(|tool| tool["functionDeclarations"].as_array_mut()).flatten();
        add_note(functions.filter(|function| function["name"] == name), note);
    }

    fn body(&self, request: &ModelRequest<'_>, envelope: Envelope<'_>) -> Map<String, Value> {
        let mut body = Map::new();
        body.insert("contents".to_owned(), Value::Array(request.history.to_vec()));
        if let Some(system) = request.system {
            body.insert("systemInstruction".to_owned(), json!({"parts": [{"text": system}]}));
        }
        if let Some(tools) = request.tools {
            body.insert("tools".to_owned(), tools.clone());
        }
        if let Some(choice) = request.tool_choice {
            body.insert("toolConfig".to_owned(), choice.clone());
        }
        let mut config = Map::new();
        SAMPLING.put(&mut config, request.sampling, envelope.max_tokens);
        if !config.is_empty() {
            body.insert("generationConfig".to_owned(), Value::Object(config));
        }
        body
    }

    fn answer_format(&self, schema: &Schema, _name: &str) -> Value {
        json!({"generationConfig": {
            "responseMimeType": "application/json",
            "responseSchema": rendered(schema, Dialect::GeminiParameters),
        }})
    }
}
