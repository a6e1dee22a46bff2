//! Gemini `generateContent`: `functionDeclarations` (with `parameters`, the `OpenAPI` subset,
//! or `parametersJsonSchema`), `functionCall` parts (ids may be missing: stable ones are
//! made), and `functionResponse` parts with `output` or `error`.

use serde_json::{Value, json};

use super::{
    CallArguments, CallResult, ObjectWriter, ResponseError, ToolCall, ToolChoice, ToolList, malformed, string_at,
    tool_array,
};
use crate::error::ToolError;
use crate::registry::{Entry, Registry};

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
pub fn tools<'e>(tools: impl IntoIterator<Item = &'e Entry>, field: SchemaField) -> ToolList {
    let declarations = tool_array(tools, |out, entry, _| {
        let (key, schema) = match field {
            SchemaField::Parameters => ("parameters", entry.def().dialects.gemini_parameters),
            SchemaField::ParametersJsonSchema => ("parametersJsonSchema", entry.def().parameters_json),
        };
        ObjectWriter::new(out)
            .string("name", entry.name())
            .string("description", entry.def().description)
            .raw(key, schema)
            .end();
    });
    let mut json = String::from("[");
    ObjectWriter::new(&mut json).raw("functionDeclarations", &declarations.json).end();
    json.push(']');
    ToolList { json, fallbacks: Vec::new() }
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
/// `{"output": …}` (a non-object output wrapped) or `{"error": …}`.
#[must_use]
pub fn function_responses(results: &[CallResult]) -> Value {
    let parts: Vec<Value> = results
        .iter()
        .map(|r| {
            let response = match &r.outcome {
                Ok(output) => {
                    json!({"output": output.structured.clone().unwrap_or_else(|| Value::String(output.text.clone()))})
                }
                Err(error) => json!({"error": error.to_string()}),
            };
            json!({"functionResponse": {"id": r.id, "name": r.name, "response": response}})
        })
        .collect();
    json!({"role": "user", "parts": parts})
}

/// `toolConfig`, its named tools checked against `registry`.
///
/// # Errors
/// [`ToolError::UnknownTool`] when a named tool is not in `registry`.
pub fn tool_config(choice: &ToolChoice, registry: &Registry) -> Result<Value, ToolError> {
    choice.check(registry)?;
    let config = match choice {
        ToolChoice::Auto | ToolChoice::Allowed { required: false, .. } => json!({"mode": "AUTO"}),
        ToolChoice::None => json!({"mode": "NONE"}),
        ToolChoice::Required => json!({"mode": "ANY"}),
        ToolChoice::Tool(name) => json!({"mode": "ANY", "allowedFunctionNames": [name]}),
        ToolChoice::Allowed { tools, required: true } => json!({"mode": "ANY", "allowedFunctionNames": tools}),
    };
    Ok(json!({"functionCallingConfig": config}))
}
