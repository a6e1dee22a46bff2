//! Rendering a [`Schema`] tree to JSON text during const evaluation.
//!
//! Every function here is a `const fn`, so `#[tool]` turns its arguments' schema into a
//! `&'static str` at compile time: a length pass sizes a byte array, a second pass fills it.
//! Each [`Dialect`] is rendered from the same tree.

mod writer;

use writer::Writer;

pub use crate::dialect::Dialect;
use crate::schema::Schema;

/// The length in bytes of [`parameters_in`]' output.
#[must_use]
pub const fn parameters_len_in(schema: &Schema, dialect: Dialect) -> usize {
    let mut writer = Writer::new(&mut [], dialect);
    writer.schema(schema, &[], false);
    writer.len()
}

/// `schema` rendered in `dialect`, into an array of [`parameters_len_in`] bytes.
///
/// # Panics
/// When `N` is not [`parameters_len_in`]; in a `const` that is a compile error, not a panic.
#[must_use]
pub const fn parameters_in<const N: usize>(schema: &Schema, dialect: Dialect) -> [u8; N] {
    let mut buf = [0u8; N];
    let mut writer = Writer::new(&mut buf, dialect);
    writer.schema(schema, &[], false);
    assert!(writer.len() == N, "parameters_len_in disagrees with parameters_in");
    buf
}

/// The length in bytes of [`parameters`]' output.
#[must_use]
pub const fn parameters_len(schema: &Schema) -> usize {
    parameters_len_in(schema, Dialect::JsonSchema)
}

/// `schema` rendered as JSON Schema, into an array of [`parameters_len`] bytes.
///
/// # Panics
/// When `N` is not [`parameters_len`]; in a `const` that is a compile error, not a panic.
#[must_use]
pub const fn parameters<const N: usize>(schema: &Schema) -> [u8; N] {
    parameters_in::<N>(schema, Dialect::JsonSchema)
}

/// The length in bytes of [`definition`]'s output.
#[must_use]
pub const fn definition_len(name: &str, description: &str, schema: &Schema) -> usize {
    let mut writer = Writer::new(&mut [], Dialect::JsonSchema);
    writer.definition(name, description, schema);
    writer.len()
}

/// A tool definition `{"name","description","parameters"}`, into [`definition_len`] bytes.
///
/// # Panics
/// When `N` is not [`definition_len`]; in a `const` that is a compile error, not a panic.
#[must_use]
pub const fn definition<const N: usize>(name: &str, description: &str, schema: &Schema) -> [u8; N] {
    let mut buf = [0u8; N];
    let mut writer = Writer::new(&mut buf, Dialect::JsonSchema);
    writer.definition(name, description, schema);
    assert!(writer.len() == N, "definition_len disagrees with definition");
    buf
}

/// The rendered bytes as text; they are UTF-8 by construction (escaped UTF-8 input).
///
/// # Panics
/// Never for rendered output; in a `const`, invalid UTF-8 would be a compile error.
#[must_use]
pub const fn utf8(bytes: &'static [u8]) -> &'static str {
    match core::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) => panic!("rendered schema is not UTF-8"),
    }
}

/// Renders `schema` to a `String` at run time, for schemas that no `#[tool]` rendered at
/// compile time (an argument type used on its own). Walks the constant tree, not types.
#[must_use]
pub fn to_json(schema: &Schema) -> String {
    to_json_in(schema, Dialect::JsonSchema)
}

/// [`to_json`] in a given dialect.
#[must_use]
pub fn to_json_in(schema: &Schema, dialect: Dialect) -> String {
    let mut buf = vec![0u8; parameters_len_in(schema, dialect)];
    Writer::new(&mut buf, dialect).schema(schema, &[], false);
    String::from_utf8(buf).unwrap_or_default()
}
