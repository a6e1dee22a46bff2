//! A plain-parameter tool's arguments, and a struct deriving `ToolArgs` alone, are decoded by
//! an impl the macros write, not by serde's derive (see `tool-macros/src/decode.rs`). Each
//! serde key a field takes must decode as serde's derive decodes the same field of a
//! struct it derives (`#[tool_args(serde)]`): the same calls pass with the same values, and
//! the same calls fail with the same errors.

use serde::de::{Deserialize, Deserializer, Error as _};
use tool_core::{Registry, ToolArgs, tool};

/// Three upper-case letters, checked by its own `Deserialize` (stricter than its schema).
pub struct Code(String);

impl<'de> Deserialize<'de> for Code {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        if text.len() == 3 && text.chars().all(|c| c.is_ascii_uppercase()) {
            Ok(Code(text))
        } else {
            Err(D::Error::custom(format!("`{text}` is not three capitals")))
        }
    }
}

fn seven() -> u8 {
    7
}

fn shouted<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    String::deserialize(deserializer).map(|text| text.to_uppercase())
}

/// Takes every serde key a parameter may have.
#[tool(name = "keys_plain")]
#[allow(clippy::too_many_arguments)]
fn keys(
    // An alias that repeats the name changes nothing (and must not warn of an unreachable
    // pattern in this crate, whose warnings are errors under clippy).
    #[serde(rename(deserialize = "first", serialize = "ignored"), alias = "one", alias = "uno", alias = "first")] a: u8,
    #[serde(default = "seven")] n: u8,
    #[serde(skip)] hidden: u8,
    #[serde(deserialize_with = "shouted")]
    #[param(as = String)]
    shout: String,
    #[param(as = String, min_length = 3)] code: Code,
    #[serde(default)] maybe: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")] note: Option<String>,
    list: Vec<u16>,
    r#type: Option<u8>,
) -> String {
    format!("{a} {n} {hidden} {shout} {} {maybe:?} {note:?} {list:?} {type:?}", code.0)
}

/// The same parameters as one struct, decoded by serde's derive.
#[derive(serde::Deserialize, ToolArgs)]
#[tool_args(serde)]
pub struct KeysArgs {
    #[serde(rename(deserialize = "first", serialize = "ignored"), alias = "one", alias = "uno")]
    a: u8,
    #[serde(default = "seven")]
    n: u8,
    #[serde(skip)]
    hidden: u8,
    #[serde(deserialize_with = "shouted")]
    #[param(as = String)]
    shout: String,
    #[param(as = String, min_length = 3)]
    code: Code,
    #[serde(default)]
    maybe: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    list: Vec<u16>,
    r#type: Option<u8>,
}

/// The same struct, decoded by `ToolArgs` alone.
#[derive(ToolArgs)]
pub struct KeysOwn {
    #[serde(rename(deserialize = "first", serialize = "ignored"), alias = "one", alias = "uno")]
    a: u8,
    #[serde(default = "seven")]
    n: u8,
    #[serde(skip)]
    hidden: u8,
    #[serde(deserialize_with = "shouted")]
    #[param(as = String)]
    shout: String,
    #[param(as = String, min_length = 3)]
    code: Code,
    #[serde(default)]
    maybe: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    list: Vec<u16>,
    r#type: Option<u8>,
}

