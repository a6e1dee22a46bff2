//! Writing a [`Schema`] tree as JSON text, in each [`Dialect`]: [`json_schema`] for a type,
//! [`to_json`] for a tree. The tree is built at compile time; its text is written at run
//! time, on first use, and tools keep theirs.

pub(crate) mod dialect;
pub(crate) mod json_text;
mod writer;

use writer::Writer;
pub(crate) use writer::has_properties;

use crate::param::ToolParam;
pub use crate::render::dialect::Dialect;
use crate::schema::Schema;

/// The JSON Schema of `T`, written from its compile-time tree (a `#[tool]` keeps its own
/// as [`ToolDef::parameters_json`](crate::ToolDef::parameters_json)).
#[must_use]
pub fn json_schema<T: ToolParam + ?Sized>() -> String {
    to_json(&T::SCHEMA)
}

/// Renders `schema` as JSON Schema. Walks the constant tree, not types. It states every rule
/// dispatch enforces, the integer types' full ranges included (`"maximum":18446744073709551615`
/// for a `u64`), so a validator outside this crate accepts exactly what dispatch accepts. One
/// kind of rule no schema states: a text form described rather than named by a `format` (a
/// socket address, a semantic version) is its type's parser's to decide.
#[must_use]
pub fn to_json(schema: &Schema) -> String {
    to_json_in(schema, Dialect::JsonSchema)
}

/// [`to_json_in`] with the root object's properties named in `arguments` described by
/// the text there (descriptions set at run time).
pub(crate) fn to_json_described(schema: &Schema, dialect: Dialect, arguments: &[(String, String)]) -> String {
    let mut writer = Writer::new(dialect).with_arguments(arguments);
    writer.schema(schema, &[], false);
    writer.finish()
}

/// [`to_json`] of an output: every object closed, `#[tool_args(open)]` ones too. Open is how
/// a type reads input (keys it does not name are ignored); what a tool sends is its own
/// fields alone, so its output schema says so (MCP `outputSchema`).
#[must_use]
pub fn to_json_output(schema: &Schema) -> String {
    let mut writer = Writer::new(Dialect::JsonSchema).closing_every_object();
    writer.schema(schema, &[], false);
    writer.finish()
}

/// A tool's definition, `{"name":…,"description":…,"parameters":…}`, with its parameters
/// (`schema` as JSON Schema) written in place: the text, and where the parameters start in it
/// (they end before its last byte). One text rather than the parameters' and a copy of them
/// in the definition: a first listing's cost is mostly the memory it touches.
pub(crate) fn definition_in_place(name: &str, description: &str, schema: &Schema) -> (Box<str>, usize) {
    // Most definitions fit: the buffer is shrunk to the text, its tail left to the next one.
    let mut out = String::with_capacity(2048);
    json_text::definition_head(&mut out, name, description);
    let start = out.len();
    let mut writer = Writer::new(Dialect::JsonSchema).with_buffer(out);
    writer.schema(schema, &[], false);
    let mut out = writer.finish();
    out.push('}');
    (out.into_boxed_str(), start)
}

/// [`to_json`] in a given dialect.
#[must_use]
pub fn to_json_in(schema: &Schema, dialect: Dialect) -> String {
    let mut writer = Writer::new(dialect);
    writer.schema(schema, &[], false);
    writer.finish()
}
