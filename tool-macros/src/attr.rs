//! The attributes our macros read, as darling receivers: `#[tool(..)]` ([`ToolAttr`]),
//! `#[tool_args(..)]` on the container ([`ArgsInput`]), `#[param(..)]` on fields
//! ([`ParamField`]), and the literal values their keys take ([`Num`], [`Count`], [`JsonLit`]).
//!
//! darling reports every unknown key (with "did you mean"), duplicate key and malformed
//! value at once; the meaning-level rules live in `check.rs`.

use darling::util::SpannedValue;
use darling::{FromDeriveInput, FromField, FromMeta, FromVariant};
use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, Generics, Ident, Lit, Type, UnOp};

use crate::keyword::Key;

/// `#[tool(name = "..", description = "..", crate = ::path)]`.
#[derive(Debug, Default, FromMeta)]
pub struct ToolAttr {
    /// The tool's name; defaults to the fn ident.
    pub name: Option<SpannedValue<String>>,
    /// The tool's description; defaults to the fn's doc comment.
    pub description: Option<SpannedValue<String>>,
    /// Where `tool_core` is, when it is re-exported under another path.
    #[darling(rename = "crate")]
    pub krate: Option<syn::Path>,
    /// `strict` or `strict = false`: whether providers' strict modes are used for this tool,
    /// over the registry's default.
    pub strict: Option<SpannedValue<bool>>,
    /// A human-readable name (MCP `title`).
    pub title: Option<String>,
    /// MCP `readOnlyHint`.
    pub read_only: Option<bool>,
    /// MCP `destructiveHint`.
    pub destructive: Option<bool>,
    /// MCP `idempotentHint`.
    pub idempotent: Option<bool>,
    /// MCP `openWorldHint`.
    pub open_world: Option<bool>,
    /// `sequential`: a batch of calls holding this tool runs one call at a time (an agent
    /// loop runs the calls of one turn concurrently otherwise).
    pub sequential: darling::util::Flag,
    /// `requires_approval`: an agent loop asks its approver before every call.
    pub requires_approval: darling::util::Flag,
    /// `group = ".."`: the group `Registry::collect_group` selects the tool by.
    pub group: Option<SpannedValue<String>>,
}

/// The item `#[derive(ToolArgs)]` is on.
#[derive(Debug, FromDeriveInput)]
#[darling(attributes(tool_args), forward_attrs(doc, serde))]
pub struct ArgsInput {
    /// The type's name.
    pub ident: Ident,
    /// The type's generics.
    pub generics: Generics,
    /// The fields of a struct, or the variants of an enum; each is read on its own, so a
    /// mistake in one does not hide the mistakes in the others.
    pub data: darling::ast::Data<syn::Variant, syn::Field>,
    /// `///` and `#[serde]` attributes.
    pub attrs: Vec<Attribute>,
    /// `#[tool_args(crate = ::path)]`: where `tool_core` is.
    #[darling(rename = "crate")]
    pub krate: Option<syn::Path>,
    /// `#[tool_args(enum_names)]` on a unit-only enum: its variant titles go into MCP
    /// elicitation forms as the deprecated `enumNames`, for clients before SEP-1330.
    pub enum_names: darling::util::Flag,
}

/// One variant of an enum deriving `ToolArgs`.
#[derive(Debug, FromVariant)]
#[darling(attributes(param), forward_attrs(doc, serde))]
pub struct VariantInput {
    /// The variant's name.
    pub ident: Ident,
    /// Its fields: none (unit), one unnamed (newtype) or named (struct variant).
    pub fields: darling::ast::Fields<syn::Field>,
    /// `///` and `#[serde]` attributes.
    pub attrs: Vec<Attribute>,
    /// `#[param(description = "..")]`: overrides the doc comment.
    pub description: Option<SpannedValue<String>>,
}

