//! Gemini's `parameters` (its `Schema` object, an `OpenAPI` subset): converting a JSON Schema
//! given as JSON (a tool made at run time), and saying what a schema loses on the way, so a
//! tool list reports it as strict-mode fallbacks are reported.
//!
//! Two rules come from what the API refuses: an `OBJECT` with an empty `properties` is an
//! `INVALID_ARGUMENT` ("should be non-empty for OBJECT type"), so empty `properties` are
//! left out, and a function without arguments is declared without `parameters`, which the
//! API documents as optional.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::registry::Entry;
use crate::render::dialect::{Dialect, KeywordPlacement};
use crate::render::has_properties;
use crate::schema::{Keyword, ObjectSchema, Schema};

/// The reasons in [`SchemaFallback::reason`](crate::provider::SchemaFallback::reason) for a
/// tool whose schema Gemini's `parameters` cannot carry whole.
pub mod schema_loss {
    /// Lost: a map's value schema.
    pub const MAP_VALUES: &str = "Gemini `parameters` cannot state the schema of a map's values (`additionalProperties`): the model is not told it, and dispatch still checks every value";

    /// Lost: a value of any type.
    pub const UNTYPED: &str =
        "Gemini `parameters` cannot state a value of any type (`serde_json::Value`, `{}`): its `Schema` names one type";

    /// Weakened: constraints the `Schema` object has no field for, told in the description.
    pub const KEYWORDS: &str = "Gemini `parameters` has no `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, `uniqueItems`, `prefixItems`, `examples` or non-string `enum`: the model reads the constraints in the description (examples are left out), and dispatch still enforces them";
}
use schema_loss::{KEYWORDS, MAP_VALUES, UNTYPED};

/// The keys Gemini's `Schema` object has, beside the structural ones converted below.
const KEPT: [&str; 16] = [
    "description",
    "format",
    "title",
    "default",
    "example",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "required",
    "propertyOrdering",
];

/// Gemini's `parameters` form of a JSON Schema given as JSON (a tool made at run time):
/// upper-case types, `nullable` for a type union with `null`, string `const` as a one-value
/// `enum`, no empty `properties`, and only the keys the `Schema` object has (others are
/// dropped, and [`value_loss`] names them: the handler still gets, and checks, what the
/// model sends).
#[must_use]
pub fn parameters_from(schema: &Value) -> Value {
    let Value::Object(object) = schema else { return Value::Object(Map::new()) };
    let mut out = Map::new();
    match object.get("type") {
        Some(Value::String(name)) => {
            out.insert("type".to_owned(), Value::String(name.to_uppercase()));
        }
        Some(Value::Array(names)) => {
            let concrete: Vec<&str> = names.iter().filter_map(Value::as_str).filter(|n| *n != "null").collect();
            if let [name] = concrete.as_slice() {
                out.insert("type".to_owned(), Value::String(name.to_uppercase()));
            }
            if concrete.len() < names.len() {
                out.insert("nullable".to_owned(), Value::Bool(true));
            }
        }
        _ => {}
    }
    for (key, value) in object {
        match key.as_str() {
            "properties" => {
                if let Value::Object(properties) = value
                    && !properties.is_empty()
                {
                    let converted = properties.iter().map(|(name, p)| (name.clone(), parameters_from(p))).collect();
                    out.insert(key.clone(), Value::Object(converted));
                }
            }
            "items" => {
                out.insert(key.clone(), parameters_from(value));
            }
            "anyOf" => {
                if let Value::Array(branches) = value {
                    out.insert(key.clone(), Value::Array(branches.iter().map(parameters_from).collect()));
                }
            }
            "enum" => {
                if let Value::Array(values) = value
                    && values.iter().all(Value::is_string)
                {
                    out.insert(key.clone(), value.clone());
                }
            }
            "const" if value.is_string() => {
                out.insert("enum".to_owned(), Value::Array(vec![value.clone()]));
            }
            "required" if value.as_array().is_some_and(Vec::is_empty) => {}
            other if KEPT.contains(&other) => {
                out.insert(key.clone(), value.clone());
            }
            _ => {}
        }
    }
    Value::Object(out)
}

/// What [`parameters_from`] loses of `schema`, if anything: the first loss found.
#[must_use]
pub fn value_loss(schema: &Value) -> Option<&'static str> {
    let Value::Object(object) = schema else { return None };
    if !object.contains_key("type") && !object.contains_key("anyOf") && !object.contains_key("const") {
        return Some(UNTYPED);
    }
    for (key, value) in object {
        let loss = match key.as_str() {
            "properties" => value.as_object().and_then(|properties| properties.values().find_map(value_loss)),
            "items" => value_loss(value),
            "anyOf" => value.as_array().and_then(|branches| branches.iter().find_map(value_loss)),
            "additionalProperties" if value.is_object() => Some(MAP_VALUES),
            "enum" => (!value.as_array().is_some_and(|values| values.iter().all(Value::is_string))).then_some(KEYWORDS),
            "const" => (!value.is_string()).then_some(KEYWORDS),
            "type" | "additionalProperties" | "$schema" | "$id" | "$comment" => None,
            other if KEPT.contains(&other) => None,
            _ => Some(KEYWORDS),
        };
        if loss.is_some() {
            return loss;
        }
    }
    None
}

