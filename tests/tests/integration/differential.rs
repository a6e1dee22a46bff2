//! Differential test: for generated instances, valid and invalid, dispatch (lenient decoding
//! off) accepts exactly what the `jsonschema` crate, a reference draft 2020-12 validator,
//! accepts under the tool's emitted schema; both as parsed values and as text.
//!
//! Instances are built from each type's own property names, with values drawn towards the
//! edges: bounds and one past them, every JSON type, `3.0` for integers, numbers as
//! strings, numbers beyond every Rust type, long and astral-plane strings, nulls, missing
//! and extra keys, nesting.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use serde_json::{Map, Value, json};
use tool_core::ToolArgs;
use tool_core::dispatch::DecodeOptions;

use super::dispatch::TripArgs;
use super::enums::{HasAdjacent, HasExternal, HasInternal, HasUntagged, WithUnit};
use super::rich::Rich;
use super::schema::{Keywords, Types};
use super::serde_attrs::{AllDefault, Search};

/// Every property name in a schema, at any depth, plus one no schema has.
pub(crate) fn property_names(schema: &Value, out: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            if let Some(Value::Object(properties)) = map.get("properties") {
                out.extend(properties.keys().cloned());
            }
            map.values().for_each(|v| property_names(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| property_names(v, out)),
        _ => {}
    }
}

/// Strings the schemas' `enum`s and tags use, so that generated values often hit them.
pub(crate) fn enum_strings(schema: &Value, out: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            if let Some(Value::Array(values)) = map.get("enum") {
                out.extend(values.iter().filter_map(|v| v.as_str().map(str::to_owned)));
            }
            map.values().for_each(|v| enum_strings(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| enum_strings(v, out)),
        _ => {}
    }
}

fn leaf(words: Vec<String>) -> BoxedStrategy<Value> {
    let numbers = prop_oneof![
        Just(json!(0)),
        Just(json!(1)),
        Just(json!(-1)),
        Just(json!(3.0)),
        Just(json!(0.5)),
        Just(json!(1.5)),
        Just(json!(9)),
        Just(json!(10)),
        Just(json!(14)),
        Just(json!(15)),
        Just(json!(127)),
        Just(json!(128)),
        Just(json!(255)),
        Just(json!(256)),
        Just(json!(-32769)),
        Just(json!(4_294_967_296_u64)),
        Just(json!(i64::MIN)),
        Just(json!(u64::MAX)),
        Just(json!(1e20)),
        Just(json!(-1e300)),
        (-300_i64..300).prop_map(Value::from),
        any::<f64>().prop_filter("finite", |x| x.is_finite()).prop_map(Value::from),
    ];
    let strings = prop_oneof![
        Just(json!("")),
        Just(json!("a")),
        Just(json!("3")),
        Just(json!("2.5")),
        Just(json!("true")),
        Just(json!("ABC")),
        Just(json!("abc")),
        Just(json!("a@example.com")),
        Just(json!("🎉")),
        Just(json!("🎉🎉")),
        Just(Value::String("é".repeat(20))),
        Just(Value::String("x".repeat(41))),
        "[a-z]{0,6}".prop_map(Value::from),
        "\\PC{0,8}".prop_map(Value::from),
        proptest::sample::select(words).prop_map(Value::from),
    ];
    prop_oneof![
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::from),
        4 => numbers,
        4 => strings,
    ]
    .boxed()
}

fn instance(names: Vec<String>, words: Vec<String>) -> BoxedStrategy<Value> {
    let leaf = leaf(words);
    let names = proptest::sample::select(names);
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((names.clone(), inner), 0..7)
                .prop_map(|entries| Value::Object(entries.into_iter().collect::<Map<String, Value>>())),
        ]
    })
    .boxed()
}

/// One edit of an instance: which place (an index into its places), and what to do there.
#[derive(Debug, Clone)]
enum Edit {
    Replace(usize, Value),
    Remove(usize),
    Insert(usize, String, Value),
}

