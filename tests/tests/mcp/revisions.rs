//! No field outside the negotiated revision: every message the server sends, in each
//! revision it speaks (with `initialize` up to 2025-11-25, with each request's `_meta` from
//! 2026-07-28), is checked against that revision's official
//! `schema.json` (the MCP specification repository's `schema/<revision>/schema.json`,
//! committed under `tests/mcp/schema/`), made strict: an object that lists its properties
//! takes no others unless the schema leaves it open (`_meta`, `Result`, a tool's JSON Schema).
//! What the server does not yet gate is listed, with the spec's verdict, in
//! `tests/mcp/schema/expected.txt`; anything else fails, and so does a listed line that no
//! longer happens.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tool_core::mcp::McpServer;

const REVISIONS: [&str; 5] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];

/// Properties whose value is a JSON Schema of the tool's (any keyword goes there).
const OPEN: [&str; 2] = ["inputSchema", "outputSchema"];

/// `schema` made strict: an object schema listing `properties` and saying nothing of others
/// takes no others.
fn strict(schema: &mut Value) {
    let Value::Object(map) = schema else { return };
    for keyword in ["properties", "$defs", "definitions", "patternProperties"] {
        if let Some(Value::Object(named)) = map.get_mut(keyword) {
            for (name, sub) in named.iter_mut() {
                if keyword == "properties" && name == "params" {
                    meta_allowed(sub);
                }
                if !(keyword == "properties" && OPEN.contains(&name.as_str())) {
                    strict(sub);
                }
            }
        }
    }
    for keyword in ["items", "additionalProperties", "not", "if", "then", "else", "contains"] {
        if let Some(sub) = map.get_mut(keyword) {
            strict(sub);
        }
    }
    for keyword in ["anyOf", "oneOf", "prefixItems"] {
        if let Some(Value::Array(subs)) = map.get_mut(keyword) {
            subs.iter_mut().for_each(strict);
        }
    }
    // The parts of an `allOf` are open: each sees only its own properties.
    if map.contains_key("properties") && !map.contains_key("additionalProperties") {
        map.insert("additionalProperties".into(), Value::Bool(false));
    }
}

/// Every request's and notification's `params` may carry `_meta` in every revision: the base
/// `Request` and `Notification` define it (`progressToken`), and the definition generated for
/// each method drops the inherited key.
fn meta_allowed(params: &mut Value) {
    if let Some(Value::Object(properties)) = params.get_mut("properties") {
        properties.entry("_meta").or_insert_with(|| json!({"type": "object"}));
    }
}

/// Checks messages against one revision's definitions.
pub(crate) struct Revision {
    document: Value,
    defs: &'static str,
}

impl Revision {
    pub(crate) fn load(revision: &str) -> Revision {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("mcp/schema").join(format!("{revision}.json"));
        let mut document: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let defs = if document.get("$defs").is_some() { "$defs" } else { "definitions" };
        if let Some(Value::Object(named)) = document.get_mut(defs) {
            named.values_mut().for_each(strict);
        }
        Revision { document, defs }
    }

    /// `message` as the definition `name` has it: with `jsonrpc` and `id` from 2025-11-25,
    /// whose definitions include them, without them before.
    pub(crate) fn framed(&self, name: &str, message: &Value) -> Value {
        let mut message = message.clone();
        if self.document[self.defs][name]["properties"].get("jsonrpc").is_none()
            && let Value::Object(map) = &mut message
        {
            map.remove("jsonrpc");
            map.remove("id");
        }
        message
    }

    /// Whether the revision defines `name`.
    fn has(&self, name: &str) -> bool {
        self.document[self.defs].get(name).is_some()
    }

    /// What is wrong with `value` as the definition `name`, one line each.
    pub(crate) fn check(&self, name: &str, value: &Value) -> Vec<String> {
        let mut schema = self.document.clone();
        schema["$ref"] = json!(format!("#/{}/{name}", self.defs));
        let validator = jsonschema::validator_for(&schema).expect("the official schema compiles");
        validator.iter_errors(value).map(|error| format!("{name} {}: {error}", error.instance_path())).collect()
    }
}

