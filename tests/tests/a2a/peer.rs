//! Against the official Python SDK (a2a-sdk 1.3) serving `tests/a2a/peer.py` in protocol
//! versions 1.0 and 0.3, on 127.0.0.1: `#[ignore]`d in the ordinary suite, run by
//! `bash tests/a2a/run.sh`, which starts the servers and sets `TOOL_A2A_V1`/`TOOL_A2A_V03`.

use serde_json::{Value, json};
use tool_core::a2a::{RemoteAgent, SkillFilter};
use tool_core::{Registry, ToolError, ToolOutput};

fn peer(version: &str) -> String {
    std::env::var(version).unwrap_or_else(|_| panic!("{version}: run through `bash tests/a2a/run.sh`"))
}

async fn call(registry: &Registry, tool: &str, arguments: Value) -> Result<ToolOutput, ToolError> {
    registry.call_async(&registry.context(), tool, arguments).await
}

/// Every mapping, against the peer at `url`.
async fn every_reply_maps(url: &str) {
    let agent = RemoteAgent::connect(url).await.unwrap();
    assert_eq!(agent.card().name, "Weather Desk");
    let tools = agent.tools(&SkillFilter::all()).unwrap();
    assert_eq!(tools.names(), ["a2a_weather_desk_echo", "a2a_weather_desk_forecast"]);
    let description = tools.get("a2a_weather_desk_forecast").unwrap().description().to_owned();
    assert!(description.starts_with("Forecasts a city's weather\nTags: weather.\nExamples: weather"), "{description}");

    let echo = |message: &str| json!({"message": message});
    let echoed = call(&tools, "a2a_weather_desk_echo", echo("rain")).await.unwrap();
    assert_eq!(echoed.to_text(), "echo: rain", "a completed task's artifact");
    let direct = call(&tools, "a2a_weather_desk_echo", echo("hello there")).await.unwrap();
    assert_eq!(direct.to_text(), "hello to you: hello there", "a direct message");
    let data = call(&tools, "a2a_weather_desk_echo", echo("data now")).await.unwrap();
    assert!(data.to_text().starts_with("two readings\n"), "{}", data.to_text());
    assert_eq!(data.structured(), Some(&json!({"celsius": 21.0, "city": "Oslo"})), "one data part: structured");

    let failed = call(&tools, "a2a_weather_desk_echo", echo("fail please")).await.unwrap_err();
    assert!(
        failed.to_string().contains(r#"the remote agent's task failed: "the forecast service is down""#),
        "{failed}"
    );
    let refused = call(&tools, "a2a_weather_desk_echo", echo("")).await.unwrap_err();
    assert!(refused.to_string().contains("/message: must be at least 1 character long"), "{refused}");

    // Input required: the question and the ids come back; answering with them completes it.
    let asked = call(&tools, "a2a_weather_desk_forecast", echo("weather")).await.unwrap();
    let ids = asked.structured().unwrap().clone();
    assert_eq!((&ids["state"], &ids["message"]), (&json!("input_required"), &json!("Which city?")));
    assert!(asked.to_text().contains("needs more input: \"Which city?\""), "{}", asked.to_text());
    let answer = json!({"message": "Oslo", "task_id": ids["task_id"], "context_id": ids["context_id"]});
    let done = call(&tools, "a2a_weather_desk_forecast", answer).await.unwrap();
    assert_eq!(done.to_text(), "forecast for Oslo: sunny");
}

#[tokio::test]
#[ignore = "needs the Python SDK's server: bash tests/a2a/run.sh"]
async fn against_the_python_sdk_in_1_0() {
    every_reply_maps(&peer("TOOL_A2A_V1")).await;
}

#[tokio::test]
#[ignore = "needs the Python SDK's server: bash tests/a2a/run.sh"]
async fn against_the_python_sdk_in_0_3() {
    every_reply_maps(&peer("TOOL_A2A_V03")).await;
}

#[tokio::test]
#[ignore = "needs the Python SDK's server: bash tests/a2a/run.sh"]
async fn a_filter_picks_the_skills() {
    let agent = RemoteAgent::connect(&peer("TOOL_A2A_V1")).await.unwrap().key("desk");
    assert_eq!(agent.tools(&SkillFilter::all().allow(["echo"])).unwrap().names(), ["a2a_desk_echo"]);
    assert_eq!(agent.tools(&SkillFilter::all().block(["echo"])).unwrap().names(), ["a2a_desk_forecast"]);
}

#[tokio::test]
#[ignore = "needs the Python SDK's server: bash tests/a2a/run.sh"]
async fn a_streamed_task_reports_progress_and_one_left_unfinished_is_canceled() {
    let url = peer("TOOL_A2A_V1");
    let agent = RemoteAgent::connect(&url).await.unwrap();
    assert!(agent.card().streaming, "the peer streams: its replies come as events");
    let tools = agent.clone().timeout(std::time::Duration::from_secs(2)).tools(&SkillFilter::all()).unwrap();
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = std::sync::Arc::clone(&seen);
    let context = tools.context().with_progress(move |progress| sink.lock().unwrap().extend(progress.message));
    let stepped = tools.call_async(&context, "a2a_weather_desk_echo", json!({"message": "steps"})).await.unwrap();
    assert_eq!(stepped.to_text(), "stepped");
    let seen = seen.lock().unwrap().clone();
    let steps: Vec<&String> = seen.iter().filter(|text| text.starts_with("step")).collect();
    assert_eq!(steps, ["step 1", "step 2"], "{seen:?}");

    let slow = call(&tools, "a2a_weather_desk_echo", json!({"message": "slow"})).await.unwrap_err().to_string();
    assert!(slow.contains("no reply within 2 s; the remote task "), "{slow}");
    assert!(slow.ends_with(" was canceled"), "{slow}");
    // The remote agent says so too.
    let task = slow.split("the remote task ").nth(1).unwrap().split(' ').next().unwrap();
    let asked = json!({"jsonrpc": "2.0", "id": 9, "method": "GetTask", "params": {"id": task}});
    let reply: Value = reqwest::Client::new()
        .post(format!("{url}/"))
        .header("a2a-version", "1.0")
        .json(&asked)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(reply.pointer("/result/status/state"), Some(&json!("TASK_STATE_CANCELED")), "{reply}");
}

/// The peer's card at `url`, told it does not stream: every call then takes the task at once
/// and follows it with `GetTask`.
async fn not_streaming(url: &str) -> RemoteAgent {
    let mut card: Value =
        reqwest::get(format!("{url}/.well-known/agent-card.json")).await.unwrap().json().await.unwrap();
    card["capabilities"]["streaming"] = json!(false);
    RemoteAgent::from_card(tool_core::a2a::AgentCard::from_value(card).unwrap()).unwrap()
}

#[tokio::test]
#[ignore = "needs the Python SDK's server: bash tests/a2a/run.sh"]
async fn without_streaming_a_task_is_followed_and_one_left_unfinished_is_canceled() {
    for version in ["TOOL_A2A_V1", "TOOL_A2A_V03"] {
        let agent = not_streaming(&peer(version)).await.timeout(std::time::Duration::from_secs(2));
        let tools = agent.tools(&SkillFilter::all()).unwrap();
        let echoed = call(&tools, "a2a_weather_desk_echo", json!({"message": "rain"})).await.unwrap();
        assert_eq!(echoed.to_text(), "echo: rain", "{version}");
        let asked = call(&tools, "a2a_weather_desk_forecast", json!({"message": "weather"})).await.unwrap();
        let ids = asked.structured().unwrap().clone();
        let answer = json!({"message": "Oslo", "task_id": ids["task_id"], "context_id": ids["context_id"]});
        let done = call(&tools, "a2a_weather_desk_forecast", answer).await.unwrap();
        assert_eq!(done.to_text(), "forecast for Oslo: sunny", "{version}");
        let slow = call(&tools, "a2a_weather_desk_echo", json!({"message": "slow"})).await.unwrap_err().to_string();
        assert!(
            slow.contains("no reply within 2 s; the remote task ") && slow.ends_with(" was canceled"),
            "{version}: {slow}"
        );
    }
}

#[tokio::test]
#[ignore = "needs the Python SDK's server: bash tests/a2a/run.sh"]
async fn over_http_json_streamed_or_not() {
    let url = peer("TOOL_A2A_V1");
    let card: Value = reqwest::get(format!("{url}/.well-known/agent-card.json")).await.unwrap().json().await.unwrap();
    for streaming in [true, false] {
        let mut card = card.clone();
        let interfaces = card["supportedInterfaces"].as_array().unwrap().clone();
        card["supportedInterfaces"] = interfaces.into_iter().filter(|i| i["protocolBinding"] == "HTTP+JSON").collect();
        card["capabilities"]["streaming"] = json!(streaming);
        let agent = RemoteAgent::from_card(tool_core::a2a::AgentCard::from_value(card).unwrap()).unwrap();
        let tools = agent.timeout(std::time::Duration::from_secs(2)).tools(&SkillFilter::all()).unwrap();
        let echoed = call(&tools, "a2a_weather_desk_echo", json!({"message": "rain"})).await.unwrap();
        assert_eq!(echoed.to_text(), "echo: rain", "streaming {streaming}");
        let direct = call(&tools, "a2a_weather_desk_echo", json!({"message": "hello there"})).await.unwrap();
        assert_eq!(direct.to_text(), "hello to you: hello there");
        let asked = call(&tools, "a2a_weather_desk_forecast", json!({"message": "weather"})).await.unwrap();
        let ids = asked.structured().unwrap().clone();
        let answer = json!({"message": "Oslo", "task_id": ids["task_id"], "context_id": ids["context_id"]});
        let done = call(&tools, "a2a_weather_desk_forecast", answer).await.unwrap();
        assert_eq!(done.to_text(), "forecast for Oslo: sunny");
        let slow = call(&tools, "a2a_weather_desk_echo", json!({"message": "slow"})).await.unwrap_err().to_string();
        assert!(slow.ends_with(" was canceled"), "streaming {streaming}: {slow}");
    }
}
