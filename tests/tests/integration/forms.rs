//! The three ways to write a tool: one argument struct, plain parameters, and methods of a
//! `#[tools]` block. A plain-parameter tool must be the struct form exactly (schema, every
//! dialect, strict-mode decision, output schema, errors), and a method a free fn with a
//! receiver.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::json;
use tool_core::registry::ToolSet;
use tool_core::render::Dialect;
use tool_core::{Registry, RegistryError, Tool, ToolArgs, ToolContext, ToolError, tool, tools};

mod plain {
    use super::*;

    /// Adds two numbers.
    ///
    /// Wrapped over
    /// two lines.
    ///
    /// # Arguments
    ///
    /// * `a` - the first addend
    /// * `b` - the second addend, at least
    ///   zero
    #[tool(name = "add_plain")]
    pub fn add(
        a: i32,
        #[param(minimum = 0, maximum = 1000)] b: u32,
        #[param(description = "a note", max_length = 10)] note: Option<String>,
        #[serde(rename = "kind", default)] mode: Mode,
    ) -> String {
        format!("{} {note:?} {mode:?}", i64::from(a) + i64::from(b))
    }

    #[derive(Debug, Default, ToolArgs)]
    #[serde(rename_all = "lowercase")]
    pub enum Mode {
        #[default]
        Fast,
        Slow,
    }
}

mod by_hand {
    use super::plain::Mode;
    use super::*;

    #[derive(ToolArgs)]
    pub struct AddArgs {
        /// the first addend
        a: i32,
        /// the second addend, at least zero
        #[param(minimum = 0, maximum = 1000)]
        b: u32,
        #[param(description = "a note", max_length = 10)]
        note: Option<String>,
        #[serde(rename = "kind", default)]
        mode: Mode,
    }

    /// Adds two numbers.
    ///
    /// Wrapped over two lines.
    #[tool(name = "add_by_hand")]
    pub fn add(args: AddArgs) -> String {
        let AddArgs { a, b, note, mode } = args;
        format!("{} {note:?} {mode:?}", i64::from(a) + i64::from(b))
    }
}

