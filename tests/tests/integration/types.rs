//! The types every Rust API uses: std's paths, addresses, `NonZero` integers and tuples, and
//! (behind features) chrono, time, jiff, uuid, url, `rust_decimal` and semver. Each states its
//! schema, and dispatch accepts what the type parses and the schema allows, no more.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::num::NonZeroU32;
use std::path::PathBuf;

use serde_json::{Value, json};
use tool_core::dispatch::DecodeOptions;
use tool_core::provider::{gemini, openai};
use tool_core::{Registry, ToolArgs, ToolError, tool};

fn schema_of<T: tool_core::ToolParam>() -> Value {
    serde_json::from_str(&tool_core::render::json_schema::<T>()).expect("JSON")
}

fn violations<T: ToolArgs + std::fmt::Debug>(value: Value) -> Vec<(String, &'static str, String)> {
    match tool_core::dispatch::decode::<T>(value, &DecodeOptions::default()) {
        Err(ToolError::InvalidArguments { violations, .. }) => {
            violations.iter().map(|v| (v.path.clone(), crate::support::keyword(v), v.message.clone())).collect()
        }
        other => panic!("expected invalid arguments, got {other:?}"),
    }
}

#[derive(Debug, ToolArgs)]
#[allow(dead_code)]
struct Std {
    path: PathBuf,
    v4: Ipv4Addr,
    ip: IpAddr,
    socket: SocketAddr,
    count: NonZeroU32,
    point: (f64, f64),
    pair: Option<(String, u8)>,
}

#[test]
fn std_types_state_their_form() {
    assert_eq!(
        schema_of::<Std>()["properties"],
        json!({
            "path": {"type": "string"},
            "v4": {"type": "string", "format": "ipv4"},
            "ip": {"description": "an IPv4 or IPv6 address, such as 192.168.0.1 or ::1", "type": "string"},
            "socket": {"description": "an IP address and a port, such as 127.0.0.1:8080 or [::1]:8080", "type": "string"},
            "count": {"type": "integer", "minimum": 1, "maximum": u32::MAX},
            "point": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "items": false, "minItems": 2, "maxItems": 2},
            "pair": {"anyOf": [
                {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer", "minimum": 0, "maximum": 255}], "items": false, "minItems": 2, "maxItems": 2},
                {"type": "null"}
            ]},
        })
    );
}

fn std_base() -> Value {
    json!({"path": "/tmp/x", "v4": "10.0.0.1", "ip": "::1", "socket": "127.0.0.1:80", "count": 3, "point": [1.5, 2], "pair": ["a", 7]})
}

#[test]
fn std_types_are_checked_by_their_own_parsers() {
    let decoded = tool_core::dispatch::decode::<Std>(std_base(), &DecodeOptions::default()).expect("valid");
    assert_eq!(decoded.point, (1.5, 2.0));
    assert_eq!(decoded.socket.port(), 80);
    let bad = json!({"path": 1, "v4": "10.0.0.256", "ip": "nope", "socket": "127.0.0.1", "count": 0, "point": [1, "x", 3], "pair": ["a"]});
    let found: Vec<(String, &str)> = violations::<Std>(bad).into_iter().map(|(p, k, _)| (p, k)).collect();
    assert_eq!(
        found,
        [
            ("/path".to_owned(), "type"),
            ("/v4".to_owned(), "format"),
            ("/ip".to_owned(), "format"),
            ("/socket".to_owned(), "format"),
            ("/count".to_owned(), "minimum"),
            ("/point".to_owned(), "maxItems"),
            ("/point/1".to_owned(), "type"),
            ("/pair".to_owned(), "minItems"),
        ]
    );
    let message = &violations::<Std>(
        json!({"path": "p", "v4": "1.1.1.1", "ip": "nope", "socket": "1.1.1.1:1", "count": 1, "point": [0, 0]}),
    )[0]
    .2;
    assert_eq!(
        message,
        r#"must be an IPv4 or IPv6 address, such as 192.168.0.1 or ::1, got "nope": invalid IP address syntax"#
    );
}

/// The types whose whole rule a schema states; a described form (a socket address, a
/// version) is the type parser's to decide, which no validator elsewhere can repeat.
#[derive(Debug, ToolArgs)]
#[allow(dead_code)]
struct StdStated {
    path: PathBuf,
    v4: Ipv4Addr,
    v6: std::net::Ipv6Addr,
    count: NonZeroU32,
    point: (f64, f64),
    pair: Option<(String, u8)>,
}

#[test]
fn std_types_agree_with_the_reference_validator() {
    let base =
        json!({"path": "/tmp/x", "v4": "10.0.0.1", "v6": "::1", "count": 3, "point": [1.5, 2], "pair": ["a", 7]});
    assert!(super::reference::agree::<StdStated>(&base) > 100);
}

#[derive(Debug, ToolArgs)]
#[allow(dead_code)]
struct Ecosystem {
    at: chrono::DateTime<chrono::Utc>,
    local: chrono::DateTime<chrono::FixedOffset>,
    day: chrono::NaiveDate,
    clock: chrono::NaiveTime,
    id: uuid::Uuid,
    link: url::Url,
    price: rust_decimal::Decimal,
    version: semver::Version,
    stamp: jiff::Timestamp,
    date: time::Date,
}

fn ecosystem_base() -> Value {
    json!({
        "at": "2024-05-01T14:30:00Z", "local": "2024-05-01T14:30:00+02:00", "day": "2024-02-29",
        "clock": "14:30:00", "id": "67e55044-10b1-426f-9247-bb680e5fe0c8", "link": "https://example.com/a?b=c",
        "price": "12.50", "version": "1.4.0-rc.1", "stamp": "2024-05-01T14:30:00Z", "date": "2024-05-01"
    })
}

