//! The tools every client is offered, in the reference's order.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use serde::Serialize;
use tool_core::content::Audience;
use tool_core::context::{CancellationToken, LogLevel};
use tool_core::mcp::ResourcesHandle;
use tool_core::{Content, Registry, RegistryError, Structured, ToolArgs, ToolContext, ToolSchema, tool, tools};

use crate::client_tools::ClientTools;
use crate::resources::{self, Kind};
use crate::sessions::{every_five_seconds, random_below, session_of, stop};

/// A 20×20 PNG (a ring), base64: the reference sends the MCP logo.
pub const MCP_TINY_IMAGE: &str = include_str!("tiny_image.b64");

/// What the tools keep between calls: each session's simulated logging and resource
/// updates (stopped by the same toggle, or when the session ends), and the server's
/// resources, which `gzip-file-as-resource` adds to.
#[derive(Default)]
pub struct Everything {
    logging: Mutex<HashMap<String, CancellationToken>>,
    updates: Mutex<HashMap<String, CancellationToken>>,
    resources: OnceLock<ResourcesHandle>,
}

/// Every tool, in the reference's order: what every client gets, then what some clients can use.
pub fn registry(everything: Arc<Everything>) -> Result<Registry, RegistryError> {
    let mut registry = Registry::new();
    registry.add(EchoTool)?.add(GetAnnotatedMessageTool)?.add(GetEnvTool)?.add(GetResourceLinksTool)?;
    registry.add(GetResourceReferenceTool)?.add(GetStructuredContentTool)?.add(GetSumTool)?.add(GetTinyImageTool)?;
    registry.add_all(everything)?.add(TriggerLongRunningOperationTool)?;
    registry.add_all(Arc::new(ClientTools::default()))?;
    Ok(registry)
}

impl Everything {
    pub fn serve(&self, resources: ResourcesHandle) {
        let _ = self.resources.set(resources);
    }
}

#[derive(ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum MessageType {
    Error,
    Success,
    Debug,
}

#[derive(ToolArgs)]
pub enum City {
    #[serde(rename = "New York")]
    NewYork,
    Chicago,
    #[serde(rename = "Los Angeles")]
    LosAngeles,
}

#[derive(Serialize, ToolSchema)]
pub struct Weather {
    /// Temperature in celsius
    temperature: i32,
    /// Weather conditions description
    conditions: &'static str,
    /// Humidity percentage
    humidity: u8,
}

#[derive(ToolArgs)]
#[serde(rename_all = "camelCase")]
pub enum OutputType {
    ResourceLink,
    Resource,
}

/// Echoes back the input string
///
/// # Arguments
/// * `message` - Message to echo
#[tool(name = "echo", title = "Echo Tool", read_only, destructive = false, idempotent, open_world = false)]
fn echo(message: String) -> String {
    format!("Echo: {message}")
}

/// Demonstrates how annotations can be used to provide metadata about content.
///
/// # Arguments
/// * `message_type` - Type of message to demonstrate different annotation patterns
/// * `include_image` - Whether to include an example image
#[tool(
    name = "get-annotated-message",
    title = "Get Annotated Message Tool",
    read_only,
    destructive = false,
    idempotent,
    open_world = false
)]
fn get_annotated_message(
    #[serde(rename = "messageType")]
    #[param]
    message_type: MessageType,
    #[serde(rename = "includeImage")]
    #[param(default = false)]
    include_image: bool,
) -> Vec<Content> {
    let (text, priority, audience) = match message_type {
        MessageType::Error => ("Error: Operation failed", 1.0, &[Audience::User, Audience::Assistant][..]),
        MessageType::Success => ("Operation completed successfully", 0.7, &[Audience::User][..]),
        MessageType::Debug => ("Debug: Cache hit ratio 0.95, latency 150ms", 0.3, &[Audience::Assistant][..]),
    };
    let mut content = vec![Content::text(text).with_priority(priority).with_audience(audience.iter().copied())];
    if include_image {
        let image = Content::image_base64(MCP_TINY_IMAGE.trim(), "image/png");
        content.push(image.with_priority(0.5).with_audience([Audience::User]));
    }
    content
}

