//! What validation reports: [`Violation`]s collected into [`Violations`], each located by a
//! JSON pointer built with [`Pointer`] while the generated validators descend.

use core::fmt;
use std::borrow::Cow;

use serde_json::Value;

/// A JSON pointer (RFC 6901) into the arguments, grown and shrunk as validation descends.
///
/// Segments are pushed and truncated in place, so descending allocates nothing once the
/// buffer has grown; a `String` is made only when a violation is recorded.
#[derive(Debug, Default, Clone)]
pub struct Pointer {
    text: String,
}

impl Pointer {
    /// The root of the document (`""`).
    #[must_use]
    pub fn root() -> Self {
        Self::default()
    }

    /// Appends an object key; returns the mark to [`Pointer::truncate`] back to.
    pub fn push_key(&mut self, key: &str) -> usize {
        let mark = self.text.len();
        self.text.push('/');
        for c in key.chars() {
            match c {
                '~' => self.text.push_str("~0"),
                '/' => self.text.push_str("~1"),
                c => self.text.push(c),
            }
        }
        mark
    }

    /// Appends an array index; returns the mark to [`Pointer::truncate`] back to.
    pub fn push_index(&mut self, index: usize) -> usize {
        use fmt::Write as _;
        let mark = self.text.len();
        // Writing into a String cannot fail.
        let _ = write!(self.text, "/{index}");
        mark
    }

    /// Removes every segment pushed after `mark` was taken.
    pub fn truncate(&mut self, mark: usize) {
        self.text.truncate(mark);
    }

    /// The pointer as text (`""` for the root, `/stops/2/city` below it).
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

/// One way the arguments break the schema: where, which rule, this crate's message, and
/// the parts a message of another wording needs (what was expected, what was received, the
/// property missing or unknown), so a server can answer as the one it replaces did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct Violation {
    /// JSON pointer to the offending value (`""` is the arguments object itself).
    pub path: String,
    /// The JSON Schema keyword that failed (`type`, `required`, `maximum`, …), or
    /// `deserialize` when the type's own `Deserialize` refused a value the schema allows.
    pub keyword: Cow<'static, str>,
    /// What is wrong and what was received, e.g. `must be <= 10, got 12`.
    pub message: String,
    /// What the schema expects there, for a wrong type (`"array"`, `"string | null"`), a
    /// missing property (its type) and a value outside an `enum` or `const` (the values, as
    /// JSON); `None` for the other keywords, whose message states the bound.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default)]
    pub expected: Option<String>,
    /// The JSON type of the value found (`"string"`, `"integer"`, `"number"`, `"boolean"`,
    /// `"null"`, `"array"`, `"object"`); `None` where there was none (a missing property).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default)]
    pub received: Option<Cow<'static, str>>,
    /// The property a `required` violation misses, or an `additionalProperties` one names.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(default)]
    pub property: Option<String>,
}

impl Violation {
    /// A violation at `path` of `keyword`, saying `message`.
    #[must_use]
    pub fn new(path: impl Into<String>, keyword: &'static str, message: impl Into<String>) -> Self {
        Violation {
            path: path.into(),
            keyword: Cow::Borrowed(keyword),
            message: message.into(),
            expected: None,
            received: None,
            property: None,
        }
    }

    /// The same violation about `property` (the one missing, or unknown).
    #[must_use]
    pub fn about(mut self, property: impl Into<String>) -> Self {
        self.property = Some(property.into());
        self
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() { "(root)" } else { &self.path };
        write!(f, "{path}: {}", self.message)
    }
}

/// The violations found in one set of arguments.
///
/// At most [`Violations::LIMIT`] are kept, so a hostile input (a million unknown keys) cannot
/// make the error itself unbounded; [`Violations::omitted`] says how many more there were.
#[derive(Debug, Default, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(from = "ViolationsShape")]
pub struct Violations {
    list: Vec<Violation>,
    omitted: usize,
}

/// [`Violations`] as serde reads them: read back through [`Violations::push_violation`], so
/// a list longer than [`Violations::LIMIT`] is cut to it and counted as omitted.
#[derive(serde::Deserialize)]
struct ViolationsShape {
    list: Vec<Violation>,
    omitted: usize,
}

impl From<ViolationsShape> for Violations {
    fn from(shape: ViolationsShape) -> Self {
        let mut violations = Violations::new();
        for violation in shape.list {
            violations.push_violation(violation);
        }
        violations.omitted = violations.omitted.saturating_add(shape.omitted);
        violations
    }
}

