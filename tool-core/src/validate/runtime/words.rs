//! The words of run-time violations that both the keyword report and the alternatives'
//! report use: pointers, and the types a `type` keyword names.

use jsonschema::JsonType;

use serde_json::Value;

use crate::validate::violation::Pointer;

/// What a report reads besides the errors: the whole schema (for the names a message lists)
/// and the whole value checked (for the order of its keys).
pub(super) struct Whole<'a> {
    /// The schema, as given.
    pub(super) schema: &'a Value,
    /// The value checked.
    pub(super) instance: &'a Value,
}

/// Appends the segments of the JSON pointer `text` to `at`.
pub(super) fn extend(at: &mut Pointer, text: &str) {
    for segment in text.split('/').skip(1) {
        at.push_key(&segment.replace("~1", "/").replace("~0", "~"));
    }
}

/// The types a `type` keyword names.
pub(super) fn types(kind: &jsonschema::error::TypeKind) -> Vec<JsonType> {
    match kind {
        jsonschema::error::TypeKind::Single(single) => vec![*single],
        jsonschema::error::TypeKind::Multiple(set) => set.iter().collect(),
    }
}

/// What a `type` violation says was expected: the types, `null` aside (an optional value's
/// `null` goes without saying), as `wrong_type` messages name them.
pub(super) fn expected(kinds: &[JsonType]) -> String {
    let named: Vec<&str> = kinds.iter().filter(|t| **t != JsonType::Null).map(|t| article(*t)).collect();
    if named.is_empty() { "null".to_owned() } else { named.join(" or ") }
}

/// A JSON type with its article, as `wrong_type` messages name them.
pub(super) fn article(kind: JsonType) -> &'static str {
    match kind {
        JsonType::Array => "an array",
        JsonType::Boolean => "a boolean",
        JsonType::Integer => "an integer",
        JsonType::Null => "null",
        JsonType::Number => "a number",
        JsonType::Object => "an object",
        JsonType::String => "a string",
    }
}

/// The schema a local `$ref` in `schema` stands for (inside the root schema only: nothing
/// else is resolved); `schema` itself when it has none.
pub(super) fn resolved<'s>(root: &'s Value, schema: &'s Value) -> &'s Value {
    let target = schema.get("$ref").and_then(Value::as_str).and_then(|reference| reference.strip_prefix('#'));
    target.and_then(|pointer| root.pointer(pointer)).unwrap_or(schema)
}
