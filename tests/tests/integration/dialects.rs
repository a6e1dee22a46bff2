//! Provider dialects, written from the same compile-time tree: the rules each provider
//! documents hold for every registered tool, and what a dialect
//! drops is still enforced at dispatch.

use std::collections::HashMap;

use serde_json::{Value, json};
use tool_core::provider::{StrictChoice, strict_choice};
use tool_core::render::Dialect;
use tool_core::{Registry, ToolArgs, tool};

/// A map: strict modes cannot list its keys in advance.
#[derive(Debug, ToolArgs)]
#[allow(dead_code)]
pub(crate) struct Scores {
    scores: HashMap<String, u8>,
}

/// Stores scores; strict only by default, so it falls back.
#[tool]
fn store_scores(args: Scores) -> String {
    args.scores.len().to_string()
}

/// Never strict, even when strict is the default.
#[tool(strict = false)]
fn loose(args: super::dispatch::DivideArgs) -> String {
    (args.a + args.b).to_string()
}

/// Always strict.
#[tool(strict)]
fn tight(args: super::dispatch::DivideArgs) -> String {
    (args.a - args.b).to_string()
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).expect("rendered text is JSON")
}

/// Every schema object in `schema`, with its depth in objects.
fn walk<'v>(schema: &'v Value, depth: usize, out: &mut Vec<(&'v Value, usize)>) {
    let Value::Object(map) = schema else { return };
    out.push((schema, depth));
    let nested = usize::from(map.get("type").is_some_and(|t| t == "object" || t.get(0) == Some(&json!("object"))));
    if let Some(Value::Object(properties)) = map.get("properties") {
        properties.values().for_each(|p| walk(p, depth + nested, out));
    }
    for key in ["items", "additionalProperties"] {
        if let Some(inner) = map.get(key) {
            walk(inner, depth, out);
        }
    }
    if let Some(Value::Array(branches)) = map.get("anyOf") {
        for branch in branches {
            walk(branch, depth, out);
        }
    }
}

fn keys_outside(schema: &Value, allowed: &[&str]) -> Vec<String> {
    let mut nodes = Vec::new();
    walk(schema, 1, &mut nodes);
    nodes
        .iter()
        .flat_map(|(node, _)| node.as_object().into_iter().flat_map(|m| m.keys()))
        .filter(|key| !allowed.contains(&key.as_str()))
        .cloned()
        .collect()
}

/// `OpenAI` Structured Outputs rules (OpenAI's Chat Completions reference), for every tool that has a strict form.
#[test]
fn openai_strict_rules_hold_for_every_tool() {
    const SUPPORTED: &[&str] = &[
        "type",
        "description",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
        "anyOf",
        "pattern",
        "format",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minItems",
        "maxItems",
    ];
    const FORMATS: &[&str] = &["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"];
    let registry = Registry::collect().expect("unique names");
    let mut strict_tools = 0;
    for entry in registry.iter() {
        let Ok(text) = entry.def().expect("a #[tool] fn").parameters_in(Dialect::OpenAiStrict) else { continue };
        strict_tools += 1;
        let schema = parse(text);
        let name = entry.name();
        jsonschema::draft202012::meta::validate(&schema).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(schema["type"], "object", "{name}: the root is an object");
        assert!(keys_outside(&schema, SUPPORTED).is_empty(), "{name}: {:?}", keys_outside(&schema, SUPPORTED));
        let base = parse(entry.def().expect("a #[tool] fn").parameters_json());
        let mut nodes = Vec::new();
        walk(&schema, 1, &mut nodes);
        let mut properties = 0;
        let mut enum_values = 0;
        for (node, depth) in &nodes {
            assert!(*depth <= 10, "{name}: nested {depth} deep");
            enum_values += node.get("enum").and_then(Value::as_array).map_or(0, Vec::len);
            if let Some(format) = node.get("format") {
                assert!(FORMATS.contains(&format.as_str().unwrap_or_default()), "{name}: format {format}");
            }
            let Some(Value::Object(props)) = node.get("properties") else { continue };
            properties += props.len();
            assert_eq!(node["additionalProperties"], false, "{name}: additionalProperties must be false");
            let required: Vec<&str> =
                node["required"].as_array().map_or_else(Vec::new, |r| r.iter().filter_map(Value::as_str).collect());
            let mut keys: Vec<&str> = props.keys().map(String::as_str).collect();
            let mut sorted = required.clone();
            keys.sort_unstable();
            sorted.sort_unstable();
            assert_eq!(sorted, keys, "{name}: every property is required");
        }
        assert!(properties <= 5000 && enum_values <= 1000, "{name}: limits");
        // Optional in the base schema → nullable in strict.
        if let (Some(Value::Object(strict_props)), Some(base_required)) =
            (schema.get("properties"), base.get("required"))
        {
            for (key, property) in strict_props {
                if !base_required.as_array().is_some_and(|r| r.contains(&json!(key)))
                    && base["properties"][key] != json!({})
                {
                    let nullable = property["type"].as_array().is_some_and(|t| t.contains(&json!("null")))
                        || property["anyOf"].as_array().is_some_and(|b| b.contains(&json!({"type": "null"})));
                    let defaulted = base["properties"][key]["type"].is_string();
                    assert!(nullable || defaulted, "{name}: optional {key} must be nullable or defaulted: {property}");
                }
            }
        }
    }
    assert!(strict_tools > 5, "{strict_tools} tools have a strict form");
}

