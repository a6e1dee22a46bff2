//! The checks a [`Param`]'s keywords emit into generated code: whether the fast path may
//! decode the field with serde ([`Param::fast_compatible`]) and the typed checks it then runs
//! on the decoded value ([`Param::satisfies`]), the trait assertions that make a keyword on a
//! type it does not fit fail at the keyword ([`Param::assertions`]), and the `assert!`s that
//! hold in const evaluation ([`Param::const_checks`]).

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};

use crate::keyword::{Fit, Key};
use crate::literal::{JsonLit, JsonValue, Num, NumValue};
use crate::param::Param;
use crate::param_keywords::KeyValue;

impl Param {
    /// The schema type's tokens, re-spanned to `span`, so a failed bound points at the keyword.
    fn ty_at(&self, span: Span) -> TokenStream {
        respan(self.schema_ty(), span)
    }

    /// Whether the fast path may decode this field with serde and check it typed: not for
    /// keywords serde's decoding loses (`unique_items` on a `Vec`) or that compare arrays.
    pub fn fast_compatible(&self) -> bool {
        let keywords = &self.field.keywords;
        let unique = keywords.flag(Key::UniqueItems).is_some_and(|unique| **unique);
        let array_enum = keywords
            .json(Key::Enum)
            .is_some_and(|e| matches!(&e.value, JsonValue::Array(items) if items.iter().any(|i| matches!(i.value, JsonValue::Array(_)))));
        // A stand-in type (`as`) checks the JSON; the field's own type has no typed checks.
        // Keywords on elements and map sizes are checked on the JSON only.
        let json_only = keywords.get(Key::Items).is_some()
            || keywords.get(Key::Values).is_some()
            || self.field.property_counts().next().is_some();
        !self.flatten && !unique && !array_enum && !json_only && self.field.as_type.is_none()
    }

