//! What MCP elicitation can ask a user for, as traits, so that `ctx.elicit::<T>()` with a
//! `T` MCP cannot show is refused by `cargo check` (and so by rust-analyzer) at the call,
//! naming the field type at fault: MCP's form is a flat object whose fields are strings,
//! numbers, integers, booleans, string enums, or lists of string enums (a multi-select).
//!
//! `#[derive(ToolArgs)]` implements [`ElicitForm`] for every struct, bounded on each field
//! type being an [`ElicitField`]. The bounds name the traits' marker parameter `M`, so the
//! compiler checks them where `elicit::<T>` asks, not at the struct's definition: a struct
//! with a nested one is a fine argument type that is simply never a form. What the traits
//! cannot see (a keyword the form has no room for, a text type whose `format` MCP does not
//! allow) is still refused when the program is built.

use std::borrow::Cow;
use std::collections::{BTreeSet, HashSet, VecDeque};
use std::num::{NonZeroU8, NonZeroU16, NonZeroU32, NonZeroU64, NonZeroUsize};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;

/// A struct MCP elicitation can ask for: every field an [`ElicitField`]. Derived by
/// `#[derive(ToolArgs)]` for structs with named fields; `M` is a marker that defers the
/// fields' check to the use (leave it out).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be an MCP elicitation form",
    label = "MCP asks the user for a flat object: a struct with named fields deriving `ToolArgs`",
    note = "a form's fields are strings, numbers, integers, booleans, string enums (unit-only enums deriving `ToolArgs`) or lists of those enums"
)]
pub trait ElicitForm<M = ()> {}

/// A field type an MCP elicitation form can hold: a string, number, integer, boolean, a
/// unit-only enum (a string enum), a list of one (a multi-select), or an `Option` of any of
/// these. `M` is a marker that defers the check to the use (leave it out).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a field of an MCP elicitation form",
    label = "MCP asks for strings, numbers, integers, booleans, string enums and lists of string enums",
    note = "a nested struct, a map, a list of anything but a unit-only enum, or an `Option` of a struct cannot be shown in a form: ask for it in its own `elicit` call, or make its parts fields of the form"
)]
pub trait ElicitField<M = ()> {}

/// A unit-only enum deriving `ToolArgs`: a string enum, which a list of can be a
/// multi-select.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a choice in an MCP elicitation form",
    label = "a list in a form is a multi-select of a unit-only enum deriving `ToolArgs`"
)]
pub trait ElicitChoice {}

macro_rules! fields {
    ($($ty:ty),* $(,)?) => {$(
        impl<M> ElicitField<M> for $ty {}
    )*};
}

fields!(bool, u8, u16, u32, u64, usize, i8, i16, i32, i64, isize, f32, f64, char);
fields!(NonZeroU8, NonZeroU16, NonZeroU32, NonZeroU64, NonZeroUsize);
fields!(String, str, &str, Cow<'_, str>, PathBuf);

impl<M, T: ElicitField<M>> ElicitField<M> for Option<T> {}
impl<M, T: ElicitField<M> + ?Sized> ElicitField<M> for Box<T> {}
impl<M, T: ElicitField<M> + ?Sized> ElicitField<M> for Arc<T> {}
impl<M, T: ElicitField<M> + ?Sized> ElicitField<M> for Rc<T> {}

impl<M, T: ElicitChoice> ElicitField<M> for Vec<T> {}
impl<M, T: ElicitChoice> ElicitField<M> for VecDeque<T> {}
impl<M, T: ElicitChoice> ElicitField<M> for BTreeSet<T> {}
impl<M, T: ElicitChoice, S> ElicitField<M> for HashSet<T, S> {}
impl<M, T: ElicitChoice, const N: usize> ElicitField<M> for [T; N] {}
