//! Exact schemas: every supported type and every `#[param]` keyword, as JSON.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use serde_json::{Value, json};
use tool_core::dispatch::DecodeOptions;
use tool_core::{ToolArgs, ToolError, tool};

fn schema_of<T: tool_core::ToolParam>() -> Value {
    serde_json::from_str(&tool_core::render::json_schema::<T>()).expect("rendered schemas are JSON")
}

#[derive(Debug, ToolArgs)]
#[allow(dead_code)]
pub(crate) struct Types {
    string: String,
    boxed_str: Box<str>,
    cow: Cow<'static, str>,
    character: char,
    u8: u8,
    i8: i8,
    u16: u16,
    i16: i16,
    u32: u32,
    i32: i32,
    u64: u64,
    i64: i64,
    usize: usize,
    f32: f32,
    f64: f64,
    flag: bool,
    optional: Option<u32>,
    list: Vec<String>,
    deque: VecDeque<bool>,
    fixed: [u8; 3],
    hash_set: HashSet<String>,
    tree_set: BTreeSet<i32>,
    hash_map: HashMap<String, f64>,
    tree_map: BTreeMap<String, Vec<u8>>,
    boxed: Box<u8>,
    shared: Arc<String>,
    counted: Rc<bool>,
    any: Value,
    nested: Inner,
    maybe_nested: Option<Inner>,
}

/// An inner object.
#[derive(Debug, ToolArgs)]
#[allow(dead_code)]
pub(crate) struct Inner {
    x: i16,
}

#[test]
fn every_type() {
    let int = |min: i128, max: i128| json!({"type": "integer", "minimum": min, "maximum": max});
    let inner = json!({
        "description": "An inner object.",
        "type": "object",
        "properties": {"x": {"type": "integer", "minimum": -32768, "maximum": 32767}},
        "required": ["x"],
        "additionalProperties": false
    });
    // An `Option`'s description sits beside its `anyOf`, outside the branches.
    let mut bare_inner = inner.clone();
    bare_inner.as_object_mut().unwrap().remove("description");
    let maybe_inner = json!({"description": "An inner object.", "anyOf": [bare_inner, {"type": "null"}]});
    let expected = json!({
        "type": "object",
        "properties": {
            "string": {"type": "string"},
            "boxed_str": {"type": "string"},
            "cow": {"type": "string"},
            "character": {"type": "string", "minLength": 1, "maxLength": 1},
            "u8": int(0, 255),
            "i8": int(-128, 127),
            "u16": int(0, 65535),
            "i16": int(-32768, 32767),
            // Every width is stated, so a validator reading the schema refuses what dispatch does.
            "u32": int(0, 4_294_967_295),
            "i32": int(-2_147_483_648, 2_147_483_647),
            "u64": int(0, i128::from(u64::MAX)),
            "i64": int(i128::from(i64::MIN), i128::from(i64::MAX)),
            "usize": int(0, i128::from(u64::MAX)),
            "f32": {"type": "number"},
            "f64": {"type": "number"},
            "flag": {"type": "boolean"},
            "optional": {"anyOf": [int(0, 4_294_967_295), {"type": "null"}]},
            "list": {"type": "array", "items": {"type": "string"}},
            "deque": {"type": "array", "items": {"type": "boolean"}},
            "fixed": {"type": "array", "items": int(0, 255), "minItems": 3, "maxItems": 3},
            "hash_set": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
            "tree_set": {"type": "array", "items": int(-2_147_483_648, 2_147_483_647), "uniqueItems": true},
            "hash_map": {"type": "object", "additionalProperties": {"type": "number"}},
            "tree_map": {"type": "object", "additionalProperties": {"type": "array", "items": int(0, 255)}},
            "boxed": int(0, 255),
            "shared": {"type": "string"},
            "counted": {"type": "boolean"},
            "any": {},
            "nested": inner,
            "maybe_nested": maybe_inner,
        },
        "required": [
            "string", "boxed_str", "cow", "character", "u8", "i8", "u16", "i16", "u32", "i32", "u64", "i64",
            "usize", "f32", "f64", "flag", "list", "deque", "fixed", "hash_set", "tree_set", "hash_map",
            "tree_map", "boxed", "shared", "counted", "any", "nested"
        ],
        "additionalProperties": false
    });
    assert_eq!(schema_of::<Types>(), expected);

    // The exact schema states every range dispatch enforces, for validators elsewhere.
    let exact: Value = serde_json::from_str(&tool_core::render::json_schema::<Types>()).expect("JSON");
    let mut full = expected;
    full["properties"]["u32"] = int(0, 4_294_967_295);
    full["properties"]["i32"] = int(-2_147_483_648, 2_147_483_647);
    full["properties"]["u64"] = int(0, u64::MAX.into());
    full["properties"]["i64"] = int(i64::MIN.into(), i64::MAX.into());
    full["properties"]["usize"] = int(0, usize::MAX as i128);
    full["properties"]["optional"] =
        json!({"anyOf": [{"type": "integer", "minimum": 0, "maximum": 4_294_967_295_u32}, {"type": "null"}]});
    full["properties"]["tree_set"]["items"] = int(-2_147_483_648, 2_147_483_647);
    assert_eq!(exact, full);
}

