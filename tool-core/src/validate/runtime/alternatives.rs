//! A failed `anyOf`/`oneOf`, reported as the compile-time validator reports an enum: by the
//! variant the value names (its tag, or its one key), as serde tells a tagged enum's
//! variants apart; else the type every alternative refuses; else that none matched and the
//! violations of the closest.

use jsonschema::error::ValidationErrorKind;
use jsonschema::{JsonType, ValidationError};
use serde_json::Value;

use super::words::{Whole, expected, extend, resolved, types};
use crate::validate::keywords;
use crate::validate::violation::{Pointer, Violations, preview, wrong_type};

/// Each alternative's errors, in the order of the branches.
type Alternatives<'e> = [&'e [ValidationError<'static>]];

/// How the errors of one level become violations (`report::all`, which calls back here for
/// nested alternatives).
pub(super) type Report = fn(&[ValidationError<'_>], &Whole<'_>, &mut Violations);

/// Reports the alternatives of `keyword` at `at` (`schema` is the list of them), each with
/// the errors it gave. The alternatives are read as serde reads an enum's variants: an
/// externally tagged enum's (names, and objects of one name) by the name the value gives;
/// internally or adjacently tagged ones' (objects sharing a tag property) by the tag; any
/// other list (an untagged enum's) by trying each and keeping the closest.
pub(super) fn report(
    keyword: &'static str,
    context: &[Vec<ValidationError<'static>>],
    at: &Pointer,
    schema: Option<&Value>,
    whole: &Whole<'_>,
    all: Report,
    out: &mut Violations,
) {
    let value = whole.instance.pointer(at.as_str()).unwrap_or(&Value::Null);
    // An optional value's `null` branch is not one of the variants a value that is not null
    // missed: the others are read as if it were not there, as a `#[tool]`'s `Option<T>` is.
    let all_branches = schema.and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let is_null = |branch: &Value| branch.get("type").and_then(Value::as_str) == Some("null");
    let (branches, context): (Vec<&Value>, Vec<&[ValidationError<'static>]>) = context
        .iter()
        .enumerate()
        .map(|(index, errors)| (all_branches.get(index).map_or(&Value::Null, |b| resolved(whole.schema, b)), errors))
        .filter(|(branch, _)| value.is_null() || !is_null(branch))
        .map(|(branch, errors)| (branch, errors.as_slice()))
        .unzip();
    let context = context.as_slice();
    if let Some(names) = external_names(&branches) {
        return external(&names, &branches, context, at, whole, all, out);
    }
    if let Some(kinds) = types_taken(context, at) {
        return wrong_type(value, &expected(&kinds), at, out);
    }
    let reports: Vec<Violations> = context
        .iter()
        .map(|errors| {
            let mut report = Violations::new();
            all(errors, whole, &mut report);
            report
        })
        .collect();
    if is_tagged(&branches) {
        if let Some((path, tags, found)) = tag_of_none(context, at) {
            let mut place = Pointer::root();
            extend(&mut place, path);
            let message = format!("must be one of {}, got {}", keywords::listed(&Value::Array(tags)), preview(found));
            return out.push(&place, "enum", message);
        }
        if let Some((first, rest)) = reports.split_first() {
            // What every alternative refuses (a missing tag, say) is wrong whichever was meant.
            let common: Vec<_> =
                first.iter().filter(|v| rest.iter().all(|other| other.iter().any(|o| o == *v))).collect();
            if !common.is_empty() {
                return common.into_iter().for_each(|violation| out.push_violation(violation.clone()));
            }
        }
        if let Some(index) = meant(context, at) {
            return reports[index].iter().for_each(|violation| out.push_violation(violation.clone()));
        }
    }
    let name = |index: usize| {
        let title = branches.get(index).and_then(|branch| branch.get("title")).and_then(Value::as_str);
        title.map_or_else(|| format!("#{index}"), |title| format!("{title:?}"))
    };
    // Of another type is farthest; then the fewer violations the closer; the first of equals.
    let distance = |index: &usize| {
        let mismatched = context[*index].iter().any(|error| is_type_at(error, at));
        if mismatched { usize::MAX } else { reports[*index].total() }
    };
    let best = (0..context.len()).min_by_key(distance);
    let listed: Vec<String> = (0..context.len()).map(name).collect();
    let closest = best.map_or_else(|| "none".to_owned(), name);
    out.push(at, keyword, format!("matches none of the variants [{}]; the closest is {closest}:", listed.join(", ")));
    if let Some(index) = best {
        reports[index].iter().for_each(|violation| out.push_violation(violation.clone()));
    }
}

/// The names of an externally tagged enum's variants, in order, when every branch is one: a
/// string of listed names (unit variants), or an object of exactly one required property and
/// no other (the others, named by that property).
fn external_names(branches: &[&Value]) -> Option<Vec<String>> {
    let mut names = Vec::new();
    let mut objects = 0;
    for branch in branches {
        if let Some(listed) = unit_names(branch) {
            names.extend(listed);
        } else {
            names.push(single_key(branch)?.to_owned());
            objects += 1;
        }
    }
    (objects > 0).then_some(names)
}

/// The names a branch `{"type": "string", "enum": [..names]}` (or `"const"`) lists.
fn unit_names(branch: &Value) -> Option<Vec<String>> {
    if branch.get("type").and_then(Value::as_str) != Some("string") {
        return None;
    }
    let listed = match (branch.get("enum"), branch.get("const")) {
        (Some(Value::Array(values)), None) => values.clone(),
        (None, Some(value)) => vec![value.clone()],
        _ => return None,
    };
    listed.into_iter().map(|name| name.as_str().map(str::to_owned)).collect()
}

/// The one property of a closed object branch that requires it and has no other.
fn single_key(branch: &Value) -> Option<&str> {
    let properties = branch.get("properties")?.as_object()?;
    let (name, _) = properties.iter().next().filter(|_| properties.len() == 1)?;
    let required = branch.get("required")?.as_array()?;
    let closed = branch.get("additionalProperties") == Some(&Value::Bool(false));
    (closed && required.len() == 1 && required[0] == name.as_str()).then_some(name.as_str())
}

/// An externally tagged enum's refusal, as the derive's check words it: an unknown name, the
/// named variant's violations, or a value of neither shape.
fn external(
    names: &[String],
    branches: &[&Value],
    context: &Alternatives,
    at: &Pointer,
    whole: &Whole<'_>,
    all: Report,
    out: &mut Violations,
) {
    let listed: Vec<&str> = names.iter().map(String::as_str).collect();
    match whole.instance.pointer(at.as_str()).unwrap_or(&Value::Null) {
        Value::String(name) => crate::validate::keys::unknown_variant(name, &listed, at, out),
        Value::Object(map) if map.len() == 1 => {
            let Some(key) = map.keys().next() else { return };
            if let Some(index) = branches.iter().position(|branch| single_key(branch) == Some(key.as_str())) {
                all(context.get(index).copied().unwrap_or_default(), whole, out);
            } else {
                let mut place = at.clone();
                place.push_key(key);
                crate::validate::keys::unknown_variant(key, &listed, &place, out);
            }
        }
        other => wrong_type(other, "a variant name, or an object with one variant name as its key", at, out),
    }
}

/// Whether the branches are an internally or adjacently tagged enum's: objects that all
/// require one property whose value each fixes to names (the tag).
fn is_tagged(branches: &[&Value]) -> bool {
    let tags = |branch: &Value| -> Vec<String> {
        let required = branch.get("required").and_then(Value::as_array).cloned().unwrap_or_default();
        required
            .iter()
            .filter_map(Value::as_str)
            .filter(|name| {
                let property = branch.get("properties").and_then(|all| all.get(*name));
                property.is_some_and(|property| unit_names(property).is_some())
            })
            .map(str::to_owned)
            .collect()
    };
    let Some((first, rest)) = branches.split_first() else { return false };
    tags(first).iter().any(|tag| rest.iter().all(|branch| tags(branch).contains(tag)))
}

/// When no alternative takes a value of its type: the types they take.
fn types_taken(context: &Alternatives, at: &Pointer) -> Option<Vec<JsonType>> {
    let mut taken = Vec::new();
    for errors in context {
        let kinds = errors.iter().find_map(|error| match error.kind() {
            ValidationErrorKind::Type { kind } if is_type_at(error, at) => Some(types(kind)),
            _ => None,
        })?;
        for kind in kinds {
            if !taken.contains(&kind) {
                taken.push(kind);
            }
        }
    }
    (!taken.is_empty()).then_some(taken)
}

/// When every alternative is ruled out by its tag, at one key: that key's place, every tag,
/// and the value found there.
fn tag_of_none<'c>(context: &'c Alternatives, at: &Pointer) -> Option<(&'c str, Vec<Value>, &'c Value)> {
    let mut found: Option<(&str, Vec<Value>, &Value)> = None;
    for errors in context {
        let (path, values, value) = errors.iter().find_map(|error| {
            let path = error.instance_path().as_str();
            let below = path.strip_prefix(at.as_str())?;
            if below.matches('/').count() != 1 {
                return None;
            }
            let values = match error.kind() {
                ValidationErrorKind::Constant { expected_value } => vec![(**expected_value).clone()],
                ValidationErrorKind::Enum { options } => options.as_array()?.clone(),
                _ => return None,
            };
            Some((path, values, error.instance().as_ref()))
        })?;
        match &mut found {
            Some((seen, tags, _)) if *seen == path => {
                for value in values {
                    if !tags.contains(&value) {
                        tags.push(value);
                    }
                }
            }
            Some(_) => return None,
            None => found = Some((path, values, value)),
        }
    }
    found
}

/// The one alternative not ruled out by another tag (an internally or adjacently tagged
/// enum's).
fn meant(context: &Alternatives, at: &Pointer) -> Option<usize> {
    let other_tag = |error: &ValidationError<'static>| {
        let below = error.instance_path().as_str().strip_prefix(at.as_str());
        below.is_some_and(|rest| rest.matches('/').count() == 1)
            && matches!(error.kind(), ValidationErrorKind::Constant { .. } | ValidationErrorKind::Enum { .. })
    };
    let mut kept = context.iter().enumerate().filter(|(_, errors)| !errors.iter().any(other_tag));
    match (kept.next(), kept.next()) {
        (Some((index, _)), None) => Some(index),
        _ => None,
    }
}

fn is_type_at(error: &ValidationError<'_>, at: &Pointer) -> bool {
    matches!(error.kind(), ValidationErrorKind::Type { .. }) && error.instance_path().as_str() == at.as_str()
}