/// Takes every serde key a field may have.
#[tool(name = "keys_own")]
fn keys_own(args: KeysOwn) -> String {
    let KeysOwn { a, n, hidden, shout, code, maybe, note, list, r#type } = args;
    keys_struct(KeysArgs { a, n, hidden, shout, code, maybe, note, list, r#type })
}

/// Takes every serde key a parameter may have.
#[tool(name = "keys_struct")]
fn keys_struct(args: KeysArgs) -> String {
    let KeysArgs { a, n, hidden, shout, code, maybe, note, list, r#type } = args;
    format!("{a} {n} {hidden} {shout} {} {maybe:?} {note:?} {list:?} {type:?}", code.0)
}

/// Paging, flattened into a tool's arguments.
#[derive(Debug, ToolArgs)]
pub struct Paging {
    page: u32,
    #[serde(default)]
    per_page: Option<u32>,
}

/// A flattened parameter, which serde's derive decodes.
#[tool(name = "flat_plain")]
fn flat(#[serde(flatten)] paging: Paging, query: String) -> String {
    format!("{query} {paging:?}")
}

/// The same as one struct: serde's derive decodes a flattened field.
#[derive(serde::Deserialize, ToolArgs)]
#[tool_args(serde)]
pub struct FlatArgs {
    #[serde(flatten)]
    paging: Paging,
    query: String,
}

/// A flattened parameter, which serde's derive decodes.
#[tool(name = "flat_struct")]
fn flat_struct(args: FlatArgs) -> String {
    format!("{} {:?}", args.query, args.paging)
}

/// Calls both tools with each of `calls` and asserts the same result, naming the tool alike.
fn same_results(plain: &str, by_hand: &str, calls: &[&str]) -> usize {
    let mut registry = Registry::new();
    registry.add(KeysTool).unwrap().add(KeysStructTool).unwrap().add(KeysOwnTool).unwrap();
    registry.add(FlatTool).unwrap().add(FlatStructTool).unwrap();
    let mut passed = 0;
    for &arguments in calls {
        let left = registry.call(plain, arguments);
        let right = registry.call(by_hand, arguments);
        passed += usize::from(left.is_ok());
        assert_eq!(format!("{left:?}").replace(plain, by_hand), format!("{right:?}"), "{arguments}");
    }
    passed
}

#[test]
fn every_serde_key_of_a_parameter_decodes_as_serde_derive_does() {
    let calls = [
        r#"{"first": 1, "shout": "hi", "code": "ABC", "list": []}"#,
        r#"{"one": 2, "shout": "hi", "code": "ABC", "n": 3, "maybe": 4, "note": "x", "list": [1, 2], "type": 9}"#,
        r#"{"uno": 2, "shout": "hi", "code": "ABC", "maybe": null, "note": null, "list": [65535]}"#,
        r#"{"\u0066irst": 1, "shout": "hi", "code": "ABC", "list": []}"#,
        // The same field twice, under its name and an alias (refused), or under its name twice.
        r#"{"first": 1, "one": 2, "shout": "hi", "code": "ABC", "list": []}"#,
        r#"{"first": 1, "first": 2, "shout": "hi", "code": "ABC", "list": []}"#,
        // The Rust name is not the wire name; a skipped field is not on the wire.
        r#"{"a": 1, "shout": "hi", "code": "ABC", "list": []}"#,
        r#"{"first": 1, "shout": "hi", "code": "ABC", "list": [], "hidden": 5}"#,
        r#"{"first": 1, "shout": "hi", "code": "ABC", "list": [], "ignored": 5}"#,
        // Missing: a plain field, a `with` field, an `Option` without `default`.
        r#"{"shout": "hi", "code": "ABC", "list": []}"#,
        r#"{"first": 1, "code": "ABC", "list": []}"#,
        r#"{"first": 1, "shout": "hi", "code": "ABC"}"#,
        // Wrong values: serde's own (`Code`) and the schema's.
        r#"{"first": 1, "shout": "hi", "code": "abc", "list": []}"#,
        r#"{"first": 256, "shout": 5, "code": "AB", "list": [-1], "maybe": "x"}"#,
        r#"{"first": 1.0, "shout": "hi", "code": "ABC", "list": [2.0]}"#,
        "{}",
        "[1, 2]",
        "null",
        r#""text""#,
    ];
    // The first four pass, and so do a key given twice (the full path parses the text, and
    // the last value stands, in both forms) and integers written as floats.
    assert_eq!(same_results("keys_plain", "keys_struct", &calls), 6);
    assert_eq!(same_results("keys_own", "keys_struct", &calls), 6);
    // Decoded directly, without the schema's checks before: the same values, the same errors,
    // for an object (an array, which no object schema allows, is refused where serde's derive
    // reads the fields in order).
    for call in calls.into_iter().filter(|call| call.starts_with('{')) {
        let own = serde_json::from_str::<KeysOwn>(call).map(keys_own);
        let serde = serde_json::from_str::<KeysArgs>(call).map(keys_struct);
        assert_eq!(format!("{own:?}").replace("KeysOwn", "KeysArgs"), format!("{serde:?}"), "{call}");
    }
    let mut registry = Registry::new();
    registry.add(KeysTool).unwrap();
    let output = registry.call("keys_plain", r#"{"uno": 2, "shout": "hi", "code": "ABC", "list": [1]}"#).unwrap();
    assert_eq!(output.to_text(), "2 7 0 HI ABC None None [1] None");
}

#[test]
fn a_flattened_parameter_decodes_as_serde_derive_does() {
    let calls = [
        r#"{"page": 1, "query": "q"}"#,
        r#"{"page": 1, "per_page": 5, "query": "q"}"#,
        r#"{"per_page": 5, "query": "q"}"#,
        r#"{"page": 1, "query": "q", "other": 1}"#,
        r#"{"page": "1", "query": "q"}"#,
    ];
    assert_eq!(same_results("flat_plain", "flat_struct", &calls), 2);
}

/// Generated calls near a valid one (values swapped for others of every JSON type, keys
/// removed, names, aliases and unknown keys added: `differential.rs`'s instances), made to
/// the plain tool and to the struct tool: the results must be the same, call for call.
#[test]
fn generated_calls_get_the_same_results_from_both_forms() {
    use proptest::test_runner::{Config, RngSeed, TestRunner};
    use serde_json::json;

    let mut registry = Registry::new();
    registry.add(KeysTool).unwrap().add(KeysStructTool).unwrap().add(KeysOwnTool).unwrap();
    let base = json!({"first": 1, "shout": "hi", "code": "ABC", "n": 3, "maybe": 4, "note": "x", "list": [1, 2]});
    let names = ["first", "one", "uno", "a", "n", "hidden", "shout", "code", "maybe", "note", "list", "type", "zzz"];
    let words = vec!["ABC".to_owned(), "hi".to_owned()];
    let strategy = super::differential::near(base, names.map(str::to_owned).to_vec(), words);
    // A fixed seed, so that a failure is reproduced by rerunning.
    let config =
        Config { cases: 1_000, failure_persistence: None, rng_seed: RngSeed::Fixed(0x91a1), ..Config::default() };
    let passed = std::cell::Cell::new(0_u32);
    TestRunner::new(config)
        .run(&strategy, |value| {
            let text = value.to_string();
            let left = registry.call("keys_plain", text.as_str());
            let right = registry.call("keys_struct", text.as_str());
            let own = registry.call("keys_own", text.as_str());
            passed.set(passed.get() + u32::from(left.is_ok()));
            proptest::prop_assert_eq!(format!("{left:?}").replace("keys_plain", "keys_struct"), format!("{right:?}"));
            proptest::prop_assert_eq!(format!("{own:?}").replace("keys_own", "keys_struct"), format!("{right:?}"));
            if !value.is_object() {
                return Ok(());
            }
            let own = serde_json::from_value::<KeysOwn>(value.clone()).map(keys_own);
            let serde = serde_json::from_value::<KeysArgs>(value).map(keys_struct);
            proptest::prop_assert_eq!(format!("{own:?}").replace("KeysOwn", "KeysArgs"), format!("{serde:?}"));
            Ok(())
        })
        .unwrap();
    // The comparison must not be of refusals alone.
    assert!(passed.get() >= 100, "only {} of 1,000 calls passed", passed.get());
}

/// A city the weather is known for.
#[derive(Debug, ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum City {
    Paris,
    Rome,
}

/// Weather in a city
#[tool]
fn city_weather(#[param] location: City) -> String {
    format!("{location:?}")
}

/// A lone parameter of a type that is no object is one named parameter once marked
/// `#[param]`, as the compile error for the unmarked one says.
#[test]
fn a_lone_enum_marked_param_is_one_named_parameter() {
    let mut registry = Registry::new();
    registry.add(CityWeatherTool).unwrap();
    let schema: serde_json::Value =
        serde_json::from_str(registry.get("city_weather").unwrap().parameters_json()).unwrap();
    assert_eq!(schema["properties"]["location"]["enum"], serde_json::json!(["paris", "rome"]), "{schema}");
    assert_eq!(schema["required"], serde_json::json!(["location"]));
    let said = registry.call("city_weather", r#"{"location": "rome"}"#).unwrap();
    assert_eq!(said.to_text(), "Rome");
}

/// A forecast's arguments, the default stated once.
#[derive(Debug, ToolArgs)]
pub struct Forecast {
    city: String,
    /// Days ahead
    #[param(default = 3, minimum = 1, maximum = 10)]
    days: u8,
}

/// Forecasts
#[tool]
fn forecast_days(args: Forecast) -> String {
    format!("{} {}", args.city, args.days)
}

/// Forecasts, with plain parameters
#[tool]
fn plain_forecast(
    city: String,
    #[param(default = 3, maximum = 10)] days: u8,
    #[param(default = "metric")] units: String,
) -> String {
    format!("{city} {days} {units}")
}

/// `#[param(default = ..)]` is stated once: the schema says it, the field is not required,
/// and an absent field gets exactly that value, in a struct and in plain parameters.
#[test]
fn a_default_is_stated_once() {
    let mut registry = Registry::new();
    registry.add(ForecastDaysTool).unwrap().add(PlainForecastTool).unwrap();
    for name in ["forecast_days", "plain_forecast"] {
        let schema: serde_json::Value = serde_json::from_str(registry.get(name).unwrap().parameters_json()).unwrap();
        assert_eq!(schema["properties"]["days"]["default"], 3, "{schema}");
        assert_eq!(schema["required"], serde_json::json!(["city"]), "{schema}");
    }
    assert_eq!(registry.call("forecast_days", r#"{"city": "Oslo"}"#).unwrap().to_text(), "Oslo 3");
    assert_eq!(registry.call("forecast_days", r#"{"city": "Oslo", "days": 5}"#).unwrap().to_text(), "Oslo 5");
    assert_eq!(registry.call("plain_forecast", r#"{"city": "Rome"}"#).unwrap().to_text(), "Rome 3 metric");
    let refused = registry.call("forecast_days", r#"{"city": "Oslo", "days": 11}"#).unwrap_err().to_string();
    assert!(refused.contains("/days: must be <= 10"), "{refused}");
}
