//! What is wrong with a run-time schema, said in the schema's own terms before `jsonschema`
//! compiles it: a pattern that is not ECMA-262 (which it would accept and then fail on), a
//! reference to a document outside the schema (which it would suggest fetching, with a feature
//! this crate leaves out on purpose), and a keyword whose value breaks the meta-schema (which
//! it words as the meta-schema's `anyOf`).

use jsonschema::error::ValidationErrorKind;
use serde_json::Value;

use crate::validate::pattern;

/// The first problem [`jsonschema`] would miss or word poorly, by where it is in `schema`.
pub(super) fn before_compiling(schema: &Value) -> Result<(), String> {
    let mut ids = Vec::new();
    collect_ids(schema, &mut ids);
    walk(schema, &mut String::new(), &ids)
}

fn collect_ids<'s>(schema: &'s Value, out: &mut Vec<&'s str>) {
    match schema {
        Value::Object(map) => {
            if let Some(Value::String(id)) = map.get("$id") {
                out.push(id.trim_end_matches('#'));
            }
            map.values().for_each(|value| collect_ids(value, out));
        }
        Value::Array(items) => items.iter().for_each(|item| collect_ids(item, out)),
        _ => {}
    }
}

fn walk(schema: &Value, path: &mut String, ids: &[&str]) -> Result<(), String> {
    match schema {
        Value::Object(map) => {
            for (key, value) in map {
                let len = path.len();
                path.push('/');
                path.push_str(&key.replace('~', "~0").replace('/', "~1"));
                match (key.as_str(), value) {
                    ("pattern", Value::String(source)) => usable(source, path)?,
                    ("patternProperties", Value::Object(patterns)) => {
                        for source in patterns.keys() {
                            usable(source, path)?;
                        }
                    }
                    ("$ref" | "$dynamicRef", Value::String(target)) => inside(target, path, ids)?,
                    _ => {}
                }
                walk(value, path, ids)?;
                path.truncate(len);
            }
            Ok(())
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                let len = path.len();
                path.push('/');
                path.push_str(&index.to_string());
                walk(item, path, ids)?;
                path.truncate(len);
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

fn usable(source: &str, path: &str) -> Result<(), String> {
    pattern::compile(source)
        .map(drop)
        .map_err(|why| format!("the schema at {path}: the pattern {source:?} is not usable: {why}"))
}

/// A reference must point into the schema: a fragment, or a document the schema names with
/// `$id`.
fn inside(target: &str, path: &str, ids: &[&str]) -> Result<(), String> {
    let document = target.split_once('#').map_or(target, |(document, _)| document);
    if document.is_empty() || ids.contains(&document) {
        return Ok(());
    }
    Err(format!(
        "the schema at {path} refers to {target:?}, outside the schema: references are followed only within it \
         (put the definition in `$defs` and refer to \"#/$defs/...\"); nothing is fetched"
    ))
}

/// `error`, from compiling a schema, in the schema's terms: where, which keyword, what it
/// takes.
pub(super) fn worded(error: &jsonschema::ValidationError<'_>) -> String {
    let path = error.instance_path().as_str().to_owned();
    let place = if path.is_empty() { "the schema".to_owned() } else { format!("the schema at {path}") };
    if let ValidationErrorKind::Referencing(_) = error.kind() {
        return format!(
            "{place} refers to a document outside it: references are followed only within the schema; nothing is fetched"
        );
    }
    let keyword = path.rsplit('/').next().unwrap_or_default().replace("~1", "/").replace("~0", "~");
    let got = error.instance();
    let takes = match keyword.as_str() {
        "type" => {
            "a type name (\"array\", \"boolean\", \"integer\", \"null\", \"number\", \"object\", \"string\") or a list of them"
        }
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => "a number",
        "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties" | "maxProperties" => {
            "a non-negative integer"
        }
        "required" | "enum" => "an array",
        "properties" | "patternProperties" | "$defs" | "dependentRequired" | "dependentSchemas" => "an object",
        "pattern" | "format" | "$ref" | "$id" | "title" | "description" => "a string",
        _ => "",
    };
    if takes.is_empty() {
        format!("{place}: {got} is not valid here: {}", error.masked())
    } else {
        format!("{place}: `{keyword}` takes {takes}, got {got}")
    }
}
