//! The server under test (its tools), an rmcp client that records what the server sends it,
//! and ways to connect the two: an in-process pipe (rmcp's stdio transport over a duplex
//! stream) and streamable HTTP on 127.0.0.1.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, LazyLock, Mutex};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, CreateMessageRequestParams,
    CreateMessageResult, ElicitRequestParams, ElicitResult, ElicitationAction, Implementation,
    LoggingMessageNotificationParam, ProgressNotificationParam, ProtocolVersion, SamplingMessage,
};
use rmcp::service::{NotificationContext, RequestContext, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, ErrorData, RoleClient, ServiceExt};
use serde::Serialize;
use serde_json::{Value, json};
use tokio::sync::oneshot;
use tool_core::mcp::{HttpOptions, McpServer};
use tool_core::{
    Registry, Structured, ToolArgs, ToolContext, context::Elicitation, context::LogLevel, context::SamplingRequest,
    tool,
};

/// Arguments whose declaration order is not alphabetical.
#[derive(Debug, ToolArgs)]
pub struct EchoArgs {
    /// What to say back
    #[param(min_length = 1, max_length = 100)]
    pub zebra: String,
    #[param(minimum = 0, maximum = 1000)]
    pub apple: u32,
    pub mango: Option<bool>,
}

/// Says the arguments back
#[tool(title = "Echo", read_only, idempotent)]
pub fn echo(args: EchoArgs) -> String {
    format!("{} {}", args.zebra, args.apple)
}

/// Always panics
#[tool]
pub fn boom() -> String {
    panic!("kaboom")
}

/// Always fails
#[tool]
pub fn refuse() -> Result<String, String> {
    Err("no, not today".to_owned())
}

/// A count, with its schema advertised as the output schema.
#[derive(Debug, Serialize, ToolArgs)]
pub struct Count {
    pub count: u32,
}

/// Counts to three
#[tool]
pub fn count() -> Structured<Count> {
    Structured(Count { count: 3 })
}

/// What a `slow` call did, by its `id`.
pub static SLOW: LazyLock<Mutex<HashMap<u32, &'static str>>> = LazyLock::new(Mutex::default);

#[derive(Debug, ToolArgs)]
pub struct SlowArgs {
    pub id: u32,
}

/// Waits up to 30 s, or until cancelled
#[tool]
pub async fn slow(ctx: &ToolContext, args: SlowArgs) -> String {
    SLOW.lock().unwrap().insert(args.id, "started");
    let outcome = tokio::select! {
        () = ctx.cancelled() => "cancelled",
        () = tokio::time::sleep(Duration::from_secs(30)) => "finished",
    };
    SLOW.lock().unwrap().insert(args.id, outcome);
    outcome.to_owned()
}

/// Reports progress three times and logs at three levels (a plain fn: it runs on the blocking pool)
#[tool]
pub fn chatty(ctx: &ToolContext) -> &'static str {
    for step in 1..=3_u8 {
        ctx.report_progress(f64::from(step), Some(3.0), Some(&format!("step {step}")));
    }
    ctx.log(LogLevel::Debug, "debug detail");
    ctx.log(LogLevel::Info, "info note");
    ctx.log_to(Some("disk"), LogLevel::Warning, json!({"free": "2%"}));
    "done"
}

#[derive(Debug, ToolArgs)]
pub struct PromptArgs {
    pub prompt: String,
}

/// Asks the client's LLM
#[tool]
pub async fn ask_llm(ctx: &ToolContext, args: PromptArgs) -> Result<String, String> {
    let response = ctx.sample(SamplingRequest::new(args.prompt, 50)).await?;
    Ok(format!("llm said: {}", response.content.as_text().unwrap_or_default()))
}

/// A short form.
#[derive(Debug, Serialize, ToolArgs)]
pub struct Contact {
    /// Your name
    #[param(min_length = 1)]
    pub name: String,
    #[param(format = "email")]
    pub email: String,
}

/// Asks the user who they are
#[tool]
pub async fn ask_user(ctx: &ToolContext) -> Result<String, String> {
    Ok(match ctx.elicit::<Contact>("Who are you?").await? {
        Elicitation::Accepted(contact) => format!("hello {} <{}>", contact.name, contact.email),
        Elicitation::Declined => "declined".to_owned(),
        Elicitation::Cancelled => "cancelled".to_owned(),
    })
}

/// Every tool above, explicitly (no other test's `#[tool]` leaks in).
pub fn registry() -> Registry {
    let mut registry = Registry::new();
    registry.add(EchoTool).unwrap().add(BoomTool).unwrap().add(RefuseTool).unwrap().add(CountTool).unwrap();
    registry.add(SlowTool).unwrap().add(ChattyTool).unwrap().add(AskLlmTool).unwrap().add(AskUserTool).unwrap();
    registry
}

pub fn server() -> McpServer {
    McpServer::new(registry()).with_server_info("fixture", "1.0.0")
}

/// A client that records notifications and answers sampling and elicitation when it
/// declares them.
#[derive(Clone, Default)]
pub struct Client {
    pub progress: Arc<Mutex<Vec<ProgressNotificationParam>>>,
    pub logs: Arc<Mutex<Vec<LoggingMessageNotificationParam>>>,
    pub capable: bool,
    /// What the user "types" into an elicitation form.
    pub answer: Arc<Mutex<Option<Value>>>,
    pub version: Option<ProtocolVersion>,
    /// How many `notifications/tools/list_changed` arrived.
    pub list_changed: Arc<std::sync::atomic::AtomicUsize>,
    /// Whether it declares the tasks extension.
    pub tasks: bool,
}

