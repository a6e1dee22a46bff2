//! The tool loop, driven by a scripted model replaying each provider's documented response
//! shapes: rounds, batches, hooks, approval, limits, cancellation and events. Every wait is
//! bounded.
mod approval;
mod background;
mod batches;
mod clients;
mod deferred;
mod early;
mod first_turn;
mod fixture;
mod handoff;
mod host;
mod loop_semantics;
mod output_modes;
mod parallel;
mod preload;
#[path = "../support/traces.rs"]
mod recorder;
mod refusals;
mod replay;
mod requests;
mod results;
mod shapes;
mod snapshots;
mod sources;
mod stopping;
mod streaming;
mod subagent;
mod traces;
mod turns;
mod typed;
