//! A tool's whole input schema written by hand: a typed handler over a hand-written schema
//! (`DynamicTool::new_typed`), and a hand-written schema in place of the one a type or a
//! `#[tool]` fn states (`DynamicTool::with_parameters`, `DynamicTool::from_tool`). The
//! schema given is what is published and checked first; the handler's type then reads the
//! arguments with its own rules.

use serde_json::json;
use tool_core::render::Dialect;
use tool_core::{DynamicTool, Registry, RegistryError, ToolArgs, tool};
use tool_tests::block_on;

/// The hand-written schema: `city` with an enum the type does not state, `days` up to 30.
const HAND: &str = r#"{"type":"object","properties":{"city":{"type":"string","enum":["Oslo","Rome"]},"days":{"type":"integer","minimum":1,"maximum":30}},"required":["city","days"]}"#;

#[derive(serde::Deserialize)]
struct Plain {
    city: String,
    days: u8,
}

/// Forecast arguments whose own rules allow at most 10 days
#[derive(ToolArgs)]
struct Forecast {
    /// The city
    city: String,
    /// How many days
    #[param(minimum = 1, maximum = 10)]
    days: u8,
}

/// A forecast
#[tool]
fn hand_forecast(args: Forecast) -> String {
    format!("{} for {} days", args.city, args.days)
}

fn call(registry: &Registry, name: &str, arguments: serde_json::Value) -> Result<String, String> {
    let context = registry.context();
    let called =
        block_on(registry.call_async(&context, name, arguments.clone())).map(|output| output.to_text().into_owned());
    // Checking without running gives the call's own answer.
    let validated = registry.validate(name, arguments);
    assert_eq!(validated.is_ok(), called.is_ok(), "validate agrees with the call: {called:?} {validated:?}");
    called.map_err(|error| error.to_string())
}

#[test]
fn a_typed_handler_reads_arguments_a_hand_written_schema_checked() {
    let tool = DynamicTool::new_typed("plain", "A forecast", HAND, |_ctx, args: Plain| async move {
        format!("{} x{}", args.city, args.days)
    })
    .unwrap();
    let mut registry = Registry::new();
    registry.add_dynamic(tool).unwrap();
    assert_eq!(registry.get("plain").unwrap().parameters_json(), HAND);
    assert_eq!(call(&registry, "plain", json!({"city": "Oslo", "days": 3})).unwrap(), "Oslo x3");
    let refused = call(&registry, "plain", json!({"city": "Paris", "days": 3})).unwrap_err();
    assert!(refused.contains(r#"/city: must be one of ["Oslo", "Rome"], got "Paris""#), "{refused}");
    // A schema looser than the type: what the type cannot read (300 in a `u8`) is refused.
    let schema = r#"{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city","days"]}"#;
    let loose =
        DynamicTool::new_typed("loose", "A forecast", schema, |_ctx, args: Plain| async move { args.days.to_string() })
            .unwrap();
    registry.add_dynamic(loose).unwrap();
    let context = registry.context();
    let unread = block_on(registry.call_async(&context, "loose", json!({"city": "Oslo", "days": 300}))).unwrap_err();
    assert!(unread.to_string().contains("300"), "the type's refusal is the call's answer: {unread}");
}

#[test]
fn a_hand_written_schema_replaces_a_typed_tools_and_the_types_rules_still_hold() {
    let typed = DynamicTool::typed("typed", "A forecast", |_ctx, args: Forecast| async move {
        format!("{} for {} days", args.city, args.days)
    })
    .unwrap();
    let tool = typed.with_parameters(HAND).unwrap();
    let mut registry = Registry::new();
    registry.add_dynamic(tool).unwrap();
    let entry = registry.get("typed").unwrap();
    assert_eq!(entry.parameters_json(), HAND, "published as written");
    assert!(tool_core::provider::parameters(entry, Dialect::OpenAiStrict).is_err(), "a run-time schema is not strict");
    assert_eq!(call(&registry, "typed", json!({"city": "Rome", "days": 5})).unwrap(), "Rome for 5 days");
    // The hand-written schema refuses first, with its own words.
    let refused = call(&registry, "typed", json!({"city": "Paris", "days": 5})).unwrap_err();
    assert!(refused.contains(r#"/city: must be one of ["Oslo", "Rome"], got "Paris""#), "{refused}");
    // What it allows but the type refuses is refused by the type.
    let refused = call(&registry, "typed", json!({"city": "Rome", "days": 20})).unwrap_err();
    assert!(refused.contains("/days: must be <= 10, got 20"), "{refused}");
}

#[test]
fn a_tool_fn_takes_a_hand_written_schema_through_from_tool() {
    let tool = DynamicTool::from_tool(HandForecastTool).unwrap();
    assert_eq!((tool.name(), tool.schema().is_some()), ("hand_forecast", true));
    let tool = tool.with_parameters(HAND).unwrap();
    let mut registry = Registry::new();
    registry.add_dynamic(tool).unwrap();
    let entry = registry.get("hand_forecast").unwrap();
    assert_eq!((entry.description(), entry.parameters_json()), ("A forecast", HAND));
    assert_eq!(call(&registry, "hand_forecast", json!({"city": "Oslo", "days": 2})).unwrap(), "Oslo for 2 days");
    let refused = call(&registry, "hand_forecast", json!({"city": "Lima", "days": 2})).unwrap_err();
    assert!(refused.contains("/city: must be one of"), "{refused}");
    let refused = call(&registry, "hand_forecast", json!({"city": "Oslo", "days": 11})).unwrap_err();
    assert!(refused.contains("/days: must be <= 10, got 11"), "{refused}");

    // Without an override it is the `#[tool]`, schema and all.
    let plain = DynamicTool::from_tool(HandForecastTool).unwrap();
    let mut own = Registry::new();
    own.add(HandForecastTool).unwrap();
    let stated: serde_json::Value = serde_json::from_str(own.get("hand_forecast").unwrap().parameters_json()).unwrap();
    assert_eq!(plain.parameters(), &stated);

    // A schema that is not an object schema is refused when the tool is made.
    let error = DynamicTool::from_tool(HandForecastTool).unwrap().with_parameters(r#"{"type":"string"}"#).unwrap_err();
    assert!(matches!(error, RegistryError::InvalidSchema { .. }), "{error}");
}
