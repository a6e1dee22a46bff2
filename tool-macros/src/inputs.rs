//! A tool fn's parameters, read into [`Inputs`]: the receiver (`&self` in a `#[tools]`
//! block), `ctx: &ToolContext`, and the arguments in one of two forms: one struct deriving
//! `ToolArgs`, or plain parameters, for which [`Plain::args_struct`] writes that struct
//! (hidden, named after the tool) so that both forms go through the same derive.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote};
use syn::{Attribute, FnArg, Ident, Pat, Signature, Type};

use crate::decode::{Target, Through, Wire};
use crate::doc_args::ArgumentDoc;
use crate::util::unraw;

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

/// Plain parameters: `fn add(a: i32, #[param(minimum = 0)] b: u32)`.
pub struct Plain {
    /// The parameters, in order.
    pub params: Vec<PlainParam>,
}

/// One plain parameter.
pub struct PlainParam {
    /// Its name: the property's, unless `#[serde(rename)]` says otherwise.
    pub ident: Ident,
    /// Its type.
    pub ty: Type,
    /// Its `#[param]` and `#[serde]` attributes, moved to the struct's field.
    pub attrs: Vec<Attribute>,
}

impl PlainParam {
    /// Its name on the wire: `#[serde(rename = "..")]`'s, else the parameter's own.
    pub fn wire_name(&self) -> String {
        let mut renamed = None;
        for attr in self.attrs.iter().filter(|attr| attr.path().is_ident("serde")) {
            // Malformed keys are the struct derive's to report, where they land.
            let _ = attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("rename") && meta.input.peek(syn::Token![=]) {
                    renamed = Some(meta.value()?.parse::<syn::LitStr>()?.value());
                } else if meta.input.peek(syn::Token![=]) {
                    meta.value()?.parse::<syn::Expr>()?;
                } else if meta.input.peek(syn::token::Paren) {
                    meta.parse_nested_meta(|inner| {
                        if inner.input.peek(syn::Token![=]) {
                            inner.value()?.parse::<syn::Expr>()?;
                        }
                        Ok(())
                    })?;
                }
                Ok(())
            });
        }
        renamed.unwrap_or_else(|| unraw(&self.ident))
    }
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

impl Plain {
    /// `__AddArgs` for `add` (`__TcAddArgs` if a parameter's type names that): the struct
    /// is declared beside the fn, where the parameters' types are resolved. It is not in
    /// the tool's `const` block: the compiler checks a struct and its derived impls at the
    /// module's level for less (`docs/performance.md`).
    pub fn struct_ident(&self, camel: &str, span: Span) -> Ident {
        let ident = format_ident!("__{}Args", camel, span = span);
        let clash = self.params.iter().any(|param| mentions(&param.ty.to_token_stream(), &ident));
        if clash { format_ident!("__Tc{}Args", camel, span = span) } else { ident }
    }

