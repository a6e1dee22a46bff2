//! The official JSON-Schema-Test-Suite (draft 2020-12), run through generated validators.
//!
//! Each group whose schema the macros can express gets a struct that states it: a field
//! `value` carrying the group's keywords (wrapped as `{"value": data}`), or, for object
//! keywords, the struct itself. The test first checks that the emitted schema really states
//! the group's keywords, then that every test whose data has the field's JSON type is
//! accepted or rejected exactly as the file says.
//!
//! Not expressed, by design: `null`-typed and multi-type schemas, heterogeneous or empty
//! `enum`s, decimal lengths (`minLength: 2.0`), `prefixItems`, open objects
//! (`additionalProperties` allowed: our objects are closed, so a test with properties the
//! group does not name is skipped), `default`s that break their own constraints (a compile
//! error here), `const`, and `anyOf`/`oneOf` over open objects.

use std::collections::HashMap;
use std::path::PathBuf;

use serde_json::Value;
use tool_core::dispatch::DecodeOptions;
use tool_core::{ToolArgs, ToolError};

/// The JSON type a field holds, to pick the tests that apply to it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    /// Every test applies (the group is about the type itself, or the struct is the root).
    Any,
    Number,
    Integer,
    String,
    Boolean,
    Array,
    Object,
}

impl Kind {
    fn admits(self, data: &Value) -> bool {
        match self {
            Kind::Any => true,
            Kind::Number => data.is_number(),
            Kind::Integer => data.as_f64().is_some_and(|x| x.fract() == 0.0),
            Kind::String => data.is_string(),
            Kind::Boolean => data.is_boolean(),
            Kind::Array => data.is_array(),
            Kind::Object => data.is_object(),
        }
    }
}

fn suite_file(name: &str) -> Vec<Value> {
    let path: PathBuf =
        [env!("CARGO_MANIFEST_DIR"), "vendor", "json-schema-test-suite", "draft2020-12", name].iter().collect();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("suite files are JSON")
}

/// Whether every member of `expected` (bar `$schema`) is in `actual`, recursively for
/// `properties`: the emitted schema states what the group's schema states.
fn states(actual: &Value, expected: &Value) -> bool {
    let (Some(actual), Some(expected)) = (actual.as_object(), expected.as_object()) else {
        return actual == expected;
    };
    expected.iter().filter(|(key, _)| *key != "$schema").all(|(key, want)| {
        if key == "required" && want.as_array().is_some_and(Vec::is_empty) {
            return actual.get(key).is_none(); // an empty `required` is left out
        }
        actual.get(key).is_some_and(|have| {
            if key == "properties" {
                want.as_object()
                    .expect("properties is an object")
                    .iter()
                    .all(|(name, schema)| have.get(name).is_some_and(|s| states(s, schema)))
            } else if key == "items" && want == &Value::Bool(true) {
                have.as_object().is_some_and(serde_json::Map::is_empty) // the schema `true` is `{}`
            } else if key == "required" {
                let mut have: Vec<&Value> = have.as_array().into_iter().flatten().collect();
                let mut want: Vec<&Value> = want.as_array().into_iter().flatten().collect();
                have.sort_by_key(ToString::to_string);
                want.sort_by_key(ToString::to_string);
                have == want
            } else {
                states(have, want) || numbers_equal(have, want)
            }
        })
    })
}

#[allow(clippy::float_cmp)] // the suite writes `3.0` where we write `3`: the same number
fn numbers_equal(a: &Value, b: &Value) -> bool {
    matches!((a.as_f64(), b.as_f64()), (Some(x), Some(y)) if x == y)
}

