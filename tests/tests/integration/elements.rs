//! Keywords on the elements of a sequence (`items(..)`) and the values of a map
//! (`values(..)`), and the size of a map (`min_properties`, `max_properties`): stated in the
//! schema where the elements are, and enforced at dispatch with each element's path.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Value, json};
use tool_core::dispatch::DecodeOptions;
use tool_core::provider::openai;
use tool_core::{Registry, ToolArgs, tool};

use super::support::{schema_of, violations};

#[derive(Debug, ToolArgs)]
struct Tagging {
    /// Tags to set.
    #[param(max_items = 5, items(min_length = 1, max_length = 8, pattern = "^[a-z]+$"))]
    tags: Vec<String>,
    /// Scores by player.
    #[param(min_properties = 1, max_properties = 3, values(minimum = 0, maximum = 100))]
    scores: BTreeMap<String, i32>,
    #[serde(default)]
    #[param(items(description = "A weight", exclusive_minimum = 0))]
    weights: Option<Vec<f64>>,
    #[serde(default)]
    #[param(values(enum = ["on", "off"]))]
    switches: HashMap<String, String>,
}

#[test]
fn element_keywords_sit_in_the_elements_schema() {
    let properties = &schema_of::<Tagging>()["properties"];
    assert_eq!(
        properties["tags"],
        json!({"description": "Tags to set.", "type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 8, "pattern": "^[a-z]+$"}, "maxItems": 5})
    );
    assert_eq!(
        properties["scores"],
        json!({"description": "Scores by player.", "type": "object", "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 100}, "minProperties": 1, "maxProperties": 3})
    );
    assert_eq!(
        properties["weights"],
        json!({"anyOf": [{"type": "array", "items": {"description": "A weight", "type": "number", "exclusiveMinimum": 0}}, {"type": "null"}]})
    );
    assert_eq!(properties["switches"]["additionalProperties"], json!({"type": "string", "enum": ["on", "off"]}));
}

#[test]
fn element_keywords_are_enforced_with_each_elements_path() {
    let good = json!({"tags": ["a", "bc"], "scores": {"ann": 3}, "weights": [0.5], "switches": {"x": "on"}});
    let decoded = tool_core::dispatch::decode::<Tagging>(good, &DecodeOptions::default()).expect("valid");
    assert_eq!(decoded.tags, ["a", "bc"]);
    assert_eq!(
        violations::<Tagging>(json!({
            "tags": ["ok", "", "TooLongTag", "Up"],
            "scores": {"a": 1, "b": -1, "c": 101, "d": 4},
            "weights": [1, 0],
            "switches": {"x": "maybe"}
        })),
        [
            ("/tags/1".to_owned(), "minLength"),
            ("/tags/1".to_owned(), "pattern"),
            ("/tags/2".to_owned(), "maxLength"),
            ("/tags/2".to_owned(), "pattern"),
            ("/tags/3".to_owned(), "pattern"),
            ("/scores".to_owned(), "maxProperties"),
            ("/scores/b".to_owned(), "minimum"),
            ("/scores/c".to_owned(), "maximum"),
            ("/weights/1".to_owned(), "exclusiveMinimum"),
            ("/switches/x".to_owned(), "enum"),
        ]
    );
    assert_eq!(violations::<Tagging>(json!({"tags": [], "scores": {}})), [("/scores".to_owned(), "minProperties")]);
}

#[test]
fn element_keywords_agree_with_the_reference_validator() {
    let base = json!({"tags": ["a", "bc"], "scores": {"ann": 3}, "weights": [0.5], "switches": {"x": "on"}});
    assert!(super::reference::agree::<Tagging>(&base) > 50);
}

/// Tags things.
#[tool]
fn tag(args: Tagging) -> String {
    args.tags.join(",")
}

#[test]
fn a_strict_dialect_describes_what_it_cannot_state_inside_the_elements() {
    let mut registry = Registry::new();
    registry.add(TagTool).expect("one tool");
    assert_eq!(registry.call("tag", r#"{"tags": ["a", "b"], "scores": {"x": 1}}"#).expect("valid").to_text(), "a,b");
    assert!(registry.call("tag", r#"{"tags": ["A"], "scores": {"x": 1}}"#).is_err());
    let list = openai::chat_tools(registry.iter(), false).to_value();
    let tags = &list[0]["function"]["parameters"]["properties"]["tags"];
    assert_eq!(tags["items"]["pattern"], json!("^[a-z]+$"), "{list}");
    // Maps have no strict form; a list of tags does, and Anthropic's strict mode keeps only
    // the type of each element, its constraints told in the element's description.
    let mut registry = Registry::new();
    registry.add(LabelTool).expect("one tool");
    let entry = registry.get("label").expect("added");
    let choice = tool_core::provider::strict_choice(entry, tool_core::render::Dialect::AnthropicStrict, true);
    assert!(choice.strict, "{choice:?}");
    let anthropic: Value = serde_json::from_str(&choice.parameters).expect("JSON");
    let items = &anthropic["properties"]["labels"]["items"];
    assert_eq!(
        *items,
        json!({"description": "{minLength: 1, pattern: \"^[a-z]+$\"}", "type": "string"}),
        "{anthropic}"
    );
}

#[derive(Debug, ToolArgs)]
struct LabelArgs {
    #[param(items(min_length = 1, pattern = "^[a-z]+$"))]
    labels: Vec<String>,
}

/// Labels things.
#[tool]
fn label(args: LabelArgs) -> String {
    args.labels.join(",")
}
