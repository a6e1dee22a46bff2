//! The A2A server: this crate's own client against it (a registry's tools as skills), and the
//! JSON-RPC binding driven by hand for what a client must be told (every error code, streams,
//! cancels, lists, continuing a task), two replicas sharing one task store, a bearer token.

use core::time::Duration;
use std::sync::Arc;

use serde_json::{Value, json};
use tool_core::a2a::server::{A2aServer, Artifact, Incoming, Outcome, TaskHandle};
use tool_core::a2a::{AgentSkill, Part, RemoteAgent, SkillFilter};
use tool_core::tasks::{MemoryTaskStore, TaskSettings};
use tool_core::{Registry, ToolArgs};

use crate::serving::serve;

async fn execute(request: Incoming, task: TaskHandle) -> Outcome {
    let text = request.text();
    if request.continues {
        return Outcome::Completed(vec![Artifact::new([Part::text(format!("forecast for {text}: sunny"))])]);
    }
    match text.as_str() {
        "hello" => Outcome::Message(vec![Part::text("hello to you")]),
        "weather" => Outcome::InputRequired(vec![Part::text("Which city?")]),
        "fail" => Outcome::Failed("the forecast service is down".to_owned()),
        "slow" => {
            task.working([Part::text("started")]).await;
            tokio::time::sleep(Duration::from_mins(1)).await;
            Outcome::Completed(Vec::new())
        }
        _ => {
            task.working([Part::text("working")]).await;
            task.artifact(Artifact::new([Part::text("first")])).await;
            Outcome::Completed(vec![Artifact::new([Part::text(format!("echo: {text}")), Part::data(json!({"n": 1}))])])
        }
    }
}

fn desk() -> A2aServer {
    A2aServer::new(execute)
        .with_info("Weather Desk", "Forecasts", "2.0.0")
        .with_skill(AgentSkill::new("forecast", "Forecast", "Forecasts a city's weather").with_tags(["weather"]))
}

async fn rpc_with(base: &str, body: &str, version: Option<&str>) -> Value {
    let mut request = reqwest::Client::new().post(format!("{base}/")).body(body.to_owned());
    request = request.header("content-type", "application/json");
    if let Some(version) = version {
        request = request.header("A2A-Version", version);
    }
    request.send().await.unwrap().json().await.unwrap()
}

async fn rpc(base: &str, method: &str, params: Value) -> Value {
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params});
    rpc_with(base, &body.to_string(), Some("1.0")).await
}

fn message(text: &str) -> Value {
    json!({"messageId": uuid::Uuid::new_v4().to_string(), "role": "ROLE_USER", "parts": [{"text": text}]})
}

fn send(text: &str) -> Value {
    json!({"message": message(text)})
}

fn code(reply: &Value) -> i64 {
    reply["error"]["code"].as_i64().unwrap_or_else(|| panic!("not an error: {reply}"))
}

#[derive(ToolArgs)]
struct AddArgs {
    /// The first term.
    #[param(maximum = 100)]
    a: i64,
    /// The second term.
    b: i64,
}

/// Adds two numbers.
#[tool_core::tool]
fn add(args: AddArgs) -> String {
    (args.a + args.b).to_string()
}

