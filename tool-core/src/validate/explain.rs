//! What each violation expected and received, filled in once a call is refused (never on a
//! valid call): the JSON type of the value at its path, and from the schema the type a
//! wrong-typed or missing value should have had, or the values an `enum` or `const` allows.
//! A server that replaces another words its errors from these, not from this crate's English.

use serde_json::Value;

use crate::validate::violation::Violations;

/// Fills in `expected` and `received` of `violations`, found in `arguments` against `schema`
/// (the arguments' JSON Schema).
pub(crate) fn explain(violations: &mut Violations, arguments: &Value, schema: &Value) {
    for violation in violations.kept_mut() {
        let at = subschema(schema, &violation.path);
        match &*violation.keyword {
            "required" => {
                let property = violation.property.as_deref().unwrap_or_default();
                violation.expected = at.and_then(|object| step(object, property)).and_then(type_of);
            }
            keyword => {
                violation.received = arguments.pointer(&violation.path).map(|value| json_type(value).into());
                violation.expected = match keyword {
                    "type" | "deserialize" => at.and_then(type_of),
                    "enum" => at.and_then(|schema| schema.get("enum")).map(Value::to_string),
                    "const" => at.and_then(|schema| schema.get("const")).map(Value::to_string),
                    _ => None,
                };
            }
        }
    }
}

/// The JSON type of `value`, as JSON Schema names it: a number without a fraction is an
/// integer however it is written (`3.0`), so the type does not depend on which validator
/// read it or whether it was normalized.
fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(number)
            if number.is_i64()
                || number.is_u64()
                || number.as_f64().is_some_and(|x| x.is_finite() && x.fract() == 0.0) =>
        {
            "integer"
        }
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The schema of the value at the JSON pointer `path`.
fn subschema<'s>(schema: &'s Value, path: &str) -> Option<&'s Value> {
    let mut at = schema;
    for segment in path.split('/').skip(1) {
        let segment = segment.replace("~1", "/").replace("~0", "~");
        at = step(at, &segment)?;
    }
    Some(at)
}

/// The schema of member `key` (a property name or an index) of a value of `schema`: through
/// its properties, items or additional properties, else through its alternatives.
fn step<'s>(schema: &'s Value, key: &str) -> Option<&'s Value> {
    if let Some(property) = schema.get("properties").and_then(|properties| properties.get(key)) {
        return Some(property);
    }
    if key.parse::<usize>().is_ok()
        && let Some(items) = schema.get("items").filter(|items| items.is_object())
    {
        return Some(items);
    }
    if let Some(others) = schema.get("additionalProperties").filter(|others| others.is_object()) {
        return Some(others);
    }
    alternatives(schema).find_map(|alternative| step(alternative, key))
}

fn alternatives(schema: &Value) -> impl Iterator<Item = &Value> {
    ["anyOf", "oneOf", "allOf"].into_iter().filter_map(|key| schema.get(key)?.as_array()).flatten()
}

/// The type(s) `schema` admits, `|`-separated in the order it names them (`"string | null"`).
fn type_of(schema: &Value) -> Option<String> {
    let mut types: Vec<String> = Vec::new();
    collect_types(schema, &mut types);
    (!types.is_empty()).then(|| types.join(" | "))
}

fn collect_types(schema: &Value, types: &mut Vec<String>) {
    let mut add = |name: &str| {
        if !types.iter().any(|known| known == name) {
            types.push(name.to_owned());
        }
    };
    match schema.get("type") {
        Some(Value::String(name)) => add(name),
        Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).for_each(add),
        _ => {
            if let Some(value) = schema.get("const") {
                add(json_type(value));
            } else if let Some(values) = schema.get("enum").and_then(Value::as_array) {
                values.iter().map(json_type).for_each(add);
            }
        }
    }
    for alternative in alternatives(schema) {
        collect_types(alternative, types);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::validate::violation::Violation;

    #[test]
    fn each_violation_gets_the_types_a_message_of_another_wording_needs() {
        let schema = json!({"type": "object", "properties": {
            "entities": {"type": "array", "items": {"type": "object", "properties": {
                "name": {"type": "string"}, "tags": {"anyOf": [{"type": "array"}, {"type": "null"}]}}}},
            "mode": {"type": "string", "enum": ["a", "b"]}}});
        let arguments = json!({"entities": [{"name": 1, "tags": "x"}], "mode": "c", "extra": 2.5});
        let mut violations = Violations::new();
        for violation in [
            Violation::new("/entities/0/name", "type", "m"),
            Violation::new("/entities/0/tags", "type", "m"),
            Violation::new("/entities/0", "required", "m").about("name"),
            Violation::new("/mode", "enum", "m"),
            Violation::new("/extra", "additionalProperties", "m").about("extra"),
        ] {
            violations.push_violation(violation);
        }
        explain(&mut violations, &arguments, &schema);
        let found: Vec<(Option<&str>, Option<&str>)> =
            violations.iter().map(|v| (v.expected.as_deref(), v.received.as_deref())).collect();
        assert_eq!(
            found,
            [
                (Some("string"), Some("integer")),
                (Some("array | null"), Some("string")),
                (Some("string"), None),
                (Some(r#"["a","b"]"#), Some("string")),
                (None, Some("number")),
            ]
        );
    }
}
