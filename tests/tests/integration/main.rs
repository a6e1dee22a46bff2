//! Integration tests of tool-core, one binary.
mod conformance;