#[test]
fn strict_choice_falls_back_with_a_reason() {
    let registry = Registry::collect().expect("unique names");
    let scores = registry.get("store_scores").expect("registered");
    assert!(scores.def().expect("a #[tool] fn").parameters_in(Dialect::OpenAiStrict).is_err());
    let choice = strict_choice(scores, Dialect::OpenAiStrict, true);
    assert!(!choice.strict);
    assert!(choice.fallback.is_some_and(|reason| reason.contains("map")), "{choice:?}");
    assert_eq!(choice.parameters, scores.parameters_json());
    let loose = registry.get("loose").expect("registered");
    assert_eq!(
        strict_choice(loose, Dialect::OpenAiStrict, true),
        StrictChoice { parameters: loose.parameters_json().into(), strict: false, fallback: None }
    );
    let tight = registry.get("tight").expect("registered");
    assert!(strict_choice(tight, Dialect::OpenAiStrict, false).strict);
    assert!(strict_choice(tight, Dialect::AnthropicStrict, false).strict);
}

/// Gemini `parameters` (Gemini's generateContent reference): only its Schema fields, upper-case types,
/// `nullable` for `Option`, no `additionalProperties`, string `enum`s only.
#[test]
fn gemini_parameters_use_only_supported_fields() {
    const SUPPORTED: &[&str] = &[
        "type",
        "format",
        "title",
        "description",
        "nullable",
        "enum",
        "default",
        "example",
        "items",
        "minItems",
        "maxItems",
        "minLength",
        "maxLength",
        "pattern",
        "minimum",
        "maximum",
        "properties",
        "required",
        "minProperties",
        "maxProperties",
        "propertyOrdering",
        "anyOf",
    ];
    const TYPES: &[&str] = &["STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"];
    let registry = Registry::collect().expect("unique names");
    for entry in registry.iter() {
        let schema = parse(
            entry
                .def()
                .expect("a #[tool] fn")
                .parameters_in(Dialect::GeminiParameters)
                .expect("Gemini has a form of every schema"),
        );
        let name = entry.name();
        assert!(keys_outside(&schema, SUPPORTED).is_empty(), "{name}: {:?}", keys_outside(&schema, SUPPORTED));
        let mut nodes = Vec::new();
        walk(&schema, 1, &mut nodes);
        for (node, _) in nodes {
            if let Some(kind) = node.get("type") {
                assert!(TYPES.contains(&kind.as_str().unwrap_or_default()), "{name}: type {kind}");
            }
            if let Some(Value::Array(values)) = node.get("enum") {
                assert!(values.iter().all(Value::is_string), "{name}: enum {values:?}");
            }
        }
    }
}

