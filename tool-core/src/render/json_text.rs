//! Writing JSON text around pieces already written (a tool's schema text is spliced in as
//! it is, never parsed again), and the one JSON string escaper of the crate ([`push_string`]).

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
    ObjectWriter::new(&mut json)
        .string("name", name)
        .string("description", description)
        .raw("parameters", parameters)
        .end();
    json
}

/// Appends `s` escaped per RFC 8259, without quotes. Runs that need no escape are copied
/// whole (slicing at an ASCII byte is always on a character boundary).
pub(crate) fn push_escaped(out: &mut String, s: &str) {
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

/// Appends `s` as a quoted JSON string.
pub(crate) fn push_string(out: &mut String, s: &str) {
    out.push('"');
    push_escaped(out, s);
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::push_string;

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let every_ascii: String = (0u8..0x80).map(char::from).collect();
        for text in [every_ascii.as_str(), "", "plain", "\"", "ends with \\", "ünïcödé 🎉\u{7f}\u{1f}x"] {
            let mut written = String::new();
            push_string(&mut written, text);
            assert_eq!(written, serde_json::to_string(text).expect("a str serializes"), "{text:?}");
        }
    }
}
