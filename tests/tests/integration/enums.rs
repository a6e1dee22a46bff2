//! Enums: unit-only enums as string `enum`s, enums with data as `anyOf` following serde's
//! tagging, each validated the way serde picks the variant.

use serde_json::{Value, json};
use tool_core::dispatch::DecodeOptions;
use tool_core::provider::strict_choice;
use tool_core::render::Dialect;
use tool_core::{ToolArgs, ToolError};

fn schema_of<T: tool_core::ToolParam>() -> Value {
    serde_json::from_str(&tool_core::render::json_schema::<T>()).expect("JSON")
}

fn paths<T: ToolArgs + std::fmt::Debug>(arguments: Value) -> Result<T, Vec<(String, &'static str)>> {
    tool_core::dispatch::decode::<T>(arguments, &DecodeOptions::default()).map_err(|error| match error {
        ToolError::InvalidArguments { violations, .. } => {
            violations.iter().map(|v| (v.path.clone(), crate::support::keyword(v))).collect()
        }
        other => panic!("{other:?}"),
    })
}

/// A temperature unit.
#[derive(Debug, PartialEq, ToolArgs)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub(crate) enum Unit {
    DegreesCelsius,
    #[serde(rename = "F", alias = "fahrenheit")]
    Fahrenheit,
    #[serde(skip)]
    #[allow(dead_code)]
    Internal,
}

#[derive(Debug, ToolArgs)]
#[allow(dead_code)]
pub(crate) struct WithUnit {
    unit: Unit,
}

#[test]
fn unit_enum_is_a_string_enum() {
    assert_eq!(
        schema_of::<Unit>(),
        json!({"description": "A temperature unit.", "type": "string", "enum": ["DEGREES_CELSIUS", "F"]})
    );
    assert_eq!(paths::<WithUnit>(json!({"unit": "F"})).expect("valid").unit, Unit::Fahrenheit);
    assert_eq!(paths::<WithUnit>(json!({"unit": "fahrenheit"})).expect("alias").unit, Unit::Fahrenheit);
    assert_eq!(paths::<WithUnit>(json!({"unit": "Internal"})).expect_err("skipped"), [("/unit".to_owned(), "enum")]);
    assert_eq!(paths::<WithUnit>(json!({"unit": 1})).expect_err("type"), [("/unit".to_owned(), "enum")]);
}

#[derive(Debug, PartialEq, ToolArgs)]
pub(crate) struct Point {
    x: i32,
    y: i32,
}

/// A shape, externally tagged.
#[derive(Debug, PartialEq, ToolArgs)]
#[serde(rename_all = "snake_case")]
pub(crate) enum External {
    /// Nothing.
    Empty,
    Circle {
        radius: f64,
    },
    At(Point),
}

#[derive(Debug, ToolArgs)]
#[allow(dead_code)]
pub(crate) struct HasExternal {
    shape: External,
}

#[test]
fn externally_tagged() {
    assert_eq!(
        schema_of::<External>(),
        json!({
            "description": "A shape, externally tagged.",
            "anyOf": [
                {"description": "Nothing.", "type": "string", "enum": ["empty"]},
                {"type": "object", "properties": {"circle": {
                    "type": "object", "properties": {"radius": {"type": "number"}}, "required": ["radius"], "additionalProperties": false
                }}, "required": ["circle"], "additionalProperties": false},
                {"type": "object", "properties": {"at": schema_of::<Point>()}, "required": ["at"], "additionalProperties": false},
            ]
        })
    );
    assert_eq!(paths::<HasExternal>(json!({"shape": "empty"})).expect("unit").shape, External::Empty);
    assert_eq!(
        paths::<HasExternal>(json!({"shape": {"at": {"x": 1, "y": 2}}})).expect("newtype").shape,
        External::At(Point { x: 1, y: 2 })
    );
    assert_eq!(
        paths::<HasExternal>(json!({"shape": {"circle": {"radius": "1"}}})).expect_err("bad field"),
        [("/shape/circle/radius".to_owned(), "type")]
    );
    assert_eq!(
        paths::<HasExternal>(json!({"shape": "square"})).expect_err("unknown"),
        [("/shape".to_owned(), "anyOf")]
    );
    assert_eq!(
        paths::<HasExternal>(json!({"shape": {"circle": {"radius": 1}, "at": {}}})).expect_err("two keys"),
        [("/shape".to_owned(), "type")]
    );
}

