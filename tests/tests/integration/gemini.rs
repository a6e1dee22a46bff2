//! Gemini's `parameters`: what its `Schema` object refuses (an `OBJECT` with empty
//! `properties`, which the API answers with `INVALID_ARGUMENT`) is never sent, and what it
//! cannot carry is reported per tool, as strict-mode fallbacks are.

use std::collections::HashMap;

use serde_json::{Value, json};
use tool_core::provider::gemini::{self, SchemaField};
use tool_core::{DynamicTool, Registry, ToolArgs, ToolOutput, tool};

/// Says hello
#[tool]
fn gemini_hello() -> String {
    "hello".to_owned()
}

#[derive(Debug, ToolArgs)]
struct Nothing {}

#[derive(Debug, ToolArgs)]
struct Filter {
    /// Tags to match
    tags: HashMap<String, u8>,
    /// Nested, but empty
    options: Nothing,
}

/// Filters by tag
#[tool]
fn gemini_filter(args: Filter) -> String {
    format!("{} tags", args.tags.len())
}

#[derive(Debug, ToolArgs)]
struct Step {
    #[param(exclusive_minimum = 0, multiple_of = 5)]
    minutes: u32,
}

/// Waits
#[tool]
fn gemini_wait(args: Step) -> String {
    format!("{} min", args.minutes)
}

#[derive(Debug, ToolArgs)]
struct Plain {
    #[param(min_length = 1)]
    city: String,
}

/// Plain
#[tool]
fn gemini_plain(args: Plain) -> String {
    args.city
}

fn registry() -> Registry {
    let mut registry = Registry::new();
    registry
        .add(GeminiHelloTool)
        .and_then(|r| r.add(GeminiFilterTool))
        .and_then(|r| r.add(GeminiWaitTool))
        .and_then(|r| r.add(GeminiPlainTool))
        .expect("unique names");
    registry
}