/// Anthropic strict (Anthropic's Messages reference): the SDK's subset, no type unions, `minItems` only
/// 0 or 1, everything else written into the description.
#[test]
fn anthropic_strict_keeps_the_subset_and_describes_the_rest() {
    const SUPPORTED: &[&str] = &[
        "type",
        "description",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
        "anyOf",
        "format",
        "minItems",
    ];
    let registry = Registry::collect().expect("unique names");
    for entry in registry.iter() {
        let Ok(text) = entry.def().expect("a #[tool] fn").parameters_in(Dialect::AnthropicStrict) else { continue };
        let schema = parse(text);
        let name = entry.name();
        jsonschema::draft202012::meta::validate(&schema).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(keys_outside(&schema, SUPPORTED).is_empty(), "{name}: {:?}", keys_outside(&schema, SUPPORTED));
        let mut nodes = Vec::new();
        walk(&schema, 1, &mut nodes);
        for (node, _) in nodes {
            assert!(node.get("type").is_none_or(Value::is_string), "{name}: a type union in {node}");
            assert!(node.get("minItems").is_none_or(|n| n == 0 || n == 1), "{name}: minItems {node}");
        }
    }
}

/// One representative tool in every dialect, exactly: each text is stored pretty-printed in
/// `snapshots/` (key order kept), and must also be what it parses to, written compactly.
#[test]
fn snapshots_of_every_dialect() {
    let registry = Registry::collect().expect("unique names");
    let def = registry.get("plan_trip").expect("registered").def().expect("a #[tool] fn");
    let pretty = |text: &str| {
        let value: Value = serde_json::from_str(text).expect("JSON");
        assert_eq!(value.to_string(), text, "the text is compact JSON");
        serde_json::to_string_pretty(&value).expect("pretty")
    };
    insta::assert_snapshot!("parameters", pretty(def.parameters_json()));
    insta::assert_snapshot!("openai_strict", pretty(def.parameters_in(Dialect::OpenAiStrict).expect("strict form")));
    insta::assert_snapshot!(
        "anthropic_strict",
        pretty(def.parameters_in(Dialect::AnthropicStrict).expect("strict form"))
    );
    insta::assert_snapshot!(
        "gemini_parameters",
        pretty(def.parameters_in(Dialect::GeminiParameters).expect("Gemini has a form of every schema"))
    );
}

