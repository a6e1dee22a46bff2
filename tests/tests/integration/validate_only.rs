//! `Registry::validate`: a call's arguments checked as the call checks them, without running
//! the tool, for each kind of entry (a `#[tool]` with an arguments struct, one with plain
//! parameters, a `#[tools]` method, a `DynamicTool` from a type and one from a JSON Schema;
//! another MCP server's tool is in `tests/mcp/remote.rs`): the same violations as the call's,
//! the arguments coerced as the tool would get them, and the tool never run.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};
use tool_core::{DynamicTool, Registry, ToolArgs, ToolContext, ToolError, ToolOutput, tool, tools};

/// Counts the calls that ran.
type Runs = Arc<AtomicUsize>;

#[derive(Debug, ToolArgs)]
struct Booking {
    #[param(min_length = 1)]
    city: String,
    #[param(minimum = 1, maximum = 10)]
    nights: u8,
}

/// Books a stay
#[tool]
fn book(ctx: &ToolContext, args: Booking) -> String {
    ctx.state::<Runs>().expect("the counter").fetch_add(1, Ordering::SeqCst);
    format!("{} nights in {}", args.nights, args.city)
}

/// Books a stay, from plain parameters
///
/// # Arguments
/// * `city` - the city
/// * `nights` - how many nights
#[tool]
fn book_plain(
    ctx: &ToolContext,
    #[param(min_length = 1)] city: String,
    #[param(minimum = 1, maximum = 10)] nights: u8,
) -> String {
    ctx.state::<Runs>().expect("the counter").fetch_add(1, Ordering::SeqCst);
    format!("{nights} nights in {city}")
}

struct Desk {
    hotel: &'static str,
}

#[tools]
impl Desk {
    /// Books a stay, at the desk
    #[tool]
    fn book_at_desk(&self, ctx: &ToolContext, args: Booking) -> String {
        ctx.state::<Runs>().expect("the counter").fetch_add(1, Ordering::SeqCst);
        format!("{} nights in {} at the {}", args.nights, args.city, self.hotel)
    }
}

const SCHEMA: &str = r#"{"type": "object", "properties": {
    "city": {"type": "string", "minLength": 1},
    "nights": {"type": "integer", "minimum": 1, "maximum": 10}
}, "required": ["city", "nights"], "additionalProperties": false}"#;

fn registry(runs: &Runs) -> Registry {
    let lenient = tool_core::dispatch::DecodeOptions::default().lenient(true);
    let mut registry = Registry::new().with_state(Arc::clone(runs)).with_options(lenient);
    registry.add(BookTool).unwrap();
    registry.add(BookPlainTool).unwrap();
    registry.add_all(Desk { hotel: "Grand" }).unwrap();
    registry
        .add_dynamic(
            DynamicTool::typed("book_typed", "Books a stay, typed", |ctx: ToolContext, args: Booking| async move {
                ctx.state::<Runs>().expect("the counter").fetch_add(1, Ordering::SeqCst);
                format!("{} nights in {}", args.nights, args.city)
            })
            .unwrap(),
        )
        .unwrap();
    let counter = Arc::clone(runs);
    registry
        .add_dynamic(
            DynamicTool::new("book_schema", "Books a stay, from a schema", SCHEMA, move |_, _| {
                counter.fetch_add(1, Ordering::SeqCst);
                async { Ok(ToolOutput::text("booked")) }
            })
            .unwrap(),
        )
        .unwrap();
    registry
}

const KINDS: [&str; 5] = ["book", "book_plain", "book_at_desk", "book_typed", "book_schema"];

#[tokio::test]
async fn every_kind_of_entry_is_checked_without_running_as_its_call_checks() {
    let runs = Runs::default();
    let registry = registry(&runs);
    let context = registry.context();
    let bad = json!({"city": "", "nights": 12, "pets": true});
    let mut worded: Vec<Vec<String>> = Vec::new();
    for name in KINDS {
        // Valid: the arguments as the tool gets them, lenient coercion included.
        let checked = registry.validate(name, json!({"city": "Oslo", "nights": "3"})).unwrap();
        assert_eq!(checked, json!({"city": "Oslo", "nights": 3}), "{name}");
        // Refused: the call's own error, violation for violation.
        let refused = registry.validate(name, bad.clone()).unwrap_err();
        let called = registry.call_async(&context, name, bad.clone()).await.unwrap_err();
        assert_eq!(refused, called, "{name}");
        let ToolError::InvalidArguments { tool, violations } = refused else { panic!("{name}: {refused:?}") };
        assert_eq!(tool, name);
        worded.push(violations.iter().map(ToString::to_string).collect());
        // Text and size limits as for a call.
        assert!(matches!(registry.validate(name, "{not json"), Err(ToolError::InvalidJson { .. })), "{name}");
    }
    assert_eq!(runs.load(Ordering::SeqCst), 0, "no tool ran");
    // Worded alike whichever kind holds the tool.
    assert!(worded.windows(2).all(|pair| pair[0] == pair[1]), "{worded:#?}");
    assert_eq!(
        worded[0],
        [
            "/city: must be at least 1 character long, got 0: \"\"",
            "/nights: must be <= 10, got 12",
            "/pets: unknown property \"pets\"; the properties are \"city\", \"nights\"",
        ]
    );
    let unknown = registry.validate("nope", json!({})).unwrap_err();
    assert!(matches!(unknown, ToolError::UnknownTool { .. }), "{unknown:?}");
    let _: Value = registry.validate("book", json!({"city": "a", "nights": 1})).unwrap();
}