/// Runs one group against `T`; returns how many tests ran.
fn run<T: ToolArgs + std::fmt::Debug>(file: &str, group: &str, kind: Kind, wrapped: bool) -> usize {
    let groups = suite_file(file);
    let found =
        groups.iter().find(|g| g["description"] == group).unwrap_or_else(|| panic!("{file}: no group {group:?}"));
    let emitted: Value = serde_json::from_str(&tool_core::render::json_schema::<T>()).expect("emitted schema is JSON");
    let emitted_field = if wrapped { &emitted["properties"]["value"] } else { &emitted };
    assert!(
        states(emitted_field, &found["schema"]),
        "{file} / {group}: emitted {emitted_field} does not state {}",
        found["schema"]
    );
    let named: Option<Vec<&String>> = found["schema"]["properties"].as_object().map(|p| p.keys().collect());
    let mut ran = 0;
    for test in found["tests"].as_array().expect("tests is an array") {
        let data = &test["data"];
        if !kind.admits(data) {
            continue;
        }
        if let (false, Some(named), Some(object)) = (wrapped, &named, data.as_object())
            && object.keys().any(|key| !named.contains(&key))
        {
            continue; // an open-object test; our objects are closed
        }
        let arguments = if wrapped { serde_json::json!({ "value": data }) } else { data.clone() };
        let result = tool_core::dispatch::decode::<T>(arguments, &DecodeOptions::default());
        let expected = test["valid"].as_bool().expect("valid is a bool");
        match (&result, expected) {
            (Ok(_), true) | (Err(ToolError::InvalidArguments { .. }), false) => {}
            _ => panic!(
                "{file} / {group} / {}: data {data} expected valid={expected}, got {result:?}",
                test["description"]
            ),
        }
        ran += 1;
    }
    assert!(ran > 0, "{file} / {group}: no test applied");
    ran
}

