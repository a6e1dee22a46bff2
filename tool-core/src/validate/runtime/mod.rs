//! [`RuntimeSchema`] (feature `runtime-schema`): a JSON Schema known only at run time (a
//! tool from configuration, another MCP server's tool, its output schema), checked when it is
//! made and enforced on every value, with violations worded as the compile-time validator
//! words them.
//!
//! The deciding is the `jsonschema` crate's (draft 2020-12, the draft every tool schema here
//! is written in); this module only translates its errors into [`Violation`]s (`report`) and
//! applies lenient coercion where the schema names one scalar type (`coerce`). Formats use
//! the compile-time validator's checks and patterns the same ECMA-262 engine (its
//! translation, `fancy-regex`, the same bound on backtracking: `validate/pattern.rs`), so
//! that a schema accepts the same values whether a derive or a configuration file wrote it. References
//! resolve only inside the schema: nothing is fetched from a URL a remote server chose.
//!
//! [`Violation`]: crate::Violation

mod alternatives;
mod checks;
mod coerce;
mod order;
mod report;
mod words;

use core::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::validate::violation::Violations;

/// A JSON Schema (draft 2020-12) held at run time and compiled once.
///
/// ```
/// use tool_core::schema::RuntimeSchema;
/// use serde_json::json;
///
/// let schema = RuntimeSchema::new(json!({
///     "type": "object",
///     "properties": {"city": {"type": "string", "minLength": 1}, "days": {"type": "integer", "maximum": 10}},
///     "required": ["city"],
///     "additionalProperties": false
/// }))?;
/// assert!(schema.validate(&json!({"city": "Oslo", "days": 3})).is_ok());
///
/// let violations = schema.validate(&json!({"days": 12, "unit": "C"})).unwrap_err();
/// let lines: Vec<String> = violations.iter().map(ToString::to_string).collect();
/// // In the order a `#[tool]` reports them: the properties as declared, a missing one in
/// // its place, then the keys the schema does not know.
/// assert_eq!(lines, [
///     "(root): missing required property \"city\"",
///     "/days: must be <= 10, got 12",
///     "/unit: unknown property \"unit\"; the properties are \"city\", \"days\"",
/// ]);
///
/// // Lenient coercion rewrites what the schema's scalar types allow, as dispatch's does.
/// let mut sent = json!({"city": "Oslo", "days": "3"});
/// schema.coerce(&mut sent);
/// assert_eq!(sent, json!({"city": "Oslo", "days": 3}));
/// # Ok::<(), tool_core::schema::SchemaError>(())
/// ```
///
/// Cloning it is cheap: the compiled schema is shared.
#[derive(Clone)]
pub struct RuntimeSchema {
    compiled: Arc<Compiled>,
}

struct Compiled {
    value: Value,
    validator: jsonschema::Validator,
}

impl RuntimeSchema {
    /// Compiles `schema`.
    ///
    /// # Errors
    /// [`SchemaError`] when `schema` is not a valid draft 2020-12 schema (checked against the
    /// meta-schema), a `pattern` does not compile, or a `$ref` points outside the schema.
    pub fn new(schema: Value) -> Result<Self, SchemaError> {
        let mut options = jsonschema::draft202012::options().should_validate_formats(true).with_pattern_options(
            jsonschema::PatternOptions::fancy_regex().backtrack_limit(crate::validate::pattern::BACKTRACK_LIMIT),
        );
        for name in FORMATS {
            options = options.with_format(*name, |text: &str| crate::validate::format::is_valid(name, text));
        }
        checks::before_compiling(&schema).map_err(|message| SchemaError { message })?;
        let validator = options.build(&schema).map_err(|error| SchemaError { message: checks::worded(&error) })?;
        Ok(RuntimeSchema { compiled: Arc::new(Compiled { value: schema, validator }) })
    }

    /// Parses and compiles `text`.
    ///
    /// # Errors
    /// [`SchemaError`] when `text` is not JSON, or as [`RuntimeSchema::new`].
    pub fn parse(text: &str) -> Result<Self, SchemaError> {
        let schema = serde_json::from_str(text).map_err(|error| SchemaError { message: error.to_string() })?;
        Self::new(schema)
    }

    /// The schema as it was given (its key order kept: with `serde_json/preserve_order`,
    /// which the `mcp` and `agent` features turn on, it is sent on as it came).
    #[must_use]
    pub fn as_value(&self) -> &Value {
        &self.compiled.value
    }

    /// Whether `instance` satisfies the schema, without building any message.
    #[must_use]
    pub fn is_valid(&self, instance: &Value) -> bool {
        self.compiled.validator.is_valid(instance)
    }

    /// Checks `instance`.
    ///
    /// # Errors
    /// Every violation, located by its JSON pointer and worded as dispatch words them.
    pub fn validate(&self, instance: &Value) -> Result<(), Violations> {
        if self.compiled.validator.is_valid(instance) {
            return Ok(());
        }
        let mut out = Violations::new();
        let errors: Vec<_> = self.compiled.validator.iter_errors(instance).collect();
        report::all(&errors, &words::Whole { schema: &self.compiled.value, instance }, &mut out);
        if out.is_empty() {
            // `is_valid` and `iter_errors` disagreeing would be the crate's bug; refuse
            // rather than let the value through unexplained.
            out.push(&crate::validate::violation::Pointer::root(), "schema", "does not satisfy the schema".to_owned());
        }
        crate::validate::explain::explain(&mut out, instance, &self.compiled.value);
        Err(out)
    }

    /// Rewrites the common model mistakes (`"3"` for an integer, `"true"` for a boolean)
    /// wherever the schema names exactly one scalar type for a value (`null` aside), as
    /// dispatch's lenient decoding does for a `#[tool]`; anything else is left for
    /// [`RuntimeSchema::validate`] to report.
    pub fn coerce(&self, instance: &mut Value) {
        coerce::apply(&self.compiled.value, &self.compiled.value, instance, 0);
    }
}

impl fmt::Debug for RuntimeSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("RuntimeSchema").field(&self.compiled.value).finish()
    }
}

/// Why a run-time schema is not usable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    message: String,
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SchemaError {}

/// Every format draft 2020-12 defines, each checked by the compile-time validator's check
/// (which passes the ones it leaves as annotations), in place of `jsonschema`'s own.
const FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];
