//! The server the official MCP conformance suite runs against (`bash tests/mcp/conformance.sh`):
//! the tools its scenarios call, written with `#[tool]`, and its prompts and resources,
//! written with `#[prompt]` and `#[resource]`, served over streamable HTTP.
//!
//! `cargo run -p tool-examples --bin mcp_conformance -- 127.0.0.1:3001` (endpoint `/mcp`).
#![allow(clippy::print_stderr)] // an example reports where it listens

use std::time::Duration;

use serde::Serialize;
use tool_core::mcp::{HttpOptions, McpServer, PromptMessage, Prompts, Resources, prompt, resource};
use tool_core::{
    Content, DynamicTool, Registry, ToolArgs, ToolContext, ToolOutput, context::Elicitation, context::LogLevel,
    context::SamplingRequest, tool,
};

/// A 1x1 PNG, the suite's test image.
const IMAGE: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// A short WAV, the suite's test audio.
const AUDIO: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

/// Tests simple text content response
#[tool]
fn test_simple_text() -> &'static str {
    "This is a simple text response for testing."
}

/// Tests image content response
#[tool]
fn test_image_content() -> Content {
    Content::image_base64(IMAGE, "image/png")
}

/// Tests audio content response
#[tool]
fn test_audio_content() -> Content {
    Content::audio_base64(AUDIO, "audio/wav")
}

/// Tests embedded resource content response
#[tool]
fn test_embedded_resource() -> Content {
    Content::resource_text("test://embedded-resource", "text/plain", "This is an embedded resource content.")
}

/// Tests response with multiple content types (text, image, resource)
#[tool]
fn test_multiple_content_types() -> Vec<Content> {
    vec![
        Content::text("Multiple content types test:"),
        Content::image_base64(IMAGE, "image/png"),
        Content::resource_text("test://mixed-content-resource", "application/json", r#"{"test":"data","value":123}"#),
    ]
}

/// Tests tool that emits log messages during execution
#[tool]
async fn test_tool_with_logging(ctx: &ToolContext) -> &'static str {
    ctx.log(LogLevel::Info, "Tool execution started");
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.log(LogLevel::Info, "Tool processing data");
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.log(LogLevel::Info, "Tool execution completed");
    "Tool with logging executed successfully"
}

/// Tests tool that reports progress notifications
#[tool]
async fn test_tool_with_progress(ctx: &ToolContext) -> &'static str {
    for step in [0_u8, 50, 100] {
        ctx.report_progress(f64::from(step), Some(100.0), Some(&format!("Completed step {step} of 100")));
        if step < 100 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    "Progress reported"
}

/// Tests error response handling
#[tool]
fn test_error_handling() -> Result<String, String> {
    Err("This tool intentionally returns an error for testing".to_owned())
}

#[derive(Debug, ToolArgs)]
struct SamplingArgs {
    /// The prompt to send to the LLM
    prompt: String,
}

/// Tests server-initiated sampling (LLM completion request)
#[tool]
async fn test_sampling(ctx: &ToolContext, args: SamplingArgs) -> Result<String, String> {
    let response = ctx.sample(SamplingRequest::new(args.prompt, 100)).await?;
    Ok(format!("LLM response: {}", response.content.as_text().unwrap_or("No response")))
}

#[derive(Debug, ToolArgs)]
struct ElicitationArgs {
    /// The message to show the user
    message: String,
}

/// What `test_elicitation` asks the user.
#[derive(Debug, Serialize, ToolArgs)]
struct UserResponse {
    /// User's response
    response: String,
}

/// Renders an elicitation's outcome as the suite's reference server does.
fn outcome<T: Serialize>(prefix: &str, answer: Elicitation<T>) -> String {
    let (action, content) = match answer {
        Elicitation::Accepted(content) => ("accept", serde_json::to_string(&content).unwrap_or_default()),
        Elicitation::Declined => ("decline", "{}".to_owned()),
        Elicitation::Cancelled => ("cancel", "{}".to_owned()),
    };
    format!("{prefix}: action={action}, content={content}")
}

/// Tests server-initiated elicitation (user input request)
#[tool]
async fn test_elicitation(ctx: &ToolContext, args: ElicitationArgs) -> Result<String, String> {
    let answer = ctx.elicit::<UserResponse>(args.message).await?;
    Ok(outcome("User response", answer))
}

/// A user's status.
#[derive(Debug, Serialize, ToolArgs)]
#[serde(rename_all = "lowercase")]
enum Status {
    Active,
    Inactive,
    Pending,
}

/// A form whose every field has a default (SEP-1034).
#[derive(Debug, Serialize, ToolArgs)]
struct Profile {
    /// User name
    #[param(default = "John Doe")]
    name: Option<String>,
    /// User age
    #[param(default = 30)]
    age: Option<i64>,
    /// User score
    #[param(default = 95.5)]
    score: Option<f64>,
    /// User status
    #[param(default = "active")]
    status: Option<Status>,
    /// Verification status
    #[param(default = true)]
    verified: Option<bool>,
}

/// Tests elicitation with default values per SEP-1034
#[tool]
async fn test_elicitation_sep1034_defaults(ctx: &ToolContext) -> Result<String, String> {
    let answer = ctx.elicit::<Profile>("Please review and update the form fields with defaults").await?;
    Ok(outcome("Elicitation completed", answer))
}

/// Options without titles.
#[derive(Debug, Serialize, ToolArgs)]
#[serde(rename_all = "lowercase")]
enum Plain {
    Option1,
    Option2,
    Option3,
}