#[tokio::test]
async fn this_crates_client_calls_a_registry_served_as_an_agent() {
    let mut registry = Registry::new();
    registry.add(AddTool).unwrap();
    let base = serve(A2aServer::registry(registry).with_info("Calculator", "Adds", "1.0.0")).await;
    let card: Value = reqwest::get(format!("{base}/.well-known/agent-card.json")).await.unwrap().json().await.unwrap();
    assert_eq!(card["skills"][0]["id"], "add");
    let interface = |url: String, binding: &str, version: &str| json!({"url": url, "protocolBinding": binding, "protocolVersion": version});
    let interfaces = [
        interface(format!("{base}/"), "JSONRPC", "1.0"),
        interface(base.clone(), "HTTP+JSON", "1.0"),
        interface(format!("{base}/"), "JSONRPC", "0.3"),
    ];
    assert_eq!(card["supportedInterfaces"], json!(interfaces));

    let agent = RemoteAgent::connect(&format!("{base}/.well-known/agent-card.json")).await.unwrap();
    let tools = agent.tools(&SkillFilter::all()).unwrap();
    assert_eq!(tools.names(), ["a2a_calculator_add"]);
    // The same skills as a tool source, resolved per run beside the program's own tools.
    let source = agent.source(SkillFilter::all());
    assert_eq!(tool_core::registry::ToolSource::label(&source), "a2a:calculator");
    let mut native = Registry::new();
    native.add(AddTool).unwrap();
    let sources = tool_core::registry::ToolSources::new().native(native).source(source);
    assert_eq!(sources.resolve().await.unwrap().names(), ["a2a_calculator_add", "add"]);
    let call = |arguments: Value| {
        let tools = &tools;
        async move {
            let message = json!({"message": json!({"tool": "add", "arguments": arguments}).to_string()});
            tools.call_async(&tools.context(), "a2a_calculator_add", message).await
        }
    };
    let sum = call(json!({"a": 2, "b": 3})).await.unwrap();
    assert_eq!(sum.to_text(), "5");
    // Validated on the server as every call is: the violation named, the task rejected.
    let refused = call(json!({"a": 200, "b": "x"})).await.unwrap_err().to_string();
    assert!(
        refused.contains("/a: must be <= 100, got 200") && refused.contains("/b: expected an integer"),
        "{refused}"
    );
    assert!(refused.contains("rejected"), "{refused}");
}