/// The result definition of each request this test sends; from 2026-07-28 a request may be
/// answered with the input it needs instead (`resultType`).
fn result_of(method: &str, result: &Value) -> &'static str {
    if result.get("resultType") == Some(&json!("input_required")) {
        return "InputRequiredResult";
    }
    match method {
        "initialize" => "InitializeResult",
        "server/discover" => "DiscoverResult",
        "tools/list" => "ListToolsResult",
        "tools/call" => "CallToolResult",
        "prompts/list" => "ListPromptsResult",
        "prompts/get" => "GetPromptResult",
        "resources/list" => "ListResourcesResult",
        "resources/templates/list" => "ListResourceTemplatesResult",
        "resources/read" => "ReadResourceResult",
        "completion/complete" => "CompleteResult",
        _ => "Result",
    }
}

/// What a server sends on its own, by method.
fn message_of(method: &str) -> Option<&'static str> {
    Some(match method {
        "notifications/progress" => "ProgressNotification",
        "notifications/message" => "LoggingMessageNotification",
        "sampling/createMessage" => "CreateMessageRequest",
        "elicitation/create" => "ElicitRequest",
        _ => return None,
    })
}

fn server() -> McpServer {
    crate::fixture::server()
        .with_title("Everything")
        .with_prompts(crate::served::prompts())
        .with_resources(crate::served::resources())
}

/// The requests each revision is sent, after `initialize`.
fn requests(revision: &str) -> Vec<Value> {
    let call = |name: &str, arguments: Value| json!({"method": "tools/call", "params": {"name": name, "arguments": arguments}});
    let mut requests = vec![
        json!({"method": "tools/list"}),
        call("echo", json!({"zebra": "z", "apple": 1})),
        call("echo", json!({"zebra": ""})),
        call("boom", json!({})),
        call("count", json!({})),
        json!({"method": "tools/call", "params": {"name": "chatty", "arguments": {}, "_meta": {"progressToken": "p"}}}),
        call("ask_llm", json!({"prompt": "2+2?"})),
        json!({"method": "prompts/list"}),
        json!({"method": "prompts/get", "params": {"name": "code_review", "arguments": {"code": "x", "language": "rust", "rounds": "2"}}}),
        json!({"method": "resources/list"}),
        json!({"method": "resources/templates/list"}),
        json!({"method": "resources/read", "params": {"uri": "memory://graph"}}),
        json!({"method": "resources/read", "params": {"uri": "file:///docs/a.md"}}),
    ];
    if revision >= "2025-03-26" {
        requests.push(json!({"method": "completion/complete", "params": {"ref": {"type": "ref/prompt", "name": "code_review"}, "argument": {"name": "language", "value": "r"}}}));
    }
    if revision >= "2025-06-18" {
        requests.push(call("ask_user", json!({})));
    }
    requests
}

/// An answer to what the server asks the client.
fn answer(method: &str) -> Value {
    match method {
        "sampling/createMessage" => {
            json!({"role": "assistant", "content": {"type": "text", "text": "4"}, "model": "m"})
        }
        "elicitation/create" => json!({"action": "accept", "content": {"name": "Ada", "email": "ada@example.com"}}),
        _ => json!({}),
    }
}

