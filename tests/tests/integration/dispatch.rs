//! Dispatch by name: valid, invalid and malformed arguments, lenient decoding, the tool's own
//! errors and panics, async tools and the context.

use serde_json::json;
use tool_core::dispatch::DecodeOptions;
use tool_core::{Registry, ToolArgs, ToolContext, ToolError, Violation, tool};
pub(crate) use tool_tests::block_on;

#[derive(Debug, ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum Units {
    Celsius,
    Fahrenheit,
}

/// A stop on a trip.
#[derive(Debug, ToolArgs)]
#[allow(dead_code)]
pub struct Stop {
    /// City name.
    #[param(min_length = 1)]
    pub city: String,
    #[param(minimum = 1, maximum = 14)]
    pub nights: u8,
}

#[derive(Debug, ToolArgs)]
#[allow(dead_code)]
pub struct TripArgs {
    #[param(max_length = 40)]
    pub name: String,
    #[param(min_items = 1, max_items = 5)]
    pub stops: Vec<Stop>,
    pub units: Option<Units>,
    #[param(pattern = "^[A-Z]{3}$")]
    pub currency: Option<String>,
    pub budget: Option<f64>,
    pub insured: Option<bool>,
}

/// Plans a trip.
#[tool]
pub fn plan_trip(args: TripArgs) -> String {
    let nights: u32 = args.stops.iter().map(|s| u32::from(s.nights)).sum();
    format!("{}: {} stops, {nights} nights, {:?}", args.name, args.stops.len(), args.units)
}

#[derive(Debug, ToolArgs)]
pub struct DivideArgs {
    pub a: i64,
    pub b: i64,
}

/// Divides a by b.
#[tool]
pub fn divide(args: DivideArgs) -> Result<String, String> {
    if args.b == 0 {
        return Err("division by zero".to_owned());
    }
    Ok((args.a / args.b).to_string())
}

/// Always panics.
#[tool]
pub fn explode() -> String {
    panic!("boom")
}

/// Returns the call id and a shared greeting.
#[tool]
pub fn whoami(ctx: &ToolContext) -> String {
    let greeting = ctx.state::<&'static str>().copied().unwrap_or("no state");
    format!("{greeting}, {}", ctx.call_id().unwrap_or("no id"))
}

/// Panics while running asynchronously.
#[tool]
pub async fn explode_async() -> String {
    std::future::ready(()).await;
    panic!("async boom")
}

/// Adds asynchronously.
#[tool]
pub async fn add_async(args: DivideArgs) -> String {
    std::future::ready(()).await;
    (args.a + args.b).to_string()
}

fn registry() -> Registry {
    Registry::collect().expect("tool names are unique")
}

fn violations(error: &ToolError) -> Vec<(&str, &str)> {
    match error {
        ToolError::InvalidArguments { violations, .. } => {
            violations.iter().map(|v: &Violation| (v.path.as_str(), &*v.keyword)).collect()
        }
        other => panic!("expected invalid arguments, got {other:?}"),
    }
}

#[test]
fn valid_call_runs_the_fn() {
    let output = registry()
        .call(
            "plan_trip",
            r#"{"name":"Tour","stops":[{"city":"Paris","nights":2},{"city":"Rome","nights":3.0}],"units":"celsius"}"#,
        )
        .expect("valid");
    assert_eq!(output.to_text(), "Tour: 2 stops, 5 nights, Some(Celsius)");
}

#[test]
fn a_parsed_value_is_accepted_too() {
    let output =
        registry().call("plan_trip", json!({"name": "T", "stops": [{"city": "Oslo", "nights": 1}]})).expect("valid");
    assert_eq!(output.to_text(), "T: 1 stops, 1 nights, None");
}

