//! Writing JSON text around pre-rendered pieces: the compile-time schema texts are spliced
//! in as they are, never parsed again.

/// Writes a JSON object member by member into a `String`, splicing pre-rendered JSON
/// (the compile-time schemas) without parsing it again.
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

pub(crate) fn push_string(out: &mut String, text: &str) {
    // Serializing a `str` cannot fail.
    out.push_str(&serde_json::to_string(text).unwrap_or_default());
}
