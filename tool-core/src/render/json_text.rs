//! Writing JSON text around pieces already written (a tool's schema text is spliced in as
//! it is, never parsed again), the one JSON string escaper of the crate ([`push_string`]), and
//! the writer of a keyword's literal ([`push_lit`]).

use core::fmt::Write as _;

use crate::schema::Lit;

/// Writes a JSON object member by member into a `String`, splicing JSON text that is
/// already written (a tool's schema) without parsing it again.
pub(crate) struct ObjectWriter<'a> {
    out: &'a mut String,
    first: bool,
}

impl<'a> ObjectWriter<'a> {
    pub(crate) fn new(out: &'a mut String) -> Self {
        out.push('{');
        ObjectWriter { out, first: true }
    }

    fn key(&mut self, key: &str) {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        push_string(self.out, key);
        self.out.push(':');
    }

    /// A member whose value is JSON text.
    pub(crate) fn raw(&mut self, key: &str, json: &str) -> &mut Self {
        self.key(key);
        self.out.push_str(json);
        self
    }

    /// A member whose value is a string.
    pub(crate) fn string(&mut self, key: &str, text: &str) -> &mut Self {
        self.key(key);
        push_string(self.out, text);
        self
    }

    pub(crate) fn end(&mut self) {
        self.out.push('}');
    }
}

/// A tool's definition, `{"name":…,"description":…,"parameters":…}`, around its parameters
/// text.
pub(crate) fn definition(name: &str, description: &str, parameters: &str) -> String {
    let mut json = String::with_capacity(name.len() + description.len() + parameters.len() + 48);
    definition_head(&mut json, name, description);
    json.push_str(parameters);
    json.push('}');
    json
}

/// A tool's definition up to its parameters: `{"name":…,"description":…,"parameters":`.
pub(crate) fn definition_head(out: &mut String, name: &str, description: &str) {
    out.push_str("{\"name\":");
    push_string(out, name);
    out.push_str(",\"description\":");
    push_string(out, description);
    out.push_str(",\"parameters\":");
}

/// Appends `s` escaped per RFC 8259, without quotes. Most texts written (names, keys,
/// descriptions) need no escape: they are found so eight bytes at a time ([`any_escape`])
/// and copied whole. Otherwise, runs that need no escape are copied whole (slicing at an
/// ASCII byte is always on a character boundary).
#[inline]
pub(crate) fn push_escaped(out: &mut String, s: &str) {
    if any_escape(s.as_bytes()) {
        push_escaping(out, s);
    } else {
        out.push_str(s);
    }
}

/// [`push_escaped`] of a text that needs an escape.
#[cold]
#[inline(never)]
fn push_escaping(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let escape = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..0x20 => {
                out.push_str(&s[start..i]);
                out.push_str("\\u00");
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 0xf)]));
                start = i + 1;
                continue;
            }
            _ => continue,
        };
        out.push_str(&s[start..i]);
        out.push_str(escape);
        start = i + 1;
    }
    out.push_str(&s[start..]);
}

/// Whether any byte of `bytes` is written escaped in a JSON string: a control character, `"`
/// or `\`, tested eight bytes at a time in a `u64` (a byte `x` is below `n` <= 0x80 when
/// `x - n` borrows into its top bit while `x`'s top bit is clear; equal to `c` when `x ^ c`
/// is below 1), the last eight bytes as one word that may overlap the one before.
#[inline]
fn any_escape(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const TOPS: u64 = u64::from_ne_bytes([0x80; 8]);
    let below = |word: u64, n: u64| word.wrapping_sub(ONES * n) & !word & TOPS != 0;
    let escapes = |at: usize| {
        let mut word = [0; 8];
        word.copy_from_slice(&bytes[at..at + 8]);
        let word = u64::from_ne_bytes(word);
        below(word, 0x20) || below(word ^ (ONES * u64::from(b'"')), 1) || below(word ^ (ONES * u64::from(b'\\')), 1)
    };
    match bytes.len().checked_sub(8) {
        None => bytes.iter().any(|&b| b < 0x20 || b == b'"' || b == b'\\'),
        Some(last) => (0..last).step_by(8).any(escapes) || escapes(last),
    }
}