#[test]
fn every_violation_is_reported_with_its_path() {
    let error = registry()
        .call(
            "plan_trip",
            json!({
                "name": "x".repeat(41),
                "stops": [{"city": "", "nights": 15}, {"city": "Rome"}, {"nights": "2", "town": "x"}],
                "units": "kelvin",
                "currency": "eur",
                "budget": "100",
                "insured": null,
                "extra": 1
            }),
        )
        .expect_err("invalid");
    assert_eq!(
        violations(&error),
        [
            ("/name", "maxLength"),
            ("/stops/0/city", "minLength"),
            ("/stops/0/nights", "maximum"),
            ("/stops/1", "required"),
            ("/stops/2", "required"),
            ("/stops/2/nights", "type"),
            ("/stops/2/town", "additionalProperties"),
            ("/units", "enum"),
            ("/currency", "pattern"),
            ("/budget", "type"),
            ("/extra", "additionalProperties"),
        ]
    );
    let text = error.to_string();
    assert!(text.contains("/stops/0/nights: must be <= 14, got 15"), "{text}");
    assert!(text.contains("/stops/1: missing required property \"nights\""), "{text}");
    assert!(text.contains("/units: must be one of [\"celsius\", \"fahrenheit\"], got \"kelvin\""), "{text}");
    assert!(text.contains("/budget: expected a number, got a string \"100\""), "{text}");
}

#[test]
fn integer_range_of_the_rust_type_is_enforced() {
    let error = registry().call("divide", json!({"a": 1, "b": 9_223_372_036_854_775_808_u64})).expect_err("out of i64");
    assert_eq!(violations(&error), [("/b", "maximum")]);
    let error = registry().call("divide", json!({"a": 1.5, "b": 1e300})).expect_err("not integers");
    assert_eq!(violations(&error), [("/a", "type"), ("/b", "maximum")]);
}