    /// The arguments struct and its impls: one field per parameter, with its attributes, and
    /// its description from the fn doc's `# Arguments` item unless `#[param(description)]` or
    /// nothing gives one; `ToolArgs` derived, and `Deserialize` written by `decode.rs`
    /// (derived by serde for a parameter with a key only serde follows). `docs` naming no
    /// parameter is an error.
    pub fn args_struct(
        &self,
        ident: &Ident,
        docs: &[ArgumentDoc],
        krate: (&TokenStream, Option<&syn::Path>),
        open: bool,
        errors: &mut darling::error::Accumulator,
    ) -> TokenStream {
        let (krate, krate_key) = krate;
        for doc in docs {
            if !self.params.iter().any(|param| unraw(&param.ident) == doc.name) {
                let names: Vec<String> = self.params.iter().map(|param| format!("`{}`", unraw(&param.ident))).collect();
                errors.push(
                    darling::Error::custom(format!(
                        "`# Arguments` names `{}`, which is not a parameter of this tool (it has {})",
                        doc.name,
                        names.join(", ")
                    ))
                    .with_span(&doc.span),
                );
            }
        }
        // The struct the derive reads is built as syn's tree, not written as tokens and
        // parsed back, a round trip that would cost every tool's `cargo check` more.
        let named = self
            .params
            .iter()
            .map(|param| {
                let PlainParam { ident, ty, attrs } = param;
                let doc = docs.iter().find(|doc| doc.name == unraw(ident));
                let attrs = doc.map(|doc| doc_attribute(&doc.text)).into_iter().chain(attrs.iter().cloned()).collect();
                syn::Field {
                    attrs,
                    vis: syn::Visibility::Inherited,
                    modifiers: syn::FieldModifiers::default(),
                    ident: Some(ident.clone()),
                    colon_token: Some(syn::Token![:](ident.span())),
                    ty: ty.clone(),
                    default: None,
                }
            })
            .collect();
        let mut attrs: Vec<Attribute> = Vec::new();
        if let Some(path) = krate_key {
            attrs.push(syn::parse_quote!(#[tool_args(crate = #path)]));
        }
        if open {
            attrs.push(syn::parse_quote!(#[tool_args(open)]));
        }
        let serde_path = format!("{krate}::__private::serde").replace(' ', "");
        // The `ToolArgs` derive is called here rather than named in `#[derive]`: the struct's
        // tokens are not handed to the compiler and back once more per tool.
        let derive_input = syn::DeriveInput {
            attrs,
            vis: syn::Visibility::Inherited,
            ident: ident.clone(),
            generics: syn::Generics::default(),
            data: syn::Data::Struct(syn::DataStruct {
                struct_token: syn::Token![struct](ident.span()),
                fields: syn::Fields::Named(syn::FieldsNamed { brace_token: syn::token::Brace::default(), named }),
                semi_token: None,
            }),
        };
        // The struct's `Deserialize` is written here (see `decode.rs`), unless a parameter
        // takes a serde key only serde's derive follows.
        let wires: Option<Vec<Wire>> =
            self.params.iter().map(|param| Wire::read(&param.ident, &param.attrs, None).ok()).collect();
        let Some(wires) = wires else {
            let tool_args = crate::args::expand_schema(derive_input);
            let declared = self.params.iter().map(|param| {
                let PlainParam { ident, ty, attrs } = param;
                let serde = attrs.iter().filter(|attr| attr.path().is_ident("serde"));
                quote!(#(#serde)* #ident: #ty)
            });
            return quote! {
                #[doc(hidden)]
                #[allow(non_snake_case, reason = "the fields are the fn's parameters, linted where they are written")]
                #[derive(#krate::__private::serde::Deserialize)]
                #[serde(crate = #serde_path)]
                struct #ident {
                    #(#declared,)*
                }
                #tool_args
            };
        };
        let fields: Vec<(&Ident, &Type, Wire)> =
            self.params.iter().zip(wires).map(|(param, wire)| (&param.ident, &param.ty, wire)).collect();
        let target = Target {
            ident,
            generics: &syn::Generics::default(),
            expecting: "an object of the tool's arguments".to_owned(),
            name: ident.to_string(),
            through: Through::Plain,
            container_default: false,
            deny_unknown_fields: false,
        };
        let deserialize = crate::decode::expand(&target, &fields);
        let tool_args = crate::args::expand_plain(derive_input, &deserialize);
        let declared = self.params.iter().map(|PlainParam { ident, ty, .. }| quote!(#ident: #ty));
        quote! {
            #[doc(hidden)]
            #[allow(non_snake_case, reason = "the fields are the fn's parameters, linted where they are written")]
            struct #ident {
                #(#declared,)*
            }
            #tool_args
        }
    }

    /// `__tool_args.a, __tool_args.b`: the call's arguments, moved out of the struct.
    pub fn call_args(&self) -> TokenStream {
        let names = self.params.iter().map(|param| &param.ident);
        quote!(#(__tool_args.#names),*)
    }
}

/// `#[doc = "text"]`, the attribute a `///` line is.
fn doc_attribute(text: &str) -> Attribute {
    let span = Span::call_site();
    let value = syn::Expr::Lit(syn::ExprLit { attrs: Vec::new(), lit: syn::Lit::Str(syn::LitStr::new(text, span)) });
    Attribute {
        pound_token: syn::Token![#](span),
        style: syn::AttrStyle::Outer,
        bracket_token: syn::token::Bracket::default(),
        meta: syn::Meta::NameValue(syn::MetaNameValue {
            path: Ident::new("doc", span).into(),
            eq_token: syn::Token![=](span),
            value,
        }),
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

/// Whether `tokens` hold the identifier `ident`.
fn mentions(tokens: &TokenStream, ident: &Ident) -> bool {
    tokens.clone().into_iter().any(|tree| match tree {
        proc_macro2::TokenTree::Ident(found) => found == *ident,
        proc_macro2::TokenTree::Group(group) => mentions(&group.stream(), ident),
        _ => false,
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