/// Appends an integer (`itoa`, as `serde_json` writes them: no formatting machinery, and no
/// 128-bit division for one that fits 64 bits).
pub(crate) fn push_int(out: &mut String, n: i128) {
    let mut buffer = itoa::Buffer::new();
    out.push_str(match i64::try_from(n) {
        Ok(small) => buffer.format(small),
        Err(_) => buffer.format(n),
    });
}

/// Appends `s` as a quoted JSON string.
pub(crate) fn push_string(out: &mut String, s: &str) {
    out.push('"');
    push_escaped(out, s);
    out.push('"');
}

/// Appends `lit` as JSON: an integer exactly, a float in its shortest exact form.
pub(crate) fn push_lit(out: &mut String, lit: Lit) {
    match lit {
        Lit::Int(n) => push_int(out, n),
        // `{:?}` is the shortest text that reads back as the same f64, and JSON accepts it
        // (`1.5`, `1e300`, `-0.0`): the text the macro wrote before keywords were typed,
        // where serde_json writes `1e+16` and `0.000025`. The macro refuses a float that is
        // not finite, which JSON cannot hold.
        Lit::Float(x) if x.is_finite() => {
            let _ = write!(out, "{x:?}");
        }
        Lit::Float(_) => out.push_str("null"),
        Lit::Str(text) => push_string(out, text),
        Lit::Bool(flag) => out.push_str(if flag { "true" } else { "false" }),
        Lit::List(items) => {
            out.push('[');
            for (i, &item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_lit(out, item);
            }
            out.push(']');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{any_escape, push_int, push_lit, push_string};
    use crate::schema::Lit;

    #[test]
    fn literals_are_written_exactly() {
        let list = Lit::List(&[
            Lit::Int(-3),
            Lit::Int(i128::MIN),
            Lit::Float(0.5),
            Lit::Float(-0.0),
            Lit::Float(2.5e-5),
            Lit::Float(1e16),
            Lit::Float(f64::NAN),
            Lit::Str("a\"b\\"),
            Lit::Bool(true),
            Lit::List(&[]),
        ]);
        let mut written = String::new();
        push_lit(&mut written, list);
        let min = i128::MIN;
        assert_eq!(written, format!(r#"[-3,{min},0.5,-0.0,2.5e-5,1e16,null,"a\"b\\",true,[]]"#));
        let parsed: serde_json::Value = serde_json::from_str(&written).expect("JSON");
        assert_eq!(parsed[4], 2.5e-5);
    }

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let every_ascii: String = (0u8..0x80).map(char::from).collect();
        for text in [every_ascii.as_str(), "", "plain", "\"", "ends with \\", "ünïcödé 🎉\u{7f}\u{1f}x"] {
            let mut written = String::new();
            push_string(&mut written, text);
            assert_eq!(written, serde_json::to_string(text).expect("a str serializes"), "{text:?}");
        }
    }

    /// Every byte value at every position of words and tails of every length finds an escape
    /// exactly when it needs one, beside bytes that need none (the word test's borrows).
    #[test]
    fn the_escape_scan_agrees_with_the_byte_test() {
        for len in 1..=17 {
            for at in 0..len {
                for byte in 0..=u8::MAX {
                    for fill in [b'a', 0xff, 0x21, 0x5d, 0x80] {
                        let mut bytes = vec![fill; len];
                        bytes[at] = byte;
                        let expected = bytes.iter().any(|&b| b < 0x20 || b == b'"' || b == b'\\');
                        assert_eq!(any_escape(&bytes), expected, "{bytes:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn integers_are_written_exactly() {
        for n in [0, -1, 7, i128::from(i64::MIN), i128::from(i64::MAX), i128::from(u64::MAX), i128::MIN, i128::MAX] {
            let mut written = String::new();
            push_int(&mut written, n);
            assert_eq!(written, n.to_string());
        }
    }
}
