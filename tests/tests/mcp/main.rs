//! The MCP server (`tool_core::mcp`) driven by rmcp's own client, in process over the stdio
//! transport and over streamable HTTP on 127.0.0.1, plus raw lines and requests no client
//! library would send. Every wait is bounded.

// rmcp 3.11 deprecates sampling and logging for 2026-07-28 (SEP-2577); the revisions tested
// here have both.
#![allow(deprecated)]
mod blocking;
mod calls;
mod client;
#[path = "../support/exported.rs"]
mod exported;
mod fixture;
mod http;
mod layers;
mod live;
mod load;
mod malformed;
mod methods;
mod oauth;
mod otel;
mod raw;
mod recipe;
#[path = "../support/traces.rs"]
mod recorder;
mod remote;
mod remote_oauth;
mod requests;
mod revisions;
mod run_time;
mod served;
#[path = "../support/task_store.rs"]
mod task_store;
mod tasks;
mod tasks_2025;
mod traces;
mod unknown_tool;
mod upstream;
mod url_elicitation;
