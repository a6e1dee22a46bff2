//! A tool fn's parameters, read into [`Inputs`]: the receiver (`&self` in a `#[tools]`
//! block), `ctx: &ToolContext`, and the arguments in one of two forms: one struct deriving
//! `ToolArgs`, or plain parameters, for which `plain.rs` writes that struct (hidden, named
//! after the tool) so that both forms go through the same derive.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::{Attribute, FnArg, Pat, Signature, Type};

use crate::plain::{Plain, PlainParam};

/// What a tool fn takes.
pub struct Inputs {
    /// Whether it takes `ctx: &ToolContext` first.
    pub takes_context: bool,
    /// Its arguments.
    pub args: Args,
}

/// A tool's arguments, in the form the fn takes them.
pub enum Args {
    /// None.
    None,
    /// One struct deriving `ToolArgs`.
    Struct(Box<Type>),
    /// Plain parameters, each a property of the arguments object.
    Plain(Plain),
}

/// Where a tool fn is written: a free fn, or a method of a `#[tools]` block.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A free fn.
    Free,
    /// A method of a `#[tools]` block.
    Method,
}

/// Types that have a `ToolParam` impl in tool-core and a name that starts with a capital:
/// a lone parameter of one of these is a plain parameter, not an argument struct.
const PARAM_TYPES: &[&str] = &[
    "String",
    "PathBuf",
    "Value",
    "NonZeroU8",
    "NonZeroU16",
    "NonZeroU32",
    "NonZeroU64",
    "NonZeroUsize",
    "IpAddr",
    "Ipv4Addr",
    "Ipv6Addr",
    "SocketAddr",
    "SocketAddrV4",
    "SocketAddrV6",
    "Date",
    "DateTime",
    "Decimal",
    "NaiveDate",
    "NaiveDateTime",
    "NaiveTime",
    "OffsetDateTime",
    "PrimitiveDateTime",
    "Time",
    "Timestamp",
    "Url",
    "Uuid",
    "Version",
    "VersionReq",
];

impl Inputs {
    /// Reads `sig`'s parameters, taking the `#[param]` and `#[serde]` attributes off them
    /// (they are the arguments struct's, and not allowed on a fn's parameters).
    pub fn read(sig: &mut Signature, place: Place, errors: &mut darling::error::Accumulator) -> Inputs {
        let mut receiver = false;
        let mut takes_context = false;
        let mut typed = Vec::new();
        for (position, input) in sig.inputs.iter_mut().enumerate() {
            match input {
                FnArg::Receiver(taken) => {
                    receiver = true;
                    check_receiver(taken, place, errors);
                }
                FnArg::Typed(param) if is_context(&param.ty) => {
                    if position != usize::from(receiver) || takes_context {
                        errors.push(
                            darling::Error::custom("`ctx: &ToolContext` must be the first parameter of a `#[tool]` fn")
                                .with_span(&param.ty),
                        );
                    }
                    takes_context = true;
                }
                FnArg::Typed(param) => {
                    let (moved, kept) = param.attrs.drain(..).partition(is_ours);
                    param.attrs = kept;
                    typed.push((param.pat.clone(), param.ty.clone(), moved));
                }
            }
        }
        if place == Place::Method && !receiver {
            errors.push(
                darling::Error::custom(
                    "a `#[tool]` in a `#[tools]` block takes `&self`; a tool without `self` is a free `#[tool]` fn outside the `impl`",
                )
                .with_span(&sig.ident),
            );
        }
        let args = match typed.as_slice() {
            [] => Args::None,
            [(_, ty, attrs)] if attrs.is_empty() && is_struct_like(ty) => {
                if let Some(span) = borrowed(&ty.to_token_stream()) {
                    errors.push(borrow_error(span));
                }
                Args::Struct(ty.clone())
            }
            _ => {
                let mut params = Vec::with_capacity(typed.len());
                for (pat, ty, attrs) in typed {
                    if let Some(span) = borrowed(&ty.to_token_stream()) {
                        errors.push(borrow_error(span));
                    }
                    match *pat {
                        Pat::Ident(pat) if pat.by_ref.is_none() && pat.subpat.is_none() => {
                            params.push(PlainParam { ident: pat.ident, ty: *ty, attrs });
                        }
                        pat => errors.push(
                            darling::Error::custom(
                                "a tool's parameter needs a name, which is its property's: write `name: Type`",
                            )
                            .with_span(&pat),
                        ),
                    }
                }
                Args::Plain(Plain { params })
            }
        };
        Inputs { takes_context, args }
    }
}

