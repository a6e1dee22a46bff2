//! The run-time validator (`RuntimeSchema`, on the `jsonschema` crate) against the
//! compile-time one, on the schema each type emits: for generated instances, valid and
//! invalid, both accept the same values and report the same violations (path, keyword and
//! message), so a model cannot tell a `#[tool]` from a tool whose schema came from a file.

use std::collections::BTreeSet;

use proptest::test_runner::{Config, RngSeed, TestRunner};
use serde_json::{Value, json};
use tool_core::ToolArgs;
use tool_core::dispatch::DecodeOptions;
use tool_core::schema::RuntimeSchema;

use super::differential::{enum_strings, near, property_names, samples};

/// How the two validators compared on one type's instances.
#[derive(Debug, Default)]
pub(crate) struct Agreement {
    pub(crate) valid: u32,
    pub(crate) same_violations: u32,
    /// Rejected by both, worded apart where the compile-time validator reads a Rust enum's
    /// tagging and names its variants; the run-time schema has only an `anyOf`, so it names
    /// the closest alternative (by its title or position). The run-time report still
    /// points at the enum's value (or within it).
    pub(crate) variant_names: u32,
    /// Rejected by both at the same places for the same keywords, the messages apart only on
    /// a number beyond its Rust type's range: the compile-time validator states the type's
    /// bound (or that a float cannot hold it exactly), which the schema may not state.
    pub(crate) rust_range: u32,
    /// A value of another type where a string `enum` is expected: the compile-time validator
    /// says `enum` for a unit enum and `type` for a `String` with `enum` values, two fields
    /// whose schemas are written alike (`{"type": "string", "enum": [..]}`); the run-time
    /// one says `enum` for both.
    pub(crate) enum_or_type: u32,
}

fn lines(violations: &tool_core::Violations) -> BTreeSet<(String, &'static str, String)> {
    violations.iter().map(|v| (v.path.clone(), crate::support::keyword(v), v.message.clone())).collect()
}

/// Whether the two reports differ only in the messages about numbers beyond a Rust type's
/// range (the same paths and keywords).
fn rust_range(value: &Value, ours: &tool_core::Violations, theirs: &tool_core::Violations) -> bool {
    let (ours, theirs) = (lines(ours), lines(theirs));
    places_equal(&ours, &theirs)
        && ours.symmetric_difference(&theirs).all(|(path, keyword, _)| {
            matches!(*keyword, "minimum" | "maximum" | "type") && value.pointer(path).is_some_and(Value::is_number)
        })
}