/// What Gemini's `parameters` (as the renderer writes them) lose of a compile-time tree.
fn tree_loss(schema: &Schema) -> Option<&'static str> {
    match *schema {
        Schema::Any => Some(UNTYPED),
        Schema::Map { .. } => Some(MAP_VALUES),
        Schema::Nullable(_) | Schema::Constrained(_) => {
            // What a newtype states of its own is written with what it wraps.
            let (inner, _, keywords) = schema.peel_keywords(&[]);
            if drops_any(&keywords) { Some(KEYWORDS) } else { tree_loss(inner) }
        }
        Schema::Array { unique_items: true, .. } | Schema::Tuple(_) => Some(KEYWORDS),
        Schema::Array { items, .. } => tree_loss(items),
        Schema::Object(object) => object_loss(object),
        Schema::AnyOf(any_of) => any_of.branches.iter().find_map(tree_loss),
        Schema::Boolean
        | Schema::Integer { .. }
        | Schema::Number
        | Schema::String
        | Schema::Char
        | Schema::Parsed(_)
        | Schema::StringEnum(_) => None,
    }
}

fn object_loss(object: &ObjectSchema) -> Option<&'static str> {
    for property in object.properties {
        let dropped = property.keywords.iter().any(|keyword| {
            Dialect::GeminiParameters.place(keyword.kind, Some(keyword.value), None) != KeywordPlacement::Keep
        });
        if dropped {
            return Some(KEYWORDS);
        }
        if let Some(loss) = tree_loss(property.schema) {
            return Some(loss);
        }
    }
    object.flatten.iter().find_map(|inner| tree_loss(inner))
}

/// Whether `parameters` drop any of `keywords`.
fn drops_any(keywords: &[Keyword]) -> bool {
    keywords.iter().any(|keyword| match keyword.value {
        crate::schema::KeywordValue::Keywords(nested) => drops_any(nested),
        value => Dialect::GeminiParameters.place(keyword.kind, Some(value), None) != KeywordPlacement::Keep,
    })
}

/// `entry`'s Gemini `parameters`: the compile-time tree's text in the dialect, or the
/// conversion of a tool made at run time's JSON Schema.
pub(crate) fn entry_parameters(entry: &Entry) -> Cow<'_, str> {
    // Gemini's dialect has a form of every tree (it writes what it drops into the
    // description, and `entry_loss` reports it).
    if let Some(Ok(text)) = entry.described_parameters(Dialect::GeminiParameters) {
        return Cow::Borrowed(text);
    }
    match (entry.def(), entry.dynamic()) {
        (Some(def), _) => Cow::Borrowed(def.parameters_in(Dialect::GeminiParameters).unwrap_or_default()),
        (None, Some(tool)) => match tool.schema() {
            Some(tree) => Cow::Owned(crate::render::to_json_in(tree, Dialect::GeminiParameters)),
            None => Cow::Owned(parameters_from(tool.parameters()).to_string()),
        },
        (None, None) => Cow::Borrowed(entry.parameters_json()),
    }
}

/// What Gemini's `parameters` lose of `entry`'s schema, if anything.
pub(crate) fn entry_loss(entry: &Entry) -> Option<&'static str> {
    if let Some(tree) = entry.schema_tree() {
        return tree_loss(tree);
    }
    match (entry.def(), entry.dynamic()) {
        (Some(def), _) => tree_loss(def.schema()),
        (None, Some(tool)) => value_loss(tool.parameters()),
        (None, None) => None,
    }
}

/// Whether `entry` takes any arguments: `false` for an object schema without properties
/// (a tool without arguments, declared without `parameters`).
pub(crate) fn takes_arguments(entry: &Entry) -> bool {
    match (entry.def(), entry.dynamic()) {
        (Some(def), _) => match def.schema() {
            Schema::Object(object) => has_properties(object),
            _ => true,
        },
        (None, Some(tool)) => {
            let schema = tool.parameters();
            let has_properties = schema.get("properties").and_then(Value::as_object).is_some_and(|p| !p.is_empty());
            let open = schema.get("additionalProperties").is_some_and(Value::is_object);
            has_properties || open
        }
        (None, None) => true,
    }
}
