//! `pattern`: JSON Schema's patterns are ECMA-262 regular expressions. One pattern decides
//! alike wherever it is written (`#[param(pattern)]`, a run-time schema, another MCP
//! server's tool): `jsonschema`'s translation into the `regex` dialect (`\\d` is ASCII, `\\s`
//! is ECMA's white space) and `fancy-regex`, which adds what ECMA has and `regex` lacks
//! (lookaround, backreferences), with a bound on backtracking ([`BACKTRACK_LIMIT`]) so that
//! no pattern and value can stall a call.

use std::sync::OnceLock;

use serde_json::Value;

use crate::validate::violation::{Pointer, Violations, preview};

/// How many backtracking steps one match may take: `fancy-regex`'s own default. Patterns
/// without lookaround or backreferences run on `regex`'s automata and never backtrack.
pub const BACKTRACK_LIMIT: usize = 1_000_000;

/// `source`, an ECMA-262 regular expression, compiled; what is wrong with it otherwise.
///
/// # Errors
/// When `source` is not ECMA-262 syntax, or names what the engine cannot run.
pub fn compile(source: &str) -> Result<fancy_regex::Regex, String> {
    if !jsonschema_regex::is_valid_ecma_regex(source) {
        return Err("it is not an ECMA-262 regular expression".to_owned());
    }
    let translated = jsonschema_regex::to_rust_regex(source)
        .map_err(|()| "it uses ECMA-262 syntax this crate cannot run".to_owned())?;
    fancy_regex::RegexBuilder::new(&translated).backtrack_limit(BACKTRACK_LIMIT).build().map_err(|e| e.to_string())
}

/// Why a value could not be checked against `pattern`: matching it ran past the bound.
pub(crate) fn too_costly(pattern: &str) -> String {
    format!(
        "could not be checked against the pattern {pattern:?}: matching took more than {BACKTRACK_LIMIT} backtracking steps"
    )
}

/// A `pattern`, compiled on first use and shared by every call after it.
#[derive(Debug)]
pub struct Pattern {
    source: &'static str,
    compiled: OnceLock<Result<fancy_regex::Regex, String>>,
}

impl Pattern {
    /// A pattern from its source; `#[param(pattern)]` has already checked that it compiles.
    #[must_use]
    pub const fn new(source: &'static str) -> Self {
        Pattern { source, compiled: OnceLock::new() }
    }

    /// Whether the regex matches somewhere in `text` (never, if it does not compile or the
    /// match runs past the backtracking bound).
    pub fn is_match(&self, text: &str) -> bool {
        matches!(self.compiled(), Ok(regex) if regex.is_match(text).unwrap_or(false))
    }

    fn compiled(&self) -> &Result<fancy_regex::Regex, String> {
        self.compiled.get_or_init(|| compile(self.source))
    }

    /// `pattern`: the regex matches somewhere in the string.
    pub fn validate(&self, value: &Value, at: &Pointer, out: &mut Violations) {
        let Value::String(text) = value else { return };
        match self.compiled().as_ref().map(|regex| regex.is_match(text)) {
            Ok(Ok(true)) => {}
            Ok(Ok(false)) => {
                out.push(at, "pattern", format!("must match the pattern {:?}, got {}", self.source, preview(value)));
            }
            Ok(Err(_)) => out.push(at, "pattern", too_costly(self.source)),
            Err(error) => out.push(at, "pattern", format!("the pattern {:?} does not compile: {error}", self.source)),
        }
    }
}