#[test]
fn what_a_dialect_drops_is_still_enforced() {
    // OpenAI strict has no `maxLength`: the model reads it in the description, and the
    // call is still refused.
    let registry = Registry::collect().expect("unique names");
    let text = registry
        .get("plan_trip")
        .expect("registered")
        .def()
        .expect("a #[tool] fn")
        .parameters_in(Dialect::OpenAiStrict)
        .expect("strict");
    assert!(!text.contains("\"maxLength\"") && text.contains(r#""description":"{maxLength: 40}""#), "{text}");
    let error = registry
        .call("plan_trip", json!({"name": "x".repeat(41), "stops": [{"city": "A", "nights": 1}]}))
        .expect_err("too long");
    assert!(error.to_string().contains("/name: must be at most 40 characters long"));
}

/// Search arguments, one kept for old callers.
#[derive(Debug, ToolArgs)]
#[allow(dead_code)]
pub(crate) struct SearchArgs {
    /// What to look for.
    query: String,
    /// Use `query`.
    #[param(deprecated)]
    text: Option<String>,
}

/// Searches.
#[tool]
fn search_legacy(args: SearchArgs) -> String {
    args.query
}

/// `deprecated`, the newest keyword: kept as JSON Schema states it, moved into the description
/// where a dialect lacks it, an annotation at dispatch, refused by an elicitation form.
#[test]
fn deprecated_is_placed_in_every_dialect() {
    let registry = Registry::collect().expect("unique names");
    let def = registry.get("search_legacy").expect("registered").def().expect("a #[tool] fn");
    let property = |text: &str, pointer: &str| parse(text).pointer(pointer).cloned().expect("the property");
    let kept = property(def.parameters_json(), "/properties/text/anyOf/0");
    assert_eq!(kept["deprecated"], true, "{kept}");
    let described = json!("Use `query`.\n\n{deprecated: true}");
    let moved = [
        (Dialect::OpenAiStrict, "/properties/text"),
        (Dialect::AnthropicStrict, "/properties/text/anyOf/0"),
        (Dialect::GeminiParameters, "/properties/text"),
    ]
    .map(|(dialect, pointer)| (def.parameters_in(dialect).expect("a form in every dialect"), pointer));
    for (text, pointer) in moved {
        let property = property(text, pointer);
        assert!(property.get("deprecated").is_none() && property["description"] == described, "{text}");
    }
    // An annotation: the field is still accepted, and checked as its type says.
    let output = registry.call("search_legacy", json!({"query": "rust", "text": "old"})).expect("accepted");
    assert_eq!(output.to_text(), "rust");
    assert!(registry.call("search_legacy", json!({"query": "rust", "text": 5})).is_err());
    let refusal = tool_core::context::elicitation_problem(&<SearchArgs as tool_core::ToolParam>::SCHEMA);
    assert!(refusal.is_some_and(|why| why.contains("`deprecated`")), "{refusal:?}");
}

/// Integers of every width, for what each dialect says of their ranges.
#[derive(Debug, ToolArgs)]
#[allow(dead_code)]
struct Widths {
    small: u8,
    count: u32,
    offset: i32,
    id: u64,
    at: i64,
}

/// Where a schema's readers enforce bounds (an MCP client or a run-time twin reading the
/// plain schema, OpenAI's strict decoding), every width's full range is stated; where they
/// do not (Anthropic's strict tools move bounds into the description, Gemini may ignore them
/// and reads them as doubles), only the ranges that inform a model (8 and 16 bits, an
/// unsigned type's 0).
#[test]
fn integer_widths_are_stated_where_readers_enforce_them() {
    let schema = <Widths as tool_core::ToolParam>::SCHEMA;
    let bounds = |dialect: Dialect| {
        let rendered = parse(&tool_core::render::to_json_in(&schema, dialect));
        let properties = rendered["properties"].as_object().expect("properties").clone();
        properties
            .into_iter()
            .map(|(name, property)| {
                let bound = |key: &str| property.get(key).and_then(Value::as_number).map(ToString::to_string);
                (name, bound("minimum"), bound("maximum"))
            })
            .collect::<Vec<_>>()
    };
    let some = |text: &str| Some(text.to_owned());
    let full = vec![
        ("small".to_owned(), some("0"), some("255")),
        ("count".to_owned(), some("0"), some("4294967295")),
        ("offset".to_owned(), some("-2147483648"), some("2147483647")),
        ("id".to_owned(), some("0"), some("18446744073709551615")),
        ("at".to_owned(), some("-9223372036854775808"), some("9223372036854775807")),
    ];
    assert_eq!(bounds(Dialect::JsonSchema), full);
    assert_eq!(bounds(Dialect::OpenAiStrict), full);
    let informing = vec![
        ("small".to_owned(), some("0"), some("255")),
        ("count".to_owned(), some("0"), None),
        ("offset".to_owned(), None, None),
        ("id".to_owned(), some("0"), None),
        ("at".to_owned(), None, None),
    ];
    assert_eq!(bounds(Dialect::GeminiParameters), informing);
    // Anthropic's strict tools take no bounds in the schema: they are in the description.
    let anthropic = parse(&tool_core::render::to_json_in(&schema, Dialect::AnthropicStrict));
    assert_eq!(anthropic["properties"]["count"]["description"], json!("{minimum: 0}"));
    assert_eq!(anthropic["properties"]["offset"].get("description"), None);
}

/// A run-time twin built from the schema a tool publishes (what a remote MCP server's client
/// builds) refuses exactly the integers the tool refuses.
#[test]
fn a_run_time_twin_refuses_what_the_integer_types_refuse() {
    let published: Value = parse(&tool_core::render::json_schema::<Widths>());
    let twin = tool_core::schema::RuntimeSchema::new(published).expect("a valid schema");
    let base = json!({"small": 1, "count": 1, "offset": 1, "id": 1, "at": 1});
    for (field, value) in [
        ("count", json!(4_294_967_296_u64)),
        ("offset", json!(2_147_483_648_u64)),
        ("offset", json!(-2_147_483_649_i64)),
        ("at", json!(3.5e39)),
        ("at", json!(-1e300)),
        ("id", json!(-1)),
    ] {
        let mut sent = base.clone();
        sent[field] = value.clone();
        let compiled =
            tool_core::dispatch::decode::<Widths>(sent.clone(), &tool_core::dispatch::DecodeOptions::default());
        let Err(tool_core::ToolError::InvalidArguments { violations, .. }) = compiled else {
            panic!("{field} = {value}: the tool accepted it");
        };
        assert_eq!(
            twin.validate(&sent).expect_err("the twin refuses it").as_slice(),
            violations.as_slice(),
            "{field} = {value}"
        );
    }
}