/// Returns all environment variables, helpful for debugging MCP server configuration
#[tool(
    name = "get-env",
    title = "Print Environment Tool",
    read_only,
    destructive = false,
    idempotent,
    open_world = false
)]
fn get_env() -> String {
    let variables: serde_json::Map<String, serde_json::Value> =
        std::env::vars().map(|(name, value)| (name, value.into())).collect();
    serde_json::to_string_pretty(&variables).unwrap_or_default()
}

/// Returns up to ten resource links that reference different types of resources
///
/// # Arguments
/// * `count` - Number of resource links to return (1-10)
#[tool(
    name = "get-resource-links",
    title = "Get Resource Links Tool",
    read_only,
    destructive = false,
    idempotent,
    open_world = false
)]
fn get_resource_links(#[param(minimum = 1, maximum = 10, default = 3)] count: u32) -> Vec<Content> {
    let mut content =
        vec![Content::text(format!("Here are {count} resource links to resources available in this server:"))];
    for id in 1..=u64::from(count) {
        // The reference's own rule: even ids are text, odd ones blobs.
        let kind = if id % 2 == 0 { Kind::Text } else { Kind::Blob };
        let link = tool_core::content::ResourceLink::new(kind.uri(id), format!("{} Resource {id}", kind.name()))
            .with_description(format!("Resource {id}: {}", kind.describe()))
            .with_mime_type("text/plain");
        content.push(Content::ResourceLink(link));
    }
    content
}

/// Returns a resource reference that can be used by MCP clients
///
/// # Arguments
/// * `resource_id` - ID of the text resource to fetch
#[tool(
    name = "get-resource-reference",
    title = "Get Resource Reference Tool",
    read_only,
    destructive = false,
    idempotent,
    open_world = false
)]
fn get_resource_reference(
    #[serde(rename = "resourceType")]
    #[param(default = "Text")]
    resource_type: Kind,
    #[serde(rename = "resourceId")]
    #[param(minimum = 1, default = 1)]
    resource_id: u64,
) -> Vec<Content> {
    let resource = resources::dynamic(resource_type, resource_id);
    vec![
        Content::text(format!("Returning resource reference for Resource {resource_id}:")),
        resource,
        Content::text(format!("You can access this resource using the URI: {}", resource_type.uri(resource_id))),
    ]
}

/// Returns structured content along with an output schema for client data validation
///
/// # Arguments
/// * `location` - Choose city
#[tool(
    name = "get-structured-content",
    title = "Get Structured Content Tool",
    read_only,
    destructive = false,
    idempotent,
    open_world = false
)]
fn get_structured_content(#[param] location: City) -> Structured<Weather> {
    Structured(match location {
        City::NewYork => Weather { temperature: 33, conditions: "Cloudy", humidity: 82 },
        City::Chicago => Weather { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 },
        City::LosAngeles => Weather { temperature: 73, conditions: "Sunny / Clear", humidity: 48 },
    })
}

/// Returns the sum of two numbers
///
/// # Arguments
/// * `a` - First number
/// * `b` - Second number
#[tool(name = "get-sum", title = "Get Sum Tool", read_only, destructive = false, idempotent, open_world = false)]
fn get_sum(a: f64, b: f64) -> String {
    format!("The sum of {} and {} is {}.", js(a), js(b), js(a + b))
}

/// Returns a tiny MCP logo image.
#[tool(
    name = "get-tiny-image",
    title = "Get Tiny Image Tool",
    read_only,
    destructive = false,
    idempotent,
    open_world = false
)]
fn get_tiny_image() -> Vec<Content> {
    vec![
        Content::text("Here's the image you requested:"),
        Content::image_base64(MCP_TINY_IMAGE.trim(), "image/png"),
        Content::text("The image above is the MCP logo."),
    ]
}

/// Demonstrates a long running operation with progress updates.
///
/// # Arguments
/// * `duration` - Duration of the operation in seconds
/// * `steps` - Number of steps in the operation
#[tool(
    name = "trigger-long-running-operation",
    title = "Trigger Long Running Operation Tool",
    read_only,
    destructive = false,
    idempotent,
    open_world = false
)]
async fn trigger_long_running_operation(
    ctx: &ToolContext,
    #[param(minimum = 0, maximum = 3600, default = 10.0)] duration: f64,
    #[param(minimum = 1, maximum = 10000, default = 5)] steps: u32,
) -> String {
    let step = Duration::from_secs_f64(duration / f64::from(steps));
    for done in 1..=steps {
        tokio::time::sleep(step).await;
        ctx.report_progress(f64::from(done), Some(f64::from(steps)), None);
    }
    format!("Long running operation completed. Duration: {} seconds, Steps: {steps}.", js(duration))
}