/// One field and its `#[param(..)]` keywords.
#[derive(Debug, FromField)]
#[darling(attributes(param), forward_attrs(doc, serde))]
pub struct ParamField {
    /// The field's name (`None` in a newtype variant).
    pub ident: Option<Ident>,
    /// The field's type.
    pub ty: Type,
    /// `///` and `#[serde]` attributes.
    pub attrs: Vec<Attribute>,
    // #[param(description = "City name")]
    /// Overrides the doc comment.
    pub description: Option<SpannedValue<String>>,
    // #[param(minimum = 1)]
    /// `minimum`.
    pub minimum: Option<Num>,
    /// `maximum`.
    pub maximum: Option<Num>,
    /// `exclusiveMinimum`.
    pub exclusive_minimum: Option<Num>,
    /// `exclusiveMaximum`.
    pub exclusive_maximum: Option<Num>,
    /// `multipleOf`.
    pub multiple_of: Option<Num>,
    // #[param(min_length = 1)]
    /// `minLength`.
    pub min_length: Option<Count>,
    /// `maxLength`.
    pub max_length: Option<Count>,
    // #[param(pattern = "^[a-z]+$")]
    /// `pattern`.
    pub pattern: Option<SpannedValue<String>>,
    // #[param(enum = ["celsius", "fahrenheit"])]
    /// `enum`.
    #[darling(rename = "enum")]
    pub enum_values: Option<JsonLit>,
    // #[param(min_items = 1)]
    /// `minItems`.
    pub min_items: Option<Count>,
    /// `maxItems`.
    pub max_items: Option<Count>,
    // #[param(unique_items)] or #[param(unique_items = true)]
    /// `uniqueItems`.
    pub unique_items: Option<SpannedValue<bool>>,
    // #[param(default = 5)]
    /// `default`.
    pub default: Option<JsonLit>,
    // #[param(format = "email")]
    /// `format`.
    pub format: Option<SpannedValue<String>>,
    // #[param(examples = ["Paris", "Tokyo"])]
    /// `examples`.
    pub examples: Option<JsonLit>,
    // #[param(as = String)]
    /// `as = Type`: the schema and validation of `Type` stand for the field's own type, whose
    /// serde form they describe (a foreign type, or one read `#[serde(with = ..)]`).
    #[darling(rename = "as")]
    pub as_type: Option<SpannedValue<Type>>,
    // #[param(items(max_length = 32))]
    /// Keywords on every element of a sequence.
    pub items: Option<SpannedValue<ElementKeywords>>,
    // #[param(values(minimum = 0))]
    /// Keywords on every value of a map.
    pub values: Option<SpannedValue<ElementKeywords>>,
    // #[param(min_properties = 1)]
    /// `minProperties`.
    pub min_properties: Option<Count>,
    /// `maxProperties`.
    pub max_properties: Option<Count>,
}

/// The keywords `items(..)` and `values(..)` take: those that describe one value.
#[derive(Debug, Clone, FromMeta)]
pub struct ElementKeywords {
    /// `description`.
    pub description: Option<SpannedValue<String>>,
    /// `minimum`.
    pub minimum: Option<Num>,
    /// `maximum`.
    pub maximum: Option<Num>,
    /// `exclusiveMinimum`.
    pub exclusive_minimum: Option<Num>,
    /// `exclusiveMaximum`.
    pub exclusive_maximum: Option<Num>,
    /// `multipleOf`.
    pub multiple_of: Option<Num>,
    /// `minLength`.
    pub min_length: Option<Count>,
    /// `maxLength`.
    pub max_length: Option<Count>,
    /// `pattern`.
    pub pattern: Option<SpannedValue<String>>,
    /// `enum`.
    #[darling(rename = "enum")]
    pub enum_values: Option<JsonLit>,
    /// `minItems` (of nested sequences).
    pub min_items: Option<Count>,
    /// `maxItems`.
    pub max_items: Option<Count>,
    /// `uniqueItems`.
    pub unique_items: Option<SpannedValue<bool>>,
    /// `format`.
    pub format: Option<SpannedValue<String>>,
}

/// Which elements `items(..)` or `values(..)` constrain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Element {
    /// A sequence's elements.
    Items,
    /// A map's values.
    Values,
}

impl ParamField {
    /// Reads a field's `#[param(..)]`, taking `as = Type<..>` without quotes: syn reads a
    /// key's value as an expression, where `Option<String>` is a chained comparison, so the
    /// type's tokens are handed to darling as a string first.
    pub fn read(field: &syn::Field) -> darling::Result<ParamField> {
        let mut field = field.clone();
        for attr in &mut field.attrs {
            if let syn::Meta::List(list) = &mut attr.meta
                && list.path.is_ident("param")
            {
                list.tokens = quote_stand_in(std::mem::take(&mut list.tokens));
            }
        }
        ParamField::from_field(&field)
    }

