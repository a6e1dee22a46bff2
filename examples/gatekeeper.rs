//! An agent whose calls an authorizer checks against the caller's token, and whose tools
//! change while it runs: a tool the model calls installs another, which the next round offers.
//!
//! ```sh
//! cargo run -p tool-examples --bin gatekeeper    # a scripted model, no network
//! ```
//!
//! - The authorizer is a [`Hooks::authorize`]: each call is asked, before it runs, whether the
//!   caller's verified claims hold every scope its tool requires (`#[tool(scopes = [..])]`,
//!   the rule the MCP server's OAuth layer applies). A refused call is answered with the reason
//!   and the run goes on.
//! - The registry is live ([`Agent::live_tools`]): each round offers the tools of that moment.
//!   Here `enable_reports` adds `monthly_report`, a tool made at run time.
#![allow(clippy::print_stdout)] // an example prints what it shows

use std::sync::{Arc, RwLock};

use serde_json::{Value, json};
use tool_core::agent::{Agent, Api, Conversation, Event, Hooks, ScriptedModel};
use tool_core::auth::Claims;
use tool_core::provider::ToolCall;
use tool_core::{DynamicTool, Registry, ToolContext, ToolOutput, tool};

/// Reads the ledger's balance
#[tool(read_only, scopes = ["ledger:read"])]
fn read_ledger() -> &'static str {
    "balance: 1,204 EUR"
}

/// Archives the ledger
#[tool(scopes = ["ledger:write"])]
fn archive_ledger() -> &'static str {
    "archived"
}

/// The tools the agent offers, replaced whole when they change.
type Live = Arc<RwLock<Arc<Registry>>>;

/// Turns on the monthly report: the next round offers `monthly_report`
#[tool]
fn enable_reports(ctx: &ToolContext) -> String {
    let live = ctx.state::<Live>().expect("the live tools");
    let report = DynamicTool::new(
        "monthly_report",
        "The month's report",
        r#"{"type": "object", "properties": {"month": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}$"}}, "required": ["month"], "additionalProperties": false}"#,
        |_, arguments| async move { Ok(ToolOutput::text(format!("report for {}: 12 entries", arguments["month"]))) },
    )
    .expect("a valid tool");
    let mut next = Registry::clone(&live.read().expect("the lock").clone());
    match next.add_dynamic(report) {
        Ok(_) => {
            *live.write().expect("the lock") = Arc::new(next);
            "monthly_report is now available".to_owned()
        }
        Err(error) => format!("not added: {error}"),
    }
}

/// The authorizer: the caller's token must hold every scope the tool requires.
struct ScopeCheck {
    claims: Claims,
    live: Live,
}

impl Hooks for ScopeCheck {
    fn authorize(&self, call: &ToolCall) -> Result<(), String> {
        let tools = self.live.read().map_err(|_| "the tools are unavailable".to_owned())?.clone();
        match tools.get(&call.name) {
            Some(entry) => entry.permits(&self.claims).map_err(|refused| refused.to_string()),
            None => Ok(()),
        }
    }
}

/// A Chat Completions turn calling `calls` (name, arguments).
fn turn(calls: &[(&str, Value)]) -> Value {
    let calls: Vec<Value> = calls
        .iter()
        .enumerate()
        .map(|(i, (name, arguments))| {
            json!({"id": format!("call_{name}_{i}"), "type": "function",
                "function": {"name": name, "arguments": arguments.to_string()}})
        })
        .collect();
    json!({"choices": [{"index": 0, "finish_reason": "tool_calls",
        "message": {"role": "assistant", "content": null, "tool_calls": calls}}]})
}

/// The model's final answer.
fn answer(text: &str) -> Value {
    json!({"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}]})
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let live: Live = Arc::default();
    let mut registry = Registry::new().with_state(Arc::clone(&live));
    registry.add(ReadLedgerTool)?.add(ArchiveLedgerTool)?.add(EnableReportsTool)?;
    let registry = Arc::new(registry);
    *live.write().map_err(|_| "the lock")? = Arc::clone(&registry);

    // A reader's token: it may read the ledger, not archive it.
    let claims = match json!({"sub": "ada", "scope": "ledger:read"}) {
        Value::Object(all) => Claims::from_json(all),
        _ => unreachable!("an object"),
    };
    let model = ScriptedModel::new(
        Api::OpenAiChat,
        [
            turn(&[("read_ledger", json!({})), ("archive_ledger", json!({}))]),
            turn(&[("enable_reports", json!({}))]),
            turn(&[("monthly_report", json!({"month": "2026-11"}))]),
            answer("The balance is 1,204 EUR; archiving needs another token; the November report has 12 entries."),
        ],
    );
    let source = Arc::clone(&live);
    let agent = Agent::new(model, registry)
        .live_tools(move || source.read().map(|tools| Arc::clone(&tools)).unwrap_or_default())
        .hooks(ScopeCheck { claims, live: Arc::clone(&live) })
        .on_event(|event| {
            if let Event::ModelRequest { round, .. } = event {
                println!("round {round}");
            }
        });
    let outcome = agent.run(&mut Conversation::new(Api::OpenAiChat), "How is the ledger?").await?;
    for run in &outcome.tool_runs {
        println!("  {} -> {}", run.call.name, run.result.text());
    }
    println!("answer: {}", outcome.text);
    Ok(())
}
