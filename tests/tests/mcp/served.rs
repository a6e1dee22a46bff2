//! Prompts, resources, resource templates and completion served beside the tools, written
//! with `#[prompt]` and `#[resource]` and driven through rmcp's own client: typed arguments
//! decoded from MCP's strings and validated, the protocol's codes for what is refused,
//! subscriptions and list changes told to the sessions that asked.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    ArgumentInfo, ClientCapabilities, ClientConfig, CompleteRequestParams, CompletionContext, GetPromptRequestParams,
    Implementation, ReadResourceRequestParams, Reference, ResourceUpdatedNotificationParam, SubscribeRequestParams,
    UnsubscribeRequestParams,
};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::{ClientHandler, RoleClient, ServiceExt as _};
use serde_json::{Value, json};
use tool_core::mcp::{McpServer, PromptMessage, Prompts, Resources, Subscription, prompt, resource};
use tool_core::{Content, Registry, ToolArgs, context::Role, tool};

/// A language a review can be written for.
#[derive(Debug, ToolArgs)]
#[serde(rename_all = "lowercase")]
enum Language {
    Rust,
    Ruby,
    Go,
}

/// Review a piece of code
///
/// # Arguments
/// * `code` - The code to review
/// * `language` - Its language
/// * `rounds` - How many rounds of review
#[prompt(title = "Code review")]
fn code_review(code: String, language: Language, #[param(minimum = 1, maximum = 3)] rounds: u32) -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(format!("Review this {language:?} code in {rounds} rounds:\n{code}")),
        PromptMessage::assistant("I will start with the first round."),
    ]
}

/// Greets someone
#[prompt(name = "greet")]
fn greeting(name: Option<String>) -> String {
    format!("Say hello to {}", name.as_deref().unwrap_or("everyone"))
}

/// The whole graph
#[resource(uri = "memory://graph", mime_type = "application/json")]
fn graph() -> String {
    json!({"entities": ["ann"]}).to_string()
}

/// One numbered note
#[resource(uri = "notes://{id}")]
fn note(#[param(maximum = 99)] id: u32) -> Result<String, String> {
    if id == 13 { Err("note 13 is lost".to_owned()) } else { Ok(format!("note {id}")) }
}

/// A file under the root
#[resource(uri = "file:///{+path}", mime_type = "text/markdown")]
fn file(path: String) -> Vec<Content> {
    vec![Content::text(format!("# {path}")), Content::image(&[1, 2], "image/png")]
}

pub(crate) fn prompts() -> Prompts {
    let mut prompts = Prompts::new();
    prompts.add(CodeReviewPrompt).unwrap().add(GreetingPrompt).unwrap();
    prompts
}

pub(crate) fn resources() -> Resources {
    let mut resources = Resources::new();
    resources.add(GraphResource).unwrap().add(NoteResource).unwrap().add(FileResource).unwrap();
    resources.complete("file:///{+path}", "path", |typed, given| {
        let root = given.get("root").and_then(Value::as_str).unwrap_or("docs");
        ["readme.md", "guide.md"].iter().map(|name| format!("{root}/{name}")).filter(|p| p.starts_with(typed)).collect()
    });
    resources
}

/// A client that counts the notifications of resources and prompts.
#[derive(Clone, Default)]
struct Watcher {
    updated: Arc<Mutex<Vec<String>>>,
    resources_changed: Arc<AtomicUsize>,
    prompts_changed: Arc<AtomicUsize>,
}

impl ClientHandler for Watcher {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(ClientCapabilities::default(), Implementation::new("watcher", "1.0.0"))
    }

    async fn on_resource_updated(&self, params: ResourceUpdatedNotificationParam, _: NotificationContext<RoleClient>) {
        self.updated.lock().unwrap().push(params.uri);
    }

    async fn on_resource_list_changed(&self, _: NotificationContext<RoleClient>) {
        self.resources_changed.fetch_add(1, Ordering::SeqCst);
    }

    async fn on_prompt_list_changed(&self, _: NotificationContext<RoleClient>) {
        self.prompts_changed.fetch_add(1, Ordering::SeqCst);
    }
}

type Connection = RunningService<RoleClient, Watcher>;

