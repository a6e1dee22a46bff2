//! A failed `anyOf`/`oneOf`, reported as the compile-time validator reports an enum: what
//! every alternative refuses, else the violations of the alternative the value meant (told
//! apart by its tag or its shape, as serde tells a tagged enum's variants apart), else that
//! none matched and the violations of the closest.

use jsonschema::error::ValidationErrorKind;
use jsonschema::{JsonType, ValidationError};
use serde_json::Value;

use super::words::{expected, extend, types};
use crate::validate::keywords;
use crate::validate::violation::{Pointer, Violations, preview, wrong_type};

type Alternatives = [Vec<ValidationError<'static>>];

/// How the errors of one level become violations (`report::all`, which calls back here for
/// nested alternatives).
pub(super) type Report = fn(&[ValidationError<'_>], &Value, &mut Violations);

/// Reports the alternatives of `keyword` at `at` (`schema` is the list of them), each with
/// the errors it gave.
pub(super) fn report(
    keyword: &'static str,
    context: &Alternatives,
    at: &Pointer,
    schema: Option<&Value>,
    root: &Value,
    all: Report,
    out: &mut Violations,
) {
    if let Some(kinds) = types_taken(context, at) {
        let value = context.iter().flatten().next().map(|error| error.instance().as_ref());
        return wrong_type(value.unwrap_or(&Value::Null), &expected(&kinds), at, out);
    }
    let reports: Vec<Violations> = context
        .iter()
        .map(|errors| {
            let mut report = Violations::new();
            all(errors, root, &mut report);
            report
        })
        .collect();
    if let Some((path, tags, value)) = tag_of_none(context, at) {
        let mut place = Pointer::root();
        extend(&mut place, path);
        let message = format!("must be one of {}, got {}", keywords::listed(&Value::Array(tags)), preview(value));
        return out.push(&place, "enum", message);
    }
    if let Some((first, rest)) = reports.split_first() {
        // What every alternative refuses (a missing tag, say) is wrong whichever was meant.
        let common: Vec<_> = first.iter().filter(|v| rest.iter().all(|other| other.iter().any(|o| o == *v))).collect();
        if !common.is_empty() {
            return common.into_iter().for_each(|violation| out.push_violation(violation.clone()));
        }
    }
    if let Some(index) = meant(context, at) {
        return reports[index].iter().for_each(|violation| out.push_violation(violation.clone()));
    }
    let name = |index: usize| {
        let branch = schema.and_then(Value::as_array).and_then(|all| all.get(index));
        let title = branch.and_then(|branch| branch.get("title")).and_then(Value::as_str);
        title.map_or_else(|| format!("#{index}"), |title| format!("{title:?}"))
    };
    // Of another type is farthest; then the fewer violations the closer.
    let distance = |index: &usize| {
        let mismatched = context[*index].iter().any(|error| is_type_at(error, at));
        if mismatched { usize::MAX } else { reports[*index].total() }
    };
    let best = (0..context.len()).min_by_key(distance);
    let listed: Vec<String> = (0..context.len()).map(name).collect();
    let closest = best.map_or_else(|| "none".to_owned(), name);
    out.push(at, keyword, format!("matches none of the schemas [{}]; the closest is {closest}:", listed.join(", ")));
    if let Some(index) = best {
        reports[index].iter().for_each(|violation| out.push_violation(violation.clone()));
    }
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
/// enum's), else by another type or keys it does not have (an externally tagged one's).
fn meant(context: &Alternatives, at: &Pointer) -> Option<usize> {
    let other_tag = |error: &ValidationError<'static>| {
        let below = error.instance_path().as_str().strip_prefix(at.as_str());
        below.is_some_and(|rest| rest.matches('/').count() == 1)
            && matches!(error.kind(), ValidationErrorKind::Constant { .. } | ValidationErrorKind::Enum { .. })
    };
    let other_shape = |error: &ValidationError<'static>| {
        is_type_at(error, at)
            || (error.instance_path().as_str() == at.as_str()
                && matches!(error.kind(), ValidationErrorKind::AdditionalProperties { .. }))
    };
    for ruled_out in [&other_tag as &dyn Fn(&ValidationError<'static>) -> bool, &other_shape] {
        let mut kept = context.iter().enumerate().filter(|(_, errors)| !errors.iter().any(ruled_out));
        if let (Some((index, _)), None) = (kept.next(), kept.next()) {
            return Some(index);
        }
    }
    None
}

fn is_type_at(error: &ValidationError<'_>, at: &Pointer) -> bool {
    matches!(error.kind(), ValidationErrorKind::Type { .. }) && error.instance_path().as_str() == at.as_str()
}