#[derive(Debug, ToolArgs)]
#[allow(dead_code)]
pub(crate) struct Keywords {
    /// Documented
    /// on two lines.
    documented: String,
    /// Replaced by the attribute.
    #[param(description = "Explicit")]
    described: String,
    #[param(minimum = -5, maximum = 5)]
    bounded: i32,
    #[param(exclusive_minimum = 0, exclusive_maximum = 1.5, multiple_of = 0.25)]
    ratio: f64,
    #[param(min_length = 1, max_length = 20, pattern = "^[a-z]+$")]
    slug: String,
    #[param(format = "email", examples = ["a@example.com"])]
    email: String,
    #[param(enum = ["low", "high"])]
    level: String,
    #[param(min_items = 1, max_items = 4, unique_items)]
    tags: Vec<String>,
    #[serde(default)]
    #[param(default = 3, minimum = 1)]
    retries: u8,
    #[param(enum = [1, 2, 3])]
    choice: Option<u8>,
}

#[test]
fn every_keyword() {
    let expected = json!({
        "type": "object",
        "properties": {
            "documented": {"description": "Documented on two lines.", "type": "string"},
            "described": {"description": "Explicit", "type": "string"},
            "bounded": {"type": "integer", "minimum": -5, "maximum": 5},
            "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1.5, "multipleOf": 0.25},
            "slug": {"type": "string", "minLength": 1, "maxLength": 20, "pattern": "^[a-z]+$"},
            "email": {"type": "string", "format": "email", "examples": ["a@example.com"]},
            "level": {"type": "string", "enum": ["low", "high"]},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 4, "uniqueItems": true},
            "retries": {"type": "integer", "minimum": 1, "maximum": 255, "default": 3},
            "choice": {"anyOf": [{"type": "integer", "minimum": 0, "maximum": 255, "enum": [1, 2, 3]}, {"type": "null"}]},
        },
        "required": ["documented", "described", "bounded", "ratio", "slug", "email", "level", "tags"],
        "additionalProperties": false
    });
    assert_eq!(schema_of::<Keywords>(), expected);
}

/// Validation reads each keyword's value as the macro typed it (exact integers, floats,
/// counts, a pattern's source, an enum's literals), with nothing parsed at call time.
#[test]
fn every_keyword_is_checked_from_its_typed_value() {
    let arguments = json!({
        "documented": "", "described": "", "bounded": -6, "ratio": 0.3, "slug": "",
        "email": "me", "level": "mid", "tags": ["a", "a", "b", "c", "d"], "retries": 0, "choice": 4
    });
    let error = tool_core::dispatch::decode::<Keywords>(arguments, &DecodeOptions::default()).expect_err("invalid");
    let ToolError::InvalidArguments { violations, .. } = error else { panic!("expected violations, got {error:?}") };
    let found: Vec<String> = violations.iter().map(|v| format!("{}: {}", v.path, v.message)).collect();
    assert_eq!(
        found,
        [
            "/bounded: must be >= -5, got -6",
            "/ratio: must be a multiple of 0.25, got 0.3",
            "/slug: must be at least 1 character long, got 0: \"\"",
            "/slug: must match the pattern \"^[a-z]+$\", got \"\"",
            "/email: must be a valid email, got \"me\"",
            "/level: must be one of [\"low\", \"high\"], got \"mid\"",
            "/tags: must have at most 4 items, got 5",
            "/tags: items must be unique, but items 0 and 1 are equal: \"a\"",
            "/retries: must be >= 1, got 0",
            "/choice: must be one of [1,2,3], got 4",
        ]
    );
}

/// Key order is part of what a model reads (`OpenAI` strict output follows it): the
/// description first, then the type, then constraints in a fixed order; properties in
/// declaration order.
#[test]
fn exact_text_and_order() {
    #[derive(Debug, ToolArgs)]
    #[allow(dead_code)]
    struct Ordered {
        /// Z first
        #[param(maximum = 10, minimum = 1)]
        zeta: u8,
        alpha: Option<String>,
    }
    assert_eq!(
        tool_core::render::json_schema::<Ordered>(),
        r#"{"type":"object","properties":{"zeta":{"description":"Z first","type":"integer","minimum":1,"maximum":10},"alpha":{"anyOf":[{"type":"string"},{"type":"null"}]}},"required":["zeta"],"additionalProperties":false}"#
    );
}

/// A `/// doc` that needs escaping: quotes, backslashes, control characters, non-ASCII.
#[derive(Debug, ToolArgs)]
#[allow(dead_code, clippy::tabs_in_doc_comments)] // the tab is what is tested
struct Escapes {
    /// Say "hi" \ back	tab — ünïcödé 🎉
    text: String,
}

#[test]
fn descriptions_are_escaped() {
    let schema = schema_of::<Escapes>();
    assert_eq!(schema["properties"]["text"]["description"], "Say \"hi\" \\ back\ttab — ünïcödé 🎉");
}

/// Get a forecast.
///
/// Second paragraph.
#[tool]
fn forecast(args: Inner) -> String {
    args.x.to_string()
}

#[test]
fn the_definition_is_spliced_from_the_parameters_written_once() {
    // The schema tree is a compile-time constant; its text is written on first use.
    const SCHEMA: &tool_core::schema::Schema = &<Inner as tool_core::ToolParam>::SCHEMA;
    let definition: Value = serde_json::from_str(ForecastTool::DEF.definition_json()).expect("definition is JSON");
    assert_eq!(definition["name"], "forecast");
    assert_eq!(definition["description"], "Get a forecast.\n\nSecond paragraph.");
    assert_eq!(definition["parameters"], schema_of::<Inner>());
    assert_eq!(ForecastTool::DEF.parameters_json(), tool_core::render::to_json(SCHEMA));
    assert_eq!(ForecastTool::DEF.parameters_json(), tool_core::render::json_schema::<Inner>());
    // Spliced once, then the same text every time.
    assert!(core::ptr::eq(ForecastTool::DEF.definition_json(), ForecastTool::DEF.definition_json()));
}
