//! Tools made at run time: beside `#[tool]` fns in one registry, listed in every dialect,
//! called the same way, their errors and panics turned into results.

use serde_json::{Value, json};
use tool_core::provider::{anthropic, gemini, mcp_json, openai};
use tool_core::{DynamicTool, Registry, RegistryError, ToolArgs, ToolContext, ToolError, ToolOutput};
use tool_tests::block_on;

const SCHEMA: &str = r#"{"type":"object","properties":{"city":{"type":"string","minLength":1},"days":{"type":["integer","null"],"exclusiveMinimum":0}},"required":["city"],"additionalProperties":false}"#;

fn forecast(prefix: &'static str) -> DynamicTool {
    DynamicTool::new("remote_forecast", "Forecast from a remote service", SCHEMA, move |ctx: ToolContext, args| {
        let city = args.get("city").and_then(Value::as_str).unwrap_or_default().to_owned();
        let call = ctx.call_id().unwrap_or("no id").to_owned();
        async move {
            match city.as_str() {
                "" => Err(ToolError::Denied { tool: "remote_forecast".to_owned(), reason: "no city".to_owned() }),
                "Atlantis" => panic!("the remote service fell over"),
                _ => Ok(ToolOutput::text(format!("{prefix}{city} ({call})"))),
            }
        }
    })
    .expect("valid tool")
    .with_title("Remote forecast")
}

fn registry() -> Registry {
    let mut registry = Registry::new();
    registry.add_dynamic(forecast("sunny in ")).unwrap();
    registry
}