/// Options with titles (their doc comments).
#[derive(Debug, Serialize, ToolArgs)]
#[serde(rename_all = "lowercase")]
enum Titled {
    /// First Option
    Value1,
    /// Second Option
    Value2,
    /// Third Option
    Value3,
}

/// Choices with titles, for a multi-select.
#[derive(Debug, Serialize, ToolArgs)]
#[serde(rename_all = "lowercase")]
enum TitledChoice {
    /// First Choice
    Value1,
    /// Second Choice
    Value2,
    /// Third Choice
    Value3,
}

/// Titled options in the form older clients read (`enumNames`).
#[derive(Debug, Serialize, ToolArgs)]
#[serde(rename_all = "lowercase")]
#[tool_args(enum_names)]
enum Legacy {
    /// Option One
    Opt1,
    /// Option Two
    Opt2,
    /// Option Three
    Opt3,
}

/// Every enum form of SEP-1330.
#[derive(Debug, Serialize, ToolArgs)]
#[serde(rename_all = "camelCase")]
struct Choices {
    /// Select one option
    untitled_single: Option<Plain>,
    /// Select one option with titles
    titled_single: Option<Titled>,
    /// Select one option (legacy)
    legacy_enum: Option<Legacy>,
    /// Select multiple options
    #[param(min_items = 1, max_items = 3)]
    untitled_multi: Option<Vec<Plain>>,
    /// Select multiple options with titles
    #[param(min_items = 1, max_items = 3)]
    titled_multi: Option<Vec<TitledChoice>>,
}

/// Tests elicitation with enum schema improvements per SEP-1330
#[tool]
async fn test_elicitation_sep1330_enums(ctx: &ToolContext) -> Result<String, String> {
    let answer = ctx.elicit::<Choices>("Please select options from the enum fields").await?;
    Ok(outcome("Elicitation completed", answer))
}

/// A simple prompt for testing
#[prompt]
fn test_simple_prompt() -> &'static str {
    "This is a simple prompt for testing."
}

/// A prompt with arguments
///
/// # Arguments
/// * `arg1` - First test argument
/// * `arg2` - Second test argument
#[prompt]
fn test_prompt_with_arguments(arg1: String, arg2: String) -> String {
    format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'")
}

/// A prompt with an embedded resource
///
/// # Arguments
/// * `resource_uri` - URI of the resource to embed
#[prompt]
fn test_prompt_with_embedded_resource(#[serde(rename = "resourceUri")] resource_uri: String) -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(Content::resource_text(
            resource_uri,
            "text/plain",
            "Embedded resource content for testing.",
        )),
        PromptMessage::user("Please process the embedded resource above."),
    ]
}

/// A prompt with an image
#[prompt]
fn test_prompt_with_image() -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(Content::image_base64(IMAGE, "image/png")),
        PromptMessage::user("Please analyze the image above."),
    ]
}

/// A static text resource for testing
#[resource(uri = "test://static-text", name = "static_text")]
fn static_text() -> &'static str {
    "This is the content of the static text resource."
}

/// A static binary resource (image) for testing
#[resource(uri = "test://static-binary", name = "static_binary")]
fn static_binary() -> Content {
    Content::image_base64(IMAGE, "image/png")
}

/// A resource clients subscribe to
#[resource(uri = "test://watched-resource")]
fn watched() -> &'static str {
    "Watched resource content"
}

/// A resource template with an id
#[resource(uri = "test://template/{id}/data", mime_type = "application/json")]
fn template_data(id: String) -> String {
    serde_json::json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")}).to_string()
}

/// SEP-1613's tool: a schema known only at run time keeps its `$schema`, `$defs` and
/// `additionalProperties` as written, and calls are checked against it.
fn json_schema_2020_12_tool() -> DynamicTool {
    const SCHEMA: &str = r##"{
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {
            "address": {
                "type": "object",
                "properties": {"street": {"type": "string"}, "city": {"type": "string"}}
            }
        },
        "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"}},
        "additionalProperties": false
    }"##;
    DynamicTool::new(
        "json_schema_2020_12_tool",
        "Tool with JSON Schema 2020-12 features",
        SCHEMA,
        |_, arguments| async move {
            Ok(ToolOutput::text(format!(
                "JSON Schema 2020-12 tool called with: {}",
                serde_json::Value::Object(arguments)
            )))
        },
    )
    .expect("the schema is valid")
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr = std::env::args().nth(1).unwrap_or_else(|| "127.0.0.1:3001".to_owned());
    let mut registry = Registry::collect().expect("tool names are unique");
    registry.add_dynamic(json_schema_2020_12_tool()).expect("tool names are unique");
    let mut prompts = Prompts::new();
    prompts
        .add(TestSimplePromptPrompt)
        .and_then(|prompts| prompts.add(TestPromptWithArgumentsPrompt))
        .and_then(|prompts| prompts.add(TestPromptWithEmbeddedResourcePrompt))
        .and_then(|prompts| prompts.add(TestPromptWithImagePrompt))
        .expect("prompt names are unique");
    let mut resources = Resources::new();
    resources
        .add(StaticTextResource)
        .and_then(|resources| resources.add(StaticBinaryResource))
        .and_then(|resources| resources.add(WatchedResource))
        .and_then(|resources| resources.add(TemplateDataResource))
        .expect("resource URIs are unique");
    let server = McpServer::new(registry)
        .with_server_info("tool-core-conformance", env!("CARGO_PKG_VERSION"))
        .with_prompts(prompts)
        .with_resources(resources);
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    eprintln!("MCP conformance server on http://{}/mcp", listener.local_addr()?);
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    tool_core::mcp::serve_http_on(server, listener, HttpOptions::default(), ctrl_c).await
}