    /// The keywords on the elements (`items(..)`) or values (`values(..)`), as a field of
    /// the element type (`<Vec<String> as ArrayParam>::Item`), with the span of the key.
    pub fn element(&self, which: Element) -> Option<(Span, ParamField)> {
        let keywords = match which {
            Element::Items => self.items.as_ref()?,
            Element::Values => self.values.as_ref()?,
        };
        let parent = self.as_type.as_deref().unwrap_or(&self.ty);
        let projection: Type = match which {
            Element::Items => syn::parse_quote!(<#parent as _tool_core::ArrayParam>::Item),
            Element::Values => syn::parse_quote!(<#parent as _tool_core::MapParam>::Value),
        };
        let k = (**keywords).clone();
        let field = ParamField {
            ident: None,
            ty: projection.clone(),
            attrs: Vec::new(),
            description: k.description,
            minimum: k.minimum,
            maximum: k.maximum,
            exclusive_minimum: k.exclusive_minimum,
            exclusive_maximum: k.exclusive_maximum,
            multiple_of: k.multiple_of,
            min_length: k.min_length,
            max_length: k.max_length,
            pattern: k.pattern,
            enum_values: k.enum_values,
            min_items: k.min_items,
            max_items: k.max_items,
            unique_items: k.unique_items,
            default: None,
            format: k.format,
            examples: None,
            as_type: Some(SpannedValue::new(projection, keywords.span())),
            items: None,
            values: None,
            min_properties: None,
            max_properties: None,
        };
        Some((keywords.span(), field))
    }

    /// The map size keywords that are set.
    pub fn property_counts(&self) -> impl Iterator<Item = (Key, Count)> {
        [(Key::MinProperties, self.min_properties), (Key::MaxProperties, self.max_properties)]
            .into_iter()
            .filter_map(|(key, count)| Some((key, count?)))
    }

    /// The numeric keywords that are set.
    pub fn bounds(&self) -> impl Iterator<Item = (Key, &Num)> {
        [
            (Key::Minimum, &self.minimum),
            (Key::Maximum, &self.maximum),
            (Key::ExclusiveMinimum, &self.exclusive_minimum),
            (Key::ExclusiveMaximum, &self.exclusive_maximum),
            (Key::MultipleOf, &self.multiple_of),
        ]
        .into_iter()
        .filter_map(|(key, num)| Some((key, num.as_ref()?)))
    }

    /// The string length keywords that are set.
    pub fn lengths(&self) -> impl Iterator<Item = (Key, Count)> {
        [(Key::MinLength, self.min_length), (Key::MaxLength, self.max_length)]
            .into_iter()
            .filter_map(|(key, count)| Some((key, count?)))
    }

    /// The array size keywords that are set.
    pub fn item_counts(&self) -> impl Iterator<Item = (Key, Count)> {
        [(Key::MinItems, self.min_items), (Key::MaxItems, self.max_items)]
            .into_iter()
            .filter_map(|(key, count)| Some((key, count?)))
    }
}

/// A numeric literal, kept exact when it is an integer: `1`, `-5`, `2.5`, `1e3`.
#[derive(Debug, Clone)]
pub struct Num {
    /// Its JSON text.
    pub json: String,
    /// Its value.
    pub value: NumValue,
    /// The literal's span.
    pub span: Span,
}

/// The value of a [`Num`].
#[derive(Debug, Clone, Copy)]
pub enum NumValue {
    /// An integer literal.
    Int(i128),
    /// A float literal.
    Float(f64),
}

impl NumValue {
    /// The value as a float, for comparisons across kinds.
    #[allow(clippy::cast_precision_loss)] // bounds are compared, never stored, as floats
    pub fn as_f64(self) -> f64 {
        match self {
            NumValue::Int(n) => n as f64,
            NumValue::Float(x) => x,
        }
    }
}

impl FromMeta for Num {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        match JsonLit::from_expr(expr)? {
            JsonLit { value: JsonValue::Number(value), json, span } => Ok(Num { json, value, span }),
            other => Err(darling::Error::custom(format!("expected a number, found `{}`", other.json)).with_span(expr)),
        }
    }
}

/// A non-negative integer literal: a length or a count.
#[derive(Debug, Clone, Copy)]
pub struct Count {
    /// Its value.
    pub value: u64,
    /// The literal's span.
    pub span: Span,
}

impl FromMeta for Count {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        let error = || darling::Error::custom("expected a non-negative integer").with_span(expr);
        match JsonLit::from_expr(expr).map_err(|_| error())?.value {
            JsonValue::Number(NumValue::Int(n)) => {
                let value = u64::try_from(n).map_err(|_| error())?;
                Ok(Count { value, span: expr.span() })
            }
            _ => Err(error()),
        }
    }
}

