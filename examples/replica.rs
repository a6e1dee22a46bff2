//! One replica of a server meant to run as several behind a load balancer: tasks and the
//! sessions of 2025-era clients live in Redis, so any replica answers for any of them.
//!
//! ```sh
//! REDIS_URL=redis://127.0.0.1:6379 REPLICA=a \
//!   cargo run -p tool-examples --bin replica -- 127.0.0.1:8081
//! ```
//!
//! `tests/scale/run.sh` starts three of them behind a balancer and kills one mid-load.

#![allow(clippy::print_stderr)] // an example reports where it listens

use std::sync::Arc;
use std::time::Duration;

use tool_core::context::Elicitation;
use tool_core::mcp::{HttpOptions, McpServer, RedisEventStore, RedisSessionStore};
use tool_core::tasks::{RedisTaskStore, TaskSettings};
use tool_core::{Registry, ToolArgs, ToolContext, tool};

#[derive(ToolArgs)]
struct AddArgs {
    /// The first addend
    a: i64,
    /// The second addend
    b: i64,
}

/// Adds two numbers, saying which replica did
#[tool(inline)]
fn add(args: AddArgs) -> String {
    format!("{} (replica {})", args.a.saturating_add(args.b), replica())
}

#[derive(ToolArgs)]
struct ReportArgs {
    /// How many seconds the report takes
    #[param(minimum = 1, maximum = 600)]
    seconds: u32,
}

/// Writes a report; long, so a client may follow it as a task
#[tool(task = "optional")]
async fn report(ctx: &ToolContext, args: ReportArgs) -> Result<String, String> {
    for second in 0..args.seconds {
        ctx.report_progress(f64::from(second), Some(f64::from(args.seconds)), Some("writing"));
        tokio::select! {
            () = ctx.cancelled() => return Err("the report was cancelled".to_owned()),
            () = tokio::time::sleep(Duration::from_secs(1)) => {}
        }
    }
    Ok(format!("report of {}s written by replica {}", args.seconds, replica()))
}

#[derive(ToolArgs)]
struct Approver {
    /// Who approves
    #[param(min_length = 1)]
    name: String,
}

/// Asks who approves a deploy
#[tool]
async fn approve(ctx: &ToolContext) -> Result<String, String> {
    Ok(match ctx.elicit::<Approver>("Who approves the deploy?").await? {
        Elicitation::Accepted(approver) => format!("approved by {} (replica {})", approver.name, replica()),
        _ => "not approved".to_owned(),
    })
}

fn replica() -> String {
    std::env::var("REPLICA").unwrap_or_else(|_| "?".to_owned())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let address = std::env::args().nth(1).unwrap_or_else(|| "127.0.0.1:8081".to_owned());
    let redis = std::env::var("REDIS_URL").map_err(|_| "set REDIS_URL (redis://127.0.0.1:6379)")?;
    let mut registry = Registry::new();
    registry.add(AddTool)?.add(ReportTool)?.add(ApproveTool)?;
    let connection = RedisTaskStore::connection(&redis).await?;
    let lease = std::env::var("TASK_LEASE_MS").ok().and_then(|ms| ms.parse().ok()).unwrap_or(15_000);
    let settings = TaskSettings::new().with_lease(Duration::from_millis(lease));
    let server = McpServer::new(registry)
        .with_server_info("replica", env!("CARGO_PKG_VERSION"))
        .with_task_store(RedisTaskStore::from_connection(connection.clone()), settings);
    let options = HttpOptions::default()
        .session_store(Arc::new(RedisSessionStore::new(connection.clone())))
        .event_store(Arc::new(RedisEventStore::new(connection)));
    let listener = tokio::net::TcpListener::bind(&address).await?;
    eprintln!("replica {} on http://{address}/mcp", replica());
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    tool_core::mcp::serve_http_on(server, listener, options, shutdown).await?;
    Ok(())
}