macro_rules! wrapped {
    ($name:ident: $ty:ty $(, #[param($($param:tt)*)])?) => {
        #[derive(Debug, ToolArgs)]
        #[allow(dead_code)]
        struct $name {
            $(#[param($($param)*)])?
            value: $ty,
        }
    };
}

wrapped!(TypeInteger: i64);
wrapped!(TypeNumber: f64);
wrapped!(TypeString: String);
wrapped!(TypeObject: HashMap<String, Value>);
wrapped!(TypeArray: Vec<Value>);
wrapped!(TypeBoolean: bool);
wrapped!(Minimum: f64, #[param(minimum = 1.1)]);
wrapped!(MinimumSigned: f64, #[param(minimum = -2)]);
wrapped!(Maximum: f64, #[param(maximum = 3.0)]);
wrapped!(MaximumUnsigned: f64, #[param(maximum = 300)]);
wrapped!(ExclusiveMinimum: f64, #[param(exclusive_minimum = 1.1)]);
wrapped!(ExclusiveMaximum: f64, #[param(exclusive_maximum = 3.0)]);
wrapped!(MultipleOfInt: f64, #[param(multiple_of = 2)]);
wrapped!(MultipleOfNumber: f64, #[param(multiple_of = 1.5)]);
wrapped!(MultipleOfSmall: f64, #[param(multiple_of = 0.0001)]);
wrapped!(MultipleOfOverflow: i64, #[param(multiple_of = 0.123456789)]);
wrapped!(MultipleOfTiny: i64, #[param(multiple_of = 1e-8)]);
wrapped!(MinLength: String, #[param(min_length = 2)]);
wrapped!(MaxLength: String, #[param(max_length = 2)]);
wrapped!(Pattern: String, #[param(pattern = "^a*$")]);
wrapped!(PatternUnanchored: String, #[param(pattern = "a+")]);
wrapped!(PatternLetter: String, #[param(pattern = r"^\p{Letter}+$")]);
wrapped!(EnumSimple: f64, #[param(enum = [1, 2, 3])]);
wrapped!(EnumEscaped: String, #[param(enum = ["foo\nbar", "foo\rbar"])]);
wrapped!(EnumFalse: bool, #[param(enum = [false])]);
wrapped!(EnumTrue: bool, #[param(enum = [true])]);
wrapped!(EnumZero: f64, #[param(enum = [0])]);
wrapped!(EnumOne: f64, #[param(enum = [1])]);
wrapped!(EnumArrayFalse: Vec<bool>, #[param(enum = [[false]])]);
wrapped!(EnumArrayTrue: Vec<bool>, #[param(enum = [[true]])]);
wrapped!(EnumArrayZero: Vec<f64>, #[param(enum = [[0]])]);
wrapped!(EnumArrayOne: Vec<f64>, #[param(enum = [[1]])]);
wrapped!(EnumNul: String, #[param(enum = ["hello\0there"])]);
wrapped!(MinItems: Vec<Value>, #[param(min_items = 1)]);
wrapped!(MaxItems: Vec<Value>, #[param(max_items = 2)]);
wrapped!(UniqueItems: Vec<Value>, #[param(unique_items)]);
wrapped!(NotUniqueItems: Vec<Value>, #[param(unique_items = false)]);
wrapped!(ItemsInteger: Vec<i64>);
wrapped!(ItemsTrue: Vec<Value>);
wrapped!(ItemsNested: Vec<Vec<Vec<Vec<f64>>>>);
wrapped!(AdditionalBoolean: HashMap<String, bool>);

#[derive(Debug, ToolArgs)]
#[allow(dead_code)]
struct Required {
    foo: Value,
    bar: Option<Value>,
}

#[derive(Debug, ToolArgs)]
#[allow(dead_code)]
struct RequiredNone {
    foo: Option<Value>,
}

#[derive(Debug, ToolArgs)]
#[allow(dead_code)]
struct RequiredEscaped {
    #[serde(rename = "foo\nbar")]
    a: Value,
    #[serde(rename = "foo\"bar")]
    b: Value,
    #[serde(rename = "foo\\bar")]
    c: Value,
    #[serde(rename = "foo\rbar")]
    d: Value,
    #[serde(rename = "foo\tbar")]
    e: Value,
    #[serde(rename = "foo\x0cbar")]
    f: Value,
}

#[derive(Debug, ToolArgs)]
#[allow(dead_code)]
struct RequiredProto {
    __proto__: Value,
    #[serde(rename = "toString")]
    to_string: Value,
    constructor: Value,
}

#[derive(Debug, Default, ToolArgs)]
#[allow(dead_code)]
#[serde(default)]
struct Properties {
    foo: i64,
    bar: String,
}

#[derive(Debug, Default, ToolArgs)]
#[allow(dead_code)]
#[serde(default)]
struct PropertiesEscaped {
    #[serde(rename = "foo\nbar")]
    a: f64,
    #[serde(rename = "foo\"bar")]
    b: f64,
    #[serde(rename = "foo\\bar")]
    c: f64,
    #[serde(rename = "foo\rbar")]
    d: f64,
    #[serde(rename = "foo\tbar")]
    e: f64,
    #[serde(rename = "foo\x0cbar")]
    f: f64,
}

#[test]
fn json_schema_test_suite() {
    let mut ran = 0;
    ran += run::<TypeInteger>("type.json", "integer type matches integers", Kind::Any, true);
    ran += run::<TypeNumber>("type.json", "number type matches numbers", Kind::Any, true);
    ran += run::<TypeString>("type.json", "string type matches strings", Kind::Any, true);
    ran += run::<TypeObject>("type.json", "object type matches objects", Kind::Any, true);
    ran += run::<TypeArray>("type.json", "array type matches arrays", Kind::Any, true);
    ran += run::<TypeBoolean>("type.json", "boolean type matches booleans", Kind::Any, true);
    ran += run::<Minimum>("minimum.json", "minimum validation", Kind::Number, true);
    ran += run::<MinimumSigned>("minimum.json", "minimum validation with signed integer", Kind::Number, true);
    ran += run::<Maximum>("maximum.json", "maximum validation", Kind::Number, true);
    ran += run::<MaximumUnsigned>("maximum.json", "maximum validation with unsigned integer", Kind::Number, true);
    ran += run::<ExclusiveMinimum>("exclusiveMinimum.json", "exclusiveMinimum validation", Kind::Number, true);
    ran += run::<ExclusiveMaximum>("exclusiveMaximum.json", "exclusiveMaximum validation", Kind::Number, true);
    ran += run::<MultipleOfInt>("multipleOf.json", "by int", Kind::Number, true);
    ran += run::<MultipleOfNumber>("multipleOf.json", "by number", Kind::Number, true);
    ran += run::<MultipleOfSmall>("multipleOf.json", "by small number", Kind::Number, true);
    ran += run::<MultipleOfOverflow>("multipleOf.json", "float division = inf", Kind::Integer, true);
    ran += run::<MultipleOfTiny>("multipleOf.json", "small multiple of large integer", Kind::Integer, true);
    ran += run::<MinLength>("minLength.json", "minLength validation", Kind::String, true);
    ran += run::<MaxLength>("maxLength.json", "maxLength validation", Kind::String, true);
    ran += run::<Pattern>("pattern.json", "pattern validation", Kind::String, true);
    ran += run::<PatternUnanchored>("pattern.json", "pattern is not anchored", Kind::String, true);
    ran += run::<PatternLetter>(
        "pattern.json",
        "pattern with Unicode property escape requires unicode mode",
        Kind::String,
        true,
    );
    ran += run::<EnumSimple>("enum.json", "simple enum validation", Kind::Number, true);
    ran += run::<EnumEscaped>("enum.json", "enum with escaped characters", Kind::String, true);
    ran += run::<EnumFalse>("enum.json", "enum with false does not match 0", Kind::Boolean, true);
    ran += run::<EnumTrue>("enum.json", "enum with true does not match 1", Kind::Boolean, true);
    ran += run::<EnumZero>("enum.json", "enum with 0 does not match false", Kind::Number, true);
    ran += run::<EnumOne>("enum.json", "enum with 1 does not match true", Kind::Number, true);
    ran += run::<EnumArrayFalse>("enum.json", "enum with [false] does not match [0]", Kind::Array, true);
    ran += run::<EnumArrayTrue>("enum.json", "enum with [true] does not match [1]", Kind::Array, true);
    ran += run::<EnumArrayZero>("enum.json", "enum with [0] does not match [false]", Kind::Array, true);
    ran += run::<EnumArrayOne>("enum.json", "enum with [1] does not match [true]", Kind::Array, true);
    ran += run::<EnumNul>("enum.json", "nul characters in strings", Kind::String, true);
    ran += run::<MinItems>("minItems.json", "minItems validation", Kind::Array, true);
    ran += run::<MaxItems>("maxItems.json", "maxItems validation", Kind::Array, true);
    ran += run::<UniqueItems>("uniqueItems.json", "uniqueItems validation", Kind::Array, true);
    ran += run::<NotUniqueItems>("uniqueItems.json", "uniqueItems=false validation", Kind::Array, true);
    ran += run::<ItemsInteger>("items.json", "a schema given for items", Kind::Array, true);
    ran += run::<ItemsTrue>("items.json", "items with boolean schema (true)", Kind::Array, true);
    ran += run::<ItemsNested>("items.json", "nested items", Kind::Array, true);
    ran += run::<AdditionalBoolean>(
        "additionalProperties.json",
        "additionalProperties can exist by itself",
        Kind::Object,
        true,
    );
    ran += run::<Required>("required.json", "required validation", Kind::Object, false);
    ran += run::<RequiredNone>("required.json", "required default validation", Kind::Object, false);
    ran += run::<RequiredNone>("required.json", "required with empty array", Kind::Object, false);
    ran += run::<RequiredEscaped>("required.json", "required with escaped characters", Kind::Object, false);
    ran += run::<RequiredProto>(
        "required.json",
        "required properties whose names are Javascript object property names",
        Kind::Object,
        false,
    );
    ran += run::<Properties>("properties.json", "object properties validation", Kind::Object, false);
    ran += run::<PropertiesEscaped>("properties.json", "properties with escaped characters", Kind::Object, false);
    // Every test above was checked; the count guards against groups silently applying to none.
    assert_eq!(ran, 196, "the number of suite tests that apply changed");
}
