//! What one blocking `SendMessage` round trip costs through this crate's A2A client (a
//! skill called as a tool: the argument validated, the request written, the reply mapped),
//! against the servers `bash tests/bench/a2a.sh` starts; that script times the official
//! Python client against the same servers in the same run.
//!
//! `TOOL_A2A_BENCH` holds `card-url|message` pairs separated by spaces; `TOOL_A2A_CALLS` the
//! number of timed calls (200 by default), after 20 untimed ones.
#![allow(missing_docs, clippy::print_stdout)]

use std::time::Instant;

use serde_json::json;
use tool_core::a2a::{RemoteAgent, SkillFilter};

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let Ok(targets) = std::env::var("TOOL_A2A_BENCH") else {
        println!("TOOL_A2A_BENCH is not set: run `bash tests/bench/a2a.sh`");
        return;
    };
    let calls: u32 = std::env::var("TOOL_A2A_CALLS").ok().and_then(|calls| calls.parse().ok()).unwrap_or(200);
    for target in targets.split_whitespace() {
        let (url, message) = target.split_once('|').expect("card-url|message");
        let agent = RemoteAgent::connect(url).await.expect("the card");
        let tools = agent.tools(&SkillFilter::all()).expect("the tools");
        let name = tools.names()[0].to_owned();
        let context = tools.context();
        let arguments = json!({"message": message}).to_string();
        for _ in 0..20 {
            tools.call_async(&context, &name, arguments.as_str()).await.expect("a reply");
        }
        let start = Instant::now();
        for _ in 0..calls {
            tools.call_async(&context, &name, arguments.as_str()).await.expect("a reply");
        }
        let per_call = start.elapsed() / calls;
        println!("rust client -> {url}: {:.3} ms per SendMessage", per_call.as_secs_f64() * 1e3);
    }
}
