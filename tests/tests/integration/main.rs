//! Integration tests of tool-core, one binary.
mod conformance;
mod dispatch;
mod enums;
mod reference;
mod registry;
mod schema;
mod serde_attrs;
