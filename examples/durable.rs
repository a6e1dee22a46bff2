//! A durable agent on Restate: an order desk whose runs survive the process. Every model
//! request and tool call is a journaled step, so a run cut short by a crash resumes on the
//! next process without charging the customer twice; a refund waits for a person's approval
//! as a Restate awakeable, for days if need be, and a delivery for the customer's answer to a
//! deferred tool (`confirm_address`, which the web shop answers, not this process).
//!
//! ```sh
//! npx @restatedev/restate-server                        # Restate: ingress :8080, admin :9070
//! cargo run -p tool-examples --bin durable              # this service, on 127.0.0.1:9080
//! curl localhost:9070/deployments --json '{"uri": "http://127.0.0.1:9080"}'
//! curl localhost:8080/OrderDesk/run-1/run --json '"ship order 7"'
//! curl localhost:8080/OrderDesk/run-4/run --json '"rush order 9"'       # ships and charges at once
//! curl localhost:8080/OrderDesk/run-3/run --json '"escalate order 7"'   # handed to the manager
//! curl localhost:8080/OrderDesk/run-2/run/send --json '"refund order 7"'
//! curl localhost:8080/OrderDesk/run-2/pending           # the call waiting for approval
//! curl localhost:8080/OrderDesk/run-2/decide --json '{"call_id": "call_refund_7", "verdict": "approve"}'
//! curl localhost:8080/OrderDesk/run-5/run/send --json '"deliver order 3"' # the customer confirms first
//! curl localhost:8080/OrderDesk/run-5/deferred          # the call the application answers
//! curl localhost:8080/OrderDesk/run-5/answer --json '{"call_id": "call_confirm_address_3", "output": "12 Rue Bleue"}'
//! curl localhost:8080/restate/workflow/OrderDesk/run-2/output
//! ```
//!
//! `DURABLE_ADDR` sets the address served. The model is a desk clerk written in code (no
//! network); with `OPENAI_BASE_URL` set, an OpenAI-compatible server answers instead. The
//! tools, and an `after_call` hook once the batch has ended, append what they do to the file
//! `DURABLE_LEDGER` names, when it names one; `ship` waits while the file `DURABLE_HOLD`
//! names exists (the durable test kills the process then).
#![allow(clippy::print_stdout, clippy::print_stderr)] // an example prints what it shows

use std::io::Write as _;
use std::time::Duration;

use restate_sdk::prelude::*;
use serde_json::{Value, json};
use tool_core::agent::clients::HttpModel;
use tool_core::agent::durable::{self, Approval, DeferredAnswer, DeferredCall, DurableOutcome, PendingApproval};
use tool_core::agent::{Agent, Api, DeltaSink, Hooks, Model, ModelError, ModelFuture, ModelRequest, ToolRun};
use tool_core::{DynamicTool, Registry, ToolArgs, tool};

#[derive(Debug, ToolArgs)]
struct Order {
    /// The order's number
    #[param(minimum = 1)]
    order: u32,
}

/// Charge the customer for an order
#[tool]
fn charge(args: Order) -> String {
    ledger(&format!("charge {}", args.order));
    format!("order {} charged", args.order)
}

/// Ship an order
#[tool]
fn ship(args: Order) -> String {
    ledger(&format!("ship {} started", args.order));
    if let Some(hold) = std::env::var_os("DURABLE_HOLD") {
        // Bounded: a hold nobody lifts lets the call finish after a minute.
        for _ in 0..3000 {
            if !std::path::Path::new(&hold).exists() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    ledger(&format!("ship {} done", args.order));
    format!("order {} shipped", args.order)
}

/// Refund an order; a person approves each refund
#[tool(requires_approval)]
fn refund(args: Order) -> String {
    ledger(&format!("refund {}", args.order));
    format!("order {} refunded", args.order)
}

/// Appends one line to the ledger file, when there is one. The line and its newline go in one
/// write: calls run together, and `writeln!` may write the two apart, letting another call's
/// line in between.
fn ledger(line: &str) {
    if let Some(path) = std::env::var_os("DURABLE_LEDGER") {
        let mut file = std::fs::OpenOptions::new().create(true).append(true).open(path).expect("the ledger opens");
        file.write_all(format!("{line}\n").as_bytes()).expect("the ledger is written");
    }
}

/// Notes each call in the ledger once its batch has ended.
struct Bookkeeper;

impl Hooks for Bookkeeper {
    fn after_call(&self, run: &mut ToolRun) {
        ledger(&format!("after {}", run.call.id));
    }
}

/// A clerk in code: "ship order N" charges then ships, "rush order N" ships then charges, "refund order N" refunds, "escalate
/// order N" hands the conversation to the manager, "deliver order N" asks the customer for the
/// address then ships; once the tools have answered, it reports
/// what they said.
struct Clerk;

impl Model for Clerk {
    fn api(&self) -> Api {
        Api::OpenAiChat
    }

    fn respond<'a>(&'a self, request: ModelRequest<'a>, _on_delta: DeltaSink<'a>) -> ModelFuture<'a> {
        ledger("model");
        let said = |role: &'static str| {
            request.history.iter().filter(move |item| item["role"] == role).filter_map(|item| item["content"].as_str())
        };
        let results: Vec<&str> = said("tool").collect();
        let ask = said("user").next_back().unwrap_or_default().to_owned();
        let message = if results.is_empty() {
            let order: u32 = ask.rsplit(' ').next().and_then(|n| n.parse().ok()).unwrap_or(1);
            let tools: &[&str] = match ask.split(' ').next() {
                Some("refund") => &["refund"],
                Some("rush") => &["ship", "charge"],
                Some("escalate") => &["transfer_to_manager"],
                Some("deliver") => &["confirm_address", "ship"],
                _ => &["charge", "ship"],
            };
            let calls: Vec<Value> = tools
                .iter()
                .map(|tool| {
                    let arguments = if tool.starts_with("transfer") { json!({}) } else { json!({ "order": order }) };
                    let arguments = arguments.to_string();
                    json!({"id": format!("call_{tool}_{order}"), "type": "function",
                           "function": {"name": tool, "arguments": arguments}})
                })
                .collect();
            json!({"role": "assistant", "content": null, "tool_calls": calls})
        } else {
            json!({"role": "assistant", "content": results.join("; ")})
        };
        let response = json!({"choices": [{"message": message, "finish_reason": "stop"}]});
        Box::pin(async move { Api::OpenAiChat.turn(&response).map_err(ModelError::from) })
    }
}

