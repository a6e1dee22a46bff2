//! Integration tests of tool-core, one binary.
mod conformance;
mod dispatch;
mod registry;
mod schema;
