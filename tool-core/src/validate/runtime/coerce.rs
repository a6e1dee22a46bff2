//! Lenient coercion guided by a run-time schema: where the schema names exactly one scalar
//! type for a value (`null` aside), the rewrites of `validate::coerce` apply, as they do for a
//! `#[tool]` field of that type. Nothing is rewritten under `anyOf`/`oneOf`, where the
//! intended type is a guess.

use serde_json::Value;

use crate::validate::coerce;

/// Deeper than any schema a person writes; a `$ref` cycle stops here.
const MAX_DEPTH: usize = 64;

/// Rewrites `instance` as `schema` (a part of `root`) allows.
pub(super) fn apply(root: &Value, schema: &Value, instance: &mut Value, depth: usize) {
    let Some(schema) = schema.as_object() else { return };
    if depth > MAX_DEPTH {
        return;
    }
    let target =
        schema.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix('#')).and_then(|p| root.pointer(p));
    if let Some(target) = target {
        apply(root, target, instance, depth + 1);
    }
    match scalar_type(schema.get("type")) {
        Some("integer") => coerce::integer(instance),
        Some("number") => coerce::number(instance),
        Some("boolean") => coerce::boolean(instance),
        Some("string") => coerce::string(instance),
        _ => {}
    }
    match instance {
        Value::Object(map) => {
            let properties = schema.get("properties").and_then(Value::as_object);
            let others = schema.get("additionalProperties").filter(|s| s.is_object());
            for (key, value) in map.iter_mut() {
                if let Some(property) = properties.and_then(|p| p.get(key)).or(others) {
                    apply(root, property, value, depth + 1);
                }
            }
        }
        Value::Array(items) => {
            let leading = schema.get("prefixItems").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
            let rest = schema.get("items").filter(|s| s.is_object());
            for (index, item) in items.iter_mut().enumerate() {
                if let Some(item_schema) = leading.get(index).or(if index >= leading.len() { rest } else { None }) {
                    apply(root, item_schema, item, depth + 1);
                }
            }
        }
        _ => {}
    }
}

/// The one scalar type `type` names, `null` aside.
fn scalar_type(types: Option<&Value>) -> Option<&str> {
    let named = match types? {
        Value::String(one) => one.as_str(),
        Value::Array(many) => {
            let mut not_null = many.iter().filter_map(Value::as_str).filter(|t| *t != "null");
            let one = not_null.next()?;
            if not_null.next().is_some() {
                return None;
            }
            one
        }
        _ => return None,
    };
    matches!(named, "integer" | "number" | "boolean" | "string").then_some(named)
}