#[derive(Debug, PartialEq, ToolArgs)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub(crate) enum Internal {
    Ping,
    Move {
        #[param(minimum = 0)]
        steps: i32,
    },
    Goto(Point),
}

#[derive(Debug, ToolArgs)]
#[allow(dead_code)]
pub(crate) struct HasInternal {
    action: Internal,
}

#[test]
fn internally_tagged() {
    let tag = |name: &str| json!({"type": "string", "enum": [name]});
    let point = schema_of::<Point>();
    assert_eq!(
        schema_of::<Internal>(),
        json!({"anyOf": [
            {"type": "object", "properties": {"kind": tag("ping")}, "required": ["kind"], "additionalProperties": false},
            {"type": "object", "properties": {"kind": tag("move"), "steps": {"type": "integer", "maximum": 2_147_483_647, "minimum": 0}},
             "required": ["kind", "steps"], "additionalProperties": false},
            {"type": "object", "properties": {"kind": tag("goto"), "x": point["properties"]["x"], "y": point["properties"]["y"]},
             "required": ["kind", "x", "y"], "additionalProperties": false},
        ]})
    );
    assert_eq!(paths::<HasInternal>(json!({"action": {"kind": "ping"}})).expect("unit").action, Internal::Ping);
    assert_eq!(
        paths::<HasInternal>(json!({"action": {"kind": "goto", "x": 1, "y": 2}})).expect("newtype").action,
        Internal::Goto(Point { x: 1, y: 2 })
    );
    assert_eq!(
        paths::<HasInternal>(json!({"action": {"kind": "move", "steps": -1, "extra": 0}})).expect_err("bad"),
        [("/action/steps".to_owned(), "minimum"), ("/action/extra".to_owned(), "additionalProperties")]
    );
    assert_eq!(
        paths::<HasInternal>(json!({"action": {"kind": "jump"}})).expect_err("unknown tag"),
        [("/action/kind".to_owned(), "enum")]
    );
    assert_eq!(paths::<HasInternal>(json!({"action": {}})).expect_err("no tag"), [("/action".to_owned(), "required")]);
}

#[derive(Debug, PartialEq, ToolArgs)]
#[serde(tag = "t", content = "c")]
pub(crate) enum Adjacent {
    Stop,
    Speed(u8),
    Turn { degrees: i16 },
}

#[derive(Debug, ToolArgs)]
#[allow(dead_code)]
pub(crate) struct HasAdjacent {
    command: Adjacent,
}

#[test]
fn adjacently_tagged() {
    let schema = schema_of::<Adjacent>();
    assert_eq!(
        schema["anyOf"][1],
        json!({"type": "object", "properties": {
            "t": {"type": "string", "enum": ["Speed"]},
            "c": {"type": "integer", "minimum": 0, "maximum": 255}
        }, "required": ["t", "c"], "additionalProperties": false})
    );
    assert_eq!(paths::<HasAdjacent>(json!({"command": {"t": "Stop"}})).expect("unit").command, Adjacent::Stop);
    assert_eq!(
        paths::<HasAdjacent>(json!({"command": {"t": "Speed", "c": 3}})).expect("newtype").command,
        Adjacent::Speed(3)
    );
    assert_eq!(
        paths::<HasAdjacent>(json!({"command": {"t": "Turn", "c": {"degrees": 90}}})).expect("struct").command,
        Adjacent::Turn { degrees: 90 }
    );
    assert_eq!(
        paths::<HasAdjacent>(json!({"command": {"t": "Speed", "c": 300}})).expect_err("range"),
        [("/command/c".to_owned(), "maximum")]
    );
    assert_eq!(
        paths::<HasAdjacent>(json!({"command": {"t": "Speed"}})).expect_err("no content"),
        [("/command".to_owned(), "required")]
    );
}

#[derive(Debug, PartialEq, ToolArgs)]
#[serde(untagged)]
pub(crate) enum Untagged {
    Number(f64),
    Named { name: String },
    Pair(Point),
}

