//! [`Registry::describe`]: descriptions set at run time, kept on the entry.

use std::sync::{Arc, OnceLock};

use super::Registry;
use super::descriptions::{Described, Descriptions};
use super::entry::Entry;
use crate::error::RegistryError;
use crate::render::json_text::definition;
use crate::schema::Schema;

impl Registry {
    /// Sets descriptions of the tool `name` at run time (see [`Descriptions`]): every
    /// listing and dialect uses them from now on. Setting them again replaces the earlier
    /// ones.
    ///
    /// # Errors
    /// [`RegistryError::NotFound`] when no tool has that name, when an argument named is not
    /// a property of its arguments, or when arguments are described for a tool made at run
    /// time from a JSON Schema (describe them in that schema).
    pub fn describe(&mut self, name: &str, descriptions: Descriptions) -> Result<&mut Self, RegistryError> {
        let not_found = |what: String| RegistryError::NotFound { what };
        let position = *self.index.get(name).ok_or_else(|| not_found(format!("tool {name:?} in this registry")))?;
        let entry = &self.entries[position];
        let schema = entry.schema_tree();
        if schema.is_none() && !descriptions.arguments.is_empty() {
            return Err(not_found(format!(
                "compile-time schema of the arguments of {name:?} (a tool made at run time from JSON Schema): describe them in that schema"
            )));
        }
        let properties: Vec<&str> = match schema {
            Some(Schema::Object(object)) => object.properties.iter().map(|property| property.name).collect(),
            _ => Vec::new(),
        };
        if let Some((argument, _)) =
            descriptions.arguments.iter().find(|(argument, _)| !properties.contains(&argument.as_str()))
        {
            return Err(not_found(format!("argument {argument:?} of tool {name:?}; its arguments are {properties:?}")));
        }
        let described = Described { descriptions, schema, texts: OnceLock::new() };
        let entry = self.entries[position].clone().described(Arc::new(described));
        self.entries[position] = entry;
        Ok(self)
    }
}

impl Entry {
    /// The same entry with `described`'s descriptions.
    fn described(mut self, described: Arc<Described>) -> Entry {
        self.described = Some(described);
        self.definition_json =
            std::borrow::Cow::Owned(definition(&self.name, self.description(), self.parameters_json()));
        self
    }
}
