//! Argument text as models send it: usually JSON, sometimes JSON with the mistakes a
//! streaming or chatty model makes, sometimes cut off. [`parse_arguments`] says which, so a
//! call whose arguments are only partial or invalid is answered with an error instead of
//! being run.

use serde_json::Value;

/// How argument text was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ArgumentsMode {
    /// Valid JSON as sent.
    Strict,
    /// Valid after removing what models wrap JSON in or leave behind: a Markdown code
    /// fence, surrounding whitespace, trailing commas. The call may run.
    Repaired,
    /// Cut off: valid only once its open strings and brackets are closed. Never run.
    Partial,
    /// Not JSON. Never run.
    Invalid,
}

/// Argument text, read.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedArguments {
    /// How it was read.
    pub mode: ArgumentsMode,
    /// The value, unless the text was invalid (for `Partial`, what was there so far).
    pub value: Option<Value>,
    /// The parser's message, for `Invalid` (and for `Partial`, why it was incomplete).
    pub error: Option<String>,
}

impl ParsedArguments {
    /// Whether the call may run on these arguments.
    #[must_use]
    pub fn is_runnable(&self) -> bool {
        matches!(self.mode, ArgumentsMode::Strict | ArgumentsMode::Repaired)
    }
}

/// Reads argument text; an empty text is an empty object (models send `""` for tools
/// without parameters).
#[must_use]
pub fn parse_arguments(text: &str) -> ParsedArguments {
    let first_error = match serde_json::from_str::<Value>(text) {
        Ok(value) => return ParsedArguments { mode: ArgumentsMode::Strict, value: Some(value), error: None },
        Err(error) => error,
    };
    let cleaned = clean(text);
    if cleaned.is_empty() {
        return ParsedArguments {
            mode: ArgumentsMode::Repaired,
            value: Some(Value::Object(serde_json::Map::default())),
            error: None,
        };
    }
    if let Ok(value) = serde_json::from_str::<Value>(&cleaned) {
        return ParsedArguments { mode: ArgumentsMode::Repaired, value: Some(value), error: None };
    }
    if (first_error.is_eof() || serde_json::from_str::<Value>(&cleaned).is_err_and(|e| e.is_eof()))
        && let Some(value) = close(&cleaned).and_then(|closed| serde_json::from_str::<Value>(&closed).ok())
    {
        return ParsedArguments {
            mode: ArgumentsMode::Partial,
            value: Some(value),
            error: Some(format!("the arguments end early: {first_error}")),
        };
    }
    ParsedArguments { mode: ArgumentsMode::Invalid, value: None, error: Some(first_error.to_string()) }
}

/// Removes a Markdown fence around the text and commas before a closing bracket.
fn clean(text: &str) -> String {
    let mut text = text.trim();
    if let Some(rest) = text.strip_prefix("```") {
        let rest = rest.strip_prefix("json").unwrap_or(rest);
        text = rest.strip_suffix("```").unwrap_or(rest).trim();
    }
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if in_string {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        if c == '"' {
            in_string = true;
        }
        if c == ',' {
            let next = chars[i + 1..].iter().find(|c| !c.is_whitespace());
            if matches!(next, Some('}' | ']')) {
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// Closes what a cut-off text left open: a string, then every bracket, innermost first. A
/// member whose key is cut off or has no value yet is left out, so that no half-written key
/// shows (`{"ci` is `{}`, not `{"ci": null}`). `None` when the text is not a prefix of JSON in
/// a way closing can mend.
fn close(text: &str) -> Option<String> {
    let mut stack = Vec::new();
    let mut in_string = false;
    let mut escaped = false;
    // Whether the next string in the current object is a key, whether the open string is
    // one, and whether a key was read without its `:` yet.
    let mut key_expected = false;
    let mut string_is_key = false;
    let mut key_pending = false;
    // Where the last key began.
    let mut member_start = 0;
    for (at, c) in text.char_indices() {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => {
                    in_string = false;
                    key_pending = string_is_key;
                }
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                string_is_key = key_expected && stack.last() == Some(&'}');
                if string_is_key {
                    member_start = at;
                }
                key_expected = false;
            }
            '{' => {
                stack.push('}');
                key_expected = true;
            }
            '[' => stack.push(']'),
            ',' => key_expected = stack.last() == Some(&'}'),
            ':' => key_pending = false,
            '}' | ']' if stack.pop() != Some(c) => {
                return None;
            }
            _ => {}
        }
    }
    let mut closed = text.trim_end().to_owned();
    let valueless = (in_string && string_is_key) || key_pending || closed.ends_with(':');
    if valueless {
        closed.truncate(member_start);
    } else if in_string {
        if escaped {
            closed.pop();
        }
        closed.push('"');
    }
    // A dangling comma cannot be closed as is.
    let trimmed = closed.trim_end();
    if trimmed.ends_with(',') {
        closed = trimmed.trim_end_matches(',').to_owned();
    }
    while let Some(bracket) = stack.pop() {
        closed.push(bracket);
    }
    Some(closed)
}

#[cfg(test)]
mod tests {
    use super::{ArgumentsMode, parse_arguments};
    use serde_json::json;

    #[test]
    fn modes() {
        let strict = parse_arguments(r#"{"city":"Paris"}"#);
        assert_eq!((strict.mode, strict.value), (ArgumentsMode::Strict, Some(json!({"city": "Paris"}))));
        for text in ["```json\n{\"city\":\"Paris\",}\n```", " {\"city\": \"Paris\",} ", "{\"a\":[1,2,],}"] {
            assert_eq!(parse_arguments(text).mode, ArgumentsMode::Repaired, "{text}");
        }
        assert_eq!(parse_arguments("").value, Some(json!({})));
        let partial = parse_arguments(r#"{"city":"Par"#);
        assert_eq!((partial.mode, partial.value), (ArgumentsMode::Partial, Some(json!({"city": "Par"}))));
        let keyed = parse_arguments(r#"{"stops":[{"city":"A"},{"ci"#);
        assert_eq!(
            (keyed.mode, keyed.value),
            (ArgumentsMode::Partial, Some(json!({"stops": [{"city": "A"}, {}]}))),
            "no half-written key"
        );
        assert_eq!(parse_arguments(r#"{"a": 1, "b""#).value, Some(json!({"a": 1})));
        assert_eq!(parse_arguments(r#"{"a": 1, "b":"#).value, Some(json!({"a": 1})));
        assert_eq!(parse_arguments(r#"{"a":"#).value, Some(json!({})));
        assert_eq!(parse_arguments(r#"{"a": "x\"#).value, Some(json!({"a": "x"})));
        for text in ["{'city': 'Paris'}", "city=Paris", "{\"a\":1}}", "]"] {
            let parsed = parse_arguments(text);
            assert_eq!(parsed.mode, ArgumentsMode::Invalid, "{text}: {parsed:?}");
            assert!(!parsed.is_runnable());
        }
        // A comma inside a string is not a trailing comma.
        assert_eq!(parse_arguments(r#"{"a":"x,}"}"#).mode, ArgumentsMode::Strict);
    }
}
