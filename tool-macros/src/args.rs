//! `#[derive(ToolArgs)]`: `expand` never fails (errors come out as `compile_error!` beside
//! stub impls); `try_expand` reads the input with darling, builds the model, and emits the
//! `ToolParam` impl (schema, validation, lenient decoding) and, for structs, `ToolArgs`.

use darling::FromDeriveInput;
use proc_macro2::TokenStream;
use quote::quote;
use syn::{DeriveInput, Generics};

use crate::attr::ArgsInput;
use crate::object::Object;
use crate::serde_attr;
use crate::util::{Doc, Result, const_checks, crate_path, wrap_in_const};

/// What the derive writes beside the schema.
#[derive(Clone, Copy)]
enum Derive<'a> {
    /// `ToolArgs`: the type's `Deserialize` too (a generic enum's excepted), unless
    /// `#[tool_args(serde)]`.
    Args,
    /// `ToolSchema`: the schema alone (an output type only serializes).
    Schema,
    /// A plain-parameter tool's hidden arguments struct, with its `Deserialize` impl.
    Plain(&'a TokenStream),
}

/// Expands `ToolArgs`; on error, the errors plus stub impls (see [`fallback`]).
pub fn expand(input: DeriveInput) -> TokenStream {
    let decodes = writes_deserialize(&input);
    try_expand(&input, Derive::Args).unwrap_or_else(|error| {
        let stub = decodes.then(|| deserialize_stub(&input));
        fallback(&input, error, stub.as_ref())
    })
}

/// Whether `ToolArgs` writes the type's `Deserialize`: a struct's, unless it borrows (a
/// lifetime parameter: serde's derive alone decodes borrowed data, and a tool's arguments
/// cannot borrow, which the tool reports); an enum's, unless it is generic; neither under
/// `#[tool_args(serde)]`.
fn writes_deserialize(input: &DeriveInput) -> bool {
    let opts_out = input.attrs.iter().filter(|attr| attr.path().is_ident("tool_args")).any(|attr| {
        let mut serde = false;
        let _ = attr.parse_nested_meta(|meta| {
            serde |= meta.path.is_ident("serde");
            if meta.input.peek(syn::Token![=]) {
                meta.value()?.parse::<syn::Expr>()?;
            }
            Ok(())
        });
        serde
    });
    let shape = match &input.data {
        syn::Data::Struct(_) => input.generics.lifetimes().next().is_none(),
        syn::Data::Enum(_) => input.generics.params.is_empty(),
        syn::Data::Union(_) => false,
    };
    shape && !opts_out
}

/// A `Deserialize` impl whose body is unreachable, for a type whose derive failed.
fn deserialize_stub(input: &DeriveInput) -> TokenStream {
    let ident = &input.ident;
    let (_, ty_generics, _) = input.generics.split_for_impl();
    let mut generics = input.generics.clone();
    generics.params.insert(0, syn::parse_quote!('de));
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #impl_generics __tc_Deserialize<'de> for #ident #ty_generics #where_clause {
            fn deserialize<__D: __tc_Deserializer<'de>>(_: __D) -> ::core::result::Result<Self, __D::Error> {
                ::core::unreachable!()
            }
        }
    }
}

/// Expands `ToolSchema`: [`expand`] without `Deserialize`.
pub fn expand_schema(input: DeriveInput) -> TokenStream {
    try_expand(&input, Derive::Schema).unwrap_or_else(|error| fallback(&input, error, None))
}

/// [`expand`] for the hidden arguments struct of a plain-parameter tool: its fields' types
/// are reached through `PlainParam` (see [`crate::param::Param::param_trait`]), and
/// `items` (its `Deserialize` impl) go inside the expansion's `const` block, where the short
/// names are in scope, whether the derive succeeds or not.
pub fn expand_plain(input: DeriveInput, items: &TokenStream) -> TokenStream {
    try_expand(&input, Derive::Plain(items)).unwrap_or_else(|error| fallback(&input, error, Some(items)))
}