/// Whether the two reports differ only where one says `type` and the other `enum` for one
/// non-string value.
fn enum_or_type(value: &Value, ours: &tool_core::Violations, theirs: &tool_core::Violations) -> bool {
    let (ours, theirs) = (lines(ours), lines(theirs));
    let paths =
        |set: &BTreeSet<(String, &'static str, String)>| set.iter().map(|(p, ..)| p.clone()).collect::<BTreeSet<_>>();
    paths(&ours) == paths(&theirs)
        && ours.symmetric_difference(&theirs).all(|(path, keyword, message)| {
            let wrong_type = value.pointer(path).is_some_and(|v| !v.is_string());
            wrong_type && (*keyword == "enum" || (*keyword == "type" && message.starts_with("expected a string")))
        })
}

fn places_equal(
    ours: &BTreeSet<(String, &'static str, String)>,
    theirs: &BTreeSet<(String, &'static str, String)>,
) -> bool {
    let places = |set: &BTreeSet<(String, &'static str, String)>| {
        set.iter().map(|(path, keyword, _)| (path.clone(), *keyword)).collect::<BTreeSet<_>>()
    };
    places(ours) == places(theirs)
}

/// Runs `cases` generated instances of `T` near `base` through both validators.
pub(crate) fn agreement<T: ToolArgs>(cases: u32, base: &Value) -> Agreement {
    let schema: Value = serde_json::from_str(&tool_core::render::json_schema_exact::<T>()).expect("JSON");
    let runtime = RuntimeSchema::new(schema.clone()).expect("a valid schema");
    let mut names = vec!["zzz_unknown".to_owned()];
    property_names(&schema, &mut names);
    let mut words = vec!["x".to_owned()];
    enum_strings(&schema, &mut words);
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(0x7001_c0de),
        ..Config::default()
    });
    let agreement = std::cell::RefCell::new(Agreement::default());
    runner
        .run(&near(base.clone(), names, words), |value| {
            let compiled = tool_core::dispatch::decode::<T>(value.clone(), &DecodeOptions::default());
            let checked = runtime.validate(&value);
            let mut tally = agreement.borrow_mut();
            match (compiled, checked) {
                (Ok(_), Ok(())) => tally.valid += 1,
                (Err(tool_core::ToolError::InvalidArguments { violations: ours, .. }), Err(theirs)) => {
                    if lines(&ours) == lines(&theirs) {
                        tally.same_violations += 1;
                    } else if rust_range(&value, &ours, &theirs) {
                        tally.rust_range += 1;
                    } else if enum_or_type(&value, &ours, &theirs) {
                        tally.enum_or_type += 1;
                    } else {
                        let variants = ours.iter().any(|v| v.message.contains("variant"));
                        let place = ours.iter().find(|v| v.message.contains("variant")).map(|v| v.path.clone());
                        let located = place.is_some_and(|place| {
                            theirs.iter().any(|v| place.starts_with(&v.path) || v.path.starts_with(&place))
                        });
                        proptest::prop_assert!(
                            variants && located,
                            "value {value}\ncompile time: {ours:#?}\nrun time: {theirs:#?}"
                        );
                        tally.variant_names += 1;
                    }
                }
                (compiled, checked) => proptest::prop_assert!(
                    false,
                    "value {value}: compile time {:?}, run time {:?}",
                    compiled.map(|_| ()),
                    checked
                ),
            }
            Ok(())
        })
        .unwrap_or_else(|failure| panic!("{}: {failure}", std::any::type_name::<T>()));
    agreement.into_inner()
}

#[test]
#[allow(clippy::print_stderr, reason = "the tally per category is the figure the closing note reports")]
fn the_run_time_validator_agrees_with_the_compile_time_one() {
    let cases = std::env::var("DIFFERENTIAL_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(1_000);
    for sample in samples() {
        let tally = (sample.runtime)(cases, &sample.base);
        eprintln!("{}: {tally:?}", sample.name);
        assert!(tally.valid >= 100 && tally.same_violations >= 100, "{}: {tally:?}", sample.name);
    }
}

/// The vendored JSON-Schema-Test-Suite's files in `directory`, in name order, each with its
/// groups.
fn suite(directory: &str) -> Vec<(std::path::PathBuf, Vec<Value>)> {
    let directory: std::path::PathBuf =
        [env!("CARGO_MANIFEST_DIR"), "vendor", "json-schema-test-suite", directory].iter().collect();
    let mut files: Vec<_> =
        std::fs::read_dir(&directory).expect("the vendored suite").map(|e| e.unwrap().path()).collect();
    files.sort();
    let read = |file: std::path::PathBuf| {
        let groups = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        (file, groups)
    };
    files.into_iter().map(read).collect()
}

/// The JSON-Schema-Test-Suite (draft 2020-12) files for the keywords a tool's schema uses,
/// every group and every test, through [`RuntimeSchema`]: `validate` accepts exactly what
/// the suite says is valid, names at least one violation for what it says is not, and
/// agrees with `is_valid`. A run-time schema is not limited to what a Rust type can
/// express, so nothing is skipped.
#[test]
fn the_run_time_validator_passes_the_json_schema_test_suite() {
    let (mut ran, mut failed) = (0, Vec::new());
    for (file, groups) in suite("draft2020-12") {
        for group in groups {
            let schema = RuntimeSchema::new(group["schema"].clone())
                .unwrap_or_else(|e| panic!("{}: {}: {e}", file.display(), group["description"]));
            for test in group["tests"].as_array().unwrap() {
                ran += 1;
                let (data, valid) = (&test["data"], test["valid"].as_bool().unwrap());
                let outcome = schema.validate(data);
                assert_eq!(schema.is_valid(data), outcome.is_ok(), "{}", test["description"]);
                if let Err(violations) = &outcome {
                    assert!(!violations.is_empty());
                }
                if outcome.is_ok() != valid {
                    failed.push(format!("{}: {} / {}", file.display(), group["description"], test["description"]));
                }
            }
        }
    }
    assert!(failed.is_empty(), "{} of {ran} tests disagree with the suite:\n{}", failed.len(), failed.join("\n"));
    assert!(ran > 300, "only {ran} tests ran");
}

/// A schema that is not one is refused when the tool is made, naming the problem; a `$ref`
/// to a URL is never fetched.
#[test]
fn an_invalid_run_time_schema_is_refused_when_made() {
    for (schema, says) in [
        (r#"{"type": "object", "properties": {"n": {"type": "integr"}}}"#, "integr"),
        (r#"{"type": "object", "properties": {"n": {"minimum": "3"}}}"#, "\"3\""),
        (r#"{"type": "object", "properties": {"n": {"pattern": "(unclosed"}}}"#, "(unclosed"),
        (r#"{"type": "object", "properties": {"n": {"$ref": "https://example.com/s.json"}}}"#, "example.com"),
        (r#"{"type": "object""#, "EOF"),
    ] {
        let error = RuntimeSchema::parse(schema).expect_err(schema).to_string();
        assert!(error.contains(says), "{schema}: {error}");
        let tool = tool_core::DynamicTool::new("t", "", schema, |_, _| async { Ok(tool_core::ToolOutput::text("")) });
        let error = tool.expect_err(schema).to_string();
        assert!(error.contains("the parameters of tool \"t\" are not a usable JSON Schema"), "{error}");
    }
}

/// A bad schema is refused in its own terms: where, which keyword, what it takes; a
/// reference outside the schema is refused without suggesting a way to fetch it.
#[test]
fn a_bad_schema_is_refused_naming_the_keyword_and_what_it_takes() {
    for (schema, said) in [
        (json!({"type": 5}), "the schema at /type: `type` takes a type name"),
        (
            json!({"properties": {"n": {"minLength": -1}}}),
            "the schema at /properties/n/minLength: `minLength` takes a non-negative integer, got -1",
        ),
        (
            json!({"properties": {"n": {"$ref": "https://example.com/s.json"}}}),
            "the schema at /properties/n/$ref refers to \"https://example.com/s.json\", outside the schema",
        ),
        (json!({"$defs": {"a": {"type": "string"}}, "properties": {"n": {"$ref": "#/$defs/a"}}}), ""),
    ] {
        match RuntimeSchema::new(schema.clone()) {
            Ok(_) => assert!(said.is_empty(), "{schema} was accepted"),
            Err(error) => {
                let error = error.to_string();
                assert!(!said.is_empty() && error.starts_with(said), "{schema}: {error}");
                assert!(!error.contains("anyOf") && !error.contains("resolve-http"), "{error}");
            }
        }
    }
}

/// The JSON-Schema-Test-Suite's format files (draft 2020-12, `optional/format`): every
/// format is checked by its RFC, at compile time and at run time alike (one check serves
/// both), so a schema with `format` accepts exactly what the suite says is valid, but for
/// the groups in `FORMAT_EXCEPTIONS`, each with why.
#[test]
fn each_format_decides_as_the_json_schema_test_suite() {
    let (mut ran, mut excepted, mut failed) = (0, 0, Vec::new());
    for (file, groups) in suite("format") {
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        for group in groups {
            let schema = RuntimeSchema::new(group["schema"].clone()).unwrap();
            let description = group["description"].as_str().unwrap();
            for test in group["tests"].as_array().unwrap() {
                ran += 1;
                let (data, valid) = (&test["data"], test["valid"].as_bool().unwrap());
                if schema.is_valid(data) == valid {
                    continue;
                }
                if FORMAT_EXCEPTIONS.iter().any(|(file, group, _)| *file == name && *group == description) {
                    excepted += 1;
                } else {
                    failed.push(format!("{name}: {description} / {} ({data})", test["description"]));
                }
            }
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {ran} format tests disagree with the suite:\n{}",
        failed.len(),
        failed.join("\n")
    );
    assert!(ran > 700, "only {ran} tests ran");
    assert!(excepted <= 60, "{excepted} tests excepted: more than the IDNA tables explain");
}

/// (format file, test group, why) where the crate decides otherwise than the suite.
const FORMAT_EXCEPTIONS: &[(&str, &str, &str)] = &[
    (
        "hostname",
        "validation of A-label (punycode) host names",
        "an `xn--` label is checked for shape, not decoded against the IDNA2008 tables (RFC 5892)",
    ),
    (
        "idn-hostname",
        "validation of internationalized host names",
        "a U-label is checked for shape, not against IDNA2008's code point tables, contextual rules and Bidi rule",
    ),
];