#[tools]
impl Everything {
    /// Compresses a single file using gzip compression. Depending upon the selected output type, returns either the compressed data as a gzipped resource or a resource link, allowing it to be downloaded in a subsequent request during the current session.
    ///
    /// # Arguments
    /// * `name` - Name of the output file
    /// * `data` - URL or data URI of the file content to compress
    /// * `output_type` - How the resulting gzipped file should be returned. 'resourceLink' returns a link to a resource that can be read later, 'resource' returns a full resource object.
    #[tool(
        name = "gzip-file-as-resource",
        title = "GZip File as Resource Tool",
        read_only = false,
        destructive = false,
        idempotent,
        open_world
    )]
    async fn gzip_file_as_resource(
        &self,
        #[param(default = "README.md.gz")] name: String,
        #[param(
            format = "uri",
            default = "https://raw.githubusercontent.com/modelcontextprotocol/servers/refs/heads/main/README.md"
        )]
        data: String,
        #[serde(rename = "outputType")]
        #[param(default = "resourceLink")]
        output_type: OutputType,
    ) -> Result<Content, String> {
        let bytes = resources::fetch(&data).await.map_err(|error| format!("Error processing file {data}: {error}"))?;
        let gzipped = resources::gzip(&bytes).map_err(|error| error.to_string())?;
        let handle = self.resources.get().ok_or("the server is not serving yet")?;
        let (link, embedded) = resources::keep_for_session(handle, &name, gzipped).await?;
        Ok(match output_type {
            OutputType::ResourceLink => link,
            OutputType::Resource => embedded,
        })
    }

    /// Toggles simulated, random-leveled logging on or off.
    #[tool(
        name = "toggle-simulated-logging",
        title = "Toggle Simulated Logging",
        read_only = false,
        destructive = false,
        idempotent = false,
        open_world = false
    )]
    fn toggle_simulated_logging(&self, ctx: &ToolContext) -> String {
        let session = session_of(ctx);
        if stop(&self.logging, &session) {
            return format!("Stopped simulated logging for session {session}");
        }
        let suffix = if session == "stdio" { String::new() } else { format!(" - SessionId {session}") };
        every_five_seconds(&self.logging, &session, ctx, move |ctx| {
            let level = LogLevel::ALL[random_below(LogLevel::ALL.len())];
            let label = match level {
                LogLevel::Alert => "Alert level-message".to_owned(), // the reference's own wording
                other => format!("{}{}-level message", other.as_str()[..1].to_uppercase(), &other.as_str()[1..]),
            };
            ctx.log(level, format!("{label}{suffix}"));
            async {}
        });
        format!(
            "Started simulated, random-leveled logging for session {session} at a 5 second pace. Client's selected logging level will be respected. If an interval elapses and the message to be sent is below the selected level, it will not be sent. Thus at higher chosen logging levels, messages should arrive further apart. "
        )
    }

    /// Toggles simulated resource subscription updates on or off.
    #[tool(
        name = "toggle-subscriber-updates",
        title = "Toggle Subscriber Updates",
        read_only = false,
        destructive = false,
        idempotent = false,
        open_world = false
    )]
    fn toggle_subscriber_updates(&self, ctx: &ToolContext) -> Result<String, String> {
        let session = session_of(ctx);
        if stop(&self.updates, &session) {
            return Ok(format!("Stopped simulated resource updates for session {session}"));
        }
        let handle = self.resources.get().ok_or("the server is not serving yet")?.clone();
        every_five_seconds(&self.updates, &session, ctx, move |_| {
            let handle = handle.clone();
            async move {
                for uri in handle.subscribed() {
                    handle.updated(&uri).await;
                }
            }
        });
        Ok(format!(
            "Started simulated resource updated notifications for session {session} at a 5 second pace. Client will receive updates for any resources the it is subscribed to."
        ))
    }
}

/// A number as JavaScript prints it (`3`, not `3.0`).
pub fn js(number: f64) -> String {
    serde_json::Number::from_f64(number)
        .map_or_else(|| number.to_string(), |n| n.to_string().trim_end_matches(".0").to_owned())
}