/// Expands the derive, or returns every error found.
fn try_expand(input: &DeriveInput, derive: Derive<'_>) -> Result<TokenStream> {
    check_shape(input)?;
    let args = ArgsInput::from_derive_input(input)?;
    let krate = crate_path(args.krate.as_ref())?;
    let container = serde_attr::container(&args.attrs)?;
    let plain = match derive {
        Derive::Plain(items) => Some(items),
        Derive::Args | Derive::Schema => None,
    };
    let decodes = matches!(derive, Derive::Args) && !args.serde.is_present() && writes_deserialize(input);
    let description = Doc::from_attrs(&args.attrs);
    let items = match args.data {
        darling::ast::Data::Struct(fields) => {
            if args.enum_names.is_present() {
                return Err(darling::Error::custom("`enum_names` applies to a unit-only enum: it titles its values")
                    .with_span(&args.enum_names.span()));
            }
            if fields.style.is_tuple() {
                // `check_shape` let through only one unnamed field: a newtype.
                let Some(field) = fields.fields.first() else {
                    return Err(darling::Error::custom("expected one field"));
                };
                let mut items = crate::newtype::expand(&args.ident, &args.generics, field, description)?;
                if decodes {
                    items.extend(crate::decode::newtype(&args.ident, &args.generics, field)?);
                }
                return Ok(wrap_in_const(&krate, items));
            }
            // `check_shape` let only named fields or a newtype through.
            let deserialize = if decodes {
                // As serde's derive: its errors name the Rust type, `deserialize_struct` the
                // wire's.
                let target = crate::decode::Target {
                    ident: &args.ident,
                    generics: &args.generics,
                    expecting: container.expecting.clone().unwrap_or_else(|| format!("struct {}", args.ident)),
                    name: container.rename.clone().unwrap_or_else(|| args.ident.to_string()),
                    through: crate::decode::Through::Serde,
                    container_default: container.default,
                    deny_unknown_fields: container.deny_unknown_fields,
                };
                Some(crate::decode::for_struct(&target, &fields.fields, &container))
            } else {
                None
            };
            // The impl this derive writes fills `#[param(default = ..)]` (a plain tool's too).
            let fills_default = decodes || plain.is_some();
            let (mut object, read) =
                Object::read(fields.fields, description, container.rename_all, container.default, fills_default);
            object.open = args.open.is_present();
            for param in object.params.iter_mut().filter(|_| plain.is_some()) {
                param.reach = crate::param::Reach::PlainParam;
            }
            // The schema's errors first: a flattened map's, say, says more than "not decoded".
            if let Err(error) = read {
                let checks = wrap_in_const(&krate, object.type_checks(&args.ident, &args.generics));
                let stub = deserialize.is_some().then(|| deserialize_stub(input));
                let fallback = fallback(input, error, plain.or(stub.as_ref()));
                return Ok(quote!(#checks #fallback));
            }
            let deserialize = deserialize.transpose()?;
            let items = expand_struct(&args.ident, &args.generics, &object);
            quote!(#items #plain #deserialize)
        }
        darling::ast::Data::Enum(variants) => {
            if args.open.is_present() {
                return Err(darling::Error::custom(
                    "`open` applies to a struct: its object ignores keys it does not name",
                )
                .with_span(&args.open.span()));
            }
            crate::enums::expand(
                &args.ident,
                &args.generics,
                &container,
                description,
                variants,
                args.enum_names,
                decodes,
            )?
        }
    };
    Ok(wrap_in_const(&krate, items))
}

/// A tool's arguments are JSON objects, whose properties need names; a newtype stands for
/// its one field's value. Other tuple structs, unit structs and unions have no schema here.
fn check_shape(input: &DeriveInput) -> Result {
    let message = match &input.data {
        syn::Data::Struct(data) => match &data.fields {
            syn::Fields::Named(_) => return Ok(()),
            syn::Fields::Unnamed(fields) if fields.unnamed.len() == 1 => return Ok(()),
            syn::Fields::Unnamed(fields) => {
                return Err(darling::Error::custom(
                    "`ToolArgs` needs named fields, or exactly one for a newtype: a tool's arguments are a JSON object, whose properties need names; write `struct Args { name: Type, .. }`, or a tuple `(A, B)` field for a fixed-length array",
                )
                .with_span(fields));
            }
            syn::Fields::Unit => {
                "`ToolArgs` needs named fields: for a tool without arguments, write the fn without one"
            }
        },
        syn::Data::Enum(_) => return Ok(()),
        syn::Data::Union(_) => {
            "`ToolArgs` cannot be derived for a union: serde cannot deserialize one; use a struct or an enum"
        }
    };
    Err(darling::Error::custom(message).with_span(&input.ident))
}

fn expand_struct(ident: &syn::Ident, generics: &Generics, object: &Object) -> TokenStream {
    let generics = crate::util::bounded(generics);
    let (impl_generics, ty_generics, _) = generics.split_for_impl();
    let schema = object.schema();
    let (const_item, const_inline) = const_checks(&object.const_checks(), !generics.params.is_empty());
    let assertions = object.assertions();
    let fields = object.fields(&quote!(_tool_core::__private::object_schema(<Self as __tc_ToolParam>::__SCHEMA_REF)));
    // An open object's unknown keys must pass, which the exact fast path would refuse.
    let fast = if object.open { quote!(false) } else { object.fast() };
    let satisfies = object.satisfies();
    // The schema and `Fields` are constants, not statics: the compiler shares a constant
    // sub-tree (a keyword list, a property) with every identical one in the program, while a
    // static's memory is its own, so statics would add relocated data per tool for little
    // saved `const` validation.
    // No `Deserialize` bound: an output type (`Structured<T>`) only serializes; `ToolArgs`
    // comes from the blanket impl over `ToolObject + DeserializeOwned`.
    let args_where = &generics.where_clause;
    let elicit_form = crate::util::ELICIT.then(|| elicit_form(ident, &generics, object));
    quote! {
        #const_item

        #[automatically_derived]
        impl #impl_generics __tc_ToolParam for #ident #ty_generics #args_where {
            const SCHEMA: __tc_Schema = __tc_Schema::Object(&#schema);
            const SERDE_EXACT: bool = #fast;
            // Checked as data (the trait's `validate` and `coerce` run it): no checking code
            // per struct. The assertions stand here, where the fields' keywords are checked.
            const __CHECK: __tc_Check = {
                #assertions
                #const_inline
                __tc_Check::Object(&#fields)
            };

            fn satisfies(&self) -> bool {
                #satisfies
            }
        }

        #[automatically_derived]
        impl #impl_generics _tool_core::param::ToolObject for #ident #ty_generics #args_where {}

        #elicit_form
    }
}

/// `ElicitForm` for a struct, bounded on each field type being an `ElicitField`. The bounds
/// name the trait's marker parameter, so the compiler checks them only where `elicit::<T>`
/// asks: a struct with a nested one still compiles, and is simply never a form.
fn elicit_form(ident: &syn::Ident, generics: &Generics, object: &Object) -> TokenStream {
    let (_, ty_generics, _) = generics.split_for_impl();
    let mut marked = generics.clone();
    marked.params.push(syn::parse_quote!(__TcM));
    let clause = marked.make_where_clause();
    for param in &object.params {
        let ty = param.schema_ty();
        clause.predicates.push(syn::parse_quote!(#ty: _tool_core::param::ElicitField<__TcM>));
    }
    let (impl_generics, _, where_clause) = marked.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #impl_generics _tool_core::param::ElicitForm<__TcM> for #ident #ty_generics #where_clause {}
    }
}

/// The errors, plus impls whose bodies are unreachable, so that a mistake in the attributes
/// does not also bring "`WeatherArgs` does not implement `ToolArgs`" wherever the type is
/// used (thiserror's `fallback.rs`, clap's `dummies.rs`).
fn fallback(input: &DeriveInput, error: darling::Error, plain: Option<&TokenStream>) -> TokenStream {
    let errors = error.write_errors();
    let ident = &input.ident;
    let krate = quote!(::tool_core);
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let stubs = quote! {
        #[automatically_derived]
        impl #impl_generics __tc_ToolParam for #ident #ty_generics #where_clause {
            const SCHEMA: __tc_Schema = __tc_Schema::Any;
            fn validate(
                _: &mut _tool_core::__private::serde_json::Value,
                _: &mut _tool_core::Pointer,
                _: &mut _tool_core::Violations,
            ) {
                ::core::unreachable!()
            }
        }
    };
    let args_stub = matches!(&input.data, syn::Data::Struct(data) if matches!(data.fields, syn::Fields::Named(_)))
        .then(|| {
            quote! {
                #[automatically_derived]
                impl #impl_generics _tool_core::param::ToolObject for #ident #ty_generics #where_clause {}
            }
        });
    let stubs = wrap_in_const(&krate, quote!(#stubs #args_stub #plain));
    quote!(#errors #stubs)
}
