//! The A2A client: a remote agent's skills as tools. `peer.rs` runs against the official
//! Python SDK's server (`bash tests/a2a/run.sh`, which starts it in protocol versions 1.0
//! and 0.3); `edges.rs` against servers of the test's own that answer what no SDK would.

mod asking;
mod edges;
mod peer;
mod server;
