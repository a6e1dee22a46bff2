//! A2A both ways. The client, a remote agent's skills as tools: `peer.rs` runs against the
//! official Python SDK's server (`bash tests/a2a/run.sh`, which starts it in protocol versions
//! 1.0 and 0.3); `edges.rs` against servers of the test's own that answer what no SDK would.
//! The server: `server.rs` drives its methods, `asking.rs` its questions to the client
//! (`tests/a2a_trace/` holds one trace across two agents joined by it).

mod asking;
mod bounded;
#[path = "../support/counting_store.rs"]
mod counting_store;
mod edges;
mod listing;
mod peer;
mod push;
mod released;
mod server;
mod serving;
