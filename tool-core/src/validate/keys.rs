//! Checks of object keys and enum variant names: a missing or unknown property, a variant name or tag,
//! and the choice among untagged variants.

use serde_json::{Map, Value};

use crate::validate::violation::{Pointer, Violation, Violations, preview, wrong_type};

/// Records that the required property `name` is absent from the object at `at`.
pub fn missing(name: &str, at: &Pointer, out: &mut Violations) {
    let message = format!("missing required property {}", Value::from(name));
    out.push_violation(Violation::new(at.as_str(), "required", message).about(name));
}

/// Records every key of `map` that `accepts` refuses.
pub fn reject_unknown(
    map: &Map<String, Value>,
    accepts: &dyn Fn(&str) -> bool,
    names: &[&str],
    at: &mut Pointer,
    out: &mut Violations,
) {
    let mut listed = None;
    for key in map.keys().filter(|key| !accepts(key)) {
        // Listed once, and only when a key is refused: the valid path builds nothing.
        let listed = listed.get_or_insert_with(|| {
            if names.is_empty() {
                "this tool takes no arguments".to_owned()
            } else {
                format!("the properties are {}", quoted(names))
            }
        });
        let mark = at.push_key(key);
        let message = format!("unknown property {}; {listed}", Value::from(key.as_str()));
        out.push_violation(Violation::new(at.as_str(), "additionalProperties", message).about(key.as_str()));
        at.truncate(mark);
    }
}

/// A unit-only enum: the value must be one of `accepted` (`listed` is what the schema shows).
pub fn validate_unit_variant(value: &Value, accepted: &[&str], listed: &[&str], at: &Pointer, out: &mut Violations) {
    match value {
        Value::String(name) if accepted.contains(&name.as_str()) => {}
        other => out.push(at, "enum", format!("must be one of {}, got {}", json_list(listed), preview(other))),
    }
}

/// A variant name that is not one of the enum's.
pub fn unknown_variant(found: &str, listed: &[&str], at: &Pointer, out: &mut Violations) {
    out.push(at, "anyOf", format!("unknown variant {}; expected one of {}", Value::from(found), json_list(listed)));
}

/// A tag property that is missing, not a string, or names no variant.
pub fn bad_tag(found: Option<&Value>, tag: &str, listed: &[&str], at: &mut Pointer, out: &mut Violations) {
    match found {
        None => missing(tag, at, out),
        Some(value) => {
            let mark = at.push_key(tag);
            out.push(at, "enum", format!("must be one of {}, got {}", json_list(listed), preview(value)));
            at.truncate(mark);
        }
    }
}

/// Content that must be absent or `null` (a unit variant).
pub fn expect_null(value: &Value, at: &Pointer, out: &mut Violations) {
    if !value.is_null() {
        wrong_type(value, "null", at, out);
    }
}

/// Keeps the violations of the untagged variant that came closest to matching.
#[derive(Debug, Default)]
pub struct Closest {
    best: Option<(&'static str, Violations)>,
    tried: Vec<&'static str>,
    /// What each variant tried expected, while every one refused the value's very type.
    types: Option<Vec<String>>,
}

impl Closest {
    /// A variant's violations; kept if they are fewer than the best so far. A variant whose
    /// very type differs from the value's is the farthest of all.
    pub fn offer(&mut self, variant: &'static str, violations: Violations, at: &Pointer) {
        let mismatch = violations.iter().find(|violation| violation.keyword == "type" && violation.path == at.as_str());
        // `wrong_type`'s words: "expected {what}, got {found}".
        let expected = mismatch
            .and_then(|violation| violation.message.strip_prefix("expected "))
            .and_then(|rest| rest.find(", got ").map(|end| rest[..end].to_owned()));
        let first = self.tried.is_empty();
        self.tried.push(variant);
        match (expected, &mut self.types) {
            (Some(expected), Some(types)) if !types.contains(&expected) => types.push(expected),
            (Some(expected), None) if first => self.types = Some(vec![expected]),
            (Some(_), _) => {}
            (None, _) => self.types = None,
        }
        let distance = |v: &Violations| {
            if v.iter().any(|violation| violation.keyword == "type" && violation.path == at.as_str()) {
                usize::MAX
            } else {
                v.total()
            }
        };
        if self.best.as_ref().is_none_or(|(_, best)| distance(&violations) < distance(best)) {
            self.best = Some((variant, violations));
        }
    }

    /// Reports that no variant matched, then the closest one's violations; or, when every
    /// variant refuses the value's type, the types they take (as a run-time `anyOf` says).
    pub fn report(self, value: &Value, at: &Pointer, out: &mut Violations) {
        if let Some(types) = self.types.filter(|types| !types.is_empty()) {
            return wrong_type(value, &types.join(" or "), at, out);
        }
        let closest = self.best.as_ref().map_or("none", |(name, _)| name);
        out.push(
            at,
            "anyOf",
            format!("matches none of the variants {}; the closest is {closest:?}:", json_list(&self.tried)),
        );
        if let Some((_, violations)) = self.best {
            for violation in violations.as_slice() {
                out.push_violation(violation.clone());
            }
        }
    }
}

/// `"a", "b"`: names quoted as JSON strings.
fn quoted(names: &[&str]) -> String {
    names.iter().map(|name| Value::from(*name).to_string()).collect::<Vec<_>>().join(", ")
}

fn json_list(names: &[&str]) -> String {
    format!("[{}]", quoted(names))
}
