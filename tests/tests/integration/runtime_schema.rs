//! The run-time validator (`RuntimeSchema`, on the `jsonschema` crate) against the
//! compile-time one, on the schema each type emits: for generated instances, valid and
//! invalid, both accept the same values and report the same violations (path, keyword and
//! message), so a model cannot tell a `#[tool]` from a tool whose schema came from a file.

use proptest::test_runner::{Config, RngSeed, TestRunner};
use serde_json::{Value, json};
use tool_core::ToolArgs;
use tool_core::dispatch::DecodeOptions;
use tool_core::schema::RuntimeSchema;

use super::differential::{enum_strings, near, property_names, samples};

/// How the two validators compared on one type's instances: a difference of any kind (a
/// decision, a violation's place, keyword, words, structured parts or position in the
/// list) fails the test at its first case, so a tally only counts agreements.
#[derive(Debug, Default)]
pub(crate) struct Agreement {
    /// Accepted by both.
    pub(crate) valid: u32,
    /// Refused by both with equal lists of violations.
    pub(crate) refused_alike: u32,
}

/// Runs `cases` generated instances of `T` near `base` through both validators and compares
/// the ordered lists of violations whole.
pub(crate) fn agreement<T: ToolArgs>(cases: u32, base: &Value) -> Agreement {
    let schema: Value = serde_json::from_str(&tool_core::render::json_schema::<T>()).expect("JSON");
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
                    proptest::prop_assert_eq!(ours.as_slice(), theirs.as_slice(), "value {}", value);
                    proptest::prop_assert_eq!(ours.omitted(), theirs.omitted(), "value {}", value);
                    tally.refused_alike += 1;
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
#[allow(clippy::print_stderr, reason = "the tally per type is the figure the closing note reports")]
fn the_run_time_validator_words_every_refusal_as_the_compile_time_one() {
    // DIFFERENTIAL_CASES raises the count (README: "more cases").
    let cases = std::env::var("DIFFERENTIAL_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(2_000);
    for sample in samples() {
        let tally = (sample.runtime)(cases, &sample.base);
        eprintln!("{}: {tally:?}", sample.name);
        // Both sides must be exercised: a good share valid, most refused.
        assert!(tally.valid >= cases / 20 && tally.refused_alike >= cases / 2, "{}: {tally:?}", sample.name);
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
