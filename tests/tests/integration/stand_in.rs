//! Giving a type a schema without writing trait impls: `#[param(as = Type)]` on a field whose
//! serde form another type describes, and `#[derive(ToolArgs)]` on a newtype, whose field's
//! keywords and doc comment go wherever the newtype is used.

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::json;
use tool_core::dispatch::DecodeOptions;
use tool_core::provider::openai;
use tool_core::{Registry, ToolArgs, tool};

use super::support::{schema_of, violations};

/// A type of somebody else's crate, with no schema of its own.
#[derive(Debug, Deserialize, PartialEq)]
struct Foreign(String);

#[derive(Debug, ToolArgs)]
struct Event {
    /// When it happens, in seconds since the epoch.
    #[serde(with = "chrono::serde::ts_seconds")]
    #[param(as = i64, minimum = 0)]
    at: DateTime<Utc>,
    /// When it was written, RFC 3339.
    #[serde(with = "time::serde::rfc3339")]
    #[param(as = String, format = "date-time")]
    written: time::OffsetDateTime,
    #[param(as = String, min_length = 2, max_length = 8)]
    label: Foreign,
    #[param(as = Option<String>)]
    note: Option<Foreign>,
}

#[test]
fn a_stand_in_type_gives_the_schema_and_the_checks() {
    assert_eq!(
        schema_of::<Event>()["properties"],
        json!({
            "at": {"description": "When it happens, in seconds since the epoch.", "type": "integer", "maximum": i64::MAX, "minimum": 0},
            "written": {"description": "When it was written, RFC 3339.", "type": "string", "format": "date-time"},
            "label": {"type": "string", "minLength": 2, "maxLength": 8},
            "note": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        })
    );
    assert_eq!(schema_of::<Event>()["required"], json!(["at", "written", "label"]));
    let event = tool_core::dispatch::decode::<Event>(
        json!({"at": 86_400, "written": "2026-11-23T10:00:00Z", "label": "ab"}),
        &DecodeOptions::default(),
    )
    .expect("valid");
    assert_eq!(event.at.timestamp(), 86_400);
    assert_eq!(event.written.year(), 2026);
    assert_eq!(event.label, Foreign("ab".into()));
    assert_eq!(event.note, None);
    assert_eq!(
        violations::<Event>(json!({"at": -1, "written": "yesterday", "label": "a", "note": 3})),
        [
            ("/at".to_owned(), "minimum"),
            ("/written".to_owned(), "format"),
            ("/label".to_owned(), "minLength"),
            ("/note".to_owned(), "type"),
        ]
    );
    assert_eq!(
        violations::<Event>(json!({"at": "soon", "written": "2026-11-23T10:00:00Z", "label": "ab"})),
        [("/at".to_owned(), "type")]
    );
}

/// A user's id, as the directory stores it.
#[derive(Debug, ToolArgs, PartialEq)]
struct UserId(#[param(min_length = 3, pattern = "^u[0-9]+$")] String);

/// A percentage.
#[derive(Debug, ToolArgs, PartialEq)]
struct Percent(#[param(minimum = 0, maximum = 100)] u8);

/// An instant.
#[derive(Debug, ToolArgs)]
struct Instant(
    #[serde(with = "chrono::serde::ts_seconds")]
    #[param(as = i64)]
    DateTime<Utc>,
);

// No doc comment and no keyword: the inner type's schema, unchanged.
#[derive(Debug, ToolArgs)]
struct Name(String);

#[derive(Debug, ToolArgs)]
struct Grant {
    user: UserId,
    /// Who approved it.
    approver: Option<UserId>,
    share: Percent,
    #[serde(default)]
    others: Vec<UserId>,
    since: Instant,
    name: Name,
}

#[test]
fn a_newtype_carries_its_keywords_and_doc_wherever_it_is_used() {
    assert_eq!(
        schema_of::<UserId>(),
        json!({"description": "A user's id, as the directory stores it.", "type": "string", "minLength": 3, "pattern": "^u[0-9]+$"})
    );
    assert_eq!(schema_of::<Name>(), json!({"type": "string"}));
    assert_eq!(
        schema_of::<Grant>()["properties"],
        json!({
            "user": {"description": "A user's id, as the directory stores it.", "type": "string", "minLength": 3, "pattern": "^u[0-9]+$"},
            "approver": {
                "description": "Who approved it.",
                "anyOf": [{"type": "string", "minLength": 3, "pattern": "^u[0-9]+$"}, {"type": "null"}]
            },
            "share": {"description": "A percentage.", "type": "integer", "minimum": 0, "maximum": 100},
            "others": {"type": "array", "items": {"description": "A user's id, as the directory stores it.", "type": "string", "minLength": 3, "pattern": "^u[0-9]+$"}},
            "since": {"description": "An instant.", "type": "integer", "minimum": i64::MIN, "maximum": i64::MAX},
            "name": {"type": "string"},
        })
    );
}

#[test]
fn a_newtype_is_checked_wherever_it_is_used() {
    let base = json!({"user": "u12", "share": 40, "others": ["u123", "u22"], "since": 0, "name": "x"});
    assert!(super::reference::agree::<Grant>(&base) > 20);
    let grant = tool_core::dispatch::decode::<Grant>(
        json!({"user": "u12", "share": 40, "since": 60, "name": "x"}),
        &DecodeOptions::default(),
    )
    .expect("valid");
    assert_eq!(grant.user, UserId("u12".into()));
    assert_eq!(grant.share, Percent(40));
    assert_eq!(grant.since.0.timestamp(), 60);
    assert_eq!(
        violations::<Grant>(
            json!({"user": "x", "approver": "u1x", "share": 101, "others": ["u1", "v100"], "since": "now", "name": 1})
        ),
        [
            ("/user".to_owned(), "minLength"),
            ("/user".to_owned(), "pattern"),
            ("/approver".to_owned(), "pattern"),
            ("/share".to_owned(), "maximum"),
            ("/others/0".to_owned(), "minLength"),
            ("/others/1".to_owned(), "pattern"),
            ("/since".to_owned(), "type"),
            ("/name".to_owned(), "type"),
        ]
    );
}

/// Records a grant.
#[tool]
fn grant(args: Grant) -> String {
    format!("{} gets {}%", args.user.0, args.share.0)
}

#[test]
fn a_tool_over_newtypes_dispatches_and_lists_them() {
    let mut registry = Registry::new();
    registry.add(GrantTool).expect("one tool");
    let out = registry.call("grant", r#"{"user":"u7x","share":5,"since":1,"name":"n"}"#);
    assert!(out.is_err(), "u7x breaks the pattern");
    let out = registry.call("grant", r#"{"user":"u77","share":5,"since":1,"name":"n"}"#).expect("valid");
    assert_eq!(out.to_text(), "u77 gets 5%");
    let error = registry.call("grant", r#"{"user":"u77","share":500,"since":1,"name":"n"}"#).expect_err("too big");
    assert!(error.to_string().contains("/share"), "{error}");
    let tools = openai::chat_tools(registry.iter(), false).to_value();
    let share = &tools[0]["function"]["parameters"]["properties"]["share"];
    assert_eq!(share["maximum"], json!(100), "{tools}");
}