#[test]
fn plain_parameters_are_the_struct_form_byte_for_byte() {
    let plain = plain::AddTool.def();
    let by_hand = by_hand::AddTool.def();
    assert_eq!(plain.description(), by_hand.description());
    assert_eq!(plain.description(), "Adds two numbers.\n\nWrapped over two lines.");
    assert_eq!(plain.parameters_json(), by_hand.parameters_json());
    assert_eq!(plain.output_schema(), by_hand.output_schema());
    for dialect in [Dialect::JsonSchema, Dialect::OpenAiStrict, Dialect::AnthropicStrict, Dialect::GeminiParameters] {
        assert_eq!(plain.parameters_in(dialect), by_hand.parameters_in(dialect), "{dialect:?}");
    }
    let schema: serde_json::Value = serde_json::from_str(plain.parameters_json()).unwrap();
    assert_eq!(schema["properties"]["a"]["description"], "the first addend");
    assert_eq!(schema["properties"]["kind"]["enum"], json!(["fast", "slow"]));

    let mut registries = [Registry::new(), Registry::new()];
    registries[0].add(plain::AddTool).unwrap();
    registries[1].add(by_hand::AddTool).unwrap();
    for arguments in [
        r#"{"a": 1, "b": 2}"#,
        r#"{"a": 1, "b": 2, "note": "hi", "kind": "slow"}"#,
        r#"{"a": "x", "b": -1, "note": "far too long a note", "extra": 1}"#,
        r#"{"b": 1}"#,
        "[1, 2]",
        "not json",
    ] {
        let left = registries[0].call("add_plain", arguments);
        let right = registries[1].call("add_by_hand", arguments);
        assert_eq!(format!("{left:?}").replace("add_plain", "add_by_hand"), format!("{right:?}"), "{arguments}");
    }
    assert_eq!(registries[0].call("add_plain", r#"{"a": -5, "b": 7}"#).unwrap().to_text(), "2 None Fast");
}

/// The context first, then plain parameters, async.
///
/// # Arguments
/// * `times` - how often
#[tool(name = "forms_repeat")]
async fn repeat(ctx: &ToolContext, times: u8, word: String) -> String {
    ctx.report_progress(1.0, None, None);
    tokio::task::yield_now().await;
    word.repeat(usize::from(times))
}

#[tokio::test]
async fn async_plain_parameters_with_a_context() {
    let mut registry = Registry::new();
    registry.add(RepeatTool).unwrap();
    let context = registry.context();
    let output = registry.call_async(&context, "forms_repeat", r#"{"times": 3, "word": "ab"}"#).await.unwrap();
    assert_eq!(output.to_text(), "ababab");
    let schema: serde_json::Value = serde_json::from_str(RepeatTool.def().parameters_json()).unwrap();
    assert_eq!(schema["required"], json!(["times", "word"]));
    assert_eq!(schema["properties"]["times"]["description"], "how often");
    assert_eq!(RepeatTool.def().description(), "The context first, then plain parameters, async.");
    assert!(RepeatTool.def().takes_context());
    assert!(!ShoutTool.def().takes_context());
}

/// A lone parameter of a type tool-core knows is a plain parameter, not a struct.
#[tool(name = "forms_shout")]
fn shout(text: String) -> String {
    text.to_uppercase()
}

/// `#[param]` makes a lone parameter of any type a plain one.
#[tool(name = "forms_pick")]
fn pick(#[param] mode: plain::Mode) -> String {
    format!("{mode:?}")
}

#[test]
fn a_lone_plain_parameter_is_a_property() {
    let mut registry = Registry::new();
    registry.add(ShoutTool).unwrap().add(PickTool).unwrap();
    assert_eq!(registry.call("forms_shout", r#"{"text": "hey"}"#).unwrap().to_text(), "HEY");
    assert_eq!(registry.call("forms_pick", r#"{"mode": "slow"}"#).unwrap().to_text(), "Slow");
}

struct Counter {
    start: i64,
    calls: AtomicUsize,
}

#[tools]
impl Counter {
    /// Adds `n` to the start.
    #[tool]
    fn add_to(&self, #[param(minimum = 0)] n: i64) -> String {
        self.calls.fetch_add(1, Ordering::SeqCst);
        (self.start + n).to_string()
    }

    /// How many calls so far, with the context.
    #[tool(name = "count", read_only)]
    async fn calls(&self, ctx: &ToolContext) -> String {
        let _ = ctx;
        tokio::task::yield_now().await;
        self.calls.load(Ordering::SeqCst).to_string()
    }

    /// Takes a struct.
    #[tool]
    fn describe(&self, args: by_hand::AddArgs) -> Result<String, String> {
        let _ = args;
        Err(format!("no, from {}", self.start))
    }

    /// Panics.
    #[tool]
    fn explode(&self) -> String {
        panic!("boom at {}", self.start)
    }

    /// Not a tool: a helper the tools may share.
    fn helper(&self) -> i64 {
        self.start
    }
}

#[tokio::test]
async fn methods_share_their_receiver() {
    let counter = Arc::new(Counter { start: 40, calls: AtomicUsize::new(0) });
    let mut registry = Registry::new();
    registry.add_all(Arc::clone(&counter)).unwrap();
    assert_eq!(registry.names(), ["add_to", "count", "describe", "explode"]);
    assert_eq!(registry.call("add_to", r#"{"n": 2}"#).unwrap().to_text(), "42");
    let error = registry.call("add_to", r#"{"n": -2}"#).unwrap_err();
    assert!(matches!(&error, ToolError::InvalidArguments { .. }), "{error}");
    assert!(error.to_string().contains("/n: must be >= 0"), "{error}");
    let context = registry.context();
    assert_eq!(registry.call_async(&context, "count", "{}").await.unwrap().to_text(), "1");
    assert_eq!(counter.calls.load(Ordering::SeqCst), 1);
    assert_eq!(counter.helper(), 40);
    let failed = registry.call("describe", r#"{"a": 1, "b": 2}"#).unwrap_err();
    assert!(matches!(&failed, ToolError::Failed { message, .. } if message == "no, from 40"), "{failed:?}");
    let panicked = registry.call("explode", "{}").unwrap_err();
    assert!(matches!(&panicked, ToolError::Panicked { message, .. } if message.contains("boom at 40")), "{panicked:?}");
    assert!(matches!(registry.call("count", "{}"), Err(ToolError::RequiresAsync { .. })));
    let defs = Counter::tool_defs();
    assert_eq!(defs.len(), 4);
    assert!(defs[1].annotations().read_only == Some(true));
    assert!(defs[0].rust_path().ends_with("Counter::add_to"), "{}", defs[0].rust_path());
}

#[test]
fn a_method_is_not_added_without_its_receiver() {
    let def = Counter::tool_defs()[0];
    let error = Registry::new().add(def).unwrap_err();
    assert!(matches!(error, RegistryError::NeedsReceiver { .. }), "{error}");
    let mut registry = Registry::new();
    registry.add_all(Counter { start: 0, calls: AtomicUsize::new(0) }).unwrap();
    let again = registry.add_all(Counter { start: 1, calls: AtomicUsize::new(0) }).unwrap_err();
    assert!(matches!(again, RegistryError::DuplicateName { .. }), "{again}");
    assert_eq!(registry.len(), 4);
}

/// Stamps a time.
///
/// # Arguments
/// * `at` - seconds since the epoch
#[tool(name = "forms_stamp")]
fn stamp(
    #[serde(with = "chrono::serde::ts_seconds")]
    #[param(as = i64, minimum = 0)]
    at: chrono::DateTime<chrono::Utc>,
    #[serde(alias = "label")] name: String,
) -> String {
    format!("{name} at {}", at.to_rfc3339())
}

#[test]
fn serde_with_and_alias_work_on_a_parameter() {
    let mut registry = Registry::new();
    registry.add(StampTool).unwrap();
    let schema: serde_json::Value = serde_json::from_str(StampTool.def().parameters_json()).unwrap();
    assert_eq!(
        schema["properties"]["at"],
        json!({"description": "seconds since the epoch", "type": "integer", "maximum": i64::MAX, "minimum": 0})
    );
    assert_eq!(
        registry.call("forms_stamp", r#"{"at": 0, "label": "start"}"#).unwrap().to_text(),
        "start at 1970-01-01T00:00:00+00:00"
    );
    let error = registry.call("forms_stamp", r#"{"at": -5, "name": "x"}"#).unwrap_err();
    assert!(error.to_string().contains("/at: must be >= 0"), "{error}");
}

/// Gets the time in a zone.
///
/// # Arguments
/// * `zone` - an IANA time zone
#[tool(name = "forms_time")]
fn time_in(#[param(min_length = 1)] zone: String, #[serde(default)] format: Option<String>) -> String {
    format!("{zone} {format:?}")
}

#[test]
fn descriptions_set_at_run_time_reach_every_dialect() {
    use tool_core::provider;
    use tool_core::registry::Descriptions;
    let mut registry = Registry::new();
    registry.add(TimeInTool).unwrap();
    let local = "Europe/Paris";
    registry
        .describe(
            "forms_time",
            Descriptions::new()
                .tool(format!("Gets the time; the machine's zone is {local}"))
                .argument("zone", format!("an IANA time zone; '{local}' when the user names none")),
        )
        .unwrap();
    let entry = registry.get("forms_time").unwrap();
    assert_eq!(entry.description(), "Gets the time; the machine's zone is Europe/Paris");
    let schema: serde_json::Value = serde_json::from_str(entry.parameters_json()).unwrap();
    assert_eq!(
        schema["properties"]["zone"]["description"],
        "an IANA time zone; 'Europe/Paris' when the user names none"
    );
    assert_eq!(schema["properties"]["zone"]["minLength"], 1, "the keywords stay");
    assert!(schema["properties"]["format"].get("description").is_none(), "the others are as they were");
    // A strict dialect that moves `minLength` into the description keeps it after the new text.
    let strict = provider::parameters(entry, Dialect::OpenAiStrict).unwrap();
    let strict: serde_json::Value = serde_json::from_str(&strict).unwrap();
    assert_eq!(
        strict["properties"]["zone"]["description"],
        "an IANA time zone; 'Europe/Paris' when the user names none\n\n{minLength: 1}"
    );
    for dialect in [Dialect::AnthropicStrict, Dialect::GeminiParameters] {
        assert!(provider::parameters(entry, dialect).unwrap().contains("'Europe/Paris' when the user names none"));
    }
    let definition: serde_json::Value = serde_json::from_str(entry.definition_json()).unwrap();
    assert_eq!(definition["description"], "Gets the time; the machine's zone is Europe/Paris");
    assert!(provider::mcp_json::tools_list(registry.iter()).json.contains("the machine's zone is Europe/Paris"));
    // Calls are unchanged.
    assert_eq!(registry.call("forms_time", r#"{"zone": "UTC"}"#).unwrap().to_text(), "UTC None");

    let unknown = registry.describe("nope", Descriptions::new().tool("x")).unwrap_err();
    assert_eq!(unknown.to_string(), "there is no tool \"nope\" in this registry");
    let argument = registry.describe("forms_time", Descriptions::new().argument("zones", "x")).unwrap_err();
    assert!(matches!(argument, RegistryError::NotFound { .. }), "{argument}");
}

/// Ignores what it does not know.
#[derive(serde::Serialize, ToolArgs)]
#[tool_args(open)]
struct Lenient {
    #[param(min_length = 1)]
    name: String,
}

/// Greets, ignoring unknown arguments.
#[tool(name = "forms_open", open)]
fn open_greet(#[param(min_length = 1)] name: String) -> String {
    format!("hi {name}")
}

/// Reads everything, whatever it is given.
#[tool(name = "forms_open_none", open)]
fn open_read_all() -> &'static str {
    "all"
}

/// Reads everything, and takes nothing.
#[tool(name = "forms_closed_none")]
fn closed_read_all() -> &'static str {
    "all"
}

/// A tool without parameters refuses every key, unless it is `open`, as a port of a server
/// whose SDK strips unknown keys (`read_graph {"unexpected": 1}`) needs.
#[test]
fn an_open_tool_without_parameters_ignores_every_key() {
    let mut registry = Registry::new();
    registry.add(OpenReadAllTool).unwrap().add(ClosedReadAllTool).unwrap();
    assert_eq!(registry.call("forms_open_none", r#"{"unexpected": 1}"#).unwrap().to_text(), "all");
    let refused = registry.call("forms_closed_none", r#"{"unexpected": 1}"#).unwrap_err().to_string();
    assert!(refused.contains("unknown property \"unexpected\""), "{refused}");
    let open = registry.get("forms_open_none").unwrap().parameters_json();
    assert_eq!(open, r#"{"type":"object","properties":{}}"#);
    let closed = registry.get("forms_closed_none").unwrap().parameters_json();
    assert!(closed.contains(r#""additionalProperties":false"#), "{closed}");
}

/// What `forms_echo_lenient` sends back.
#[derive(serde::Serialize, tool_core::ToolSchema)]
struct Echoed {
    items: Vec<Lenient>,
}

/// Echoes lenient items.
#[tool(name = "forms_echo_lenient")]
fn echo_lenient(items: Vec<Lenient>) -> tool_core::Structured<Echoed> {
    tool_core::Structured(Echoed { items })
}

/// One type, open as input and closed as output: unknown keys in the arguments are
/// ignored (and the input schema says so), while the output schema, which states what the
/// tool sends (the struct's own fields), closes it.
#[test]
fn an_open_type_is_closed_in_an_output_schema() {
    let mut registry = Registry::new();
    registry.add(EchoLenientTool).unwrap();
    let entry = registry.get("forms_echo_lenient").unwrap();
    let input: serde_json::Value = serde_json::from_str(entry.parameters_json()).unwrap();
    assert_eq!(input["properties"]["items"]["items"].get("additionalProperties"), None, "{input}");
    let output: serde_json::Value = serde_json::from_str(entry.output_schema().unwrap()).unwrap();
    assert_eq!(output["properties"]["items"]["items"]["additionalProperties"], false, "{output}");
    assert_eq!(output["additionalProperties"], false, "{output}");
    let echoed = registry.call("forms_echo_lenient", r#"{"items": [{"name": "a", "extra": 1}]}"#).unwrap();
    assert_eq!(echoed.structured(), Some(&serde_json::json!({"items": [{"name": "a"}]})));
}

#[test]
fn an_open_object_ignores_unknown_keys_and_says_so_only_where_it_can() {
    let schema = tool_core::render::json_schema::<Lenient>();
    assert!(!schema.contains("additionalProperties"), "{schema}");
    let lenient: Lenient =
        tool_core::dispatch::decode(r#"{"name": "x", "extra": 1}"#, &tool_core::dispatch::DecodeOptions::default())
            .unwrap();
    assert_eq!(lenient.name, "x");
    let error = tool_core::dispatch::decode::<Lenient>(
        r#"{"name": "", "extra": 1}"#,
        &tool_core::dispatch::DecodeOptions::default(),
    )
    .err()
    .unwrap();
    assert!(
        error.to_string().contains("/name: must be at least 1 character long") && !error.to_string().contains("extra")
    );

    let mut registry = Registry::new();
    registry.add(OpenGreetTool).unwrap();
    assert_eq!(registry.call("forms_open", r#"{"name": "Ada", "locale": "en"}"#).unwrap().to_text(), "hi Ada");
    let entry = registry.get("forms_open").unwrap();
    assert!(!entry.parameters_json().contains("additionalProperties"));
    let strict = tool_core::provider::parameters(entry, Dialect::OpenAiStrict).unwrap();
    assert!(strict.contains(r#""additionalProperties":false"#), "strict dialects close every object: {strict}");
}
