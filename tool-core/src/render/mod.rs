//! Rendering a [`Schema`] tree to JSON text, in each [`Dialect`]. Tools render theirs on first use: rendering in `const`
//! evaluation made every build pay about 30 ms per tool for text written once.

pub(crate) mod dialect;
pub(crate) mod json_text;
pub(crate) mod strict;
mod writer;

use writer::Writer;

pub use crate::render::dialect::Dialect;
use crate::schema::Schema;

/// Renders `schema` as JSON Schema. Walks the constant tree, not types.
#[must_use]
pub fn to_json(schema: &Schema) -> String {
    to_json_in(schema, Dialect::JsonSchema)
}

/// [`to_json`] in a given dialect.
#[must_use]
pub fn to_json_in(schema: &Schema, dialect: Dialect) -> String {
    let mut writer = Writer::new(dialect);
    writer.schema(schema, &[], false);
    writer.finish()
}

/// [`to_json`] stating every rule dispatch enforces, the integer types' full ranges included
/// (`"maximum":18446744073709551615` for a `u64`), for a validator outside this crate that
/// must accept exactly what dispatch accepts. Models get [`to_json`], which leaves out the
/// bounds that only cost tokens. One kind of rule no schema states: a text form described
/// rather than named by a `format` (a socket address, a semantic version) is its type's
/// parser's to decide.
#[must_use]
pub fn to_json_exact(schema: &Schema) -> String {
    let mut writer = Writer::new(Dialect::JsonSchema).with_full_ranges();
    writer.schema(schema, &[], false);
    writer.finish()
}
