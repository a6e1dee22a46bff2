//! A value's check and then its keywords, as the full path runs them for each field: which
//! violations a value reports when its type's check already found some (none of its own
//! keywords for a wrong type; every bound for a number beyond its type's range; its own
//! keywords first and then its elements' for a container with bad elements). The rules are
//! those a run-time validator reading the schema follows (`validate/runtime`), so that both
//! report the same list.

use serde_json::Value;

use crate::schema::{Keyword, KeywordKind, KeywordValue, Lit, Schema};
use crate::validate::apply::{PatternCheck, apply};
use crate::validate::keywords::EnumSet;
use crate::validate::violation::{Pointer, Violation, Violations};

/// Where a value's check began in a [`Violations`]: how many were found and how many kept.
#[derive(Clone, Copy)]
pub(crate) struct Mark {
    before: usize,
    kept: usize,
}

impl Mark {
    /// Marks `out` before a value's check.
    pub(crate) fn new(out: &Violations) -> Self {
        Mark { before: out.total(), kept: out.as_slice().len() }
    }
}

/// After a value's type check (begun at `mark`), its keywords. A value of the wrong type
/// reports that alone, not its keywords too; a number beyond its Rust type's range is a
/// value of the right type that breaks a bound the schema states, so it reports every
/// keyword it breaks (where the field's own bound replaces the type's, as `maximum: 50` does
/// the 255 of a `u8`, that one), as a run-time validator reading the schema does.
pub(crate) fn then_keywords(
    mark: Mark,
    keywords: &[Keyword],
    schema: &Schema,
    patterns: Option<PatternCheck>,
    value: &Value,
    at: &mut Pointer,
    out: &mut Violations,
) {
    let Mark { before, kept } = mark;
    if out.total() == before {
        return apply(keywords, schema, patterns, value, at, out);
    }
    names_in_place_of_type(keywords, value, at, kept, out);
    let new = &out.as_slice()[kept..];
    if out.total() - before == new.len() && new.iter().all(|v| v.path.len() > at.as_str().len()) {
        // Only what is below the value is wrong: the value's own keywords (its size, say)
        // still hold or not, and are reported first, as a schema states them first. Items
        // compare for `uniqueItems` only once each is valid, as decoded values would.
        let mut own = Violations::new();
        apply(keywords, schema, patterns, value, at, &mut own);
        let below: Vec<Violation> = new.to_vec();
        out.truncate(kept);
        merge_below(keywords, value, at, &own, below, out);
        return;
    }
    let range = |v: &Violation| matches!(&*v.keyword, "minimum" | "maximum") && v.path == at.as_str();
    if out.total() - before == new.len() && new.iter().all(range) {
        // The type's bounds the keywords do not replace, then the keywords': the order the
        // schema states them in (`{"minimum": 0, "maximum": 255, "enum": [..]}`).
        let declared = |keyword: &str| declares_bound(keywords, keyword);
        let own: Vec<Violation> = new.iter().filter(|v| !declared(&v.keyword)).cloned().collect();
        let mut stated = Violations::new();
        apply(keywords, schema, patterns, value, at, &mut stated);
        out.truncate(kept);
        own.into_iter().chain(stated.iter().cloned()).for_each(|violation| out.push_violation(violation));
    }
}