#[derive(Debug, ToolArgs)]
#[allow(dead_code)]
pub(crate) struct HasUntagged {
    value: Untagged,
}

#[test]
fn untagged() {
    let schema = schema_of::<Untagged>();
    assert_eq!(schema["anyOf"][0], json!({"type": "number", "title": "Number"}));
    assert_eq!(
        schema["anyOf"][1],
        json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"], "additionalProperties": false, "title": "Named"})
    );
    assert_eq!(paths::<HasUntagged>(json!({"value": 2.5})).expect("number").value, Untagged::Number(2.5));
    assert_eq!(
        paths::<HasUntagged>(json!({"value": {"name": "n"}})).expect("named").value,
        Untagged::Named { name: "n".to_owned() }
    );
    assert_eq!(
        paths::<HasUntagged>(json!({"value": {"x": 1, "y": 2}})).expect("pair").value,
        Untagged::Pair(Point { x: 1, y: 2 })
    );
    let error = paths::<HasUntagged>(json!({"value": {"x": 1}})).expect_err("none");
    assert_eq!(error[0], ("/value".to_owned(), "anyOf"));
    assert_eq!(error[1..], [("/value".to_owned(), "required")]);
}

/// How to travel.
#[derive(Debug, ToolArgs)]
#[serde(rename_all = "snake_case")]
#[allow(dead_code)]
pub(crate) enum Mode {
    /// On foot, "slowly".
    Walk,
    Drive,
    /// By train: the default.
    Rail,
}

/// Travels.
#[tool_core::tool]
fn travel(args: TravelArgs) -> String {
    format!("{:?}", args.mode)
}

#[derive(Debug, ToolArgs)]
pub(crate) struct TravelArgs {
    /// The mode of transport.
    #[serde(default = "rail")]
    #[param(default = "rail")]
    mode: Mode,
    /// Below the speed limit.
    #[serde(default)]
    #[param(default = 50, maximum = 130)]
    speed: u8,
}

fn rail() -> Mode {
    Mode::Rail
}

#[test]
fn variant_doc_comments_reach_every_dialect_and_defaults_survive_in_the_description() {
    let listed = "- walk: On foot, \"slowly\".\n- rail: By train: the default.";
    assert_eq!(
        schema_of::<Mode>(),
        json!({"description": format!("How to travel.\n\n{listed}"), "type": "string", "enum": ["walk", "drive", "rail"]})
    );
    let mut registry = tool_core::Registry::new();
    registry.add(TravelTool).expect("one tool");
    let entry = registry.get("travel").expect("added");
    let field_doc = format!("The mode of transport.\n\n{listed}");
    let parameters: Value = serde_json::from_str(entry.parameters_json()).expect("JSON");
    assert_eq!(parameters["properties"]["mode"]["description"], json!(field_doc));
    assert_eq!(parameters["properties"]["mode"]["default"], json!("rail"));
    // OpenAI strict has no `default`: it moves into the description, as do the keywords
    // Anthropic's strict mode lacks; Gemini keeps `default`.
    let openai: Value =
        serde_json::from_str(&strict_choice(entry, Dialect::OpenAiStrict, true).parameters).expect("JSON");
    assert_eq!(openai["properties"]["mode"]["description"], json!(format!("{field_doc}\n\n{{default: \"rail\"}}")));
    assert_eq!(openai["properties"]["speed"]["description"], json!("Below the speed limit.\n\n{default: 50}"));
    assert!(openai["properties"]["speed"].get("default").is_none());
    let anthropic: Value =
        serde_json::from_str(&strict_choice(entry, Dialect::AnthropicStrict, true).parameters).expect("JSON");
    let speed = &anthropic["properties"]["speed"]["description"];
    assert_eq!(*speed, json!("Below the speed limit.\n\n{minimum: 0, maximum: 130, default: 50}"), "{anthropic}");
    let gemini: Value =
        serde_json::from_str(&tool_core::provider::parameters(entry, Dialect::GeminiParameters).expect("a form"))
            .expect("JSON");
    assert_eq!(
        gemini["properties"]["mode"],
        json!({"description": field_doc, "type": "STRING", "enum": ["walk", "drive", "rail"], "default": "rail"})
    );
    assert_eq!(registry.call("travel", "{}").expect("defaults").to_text(), "Rail");
}
