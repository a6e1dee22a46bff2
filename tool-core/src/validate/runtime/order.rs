//! The order of run-time violations: the compile-time validator's. It walks an object's
//! properties as the schema declares them (a missing one in its place), then the keys it
//! does not know, and an array's items by index; `jsonschema` reports in its own order
//! (keyword by keyword), so each error is given the place its value (or the property it
//! misses) holds in that walk, and errors are sorted by it.

use jsonschema::ValidationError;
use jsonschema::error::ValidationErrorKind;
use serde_json::Value;

use super::words::{Whole, resolved};

/// Marks a value's own keyword in a place: before anything below the value.
const OWN: usize = 0;
/// Marks a step below a value (a property, an item, a missing property).
const BELOW: usize = 1;

/// `errors` in the order the compile-time validator finds them (a stable sort: errors at one
/// place keep `jsonschema`'s order).
pub(super) fn sorted<'e, 'v>(errors: &'e [ValidationError<'v>], whole: &Whole<'_>) -> Vec<&'e ValidationError<'v>> {
    let mut keyed: Vec<(Vec<usize>, &ValidationError<'v>)> =
        errors.iter().map(|error| (place(error, whole.schema, whole.instance), error)).collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0));
    keyed.into_iter().map(|(_, error)| error).collect()
}

/// The place of `error` in the compile-time walk: at each object on the way, the position of
/// the property taken (unknown keys after every declared one, in the order the value has
/// them); at each array, the index.
fn place(error: &ValidationError<'_>, root: &Value, whole: &Value) -> Vec<usize> {
    let instance = segments(error.instance_path().as_str());
    let evaluation = segments(error.evaluation_path().as_str());
    let mut key = Vec::new();
    let mut node = root;
    let mut depth = 0;
    let mut steps = evaluation.iter().map(String::as_str);
    let mut keyword = "";
    while let Some(step) = steps.next() {
        let descends = depth < instance.len();
        match step {
            "properties" => {
                let Some(name) = steps.next() else { break };
                key.extend([BELOW, position(node, name)]);
                depth += 1;
                node = node.get("properties").and_then(|all| all.get(name)).unwrap_or(&Value::Null);
            }
            "additionalProperties" | "patternProperties" | "unevaluatedProperties" if descends => {
                let child = if step == "patternProperties" {
                    steps.next().and_then(|pattern| node.get(step).and_then(|all| all.get(pattern)))
                } else {
                    node.get(step)
                };
                key.extend([BELOW, declared(node) + 1, index_of_key(whole, &instance, depth)]);
                depth += 1;
                node = child.unwrap_or(&Value::Null);
            }
            "items" | "prefixItems" if descends => {
                let child = if step == "prefixItems" {
                    steps.next().and_then(|index| node.get(step).and_then(|all| all.get(index.parse::<usize>().ok()?)))
                } else {
                    node.get(step)
                };
                key.extend([BELOW, instance.get(depth).and_then(|index| index.parse().ok()).unwrap_or(0)]);
                depth += 1;
                node = child.unwrap_or(&Value::Null);
            }
            "$ref" => node = resolved(root, node),
            "anyOf" | "oneOf" | "allOf" | "dependentSchemas" => {
                let Some(index) = steps.next() else { break };
                let all = node.get(step);
                node = all
                    .and_then(|all| all.get(index).or_else(|| all.get(index.parse::<usize>().ok()?)))
                    .unwrap_or(&Value::Null);
            }
            "if" | "then" | "else" | "not" | "contains" | "propertyNames" => {
                node = node.get(step).unwrap_or(&Value::Null);
            }
            _ => {
                keyword = step;
                break;
            }
        }
    }
    match error.kind() {
        ValidationErrorKind::Required { property } => {
            key.extend([BELOW, position(node, property.as_str().unwrap_or_default())]);
        }
        ValidationErrorKind::AdditionalProperties { .. } | ValidationErrorKind::UnevaluatedProperties { .. } => {
            key.extend([BELOW, declared(node) + 1]);
        }
        // A value's own keywords before what is below it, in the order its schema states them.
        _ => {
            let stated = node.as_object().and_then(|schema| schema.keys().position(|k| k == keyword));
            key.extend([OWN, stated.unwrap_or(0)]);
        }
    }
    key
}

/// The position of `name` among the properties `schema` declares (one past them when it
/// declares none by that name).
fn position(schema: &Value, name: &str) -> usize {
    let properties = schema.get("properties").and_then(Value::as_object);
    properties.and_then(|all| all.keys().position(|key| key == name)).unwrap_or_else(|| declared(schema))
}

/// How many properties `schema` declares.
fn declared(schema: &Value) -> usize {
    schema.get("properties").and_then(Value::as_object).map_or(0, serde_json::Map::len)
}

/// The position of the key at `depth` of the instance path `path` in its object.
fn index_of_key(whole: &Value, path: &[String], depth: usize) -> usize {
    let parent = path[..depth.min(path.len())].iter().try_fold(whole, |value, step| match value {
        Value::Object(map) => map.get(step),
        Value::Array(items) => items.get(step.parse::<usize>().ok()?),
        _ => None,
    });
    let object = parent.and_then(Value::as_object);
    let name = path.get(depth);
    object.zip(name).and_then(|(object, name)| object.keys().position(|key| key == name)).unwrap_or(0)
}

/// The segments of a JSON pointer, unescaped.
fn segments(pointer: &str) -> Vec<String> {
    pointer.split('/').skip(1).map(|segment| segment.replace("~1", "/").replace("~0", "~")).collect()
}