/// Every place in `value`, as a path of keys and indices.
fn places(value: &Value, path: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    out.push(path.clone());
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                path.push(Value::from(key.as_str()));
                places(inner, path, out);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (i, inner) in items.iter().enumerate() {
                path.push(Value::from(i));
                places(inner, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn at<'v>(value: &'v mut Value, path: &[Value]) -> &'v mut Value {
    path.iter().fold(value, |v, step| match step {
        Value::String(key) => &mut v[key.as_str()],
        step => &mut v[usize::try_from(step.as_u64().unwrap_or(0)).unwrap_or(0)],
    })
}

fn apply(mut value: Value, edits: &[Edit]) -> Value {
    for edit in edits {
        let mut all = Vec::new();
        places(&value, &mut Vec::new(), &mut all);
        let pick = |i: &usize| all[i % all.len()].clone();
        match edit {
            Edit::Replace(i, new) => *at(&mut value, &pick(i)) = new.clone(),
            Edit::Remove(i) => {
                let mut path = pick(i);
                if let Some(last) = path.pop() {
                    match (at(&mut value, &path), last) {
                        (Value::Object(map), Value::String(key)) => {
                            map.remove(&key);
                        }
                        (Value::Array(items), Value::Number(n)) => {
                            let index = usize::try_from(n.as_u64().unwrap_or(0)).unwrap_or(0);
                            if index < items.len() {
                                items.remove(index);
                            }
                        }
                        _ => {}
                    }
                }
            }
            Edit::Insert(i, key, new) => {
                if let Value::Object(map) = at(&mut value, &pick(i)) {
                    map.insert(key.clone(), new.clone());
                }
            }
        }
    }
    value
}

/// A valid `base` with 0 to 3 edits, or (one time in four) an instance built from scratch.
pub(crate) fn near(base: Value, names: Vec<String>, words: Vec<String>) -> BoxedStrategy<Value> {
    let replacement = instance(names.clone(), words);
    let edit = prop_oneof![
        3 => (any::<usize>(), replacement.clone()).prop_map(|(i, v)| Edit::Replace(i, v)),
        1 => any::<usize>().prop_map(Edit::Remove),
        1 => (any::<usize>(), proptest::sample::select(names), replacement.clone())
            .prop_map(|(i, k, v)| Edit::Insert(i, k, v)),
    ];
    prop_oneof![
        3 => prop::collection::vec(edit, 0..4).prop_map(move |edits| apply(base.clone(), &edits)),
        1 => replacement,
    ]
    .boxed()
}

/// Runs `cases` generated instances of `T` near `base`; returns how many were valid.
fn differential<T: ToolArgs>(cases: u32, base: &Value) -> u32 {
    let schema: Value = serde_json::from_str(&tool_core::render::json_schema::<T>()).expect("JSON");
    let reference =
        jsonschema::draft202012::options().should_validate_formats(true).build(&schema).expect("valid schema");
    let mut names = vec!["zzz_unknown".to_owned()];
    property_names(&schema, &mut names);
    let mut words = vec!["x".to_owned()];
    enum_strings(&schema, &mut words);
    // A fixed seed, so that a run is the same on every machine and a failure is reproduced by
    // rerunning; PROPTEST_RNG_SEED=<n> explores other inputs.
    let defaults = Config::default();
    let rng_seed = match std::env::var("PROPTEST_RNG_SEED") {
        Ok(_) => defaults.rng_seed,
        Err(_) => RngSeed::Fixed(0x7001_c0de),
    };
    let mut runner = TestRunner::new(Config { cases, failure_persistence: None, rng_seed, ..defaults });
    let valid = std::cell::Cell::new(0_u32);
    runner
        .run(&near(base.clone(), names, words), |value| {
            let theirs = reference.is_valid(&value);
            let from_value = tool_core::dispatch::decode::<T>(value.clone(), &DecodeOptions::default()).is_ok();
            let from_text =
                tool_core::dispatch::decode::<T>(value.to_string().as_str(), &DecodeOptions::default()).is_ok();
            prop_assert_eq!(from_value, theirs, "value {}", value);
            prop_assert_eq!(from_text, theirs, "text {}", value);
            valid.set(valid.get() + u32::from(theirs));
            Ok(())
        })
        .unwrap_or_else(|failure| panic!("{}: {failure}", std::any::type_name::<T>()));
    valid.get()
}

/// A valid instance of each representative type, and the checks to run against it.
pub(crate) struct Sample {
    pub(crate) name: &'static str,
    pub(crate) base: Value,
    pub(crate) differential: fn(u32, &Value) -> u32,
    pub(crate) agree: fn(&Value) -> usize,
    pub(crate) runtime: fn(u32, &Value) -> super::runtime_schema::Agreement,
}

macro_rules! sample {
    ($ty:ty, $base:expr) => {
        Sample {
            name: stringify!($ty),
            base: $base,
            differential: differential::<$ty>,
            agree: super::reference::agree::<$ty>,
            runtime: super::runtime_schema::agreement::<$ty>,
        }
    };
}

pub(crate) fn samples() -> Vec<Sample> {
    vec![
        sample!(
            TripArgs,
            json!({
                "name": "Tour", "stops": [{"city": "Paris", "nights": 2}], "units": "celsius",
                "currency": "EUR", "budget": 10.5, "insured": true
            })
        ),
        sample!(
            Keywords,
            json!({
                "documented": "d", "described": "d", "bounded": 0, "ratio": 0.5, "slug": "abc",
                "email": "a@example.com", "level": "low", "tags": ["a"], "retries": 3, "choice": 2
            })
        ),
        sample!(
            Types,
            json!({
                "string": "s", "boxed_str": "s", "cow": "s", "character": "c", "u8": 1, "i8": -1, "u16": 1, "i16": -1,
                "u32": 1, "i32": -1, "u64": 1, "i64": -1, "usize": 1, "f32": 1.5, "f64": 1.5, "flag": true,
                "optional": null, "list": ["a"], "deque": [true], "fixed": [1, 2, 3], "hash_set": ["a", "b"],
                "tree_set": [1, 2], "hash_map": {"k": 1.5}, "tree_map": {"k": [1]}, "boxed": 1, "shared": "s",
                "counted": false, "any": {"free": [1]}, "nested": {"x": 1}, "maybe_nested": {"x": 2}
            })
        ),
        sample!(HasExternal, json!({"shape": {"circle": {"radius": 1.0}}})),
        sample!(HasInternal, json!({"action": {"kind": "move", "steps": 3}})),
        sample!(HasAdjacent, json!({"command": {"t": "Turn", "c": {"degrees": 90}}})),
        sample!(HasUntagged, json!({"value": {"x": 1, "y": 2}})),
        sample!(WithUnit, json!({"unit": "F"})),
        sample!(Search, json!({"query": "q", "page": 2, "per_page": 10})),
        sample!(AllDefault, json!({"verbose": true, "level": 1})),
        sample!(
            Rich,
            json!({
                "tags": ["a", "bc"], "scores": {"ann": 3}, "switches": ["on"], "pair": [1, "x"],
                "two": [true, false], "when": "2024-02-29T12:00:00Z", "host": "10.0.0.1", "small": -3,
                "count": 7, "wide": 9, "signed": -9, "level": 2, "inner": {"label": "ab", "ids": [1, 2]},
                "either": {"x": 1, "y": 2}, "shape": {"circle": {"radius": 1.0}},
                "action": {"kind": "move", "steps": 3}, "page": 1
            })
        ),
    ]
}

#[test]
fn dispatch_accepts_exactly_what_the_reference_validator_accepts() {
    // DIFFERENTIAL_CASES raises the count beyond CI's (README: "more cases").
    let cases = std::env::var("DIFFERENTIAL_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(1_000);
    let mut valid = Vec::new();
    for sample in samples() {
        valid.push((sample.name, (sample.differential)(cases, &sample.base)));
    }
    // 10 types × 1,000 instances, each checked as a value and as text; a good share must
    // be valid, or the comparison would mostly exercise rejection.
    for (name, count) in &valid {
        assert!(*count >= 100, "only {count} valid instances of {name}: {valid:?}");
    }
}