#[tokio::test]
async fn every_bad_request_gets_the_spec_s_code() {
    let base = serve(desk()).await;
    assert_eq!(code(&rpc_with(&base, "{not json", Some("1.0")).await), -32700);
    assert_eq!(code(&rpc_with(&base, r#"{"jsonrpc": "1.0", "id": 1, "method": "GetTask"}"#, None).await), -32600);
    assert_eq!(
        code(&rpc_with(&base, r#"{"jsonrpc": "2.0", "id": {"a": 1}, "method": "GetTask"}"#, None).await),
        -32600
    );
    assert_eq!(code(&rpc_with(&base, r#"[{"jsonrpc": "2.0", "id": 1, "method": "GetTask"}]"#, None).await), -32600);
    assert_eq!(code(&rpc(&base, "SendMessageXXX", json!({})).await), -32601);
    let invalid = rpc(
        &base,
        "SendMessage",
        json!({"message": {"messageId": "", "role": "ROLE_USER", "parts": [{"text": "a", "data": 1}]}}),
    )
    .await;
    assert_eq!(code(&invalid), -32602);
    let text = invalid["error"]["message"].as_str().unwrap();
    assert!(text.contains("params.message.messageId") && text.contains("params.message.parts[0]"), "{text}");
    assert_eq!(invalid["error"]["data"][0]["reason"], "INVALID_PARAMS");
    let unknown = rpc(&base, "GetTask", json!({"id": "nope"})).await;
    assert_eq!((code(&unknown), &unknown["error"]["data"][0]["reason"]), (-32001, &json!("TASK_NOT_FOUND")));
    assert_eq!(code(&rpc(&base, "CreateTaskPushNotificationConfig", json!({})).await), -32602, "no task named");
    // Another version named in the header for 1.0's methods: VersionNotSupported.
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": send("hi")}).to_string();
    assert_eq!(code(&rpc_with(&base, &body, Some("0.3")).await), -32009);
    assert_eq!(code(&rpc_with(&base, &body, Some("2.0")).await), -32009);
    // No header but 1.0's methods: served.
    assert_eq!(rpc_with(&base, &body, None).await["result"]["task"]["status"]["state"], "TASK_STATE_COMPLETED");
}

#[tokio::test]
async fn messages_tasks_and_continuations() {
    let base = serve(desk()).await;
    let direct = rpc(&base, "SendMessage", send("hello")).await;
    assert_eq!(direct["result"]["message"]["parts"][0]["text"], "hello to you");
    assert!(direct["result"]["message"].get("taskId").is_none(), "a direct reply makes no task: {direct}");

    let done = &rpc(&base, "SendMessage", send("rain")).await["result"]["task"];
    assert_eq!(done["status"]["state"], "TASK_STATE_COMPLETED");
    let texts: Vec<&Value> = done["artifacts"].as_array().unwrap().iter().map(|a| &a["parts"][0]["text"]).collect();
    assert_eq!(texts, ["first", "echo: rain"]);
    assert_eq!(done["artifacts"][1]["parts"][1]["data"], json!({"n": 1}));
    let history = rpc(&base, "GetTask", json!({"id": done["id"], "historyLength": 1})).await;
    assert_eq!(history["result"]["history"].as_array().unwrap().len(), 1);

    let asked = rpc(&base, "SendMessage", send("weather")).await["result"]["task"].clone();
    assert_eq!(asked["status"]["state"], "TASK_STATE_INPUT_REQUIRED");
    assert_eq!(asked["status"]["message"]["parts"][0]["text"], "Which city?");
    let wrong_context = json!({"message": {"taskId": asked["id"], "contextId": "other", "messageId": "m", "role": "ROLE_USER", "parts": [{"text": "Oslo"}]}});
    assert_eq!(code(&rpc(&base, "SendMessage", wrong_context).await), -32602);
    let answer = json!({"message": {"taskId": asked["id"], "messageId": "m2", "role": "ROLE_USER", "parts": [{"text": "Oslo"}]}});
    let answered = rpc(&base, "SendMessage", answer.clone()).await["result"]["task"].clone();
    assert_eq!((&answered["id"], &answered["status"]["state"]), (&asked["id"], &json!("TASK_STATE_COMPLETED")));
    assert_eq!(answered["artifacts"][0]["parts"][0]["text"], "forecast for Oslo: sunny");
    assert_eq!(answered["history"].as_array().unwrap().len(), 3, "question, its asking, the answer: {answered}");
    // A terminal task takes no more messages.
    assert_eq!(code(&rpc(&base, "SendMessage", answer).await), -32004);

    let failed = &rpc(&base, "SendMessage", send("fail")).await["result"]["task"];
    assert_eq!(failed["status"]["state"], "TASK_STATE_FAILED");
    assert_eq!(failed["status"]["message"]["parts"][0]["text"], "the forecast service is down");
}

/// The events of a streamed answer, until the server closes it.
async fn events(base: &str, method: &str, params: Value) -> Vec<Value> {
    let body = json!({"jsonrpc": "2.0", "id": 3, "method": method, "params": params});
    let response = reqwest::Client::new().post(format!("{base}/")).json(&body).send().await.unwrap();
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let text = response.text().await.unwrap();
    text.lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .map(|data| serde_json::from_str(data).unwrap())
        .collect()
}

#[tokio::test]
async fn streams_report_each_step_and_close_at_the_end() {
    let base = serve(desk()).await;
    let streamed = events(&base, "SendStreamingMessage", send("rain")).await;
    let kinds: Vec<&str> =
        streamed.iter().map(|event| event["result"].as_object().unwrap().keys().next().unwrap().as_str()).collect();
    assert_eq!(kinds, ["task", "statusUpdate", "artifactUpdate", "artifactUpdate", "statusUpdate"]);
    assert_eq!(streamed[1]["result"]["statusUpdate"]["status"]["state"], "TASK_STATE_WORKING");
    assert_eq!(streamed[4]["result"]["statusUpdate"]["status"]["state"], "TASK_STATE_COMPLETED");
    assert!(streamed.iter().all(|event| event["id"] == 3));
    let direct = events(&base, "SendStreamingMessage", send("hello")).await;
    assert_eq!(direct.len(), 1);
    assert_eq!(direct[0]["result"]["message"]["role"], "ROLE_AGENT");
}

#[tokio::test]
async fn cancel_subscribe_and_list() {
    let base = serve(desk()).await;
    let params = json!({"message": message("slow"), "configuration": {"returnImmediately": true}});
    let slow = rpc(&base, "SendMessage", params).await["result"]["task"].clone();
    assert_eq!(slow["status"]["state"], "TASK_STATE_SUBMITTED");
    // A subscriber sees the task, then its updates, and its stream ends with the cancel.
    let id = slow["id"].clone();
    let subscriber = tokio::spawn({
        let base = base.clone();
        async move { events(&base, "SubscribeToTask", json!({"id": id})).await }
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let canceled = rpc(&base, "CancelTask", json!({"id": slow["id"]})).await;
    assert_eq!(canceled["result"]["status"]["state"], "TASK_STATE_CANCELED");
    let seen = subscriber.await.unwrap();
    assert_eq!(seen.first().unwrap()["result"]["task"]["id"], slow["id"]);
    assert_eq!(seen.last().unwrap()["result"]["statusUpdate"]["status"]["state"], "TASK_STATE_CANCELED");
    let again = rpc(&base, "CancelTask", json!({"id": slow["id"]})).await;
    assert_eq!((code(&again), &again["error"]["data"][0]["reason"]), (-32002, &json!("TASK_NOT_CANCELABLE")));
    assert_eq!(code(&rpc(&base, "SubscribeToTask", json!({"id": slow["id"]})).await), -32004);
    // Asked for as a stream, the error is the stream's one event.
    let body = json!({"jsonrpc": "2.0", "id": 3, "method": "SubscribeToTask", "params": {"id": "nope"}});
    let streamed = reqwest::Client::new()
        .post(format!("{base}/"))
        .header("accept", "text/event-stream")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(streamed.headers()["content-type"], "text/event-stream");
    let event = streamed.text().await.unwrap();
    let event: Value = serde_json::from_str(event.trim().strip_prefix("data: ").unwrap()).unwrap();
    assert_eq!(code(&event), -32001);

    let asked = rpc(&base, "SendMessage", send("weather")).await["result"]["task"].clone();
    rpc(&base, "SendMessage", send("rain")).await;
    let all = rpc(&base, "ListTasks", json!({})).await["result"].clone();
    assert_eq!((all["totalSize"].as_u64(), all["tasks"].as_array().unwrap().len()), (Some(3), 3));
    assert!(all["tasks"][0].get("artifacts").is_none(), "artifacts only when asked");
    let waiting = rpc(&base, "ListTasks", json!({"status": "TASK_STATE_INPUT_REQUIRED"})).await["result"].clone();
    assert_eq!(waiting["tasks"][0]["id"], asked["id"]);
    let first = rpc(&base, "ListTasks", json!({"pageSize": 2})).await["result"].clone();
    let token = first["nextPageToken"].as_str().unwrap();
    assert_eq!((first["pageSize"].as_u64(), token.is_empty()), (Some(2), false));
    let second = rpc(&base, "ListTasks", json!({"pageSize": 2, "pageToken": token})).await["result"].clone();
    assert_eq!((second["pageSize"].as_u64(), second["nextPageToken"].as_str()), (Some(1), Some("")));
    assert_eq!(code(&rpc(&base, "ListTasks", json!({"pageToken": "2"})).await), -32602, "not a token it gave");
    assert_eq!(code(&rpc(&base, "ListTasks", json!({"status": "done"})).await), -32602);
    assert_eq!(code(&rpc(&base, "ListTasks", json!({"statusTimestampAfter": "yesterday"})).await), -32602);
    let later = rpc(&base, "ListTasks", json!({"statusTimestampAfter": "2999-01-01T00:00:00Z"})).await;
    assert_eq!(later["result"]["totalSize"], 0);
}

#[tokio::test]
async fn replicas_share_their_tasks_through_the_store() {
    let store = Arc::new(MemoryTaskStore::new());
    let mut settings = TaskSettings::default();
    settings.poll_interval = Duration::from_millis(50);
    let a = serve(desk().with_task_store(Arc::clone(&store), settings.clone())).await;
    let b = serve(desk().with_task_store(Arc::clone(&store), settings)).await;

    let asked = rpc(&a, "SendMessage", send("weather")).await["result"]["task"].clone();
    assert_eq!(
        rpc(&b, "GetTask", json!({"id": asked["id"]})).await["result"]["status"]["state"],
        "TASK_STATE_INPUT_REQUIRED"
    );
    let answer =
        json!({"message": {"taskId": asked["id"], "messageId": "m", "role": "ROLE_USER", "parts": [{"text": "Rome"}]}});
    let answered = rpc(&b, "SendMessage", answer).await;
    assert_eq!(answered["result"]["task"]["artifacts"][0]["parts"][0]["text"], "forecast for Rome: sunny");

    // A task working on A, canceled through B: A's run sees it in the store and stops.
    let params = json!({"message": message("slow"), "configuration": {"returnImmediately": true}});
    let slow = rpc(&a, "SendMessage", params).await["result"]["task"].clone();
    let canceled = rpc(&b, "CancelTask", json!({"id": slow["id"]})).await;
    assert_eq!(canceled["result"]["status"]["state"], "TASK_STATE_CANCELED", "{canceled}");
    assert_eq!(rpc(&a, "GetTask", json!({"id": slow["id"]})).await["result"]["status"]["state"], "TASK_STATE_CANCELED");
    assert_eq!(rpc(&b, "ListTasks", json!({})).await["result"]["totalSize"], 2);
}

#[tokio::test]
async fn a_bearer_token_guards_everything_but_the_card() {
    let base = serve(desk().with_bearer(|token| token == "s3cret")).await;
    let card: Value = reqwest::get(format!("{base}/.well-known/agent-card.json")).await.unwrap().json().await.unwrap();
    assert_eq!(card["securitySchemes"]["bearer"]["httpAuthSecurityScheme"]["scheme"], "Bearer");
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": send("hello")});
    let client = reqwest::Client::new();
    let refused = client.post(format!("{base}/")).json(&body).send().await.unwrap();
    assert_eq!(refused.status(), 401);
    assert_eq!(refused.headers()["www-authenticate"], "Bearer");
    let wrong = client.post(format!("{base}/")).bearer_auth("guess").json(&body).send().await.unwrap();
    assert_eq!(wrong.status(), 401);
    let served: Value =
        client.post(format!("{base}/")).bearer_auth("s3cret").json(&body).send().await.unwrap().json().await.unwrap();
    assert_eq!(served["result"]["message"]["parts"][0]["text"], "hello to you");
}

#[tokio::test]
async fn clients_of_0_3_are_served_in_0_3_s_shapes() {
    let base = serve(desk()).await;
    let legacy = |text: &str| json!({"message": {"kind": "message", "messageId": "m1", "role": "user", "parts": [{"kind": "text", "text": text}]}});
    let asked = rpc_with(
        &base,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": legacy("weather")}).to_string(),
        None,
    )
    .await;
    let task = &asked["result"];
    assert_eq!((&task["kind"], &task["status"]["state"]), (&json!("task"), &json!("input-required")), "{asked}");
    assert_eq!(task["status"]["message"]["role"], "agent");
    assert_eq!(task["status"]["message"]["parts"][0], json!({"kind": "text", "text": "Which city?"}));
    assert_eq!(task["history"][0]["parts"][0]["kind"], "text");
    let got = rpc_with(
        &base,
        &json!({"jsonrpc": "2.0", "id": 2, "method": "tasks/get", "params": {"id": task["id"]}}).to_string(),
        None,
    )
    .await;
    assert_eq!(got["result"]["status"]["state"], "input-required");
    let streamed = events(&base, "message/stream", legacy("rain")).await;
    let kinds: Vec<&Value> = streamed.iter().map(|event| &event["result"]["kind"]).collect();
    assert_eq!(kinds, ["task", "status-update", "artifact-update", "artifact-update", "status-update"]);
    assert_eq!((&streamed[1]["result"]["final"], &streamed[4]["result"]["final"]), (&json!(false), &json!(true)));
    assert_eq!(streamed[3]["result"]["artifact"]["parts"][1], json!({"kind": "data", "data": {"n": 1}}));

    // This crate's client, told the card speaks 0.3 only, continues the task through it.
    let mut card: Value =
        reqwest::get(format!("{base}/.well-known/agent-card.json")).await.unwrap().json().await.unwrap();
    card["supportedInterfaces"] =
        json!([{"url": format!("{base}/"), "protocolBinding": "JSONRPC", "protocolVersion": "0.3"}]);
    let agent = RemoteAgent::from_card(tool_core::a2a::AgentCard::from_value(card).unwrap()).unwrap();
    let tools = agent.tools(&SkillFilter::all()).unwrap();
    let context = tools.context();
    let call = |arguments: Value| tools.call_async(&context, "a2a_weather_desk_forecast", arguments.to_string());
    let asked = call(json!({"message": "weather"})).await.unwrap();
    let ids = asked.structured().unwrap().clone();
    assert_eq!(ids["state"], "input_required");
    let done =
        call(json!({"message": "Oslo", "task_id": ids["task_id"], "context_id": ids["context_id"]})).await.unwrap();
    assert_eq!(done.to_text(), "forecast for Oslo: sunny");
}

/// Tokens `alice` and `bob`, each its own subject.
struct Names;

impl tool_core::oauth::TokenVerifier for Names {
    fn verify<'a>(&'a self, token: &'a str) -> tool_core::oauth::VerifyFuture<'a> {
        let claims = match token {
            "alice" | "bob" => {
                let claims = json!({"iss": "https://auth.test", "sub": token});
                Ok(tool_core::auth::Claims::from_json(claims.as_object().unwrap().clone()))
            }
            _ => Err(tool_core::oauth::TokenError::Malformed("not a token of this test".to_owned())),
        };
        Box::pin(async move { claims })
    }
}

#[tokio::test]
async fn oauth_callers_own_their_tasks() {
    let oauth = tool_core::oauth::ResourceServer::new("http://127.0.0.1/", Names)
        .unwrap()
        .authorization_server("https://auth.test");
    let base = serve(desk().with_oauth(oauth)).await;
    let card: Value = reqwest::get(format!("{base}/.well-known/agent-card.json")).await.unwrap().json().await.unwrap();
    assert!(
        card["securitySchemes"]["bearer"]["httpAuthSecurityScheme"]["description"]
            .as_str()
            .unwrap()
            .contains("RFC 9728")
    );
    let metadata: Value =
        reqwest::get(format!("{base}/.well-known/oauth-protected-resource")).await.unwrap().json().await.unwrap();
    assert_eq!(metadata["authorization_servers"], json!(["https://auth.test"]));

    let client = reqwest::Client::new();
    let call = |token: Option<&'static str>, method: &'static str, params: Value| {
        let mut request = client
            .post(format!("{base}/"))
            .json(&json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.send()
    };
    let refused = call(None, "SendMessage", send("weather")).await.unwrap();
    assert_eq!(refused.status(), 401);
    let challenge = refused.headers()["www-authenticate"].to_str().unwrap().to_owned();
    assert!(
        challenge.contains("resource_metadata=\"http://127.0.0.1/.well-known/oauth-protected-resource\""),
        "{challenge}"
    );
    let forged = call(Some("mallory"), "GetTask", json!({"id": "x"})).await.unwrap();
    assert_eq!(forged.status(), 401);
    assert!(forged.headers()["www-authenticate"].to_str().unwrap().contains("invalid_token"));

    let asked: Value = call(Some("alice"), "SendMessage", send("weather")).await.unwrap().json().await.unwrap();
    let id = asked["result"]["task"]["id"].clone();
    let mine: Value = call(Some("alice"), "GetTask", json!({"id": id})).await.unwrap().json().await.unwrap();
    assert_eq!(mine["result"]["status"]["state"], "TASK_STATE_INPUT_REQUIRED");
    // Another caller cannot read, answer, cancel or list it.
    let theirs: Value = call(Some("bob"), "GetTask", json!({"id": id})).await.unwrap().json().await.unwrap();
    assert_eq!(code(&theirs), -32001);
    let answer = json!({"message": {"taskId": id, "messageId": "m", "role": "ROLE_USER", "parts": [{"text": "Oslo"}]}});
    let answered: Value = call(Some("bob"), "SendMessage", answer).await.unwrap().json().await.unwrap();
    assert_eq!(code(&answered), -32001);
    let canceled: Value = call(Some("bob"), "CancelTask", json!({"id": id})).await.unwrap().json().await.unwrap();
    assert_eq!(code(&canceled), -32001);
    let listed: Value = call(Some("bob"), "ListTasks", json!({})).await.unwrap().json().await.unwrap();
    assert_eq!(listed["result"]["totalSize"], 0);
    let listed: Value = call(Some("alice"), "ListTasks", json!({})).await.unwrap().json().await.unwrap();
    assert_eq!(listed["result"]["totalSize"], 1);
}

#[tokio::test]
async fn a_call_to_an_agent_that_does_not_stream_follows_its_task_and_cancels_it_on_timeout() {
    let base = serve(desk()).await;
    let mut card: Value =
        reqwest::get(format!("{base}/.well-known/agent-card.json")).await.unwrap().json().await.unwrap();
    card["capabilities"]["streaming"] = json!(false);
    let card = tool_core::a2a::AgentCard::from_value(card).unwrap();
    let agent = RemoteAgent::from_card(card).unwrap().timeout(Duration::from_millis(400));
    let tools = agent.tools(&SkillFilter::all()).unwrap();
    let context = tools.context();
    let call = |message: &str| {
        tools.call_async(&context, "a2a_weather_desk_forecast", json!({"message": message}).to_string())
    };
    // Answered at once with the working task, followed with GetTask to its end.
    assert_eq!(call("rain").await.unwrap().to_text(), "first\necho: rain\n{\"n\":1}");
    let error = call("slow").await.unwrap_err().to_string();
    assert!(error.contains("no reply within 0.4 s") && error.contains("was canceled"), "{error}");
    let task = error.split("the remote task ").nth(1).unwrap().split(' ').next().unwrap().to_owned();
    let state = rpc(&base, "GetTask", json!({"id": task})).await;
    assert_eq!(state["result"]["status"]["state"], "TASK_STATE_CANCELED");
}

#[tokio::test]
async fn the_http_json_binding_serves_the_same_methods() {
    let base = serve(desk()).await;
    let client = reqwest::Client::new();
    let asked = client.post(format!("{base}/message:send")).json(&send("weather")).send().await.unwrap();
    assert_eq!(asked.status(), 200);
    let task = asked.json::<Value>().await.unwrap()["task"].clone();
    assert_eq!(task["status"]["state"], "TASK_STATE_INPUT_REQUIRED");
    let id = task["id"].as_str().unwrap().to_owned();
    let got: Value =
        client.get(format!("{base}/tasks/{id}?historyLength=1")).send().await.unwrap().json().await.unwrap();
    assert_eq!((got["id"].as_str(), got["history"].as_array().unwrap().len()), (Some(id.as_str()), 1));
    let listed: Value = client
        .get(format!("{base}/tasks?status=TASK_STATE_INPUT_REQUIRED&pageSize=5"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(listed["tasks"][0]["id"], id.as_str());
    let canceled: Value = client.post(format!("{base}/tasks/{id}:cancel")).send().await.unwrap().json().await.unwrap();
    assert_eq!(canceled["status"]["state"], "TASK_STATE_CANCELED");

    // Errors: an HTTP status and a google.rpc.Status with the same ErrorInfo.
    let again = client.post(format!("{base}/tasks/{id}:cancel")).send().await.unwrap();
    assert_eq!(again.status(), 400);
    let again: Value = again.json().await.unwrap();
    assert_eq!(
        (&again["error"]["status"], &again["error"]["details"][0]["reason"]),
        (&json!("FAILED_PRECONDITION"), &json!("TASK_NOT_CANCELABLE"))
    );
    let missing = client.get(format!("{base}/tasks/nope")).send().await.unwrap();
    assert_eq!(missing.status(), 404);
    let bad = client.post(format!("{base}/message:send")).body("{\"message\": {\"parts\": []}}").send().await.unwrap();
    assert_eq!(bad.status(), 400);
    let bad: Value = bad.json().await.unwrap();
    assert!(bad["error"]["message"].as_str().unwrap().contains("params.message.messageId"), "{bad}");
    let paged = client.get(format!("{base}/tasks?pageSize=lots")).send().await.unwrap();
    assert_eq!(paged.status(), 400);

    // A stream's events are the bare results.
    let streamed =
        client.post(format!("{base}/message:stream")).json(&send("rain")).send().await.unwrap().text().await.unwrap();
    let events: Vec<Value> = streamed
        .lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .map(|data| serde_json::from_str(data).unwrap())
        .collect();
    assert_eq!(events.len(), 5);
    assert_eq!(events[0]["task"]["status"]["state"], "TASK_STATE_SUBMITTED");
    assert_eq!(events[4]["statusUpdate"]["status"]["state"], "TASK_STATE_COMPLETED");
}

#[tokio::test]
async fn this_crates_client_speaks_http_json_too() {
    let base = serve(desk()).await;
    let card: Value = reqwest::get(format!("{base}/.well-known/agent-card.json")).await.unwrap().json().await.unwrap();
    let rest_only = |streaming: bool| {
        let mut card = card.clone();
        let interfaces = card["supportedInterfaces"].as_array().unwrap().clone();
        card["supportedInterfaces"] = interfaces.into_iter().filter(|i| i["protocolBinding"] == "HTTP+JSON").collect();
        card["capabilities"]["streaming"] = json!(streaming);
        let agent = RemoteAgent::from_card(tool_core::a2a::AgentCard::from_value(card).unwrap()).unwrap();
        agent.timeout(Duration::from_millis(400)).tools(&SkillFilter::all()).unwrap()
    };
    for streaming in [true, false] {
        let tools = rest_only(streaming);
        let context = tools.context();
        let call = |message: Value| tools.call_async(&context, "a2a_weather_desk_forecast", message.to_string());
        let echoed = call(json!({"message": "rain"})).await.unwrap();
        assert_eq!(echoed.to_text(), "first\necho: rain\n{\"n\":1}", "streaming {streaming}");
        let asked = call(json!({"message": "weather"})).await.unwrap();
        let ids = asked.structured().unwrap().clone();
        let done =
            call(json!({"message": "Oslo", "task_id": ids["task_id"], "context_id": ids["context_id"]})).await.unwrap();
        assert_eq!(done.to_text(), "forecast for Oslo: sunny");
        let slow = call(json!({"message": "slow"})).await.unwrap_err().to_string();
        assert!(slow.contains("was canceled"), "streaming {streaming}: {slow}");
        // An error of the binding comes back with the code its ErrorInfo names.
        let finished = call(json!({"message": "again", "task_id": ids["task_id"]})).await.unwrap_err().to_string();
        assert!(finished.contains("error -32004"), "{finished}");
    }
}

#[tokio::test]
async fn client_credentials_bring_a_token_once_and_send_it() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    // A token endpoint of the test's own: it checks the grant and the client, and counts.
    let asked = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&asked);
    let issuer = axum::Router::new().route(
        "/token",
        axum::routing::post(move |headers: axum::http::HeaderMap, body: String| {
            let counter = Arc::clone(&counter);
            async move {
                counter.fetch_add(1, Ordering::SeqCst);
                let basic = headers["authorization"].to_str().unwrap().to_owned();
                // "Basic " + base64("agent-7:s3cret")
                assert_eq!(basic, "Basic YWdlbnQtNzpzM2NyZXQ=");
                assert_eq!(body, "grant_type=client_credentials&scope=forecasts");
                json!({"access_token": "minted-1", "token_type": "Bearer", "expires_in": 3600}).to_string()
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let token_url = format!("http://{}/token", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, issuer).await.unwrap() });

    let base = serve(desk().with_bearer(|token| token == "minted-1")).await;
    let mut card: Value =
        reqwest::get(format!("{base}/.well-known/agent-card.json")).await.unwrap().json().await.unwrap();
    card["securitySchemes"]["oauth"] = json!({"oauth2SecurityScheme": {"flows": {"clientCredentials": {"tokenUrl": token_url, "scopes": {"forecasts": "read"}}}}});
    let card = tool_core::a2a::AgentCard::from_value(card).unwrap();
    assert_eq!(card.token_url.as_deref(), Some(token_url.as_str()));
    let agent =
        RemoteAgent::from_card(card.clone()).unwrap().client_credentials("agent-7", "s3cret", ["forecasts"]).unwrap();
    let tools = agent.tools(&SkillFilter::all()).unwrap();
    for _ in 0..2 {
        let echoed = tools.call_async(&tools.context(), "a2a_weather_desk_forecast", r#"{"message": "rain"}"#).await;
        assert!(echoed.unwrap().to_text().contains("echo: rain"));
    }
    assert_eq!(asked.load(Ordering::SeqCst), 1, "one token, kept while it is valid");

    // No flow named, or a token endpoint that is not HTTPS: no secret is sent.
    let mut plain = json!({"name": "Plain", "supportedInterfaces": [{"url": format!("{base}/"), "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}], "skills": [], "securitySchemes": {"o": {"oauth2SecurityScheme": {"flows": {"clientCredentials": {"tokenUrl": "http://auth.example/token"}}}}}});
    let insecure = RemoteAgent::from_card(tool_core::a2a::AgentCard::from_value(plain.clone()).unwrap()).unwrap();
    let refused = insecure.client_credentials("a", "b", [""; 0]).unwrap_err().to_string();
    assert!(refused.contains("is not HTTPS"), "{refused}");
    plain["securitySchemes"] = json!({});
    let none = RemoteAgent::from_card(tool_core::a2a::AgentCard::from_value(plain).unwrap()).unwrap();
    let refused = none.client_credentials("a", "b", [""; 0]).unwrap_err().to_string();
    assert!(refused.contains("names no OAuth 2 client-credentials flow"), "{refused}");
}
