//! Against a reference validator (the `jsonschema` crate): every emitted schema is a valid
//! draft 2020-12 schema, and for sample instances it accepts exactly what dispatch accepts.

use serde_json::{Value, json};
use tool_core::dispatch::DecodeOptions;
use tool_core::{Registry, ToolArgs};

#[test]
fn every_registered_schema_is_valid_draft_2020_12() {
    let registry = Registry::collect().expect("unique names");
    assert!(registry.len() > 5);
    for entry in registry.iter() {
        let schema: Value = serde_json::from_str(entry.def().expect("a #[tool] fn").parameters_json()).expect("JSON");
        if let Err(error) = jsonschema::draft202012::meta::validate(&schema) {
            panic!("{}: {error}\n{schema}", entry.name());
        }
        // No `$ref`, `$defs`, `$schema` or `$id` anywhere: providers reject them.
        let text = entry.def().expect("a #[tool] fn").parameters_json();
        for forbidden in ["\"$ref\"", "\"$defs\"", "\"$schema\"", "\"$id\""] {
            assert!(!text.contains(forbidden), "{}: {forbidden} in {text}", entry.name());
        }
    }
}

/// Values that probe every type and bound.
fn probes() -> Vec<Value> {
    vec![
        Value::Null,
        json!(true),
        json!(false),
        json!(0),
        json!(-1),
        json!(1),
        json!(3.0),
        json!(1.5),
        json!(255),
        json!(256),
        json!(-129),
        json!(4_294_967_296_u64),
        json!(u64::MAX),
        json!(1e20),
        json!(""),
        json!("a"),
        json!("3"),
        json!("low"),
        json!("ABC"),
        json!("a@example.com"),
        json!("x".repeat(41)),
        json!("🎉"),
        json!([]),
        json!(["a", "a"]),
        json!([1, 2, 3]),
        json!({}),
        json!({"x": 1}),
    ]
}

/// Every instance one edit away from `base`: each value replaced by each probe, each key
/// removed, an unknown key added, at every depth.
fn mutations(base: &Value) -> Vec<Value> {
    let mut out = vec![base.clone()];
    for probe in probes() {
        out.push(probe);
    }
    match base {
        Value::Object(map) => {
            let mut extra = map.clone();
            extra.insert("zzz_unknown".to_owned(), json!(1));
            out.push(Value::Object(extra));
            for (key, value) in map {
                let mut removed = map.clone();
                removed.remove(key);
                out.push(Value::Object(removed));
                for inner in mutations(value) {
                    let mut changed = map.clone();
                    changed.insert(key.clone(), inner);
                    out.push(Value::Object(changed));
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                for inner in mutations(item) {
                    let mut changed = items.clone();
                    changed[i] = inner;
                    out.push(Value::Array(changed));
                }
            }
        }
        _ => {}
    }
    out
}

/// Dispatch and the reference validator agree on every mutation of `base`; returns how many.
pub(crate) fn agree<T: ToolArgs>(base: &Value) -> usize {
    let schema: Value = serde_json::from_str(&tool_core::render::json_schema::<T>()).expect("JSON");
    jsonschema::draft202012::meta::validate(&schema).unwrap_or_else(|e| panic!("{e}\n{schema}"));
    let reference =
        jsonschema::draft202012::options().should_validate_formats(true).build(&schema).expect("valid schema");
    assert!(
        tool_core::dispatch::decode::<T>(base.clone(), &DecodeOptions::default()).is_ok(),
        "base must be valid: {base}"
    );
    let instances = mutations(base);
    for instance in &instances {
        let theirs = reference.is_valid(instance);
        // Both ways arguments arrive: as a parsed value, and as text.
        let from_value = tool_core::dispatch::decode::<T>(instance.clone(), &DecodeOptions::default());
        assert_eq!(from_value.is_ok(), theirs, "disagree on {instance}\nschema {schema}\nours: {:?}", from_value.err());
        let text = instance.to_string();
        let from_text = tool_core::dispatch::decode::<T>(text.as_str(), &DecodeOptions::default());
        assert_eq!(from_text.is_ok(), theirs, "disagree on text {text}\nschema {schema}\nours: {:?}", from_text.err());
    }
    instances.len()
}

#[test]
fn dispatch_agrees_with_the_reference_validator() {
    let cases: usize = super::differential::samples().iter().map(|sample| (sample.agree)(&sample.base)).sum();
    assert!(cases > 2500, "only {cases} cases");
}