/// A JSON value written as Rust literals: `"a"`, `5`, `-1.5`, `true`, `["a", "b"]`.
#[derive(Debug, Clone)]
pub struct JsonLit {
    /// The value.
    pub value: JsonValue,
    /// Its JSON text.
    pub json: String,
    /// The expression's span.
    pub span: Span,
}

/// The value of a [`JsonLit`].
#[derive(Debug, Clone)]
pub enum JsonValue {
    /// A string.
    String(String),
    /// A number.
    Number(NumValue),
    /// A boolean.
    Bool(bool),
    /// An array of literals.
    Array(Vec<JsonLit>),
}

impl FromMeta for JsonLit {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        let span = expr.span();
        let unsupported = || {
            darling::Error::custom("expected a literal (string, number, boolean) or an array of literals")
                .with_span(expr)
        };
        let (value, json) = match expr {
            Expr::Group(group) => return Self::from_expr(&group.expr),
            Expr::Lit(lit) => literal(&lit.lit, false).ok_or_else(unsupported)?,
            Expr::Unary(unary) if matches!(unary.op, UnOp::Neg(_)) => match &*unary.expr {
                Expr::Lit(lit) => literal(&lit.lit, true).ok_or_else(unsupported)?,
                _ => return Err(unsupported()),
            },
            Expr::Array(array) => {
                let mut errors = darling::Error::accumulator();
                let items: Vec<JsonLit> =
                    array.elems.iter().filter_map(|elem| errors.handle(JsonLit::from_expr(elem))).collect();
                errors.finish()?;
                let json = format!("[{}]", items.iter().map(|i| i.json.as_str()).collect::<Vec<_>>().join(","));
                (JsonValue::Array(items), json)
            }
            _ => return Err(unsupported()),
        };
        Ok(JsonLit { value, json, span })
    }
}

/// A literal as a JSON value and its text; `None` for kinds JSON has no place for.
fn literal(lit: &Lit, negative: bool) -> Option<(JsonValue, String)> {
    let sign = if negative { "-" } else { "" };
    match lit {
        Lit::Str(s) if !negative => {
            let text = s.value();
            let json = json_string(&text);
            Some((JsonValue::String(text), json))
        }
        Lit::Bool(b) if !negative => Some((JsonValue::Bool(b.value), b.value.to_string())),
        Lit::Int(int) => {
            let n: i128 = format!("{sign}{}", int.base10_digits()).parse().ok()?;
            Some((JsonValue::Number(NumValue::Int(n)), n.to_string()))
        }
        Lit::Float(float) => {
            let x: f64 = format!("{sign}{}", float.base10_digits()).parse().ok()?;
            if !x.is_finite() {
                return None;
            }
            // `{:?}` prints the shortest text that reads back as the same f64, and JSON
            // accepts it (`1.5`, `1e300`, `-0.0`).
            Some((JsonValue::Number(NumValue::Float(x)), format!("{x:?}")))
        }
        _ => None,
    }
}

/// `text` as a JSON string literal.
pub fn json_string(text: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `tokens` with the value of an `as = ..` key that holds `<` turned into a string literal.
fn quote_stand_in(tokens: proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    use proc_macro2::{Literal, TokenTree};
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(trees.len());
    let mut i = 0;
    while let Some(tree) = trees.get(i) {
        out.push(tree.clone());
        i += 1;
        let is_as = matches!(tree, TokenTree::Ident(ident) if ident == "as");
        let eq_next = matches!(trees.get(i), Some(TokenTree::Punct(p)) if p.as_char() == '=');
        if !(is_as && eq_next) {
            continue;
        }
        out.extend(trees.get(i).cloned());
        i += 1;
        let start = i;
        let mut depth = 0usize;
        while let Some(tree) = trees.get(i) {
            match tree {
                TokenTree::Punct(p) if p.as_char() == '<' => depth += 1,
                TokenTree::Punct(p) if p.as_char() == '>' => depth = depth.saturating_sub(1),
                TokenTree::Punct(p) if p.as_char() == ',' && depth == 0 => break,
                _ => {}
            }
            i += 1;
        }
        let value = trees.get(start..i).unwrap_or_default();
        let generic = value.iter().any(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == '<'));
        if generic && let Some(first) = value.first() {
            let text: proc_macro2::TokenStream = value.iter().cloned().collect();
            let mut literal = Literal::string(&text.to_string());
            literal.set_span(first.span());
            out.push(TokenTree::Literal(literal));
        } else {
            out.extend(value.iter().cloned());
        }
    }
    out.into_iter().collect()
}