impl Violations {
    /// How many violations are kept in full.
    pub const LIMIT: usize = 100;

    /// No violations yet.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Records a violation at `at`.
    pub fn push(&mut self, at: &Pointer, keyword: &'static str, message: String) {
        if self.list.len() < Self::LIMIT {
            self.list.push(Violation::new(at.as_str(), keyword, message));
        } else {
            self.omitted += 1;
        }
    }

    /// Records a violation that already carries its path.
    pub fn push_violation(&mut self, violation: Violation) {
        if self.list.len() < Self::LIMIT {
            self.list.push(violation);
        } else {
            self.omitted += 1;
        }
    }

    /// Counts `more` violations found beyond the limit and not kept (the journal's tests).
    #[cfg(all(test, feature = "restate"))]
    pub(crate) fn add_omitted(&mut self, more: usize) {
        self.omitted += more;
    }

    /// The violations kept, to fill in what they expected and received.
    pub(crate) fn kept_mut(&mut self) -> core::slice::IterMut<'_, Violation> {
        self.list.iter_mut()
    }

    /// Drops the violations kept after the first `len` (none was omitted since: the caller
    /// checks).
    pub(crate) fn truncate(&mut self, len: usize) {
        self.list.truncate(len);
    }

    /// Whether nothing was found.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.list.is_empty() && self.omitted == 0
    }

    /// The violations kept, in the order they were found.
    #[must_use]
    pub fn as_slice(&self) -> &[Violation] {
        &self.list
    }

    /// The violations kept, in the order they were found.
    pub fn iter(&self) -> core::slice::Iter<'_, Violation> {
        self.list.iter()
    }

    /// How many violations were found beyond [`Violations::LIMIT`].
    #[must_use]
    pub fn omitted(&self) -> usize {
        self.omitted
    }

    /// How many violations were found in all.
    #[must_use]
    pub fn total(&self) -> usize {
        self.list.len() + self.omitted
    }
}

impl fmt::Display for Violations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, violation) in self.list.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "- {violation}")?;
        }
        if self.omitted > 0 {
            write!(f, "\n- … and {} more", self.omitted)?;
        }
        Ok(())
    }
}

impl<'a> IntoIterator for &'a Violations {
    type Item = &'a Violation;
    type IntoIter = core::slice::Iter<'a, Violation>;

    fn into_iter(self) -> Self::IntoIter {
        self.list.iter()
    }
}

/// Records that `value` is not of the `expected` JSON type.
pub fn wrong_type(value: &Value, expected: &str, at: &Pointer, out: &mut Violations) {
    let got = type_name(value);
    let message = if value.is_null() || value.is_array() || value.is_object() {
        format!("expected {expected}, got {}", preview(value))
    } else {
        format!("expected {expected}, got {got} {}", preview(value))
    };
    out.push(at, "type", message);
}

/// A short, bounded rendering of a received value for messages: `"abc"`, `12`, `an object`.
#[must_use]
pub fn preview(value: &Value) -> String {
    const MAX_CHARS: usize = 40;
    match value {
        Value::Array(items) => format!("an array of {} items", items.len()),
        Value::Object(map) => format!("an object with {} keys", map.len()),
        Value::String(text) if text.chars().count() > MAX_CHARS => {
            let head: String = text.chars().take(MAX_CHARS).collect();
            format!("{}… ({} characters)", Value::String(head), text.chars().count())
        }
        other => other.to_string(),
    }
}

/// The JSON type of a value, with an article, for messages.
#[must_use]
pub fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a number",
        Value::Number(_) => "an integer",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::{Violation, Violations};

    #[test]
    fn violations_read_back_keep_the_limit() {
        let list: Vec<Violation> =
            (0..Violations::LIMIT + 3).map(|i| Violation::new(format!("/{i}"), "type", "m")).collect();
        let text = serde_json::json!({ "list": list, "omitted": 2 }).to_string();
        let read: Violations = serde_json::from_str(&text).unwrap();
        assert_eq!(read.as_slice().len(), Violations::LIMIT);
        assert_eq!(read.omitted(), 5, "three cut on reading, two omitted before");
        let mut kept = Violations::new();
        kept.push_violation(Violation::new("/q", "even_number", "must be even"));
        let again: Violations = serde_json::from_str(&serde_json::to_string(&kept).unwrap()).unwrap();
        assert_eq!(again, kept);
    }
}
