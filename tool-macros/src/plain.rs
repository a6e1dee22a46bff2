//! Plain parameters (`fn add(a: i32, #[param(minimum = 0)] b: u32)`): the hidden struct
//! [`Plain::args_struct`] writes for them (named after the tool, deriving what an argument
//! struct derives), its `Deserialize`, and the call's arguments moved out of it.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote};
use syn::{Attribute, Ident, Type};

use crate::decode::{Target, Through, Wire};
use crate::doc_args::ArgumentDoc;
use crate::util::unraw;

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

/// Whether `tokens` hold the identifier `ident`.
fn mentions(tokens: &TokenStream, ident: &Ident) -> bool {
    tokens.clone().into_iter().any(|tree| match tree {
        proc_macro2::TokenTree::Ident(found) => found == *ident,
        proc_macro2::TokenTree::Group(group) => mentions(&group.stream(), ident),
        _ => false,
    })
}
