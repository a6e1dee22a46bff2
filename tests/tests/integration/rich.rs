//! A type of every shape the run-time differential covers beyond the others' samples:
//! element keywords on sequences and maps, a tuple, an exact count, formats, every integer
//! width, a nested struct, a flattened one and optional enums of three taggings.

use std::collections::BTreeMap;

use tool_core::ToolArgs;

use super::enums::{External, Internal, Untagged};

#[derive(Debug, ToolArgs, serde::Deserialize)]
#[tool_args(serde)]
#[allow(dead_code)]
pub(crate) struct Rich {
    #[param(max_items = 3, items(min_length = 1, max_length = 8, pattern = "^[a-z]+$"))]
    tags: Vec<String>,
    #[param(min_properties = 1, max_properties = 3, values(minimum = 0, maximum = 100))]
    scores: BTreeMap<String, i32>,
    #[param(items(enum = ["on", "off"]))]
    switches: Vec<String>,
    pair: (u8, String),
    #[param(min_items = 2, max_items = 2)]
    two: Vec<bool>,
    #[param(format = "date-time")]
    when: String,
    #[param(format = "ipv4")]
    host: Option<String>,
    small: i8,
    count: u32,
    wide: u64,
    signed: i64,
    #[param(minimum = -10, maximum = 10)]
    level: i16,
    inner: Inner,
    #[serde(default)]
    either: Option<Untagged>,
    #[serde(default)]
    shape: Option<External>,
    #[serde(default)]
    action: Option<Internal>,
    #[serde(flatten)]
    paging: Paging,
}

#[derive(Debug, ToolArgs)]
#[allow(dead_code)]
pub(crate) struct Inner {
    #[param(min_length = 2)]
    label: String,
    #[serde(default)]
    #[param(unique_items)]
    ids: Vec<u16>,
}

#[derive(Debug, ToolArgs, serde::Deserialize)]
#[tool_args(serde)]
#[allow(dead_code)]
pub(crate) struct Paging {
    #[param(minimum = 1)]
    page: u32,
}