impl Client {
    pub fn capable() -> Self {
        Client { capable: true, ..Client::default() }
    }
}

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        let mut capabilities = if self.capable {
            ClientCapabilities::builder().enable_sampling().enable_elicitation().build()
        } else {
            ClientCapabilities::default()
        };
        if self.tasks {
            capabilities.extensions = ClientCapabilities::builder().enable_tasks().build().extensions;
        }
        ClientConfig::new(capabilities, Implementation::new("test-client", "1.0.0"))
            .with_protocol_version(self.version.clone().unwrap_or(ProtocolVersion::V_2025_11_25))
    }

    async fn on_progress(&self, params: ProgressNotificationParam, _: NotificationContext<RoleClient>) {
        self.progress.lock().unwrap().push(params);
    }

    async fn on_tool_list_changed(&self, _: NotificationContext<RoleClient>) {
        self.list_changed.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }

    async fn on_logging_message(&self, params: LoggingMessageNotificationParam, _: NotificationContext<RoleClient>) {
        self.logs.lock().unwrap().push(params);
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        let wire = serde_json::to_value(&params).unwrap();
        let prompt = wire["messages"][0]["content"]["text"].as_str().unwrap_or_default().to_owned();
        Ok(CreateMessageResult::new(SamplingMessage::assistant_text(format!("echo {prompt}")), "test-model".to_owned()))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let wire = serde_json::to_value(&request).unwrap();
        assert_eq!(wire["requestedSchema"]["required"], json!(["name", "email"]), "{wire}");
        Ok(match self.answer.lock().unwrap().clone() {
            Some(content) => ElicitResult::new(ElicitationAction::Accept).with_content(content),
            None => ElicitResult::new(ElicitationAction::Decline),
        })
    }
}

pub type Connection = RunningService<RoleClient, Client>;

/// Polls `done` every 10 ms until it holds or `limit` passes; whether it held. For what
/// happens on another task (a notification arriving, a tool observing its cancellation).
pub async fn eventually(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed() < limit {
        if done() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    done()
}

/// The server over rmcp's newline-delimited JSON transport (what stdio uses), in process.
pub async fn connect_pipe(client: Client) -> Connection {
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(tool_core::mcp::serve_io(server(), read, write));
    client.serve(client_end).await.expect("the client connects")
}

/// A server on 127.0.0.1 (a free port); dropping the handle's sender shuts it down.
pub struct Http {
    pub addr: SocketAddr,
    pub stop: Option<oneshot::Sender<()>>,
    pub done: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Http {
    pub async fn start(options: HttpOptions) -> Http {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let shutdown = async move {
            let _ = stopped.await;
        };
        let done = tokio::spawn(tool_core::mcp::serve_http_on(server(), listener, options, shutdown));
        Http { addr, stop: Some(stop), done }
    }

    pub fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }

    pub async fn connect(&self, client: Client) -> Connection {
        client.serve(StreamableHttpClientTransport::from_uri(self.url())).await.expect("the client connects")
    }
}

/// Calls `name` with `arguments`.
pub async fn call(connection: &Connection, name: &'static str, arguments: Value) -> Result<CallToolResult, String> {
    let Value::Object(arguments) = arguments else { panic!("arguments are an object") };
    connection
        .call_tool(CallToolRequestParams::new(name).with_arguments(arguments))
        .await
        .map_err(|error| error.to_string())
}

/// The text of a result's first block.
pub fn text(result: &CallToolResult) -> String {
    result.content.first().and_then(|block| block.as_text()).map(|text| text.text.clone()).unwrap_or_default()
}

/// A client that writes JSON-RPC lines by hand, for what a client library would never send:
/// on `client`, the other end of a byte stream a server serves, it has sent `initialize` and
/// `notifications/initialized`.
pub struct RawLines {
    lines: tokio::io::Lines<tokio::io::BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
    write: tokio::io::WriteHalf<tokio::io::DuplexStream>,
}

impl RawLines {
    pub async fn initialized(client: tokio::io::DuplexStream) -> RawLines {
        use tokio::io::AsyncBufReadExt as _;
        let (read, write) = tokio::io::split(client);
        let mut raw = RawLines { lines: tokio::io::BufReader::new(read).lines(), write };
        let initialize = json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}});
        let answer = raw.ask(&initialize).await;
        assert_eq!(answer["id"], 0, "{answer}");
        raw.send(&json!({"jsonrpc":"2.0","method":"notifications/initialized"})).await;
        raw
    }

    pub async fn send(&mut self, message: &Value) {
        use tokio::io::AsyncWriteExt as _;
        self.write.write_all(format!("{message}\n").as_bytes()).await.unwrap();
    }

    /// Sends a request and reads the line that answers it.
    pub async fn ask(&mut self, request: &Value) -> Value {
        self.send(request).await;
        let line = self.lines.next_line().await.unwrap().expect("the server answers");
        serde_json::from_str(&line).unwrap()
    }
}

/// POSTs `body` to an MCP endpoint as a client of the streamable HTTP transport would (its
/// content type and `Accept`), whatever the body is.
pub async fn post_raw(url: &str, body: &str) -> reqwest::Response {
    reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body.to_owned())
        .send()
        .await
        .unwrap()
}