#[test]
fn integral_floats_are_integers() {
    assert_eq!(registry().call("divide", r#"{"a": 9.0, "b": 3.0}"#).expect("valid").to_text(), "3");
}

#[test]
fn malformed_json_is_an_error_not_a_panic() {
    for text in ["", "{", "{\"a\": 1,}", "[1, 2", "nul", "{\"a\": 1} trailing", "\"\\ud800\""] {
        match registry().call("divide", text) {
            Err(ToolError::InvalidJson { message }) => assert!(!message.is_empty()),
            Err(ToolError::InvalidArguments { .. }) => {} // valid JSON, wrong shape
            other => panic!("{text:?}: {other:?}"),
        }
    }
    let error = registry().call("divide", "[1, 2]").expect_err("not an object");
    assert_eq!(violations(&error), [("", "type")]);
}

#[test]
fn the_size_limit_is_enforced_before_parsing() {
    let registry = registry().with_options(DecodeOptions::default().max_argument_bytes(16));
    let error = registry.call("divide", r#"{"a": 1, "b": 1, "pad": "xxxxxxxx"}"#).expect_err("too large");
    assert!(matches!(&error, ToolError::InvalidJson { message } if message.contains("16 bytes")), "{error}");
}

#[test]
fn lenient_decoding_fixes_common_model_mistakes() {
    let arguments = json!({"a": "12", "b": "3.0"});
    let strict = registry().call("divide", arguments.clone()).expect_err("strings are not integers");
    assert_eq!(violations(&strict), [("/a", "type"), ("/b", "type")]);
    let lenient = registry().with_options(DecodeOptions::default().lenient(true));
    assert_eq!(lenient.call("divide", arguments).expect("coerced").to_text(), "4");
    // Never null, never a fraction into an integer.
    let error = lenient.call("divide", json!({"a": null, "b": "2.5"})).expect_err("not coercible");
    assert_eq!(violations(&error), [("/a", "type"), ("/b", "type")]);
    // Nested and boolean coercions.
    let output = lenient
        .call(
            "plan_trip",
            json!({"name": 7, "stops": [{"city": "Oslo", "nights": "2"}], "insured": "true", "budget": "9.5"}),
        )
        .expect("coerced");
    assert_eq!(output.to_text(), "7: 1 stops, 2 nights, None");
}

#[test]
fn a_tool_error_is_a_failed_result() {
    let error = registry().call("divide", json!({"a": 1, "b": 0})).expect_err("fails");
    assert_eq!(error, ToolError::Failed { tool: "divide".to_owned(), message: "division by zero".to_owned() });
    assert_eq!(error.to_string(), "tool \"divide\" failed: division by zero");
}

#[test]
fn a_panic_is_caught() {
    let error = registry().call("explode", "{}").expect_err("panics");
    assert_eq!(error, ToolError::Panicked { tool: "explode".to_owned(), message: "boom".to_owned() });
    // The registry is still usable afterwards.
    assert!(registry().call("divide", json!({"a": 4, "b": 2})).is_ok());
}

#[test]
fn a_tool_without_arguments_takes_an_empty_object() {
    assert!(matches!(registry().call("explode", "{}"), Err(ToolError::Panicked { .. })));
    let error = registry().call("explode", json!({"x": 1})).expect_err("takes nothing");
    assert_eq!(violations(&error), [("/x", "additionalProperties")]);
}

#[test]
fn unknown_tool_lists_the_available_ones() {
    let error = registry().call("nope", "{}").expect_err("unknown");
    let ToolError::UnknownTool { name, available } = &error else { panic!("{error:?}") };
    assert_eq!(name, "nope");
    assert!(available.iter().any(|n| n == "plan_trip"));
    assert!(error.to_string().starts_with("unknown tool \"nope\"; the available tools are: "));
}

#[test]
fn context_carries_call_id_and_state() {
    let registry = registry().with_state::<&'static str>("hello");
    let context = registry.context().with_call_id("call_1");
    assert_eq!(registry.call_with(&context, "whoami", "{}").expect("runs").to_text(), "hello, call_1");
    assert_eq!(Registry::collect().expect("unique").call("whoami", "{}").expect("runs").to_text(), "no state, no id");
}

#[test]
fn async_tools_run_when_awaited() {
    let registry = registry();
    let context = registry.context();
    assert_eq!(
        block_on(registry.call_async(&context, "add_async", json!({"a": 2, "b": 3}))).expect("runs").to_text(),
        "5"
    );
    // Bad arguments fail before any future runs; plain tools work through the async path.
    assert!(matches!(
        block_on(registry.call_async(&context, "add_async", json!({"a": 2}))),
        Err(ToolError::InvalidArguments { .. })
    ));
    assert_eq!(
        block_on(registry.call_async(&context, "divide", json!({"a": 6, "b": 3}))).expect("runs").to_text(),
        "2"
    );
    assert_eq!(registry.call("add_async", "{}"), Err(ToolError::RequiresAsync { tool: "add_async".to_owned() }));
}

#[test]
fn the_fn_stays_callable_as_written() {
    assert_eq!(divide(DivideArgs { a: 9, b: 3 }), Ok("3".to_owned()));
    assert_eq!(block_on(add_async(DivideArgs { a: 1, b: 1 })), "2");
}

/// Shapes serde alone accepts and the schema does not: the fast decoding path must refuse
/// them, so the full validation reports them.
#[test]
fn what_serde_alone_would_accept_is_refused() {
    let registry = registry();
    for (tool, arguments, expected) in [
        ("divide", "[6, 3]", vec![("", "type")]),
        ("divide", r#"{"a": 6, "b": 3, "c": 1}"#, vec![("/c", "additionalProperties")]),
        (
            "plan_trip",
            r#"{"name": "x", "stops": [{"city": "A", "nights": 1, "note": 1}]}"#,
            vec![("/stops/0/note", "additionalProperties")],
        ),
        (
            "plan_trip",
            r#"{"name": "x", "stops": [{"city": "A", "nights": 1}], "units": {"celsius": null}}"#,
            vec![("/units", "enum")],
        ),
        ("plan_trip", r#"{"name": "x", "stops": [["A", 1]]}"#, vec![("/stops/0", "type")]),
    ] {
        let error = registry.call(tool, arguments).expect_err(arguments);
        assert_eq!(violations(&error), expected, "{arguments}");
        let value: serde_json::Value = serde_json::from_str(arguments).expect("JSON");
        let error = registry.call(tool, value).expect_err(arguments);
        assert_eq!(violations(&error), expected, "{arguments} as a value");
    }
}

#[test]
#[allow(clippy::assertions_on_constants)] // the flags are constants; this pins their values
fn which_types_decode_on_the_fast_path() {
    use tool_core::ToolParam;
    assert!(<TripArgs as ToolParam>::SERDE_EXACT);
    assert!(<DivideArgs as ToolParam>::SERDE_EXACT);
    assert!(<Option<Units> as ToolParam>::SERDE_EXACT);
    // serde is laxer than the schema for these, so they always take full validation.
    assert!(!<super::serde_attrs::Search as ToolParam>::SERDE_EXACT); // flatten
    assert!(!<super::enums::HasExternal as ToolParam>::SERDE_EXACT); // enum with data
    assert!(!<std::collections::HashSet<String> as ToolParam>::SERDE_EXACT); // drops duplicates
    assert!(!<super::schema::Keywords as ToolParam>::SERDE_EXACT); // `unique_items` on a Vec
}
