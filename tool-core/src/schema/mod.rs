//! JSON Schemas: the compile-time tree, and schemas known only at run time.
//!
//! Every [`ToolParam`](crate::ToolParam) type states its schema as an associated `const` of
//! type [`Schema`]; the derive composes a struct's schema from its fields' constants, so the
//! whole tree of a tool's arguments is one constant value with `'static` references, so
//! nothing walks Rust types at run time. [`crate::render`] writes the tree as JSON text at
//! run time, once per tool, and dispatch's validation reads it as data.
//!
//! A schema known only at run time is a `RuntimeSchema` (feature `runtime-schema`); one built
//! in code at run time (a tool from configuration) is a [`Spec`]. Both are
//! named here, where a reader looks for them; each is built in its own layer (the tree at the
//! crate's ground, the run-time validator beside dispatch's validation).

mod spec;
mod tree;

#[cfg(feature = "runtime-schema")]
pub use crate::validate::runtime::{RuntimeSchema, SchemaError};
pub use spec::Spec;
pub use tree::{
    AnyOf, Constrained, Keyword, KeywordKind, KeywordValue, Lit, ObjectSchema, ParsedForm, Property, Schema, StringEnum,
};
pub(crate) use tree::{has_keyword, nested_keywords};
