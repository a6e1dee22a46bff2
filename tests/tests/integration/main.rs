//! Integration tests of tool-core, one binary.
// The generated code carries no blanket clippy allow: with the workspace's pedantic lints,
// these two (allowed workspace-wide) are turned back on here, where hundreds of expansions live.
#![warn(clippy::needless_pass_by_value, clippy::too_many_lines)]
mod concurrency;
mod conformance;
mod content;
mod context;
mod derived_decoding;
mod derived_enum_decoding;
mod dialects;
mod differential;
mod dispatch;
mod dynamic;
mod elements;
mod enums;
mod forms;
mod gemini;
mod hostile;
mod output_checks;
mod overridden;
mod patterns;
mod plain_decoding;
mod reference;
mod registry;
mod retrieval;
mod rich;
mod runtime_schema;
mod schema;
mod serde_attrs;
mod stand_in;
mod support;
mod toolbox;
mod types;
mod validate_only;
