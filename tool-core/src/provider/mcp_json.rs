//! MCP's JSON (protocol revisions 2025-06-18 and 2025-11-25): `tools/list` entries,
//! `tools/call` requests, and `CallToolResult`s. The one place MCP's wire forms are written:
//! the server and client on rmcp ([`crate::mcp`], a feature) send and read exactly these, and
//! a program with its own transport can use them directly. Invalid arguments are tool execution
//! errors (`isError: true`, SEP-1303), so the model can correct them; an unknown tool is a
//! protocol error.

use serde_json::{Value, json};

use super::{Arguments, CallResult, ObjectWriter, ResponseError, ToolCall, ToolList, malformed, string_at, tool_array};
use crate::content::{Annotated, Content, ResourceContents};
use crate::error::ToolError;
use crate::output::ToolOutput;
use crate::registry::Entry;

/// The `tools` of a `tools/list` result: `name`, `title`, `description`, `inputSchema`,
/// `outputSchema` for tools returning [`Structured`](crate::Structured), and the
/// `annotations` the tool states.
pub fn tools_list<'e>(tools: impl IntoIterator<Item = &'e Entry>) -> ToolList {
    tool_array(tools, |out, entry, _| {
        let annotations = entry.annotations();
        let mut object = ObjectWriter::new(out);
        object.string("name", entry.name());
        if let Some(title) = entry.title() {
            object.string("title", title);
        }
        object.string("description", entry.description()).raw("inputSchema", entry.parameters_json());
        if let Some(output_schema) = entry.output_schema() {
            object.raw("outputSchema", output_schema);
        }
        if !annotations.is_empty() {
            let hints = [
                ("readOnlyHint", annotations.read_only),
                ("destructiveHint", annotations.destructive),
                ("idempotentHint", annotations.idempotent),
                ("openWorldHint", annotations.open_world),
            ];
            let mut annotations = String::new();
            let mut inner = ObjectWriter::new(&mut annotations);
            if let Some(title) = entry.title() {
                inner.string("title", title);
            }
            for (key, hint) in hints {
                if let Some(hint) = hint {
                    inner.raw(key, if hint { "true" } else { "false" });
                }
            }
            inner.end();
            object.raw("annotations", &annotations);
        }
        object.end();
    })
}

/// The call in a `tools/call` request; its JSON-RPC id becomes the call id.
///
/// # Errors
/// A [`ResponseError`] when the request is not a `tools/call` with a name.
pub fn parse_tools_call(request: &Value) -> Result<ToolCall, ResponseError> {
    if request.get("method").and_then(Value::as_str) != Some("tools/call") {
        return Err(malformed("not a tools/call request"));
    }
    let id = match request.get("id") {
        Some(Value::String(id)) => id.clone(),
        Some(Value::Number(id)) => id.to_string(),
        _ => return Err(malformed("no /id")),
    };
    let name = string_at(request, "/params/name")?.to_owned();
    let arguments = request.pointer("/params/arguments").cloned().unwrap_or_else(|| json!({}));
    Ok(ToolCall { id, name, arguments: Arguments::Value(arguments) })
}

/// The JSON-RPC response to a `tools/call`: a `CallToolResult` (`content`,
/// `structuredContent` for object outputs, `isError`), or, for an unknown tool, the
/// protocol error `-32602`.
#[must_use]
pub fn call_tool_response(request_id: &Value, result: &CallResult) -> Value {
    match &result.outcome {
        Err(ToolError::UnknownTool { name, .. }) => json!({
            "jsonrpc": "2.0", "id": request_id,
            "error": {"code": -32602, "message": format!("Unknown tool: {name}")}
        }),
        outcome => json!({"jsonrpc": "2.0", "id": request_id, "result": call_tool_result(outcome)}),
    }
}

/// A call's `CallToolResult`: its blocks and `structuredContent` (MCP 2025-11-25 allows
/// objects only), or the error's text with `isError: true`, which the model reads and can
/// correct. The rmcp server sends exactly this.
pub(crate) fn call_tool_result(outcome: &Result<ToolOutput, ToolError>) -> Value {
    match outcome {
        Ok(output) => {
            let content: Vec<Value> = output.content().iter().map(content_block).collect();
            let mut body = json!({"content": content, "isError": false});
            if let Some(structured @ Value::Object(_)) = output.structured() {
                body["structuredContent"] = structured.clone();
            }
            body
        }
        Err(error) => error_result(&error.to_string()),
    }
}

/// A `CallToolResult` of one text block with `isError: true`.
pub(crate) fn error_result(text: &str) -> Value {
    json!({"content": [{"type": "text", "text": text}], "isError": true})
}

/// One MCP content block: `text`, `image`, `audio`, `resource` or `resource_link`.
#[must_use]
pub(crate) fn content_block(content: &Content) -> Value {
    match content {
        Content::Annotated(annotated) => annotated_block(annotated),
        Content::Text(text) => json!({"type": "text", "text": text}),
        Content::Image(media) => json!({"type": "image", "data": media.data, "mimeType": media.mime_type}),
        Content::Audio(media) => json!({"type": "audio", "data": media.data, "mimeType": media.mime_type}),
        Content::Resource(resource) => {
            let mut inner = json!({"uri": resource.uri});
            if let Some(mime) = &resource.mime_type {
                inner["mimeType"] = json!(mime);
            }
            match &resource.contents {
                ResourceContents::Text(text) => inner["text"] = json!(text),
                ResourceContents::Blob(blob) => inner["blob"] = json!(blob),
            }
            json!({"type": "resource", "resource": inner})
        }
        Content::ResourceLink(link) => {
            let mut block = json!({"type": "resource_link", "uri": link.uri, "name": link.name});
            let optional = [("title", &link.title), ("description", &link.description), ("mimeType", &link.mime_type)];
            for (key, value) in optional {
                if let Some(value) = value {
                    block[key] = json!(value);
                }
            }
            if let Some(size) = link.size {
                block["size"] = json!(size);
            }
            block
        }
    }
}

