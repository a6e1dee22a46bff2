//! serde attributes that change the wire shape: the schema's `required`, the validator and
//! serde's `Deserialize` agree on every one.

use serde_json::{Value, json};
use tool_core::dispatch::DecodeOptions;
use tool_core::{ToolArgs, ToolError};

fn schema_of<T: tool_core::ToolParam>() -> Value {
    serde_json::from_str(&tool_core::render::json_schema::<T>()).expect("JSON")
}

fn decode<T: ToolArgs>(arguments: Value) -> Result<T, Vec<(String, &'static str)>> {
    tool_core::dispatch::decode::<T>(arguments, &DecodeOptions::default()).map_err(|error| match error {
        ToolError::InvalidArguments { violations, .. } => {
            violations.iter().map(|v| (v.path.clone(), crate::support::keyword(v))).collect()
        }
        other => panic!("{other}"),
    })
}

fn default_limit() -> u32 {
    10
}

#[derive(Debug, ToolArgs)]
#[allow(dead_code)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Renamed {
    first_name: String,
    #[serde(rename = "SURNAME", alias = "last_name")]
    last_name: String,
    #[serde(default = "default_limit")]
    max_results: u32,
    #[serde(skip)]
    cache: Vec<u8>,
    #[serde(skip_deserializing)]
    computed: bool,
    r#type: String,
}

#[test]
fn renames_defaults_skips_and_aliases() {
    let schema = schema_of::<Renamed>();
    let mut properties: Vec<&String> = schema["properties"].as_object().expect("object").keys().collect();
    // The order depends on serde_json's `preserve_order`, which the `mcp` feature turns on.
    properties.sort_unstable();
    assert_eq!(properties, ["SURNAME", "firstName", "maxResults", "type"]);
    assert_eq!(schema["required"], json!(["firstName", "SURNAME", "type"]));
    let args: Renamed = decode(json!({"firstName": "Ada", "SURNAME": "Lovelace", "type": "x"})).expect("valid");
    assert_eq!((args.first_name.as_str(), args.last_name.as_str(), args.max_results), ("Ada", "Lovelace", 10));
    assert!(args.cache.is_empty() && !args.computed);
    // The alias is accepted as serde accepts it (the schema advertises only the name).
    let args: Renamed = decode(json!({"firstName": "A", "last_name": "B", "type": "x"})).expect("alias");
    assert_eq!(args.last_name, "B");
    // Skipped fields are not on the wire: sending one is an unknown property.
    assert_eq!(
        decode::<Renamed>(json!({"firstName": "A", "SURNAME": "B", "type": "x", "cache": []})).expect_err("skipped"),
        [("/cache".to_owned(), "additionalProperties")]
    );
    assert_eq!(
        decode::<Renamed>(json!({"first_name": "A", "SURNAME": "B", "type": "x"})).expect_err("renamed"),
        [(String::new(), "required"), ("/first_name".to_owned(), "additionalProperties")]
    );
}

#[derive(Debug, Default, ToolArgs)]
#[serde(default)]
pub(crate) struct AllDefault {
    verbose: bool,
    #[param(maximum = 3)]
    level: u8,
}

#[test]
fn container_default_makes_every_field_optional() {
    let schema = schema_of::<AllDefault>();
    assert_eq!(schema.get("required"), None);
    let args: AllDefault = decode(json!({})).expect("all defaulted");
    assert!(!args.verbose && args.level == 0);
    assert_eq!(decode::<AllDefault>(json!({"level": 4})).expect_err("checked"), [("/level".to_owned(), "maximum")]);
}

/// Paging options.
#[derive(Debug, ToolArgs)]
pub(crate) struct Paging {
    #[param(minimum = 1)]
    page: u32,
    per_page: Option<u32>,
}

#[derive(Debug, serde::Deserialize, ToolArgs)]
#[tool_args(serde)]
pub(crate) struct Search {
    query: String,
    #[serde(flatten)]
    paging: Paging,
}

#[test]
fn flatten_merges_properties() {
    assert_eq!(
        schema_of::<Search>(),
        json!({
            "type": "object",
            "properties": {
                "query": {"type": "string"},
                "page": {"type": "integer", "maximum": 4_294_967_295_u32, "minimum": 1},
                "per_page": {"anyOf": [{"type": "integer", "minimum": 0, "maximum": 4_294_967_295_u32}, {"type": "null"}]}
            },
            "required": ["query", "page"],
            "additionalProperties": false
        })
    );
    let args: Search = decode(json!({"query": "q", "page": 2})).expect("valid");
    assert_eq!((args.query.as_str(), args.paging.page, args.paging.per_page), ("q", 2, None));
    assert_eq!(
        decode::<Search>(json!({"query": "q", "page": 0, "other": 1})).expect_err("invalid"),
        [("/page".to_owned(), "minimum"), ("/other".to_owned(), "additionalProperties")]
    );
}

#[derive(Debug, ToolArgs)]
#[allow(dead_code)]
struct Generic<T> {
    items: Vec<T>,
}

#[test]
fn generic_structs() {
    assert_eq!(
        schema_of::<Generic<bool>>()["properties"]["items"],
        json!({"type": "array", "items": {"type": "boolean"}})
    );
    assert_eq!(
        decode::<Generic<u8>>(json!({"items": [1, 256]})).expect_err("range"),
        [("/items/1".to_owned(), "maximum")]
    );
}