/// `#[param(..)]` and `#[serde(..)]`: the attributes that belong to the arguments struct.
fn is_ours(attr: &Attribute) -> bool {
    attr.path().is_ident("param") || attr.path().is_ident("serde")
}

/// `&ToolContext` (or `&tool_core::ToolContext`): the one reference a tool fn takes.
fn is_context(ty: &Type) -> bool {
    match ty {
        Type::Reference(reference) => match &*reference.elem {
            Type::Path(path) => path.path.segments.last().is_some_and(|segment| segment.ident == "ToolContext"),
            _ => false,
        },
        _ => false,
    }
}

/// Whether a lone parameter's type reads as an argument struct: a plain path to a
/// capitalised name that is not one of tool-core's parameter types. Anything else (a
/// primitive, a generic such as `Option<T>` or `Vec<T>`, a tuple) is a plain parameter,
/// and `#[param]` on the parameter makes any type one.
fn is_struct_like(ty: &Type) -> bool {
    let Type::Path(path) = ty else { return false };
    let Some(last) = path.path.segments.last() else { return false };
    let name = last.ident.to_string();
    path.qself.is_none()
        && last.arguments.is_none()
        && name.starts_with(|c: char| c.is_ascii_uppercase())
        && !PARAM_TYPES.contains(&name.as_str())
}

fn check_receiver(receiver: &syn::Receiver, place: Place, errors: &mut darling::error::Accumulator) {
    if place == Place::Free {
        errors.push(
            darling::Error::custom(
                "`#[tool]` on a method needs `#[tools]` on its `impl` block, which adds the block's tools to a registry with their receiver: `#[tools] impl Server { .. }`, then `registry.add_all(server)`",
            )
            .with_span(receiver),
        );
    } else if !matches!(receiver.kind, syn::ReceiverKind::Reference(_, _, None)) {
        errors.push(
            darling::Error::custom(
                "a tool method takes `&self`: its calls run concurrently on one shared value; keep what changes behind a `Mutex` or an atomic",
            )
            .with_span(receiver),
        );
    }
}

fn borrow_error(span: Span) -> darling::Error {
    darling::Error::custom(
        "a tool's arguments cannot borrow: they are decoded from a JSON text that is gone when the tool runs; use owned types (`String` rather than `&str`, `Vec<T>` rather than `&[T]`) and drop the lifetime",
    )
    .with_span(&span)
}

/// The span of the first lifetime or reference in `tokens`, if any.
fn borrowed(tokens: &TokenStream) -> Option<Span> {
    tokens.clone().into_iter().find_map(|tree| match tree {
        proc_macro2::TokenTree::Punct(p) if matches!(p.as_char(), '\'' | '&') => Some(p.span()),
        proc_macro2::TokenTree::Group(group) => borrowed(&group.stream()),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lone_capitalised_path_is_an_argument_struct() {
        let ty = |text: &str| syn::parse_str::<Type>(text).unwrap();
        assert!(is_struct_like(&ty("WeatherArgs")));
        assert!(is_struct_like(&ty("crate::args::WeatherArgs")));
        for plain in ["i32", "String", "Option<String>", "Vec<u8>", "(u8, u8)", "uuid::Uuid", "PathBuf"] {
            assert!(!is_struct_like(&ty(plain)), "{plain}");
        }
    }

    #[test]
    fn the_context_is_a_reference_to_tool_context() {
        let ty = |text: &str| syn::parse_str::<Type>(text).unwrap();
        assert!(is_context(&ty("&ToolContext")));
        assert!(is_context(&ty("&tool_core::ToolContext")));
        assert!(!is_context(&ty("&str")));
        assert!(!is_context(&ty("ToolContext")));
    }
}
