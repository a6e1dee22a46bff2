//! Integration tests of tool-core, one binary.
mod concurrency;
mod conformance;
mod content;
mod context;
mod dialects;
mod differential;
mod dispatch;
mod dynamic;
mod enums;
mod gemini;
mod hostile;
mod reference;
mod registry;
mod schema;
mod serde_attrs;
mod stand_in;
mod types;
