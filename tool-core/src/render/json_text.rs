//! Writing JSON text around pieces already written: a tool's schema text is spliced in as
//! it is, never parsed again.

use crate::render::writer::push_string;

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