#[test]
fn a_dynamic_tool_is_called_like_any_other() {
    let registry = registry();
    let context = registry.context().with_call_id("c1");
    let output = block_on(registry.call_async(&context, "remote_forecast", r#"{"city": "Oslo"}"#)).unwrap();
    assert_eq!(output.to_text(), "sunny in Oslo (c1)");
    let panicked = block_on(registry.call_async(&context, "remote_forecast", json!({"city": "Atlantis"}))).unwrap_err();
    assert!(panicked.to_string().contains("crashed (the remote service fell over)"), "{panicked}");
    let not_object = block_on(registry.call_async(&context, "remote_forecast", json!(["Oslo"]))).unwrap_err();
    assert!(not_object.to_string().contains("expected an object"), "{not_object}");
    let bad_json = block_on(registry.call_async(&context, "remote_forecast", "{oops")).unwrap_err();
    assert!(matches!(bad_json, ToolError::InvalidJson { .. }));
    assert!(matches!(registry.call("remote_forecast", "{}"), Err(ToolError::RequiresAsync { .. })));
}

#[test]
fn a_call_that_breaks_the_run_time_schema_never_reaches_the_handler() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let runs = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&runs);
    let counting = DynamicTool::new("count", "Counts its calls", SCHEMA, move |_, args| {
        counted.fetch_add(1, Ordering::SeqCst);
        async move { Ok(ToolOutput::text(Value::Object(args).to_string())) }
    })
    .unwrap();
    let mut strict = Registry::new();
    strict.add_dynamic(counting.clone()).unwrap();
    let context = strict.context();
    let refused = block_on(strict.call_async(&context, "count", json!({"city": "", "days": 0, "unit": "C"})));
    let Err(ToolError::InvalidArguments { tool, violations }) = refused else { panic!("{refused:?}") };
    assert_eq!(tool, "count", "the error names the tool");
    let found: Vec<(&str, &str, &str)> =
        violations.iter().map(|v| (v.path.as_str(), &*v.keyword, v.message.as_str())).collect();
    assert_eq!(
        found,
        [
            ("/city", "minLength", "must be at least 1 character long, got 0: \"\""),
            ("/days", "exclusiveMinimum", "must be > 0, got 0"),
            ("/unit", "additionalProperties", "unknown property \"unit\"; the properties are \"city\", \"days\""),
        ]
    );
    let strings = block_on(strict.call_async(&context, "count", json!({"city": "Oslo", "days": "3"})));
    assert!(matches!(strings, Err(ToolError::InvalidArguments { .. })), "strict by default: {strings:?}");
    assert_eq!(runs.load(Ordering::SeqCst), 0, "neither call reached the handler");

    // Lenient decoding coerces what the schema's types allow, then validates.
    let mut lenient = Registry::new().with_options(tool_core::dispatch::DecodeOptions::default().lenient(true));
    lenient.add_dynamic(counting).unwrap();
    let context = lenient.context();
    let output = block_on(lenient.call_async(&context, "count", json!({"city": "Oslo", "days": "3"}))).unwrap();
    assert_eq!(output.to_text(), r#"{"city":"Oslo","days":3}"#);
    let still = block_on(lenient.call_async(&context, "count", json!({"city": "Oslo", "days": "0"}))).unwrap_err();
    assert!(still.to_string().contains("/days: must be > 0, got 0"), "{still}");
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

#[test]
fn a_run_time_schema_keeps_its_key_order_wherever_it_is_sent() {
    // Declared zeta first: a model fills parameters in the order it reads them.
    let schema =
        r#"{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"integer"}},"required":["zeta"]}"#;
    let tool =
        DynamicTool::new("ordered", "Keeps its order", schema, |_, _| async { Ok(ToolOutput::text("")) }).unwrap();
    let mut registry = Registry::new();
    registry.add_dynamic(tool).unwrap();
    let before = |text: &str| text.find("zeta").unwrap() < text.find("alpha").unwrap();
    assert!(before(&openai::chat_tools(registry.iter(), true).json));
    assert!(before(&anthropic::tools(registry.iter(), true).json));
    assert!(before(&gemini::tools(registry.iter(), gemini::SchemaField::Parameters).json));
    assert!(before(&mcp_json::tools_list(registry.iter()).json));
}

#[test]
fn a_dynamic_tool_is_listed_in_every_dialect() {
    let registry = registry();
    let chat: Value = serde_json::from_str(&openai::chat_tools(registry.iter(), true).json).unwrap();
    assert_eq!(chat[0]["function"]["parameters"], serde_json::from_str::<Value>(SCHEMA).unwrap());
    assert!(chat[0]["function"].get("strict").is_none(), "not strict: Chat reads a missing member as false");
    let list = anthropic::tools(registry.iter(), true);
    assert_eq!(list.fallbacks.len(), 1, "strict was wanted: the fallback says why");
    let gemini: Value =
        serde_json::from_str(&gemini::tools(registry.iter(), gemini::SchemaField::Parameters).json).unwrap();
    assert_eq!(
        gemini[0]["functionDeclarations"][0]["parameters"],
        json!({"type": "OBJECT", "properties": {
            "city": {"type": "STRING", "minLength": 1},
            "days": {"type": "INTEGER", "nullable": true}
        }, "required": ["city"]})
    );
    let mcp: Value = serde_json::from_str(&mcp_json::tools_list(registry.iter()).json).unwrap();
    assert_eq!(mcp[0]["title"], "Remote forecast");
    let mut merged = Registry::new();
    merged.merge_prefixed("mcp_weather_", &registry).unwrap();
    assert!(
        merged
            .get("mcp_weather_remote_forecast")
            .unwrap()
            .definition_json()
            .contains(r#""name":"mcp_weather_remote_forecast""#)
    );
}

#[test]
fn bad_names_and_schemas_are_refused() {
    let handler = |_: ToolContext, _| async { Ok(ToolOutput::text("")) };
    assert!(matches!(DynamicTool::new("has space", "", "{}", handler), Err(RegistryError::InvalidName { .. })));
    let not_object = DynamicTool::new("t", "", r#"{"type":"string"}"#, handler).unwrap_err();
    let not_a_schema = DynamicTool::new("t", "", r#"{"type":"object","required":"city"}"#, handler).unwrap_err();
    assert!(not_a_schema.to_string().contains("not a usable JSON Schema"), "{not_a_schema}");
    assert!(not_object.to_string().contains("object schema"), "{not_object}");
    assert!(matches!(DynamicTool::new("t", "", "{", handler), Err(RegistryError::InvalidSchema { .. })));
    let mut registry = registry();
    assert!(matches!(registry.add_dynamic(forecast("x")), Err(RegistryError::DuplicateName { .. })));
}

mod typed {
    use serde_json::json;
    use tool_core::dispatch::DecodeOptions;
    use tool_core::provider::{self, StrictChoice};
    use tool_core::render::Dialect;
    use tool_core::{DynamicTool, Registry, Structured, ToolArgs, ToolError, ToolSchema};

    #[derive(ToolArgs)]
    struct Convert {
        /// The amount to convert
        #[param(minimum = 0)]
        amount: f64,
        /// ISO 4217 code
        #[param(pattern = "^[A-Z]{3}$")]
        to: String,
    }

    #[derive(serde::Serialize, ToolSchema)]
    struct Converted {
        amount: f64,
        currency: String,
    }

    fn registry(rate: f64) -> Registry {
        // The name, the description and the rate come from configuration at run time.
        let tool =
            DynamicTool::typed("convert_eur", format!("Converts euros at {rate}"), move |_ctx, args: Convert| {
                let result = if args.to == "XXX" {
                    Err(format!("no rate for {}", args.to))
                } else {
                    Ok(Structured(Converted { amount: args.amount * rate, currency: args.to }))
                };
                async move { result }
            })
            .unwrap();
        let mut registry = Registry::new().with_options(DecodeOptions::default().lenient(true));
        registry.add_dynamic(tool).unwrap();
        registry
    }

    #[tokio::test]
    async fn a_typed_tool_made_at_run_time_is_validated_decoded_and_described_as_a_tool_fn() {
        let registry = registry(2.0);
        let entry = registry.get("convert_eur").unwrap();
        assert_eq!(entry.description(), "Converts euros at 2");
        assert_eq!(entry.parameters_json(), tool_core::render::json_schema::<Convert>());
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(entry.output_schema().unwrap()).unwrap()["required"],
            json!(["amount", "currency"])
        );
        // Strict dialects come from the compile-time tree, as for a `#[tool]`.
        let StrictChoice { strict, fallback, .. } = provider::strict_choice(entry, Dialect::OpenAiStrict, true);
        assert!(strict && fallback.is_none());
        assert!(provider::parameters(entry, Dialect::GeminiParameters).unwrap().contains("\"STRING\""));

        let context = registry.context();
        let ok = registry.call_async(&context, "convert_eur", r#"{"amount": "1.5", "to": "USD"}"#).await.unwrap();
        assert_eq!(ok.structured(), Some(&json!({"amount": 3.0, "currency": "USD"})), "lenient: \"1.5\" is 1.5");
        let invalid = registry.call_async(&context, "convert_eur", r#"{"amount": -1, "to": "usd"}"#).await.unwrap_err();
        let ToolError::InvalidArguments { tool, violations } = &invalid else { panic!("{invalid:?}") };
        assert_eq!((tool.as_str(), violations.as_slice().len()), ("convert_eur", 2), "{invalid}");
        let failed = registry.call_async(&context, "convert_eur", r#"{"amount": 1, "to": "XXX"}"#).await.unwrap_err();
        assert!(
            matches!(&failed, ToolError::Failed { tool, message } if tool == "convert_eur" && message == "no rate for XXX")
        );
    }
}

/// The arguments a derive describes, for the builder to match.
#[derive(Debug, ToolArgs)]
#[allow(dead_code)]
struct Planned {
    /// City name
    #[param(min_length = 1)]
    city: String,
    #[param(minimum = 1, maximum = 10)]
    days: u8,
    tags: Vec<String>,
    #[serde(default)]
    units: Option<PlannedUnits>,
}

#[derive(Debug, ToolArgs)]
#[allow(dead_code)]
#[serde(rename_all = "lowercase")]
enum PlannedUnits {
    Celsius,
    Fahrenheit,
}

#[test]
fn a_schema_built_in_code_is_the_one_the_derive_writes_and_checks_alike() {
    use tool_core::schema::Spec;
    let built = Spec::object()
        .description("The arguments a derive describes, for the builder to match.")
        .property("city", Spec::string().description("City name").min_length(1))
        .property("days", Spec::integer().minimum(1).maximum(10))
        .property("tags", Spec::array(Spec::string()))
        .optional("units", Spec::one_of(["celsius", "fahrenheit"]));
    let derived: Value = serde_json::from_str(&tool_core::render::json_schema::<Planned>()).unwrap();
    // The derive writes an optional enum as `anyOf` with `null`; the builder, as a plain
    // optional property. Everything else is the same schema.
    let mut expected = derived.clone();
    expected["properties"]["units"] = json!({"type": "string", "enum": ["celsius", "fahrenheit"]});
    assert_eq!(built.to_value(), expected);
    // A tool from it refuses what the `#[tool]` refuses, worded alike.
    let tool =
        DynamicTool::new("plan", "Plans", &built.to_string(), |_, _| async { Ok(ToolOutput::text("ok")) }).unwrap();
    let mut registry = Registry::new();
    registry.add_dynamic(tool).unwrap();
    let bad = json!({"city": "", "days": 11, "tags": [1], "extra": 0});
    let theirs = registry.validate("plan", bad.clone()).unwrap_err();
    let ours = tool_core::dispatch::decode::<Planned>(bad, &tool_core::dispatch::DecodeOptions::default()).unwrap_err();
    let lines = |error: &ToolError| match error {
        ToolError::InvalidArguments { violations, .. } => {
            violations.iter().map(ToString::to_string).collect::<Vec<_>>()
        }
        other => panic!("{other:?}"),
    };
    assert_eq!(lines(&theirs), lines(&ours));
}