    /// A `bool` expression: whether the decoded field (`&self.field`) satisfies every
    /// keyword, and the keywords nested in its type.
    ///
    /// Each call names the field type and is spanned at its keyword, so a keyword on a type
    /// it does not fit (`minimum` on a `String`) fails here, at the keyword, with the marker
    /// trait's message.
    pub fn satisfies(&self) -> TokenStream {
        self.field.ident.as_ref().map_or_else(|| quote!(true), |ident| self.satisfies_at(&quote!(&self.#ident)))
    }

    /// [`Param::satisfies`] of the value `value` (a `&FieldType` expression).
    pub fn satisfies_at(&self, value: &TokenStream) -> TokenStream {
        let f = &self.field;
        let ty = &f.ty;
        if f.as_type.is_some() {
            // Never consulted (the field is not `fast_compatible`); `assertions` checks the
            // keywords against the stand-in type.
            return quote!(true);
        }
        let call = |function: TokenStream, span: Span, rest: TokenStream| {
            let ty = self.ty_at(span);
            quote_spanned!(span=> #function::<#ty>(#value, #rest))
        };
        let through = self.reach(ty);
        let mut checks = vec![quote!(#through::satisfies(#value))];
        // Counting characters is the costly part of a length check: count once for both.
        let both_lengths = match (f.keywords.count(Key::MinLength), f.keywords.count(Key::MaxLength)) {
            (Some(min), Some(max)) => {
                let (low, high) = (min.value, max.value);
                let between = quote_spanned!(min.span=> __tc_satisfies::length_between);
                checks.push(call(between, min.span, quote!(#low, #high)));
                true
            }
            _ => false,
        };
        for (key, value) in f.keywords.iter() {
            let span = value.span();
            let Some(function) = key.typed_check(span) else { continue };
            let argument = match value {
                KeyValue::Count(_) if both_lengths && matches!(key, Key::MinLength | Key::MaxLength) => continue,
                KeyValue::Count(count) => {
                    let n = count.value;
                    quote!(#n)
                }
                KeyValue::Number(num) => bound_tokens(num),
                KeyValue::Text(pattern) if key == Key::Pattern => {
                    let source = pattern.as_str();
                    let check = call(function, span, quote!(&__TOOL_PATTERN));
                    checks.push(quote!({
                        static __TOOL_PATTERN: _tool_core::__private::Pattern = _tool_core::__private::Pattern::new(#source);
                        #check
                    }));
                    continue;
                }
                KeyValue::Text(text) => {
                    let text = text.as_str();
                    quote!(#text)
                }
                KeyValue::Flag(_) | KeyValue::Json(_) | KeyValue::Nested(_) => continue,
            };
            checks.push(call(function, span, argument));
        }
        if let Some(JsonLit { value: JsonValue::Array(items), span }) = f.keywords.json(Key::Enum) {
            let function = match items.first().map(|item| &item.value) {
                Some(JsonValue::String(_)) => Some(quote!(enum_str)),
                Some(JsonValue::Number(_)) => Some(quote!(enum_number)),
                Some(JsonValue::Bool(_)) => Some(quote!(enum_bool)),
                _ => None, // arrays of arrays: never on the fast path (`fast_compatible`)
            };
            if let Some(function) = function {
                let check = call(quote_spanned!(*span=> __tc_satisfies::#function), *span, quote!(&__TOOL_ENUM));
                let values = items.iter().map(|item| item.typed(&quote!(__tc_Lit)));
                checks.push(quote!({
                    static __TOOL_ENUM: _tool_core::__private::EnumSet =
                        _tool_core::__private::EnumSet::new(&[#(#values),*]);
                    #check
                }));
            }
        }
        quote!(#(#checks)&&*)
    }

    /// Trait assertions spanned at the keywords `satisfies` does not already name the type
    /// for: those without a typed check (`unique_items`, map sizes, `items`, `values`), every
    /// keyword of a stand-in type (`as`), and `enum` and `default` values that need a float,
    /// a string or an array.
    pub fn assertions(&self) -> TokenStream {
        let f = &self.field;
        let mut out = Vec::new();
        let mut assert = |fit: Fit, span: Span| out.push(fit.assertion(span, &self.ty_at(span)));
        for (key, value) in f.keywords.iter() {
            let span = value.span();
            if let Some(fit) = key.spec().fits
                && (f.as_type.is_some() || key.typed_check(span).is_none())
            {
                assert(fit, span);
            }
        }
        if let Some(JsonLit { value: JsonValue::Array(items), .. }) = f.keywords.json(Key::Enum) {
            for item in items {
                match &item.value {
                    JsonValue::Number(NumValue::Float(x)) if x.fract() != 0.0 => assert(Fit::Float, item.span),
                    JsonValue::Array(_) => assert(Fit::Array, item.span),
                    _ => {}
                }
            }
        }
        if let Some(default) = f.keywords.json(Key::Default) {
            match &default.value {
                JsonValue::String(_) => assert(Fit::String, default.span),
                JsonValue::Number(NumValue::Float(x)) if x.fract() != 0.0 => assert(Fit::Float, default.span),
                JsonValue::Number(_) => assert(Fit::Number, default.span),
                JsonValue::Bool(_) => assert(Fit::Bool, default.span),
                JsonValue::Array(_) => assert(Fit::Array, default.span),
            }
        }
        for (_, _, element) in self.elements() {
            out.push(element.assertions());
        }
        quote!(#(#out)*)
    }

    /// `assert!`s that hold in const evaluation, each spanned at its keyword: a string
    /// `default` among an enum's values, a `default` only where the value may be absent, an
    /// integer bound inside the field type's range. The caller places them in a `const` item
    /// where it can, so `cargo check` reports them too.
    pub fn const_checks(&self) -> Vec<TokenStream> {
        let f = &self.field;
        let mut out = Vec::new();
        if let Some(default) = f.keywords.json(Key::Default) {
            let ty = self.ty_at(default.span);
            if let JsonValue::String(text) = &default.value {
                out.push(quote_spanned! {default.span=>
                    ::core::assert!(
                        _tool_core::__private::string_default_fits(<#ty as __tc_ToolParam>::__SCHEMA_REF, #text),
                        "`default` is not one of the enum's values"
                    )
                });
            }
            let has_default = self.has_default;
            out.push(quote_spanned! {default.span=>
                ::core::assert!(
                    <#ty as __tc_ToolParam>::OPTIONAL || #has_default,
                    "`default` describes a field that may be absent: make the field an `Option` or add `#[serde(default)]`"
                )
            });
        }
        // A primitive integer's range is known while expanding (`rules.rs`): no item needed.
        let known_range = crate::rules::primitive_integer_range(self.schema_ty()).is_some();
        for (key, num) in f.bounds().filter(|_| !known_range) {
            if let (NumValue::Int(n), false) = (num.value, key == Key::MultipleOf) {
                let ty = self.ty_at(num.span);
                let message = format!(
                    "`{} = {n}` is outside the range of the field's integer type, so it constrains nothing; check the bound or the type",
                    key.name()
                );
                out.push(quote_spanned! {num.span=>
                    ::core::assert!(
                        _tool_core::__private::integer_bound_fits(<#ty as __tc_ToolParam>::__SCHEMA_REF, #n),
                        #message
                    )
                });
            }
        }
        for (_, _, element) in self.elements() {
            out.extend(element.const_checks());
        }
        out
    }
}

/// A numeric keyword's value as a runtime `Bound`, exact for integers.
fn bound_tokens(num: &Num) -> TokenStream {
    match num.value {
        NumValue::Int(n) => quote!(_tool_core::__private::Bound::Int(#n)),
        NumValue::Float(x) => quote!(_tool_core::__private::Bound::Float(#x)),
    }
}

/// `tokens` with every span set to `span`.
fn respan(tokens: &impl quote::ToTokens, span: Span) -> TokenStream {
    quote::ToTokens::to_token_stream(tokens)
        .into_iter()
        .map(|mut tree| {
            if let proc_macro2::TokenTree::Group(group) = &tree {
                let mut inner = proc_macro2::Group::new(group.delimiter(), respan(&group.stream(), span));
                inner.set_span(span);
                tree = proc_macro2::TokenTree::Group(inner);
            } else {
                tree.set_span(span);
            }
            tree
        })
        .collect()
}