/// The declarations by name, and the fallbacks in list order.
fn declarations(registry: &Registry, field: SchemaField) -> (Declarations, Vec<(String, &'static str)>) {
    let list = gemini::tools(registry.iter(), field);
    let tools: Value = serde_json::from_str(&list.json).expect("JSON");
    let declarations = tools[0]["functionDeclarations"].as_array().expect("declarations").clone();
    (Declarations(declarations), list.fallbacks.into_iter().map(|f| (f.tool, f.reason)).collect())
}

struct Declarations(Vec<Value>);

impl std::ops::Index<&str> for Declarations {
    type Output = Value;

    fn index(&self, name: &str) -> &Value {
        self.0.iter().find(|d| d["name"] == name).unwrap_or_else(|| panic!("no {name}"))
    }
}

#[test]
fn a_tool_without_arguments_has_no_parameters() {
    for field in [SchemaField::Parameters, SchemaField::ParametersJsonSchema] {
        let (declarations, _) = declarations(&registry(), field);
        assert_eq!(
            declarations["gemini_hello"],
            json!({"name": "gemini_hello", "description": "Says hello"}),
            "{field:?}"
        );
    }
}

#[test]
fn an_empty_nested_object_states_no_properties() {
    let (declarations, _) = declarations(&registry(), SchemaField::Parameters);
    assert_eq!(
        declarations["gemini_filter"]["parameters"]["properties"]["options"],
        json!({"description": "Nested, but empty", "type": "OBJECT"})
    );
}

#[test]
fn what_parameters_cannot_carry_is_reported_per_tool() {
    let (declarations, fallbacks) = declarations(&registry(), SchemaField::Parameters);
    assert_eq!(
        declarations["gemini_filter"]["parameters"]["properties"]["tags"],
        json!({"description": "Tags to match", "type": "OBJECT"})
    );
    assert_eq!(
        declarations["gemini_wait"]["parameters"]["properties"]["minutes"],
        json!({"description": "{exclusiveMinimum: 0, multipleOf: 5}", "type": "INTEGER", "minimum": 0})
    );
    assert_eq!(
        fallbacks,
        [
            ("gemini_filter".to_owned(), gemini::schema_loss::MAP_VALUES),
            ("gemini_wait".to_owned(), gemini::schema_loss::KEYWORDS),
        ]
    );
    // The JSON Schema field carries everything.
    assert!(declarations_json_schema_fallbacks().is_empty());
    // And dispatch enforces what the model was not told.
    let registry = registry();
    assert!(registry.call("gemini_wait", r#"{"minutes": 7}"#).is_err());
    assert!(registry.call("gemini_filter", r#"{"tags": {"a": 300}, "options": {}}"#).is_err());
}

fn declarations_json_schema_fallbacks() -> Vec<(String, &'static str)> {
    declarations(&registry(), SchemaField::ParametersJsonSchema).1
}

#[test]
fn dynamic_tools_follow_the_same_rules() {
    let handler = |_, _| async { Ok(ToolOutput::text("ok")) };
    let mut registry = Registry::new();
    let none = DynamicTool::new("ping", "Ping", r#"{"type":"object","properties":{}}"#, handler).expect("valid");
    let map = r#"{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}},"required":["m"]}"#;
    let mapped = DynamicTool::new("mapped", "Mapped", map, handler).expect("valid");
    let any = r#"{"type":"object","properties":{"v":{}}}"#;
    let untyped = DynamicTool::new("untyped", "Untyped", any, handler).expect("valid");
    registry.add_dynamic(none).and_then(|r| r.add_dynamic(mapped)).and_then(|r| r.add_dynamic(untyped)).expect("names");
    let (declarations, fallbacks) = declarations(&registry, SchemaField::Parameters);
    assert_eq!(declarations["ping"], json!({"name": "ping", "description": "Ping"}));
    assert_eq!(
        declarations["mapped"]["parameters"],
        json!({"type": "OBJECT", "properties": {"m": {"type": "OBJECT"}}, "required": ["m"]})
    );
    assert_eq!(
        fallbacks,
        [("mapped".to_owned(), gemini::schema_loss::MAP_VALUES), ("untyped".to_owned(), gemini::schema_loss::UNTYPED)]
    );
}

/// A forecast, as structured output.
#[derive(serde::Serialize, tool_core::ToolSchema)]
struct Forecast {
    city: String,
    #[param(minimum = -90, maximum = 60)]
    celsius: i8,
}

/// Forecasts, with a structured result
#[tool]
fn gemini_forecast(city: String) -> tool_core::Structured<Forecast> {
    tool_core::Structured(Forecast { city, celsius: 21 })
}

#[test]
fn a_tool_with_an_output_schema_declares_its_response_in_the_parameters_form() {
    let mut registry = Registry::new();
    registry.add(GeminiForecastTool).unwrap();
    registry.add(GeminiHelloTool).unwrap();
    let (json_form, _) = declarations(&registry, SchemaField::ParametersJsonSchema);
    let output: Value =
        serde_json::from_str(registry.get("gemini_forecast").unwrap().output_schema().unwrap()).unwrap();
    assert_eq!(json_form["gemini_forecast"]["responseJsonSchema"], output);
    assert_eq!(json_form["gemini_forecast"].get("response"), None);
    let (gemini_form, _) = declarations(&registry, SchemaField::Parameters);
    let response = &gemini_form["gemini_forecast"]["response"];
    assert_eq!(response["type"], "OBJECT");
    assert_eq!(response["properties"]["celsius"], json!({"type": "INTEGER", "minimum": -90, "maximum": 60}));
    assert_eq!(gemini_form["gemini_forecast"].get("responseJsonSchema"), None);
    // A tool without an output schema declares none.
    assert_eq!(gemini_form["gemini_hello"].get("response"), None);
    assert_eq!(json_form["gemini_hello"].get("responseJsonSchema"), None);
}