/// A manager in code, to whom the clerk hands escalations: answers without tools.
struct Manager;

impl Model for Manager {
    fn api(&self) -> Api {
        Api::OpenAiChat
    }

    fn respond<'a>(&'a self, request: ModelRequest<'a>, _on_delta: DeltaSink<'a>) -> ModelFuture<'a> {
        ledger("manager");
        let ask = request.history.iter().find(|item| item["role"] == "user").and_then(|item| item["content"].as_str());
        let text = format!("the manager took over: {}", ask.unwrap_or_default());
        let response =
            json!({"choices": [{"message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]});
        Box::pin(async move { Api::OpenAiChat.turn(&response).map_err(ModelError::from) })
    }
}

/// The workflow: one run per key, its approval handlers beside it.
struct OrderDesk {
    agent: Agent,
}

#[restate_sdk::workflow]
impl OrderDesk {
    /// Runs the agent on the request, durably.
    #[handler]
    async fn run(&self, ctx: WorkflowContext<'_>, request: String) -> Result<Json<DurableOutcome>, HandlerError> {
        let mut conversation = self.agent.conversation();
        let outcome = self.agent.run_durable(&ctx, &mut conversation, &request).await.map_err(TerminalError::from)?;
        Ok(Json(outcome))
    }

    /// The call waiting for approval, if any.
    #[handler]
    async fn pending(&self, ctx: SharedWorkflowContext<'_>) -> Result<Json<Option<PendingApproval>>, HandlerError> {
        Ok(Json(durable::pending(&ctx).await?))
    }

    /// Approves, denies or edits the call waiting for approval.
    #[handler]
    async fn decide(&self, ctx: SharedWorkflowContext<'_>, approval: Json<Approval>) -> Result<(), HandlerError> {
        Ok(durable::decide(&ctx, approval.into_inner()).await?)
    }

    /// The deferred call waiting for the application's answer, if any.
    #[handler]
    async fn deferred(&self, ctx: SharedWorkflowContext<'_>) -> Result<Json<Option<DeferredCall>>, HandlerError> {
        Ok(Json(durable::deferred(&ctx).await?))
    }

    /// Answers the deferred call waiting.
    #[handler]
    async fn answer(&self, ctx: SharedWorkflowContext<'_>, answer: Json<DeferredAnswer>) -> Result<(), HandlerError> {
        Ok(durable::answer(&ctx, answer.into_inner()).await?)
    }
}

#[tokio::main]
async fn main() {
    let mut registry = Registry::collect().expect("tool names are unique");
    let confirm = DynamicTool::deferred_typed::<Order>("confirm_address", "Asks the customer to confirm the address")
        .expect("a valid name");
    registry.add_dynamic(confirm).expect("a free name");
    let real = std::env::var_os("OPENAI_BASE_URL").is_some();
    let model = |code: Box<dyn Model>| -> Box<dyn Model> {
        if real { Box::new(HttpModel::from_env(Api::OpenAiChat)) } else { code }
    };
    let manager = Agent::new(model(Box::new(Manager)), Registry::new()).system("You are the order desk's manager.");
    let agent = Agent::new(model(Box::new(Clerk)), registry)
        .system("You run an order desk. Refunds need a person's approval; escalations go to the manager.")
        .hooks(Bookkeeper)
        .handoff("transfer_to_manager", "Hands an escalated order to the manager", manager)
        .expect("one API, a free name");
    let addr = std::env::var("DURABLE_ADDR").unwrap_or_else(|_| "127.0.0.1:9080".to_owned());
    let addr = addr.parse().expect("DURABLE_ADDR is an address");
    eprintln!("order desk on http://{addr}");
    HttpServer::new(Endpoint::builder().bind(OrderDesk { agent }).build()).listen_and_serve(addr).await;
}