#[test]
fn ecosystem_types_state_their_form() {
    let properties = &schema_of::<Ecosystem>()["properties"];
    assert_eq!(properties["at"], json!({"type": "string", "format": "date-time"}));
    assert_eq!(properties["day"], json!({"type": "string", "format": "date"}));
    assert_eq!(properties["id"], json!({"type": "string", "format": "uuid"}));
    assert_eq!(properties["link"], json!({"type": "string", "format": "uri"}));
    assert_eq!(properties["stamp"], json!({"type": "string", "format": "date-time"}));
    assert_eq!(properties["date"], json!({"type": "string", "format": "date"}));
    assert_eq!(
        properties["price"],
        json!({"description": "a decimal number written as a string, such as \"12.50\"", "type": "string"})
    );
    assert_eq!(
        properties["version"],
        json!({"description": "a semantic version, such as 1.4.0 or 2.0.0-rc.1", "type": "string"})
    );
}

#[test]
fn ecosystem_types_decode() {
    let decoded = tool_core::dispatch::decode::<Ecosystem>(ecosystem_base(), &DecodeOptions::default()).expect("valid");
    assert_eq!(decoded.price.to_string(), "12.50");
    assert_eq!(decoded.version.pre.as_str(), "rc.1");
    assert_eq!(decoded.day.to_string(), "2024-02-29");
    let text = ecosystem_base().to_string();
    assert!(tool_core::dispatch::decode::<Ecosystem>(text.as_str(), &DecodeOptions::default()).is_ok());
}

/// Each field replaced by a value its parser might accept but its schema does not, or that
/// neither accepts; every one is refused, at its path.
#[test]
fn what_the_schema_refuses_is_refused_even_where_the_parser_is_lax() {
    let cases = [
        ("at", json!("2024-05-01 14:30:00Z")),
        ("at", json!("yesterday")),
        ("day", json!("2023-02-29")),
        ("id", json!("67e5504410b1426f9247bb680e5fe0c8")),
        ("id", json!("{67e55044-10b1-426f-9247-bb680e5fe0c8}")),
        ("link", json!(" https://example.com ")),
        ("link", json!("not a url")),
        ("price", json!(12.5)),
        ("price", json!("twelve")),
        ("version", json!("1.4")),
        ("stamp", json!("2024-05-01T14:30:00Z[Europe/Paris]")),
        ("date", json!("2024-13-01")),
        ("clock", json!("25:00:00")),
    ];
    for (field, value) in cases {
        let mut instance = ecosystem_base();
        instance[field] = value.clone();
        let found = violations::<Ecosystem>(instance.clone());
        assert_eq!(found.len(), 1, "{field} = {value}: {found:?}");
        assert_eq!(found[0].0, format!("/{field}"), "{field} = {value}");
        let text = instance.to_string();
        assert!(tool_core::dispatch::decode::<Ecosystem>(text.as_str(), &DecodeOptions::default()).is_err(), "{text}");
    }
}

#[test]
fn lenient_decoding_writes_a_decimal_number_as_text() {
    let mut instance = ecosystem_base();
    instance["price"] = json!(12.5);
    let lenient = DecodeOptions::default().lenient(true);
    let decoded = tool_core::dispatch::decode::<Ecosystem>(instance, &lenient).expect("coerced");
    assert_eq!(decoded.price.to_string(), "12.5");
}

#[derive(Debug, ToolArgs)]
#[allow(dead_code)]
struct EcosystemStated {
    at: chrono::DateTime<chrono::Utc>,
    local: chrono::DateTime<chrono::FixedOffset>,
    day: chrono::NaiveDate,
    id: uuid::Uuid,
    link: url::Url,
    stamp: jiff::Timestamp,
    date: time::Date,
}

#[test]
fn ecosystem_types_agree_with_the_reference_validator() {
    let mut base = ecosystem_base();
    for described in ["clock", "price", "version"] {
        base.as_object_mut().expect("object").remove(described);
    }
    assert!(super::reference::agree::<EcosystemStated>(&base) > 100);
}

/// Plots a point
#[tool]
fn plot(args: PlotArgs) -> String {
    format!("{:?}", args.at)
}

#[derive(Debug, ToolArgs)]
struct PlotArgs {
    at: (i16, i16),
}

#[test]
fn a_tuple_has_no_strict_form_and_gemini_gets_an_any_of() {
    let mut registry = Registry::new();
    registry.add(PlotTool).expect("one tool");
    let list = openai::chat_tools(registry.iter(), true);
    assert_eq!(list.fallbacks.len(), 1);
    assert!(list.fallbacks[0].reason.contains("prefixItems"), "{}", list.fallbacks[0].reason);
    let gemini = gemini::tools(registry.iter(), gemini::SchemaField::Parameters);
    let at = &gemini.to_value()[0]["functionDeclarations"][0]["parameters"]["properties"]["at"];
    let int = json!({"type": "INTEGER", "minimum": -32768, "maximum": 32767});
    assert_eq!(*at, json!({"type": "ARRAY", "items": {"anyOf": [int, int]}, "minItems": 2, "maxItems": 2}));
    assert_eq!(gemini.fallbacks[0].reason, gemini::schema_loss::KEYWORDS);
    assert_eq!(registry.call("plot", r#"{"at": [1, -2]}"#).expect("valid").to_text(), "(1, -2)");
}
