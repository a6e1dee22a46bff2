//! The literal values `#[param]` keys take, read from Rust literals: [`Num`] (exact when an
//! integer), [`Count`], and [`JsonLit`] (a literal or an array of them); the typed tokens the
//! schema holds them as ([`JsonLit::typed`], [`NumValue::typed`]); and their JSON text for
//! messages (`Display`, [`json_string`]).

use core::fmt;

use darling::FromMeta;
use proc_macro2::{Literal, Span, TokenStream};
use quote::quote;
use syn::spanned::Spanned;
use syn::{Expr, Lit, UnOp};

/// A numeric literal, kept exact when it is an integer: `1`, `-5`, `2.5`, `1e3`.
#[derive(Debug, Clone)]
pub struct Num {
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
    #[expect(clippy::cast_precision_loss, reason = "bounds are compared, never stored, as floats")]
    pub fn as_f64(self) -> f64 {
        match self {
            NumValue::Int(n) => n as f64,
            NumValue::Float(x) => x,
        }
    }

    /// `#ty::Int(n)` or `#ty::Float(x)`, where `ty` is `KeywordValue` or `Lit` (whose
    /// variants share their names).
    pub fn typed(self, ty: &TokenStream) -> TokenStream {
        match self {
            NumValue::Int(n) => {
                let n = Literal::i128_unsuffixed(n);
                quote!(#ty::Int(#n))
            }
            NumValue::Float(x) => {
                let x = Literal::f64_unsuffixed(x);
                quote!(#ty::Float(#x))
            }
        }
    }
}

/// As JSON writes it: the JSON text of a value in a message.
impl fmt::Display for NumValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NumValue::Int(n) => write!(f, "{n}"),
            // `{:?}` prints the shortest text that reads back as the same f64, and JSON
            // accepts it (`1.5`, `1e300`, `-0.0`).
            NumValue::Float(x) => write!(f, "{x:?}"),
        }
    }
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)
    }
}

impl FromMeta for Num {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        match JsonLit::from_expr(expr)? {
            JsonLit { value: JsonValue::Number(value), span } => Ok(Num { value, span }),
            other => Err(darling::Error::custom(format!("expected a number, found `{other}`")).with_span(expr)),
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
        let value = match expr {
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
                JsonValue::Array(items)
            }
            _ => return Err(unsupported()),
        };
        Ok(JsonLit { value, span })
    }
}

impl JsonLit {
    /// The value as `#ty::Str("a")`, `#ty::Int(5)`, ..., `#ty::List(&[__tc_Lit::..])`, where
    /// `ty` is `KeywordValue` or `Lit` (whose variants share their names): the typed literal
    /// the runtime reads without parsing.
    pub fn typed(&self, ty: &TokenStream) -> TokenStream {
        match &self.value {
            JsonValue::String(text) => quote!(#ty::Str(#text)),
            JsonValue::Number(number) => number.typed(ty),
            JsonValue::Bool(flag) => quote!(#ty::Bool(#flag)),
            JsonValue::Array(items) => {
                let items = items.iter().map(|item| item.typed(&quote!(__tc_Lit)));
                quote!(#ty::List(&[#(#items),*]))
            }
        }
    }
}

/// The JSON text of the value, for messages.
impl fmt::Display for JsonLit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.value {
            JsonValue::String(text) => f.write_str(&json_string(text)),
            JsonValue::Number(number) => number.fmt(f),
            JsonValue::Bool(flag) => flag.fmt(f),
            JsonValue::Array(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    item.fmt(f)?;
                }
                f.write_str("]")
            }
        }
    }
}

/// A literal as a JSON value; `None` for kinds JSON has no place for.
fn literal(lit: &Lit, negative: bool) -> Option<JsonValue> {
    let sign = if negative { "-" } else { "" };
    match lit {
        Lit::Str(s) if !negative => Some(JsonValue::String(s.value())),
        Lit::Bool(b) if !negative => Some(JsonValue::Bool(b.value)),
        Lit::Int(int) => {
            let n: i128 = format!("{sign}{}", int.base10_digits()).parse().ok()?;
            Some(JsonValue::Number(NumValue::Int(n)))
        }
        Lit::Float(float) => {
            let x: f64 = format!("{sign}{}", float.base10_digits()).parse().ok()?;
            x.is_finite().then_some(JsonValue::Number(NumValue::Float(x)))
        }
        _ => None,
    }
}

/// `text` as a JSON string literal, for messages.
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