/// A block with its `annotations` and `_meta` beside its own keys.
fn annotated_block(annotated: &Annotated) -> Value {
    let mut block = content_block(&annotated.content);
    let mut notes = serde_json::Map::new();
    if !annotated.audience.is_empty() {
        notes.insert("audience".into(), annotated.audience.iter().map(|audience| json!(audience.as_str())).collect());
    }
    if let Some(priority) = annotated.priority {
        notes.insert("priority".into(), json!(priority));
    }
    if let Some(last_modified) = &annotated.last_modified {
        notes.insert("lastModified".into(), json!(last_modified));
    }
    if !notes.is_empty() {
        block["annotations"] = Value::Object(notes);
    }
    if let Some(meta) = &annotated.meta {
        block["_meta"] = Value::Object(meta.clone());
    }
    block
}

/// A content block as MCP sends it, read back (a remote server's result, a client's
/// sampling answer); a block of a kind this crate does not know is kept as its JSON text.
#[must_use]
#[cfg(feature = "mcp")]
pub(crate) fn content_from(block: &Value) -> Content {
    let content = plain_content_from(block);
    let notes = block.get("annotations");
    let audience: Vec<crate::content::Audience> = notes
        .and_then(|notes| notes.get("audience"))
        .and_then(|audience| serde_json::from_value(audience.clone()).ok())
        .unwrap_or_default();
    let priority = notes.and_then(|notes| notes.get("priority")).and_then(Value::as_f64);
    let last_modified = notes.and_then(|notes| notes.get("lastModified")).and_then(Value::as_str);
    let meta = block.get("_meta").and_then(Value::as_object);
    let mut content = if audience.is_empty() { content } else { content.with_audience(audience) };
    if let Some(priority) = priority.filter(|priority| (0.0..=1.0).contains(priority)) {
        content = content.with_priority(priority);
    }
    if let Some(last_modified) = last_modified {
        content = content.with_last_modified(last_modified);
    }
    match meta {
        Some(meta) => content.with_meta(meta.clone()),
        None => content,
    }
}

/// [`content_from`] without the block's annotations and metadata.
#[cfg(feature = "mcp")]
fn plain_content_from(block: &Value) -> Content {
    let text = |key: &str| block.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
    let optional = |key: &str| block.get(key).and_then(Value::as_str).map(str::to_owned);
    match block.get("type").and_then(Value::as_str) {
        Some("text") => Content::Text(text("text")),
        Some("image") => Content::image_base64(text("data"), text("mimeType")),
        Some("audio") => Content::audio_base64(text("data"), text("mimeType")),
        Some("resource") => {
            let resource = block.get("resource").cloned().unwrap_or_default();
            let field = |key: &str| resource.get(key).and_then(Value::as_str).map(str::to_owned);
            let contents = match (field("text"), field("blob")) {
                (Some(text), _) => ResourceContents::Text(text),
                (None, blob) => ResourceContents::Blob(blob.unwrap_or_default()),
            };
            Content::Resource(crate::content::Resource {
                uri: field("uri").unwrap_or_default(),
                mime_type: field("mimeType"),
                contents,
            })
        }
        Some("resource_link") => Content::ResourceLink(crate::content::ResourceLink {
            uri: text("uri"),
            name: text("name"),
            title: optional("title"),
            description: optional("description"),
            mime_type: optional("mimeType"),
            size: block.get("size").and_then(Value::as_u64),
        }),
        _ => Content::Text(block.to_string()),
    }
}

#[cfg(all(test, feature = "mcp"))]
mod tests {
    use serde_json::json;

    use super::{content_block, content_from};
    use crate::content::{Audience, Content};

    /// A block read back from the wire is the block written, annotations and `_meta`
    /// included, for every kind; a priority outside 0 to 1 from a remote server is dropped
    /// rather than trusted.
    #[test]
    fn annotated_blocks_read_back_as_written() {
        let meta = json!({"k": [1, 2]}).as_object().cloned().unwrap();
        let kinds = [
            Content::text("t"),
            Content::image(&[1, 2, 3], "image/png"),
            Content::audio(&[4], "audio/wav"),
            Content::resource_text("file:///a", "text/plain", "a"),
            Content::resource_blob("file:///b", "application/pdf", &[5]),
            Content::resource_link("file:///c", "c"),
        ];
        for plain in kinds {
            let annotated = plain
                .clone()
                .with_audience([Audience::Assistant])
                .with_priority(0.25)
                .with_last_modified("2026-11-29T00:00:00Z")
                .with_meta(meta.clone());
            assert_eq!(content_from(&content_block(&annotated)), annotated);
            assert_eq!(content_from(&content_block(&plain)), plain);
        }
        let mut wire = content_block(&Content::text("t"));
        wire["annotations"] = json!({"priority": 7, "audience": ["user"]});
        assert_eq!(content_from(&wire), Content::text("t").with_audience([Audience::User]));
    }
}