/// Drives one revision's session over a pipe; every violation found, one line each.
async fn violations(revision: &str) -> Vec<String> {
    let schema = Revision::load(revision);
    let (client_end, server_end) = tokio::io::duplex(1 << 20);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(tool_core::mcp::serve_io(server(), read, write));
    let (read, mut write) = tokio::io::split(client_end);
    let mut lines = BufReader::new(read).lines();
    let mut found = Vec::new();
    let capabilities = json!({"sampling": {}, "elicitation": {}, "roots": {"listChanged": true}});
    let client = json!({"name": "strict", "version": "1"});
    // Up to 2025-11-25 a session starts with `initialize`; from 2026-07-28 each request names
    // its revision, client and capabilities in `_meta`, and `server/discover` says what the
    // server speaks.
    let sessionless = revision >= "2026-07-28";
    let first = if sessionless {
        json!({"method": "server/discover", "params": {}})
    } else {
        json!({"method": "initialize", "params": {"protocolVersion": revision, "capabilities": capabilities, "clientInfo": client}})
    };
    let mut requests = requests(revision);
    requests.insert(0, first);
    for (id, request) in requests.into_iter().enumerate() {
        let method = request["method"].as_str().unwrap().to_owned();
        let mut message = request;
        if sessionless {
            let meta = json!({"io.modelcontextprotocol/protocolVersion": revision, "io.modelcontextprotocol/clientCapabilities": capabilities, "io.modelcontextprotocol/clientInfo": client});
            let params = message.as_object_mut().unwrap().entry("params").or_insert_with(|| json!({}));
            let own = params.as_object_mut().unwrap().entry("_meta").or_insert_with(|| json!({}));
            own.as_object_mut().unwrap().extend(meta.as_object().unwrap().clone());
        }
        message["jsonrpc"] = json!("2.0");
        message["id"] = json!(id);
        write.write_all(format!("{message}\n").as_bytes()).await.unwrap();
        loop {
            let line = tokio::time::timeout(Duration::from_secs(10), lines.next_line()).await.expect("in time");
            let sent: Value = serde_json::from_str(&line.unwrap().expect("the server writes")).unwrap();
            if let Some(asked) = sent.get("method").and_then(Value::as_str) {
                match message_of(asked) {
                    Some(name) => found.extend(schema.check(name, &schema.framed(name, &sent))),
                    None => found.push(format!("{method}: the server sent {asked}, which this test does not check")),
                }
                if let Some(own_id) = sent.get("id") {
                    let reply = json!({"jsonrpc": "2.0", "id": own_id, "result": answer(asked)});
                    write.write_all(format!("{reply}\n").as_bytes()).await.unwrap();
                }
                continue;
            }
            if sent["id"] != json!(id) {
                continue;
            }
            match sent.get("result") {
                Some(result) => found.extend(schema.check(result_of(&method, result), result)),
                None if schema.has("JSONRPCErrorResponse") => found.extend(schema.check("JSONRPCErrorResponse", &sent)),
                None => found.extend(schema.check("JSONRPCError", &sent)),
            }
            break;
        }
        if id == 0 && !sessionless {
            let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
            write.write_all(format!("{initialized}\n").as_bytes()).await.unwrap();
        }
    }
    found.iter().map(|line| format!("{revision} {line}")).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_message_is_of_its_revision() {
    let mut found = BTreeSet::new();
    for revision in REVISIONS {
        found.extend(violations(revision).await);
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("mcp/schema/expected.txt");
    let expected: BTreeSet<String> = std::fs::read_to_string(&path)
        .unwrap_or_default()
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(str::to_owned)
        .collect();
    let new: Vec<&String> = found.difference(&expected).collect();
    let gone: Vec<&String> = expected.difference(&found).collect();
    assert!(new.is_empty() && gone.is_empty(), "outside their revision now:\n{new:#?}\nno longer seen:\n{gone:#?}");
}

/// Over HTTP a call of a tool without a context is answered on its own request: it too is
/// worded for the session's revision (`structuredContent` only from 2025-06-18).
#[tokio::test]
async fn a_call_answered_on_its_own_request_is_of_its_revision() {
    use rmcp::model::ProtocolVersion;
    let http = crate::fixture::Http::start(tool_core::mcp::HttpOptions::default()).await;
    for (version, structured) in [(ProtocolVersion::V_2025_03_26, false), (ProtocolVersion::V_2025_11_25, true)] {
        let client = crate::fixture::Client { version: Some(version.clone()), ..crate::fixture::Client::default() };
        let connection = http.connect(client).await;
        let result = crate::fixture::call(&connection, "count", json!({})).await.unwrap();
        assert_eq!(result.structured_content.is_some(), structured, "on {version}: {result:?}");
        connection.cancel().await.unwrap();
    }
}