async fn connect(server: McpServer, watcher: Watcher) -> Connection {
    let (client_end, server_end) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(tool_core::mcp::serve_io(server, read, write));
    watcher.serve(client_end).await.expect("the client connects")
}

fn server() -> McpServer {
    McpServer::new(Registry::new()).with_prompts(prompts()).with_resources(resources())
}

fn object(value: Value) -> serde_json::Map<String, Value> {
    let Value::Object(map) = value else { panic!("an object") };
    map
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prompts_are_listed_with_their_arguments_and_got_with_typed_validated_values() {
    let client = connect(server(), Watcher::default()).await;
    let capabilities = client.peer_info().unwrap().capabilities.clone();
    assert_eq!(serde_json::to_value(&capabilities.prompts).unwrap(), json!({"listChanged": true}));
    assert!(capabilities.completions.is_some());

    let listed = serde_json::to_value(client.list_all_prompts().await.unwrap()).unwrap();
    assert_eq!(
        listed,
        json!([
            {"name": "code_review", "title": "Code review", "description": "Review a piece of code", "arguments": [
                {"name": "code", "description": "The code to review", "required": true},
                {"name": "language", "description": "Its language", "required": true},
                {"name": "rounds", "description": "How many rounds of review", "required": true},
            ]},
            {"name": "greet", "description": "Greets someone", "arguments": [{"name": "name", "required": false}]},
        ])
    );

    let arguments = object(json!({"code": "fn main() {}", "language": "rust", "rounds": "2"}));
    let got = client.get_prompt(GetPromptRequestParams::new("code_review").with_arguments(arguments)).await.unwrap();
    let got = serde_json::to_value(got).unwrap();
    assert_eq!(got["description"], "Review a piece of code");
    assert_eq!(
        got["messages"],
        json!([
            {"role": "user", "content": {"type": "text", "text": "Review this Rust code in 2 rounds:\nfn main() {}"}},
            {"role": "assistant", "content": {"type": "text", "text": "I will start with the first round."}},
        ])
    );
    let greeted = client.get_prompt(GetPromptRequestParams::new("greet")).await.unwrap();
    assert_eq!(greeted.messages.len(), 1);
    assert_eq!(serde_json::to_value(&greeted.messages[0]).unwrap()["content"]["text"], "Say hello to everyone");

    // Every rule broken at once: each named, with the protocol's invalid-params code.
    let arguments = object(json!({"language": "cobol", "rounds": "9", "extra": "x"}));
    let refused = client
        .get_prompt(GetPromptRequestParams::new("code_review").with_arguments(arguments))
        .await
        .unwrap_err()
        .to_string();
    assert!(refused.contains("-32602"), "{refused}");
    for named in ["code", "/language", "/rounds", "<= 3", "extra"] {
        assert!(refused.contains(named), "{named} in {refused}");
    }
    let unknown = client.get_prompt(GetPromptRequestParams::new("nope")).await.unwrap_err().to_string();
    assert!(unknown.contains("-32602") && unknown.contains("Unknown prompt: nope"), "{unknown}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resources_and_templates_are_read_with_typed_variables_and_the_protocols_codes() {
    let client = connect(server(), Watcher::default()).await;
    let listed = serde_json::to_value(client.list_all_resources().await.unwrap()).unwrap();
    assert_eq!(
        listed,
        json!([{"uri": "memory://graph", "name": "graph", "description": "The whole graph", "mimeType": "application/json"}])
    );
    let templates = serde_json::to_value(client.list_all_resource_templates().await.unwrap()).unwrap();
    let uris: Vec<&str> = templates.as_array().unwrap().iter().map(|t| t["uriTemplate"].as_str().unwrap()).collect();
    assert_eq!(uris, ["notes://{id}", "file:///{+path}"]);

    let read = |uri: &'static str| client.read_resource(ReadResourceRequestParams::new(uri));
    let graph = serde_json::to_value(read("memory://graph").await.unwrap()).unwrap();
    assert_eq!(
        graph["contents"],
        json!([{"uri": "memory://graph", "mimeType": "application/json", "text": "{\"entities\":[\"ann\"]}"}])
    );
    let note = serde_json::to_value(read("notes://12").await.unwrap()).unwrap();
    assert_eq!(note["contents"], json!([{"uri": "notes://12", "mimeType": "text/plain", "text": "note 12"}]));
    let file = serde_json::to_value(read("file:///guides/a%20b.md").await.unwrap()).unwrap();
    assert_eq!(
        file["contents"],
        json!([
            {"uri": "file:///guides/a%20b.md", "mimeType": "text/markdown", "text": "# guides/a b.md"},
            {"uri": "file:///guides/a%20b.md", "mimeType": "image/png", "blob": "AQI="},
        ])
    );

    for (uri, code, says) in [
        ("notes://abc", "-32602", "/id"),
        ("notes://120", "-32602", "<= 99"),
        ("notes://13", "-32603", "note 13 is lost"),
        ("notes://1/2", "-32002", "Resource not found: notes://1/2"),
        ("nothing://here", "-32002", "Resource not found"),
    ] {
        let error = read(uri).await.unwrap_err().to_string();
        assert!(error.contains(code) && error.contains(says), "{uri}: {error}");
    }
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn arguments_and_variables_are_completed_from_their_types_or_the_authors_completer() {
    let client = connect(server(), Watcher::default()).await;
    let complete = |reference: Reference, name: &str, value: &str, context: Option<CompletionContext>| {
        let mut request = CompleteRequestParams::new(reference, ArgumentInfo::new(name, value));
        request.context = context;
        client.complete(request)
    };
    let languages = complete(Reference::for_prompt("code_review"), "language", "r", None).await.unwrap();
    assert_eq!(languages.completion.values, ["rust", "ruby"]);
    assert_eq!(languages.completion.has_more, Some(false));
    let free = complete(Reference::for_prompt("code_review"), "code", "", None).await.unwrap();
    assert!(free.completion.values.is_empty());

    let paths = complete(Reference::for_resource("file:///{+path}"), "path", "docs/r", None).await.unwrap();
    assert_eq!(paths.completion.values, ["docs/readme.md"]);
    let given = CompletionContext::with_arguments([("root".to_owned(), "src".to_owned())].into());
    let rooted = complete(Reference::for_resource("file:///{+path}"), "path", "", Some(given)).await.unwrap();
    assert_eq!(rooted.completion.values, ["src/readme.md", "src/guide.md"]);

    let unknown = complete(Reference::for_prompt("nope"), "x", "", None).await.unwrap_err().to_string();
    assert!(unknown.contains("-32602"), "{unknown}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn subscribers_hear_of_updates_and_every_session_of_list_changes() {
    let server = server();
    let handle = server.resources_handle();
    let prompts_handle = server.prompts_handle();
    let (one, other) = (Watcher::default(), Watcher::default());
    let first = connect(server.new_session(), one.clone()).await;
    let second = connect(server.new_session(), other.clone()).await;

    first.subscribe(SubscribeRequestParams::new("notes://7")).await.unwrap();
    let unknown = first.subscribe(SubscribeRequestParams::new("nothing://here")).await.unwrap_err().to_string();
    assert!(unknown.contains("-32002"), "{unknown}");
    assert_eq!(handle.updated("notes://7").await, 1);
    assert_eq!(handle.updated("memory://graph").await, 0, "nobody subscribed to it");
    let heard = || one.updated.lock().unwrap().clone();
    assert!(crate::fixture::eventually(Duration::from_secs(10), || heard() == ["notes://7"]).await, "{:?}", heard());
    assert!(other.updated.lock().unwrap().is_empty(), "the other session never subscribed");
    first.unsubscribe(UnsubscribeRequestParams::new("notes://7")).await.unwrap();
    assert_eq!(handle.updated("notes://7").await, 0);

    // A change reaches every session, and the next listing has it.
    handle.update(|resources| *resources = Resources::new()).await;
    prompts_handle.update(|prompts| *prompts = Prompts::new()).await;
    for watcher in [&one, &other] {
        let told = || {
            watcher.resources_changed.load(Ordering::SeqCst) == 1 && watcher.prompts_changed.load(Ordering::SeqCst) == 1
        };
        assert!(crate::fixture::eventually(Duration::from_secs(10), told).await);
    }
    assert!(second.list_all_resources().await.unwrap().is_empty());
    assert!(second.list_all_prompts().await.unwrap().is_empty());
    first.cancel().await.unwrap();
    second.cancel().await.unwrap();
}

/// The server hears each session's subscriptions (a refused one never reaches it), knows
/// which URIs someone watches, and sends list changes on its own word.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_hears_subscriptions_and_knows_what_is_watched() {
    let heard: Arc<Mutex<Vec<(String, Subscription)>>> = Arc::default();
    let server = {
        let heard = Arc::clone(&heard);
        server().on_subscription(move |caller, change| {
            let client = caller.client().map(|client| client.name().to_owned()).unwrap_or_default();
            heard.lock().unwrap().push((client, change.clone()));
        })
    };
    let (handle, prompts_handle) = (server.resources_handle(), server.prompts_handle());
    let (one, other) = (Watcher::default(), Watcher::default());
    let first = connect(server.new_session(), one.clone()).await;
    let second = connect(server.new_session(), other.clone()).await;
    first.subscribe(SubscribeRequestParams::new("notes://7")).await.unwrap();
    first.subscribe(SubscribeRequestParams::new("memory://graph")).await.unwrap();
    second.subscribe(SubscribeRequestParams::new("notes://7")).await.unwrap();
    first.subscribe(SubscribeRequestParams::new("nothing://here")).await.unwrap_err();
    assert_eq!(handle.subscribed(), ["memory://graph", "notes://7"]);
    first.unsubscribe(UnsubscribeRequestParams::new("memory://graph")).await.unwrap();
    assert_eq!(handle.subscribed(), ["notes://7"]);
    let expected = [
        Subscription::Subscribed("notes://7".into()),
        Subscription::Subscribed("memory://graph".into()),
        Subscription::Subscribed("notes://7".into()),
        Subscription::Unsubscribed("memory://graph".into()),
    ];
    let heard = heard.lock().unwrap().clone();
    assert_eq!(heard.iter().map(|(_, change)| change.clone()).collect::<Vec<_>>(), expected);
    assert!(heard.iter().all(|(client, _)| client == "watcher"), "{heard:?}");

    assert_eq!((handle.list_changed().await, prompts_handle.list_changed().await), (2, 2));
    for watcher in [&one, &other] {
        let told = || {
            watcher.resources_changed.load(Ordering::SeqCst) == 1 && watcher.prompts_changed.load(Ordering::SeqCst) == 1
        };
        assert!(crate::fixture::eventually(Duration::from_secs(10), told).await);
    }
    second.cancel().await.unwrap();
    assert!(crate::fixture::eventually(Duration::from_secs(10), || handle.subscribed() == ["notes://7"]).await);
    first.cancel().await.unwrap();
    assert!(crate::fixture::eventually(Duration::from_secs(10), || handle.subscribed().is_empty()).await);
}

/// A prompt named as people name things
#[prompt(name = "Simple Prompt")]
fn simple_prompt() -> String {
    "Say hello.".to_owned()
}

/// The architecture notes
#[resource(uri = "docs://architecture", name = "architecture.md", mime_type = "text/markdown")]
fn architecture() -> String {
    "# Architecture".to_owned()
}

/// MCP restricts only tool names: a prompt's or a resource's is free text, listed and got as
/// written.
#[tokio::test]
async fn prompts_and_resources_take_free_text_names() {
    let mut prompts = Prompts::new();
    prompts.add(SimplePromptPrompt).unwrap();
    let mut resources = Resources::new();
    resources.add(ArchitectureResource).unwrap();
    let server = McpServer::new(Registry::new()).with_prompts(prompts).with_resources(resources);
    let connection = connect(server, Watcher::default()).await;
    let listed = connection.list_all_prompts().await.unwrap();
    assert_eq!(listed.iter().map(|prompt| prompt.name.as_str()).collect::<Vec<_>>(), ["Simple Prompt"]);
    let got = connection.get_prompt(GetPromptRequestParams::new("Simple Prompt")).await.unwrap();
    assert_eq!(got.messages.len(), 1);
    let listed = connection.list_all_resources().await.unwrap();
    assert_eq!(listed.iter().map(|resource| resource.name.as_str()).collect::<Vec<_>>(), ["architecture.md"]);
    connection.cancel().await.unwrap();
}

/// A user's profile
#[resource(uri = "users://{userId}/profile")]
fn profile_of(#[serde(rename = "userId")] user_id: String) -> String {
    format!("profile of {user_id}")
}

/// A user's card
#[resource(uri = "cards://{userId}")]
#[allow(non_snake_case)]
fn card(userId: String) -> String {
    format!("card of {userId}")
}

/// A resource's variables are its parameters' wire names: a `#[serde(rename)]` one, or one
/// the author's `#[allow(non_snake_case)]` lets stand (the generated struct warns of nothing;
/// clippy runs with `-D warnings`).
#[tokio::test]
async fn resource_variables_follow_serde_names() {
    let mut resources = Resources::new();
    resources.add(ProfileOfResource).unwrap().add(CardResource).unwrap();
    let server = McpServer::new(Registry::new()).with_resources(resources);
    let connection = connect(server, Watcher::default()).await;
    for (uri, expected) in [("users://42/profile", "profile of 42"), ("cards://7", "card of 7")] {
        let read = connection.read_resource(ReadResourceRequestParams::new(uri)).await.unwrap();
        let text = serde_json::to_value(&read.contents[0]).unwrap()["text"].clone();
        assert_eq!(text, expected);
    }
    connection.cancel().await.unwrap();
}

/// A user's notes, one page at a time.
#[derive(Debug, ToolArgs)]
struct PageArgs {
    user: String,
    page: u32,
}

/// A page of a user's notes
#[resource(uri = "users://{user}/notes")]
fn notes_page(args: PageArgs) -> String {
    format!("{} {}", args.user, args.page)
}

/// A user's profile
#[resource(uri = "users://{user}/profile")]
fn profile(user: String) -> String {
    user
}

/// An argument struct is checked against its URI when added (plain parameters are checked
/// at compile time: `tests/ui/resource_*.rs`); one URI is served once.
#[test]
fn a_template_whose_variables_are_not_the_fns_parameters_is_refused() {
    let mut resources = Resources::new();
    let missing = resources.add(NotesPageResource).unwrap_err().to_string();
    assert!(missing.contains("the parameter `page` is no variable of users://{user}/notes"), "{missing}");
    resources.add(ProfileResource).unwrap();
    let again = resources.add(ProfileResource).unwrap_err().to_string();
    assert!(again.contains("users://{user}/profile is served already"), "{again}");
    assert_eq!(resources.len(), 1);
    assert_eq!(PromptMessage::assistant("x").role, Role::Assistant);
}

/// A notebook whose prompts and resources read its own state.
struct Notebook {
    title: String,
}

#[tool_core::tools]
impl Notebook {
    /// Summarise the notebook
    #[prompt(name = "summarise")]
    fn summarise(&self, #[param(min_length = 1)] style: String) -> String {
        format!("Summarise {} in a {style} style", self.title)
    }

    /// One page of the notebook
    #[resource(uri = "notebook://pages/{page}", mime_type = "text/markdown")]
    fn page(&self, #[param(minimum = 1)] page: u32) -> String {
        format!("# {} page {page}", self.title)
    }

    /// How many pages there are
    #[tool]
    fn pages(&self) -> String {
        self.title.len().to_string()
    }
}

/// The methods of one `#[tools]` block are tools, prompts and resources on one shared value,
/// each added to its own collection.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tools_block_holds_prompts_and_resources_called_on_its_value() {
    let notebook = Arc::new(Notebook { title: "Field notes".to_owned() });
    let mut registry = Registry::new();
    registry.add_all(Arc::clone(&notebook)).unwrap();
    let mut prompts = Prompts::new();
    prompts.add_all(Arc::clone(&notebook)).unwrap();
    let mut resources = Resources::new();
    resources.add_all(notebook).unwrap();
    assert_eq!((registry.len(), prompts.len(), resources.len()), (1, 1, 1));
    let server = McpServer::new(registry).with_prompts(prompts).with_resources(resources);
    let client = connect(server, Watcher::default()).await;

    let arguments = object(json!({"style": "terse"}));
    let got = client.get_prompt(GetPromptRequestParams::new("summarise").with_arguments(arguments)).await.unwrap();
    assert_eq!(
        serde_json::to_value(&got.messages[0]).unwrap()["content"]["text"],
        "Summarise Field notes in a terse style"
    );
    let refused = client
        .get_prompt(GetPromptRequestParams::new("summarise").with_arguments(object(json!({"style": ""}))))
        .await
        .unwrap_err()
        .to_string();
    assert!(refused.contains("-32602") && refused.contains("/style"), "{refused}");

    let read = client.read_resource(ReadResourceRequestParams::new("notebook://pages/2")).await.unwrap();
    let read = serde_json::to_value(read).unwrap();
    assert_eq!(
        read["contents"],
        json!([{"uri": "notebook://pages/2", "mimeType": "text/markdown", "text": "# Field notes page 2"}])
    );
    let zero =
        client.read_resource(ReadResourceRequestParams::new("notebook://pages/0")).await.unwrap_err().to_string();
    assert!(zero.contains("-32602") && zero.contains(">= 1"), "{zero}");
    let templates = client.list_all_resource_templates().await.unwrap();
    assert_eq!(templates[0].uri_template, "notebook://pages/{page}");
    client.cancel().await.unwrap();
}

/// Over streamable HTTP a session's `resources/read` and `prompts/get` are answered on their
/// own HTTP request (as a plain tool call is), with the same results and errors as through
/// the session's handler.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_and_prompts_over_http_answer_as_over_a_pipe() {
    use rmcp::transport::StreamableHttpClientTransport;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let options = tool_core::mcp::HttpOptions::default();
    tokio::spawn(tool_core::mcp::serve_http_on(server(), listener, options, std::future::pending()));
    let over_http = Watcher::default().serve(StreamableHttpClientTransport::from_uri(url)).await.unwrap();
    let over_pipe = connect(server(), Watcher::default()).await;
    for client in [&over_http, &over_pipe] {
        let note = client.read_resource(ReadResourceRequestParams::new("notes://12")).await.unwrap();
        assert_eq!(serde_json::to_value(note).unwrap()["contents"][0]["text"], "note 12");
        let lost = client.read_resource(ReadResourceRequestParams::new("notes://13")).await.unwrap_err().to_string();
        assert!(lost.contains("-32603") && lost.contains("note 13 is lost"), "{lost}");
        let missing = client.read_resource(ReadResourceRequestParams::new("notes://")).await.unwrap_err().to_string();
        assert!(missing.contains("-32002"), "{missing}");
        let greeted = client.get_prompt(GetPromptRequestParams::new("greet")).await.unwrap();
        assert_eq!(serde_json::to_value(&greeted.messages[0]).unwrap()["content"]["text"], "Say hello to everyone");
        let unknown = client.get_prompt(GetPromptRequestParams::new("nope")).await.unwrap_err().to_string();
        assert!(unknown.contains("-32602"), "{unknown}");
    }
    over_http.cancel().await.unwrap();
    over_pipe.cancel().await.unwrap();
}

/// Thinks for a long time
#[prompt]
async fn ponder() -> String {
    tokio::time::sleep(Duration::from_secs(30)).await;
    "done".to_owned()
}

/// Loads slowly
#[resource(uri = "slow://thing")]
async fn slow_thing() -> String {
    tokio::time::sleep(Duration::from_secs(30)).await;
    "loaded".to_owned()
}

/// Prompts and resources take tower layers as tools do (here a timeout), on the same call
/// path: a layer's rejection is the request's error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prompts_and_resources_go_through_their_layers() {
    let timeout = || tower::timeout::TimeoutLayer::new(Duration::from_millis(50));
    let mut prompts = prompts();
    prompts.add(PonderPrompt).unwrap().layer(timeout());
    let mut resources = resources();
    resources.add(SlowThingResource).unwrap().layer(timeout());
    let server = McpServer::new(Registry::new()).with_prompts(prompts).with_resources(resources);
    let client = connect(server, Watcher::default()).await;
    let pondered = client.get_prompt(GetPromptRequestParams::new("ponder")).await.unwrap_err().to_string();
    assert!(pondered.contains("-32603") && pondered.contains("timed out"), "{pondered}");
    let loaded = client.read_resource(ReadResourceRequestParams::new("slow://thing")).await.unwrap_err().to_string();
    assert!(loaded.contains("-32603") && loaded.contains("timed out"), "{loaded}");
    // The others pass through the layer untouched.
    assert!(client.get_prompt(GetPromptRequestParams::new("greet")).await.is_ok());
    client.cancel().await.unwrap();
}