/// Where a value of the wrong type stands in place of one of an `enum`'s names (the field's,
/// or its items' or values'), the names, as for a unit enum: the schema reads alike
/// (`{"type": "string", "enum": [..]}`), and the names say more than "a string" does.
fn names_in_place_of_type(keywords: &[Keyword], value: &Value, at: &Pointer, kept: usize, out: &mut Violations) {
    let listing = |keywords: &[Keyword]| {
        keywords.iter().find_map(|keyword| match (keyword.kind, keyword.value) {
            (KeywordKind::Enum, KeywordValue::List(values)) if values.iter().all(|v| matches!(v, Lit::Str(_))) => {
                Some(values)
            }
            _ => None,
        })
    };
    let elements = keywords.iter().find_map(|keyword| match (keyword.kind, keyword.value) {
        (KeywordKind::Items | KeywordKind::Values, KeywordValue::Keywords(nested)) => listing(nested),
        _ => None,
    });
    let own = listing(keywords);
    if own.is_none() && elements.is_none() {
        return;
    }
    for violation in out.kept_mut().skip(kept) {
        let Some(below) = violation.path.strip_prefix(at.as_str()) else { continue };
        let depth = below.matches('/').count();
        let values = match depth {
            0 => own,
            1 => elements,
            _ => None,
        };
        if let (Some(values), "type") = (values, &*violation.keyword) {
            let found = value.pointer(below).unwrap_or(&Value::Null);
            let mut named = Violations::new();
            EnumSet::new(values).validate(found, false, &Pointer::root(), &mut named);
            if let Some(instead) = named.as_slice().first() {
                *violation = Violation { path: violation.path.clone(), ..instead.clone() };
            }
        }
    }
}

/// The violations of a value whose elements (some of them) are wrong: its own keywords'
/// first, then per element in the value's order what is wrong with the element or what its
/// element keywords (`items(..)`, `values(..)`) say of it; an element beyond its type's
/// range is treated as a field is (`checked`). Items compare for `uniqueItems` only once each
/// is valid, as the decoded value would.
fn merge_below(
    keywords: &[Keyword],
    value: &Value,
    at: &Pointer,
    own: &Violations,
    below: Vec<Violation>,
    out: &mut Violations,
) {
    let element = |path: &str| -> usize {
        let step = path.get(at.as_str().len() + 1..).unwrap_or_default();
        let step = step.split('/').next().unwrap_or_default().replace("~1", "/").replace("~0", "~");
        match value {
            Value::Array(_) => step.parse().unwrap_or(usize::MAX),
            Value::Object(map) => map.keys().position(|key| *key == step).unwrap_or(usize::MAX),
            _ => usize::MAX,
        }
    };
    let nested = keywords.iter().find_map(|keyword| match (keyword.kind, keyword.value) {
        (KeywordKind::Items | KeywordKind::Values, KeywordValue::Keywords(nested)) => Some(nested),
        _ => None,
    });
    let declared = |keyword: &str| nested.is_some_and(|nested| declares_bound(nested, keyword));
    let out_of_range = |index: usize| {
        let wrong: Vec<&Violation> = below.iter().filter(|b| element(&b.path) == index).collect();
        !wrong.is_empty()
            && wrong
                .iter()
                .all(|b| matches!(&*b.keyword, "minimum" | "maximum") && !b.path[at.as_str().len() + 1..].contains('/'))
    };
    let (at_value, elements): (Vec<&Violation>, Vec<&Violation>) =
        own.iter().filter(|v| v.keyword != "uniqueItems").partition(|v| v.path.len() == at.as_str().len());
    let wrong = |index: usize| below.iter().any(|b| element(&b.path) == index);
    let mut rest: Vec<(usize, u8, Violation)> = Vec::new();
    for violation in &below {
        let index = element(&violation.path);
        if !(out_of_range(index) && declared(&violation.keyword)) {
            rest.push((index, 0, violation.clone()));
        }
    }
    for violation in elements {
        let index = element(&violation.path);
        if !wrong(index) || out_of_range(index) {
            rest.push((index, 1, violation.clone()));
        }
    }
    if nested.is_some() {
        // Only an array or a map has element keywords; a struct's violations keep the order
        // of its fields.
        rest.sort_by_key(|(index, order, _)| (*index, *order));
    }
    at_value.into_iter().cloned().chain(rest.into_iter().map(|(.., v)| v)).for_each(|v| out.push_violation(v));
}

/// Whether `keywords` state the bound `keyword` (`minimum` or `maximum`), replacing a type's.
fn declares_bound(keywords: &[Keyword], keyword: &str) -> bool {
    keywords.iter().any(|k| match k.kind {
        KeywordKind::Minimum => keyword == "minimum",
        KeywordKind::Maximum => keyword == "maximum",
        _ => false,
    })
}
