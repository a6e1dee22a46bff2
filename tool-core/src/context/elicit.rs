//! The MCP elicitation form of a type's schema: a flat object whose properties are strings,
//! numbers, integers, booleans, string enums or arrays of string enums (multi-select), with
//! only the keywords MCP's `PrimitiveSchemaDefinition` has. [`elicitation_problem`] runs at
//! compile time (a `const` in [`ToolContext::elicit`](crate::ToolContext::elicit)), so a `T`
//! MCP cannot ask for does not build; [`elicitation_schema`] renders the accepted ones.

use serde_json::{Map, Value, json};

use crate::render::dialect::{ELICITATION_FORMATS, elicitation_refusal, format_in};
use crate::schema::{Keyword, KeywordKind, KeywordValue, Schema, StringEnum};
use crate::validate::keywords::lit_value;

/// Why `schema` cannot be an elicitation's requested schema, or `None` when it can.
#[must_use]
pub const fn elicitation_problem(schema: &Schema) -> Option<&'static str> {
    let Schema::Object(object) = schema else {
        return Some("`elicit::<T>` needs a struct with named fields: MCP asks the user for a flat object");
    };
    if !object.flatten.is_empty() {
        return Some("`elicit::<T>` cannot take a struct with `#[serde(flatten)]` fields: MCP asks for a flat object");
    }
    let mut i = 0;
    while i < object.properties.len() {
        let property = &object.properties[i];
        if let Some(problem) = property_problem(property.schema) {
            return Some(problem);
        }
        if let Some(problem) = keywords_problem(property.keywords) {
            return Some(problem);
        }
        i += 1;
    }
    None
}

/// Why the form refuses one of `keywords`, if it does.
const fn keywords_problem(keywords: &[Keyword]) -> Option<&'static str> {
    let mut k = 0;
    while k < keywords.len() {
        if let Some(problem) = elicitation_refusal(&keywords[k]) {
            return Some(problem);
        }
        k += 1;
    }
    None
}

const fn property_problem(schema: &Schema) -> Option<&'static str> {
    // A newtype's own keywords must fit the form as a field's do.
    let mut layer = schema;
    while let Some((inner, keywords)) = layer.wrapped() {
        if let Some(problem) = keywords_problem(keywords) {
            return Some(problem);
        }
        layer = inner;
    }
    match layer {
        Schema::Boolean
        | Schema::Integer { .. }
        | Schema::Number
        | Schema::String
        | Schema::Char
        | Schema::StringEnum(_)
        | Schema::Array { items: Schema::StringEnum(_), .. }
        // Peeled above.
        | Schema::Nullable(_)
        | Schema::Constrained(_) => None,
        Schema::Parsed(form) => match form.format {
            Some(format) if !format_in(Some(KeywordValue::Str(format)), ELICITATION_FORMATS) => Some(
                "an elicitation field's `format` must be `email`, `uri`, `date` or `date-time` (what MCP allows): this type's form has another",
            ),
            _ => None,
        },
        Schema::Array { .. } => Some(
            "an elicitation field can be an array only of a unit enum (a multi-select): MCP allows strings, numbers, booleans and enums",
        ),
        Schema::Object(_) | Schema::Map { .. } | Schema::AnyOf(_) | Schema::Any | Schema::Tuple(_) => Some(
            "an elicitation field must be a string, number, integer, boolean or unit enum: MCP asks the user for a flat object of primitives",
        ),
    }
}

/// The requested schema for `schema`, which [`elicitation_problem`] accepted: properties in
/// declaration order (with `serde_json`'s `preserve_order`), `required` for the fields that
/// must be given, and no `additionalProperties` (MCP's form has none).
#[must_use]
pub fn elicitation_schema(schema: &Schema) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    if let Schema::Object(object) = schema {
        for property in object.properties {
            properties.insert(property.name.to_owned(), property_schema(property.schema, property.keywords));
            if property.required {
                required.push(Value::String(property.name.to_owned()));
            }
        }
    }
    let mut form = json!({"type": "object", "properties": properties});
    if !required.is_empty() {
        form["required"] = Value::Array(required);
    }
    // The form's own doc comment is not sent: MCP's `requestedSchema` has no `description`,
    // and the request's `message` is what the user reads.
    form
}

/// The largest integer a double holds exactly: a type's bounds beyond it say nothing useful.
const SAFE_INTEGER: i128 = 1 << 53;

fn property_schema(schema: &Schema, keywords: &[Keyword]) -> Value {
    // A newtype's own keywords apply, those of a kind the field states excepted.
    let (schema, _, keywords) = schema.peel_keywords(keywords);
    let mut out = match schema {
        Schema::Boolean => json!({"type": "boolean"}),
        Schema::Number => json!({"type": "number"}),
        Schema::Integer { minimum, maximum } => {
            let mut out = json!({"type": "integer"});
            if (-SAFE_INTEGER..=SAFE_INTEGER).contains(minimum) && (-SAFE_INTEGER..=SAFE_INTEGER).contains(maximum) {
                out["minimum"] = json!(i64::try_from(*minimum).unwrap_or_default());
                out["maximum"] = json!(i64::try_from(*maximum).unwrap_or_default());
            }
            out
        }
        Schema::String => json!({"type": "string"}),
        Schema::Char => json!({"type": "string", "minLength": 1, "maxLength": 1}),
        Schema::Parsed(form) => {
            let mut out = json!({"type": "string"});
            if let Some(format) = form.format {
                out["format"] = json!(format);
            }
            if let Some(description) = form.description {
                out["description"] = json!(description);
            }
            out
        }
        Schema::StringEnum(set) => match titled(set) {
            Some(_) if set.enum_names => {
                let names: Vec<&str> = set
                    .values
                    .iter()
                    .enumerate()
                    .map(|(i, v)| set.titles.get(i).copied().flatten().unwrap_or(v))
                    .collect();
                json!({"type": "string", "enum": set.values, "enumNames": names})
            }
            Some(options) => json!({"type": "string", "oneOf": options}),
            None => json!({"type": "string", "enum": set.values}),
        },
        Schema::Array { items: Schema::StringEnum(set), .. } => match titled(set) {
            Some(options) => json!({"type": "array", "items": {"anyOf": options}}),
            None => json!({"type": "array", "items": {"type": "string", "enum": set.values}}),
        },
        // Refused at compile time by `elicitation_problem`.
        _ => json!({}),
    };
    if let Schema::StringEnum(set) | Schema::Array { items: Schema::StringEnum(set), .. } = schema
        && let Some(description) = set.description
    {
        out["description"] = json!(description);
    }
    for keyword in keywords.iter() {
        if keyword.kind == KeywordKind::Examples {
            continue;
        }
        // Nested keywords are refused by `elicitation_refusal` before a form is built.
        if let Some(lit) = keyword.value.as_lit() {
            out[keyword.kind.json_name()] = lit_value(lit);
        }
    }
    out
}

/// `[{"const": value, "title": title}]` (SEP-1330) when any variant has a doc comment; a
/// variant without one is titled by its value.
fn titled(set: &StringEnum) -> Option<Vec<Value>> {
    set.titles.iter().any(Option::is_some).then(|| {
        set.values
            .iter()
            .enumerate()
            .map(|(i, value)| {
                let title = set.titles.get(i).copied().flatten().unwrap_or(value);
                json!({"const": value, "title": title})
            })
            .collect()
    })
}
